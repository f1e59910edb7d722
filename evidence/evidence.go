// Package evidence keeps what was said in a conversation retrievable,
// sentence by sentence, for as long as the user's memory lasts.
//
// When a turn is recorded, each of its sentences that could be evidence of
// real state is stored in the caller's private space, without a TTL, and
// indexed for BM25 ranking (package lexical's terms, package search's
// scoring). Headings, hypothetical and draft sentences are never evidence
// and are not stored; questions, negations and suggestions are: they are
// true evidence of what was said. A HYPOTHETICAL or DRAFT turn stores
// nothing.
//
// A sentence is an event: it was said at its turn's time (valid time) and
// learned when the turn was recorded (transaction time). It can be
// retired later, when the fact extracted from it is superseded or when its
// whole turn is: a retirement is recorded at a transaction time and ends
// the sentence's valid time there, so temporal.View decides what a read
// sees, as for every other record.
//
// Key layout (store.TableEvidence*):
//
//	TableEvidence         turn id seg | index (2)                 -> Sentence (JSON)
//	TableEvidencePosting  term seg | recordedAt | at | turn id seg | index (2) tf (2) len (2) -> nil
//	TableEvidenceHist     the same keys, of retired sentences      -> nil
//	TableEvidenceRetired  turn id seg | index (2)                 -> retirement (JSON)
//	TableEvidenceStats    shard (1)                               -> live docs, length (varints)
//	TableEvidenceEpoch    (empty)                                 -> a random value, rewritten with every change
//
// The reserved term "" (lexical.Terms never yields it) has a posting for
// every sentence, so that the statistics of any view are an index read.
// Retiring a sentence moves its postings from the live table to the
// history and takes it out of the statistics, so a current search reads
// live postings and stored totals only, whatever was retired; a view of
// the past reads both tables and the retirements, and evaluates each
// posting with temporal.View.
package evidence

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
)

// termAll is the reserved term with a posting for every sentence.
const termAll = ""

// maxCount bounds term frequencies, lengths and sentence indexes (2 bytes).
const maxCount = 1<<16 - 1

// Turn is the recorded turn whose sentences are indexed.
type Turn struct {
	ID         string
	SessionID  string
	Speaker    string // as recorded, e.g. "USER"
	At         time.Time
	RecordedAt time.Time
	Scope      facts.Scope // HYPOTHETICAL and DRAFT turns index nothing
}

// Sentence is one stored sentence of a turn.
type Sentence struct {
	TurnID     string    `json:"turn"`
	SessionID  string    `json:"session"`
	Index      int       `json:"index"` // extract.Sentence.Index
	Text       string    `json:"text"`
	Speaker    string    `json:"speaker"`
	At         time.Time `json:"at"`
	RecordedAt time.Time `json:"recordedAt"`
	Len        int       `json:"len"` // in terms
}

// ID returns the sentence's id: its turn's id, "#", its index.
func (s Sentence) ID() string { return ID(s.TurnID, s.Index) }

// ID names sentence index of turn turnID.
func ID(turnID string, index int) string { return turnID + "#" + strconv.Itoa(index) }

// Hit is a sentence found by SearchTx, with its BM25 score.
type Hit struct {
	Sentence
	Score float64
}

// retirement is the value of store.TableEvidenceRetired.
type retirement struct {
	At time.Time `json:"at"`
	By string    `json:"by"`
}

// Evidence reports whether a sentence of the given extract reason may be
// evidence of real state: every sentence but headings, hypothetical and
// draft ones.
func Evidence(reason string) bool {
	switch reason {
	case extract.ReasonHeading, extract.ReasonHypothetical, extract.ReasonDraft:
		return false
	}
	return true
}

func sentenceKey(turnID string, index int) []byte {
	return store.Suffix(nil).Str(turnID).Raw(string(binary.BigEndian.AppendUint16(nil, uint16(index))))
}

func postingKey(term string, s Sentence, tf int) []byte {
	var tail [6]byte
	binary.BigEndian.PutUint16(tail[0:], uint16(s.Index))
	binary.BigEndian.PutUint16(tail[2:], uint16(min(tf, maxCount)))
	binary.BigEndian.PutUint16(tail[4:], uint16(min(s.Len, maxCount)))
	return store.Suffix(nil).Str(term).Time(s.RecordedAt).Time(s.At).Str(s.TurnID).Raw(string(tail[:]))
}

// posting is a posting key read back.
type posting struct {
	recordedAt, at time.Time
	turnID         string
	index, tf, len int
}

func (p posting) ref() string { return p.turnID + "\x00" + strconv.Itoa(p.index) }

