package contextasm

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
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
// for facts it only has to vet, the source passes a Fact holding just the
// ID and the restriction, to spare decoding the rest.
type Visibility interface {
	Visible(caller authority.Identity, f facts.Fact) bool
}

// FactSource gathers persistent facts (layer 2): BM25 candidates from the
// index, every active constraint, and every valid fact of a small
// partition; then it keeps those valid in the view and in scope.
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
}

type candidate struct {
	p      search.Posting
	score  float64
	always bool // a constraint, or a fact of a small partition
}

// Gather implements Source.
func (s *FactSource) Gather(tx *store.Txn, q *Query, in *assemble.Input) error {
	bm := s.BM25
	if bm.K1 == 0 {
		bm = search.DefaultBM25()
	}
	spaces := tx.Partition().Spaces()
	stats, err := s.Index.Stats(tx, spaces, q.Terms, q.View)
	if err != nil {
		return err
	}
	avg := stats.AvgLen()
	cands := map[string]*candidate{}
	get := func(p search.Posting) *candidate {
		c, ok := cands[p.ID]
		if !ok {
			c = &candidate{p: p}
			cands[p.ID] = c
		}
		return c
	}
	for _, sp := range spaces {
		// Terms in sorted order, so a document's score is summed in the
		// same order on every call.
		for _, t := range q.Terms {
			df := stats.DF[t]
			if df == 0 {
				continue
			}
			err := s.Index.Postings(tx, sp, t, q.View, PerTermPostings, func(p search.Posting) bool {
				get(p).score += bm.Term(df, stats.Docs, avg, p.Len, p.TF)
				return true
			})
			if err != nil {
				return err
			}
		}
		err := s.Index.Postings(tx, sp, search.TermConstraint, q.View, MaxConstraints, func(p search.Posting) bool {
			get(p).always = true
			return true
		})
		if err != nil {
			return err
		}
		if stats.Docs <= SmallPartition {
			err := s.Index.Postings(tx, sp, search.TermAll, q.View, SmallPartition+1, func(p search.Posting) bool {
				get(p).always = true
				return true
			})
			if err != nil {
				return err
			}
		}
	}
	ranked := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		ranked = append(ranked, c)
	}
	slices.SortFunc(ranked, func(a, b *candidate) int {
		return cmp.Or(cmp.Compare(b.score, a.score), b.p.RecordedAt.Compare(a.p.RecordedAt), strings.Compare(a.p.ID, b.p.ID))
	})

	excluded := map[string]assemble.Reason{}
	included := map[string]bool{}
	near := map[string]tenancy.Space{} // a predecessor's likely space: its successor's
	estimate, relevant := 0, 0
	for _, c := range ranked {
		if !c.always {
			if estimate > q.Budget || relevant >= MaxRelevant {
				continue
			}
			relevant++
		}
		raw, found, err := facts.LoadTx(tx, c.p.Space, c.p.ID)
		if err != nil {
			return err
		}
		if !found {
			continue
		}
		f, ok := raw.In(q.View)
		if !ok {
			continue
		}
		switch {
		case s.Visible != nil && !s.Visible.Visible(q.Caller, f):
			// First: a withheld fact is only counted, never named, not
			// even as superseded or expired.
			in.Withheld++
			continue
		case !f.IsValid() && f.SupersededBy != "":
			excluded[f.ID] = assemble.ReasonSuperseded
			continue
		case !f.IsValid():
			excluded[f.ID] = assemble.ReasonExpired
			continue
		case (f.Scope == facts.ScopeSession || f.Scope == facts.ScopeTask) && (q.SessionID == "" || f.ScopeID != q.SessionID):
			excluded[f.ID] = assemble.ReasonOutOfScope
			continue
		case !f.Scope.Real() && !AboutHypothetical(q.Text):
			excluded[f.ID] = assemble.ReasonOutOfScope
			continue
		}
		val := f.ValueText()
		if !c.always {
			estimate += s.Counter.Count(f.Key + ": " + val + "\n")
		}
		included[f.ID] = true
		if f.Supersedes != "" {
			if _, seen := excluded[f.Supersedes]; !seen {
				excluded[f.Supersedes] = assemble.ReasonSuperseded
				near[f.Supersedes] = c.p.Space
				if q.successor == nil {
					q.successor = map[string]string{}
				}
				q.successor[f.Supersedes] = f.ID
			}
		}
		in.Facts = append(in.Facts, assemble.Fact{
			ID: f.ID, Key: f.Key, Value: val, Scope: assemble.Scope(f.Scope),
			IsConstraint: f.IsConstraint, ConstraintType: strings.ToLower(f.ConstraintType),
			NeedsReview: f.NeedsReview() || Invalidated(val), Authority: s.Order.Rank(f.Source.Authority),
			RecordedAt: f.RecordedAt, ValidFrom: f.ValidFrom, Score: c.score,
		})
	}
	if q.SessionID != "" {
		if err := s.retired(tx, q, excluded, included); err != nil {
			return err
		}
	}
	ids := make([]string, 0, len(excluded))
	for id := range excluded {
		if !included[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	restricted := s.Visible != nil
	if restricted {
		var err error
		if restricted, err = facts.AnyRestricted(tx); err != nil {
			return err
		}
	}
	for _, id := range ids {
		// With no restricted fact in the partition, all can be named.
		if restricted {
			shown, err := s.shown(tx, q, id, near[id])
			if err != nil {
				return err
			}
			if !shown {
				// A fact the caller may not read, superseded by one they
				// may: counted, not named.
				in.Withheld++
				continue
			}
		}
		in.Excluded = append(in.Excluded, assemble.Exclusion{ID: id, Kind: assemble.KindFact, Reason: excluded[id]})
	}
	return nil
}

// invalidMarkers open a value that declares itself void.
var invalidMarkers = []string{"[INVALIDATED", "[INVALID", "[RETRACTED", "[OBSOLETE", "[VOID", "[SUPERSEDED", "[DEPRECATED", "[WITHDRAWN"}

// shown reports whether the caller of q may see fact id (one a candidate
// superseded, which was not itself checked).
func (s *FactSource) shown(tx *store.Txn, q *Query, id string, hint tenancy.Space) (bool, error) {
	if s.Visible == nil {
		return true, nil
	}
	spaces := tx.Partition().Spaces()
	if hint.Org() != "" {
		// Try the likely space first: a miss costs a lookup per table.
		spaces = append([]tenancy.Space{hint}, spaces...)
	}
	for _, sp := range spaces {
		// Only the read restriction matters here: decode nothing else.
		r, found, err := facts.RestrictionTx(tx, sp, id)
		if err != nil {
			return false, err
		}
		if !found {
			continue
		}
		return s.Visible.Visible(q.Caller, facts.Fact{ID: id, RestrictedTo: r}), nil
	}
	return false, nil
}

// Invalidated reports whether a fact's value declares itself void
// ("[INVALIDATED - was based on wrong data] ..."): such a fact is listed
// for recalculation by key, its value withheld, like a fact whose base was
// superseded.
func Invalidated(value string) bool {
	v := strings.ToUpper(strings.TrimSpace(value))
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

// retired records on q the values that candidates superseded, following
// each chain back a few links, so that turns still stating them are not
// replayed. Each carries the value of the fact that replaced it.
func (s *FactSource) retired(tx *store.Txn, q *Query, excluded map[string]assemble.Reason, included map[string]bool) error {
	var ids []string
	for id, r := range excluded {
		if r == assemble.ReasonSuperseded && !included[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	if len(ids) > maxRetired {
		ids = ids[:maxRetired]
	}
	seen := map[string]bool{}
	for _, id := range ids {
		newer := ""
		for depth := 0; id != "" && depth < retiredDepth && !seen[id]; depth++ {
			seen[id] = true
			f, ok, err := s.load(tx, q, id)
			if err != nil {
				return err
			}
			if !ok || f.SupersededAt == nil {
				break
			}
			if newer == "" {
				if head, ok, err := s.load(tx, q, f.SupersededBy); err != nil {
					return err
				} else if ok && !Invalidated(head.ValueText()) {
					// A head that declares itself void states
					// nothing current.
					newer = head.ValueText()
				}
			}
			q.Retired = append(q.Retired, Retired{ID: f.ID, Value: f.ValueText(), New: newer, At: *f.SupersededAt})
			id = f.Supersedes
		}
	}
	return s.stale(tx, q)
}

// stale adds to q's retired values the latest writes stored invalid from
// birth (restating a replaced value, or an outranked instruction), so that
// turns repeating them are not replayed either.
func (s *FactSource) stale(tx *store.Txn, q *Query) error {
	for _, sp := range tx.Partition().Spaces() {
		ids, err := facts.StaleIDsTx(tx, sp)
		if err != nil {
			return err
		}
		for i, n := len(ids)-1, 0; i >= 0 && n < maxRetired; i, n = i-1, n+1 {
			raw, found, err := facts.LoadTx(tx, sp, ids[i])
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("contextasm: stale fact %s: %w", ids[i], store.ErrNotFound)
			}
			f, ok := raw.In(q.View)
			if !ok || f.Stale == nil || (s.Visible != nil && !s.Visible.Visible(q.Caller, f)) {
				continue
			}
			q.Retired = append(q.Retired, Retired{ID: f.ID, Value: f.ValueText(), New: f.Stale.ReplacedBy, At: f.RecordedAt})
		}
	}
	return nil
}

// load reads fact id as of q's view from any of the partition's spaces.
func (s *FactSource) load(tx *store.Txn, q *Query, id string) (facts.Fact, bool, error) {
	if id == "" {
		return facts.Fact{}, false, nil
	}
	for _, sp := range tx.Partition().Spaces() {
		raw, found, err := facts.LoadTx(tx, sp, id)
		if err != nil {
			return facts.Fact{}, false, err
		}
		if !found {
			continue
		}
		f, ok := raw.In(q.View)
		return f, ok, nil
	}
	return facts.Fact{}, false, nil
}
