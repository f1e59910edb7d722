// Package search keeps a persistent BM25 inverted index of facts in Badger.
//
// The index is kept by the write pipeline (it is a pipeline.Indexer): it
// is updated inside the transaction that writes a fact, so it commits or
// aborts with it. Each space holds
//
//   - live postings (store.TableSearchLive) of the facts that are not
//     superseded, newest first per term, with their valid time; a
//     supersession moves the retired fact's postings to the history, so
//     current queries never meet it;
//   - history postings (store.TableSearchHist) of superseded facts, with
//     the valid time and supersession time needed to evaluate a
//     temporal.View from the posting alone (a view of the past reads both
//     tables);
//   - statistics (store.TableSearchStats) of the live documents: the
//     number of documents, their total length, and each term's document
//     frequency, so BM25 is computed from the index only.
//
// Documents are a fact's key and value, split by lexical.Terms. Two
// reserved terms, which Terms can never produce, list every fact and every
// constraint, so that "all valid facts" and "all active constraints" are
// index reads too.
package search

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Reserved terms. lexical.Terms yields only letters, digits and decimal
// points, so these never collide with a word.
const (
	// TermAll has a posting for every fact.
	TermAll = "\x00all"
	// TermConstraint has a posting for every fact marked as a constraint.
	TermConstraint = "\x00constraint"
)

// maxCount bounds term frequencies and document lengths (2 bytes each).
const maxCount = 1<<16 - 1

// Index maintains and reads the inverted index. It holds no state of its
// own: everything is in the store, read and written through a Txn.
type Index struct {
	cache *statsCache
}

// New returns an Index.
func New() *Index { return &Index{cache: newStatsCache()} }

// Posting is one document of a term.
type Posting struct {
	Space      tenancy.Space
	ID         string
	RecordedAt time.Time
	TF         int // occurrences of the term in the document
	Len        int // the document's length in terms
	// Class is the fact's read class, known only to views of the past
	// (the current view reads keys alone): "" when unrestricted.
	Class string
}

// histValue is what a posting's value says (posting.go encodes it): what a
// view needs to decide whether the fact holds in it. The JSON tags are
// those of postings written before the binary encoding.
type histValue struct {
	ValidFrom    time.Time  `json:"f"`
	ValidTo      *time.Time `json:"t,omitempty"`
	SupersededAt *time.Time `json:"s,omitempty"`
	// Class is the fact's read class (classOf its restriction); "" when
	// it has none.
	Class string `json:"c,omitempty"`
}

// A statistics record's value is one or two varints: a term's document
// frequency, or the corpus' document count and total length. They are
// read by the hundred on every query, so they are not JSON.
func encodeCounts(ns ...int) []byte {
	var b []byte
	for _, n := range ns {
		b = binary.AppendVarint(b, int64(n))
	}
	return b
}

// decodeCounts reads len(into) varints of b into into.
func decodeCounts(b []byte, into ...*int) error {
	for _, p := range into {
		v, n := binary.Varint(b)
		if n <= 0 {
			return errors.New("search: malformed statistics record")
		}
		*p, b = int(v), b[n:]
	}
	return nil
}

// getCounts reads the counts of the record at k, zero when there is none:
// its first, and its second for a corpus record of two counts (pair). The
// counts are read into one array, not through pointers the caller passes,
// so that a read (one per statistic a write changes) allocates only the
// callback and that array.
func getCounts(tx *store.Txn, sp tenancy.Space, k []byte, pair bool) (x, y int, err error) {
	var c [2]int
	err = tx.ReadRaw(sp, store.TableSearchStats, k, func(b []byte) error {
		if pair {
			return decodeCounts(b, &c[0], &c[1])
		}
		return decodeCounts(b, &c[0])
	})
	if errors.Is(err, store.ErrNotFound) {
		return 0, 0, nil
	}
	return c[0], c[1], err
}

// document is a fact as the index sees it.
type document struct {
	tf     map[string]int
	length int
}

func docOf(f facts.Fact) document {
	d := document{tf: map[string]int{}}
	for _, t := range lexical.Terms(f.Key + " " + f.ValueText()) {
		d.tf[t]++
		d.length++
	}
	d.length = min(d.length, maxCount)
	return d
}

