package contextasm

import (
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Bounds of the facts source. They bound the work of one call whatever the
// partition holds; each is documented where it applies.
const (
	// SmallPartition: when at most this many facts are valid for the
	// caller, every one is a candidate, so small partitions lose nothing.
	SmallPartition = 200
	// PerTermPostings: a query term contributes at most its this many
	// most recent postings. A term in more documents has a low IDF, and
	// recency is the tie-breaker anyway.
	PerTermPostings = 2000
	// MaxConstraints: at most this many active constraints, most recent
	// first, are candidates.
	MaxConstraints = 500
	// MaxRelevant bounds the relevance candidates loaded per call.
	MaxRelevant = 2000
)

// Visibility decides whether the caller may see a fact; a fact it refuses
// is withheld: counted, never described. Permission filtering plugs in
// here. It decides from the fact's read restriction (RestrictedTo) alone:
// the source passes the fields of the fact's card (facts.Card), or, for
// facts it only has to vet, just the ID and the restriction.
type Visibility interface {
	Visible(caller authority.Identity, f facts.Fact) bool
}

// FactSource gathers persistent facts (layer 2): BM25 candidates from the
// index, every active constraint, and every valid fact of a small
// partition, each read from its card as it stands in the view, with
// whether the caller may read it (and its predecessor). It also returns
// the values its facts retired, for the turns that state them. Relate
// decides what is kept; the source applies the same rule (factVerdict)
// only to know when the budget is spent and it can stop loading.
type FactSource struct {
	Index *search.Index
	Order *authority.Order
	// Visible may be nil: everything in the partition is visible.
	Visible Visibility
	BM25    search.BM25
	// Counter sizes candidates: relevance candidates are loaded, in rank
	// order, until the tokens of their "key: value" lines exceed the
	// budget (Build can place no more than that). A cached counter makes
	// this a lookup for lines seen before.
	Counter assemble.Counter
	// Cards caches the cards of read-mostly spaces; nil reads every card
	// from the store.
	Cards *facts.Cards

	// misses remembers, with Cards, the facts a space does not hold;
	// live the live postings of query terms, under the same epochs.
	misses cardMisses
	live   livePostings
	// maxConstraints, when positive, replaces MaxConstraints (tests).
	maxConstraints int
}

// cardMisses remembers which facts a space does not hold, under the card
// epoch they were missed in: a fact is looked up in each space of the
// partition in turn (a predecessor, a successor, a retired value), and
// every miss would cost a store read. Every fact write writes its card and
// a new epoch of its space (facts.Cards), so a miss remembered under the
// epoch a snapshot holds is a miss in that snapshot (a restore, which
// writes records without that, loads a stopped server). It is safe for
// concurrent use.
type cardMisses struct {
	mu     sync.Mutex
	spaces map[tenancy.Space]*spaceMisses
	n      int // misses kept over all spaces
}

type spaceMisses struct {
	epoch string
	ids   map[string]bool
}

// maxCardMisses bounds the misses kept; they are forgotten when full.
const maxCardMisses = 1 << 16

// has reports whether id was missed in sp under epoch.
func (m *cardMisses) has(sp tenancy.Space, epoch, id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.spaces[sp]
	return s != nil && s.epoch == epoch && s.ids[id]
}

// add remembers that sp does not hold id under epoch.
func (m *cardMisses) add(sp tenancy.Space, epoch, id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.spaces == nil || m.n >= maxCardMisses {
		m.spaces, m.n = map[tenancy.Space]*spaceMisses{}, 0
	}
	s := m.spaces[sp]
	if s == nil || s.epoch != epoch {
		if s != nil {
			m.n -= len(s.ids)
		}
		s = &spaceMisses{epoch: epoch, ids: map[string]bool{}}
		m.spaces[sp] = s
	}
	if !s.ids[id] {
		s.ids[id] = true
		m.n++
	}
}

// cardReader reads cards for one Gather: through s.Cards under the
// epochs tx sees, or from the store.
type cardReader struct {
	cards  *facts.Cards
	misses *cardMisses
	tx     *store.Txn
	epochs map[tenancy.Space]string
	spaces []tenancy.Space // the partition's, in its order
}

func (s *FactSource) cardReader(tx *store.Txn) (cardReader, error) {
	r := cardReader{cards: s.Cards, misses: &s.misses, tx: tx, spaces: tx.Partition().Spaces()}
	if s.Cards == nil {
		return r, nil
	}
	r.epochs = make(map[tenancy.Space]string, len(r.spaces))
	for _, sp := range r.spaces {
		e, err := s.Cards.Epoch(tx, sp)
		if err != nil {
			return r, err
		}
		r.epochs[sp] = e
	}
	return r, nil
}

// readHeld is read for a fact sp is expected to hold (one of its live
// postings names it): the misses remembered are not asked first, since a
// card found answers without them; a miss is remembered as read
// remembers it.
// slot, when not nil, is where the card cache's place of id's card is
// remembered (facts.CardSlot).
func (r cardReader) readHeld(sp tenancy.Space, id string, slot *facts.CardSlot) (facts.Card, error) {
	if r.cards == nil {
		return facts.ReadCard(r.tx, sp, id)
	}
	epoch := r.epochs[sp]
	c, err := r.cards.ReadSlot(r.tx, sp, epoch, id, slot)
	if errors.Is(err, store.ErrNotFound) {
		r.misses.add(sp, epoch, id)
	}
	return c, err
}

// read returns the card of fact id in sp, or store.ErrNotFound.
func (r cardReader) read(sp tenancy.Space, id string) (facts.Card, error) {
	if r.cards == nil {
		return facts.ReadCard(r.tx, sp, id)
	}
	// A space with no epoch has had no fact written since epochs exist:
	// the first write gives it one, so misses are remembered under "" too.
	epoch := r.epochs[sp]
	if r.misses.has(sp, epoch, id) {
		return facts.Card{}, store.ErrNotFound
	}
	c, err := r.cards.Read(r.tx, sp, epoch, id)
	if errors.Is(err, store.ErrNotFound) {
		r.misses.add(sp, epoch, id)
	}
	return c, err
}

// gatherScratch is the working memory of one FactSource.Gather: the
// candidates, their index by ID and their ranking, reused by later calls
// (at 100,000 facts they are about 150 KB a call).
type gatherScratch struct {
	cands  []candidate
	at     map[string]int
	ranked []*candidate
}

var scratchPool sync.Pool

// maxScratch bounds the candidates a pooled scratch keeps room for; a
// larger one is left to the collector.
const maxScratch = 4*PerTermPostings + MaxConstraints + SmallPartition + 1

// getScratch returns an empty scratch with room for about hint
// candidates.
func getScratch(hint int) *gatherScratch {
	sc, _ := scratchPool.Get().(*gatherScratch)
	if sc == nil {
		sc = &gatherScratch{at: make(map[string]int, hint)}
	}
	if cap(sc.cands) < hint {
		sc.cands = make([]candidate, 0, hint)
	}
	return sc
}

// put empties sc (its candidates' IDs are the store's, not to be kept
// alive) and returns it to the pool.
func (sc *gatherScratch) put() {
	if cap(sc.cands) > maxScratch {
		return
	}
	clear(sc.cands)
	clear(sc.ranked)
	clear(sc.at)
	sc.cands, sc.ranked = sc.cands[:0], sc.ranked[:0]
	scratchPool.Put(sc)
}

// bytesCounter is a Counter that counts a line held in a buffer
// without making a string of it when it counted it before
// (tokens.Cache).
type bytesCounter interface {
	CountBytes(b []byte) int
}

// candidate is an index hit before its fact is loaded.
type candidate struct {
	id     string
	at     time.Time // recorded
	score  float64
	space  int  // index in the partition's spaces
	always bool // a constraint, or a fact of a small partition
	loaded int  // 1 + its index in the gathered facts, once loaded; else 0
	// est, when set, remembers the count of its estimate line
	// (livePosting.est), and card where its card is cached
	// (livePosting.card).
	est  *atomic.Int32
	card *facts.CardSlot
}

// Gather implements Source. Candidates are loaded in rank order:
// constraints (and every fact of a small partition) always, relevance
// candidates until the lines of those Relate would keep exceed the budget.
func (s *FactSource) Gather(tx *store.Txn, q Query) (Candidates, error) {
	bm := s.BM25
	if bm.K1 == 0 {
		bm = search.DefaultBM25()
	}
	spaces := tx.Partition().Spaces()
	// Statistics per space (to skip the scans of spaces that cannot
	// answer) and over the partition (for the scores), of the facts the
	// caller may read only: a hidden fact changes none of the caller's
	// scores, nor which candidates it gets. The facts it may not read are
	// counted (Withheld), whatever the query.
	var rd search.Readable
	if s.Visible != nil {
		rd = func(r *permissions.Restriction) bool {
			return s.Visible.Visible(q.Caller, facts.Fact{RestrictedTo: r})
		}
	}
	per := make([]search.Stats, len(spaces))
	stats := search.Stats{DF: make(map[string]int, len(q.Terms))}
	for i, sp := range spaces {
		st, err := s.Index.Stats(tx, []tenancy.Space{sp}, q.Terms, q.View, rd)
		if err != nil {
			return Candidates{}, err
		}
		per[i] = st
		stats.Docs += st.Docs
		stats.Length += st.Length
		stats.Hidden += st.Hidden
		for t, n := range st.DF {
			stats.DF[t] += n
		}
	}
	avg := stats.AvgLen()
	hint := 16 // the candidates to expect: the terms' postings, bounded
	for _, t := range q.Terms {
		hint += min(stats.DF[t], PerTermPostings)
	}
	hint = min(hint, 4*PerTermPostings)
	sc := getScratch(hint)
	cands := sc.cands
	defer func() {
		sc.cands = cands // however far it grew, and on every return
		sc.put()
	}()
	at := sc.at   // ID -> index in cands
	var space int // the space being scanned
	get := func(id string, recorded time.Time) *candidate {
		i, ok := at[id]
		if !ok {
			i = len(cands)
			at[id] = i
			cands = append(cands, candidate{id: id, at: recorded, space: space})
		}
		return &cands[i]
	}
	current := q.View.Current()
	maxCons := MaxConstraints
	if s.maxConstraints > 0 {
		maxCons = s.maxConstraints
	}
	cr, err := s.cardReader(tx)
	if err != nil {
		return Candidates{}, err
	}
	for i, sp := range spaces {
		space = i
		if per[i].Docs == 0 && current {
			continue // nothing live in this space
		}
		// Terms in sorted order, so a document's score is summed in the
		// same order on every call.
		for _, t := range q.Terms {
			df := stats.DF[t]
			if df == 0 || per[i].DF[t] == 0 {
				continue
			}
			// The term's weight (its IDF) once, not per posting.
			ts := bm.Scorer(df, stats.Docs, avg)
			score := func(p search.Posting) bool {
				get(p.ID, p.RecordedAt).score += ts.Score(p.Len, p.TF)
				return true
			}
			var err error
			if current && df <= PerTermPostings {
				// Every posting is taken: the live ones, remembered
				// under the space's card epoch when there are cards.
				var tp *termPostings
				if tp, err = s.live.get(tx, s.Index, sp, cr.epochs[sp], t); err != nil {
					return Candidates{}, err
				}
				for k := range tp.len() {
					p := tp.at(k)
					c := get(p.id, p.at)
					c.score += ts.Score(p.len, p.tf)
					if c.est == nil {
						c.est, c.card = tp.est(k), tp.card(k)
					}
				}
			} else {
				err = s.Index.Postings(tx, sp, t, q.View, PerTermPostings, score)
			}
			if err != nil {
				return Candidates{}, err
			}
		}
		always := func(p search.Posting) bool {
			get(p.ID, p.RecordedAt).always = true
			return true
		}
		if current {
			ps, err := s.recentConstraints(tx, sp, cr.epochs[sp], maxCons)
			if err != nil {
				return Candidates{}, err
			}
			for _, p := range ps {
				get(p.id, p.at).always = true
			}
		} else if err := s.Index.Postings(tx, sp, search.TermConstraint, q.View, maxCons, always); err != nil {
			return Candidates{}, err
		}
		if stats.Docs <= SmallPartition {
			var err error
			if current {
				var tp *termPostings
				tp, err = s.live.get(tx, s.Index, sp, cr.epochs[sp], search.TermAll)
				for k := range tp.len() {
					p := tp.at(k)
					get(p.id, p.at).always = true
				}
			} else {
				// Hidden facts hold postings too: they take no
				// visible fact's place.
				err = s.Index.Postings(tx, sp, search.TermAll, q.View, SmallPartition+1+per[i].Hidden, always)
			}
			if err != nil {
				return Candidates{}, err
			}
		}
	}
	ranked := sc.ranked[:0]
	for i := range cands {
		ranked = append(ranked, &cands[i])
	}
	sc.ranked = ranked
	// Candidates are taken in rank order (compareCandidates) until the
	// budget is spent, then only those always taken: a heap hands out the
	// first ones without sorting all the others.
	rq := newRankQueue(ranked)

	// With no restricted fact in the partition, every predecessor can be
	// named without looking it up.
	restricted := s.Visible != nil
	if restricted {
		var err error
		if restricted, err = facts.AnyRestricted(tx); err != nil {
			return Candidates{}, err
		}
	}
	c := Candidates{Withheld: stats.Hidden}
	hyp := aboutHypothetical(q.Text)
	var near map[string]tenancy.Space // a predecessor's likely space: its successor's
	estimate, relevant := 0, 0
	bc, _ := s.Counter.(bytesCounter)
	var line []byte // the line being counted, with bc
	c.Facts, c.pooled = pooledSlice[FactCandidate](&factCandidates, min(len(ranked), 256)), true
	load := func(rc *candidate) error {
		card, err := cr.readHeld(spaces[rc.space], rc.id, rc.card)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		f, ok := card.Fact.In(q.View)
		if !ok {
			return nil
		}
		if s.Visible != nil && !s.Visible.Visible(q.Caller, f) {
			// Withheld: counted in the statistics, never described; it
			// takes no relevance candidate's place.
			return nil
		}
		if !rc.always {
			relevant++
		}
		val := card.Text
		fc := FactCandidate{
			Fact: assemble.Fact{
				ID: f.ID, Key: f.Key, Value: val, Scope: assemble.Scope(f.Scope),
				IsConstraint: f.IsConstraint, ConstraintType: strings.ToLower(f.ConstraintType),
				NeedsReview: f.NeedsReview() || Invalidated(val), Authority: s.Order.Rank(f.Source.Authority),
				RecordedAt: f.RecordedAt, ValidFrom: f.ValidFrom, Score: rc.score,
			},
			ScopeID: f.ScopeID, Visible: true,
			Valid: f.IsValid(), Superseded: f.SupersededBy != "",
			Supersedes: f.Supersedes, PredecessorVisible: true,
		}
		if f.Source.Turn != "" && f.Source.Sentence != nil {
			fc.Said = evidence.ID(f.Source.Turn, *f.Source.Sentence)
		}
		if factVerdict(q, hyp, fc) == "" {
			if !rc.always {
				n := 0
				if rc.est != nil {
					n = int(rc.est.Load()) - 1
				}
				if n < 0 {
					if bc != nil {
						line = append(append(append(append(line[:0], f.Key...), ": "...), val...), '\n')
						n = bc.CountBytes(line)
					} else {
						n = s.Counter.Count(f.Key + ": " + val + "\n")
					}
					if rc.est != nil {
						rc.est.Store(int32(min(n, math.MaxInt32-1)) + 1)
					}
				}
				estimate += n
			}
			if f.Supersedes != "" && restricted {
				if near == nil {
					near = map[string]tenancy.Space{}
				}
				if _, ok := near[f.Supersedes]; !ok {
					near[f.Supersedes] = spaces[rc.space]
				}
			}
		}
		c.Facts = append(c.Facts, fc)
		rc.loaded = len(c.Facts)
		return nil
	}
	// Every candidate in rank order while the budget is not spent (the
	// estimate and the count only grow), then the ones always taken, in
	// rank order too.
	for rq.len() > 0 && estimate <= q.Budget && relevant < MaxRelevant {
		if err := load(rq.pop()); err != nil {
			return c, err
		}
	}
	for _, rc := range rq.always() {
		if err := load(rc); err != nil {
			return c, err
		}
	}
	if q.SessionID != "" {
		// The values the kept facts retired, for the turns that state
		// them: only values the caller may read, so that a hidden fact
		// never takes one of the caller's own turns out (which would tell
		// that it held the turn's value).
		var err error
		// A retired value's successor is usually a fact just loaded:
		// its value is known (it holds in the view, and the caller may
		// read it). Fact IDs are unique over the partition's spaces, so
		// the card load would find is this one.
		loaded := func(id string) (string, bool) {
			if i, ok := at[id]; ok && cands[i].loaded > 0 {
				return c.Facts[cands[i].loaded-1].Fact.Value, true
			}
			return "", false
		}
		ids := supersededOf(q, c.Facts)
		c.Retired, err = s.retired(tx, cr, q, ids, loaded)
		putPooledSlice(&idSlices, ids) // retired keeps none of them
		if err != nil {
			return c, err
		}
	}
	if !restricted {
		return c, nil
	}
	for i := range c.Facts {
		fc := &c.Facts[i]
		if fc.Supersedes == "" || !fc.Visible || factVerdict(q, hyp, *fc) != "" {
			continue
		}
		var err error
		if fc.PredecessorVisible, err = s.shown(tx, cr, q, fc.Supersedes, near[fc.Supersedes]); err != nil {
			return c, err
		}
	}
	return c, nil
}

// recentConstraints returns the limit most recent constraint postings of
// sp in the current view, newest first, as Index.Postings reads them (a
// reverse scan of the live ones, stopped at limit): the last of the live
// postings, remembered under the space's card epoch like the query
// terms' (livePostings).
func (s *FactSource) recentConstraints(tx *store.Txn, sp tenancy.Space, epoch string, limit int) ([]posting, error) {
	tp, err := s.live.get(tx, s.Index, sp, epoch, search.TermConstraint)
	if err != nil {
		return nil, err
	}
	n := tp.len()
	out := make([]posting, 0, min(n, limit))
	for k := n - 1; k >= max(n-limit, 0); k-- {
		out = append(out, tp.at(k))
	}
	return out, nil
}

// invalidMarkers open a value that declares itself void.
var invalidMarkers = []string{"[INVALIDATED", "[INVALID", "[RETRACTED", "[OBSOLETE", "[VOID", "[SUPERSEDED", "[DEPRECATED", "[WITHDRAWN"}

// maxMarker is the length of the longest invalid marker.
const maxMarker = len("[INVALIDATED")

// shown reports whether the caller of q may see fact id (one a candidate
// superseded, which was not itself checked).
func (s *FactSource) shown(tx *store.Txn, cr cardReader, q Query, id string, hint tenancy.Space) (bool, error) {
	if s.Visible == nil {
		return true, nil
	}
	spaces := cr.spaces
	if hint.Org() != "" {
		// Try the likely space first: a miss costs a lookup per table.
		spaces = append([]tenancy.Space{hint}, spaces...)
	}
	for _, sp := range spaces {
		card, err := cr.read(sp, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, err
		}
		return s.Visible.Visible(q.Caller, facts.Fact{ID: id, RestrictedTo: card.Fact.RestrictedTo}), nil
	}
	return false, nil
}

// Invalidated reports whether a fact's value declares itself void
// ("[INVALIDATED - was based on wrong data] ..."): such a fact is listed
// for recalculation by key, its value withheld, like a fact whose base was
// superseded.
func Invalidated(value string) bool {
	// strings.ToUpper maps rune to rune, so the markers (at most
	// maxMarker ASCII letters) can only match the first maxMarker runes:
	// upper-case those alone.
	v := strings.TrimSpace(value)
	if v == "" || v[0] != '[' {
		// Every marker opens with '[', which only '[' upper-cases to.
		return false
	}
	n := 0
	for i := range v {
		if n == maxMarker {
			v = v[:i]
			break
		}
		n++
	}
	v = strings.ToUpper(v)
	for _, m := range invalidMarkers {
		if strings.HasPrefix(v, m) {
			return true
		}
	}
	return false
}

// maxRetired bounds the superseded values looked up for stale turns, and
// retiredDepth how far back a chain is followed.
const (
	maxRetired   = 100
	retiredDepth = 5
)

// retired returns the values of the facts ids, superseded in q's view,
// following each chain back a few links, so that turns still stating them
// are not replayed, and the latest writes stored stale. Each carries the
// value of the fact that replaced it. loaded returns the value of a fact
// the source loaded (one that holds in the view and the caller may read),
// or false: such a successor is not read again.
func (s *FactSource) retired(tx *store.Txn, cr cardReader, q Query, ids []string, loaded func(id string) (string, bool)) ([]Retired, error) {
	if len(ids) > maxRetired {
		ids = ids[:maxRetired]
	}
	out := pooledSlice[Retired](&retiredValues, 0)
	seen := pooledMap[bool](&idSets)
	defer putPooledMap(&idSets, seen)
	hint := -1 // the space the last card was found in (load)
	for _, id := range ids {
		newer := ""
		for depth := 0; id != "" && depth < retiredDepth && !seen[id]; depth++ {
			seen[id] = true
			f, text, ok, err := s.load(tx, cr, q, id, &hint)
			if err != nil {
				return nil, err
			}
			if !ok || f.SupersededAt == nil || !s.readable(q, f) {
				// A fact the caller may not read ends the chain: what
				// came before it is not the caller's to know either.
				break
			}
			if newer == "" {
				head, ok := loaded(f.SupersededBy)
				if !ok {
					var g facts.Fact
					if g, head, ok, err = s.load(tx, cr, q, f.SupersededBy, &hint); err != nil {
						return nil, err
					}
					ok = ok && s.readable(q, g)
				}
				if ok && !Invalidated(head) {
					// A head that declares itself void states nothing
					// current.
					newer = head
				}
			}
			out = append(out, Retired{ID: f.ID, Value: text, New: newer, At: *f.SupersededAt})
			id = f.Supersedes
		}
	}
	return s.stale(tx, cr, q, out)
}

// stale adds to out the latest writes stored invalid from birth
// (restating a replaced value, or an outranked instruction), so that turns
// repeating them are not replayed either.
func (s *FactSource) stale(tx *store.Txn, cr cardReader, q Query, out []Retired) ([]Retired, error) {
	for _, sp := range cr.spaces {
		ids, err := facts.StaleIDsTx(tx, sp)
		if err != nil {
			return nil, err
		}
		// The latest maxRetired the caller may read: a stale fact it may
		// not read takes none of their places (within a bound on reads).
		for i, n, reads := len(ids)-1, 0, 0; i >= 0 && n < maxRetired && reads < 4*maxRetired; i, reads = i-1, reads+1 {
			card, err := cr.read(sp, ids[i])
			if err != nil {
				return nil, err
			}
			if s.Visible != nil && !s.Visible.Visible(q.Caller, card.Fact) {
				continue
			}
			n++
			f, ok := card.Fact.In(q.View)
			if !ok || f.Stale == nil {
				continue
			}
			out = append(out, Retired{ID: f.ID, Value: card.Text, New: f.Stale.ReplacedBy, At: f.RecordedAt})
		}
	}
	return out, nil
}

// readable reports whether q's caller may read f.
func (s *FactSource) readable(q Query, f facts.Fact) bool {
	return s.Visible == nil || s.Visible.Visible(q.Caller, f)
}

// load reads fact id as of q's view from any of the partition's spaces:
// its card's fields, and its value as text. Fact IDs are unique over the
// partition's spaces, so the space *hint (an index in cr.spaces, or -1)
// is tried first, as one expected to hold it (cardReader.readHeld: the
// misses remembered are not asked); *hint is set to the space the card is
// found in. The facts of a chain are usually in one space.
func (s *FactSource) load(tx *store.Txn, cr cardReader, q Query, id string, hint *int) (facts.Fact, string, bool, error) {
	if id == "" {
		return facts.Fact{}, "", false, nil
	}
	if h := *hint; h >= 0 {
		card, err := cr.readHeld(cr.spaces[h], id, nil)
		if err == nil {
			f, ok := card.Fact.In(q.View)
			return f, card.Text, ok, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return facts.Fact{}, "", false, err
		}
	}
	for i, sp := range cr.spaces {
		if i == *hint {
			continue // asked first
		}
		card, err := cr.read(sp, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return facts.Fact{}, "", false, err
		}
		*hint = i
		f, ok := card.Fact.In(q.View)
		return f, card.Text, ok, nil
	}
	return facts.Fact{}, "", false, nil
}