// parsePosting reads a posting key whose first skip bytes are its term seg.
func parsePosting(suffix []byte, skip int) (posting, error) {
	if len(suffix) < skip+6 {
		return posting{}, fmt.Errorf("evidence: posting key: %w", store.ErrBadKey)
	}
	tail := suffix[len(suffix)-6:]
	r := store.NewReader(suffix[skip : len(suffix)-6])
	p := posting{recordedAt: r.Time(), at: r.Time(), turnID: r.Str()}
	if err := r.Err(); err != nil || r.Rest() != "" {
		return posting{}, fmt.Errorf("evidence: posting key: %w", errors.Join(err, store.ErrBadKey))
	}
	p.index = int(binary.BigEndian.Uint16(tail[0:]))
	p.tf = int(binary.BigEndian.Uint16(tail[2:]))
	p.len = int(binary.BigEndian.Uint16(tail[4:]))
	return p, nil
}

// statShards is how many records the totals are split over.
const statShards = 16

// readStats returns the live sentences and their total length, summed
// over the shards.
func readStats(tx *store.Txn) (docs, length int, err error) {
	err = tx.Scan(tx.Partition().Private(), store.TableEvidenceStats, nil, store.ScanOptions{},
		func(_ []byte, it store.Item) (bool, error) {
			err := it.Value(func(b []byte) error {
				d, l, err := decodeCounts(b)
				docs, length = docs+d, length+l
				return err
			})
			return err == nil, err
		})
	return docs, length, err
}

func decodeCounts(b []byte) (docs, length int, err error) {
	for _, p := range []*int{&docs, &length} {
		v, n := binary.Varint(b)
		if n <= 0 {
			return 0, 0, errors.New("evidence: malformed statistics record")
		}
		*p, b = int(v), b[n:]
	}
	return docs, length, nil
}

// addStats adds docs and length to a shard drawn at random (a shard may go
// below zero; only the sum means anything). The shard is read before it
// is written, so two writers of one shard conflict and retry instead of
// losing a count.
func addStats(tx *store.Txn, docs, length int) error {
	sp := tx.Partition().Private()
	k := []byte{byte(rand.IntN(statShards))}
	var d, l int
	b, err := tx.GetRaw(sp, store.TableEvidenceStats, k)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return err
	default:
		if d, l, err = decodeCounts(b); err != nil {
			return err
		}
	}
	d, l = d+docs, l+length
	if d == 0 && l == 0 {
		return tx.Delete(sp, store.TableEvidenceStats, k)
	}
	return tx.PutRaw(sp, store.TableEvidenceStats, k, binary.AppendVarint(binary.AppendVarint(nil, int64(d)), int64(l)))
}

// termFreqs returns the posting terms of text and their frequencies: its
// index terms, and the reserved term.
func termFreqs(text string) (map[string]int, int) {
	terms := lexical.Terms(text)
	tf := map[string]int{termAll: 1}
	for _, t := range terms {
		tf[t]++
	}
	return tf, min(len(terms), maxCount)
}

// IndexTurnTx stores and indexes the evidence among sentences, the
// sentences extract.Analyze found in turn t, in the caller's private
// space, in tx. A HYPOTHETICAL or DRAFT turn, and a sentence that is not
// evidence (Evidence) or has no index terms, store nothing.
func IndexTurnTx(tx *store.Txn, t Turn, sentences []extract.Sentence) error {
	if !t.Scope.Real() {
		return nil
	}
	sp := tx.Partition().Private()
	docs, length := 0, 0
	for _, es := range sentences {
		if !Evidence(es.Reason) || es.Index < 0 || es.Index > maxCount {
			continue
		}
		tf, n := termFreqs(es.Text)
		if n == 0 {
			continue
		}
		s := Sentence{
			TurnID: t.ID, SessionID: t.SessionID, Index: es.Index, Text: es.Text,
			Speaker: t.Speaker, At: t.At, RecordedAt: t.RecordedAt, Len: n,
		}
		if err := tx.Put(sp, store.TableEvidence, sentenceKey(t.ID, es.Index), s, 0); err != nil {
			return err
		}
		for term, f := range tf {
			if err := tx.PutRaw(sp, store.TableEvidencePosting, postingKey(term, s, f), nil); err != nil {
				return err
			}
		}
		docs++
		length += s.Len
	}
	if docs == 0 {
		return nil
	}
	if err := touch(tx); err != nil {
		return err
	}
	return addStats(tx, docs, length)
}