// The reserved terms a fact has postings under, each with frequency 1.
var (
	reservedAll        = []string{TermAll}
	reservedConstraint = []string{TermAll, TermConstraint}
)

// reservedOf returns the reserved terms f has postings under; its words
// (d.tf, each with its frequency capped at maxCount) are the others.
func reservedOf(f facts.Fact) []string {
	if f.IsConstraint {
		return reservedConstraint
	}
	return reservedAll
}

// eachPosting calls fn with every term the fact of d has postings under
// and its frequency: its words and the reserved terms (reservedOf).
func (d document) eachPosting(f facts.Fact, fn func(term string, tf int) error) error {
	for t, n := range d.tf {
		if err := fn(t, min(n, maxCount)); err != nil {
			return err
		}
	}
	for _, t := range reservedOf(f) {
		if err := fn(t, 1); err != nil {
			return err
		}
	}
	return nil
}

func postingKey(term string, at time.Time, id string, tf, length int) []byte {
	return appendPostingKey(make([]byte, 0, 2+len(term)+temporal.KeyLen+2+len(id)+4), term, at, id, tf, length)
}

// appendPostingKey writes postingKey's key over b (reusing its capacity:
// the store copies every key it is given), for writers of many postings.
func appendPostingKey(b []byte, term string, at time.Time, id string, tf, length int) []byte {
	var tail [4]byte
	binary.BigEndian.PutUint16(tail[:2], uint16(tf))
	binary.BigEndian.PutUint16(tail[2:], uint16(length))
	return store.Suffix(b[:0]).Str(term).Time(at).Str(id).Raw(string(tail[:]))
}

// parsePosting reads a posting key back (the term prefix included).
func parsePosting(sp tenancy.Space, suffix []byte) (Posting, error) {
	r := store.NewReader(suffix)
	r.Str()
	if err := r.Err(); err != nil {
		return Posting{}, fmt.Errorf("search: posting key: %w", err)
	}
	return parsePostingAfter(sp, suffix, len(suffix)-len(r.Rest()))
}

// parsePostingAfter reads a posting key back whose first skip bytes are
// its term segment, as a scan over the term's prefix knows them. Only the
// ID is copied: postings are read by the thousand per query.
func parsePostingAfter(sp tenancy.Space, suffix []byte, skip int) (Posting, error) {
	if len(suffix) < skip+4 {
		return Posting{}, fmt.Errorf("search: posting key: %w", store.ErrBadKey)
	}
	tail := suffix[len(suffix)-4:]
	r := store.NewReader(suffix[skip : len(suffix)-4])
	p := Posting{Space: sp, RecordedAt: r.Time(), ID: r.Str()}
	if err := r.Err(); err != nil || r.Rest() != "" {
		return Posting{}, fmt.Errorf("search: posting key: %w", errors.Join(err, store.ErrBadKey))
	}
	p.TF = int(binary.BigEndian.Uint16(tail[:2]))
	p.Len = int(binary.BigEndian.Uint16(tail[2:]))
	return p, nil
}

// FactWritten indexes written and retires superseded, in tx.
func (ix *Index) FactWritten(tx *store.Txn, written facts.Fact, superseded *facts.Fact) error {
	if written.Stale != nil {
		// Invalid from birth and in every view: nothing to find.
		return nil
	}
	sp, err := facts.SpaceOf(tx.Partition(), written.MemoryType)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	d := docOf(written)
	cl, restriction := classOf(written.RestrictedTo)
	hv := appendPostingValue(nil, written.RecordedAt, histValue{ValidFrom: written.ValidFrom, ValidTo: written.ValidTo, Class: cl})
	var k []byte
	err = d.eachPosting(written, func(t string, n int) error {
		k = appendPostingKey(k, t, written.RecordedAt, written.ID, n, d.length)
		return tx.PutRaw(sp, store.TableSearchLive, k, hv)
	})
	if err != nil {
		return err
	}
	delta := deltaOf(tx)
	delta.add(sp, d, cl, +1)
	delta.register(sp, cl, restriction)
	if superseded != nil {
		return retire(tx, *superseded, delta)
	}
	return nil
}

// FactRetired moves the postings of a fact retired without a successor (a
// retraction) to history, in tx.
func (ix *Index) FactRetired(tx *store.Txn, retired facts.Fact) error {
	return retire(tx, retired, deltaOf(tx))
}

// retire moves old's live postings to history with its retired times and
// takes it out of the statistics (delta).
func retire(tx *store.Txn, old facts.Fact, delta *statsDelta) error {
	osp, err := facts.SpaceOf(tx.Partition(), old.MemoryType)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	od := docOf(old)
	cl, _ := classOf(old.RestrictedTo)
	ohv := appendPostingValue(nil, old.RecordedAt, histValue{ValidFrom: old.ValidFrom, ValidTo: old.ValidTo, SupersededAt: old.SupersededAt, Class: cl})
	// A fact written before the index existed has no live postings and
	// nothing to take out of the statistics.
	live, err := tx.Exists(osp, store.TableSearchLive, postingKey(TermAll, old.RecordedAt, old.ID, 1, od.length))
	if err != nil {
		return err
	}
	var k []byte
	err = od.eachPosting(old, func(t string, n int) error {
		k = appendPostingKey(k, t, old.RecordedAt, old.ID, n, od.length)
		if live {
			if err := tx.Delete(osp, store.TableSearchLive, k); err != nil {
				return err
			}
		}
		return tx.PutRaw(osp, store.TableSearchHist, k, ohv)
	})
	if err != nil {
		return err
	}
	if live {
		delta.add(osp, od, cl, -1)
	}
	return nil
}

// FactForgotten erases every posting of the forgotten fact, live and
// history, whose keys hold the words of its key and value, and takes it
// out of the statistics, in tx. The tombstone is never indexed.
func (ix *Index) FactForgotten(tx *store.Txn, before facts.Fact) error {
	sp, err := facts.SpaceOf(tx.Partition(), before.MemoryType)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	d := docOf(before)
	live, err := tx.Exists(sp, store.TableSearchLive, postingKey(TermAll, before.RecordedAt, before.ID, 1, d.length))
	if err != nil {
		return err
	}
	var k []byte
	err = d.eachPosting(before, func(t string, n int) error {
		k = appendPostingKey(k, t, before.RecordedAt, before.ID, n, d.length)
		if err := tx.Delete(sp, store.TableSearchLive, k); err != nil {
			return err
		}
		return tx.Delete(sp, store.TableSearchHist, k)
	})
	if err != nil {
		return err
	}
	cl, _ := classOf(before.RestrictedTo)
	delta := deltaOf(tx)
	if live {
		delta.add(sp, d, cl, -1)
	}
	// Live or retired, its words may lie in shard records that add up to
	// zero (counted in one shard, taken out in another).
	delta.purge(sp, d, cl)
	return nil
}

// statShards is how many records each statistic is split over, so that
// concurrent writers rarely touch the same record (one record per
// statistic would make every pair of writers conflict on the corpus
// totals and on every word they share). A transaction writes the net
// change of each statistic it changed, document frequencies and corpus
// totals alike, to one shard drawn at random on every attempt: a batch of
// a thousand facts rewrites each of its words once, not once per shard its
// facts' keys fall in, and a supersession nets out before anything is
// written, touching only the words that changed. A shard's count may go
// below zero (a document counted in one shard is taken out in another);
// only the sum means anything, and readers add the shards up. A record
// whose count comes back to zero is deleted. Records written before this
// rule (a term's counts in the shard of the fact's key) are shards like
// any other.
//
// Forgetting keeps no forgotten word in a key: when the word's counts in
// a class add up to zero once the forgotten document is out (or, for a
// document retired before, as they stand), every shard record of it is
// deleted (purge).
const statShards = 256

// statsDelta gathers the statistics changes of a transaction's writes, so
// that a document taken out and another put in cancel before anything is
// read or written, and a batch reads and writes each record once. It is
// applied when the transaction commits, or before a read of the
// statistics in the same transaction (flushStats).
type statsDelta struct {
	spaces []spaceDelta
}