// RetireSentenceTx retires sentence index of turn turnID in the caller's
// private space, as recorded at transaction time at, by the record named
// by: views that know at leave it out of search. A sentence that is not
// stored (never evidence, another user's, or from before the index) or
// already retired is left as it is.
func RetireSentenceTx(tx *store.Txn, turnID string, index int, by string, at time.Time) error {
	if index < 0 || index > maxCount {
		return nil
	}
	sp := tx.Partition().Private()
	var s Sentence
	err := tx.Get(sp, store.TableEvidence, sentenceKey(turnID, index), &s)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return retire(tx, s, by, at)
}

// RetireTurnTx retires every stored sentence of turn turnID, as
// RetireSentenceTx does.
func RetireTurnTx(tx *store.Txn, turnID, by string, at time.Time) error {
	sp := tx.Partition().Private()
	var ss []Sentence
	err := tx.Scan(sp, store.TableEvidence, store.Suffix(nil).Str(turnID), store.ScanOptions{},
		func(_ []byte, it store.Item) (bool, error) {
			var s Sentence
			if err := it.Decode(&s); err != nil {
				return false, err
			}
			ss = append(ss, s)
			return true, nil
		})
	if err != nil {
		return err
	}
	for _, s := range ss {
		if err := retire(tx, s, by, at); err != nil {
			return err
		}
	}
	return nil
}

// EraseSentenceTx erases sentence index of turn turnID from the caller's
// private space: its text, its postings (live and history) and its
// retirement, so that no view finds it again. A sentence that is not
// stored is left as it is.
func EraseSentenceTx(tx *store.Txn, turnID string, index int) error {
	if index < 0 || index > maxCount {
		return nil
	}
	sp := tx.Partition().Private()
	k := sentenceKey(turnID, index)
	var s Sentence
	err := tx.Get(sp, store.TableEvidence, k, &s)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	retired, err := tx.Exists(sp, store.TableEvidenceRetired, k)
	if err != nil {
		return err
	}
	if err := touch(tx); err != nil {
		return err
	}
	tf, _ := termFreqs(s.Text)
	for term, f := range tf {
		pk := postingKey(term, s, f)
		if err := tx.Delete(sp, store.TableEvidencePosting, pk); err != nil {
			return err
		}
		if err := tx.Delete(sp, store.TableEvidenceHist, pk); err != nil {
			return err
		}
	}
	for _, t := range []store.Table{store.TableEvidence, store.TableEvidenceRetired} {
		if err := tx.Delete(sp, t, k); err != nil {
			return err
		}
	}
	if retired {
		return nil // already out of the statistics
	}
	return addStats(tx, -1, -s.Len)
}

// retire records s's retirement, moves its postings to the history and
// takes it out of the statistics.
func retire(tx *store.Txn, s Sentence, by string, at time.Time) error {
	sp := tx.Partition().Private()
	k := sentenceKey(s.TurnID, s.Index)
	done, err := tx.Exists(sp, store.TableEvidenceRetired, k)
	if err != nil || done {
		return err
	}
	if err := touch(tx); err != nil {
		return err
	}
	if err := tx.Put(sp, store.TableEvidenceRetired, k, retirement{At: at.UTC(), By: by}, 0); err != nil {
		return err
	}
	tf, _ := termFreqs(s.Text)
	for term, f := range tf {
		pk := postingKey(term, s, f)
		if err := tx.Delete(sp, store.TableEvidencePosting, pk); err != nil {
			return err
		}
		if err := tx.PutRaw(sp, store.TableEvidenceHist, pk, nil); err != nil {
			return err
		}
	}
	return addStats(tx, -1, -s.Len)
}

// loadRetired reads every retirement of the caller's sentences, by ref:
// views of the past need them all.
func loadRetired(tx *store.Txn) (map[string]retirement, error) {
	out := map[string]retirement{}
	err := tx.Scan(tx.Partition().Private(), store.TableEvidenceRetired, nil, store.ScanOptions{},
		func(suffix []byte, it store.Item) (bool, error) {
			r := store.NewReader(suffix)
			turnID := r.Str()
			rest := r.Rest()
			if r.Err() != nil || len(rest) != 2 {
				return false, fmt.Errorf("evidence: retirement key: %w", store.ErrBadKey)
			}
			var rt retirement
			if err := it.Decode(&rt); err != nil {
				return false, err
			}
			out[turnID+"\x00"+strconv.Itoa(int(binary.BigEndian.Uint16([]byte(rest))))] = rt
			return true, nil
		})
	return out, err
}