type spaceDelta struct {
	sp     tenancy.Space
	df     map[string]int // class term -> change
	corpus map[string][2]int
	// classes are restricted classes to register: name -> restriction JSON.
	classes map[string][]byte
	// purged are class terms of forgotten documents, whose shard records
	// are deleted when their counts add up to zero.
	purged map[string]bool
}

func (sd *statsDelta) of(sp tenancy.Space) *spaceDelta {
	for i := range sd.spaces {
		if sd.spaces[i].sp == sp {
			return &sd.spaces[i]
		}
	}
	sd.spaces = append(sd.spaces, spaceDelta{sp: sp, df: map[string]int{}, corpus: map[string][2]int{}})
	return &sd.spaces[len(sd.spaces)-1]
}

// add counts document d of read class cl in (sign +1) or out (-1) of sp.
func (sd *statsDelta) add(sp tenancy.Space, d document, cl string, sign int) {
	s := sd.of(sp)
	for t := range d.tf {
		s.df[classTerm(cl, t)] += sign
	}
	c := s.corpus[cl]
	c[0] += sign
	c[1] += sign * d.length
	s.corpus[cl] = c
}

// purge marks the words of forgotten document d, of read class cl, for
// deletion from every shard when their counts add up to zero.
func (sd *statsDelta) purge(sp tenancy.Space, d document, cl string) {
	s := sd.of(sp)
	if s.purged == nil {
		s.purged = map[string]bool{}
	}
	for t := range d.tf {
		s.purged[classTerm(cl, t)] = true
	}
}

// register records restricted class cl of sp, with its restriction's
// JSON, in the space's class registry.
func (sd *statsDelta) register(sp tenancy.Space, cl string, restriction []byte) {
	if cl == "" {
		return
	}
	s := sd.of(sp)
	if s.classes == nil {
		s.classes = map[string][]byte{}
	}
	s.classes[cl] = restriction
}

// statsWork is the key of a transaction's statsDelta.
type statsWork struct{}

// deltaOf returns the statistics changes gathered in tx.
func deltaOf(tx *store.Txn) *statsDelta {
	return tx.Defer(statsWork{}, func() store.Deferred { return &statsDelta{} }).(*statsDelta)
}

// flushStats applies the changes gathered in tx, so that a read of the
// statistics in tx sees them.
func flushStats(tx *store.Txn) error { return tx.Flush(statsWork{}) }

// Flush applies the changes; it is store.Deferred.
func (sd *statsDelta) Flush(tx *store.Txn) error { return sd.apply(tx) }

// apply writes the net changes, each to the shard drawn for this
// attempt. Each record is read before it is written, so two writers of
// the same record conflict and retry instead of losing a count; the
// version of each term bucket whose document frequencies changed, and the
// space's corpus version (its card epoch) when its totals or classes did,
// change with them (stats.go).
func (sd *statsDelta) apply(tx *store.Txn) error {
	// k holds each record's suffix in turn: the store copies every key
	// it is given.
	var k []byte
	for _, s := range sd.spaces {
		shard := string([]byte{byte(rand.IntN(statShards))})
		changed := false
		var buckets [termBuckets]bool
		for ct, n := range s.df {
			if n == 0 {
				continue
			}
			buckets[bucketOf(ct)] = true
			k = store.Suffix(k[:0]).Str(ct).Raw(shard)
			if err := addCounts(tx, s.sp, k, n, 0, false); err != nil {
				return err
			}
		}
		for ct := range s.purged {
			purged, err := purge(tx, s.sp, ct)
			if err != nil {
				return err
			}
			if purged {
				buckets[bucketOf(ct)] = true
			}
		}
		// Classes in a fixed order, so a retry writes the same records.
		corpus := make([]string, 0, len(s.corpus))
		for cl := range s.corpus {
			corpus = append(corpus, cl)
		}
		slices.Sort(corpus)
		for _, cl := range corpus {
			n := s.corpus[cl]
			if n[0] == 0 && n[1] == 0 {
				continue
			}
			changed = true
			k = store.Suffix(k[:0]).Str(classTerm(cl, "")).Raw(shard)
			if err := addCounts(tx, s.sp, k, n[0], n[1], true); err != nil {
				return err
			}
		}
		for cl, raw := range s.classes {
			k := store.Suffix(nil).Str(classRegistry).Str(cl)
			if ok, err := tx.Exists(s.sp, store.TableSearchStats, k); err != nil || ok {
				if err != nil {
					return err
				}
				continue
			}
			changed = true
			if err := tx.PutRaw(s.sp, store.TableSearchStats, k, raw); err != nil {
				return err
			}
		}
		if err := bumpVersions(tx, s.sp, &buckets, changed); err != nil {
			return err
		}
	}
	return nil
}

// addCounts adds a (and b, for a corpus record of two counts: pair) to the
// statistics record at k of sp, deleting it when its counts come to zero.
func addCounts(tx *store.Txn, sp tenancy.Space, k []byte, a, b int, pair bool) error {
	x, y, err := getCounts(tx, sp, k, pair)
	if err != nil {
		return err
	}
	x, y = x+a, y+b
	switch {
	case x == 0 && y == 0:
		return tx.Delete(sp, store.TableSearchStats, k)
	case pair:
		return tx.PutRaw(sp, store.TableSearchStats, k, encodeCounts(x, y))
	default:
		return tx.PutRaw(sp, store.TableSearchStats, k, encodeCounts(x))
	}
}

// purge deletes every shard record of class term ct in sp when their
// counts add up to zero, and reports whether it deleted any.
func purge(tx *store.Txn, sp tenancy.Space, ct string) (bool, error) {
	prefix := store.Suffix(nil).Str(ct)
	var keys [][]byte
	sum := 0
	err := tx.Scan(sp, store.TableSearchStats, prefix, store.ScanOptions{}, func(suffix []byte, it store.Item) (bool, error) {
		var df int
		err := it.Value(func(b []byte) error { return decodeCounts(b, &df) })
		sum += df
		keys = append(keys, slices.Clone(suffix))
		return true, err
	})
	if err != nil || sum != 0 {
		return false, err
	}
	for _, k := range keys {
		if err := tx.Delete(sp, store.TableSearchStats, k); err != nil {
			return false, err
		}
	}
	return len(keys) > 0, nil
}

// Stats are the BM25 statistics of the documents valid in a view that a
// reader may read, and how many it may not.
type Stats struct {
	Docs   int
	Length int
	DF     map[string]int
	// Hidden counts the documents valid in the view that the reader may
	// not read; they are in none of the other fields.
	Hidden int
}

// AvgLen returns the mean document length.
func (s Stats) AvgLen() float64 {
	if s.Docs == 0 {
		return 0
	}
	return float64(s.Length) / float64(s.Docs)
}

// Stats returns the statistics of the documents of spaces that hold in
// view v and that rd reads (nil: all), for terms; the others are only
// counted, in Hidden. The current view reads the stored statistics of
// each read class; any other view counts the history postings that hold
// in it, which reads every posting of the partition (views in the past are
// for audit and replay, not for the hot path).
func (ix *Index) Stats(tx *store.Txn, spaces []tenancy.Space, terms []string, v temporal.View, rd Readable) (Stats, error) {
	st := Stats{DF: make(map[string]int, len(terms))}
	for _, sp := range spaces {
		if v.Current() {
			if err := ix.cache.add(tx, sp, terms, rd, &st); err != nil {
				return Stats{}, err
			}
			continue
		}
		classes, err := readClasses(tx, sp)
		if err != nil {
			return Stats{}, err
		}
		hidden := map[string]bool{}
		for _, c := range classes {
			hidden[c.name] = !rd.reads(c.restriction)
		}
		err = ix.Postings(tx, sp, TermAll, v, 0, func(p Posting) bool {
			if hidden[p.Class] {
				st.Hidden++
				return true
			}
			st.Docs++
			st.Length += p.Len
			return true
		})
		if err != nil {
			return Stats{}, err
		}
		for _, t := range terms {
			n := 0
			if err := ix.Postings(tx, sp, t, v, 0, func(p Posting) bool {
				if !hidden[p.Class] {
					n++
				}
				return true
			}); err != nil {
				return Stats{}, err
			}
			st.DF[t] += n
		}
	}
	return st, nil
}