// SearchTx returns up to limit of the caller's sentences that hold in view
// v, ranked by BM25 relevance to query, best first (ties: said later
// first, then turn id and index). Sentences that share no term with the
// query are not returned. The statistics are those of the sentences that
// hold in v, so a view of the past ranks as it would have then.
func SearchTx(tx *store.Txn, query string, v temporal.View, limit int) ([]Hit, error) {
	terms := distinct(lexical.Terms(query))
	if len(terms) == 0 || limit <= 0 {
		return nil, nil
	}
	sp := tx.Partition().Private()
	// A current search in a View answers from what liveMemo remembers
	// under the space's evidence epoch, and remembers what it reads.
	epoch := ""
	if v.Current() && !tx.Writable() {
		var err error
		if epoch, err = tx.Epoch(sp, store.TableEvidenceEpoch); err != nil {
			return nil, err
		}
	}
	// The current view reads the live postings, all of which hold in it;
	// a view of the past reads the history too, and judges each posting.
	tables := []store.Table{store.TableEvidencePosting}
	holds := func(posting) bool { return true }
	if !v.Current() {
		retired, err := loadRetired(tx)
		if err != nil {
			return nil, err
		}
		tables = append(tables, store.TableEvidenceHist)
		holds = func(p posting) bool {
			rec := temporal.Record{Valid: temporal.Interval{From: p.at}, RecordedAt: p.recordedAt}
			if rt, ok := retired[p.ref()]; ok {
				rec.Retirement = temporal.Ended(rt.At)
			}
			// Without an AsOf, a sentence holds until retired: the
			// clock is not needed.
			return v.Holds(rec, time.Time{})
		}
	}
	scan := func(term string, fn func(posting)) error {
		prefix := store.Suffix(nil).Str(term)
		for _, table := range tables {
			err := tx.Scan(sp, table, prefix, store.ScanOptions{KeysOnly: true},
				func(suffix []byte, _ store.Item) (bool, error) {
					p, err := parsePosting(suffix, len(prefix))
					if err != nil {
						return false, err
					}
					if holds(p) {
						fn(p)
					}
					return true, nil
				})
			if err != nil {
				return err
			}
		}
		return nil
	}

	// Corpus statistics of the view.
	var docs, length int
	var err error
	if v.Current() {
		var ok bool
		if docs, length, ok = live.stats(sp, epoch); !ok {
			if docs, length, err = readStats(tx); err != nil {
				return nil, err
			}
			live.putStats(sp, epoch, docs, length)
		}
	} else if err := scan(termAll, func(p posting) { docs, length = docs+1, length+p.len }); err != nil {
		return nil, err
	}
	if docs <= 0 {
		return nil, nil
	}
	avg := float64(length) / float64(docs)

	// Each term's postings, then the scores, term by term in sorted order
	// (as search.BM25.Score sums them).
	type cand struct {
		p     posting
		score float64
	}
	// Keyed by turn id and index (what posting.ref names), without
	// making a string of them for each posting.
	cands := map[sentenceRef]*cand{}
	bm := search.DefaultBM25()
	var ps []posting
	for _, term := range terms {
		if rem, ok := live.postings(sp, epoch, term); ok {
			ps = rem
		} else {
			ps = nil // a remembered slice is not to be appended to
			if err := scan(term, func(p posting) { ps = append(ps, p) }); err != nil {
				return nil, err
			}
			live.putPostings(sp, epoch, term, ps)
		}
		for _, p := range ps {
			ref := sentenceRef{p.turnID, p.index}
			c := cands[ref]
			if c == nil {
				c = &cand{p: p}
				cands[ref] = c
			}
			c.score += bm.Term(len(ps), docs, avg, p.len, p.tf)
		}
	}
	ranked := make([]*cand, 0, len(cands))
	for _, c := range cands {
		if c.score > 0 {
			ranked = append(ranked, c)
		}
	}
	slices.SortFunc(ranked, func(a, b *cand) int {
		return cmp.Or(
			cmp.Compare(b.score, a.score),
			b.p.at.Compare(a.p.at),
			strings.Compare(a.p.turnID, b.p.turnID),
			cmp.Compare(a.p.index, b.p.index),
		)
	})
	if len(ranked) > limit {
		ranked = ranked[:limit]
	}
	hits := make([]Hit, 0, len(ranked))
	for _, c := range ranked {
		ref := sentenceRef{c.p.turnID, c.p.index}
		s, ok := live.sentence(sp, epoch, ref)
		if !ok {
			var err error
			if s, err = readSentence(tx, sp, sentenceKey(c.p.turnID, c.p.index)); err != nil {
				return nil, fmt.Errorf("evidence: sentence %s: %w", ID(c.p.turnID, c.p.index), err)
			}
			live.putSentence(sp, epoch, ref, s)
		}
		hits = append(hits, Hit{Sentence: s, Score: c.score})
	}
	return hits, nil
}

// distinct returns the distinct terms, sorted.
func distinct(ts []string) []string {
	ts = slices.Clone(ts)
	slices.Sort(ts)
	return slices.Compact(ts)
}