// Postings calls fn for the postings of term in sp whose fact holds in
// view v, newest recorded first, until fn returns false or limit postings
// were met (limit <= 0: no limit). The current view reads only live
// postings; other views read the history.
func (ix *Index) Postings(tx *store.Txn, sp tenancy.Space, term string, v temporal.View, limit int, fn func(Posting) bool) error {
	prefix := store.Suffix(nil).Str(term)
	n := 0
	if v.Current() {
		if limit > 0 {
			if done, err := newestForward(tx, sp, term, prefix, limit, fn); done || err != nil {
				return err
			}
		}
		var last Posting
		err := tx.Scan(sp, store.TableSearchLive, prefix, store.ScanOptions{Reverse: true, KeysOnly: true},
			func(suffix []byte, _ store.Item) (bool, error) {
				p, err := parsePostingAfter(sp, suffix, len(prefix))
				if err != nil {
					return false, err
				}
				n++
				last = p
				return fn(p) && (limit <= 0 || n < limit), nil
			})
		if err == nil && limit > 0 {
			rememberNewest(sp, term, limit, n, last)
		}
		return err
	}
	// A view of the past: the postings of facts still live and of facts
	// superseded since, each newest first and filtered by the view, merged.
	o := store.ScanOptions{Reverse: true}
	if v.KnownAt != nil {
		o.Start = store.Suffix(nil).Str(term).Time(*v.KnownAt)
	}
	var got []Posting
	for _, table := range []store.Table{store.TableSearchLive, store.TableSearchHist} {
		m := 0
		err := tx.Scan(sp, table, prefix, o, func(suffix []byte, it store.Item) (bool, error) {
			p, err := parsePosting(sp, suffix)
			if err != nil {
				return false, err
			}
			var hv histValue
			err = it.Value(func(b []byte) (err error) {
				hv, err = decodePostingValue(p.RecordedAt, b)
				return err
			})
			if err != nil {
				return false, err
			}
			if !holds(p.RecordedAt, hv, v) {
				return true, nil
			}
			p.Class = hv.Class
			got = append(got, p)
			m++
			return limit <= 0 || m < limit, nil
		})
		if err != nil {
			return err
		}
	}
	// Newest first, as a reverse scan of either table orders them (the
	// id is a length-prefixed segment of the key).
	slices.SortFunc(got, func(a, b Posting) int {
		return cmp.Or(b.RecordedAt.Compare(a.RecordedAt), cmp.Compare(len(b.ID), len(a.ID)), cmp.Compare(b.ID, a.ID))
	})
	for _, p := range got {
		n++
		if !fn(p) || (limit > 0 && n >= limit) {
			return nil
		}
	}
	return nil
}

// Live calls fn for every live posting of term in sp, oldest recorded
// first, until fn returns false: the postings Postings meets in the
// current view with no limit, in the opposite order. A forward scan is the
// cheap direction of Badger's iterators (a reverse step searches the
// memtable's skiplist again), so a reader that wants every posting of a
// term, and does not care in which order, uses Live.
func (ix *Index) Live(tx *store.Txn, sp tenancy.Space, term string, fn func(Posting) bool) error {
	prefix := store.Suffix(nil).Str(term)
	return tx.Scan(sp, store.TableSearchLive, prefix, store.ScanOptions{KeysOnly: true},
		func(suffix []byte, _ store.Item) (bool, error) {
			p, err := parsePostingAfter(sp, suffix, len(prefix))
			if err != nil {
				return false, err
			}
			return fn(p), nil
		})
}

// holds reports whether a fact recorded at rec with history hv is valid in
// v: the one rule (temporal.View.Holds) on the fact's times as the posting
// holds them, as facts.Fact.IsValid applies it.
func holds(rec time.Time, hv histValue, v temporal.View) bool {
	return v.Holds(facts.FactRecord(hv.ValidFrom, hv.ValidTo, rec, hv.SupersededAt), time.Time{})
}
