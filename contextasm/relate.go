package contextasm

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/lexical"
)

// Related is what Relate made of a request's candidate sets: the records
// for assemble.Build, and what Prune needs once they are packed.
type Related struct {
	Environment []assemble.Attr
	Facts       []assemble.Fact
	Working     []assemble.WorkItem
	Assertions  []assemble.Assertion
	Turns       []assemble.Turn
	Evidence    []assemble.Evidence
	Identity    []assemble.Attr     // profile attributes, after the claims'
	Documents   []assemble.Document // visible document chunks
	Excluded    []assemble.Exclusion
	Withheld    int
	Notes       []string

	// successor maps a superseded fact reported only because a kept fact
	// replaced it to that fact.
	successor map[string]string
}

// Relate combines the candidate sets of every source of a request into
// what is packed: it removes what is superseded, expired, withheld or out
// of scope, recording each exclusion with its reason, and scores the
// working set and the turns against the query. It is pure, and the order
// of sets does not matter: each kind of record is put in a canonical order
// before anything is decided.
//
// The rules, in order:
//   - facts: one the caller may not read is never named (the sources
//     count what the caller may not read, whatever the query: Withheld); one that does not hold in the view is SUPERSEDED or EXPIRED; a
//     SESSION or TASK fact of another session, and hypothetical or draft
//     content for a query not about a hypothetical, is OUT_OF_SCOPE. A kept
//     fact's predecessor is SUPERSEDED (or withheld when the caller may not
//     read it), unless the predecessor is a candidate itself;
//   - environment: a fresh (provider) entry replaces a stored one of the
//     same key;
//   - working-set items are scored among the session's live items; a
//     hypothetical or draft one is OUT_OF_SCOPE for a real query;
//   - state assertions: one whose lease ended is EXPIRED, one revoked or
//     promoted SUPERSEDED, an active one of another context than the
//     request's session OUT_OF_SCOPE (assertionVerdict); the active ones
//     in context are scored among themselves;
//   - turns are OUT_OF_SCOPE when hypothetical for a real query, part of a
//     closed aside, or stating nothing (questions only); EXPIRED when their
//     lifetime ended; SUPERSEDED when marked so, or when they state a
//     retired value or tell the history of a current one. The others are
//     scored among themselves, by what they state;
//   - evidence (sentences of earlier turns) of a turn that is a candidate
//     of the working set, and not expired, is dropped: the working set
//     replays or judges that turn itself. Evidence stating a retired value
//     or telling the history of a current one is SUPERSEDED, as turns are;
//     a sentence a kept fact was extracted from is dropped too: the fact
//     stands for it, with the new value only.
//     The rest keeps the index's score.
func Relate(q Query, sets ...Candidates) Related {
	if q.Terms == nil {
		q.Terms = QueryTerms(q.Text) // a Query made without its terms
	}
	r := Related{Excluded: pooledSlice[assemble.Exclusion](&exclusionSlices, 0)}
	var cands []FactCandidate
	var items []ItemCandidate
	var turns []TurnCandidate
	var env []EnvCandidate
	var states []AssertionCandidate
	var retired []Retired
	var ev []EvidenceCandidate
	for _, s := range sets {
		// Each kind usually comes from one source: its slice is taken as
		// it is (nothing here modifies what a set holds), and copied only
		// to join it with another's.
		ev = join(ev, s.Evidence)
		cands = join(cands, s.Facts)
		items = join(items, s.Items)
		turns = join(turns, s.Turns)
		env = join(env, s.Environment)
		states = join(states, s.Assertions)
		retired = join(retired, s.Retired)
		r.Excluded = append(r.Excluded, s.Excluded...)
		r.Withheld += s.Withheld
		r.Notes = append(r.Notes, s.Notes...)
		r.Identity = append(r.Identity, s.Identity...)
		r.Documents = append(r.Documents, s.Documents...)
	}
	slices.Sort(r.Notes)
	r.Environment = relateEnvironment(env)

	fo := relateFacts(q, cands, r.Excluded)
	r.Facts, r.successor, r.Excluded = fo.kept, fo.successor, fo.excluded

	real := !aboutHypothetical(q.Text)
	working, out := relateItems(q, real, items)
	r.Working = working
	r.Excluded = append(r.Excluded, out...)
	r.Assertions, r.Excluded = relateAssertions(q, states, r.Excluded)

	current := make([]string, 0, len(r.Facts)) // values that hold now (not ones flagged for recalculation)
	for _, f := range r.Facts {
		if !f.NeedsReview {
			current = append(current, f.Value)
		}
	}
	// The texts states is asked of: the turns' and the sentences'.
	texts := make([]string, 0, len(turns)+len(ev))
	for _, t := range turns {
		texts = append(texts, t.Turn.Text)
	}
	for _, e := range ev {
		texts = append(texts, e.Evidence.Text)
	}
	stale := staleValues(retired, current, texts)
	topics := factTopics(r.Facts)
	defer putPooledSlice(&factTopicSlices, topics) // used here alone
	turnsKept, out := relateTurns(q, real, turns, stale, current, topics)
	r.Turns = turnsKept
	r.Excluded = append(r.Excluded, out...)
	// r.Facts holds each kept fact once, in ID order (relateFacts).
	kept := func(id string) bool {
		_, ok := slices.BinarySearchFunc(r.Facts, id, func(f assemble.Fact, id string) int { return strings.Compare(f.ID, id) })
		return ok
	}
	said := map[string]bool{} // sentences a kept fact stands for
	for _, c := range cands {
		if c.Said != "" && kept(c.Fact.ID) {
			said[c.Said] = true
		}
	}
	r.Evidence, out = relateEvidence(ev, turns, stale, current, said, topics)
	r.Excluded = append(r.Excluded, out...)
	sortExclusions(r.Excluded)
	return r
}

// release hands r's facts, assertions and exclusions back for reuse
// (pooledSlice): r must not be used afterwards. Service.Assemble releases
// it once Build has rendered the facts and assertions and copied the
// exclusions into its output.
func (r *Related) release() {
	putPooledSlice(&keptFacts, r.Facts)
	putPooledSlice(&keptAssertions, r.Assertions)
	putPooledSlice(&exclusionSlices, r.Excluded)
	putPooledMap(&idMaps, r.successor)
	r.Facts, r.Assertions, r.Excluded, r.successor = nil, nil, nil, nil
}

// join returns a followed by b: one of them when the other is empty, else
// a new slice holding both (never a's array, which a set may hold).
func join[T any](a, b []T) []T {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	return slices.Concat(a, b)
}

// Prune removes from out the superseded facts reported only because a
// candidate replaced them, when that candidate is not in the text:
// provenance names what the text's facts replaced, not what every
// candidate did.
func (r Related) Prune(out assemble.Output) assemble.Output {
	if len(r.successor) == 0 {
		return out
	}
	in := pooledMap[bool](&idSets)
	defer putPooledMap(&idSets, in)
	for _, i := range out.Included {
		if i.Kind == assemble.KindFact {
			in[i.ID] = true
		}
	}
	kept := out.Excluded[:0]
	for _, e := range out.Excluded {
		if succ, ok := r.successor[e.ID]; ok && e.Kind == assemble.KindFact && e.Reason == assemble.ReasonSuperseded && !in[succ] {
			continue
		}
		kept = append(kept, e)
	}
	out.Excluded = kept
	return out
}

// Input returns the Build input for the related records, with the
// request's budget, fact share and identity.
func (r Related) Input(budget int, factShare float64, id assemble.Identity) assemble.Input {
	id.Attributes = slices.Clip(id.Attributes)
	for _, a := range r.Identity {
		// A profile's name and department fill claims the token left
		// empty; the token's win.
		switch {
		case a.Key == "name" && id.Name == "":
			id.Name = a.Value
		case a.Key == "department" && id.Department == "":
			id.Department = a.Value
		case a.Key != "name" && a.Key != "department":
			id.Attributes = append(id.Attributes, a)
		}
	}
	return assemble.Input{
		Documents: r.Documents,
		Budget:    budget, FactShare: factShare, Identity: id,
		Environment: r.Environment, EnvIssues: r.Notes,
		Facts: r.Facts, Working: r.Working, Assertions: r.Assertions, Turns: r.Turns, Evidence: r.Evidence,
		Excluded: r.Excluded, Withheld: r.Withheld,
	}
}

// sortExclusions puts es in (kind, ID, reason) order; those fields are
// all of an Exclusion, so the order is the same whatever es's order was.
//
// Relate's exclusions come in a few runs already in that order (each
// rule's, by ID: in the benchmark the superseded facts, then the ended
// assertions), so es is merged run by run, in linear time, when it has
// at most maxExclusionRuns of them; else it is sorted.
func sortExclusions(es []assemble.Exclusion) {
	var ends [maxExclusionRuns]int // where each run ends
	runs := 0
	for i := 1; i < len(es); i++ {
		if assemble.CompareExclusions(es[i-1], es[i]) > 0 {
			if runs == len(ends)-1 {
				slices.SortFunc(es, assemble.CompareExclusions)
				return
			}
			ends[runs] = i
			runs++
		}
	}
	if runs == 0 {
		return
	}
	ends[runs] = len(es)
	tmp := pooledSlice[assemble.Exclusion](&exclusionSlices, ends[0])
	// es[:ends[0]] is in order; merge each next run into it.
	for r := 1; r <= runs; r++ {
		tmp = mergeExclusionRuns(es[:ends[r]], ends[r-1], tmp)
	}
	putPooledSlice(&exclusionSlices, tmp)
}

// maxExclusionRuns is the most runs sortExclusions merges.
const maxExclusionRuns = 8

// mergeExclusionRuns puts es in order, given es[:mid] and es[mid:] each
// in order, with tmp as room for a copy of es[:mid]; it returns tmp, maybe
// grown.
func mergeExclusionRuns(es []assemble.Exclusion, mid int, tmp []assemble.Exclusion) []assemble.Exclusion {
	tmp = append(tmp[:0], es[:mid]...)
	i, j, k := 0, mid, 0
	for i < len(tmp) && j < len(es) {
		if assemble.CompareExclusions(es[j], tmp[i]) < 0 {
			es[k] = es[j]
			j++
		} else {
			es[k] = tmp[i]
			i++
		}
		k++
	}
	copy(es[k:], tmp[i:]) // what is left of es[j:] is in place already
	return tmp
}

// factVerdict is the rule for one visible fact candidate: keep it (""), or
// the reason it is excluded. hyp is detect.AboutHypothetical(q.Text).
func factVerdict(q Query, hyp bool, c FactCandidate) assemble.Reason {
	f := c.Fact
	switch {
	case !c.Valid && c.Superseded:
		return assemble.ReasonSuperseded
	case !c.Valid:
		return assemble.ReasonExpired
	case (f.Scope == assemble.ScopeSession || f.Scope == assemble.ScopeTask) && (q.SessionID == "" || c.ScopeID != q.SessionID):
		return assemble.ReasonOutOfScope
	case (f.Scope == assemble.ScopeHypothetical || f.Scope == assemble.ScopeDraft) && !hyp:
		return assemble.ReasonOutOfScope
	}
	return ""
}

// factOutcome is what the fact rules decided.
type factOutcome struct {
	kept []assemble.Fact
	// excluded are the exclusions the rules were given, then the named
	// exclusions, one per fact (a candidate, or a predecessor that is
	// none), in no order: Relate sorts all its exclusions
	// (sortExclusions).
	excluded  []assemble.Exclusion
	successor map[string]string
}

// superseded returns the IDs excluded as superseded, sorted: the values
// the kept facts (and the view) retired.
func (fo factOutcome) superseded() []string {
	var ids []string
	for _, e := range fo.excluded {
		if e.Reason == assemble.ReasonSuperseded {
			ids = append(ids, e.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// relateFacts applies the fact rules to cands, in ID order; a fact met
// twice counts once. The exclusions are appended to es (factOutcome).
func relateFacts(q Query, cands []FactCandidate, es []assemble.Exclusion) factOutcome {
	return applyFactRules(q, cands, true, es)
}

// supersededOf is supersededFacts(q, cands), without sorting the
// candidates when their IDs are distinct and every kept one's predecessor
// counts as visible (the fact source's own, before it vets
// predecessors): the visible candidates that no longer hold because a
// successor replaced them, and the predecessors of the kept ones that are
// no candidates, sorted. Otherwise it is supersededFacts.
func supersededOf(q Query, cands []FactCandidate) []string {
	isCand := pooledMap[bool](&idSets)
	defer putPooledMap(&idSets, isCand)
	for _, c := range cands {
		if !c.PredecessorVisible {
			return supersededFacts(q, cands)
		}
		isCand[c.Fact.ID] = true
	}
	if len(isCand) != len(cands) {
		return supersededFacts(q, cands)
	}
	hyp := aboutHypothetical(q.Text)
	ids := pooledSlice[string](&idSlices, len(cands))
	for _, c := range cands {
		if !c.Visible {
			continue
		}
		switch r := factVerdict(q, hyp, c); {
		case r == assemble.ReasonSuperseded:
			ids = append(ids, c.Fact.ID)
		case r == "" && c.Supersedes != "" && !isCand[c.Supersedes]:
			ids = append(ids, c.Supersedes)
		}
	}
	// The candidates' IDs are distinct and no predecessor here is one
	// of them: only a predecessor named twice repeats.
	slices.Sort(ids)
	return slices.Compact(ids)
}

// supersededFacts is relateFacts(q, cands).superseded(), without
// collecting what is kept.
func supersededFacts(q Query, cands []FactCandidate) []string {
	return applyFactRules(q, cands, false, nil).superseded()
}

// applyFactRules is relateFacts; without collect, the outcome holds the
// exclusions only (no kept facts, no successors).
func applyFactRules(q Query, cands []FactCandidate, collect bool, es []assemble.Exclusion) factOutcome {
	ordered := make([]*FactCandidate, len(cands))
	for i := range cands {
		ordered[i] = &cands[i]
	}
	slices.SortFunc(ordered, compareFactCandidates)
	ordered = slices.CompactFunc(ordered, func(a, b *FactCandidate) bool { return a.Fact.ID == b.Fact.ID })
	fo := factOutcome{excluded: es}
	if collect {
		fo.kept = pooledSlice[assemble.Fact](&keptFacts, len(ordered))
	}
	// ordered holds each fact once, by ID: a binary search tells a
	// candidate (a set of them was one of the larger allocations of a
	// call).
	isCand := func(id string) bool {
		_, ok := slices.BinarySearchFunc(ordered, id, func(c *FactCandidate, id string) int { return strings.Compare(c.Fact.ID, id) })
		return ok
	}
	// Predecessors named by kept facts, in the kept facts' ID order.
	preds := pooledSlice[pred](&predSlices, len(ordered))
	defer func() { putPooledSlice(&predSlices, preds) }()
	hyp := aboutHypothetical(q.Text)
	for _, c := range ordered {
		if !c.Visible {
			// A withheld fact is never named, not even as superseded or
			// expired. The sources count what the caller may not read
			// (Candidates.Withheld), whatever the query met.
			continue
		}
		if r := factVerdict(q, hyp, *c); r != "" {
			fo.excluded = append(fo.excluded, assemble.Exclusion{ID: c.Fact.ID, Kind: assemble.KindFact, Reason: r})
			continue
		}
		if collect {
			fo.kept = append(fo.kept, c.Fact)
		}
		if c.Supersedes != "" && !isCand(c.Supersedes) {
			preds = append(preds, pred{c.Supersedes, c.Fact.ID, c.PredecessorVisible})
		}
	}
	// A predecessor named twice counts once, by the first kept fact (in
	// ID order) naming it: the stable sort keeps that one first.
	slices.SortStableFunc(preds, func(a, b pred) int { return strings.Compare(a.id, b.id) })
	fo.excluded = slices.Grow(fo.excluded, len(preds))
	for i, p := range preds {
		if i > 0 && preds[i-1].id == p.id {
			continue
		}
		if !p.visible {
			// A fact the caller may not read, superseded by one they
			// may: not named.
			continue
		}
		fo.excluded = append(fo.excluded, assemble.Exclusion{ID: p.id, Kind: assemble.KindFact, Reason: assemble.ReasonSuperseded})
		if !collect {
			continue
		}
		if fo.successor == nil {
			fo.successor = pooledMap[string](&idMaps) // handed back by Related.release
		}
		fo.successor[p.id] = p.by
	}
	return fo
}

// pred is a predecessor a kept fact names (applyFactRules): by is the
// fact, visible whether the caller may read the predecessor.
type pred struct {
	id, by  string
	visible bool
}

// compareFactCandidates orders candidates by ID, and the copies of one
// fact so that the most cautious comes first: withheld, then not valid.
func compareFactCandidates(a, b *FactCandidate) int {
	bit := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	// Each field is compared only on a tie of the ones before.
	if c := strings.Compare(a.Fact.ID, b.Fact.ID); c != 0 {
		return c
	}
	return cmp.Or(
		cmp.Compare(bit(a.Visible), bit(b.Visible)),
		cmp.Compare(bit(a.Valid), bit(b.Valid)),
		cmp.Compare(bit(b.Superseded), bit(a.Superseded)),
		cmp.Compare(b.Fact.Score, a.Fact.Score),
		strings.Compare(a.Fact.Value, b.Fact.Value),
	)
}

// relateEnvironment returns the stored entries whose keys no fresh entry
// has, then the fresh ones.
func relateEnvironment(env []EnvCandidate) []assemble.Attr {
	fresh := map[string]bool{}
	for _, e := range env {
		if e.Fresh {
			fresh[e.Attr.Key] = true
		}
	}
	out := make([]assemble.Attr, 0, len(env))
	for _, e := range env {
		if !e.Fresh && !fresh[e.Attr.Key] {
			out = append(out, e.Attr)
		}
	}
	for _, e := range env {
		if e.Fresh {
			out = append(out, e.Attr)
		}
	}
	slices.SortFunc(out, func(x, y assemble.Attr) int {
		return cmp.Or(strings.Compare(x.Key, y.Key), strings.Compare(x.Value, y.Value))
	})
	return out
}

// relateItems scores the live items among themselves and keeps those in
// scope.
func relateItems(q Query, real bool, items []ItemCandidate) ([]assemble.WorkItem, []assemble.Exclusion) {
	items = slices.Clone(items)
	slices.SortFunc(items, func(x, y ItemCandidate) int {
		return cmp.Or(strings.Compare(x.Item.Key, y.Item.Key), strings.Compare(x.Item.ID, y.Item.ID))
	})
	docs := make([]string, len(items))
	for i, it := range items {
		docs[i] = it.Item.Key + " " + it.Item.Value
	}
	scores := scoreDocs(q.Terms, docs)
	var kept []assemble.WorkItem
	var out []assemble.Exclusion
	for i, it := range items {
		w := it.Item
		if real && (w.Scope == assemble.ScopeHypothetical || w.Scope == assemble.ScopeDraft) {
			out = append(out, assemble.Exclusion{ID: w.ID, Kind: assemble.KindWorkItem, Reason: assemble.ReasonOutOfScope})
			continue
		}
		w.Score = scores[i]
		kept = append(kept, w)
	}
	return kept, out
}

// relateAssertions applies the assertion rules to as, in ID order (an
// assertion met twice counts once), and scores the kept ones among
// themselves against the query; it appends its exclusions to out and
// returns it.
func relateAssertions(q Query, as []AssertionCandidate, out []assemble.Exclusion) ([]assemble.Assertion, []assemble.Exclusion) {
	// Sorted through pointers: a candidate is large, and as is the
	// source's, not to be reordered.
	ordered := make([]*AssertionCandidate, len(as))
	for i := range as {
		ordered[i] = &as[i]
	}
	slices.SortFunc(ordered, func(x, y *AssertionCandidate) int {
		return cmp.Or(strings.Compare(x.Assertion.ID, y.Assertion.ID), strings.Compare(y.Ended, x.Ended))
	})
	ordered = slices.CompactFunc(ordered, func(a, b *AssertionCandidate) bool { return a.Assertion.ID == b.Assertion.ID })
	var keep []*AssertionCandidate
	for _, a := range ordered {
		if r := assertionVerdict(q, *a); r != "" {
			out = append(out, assemble.Exclusion{ID: a.Assertion.ID, Kind: assemble.KindAssertion, Reason: r})
			continue
		}
		keep = append(keep, a)
	}
	docs := make([]string, len(keep))
	for i, a := range keep {
		docs[i] = assertionDoc(*a)
	}
	scores := scoreDocs(q.Terms, docs)
	kept := pooledSlice[assemble.Assertion](&keptAssertions, len(keep))[:len(keep)]
	for i, a := range keep {
		kept[i] = a.Assertion
		kept[i].Score = scores[i]
	}
	return kept, out
}

// relateTurns applies the turn rules to turns, in chronological order, and
// scores the kept ones among themselves.
func relateTurns(q Query, real bool, turns []TurnCandidate, stale staleSet, current []string, topics []topic) ([]assemble.Turn, []assemble.Exclusion) {
	turns = slices.Clone(turns)
	// The order of the session's keys: time, then the length-prefixed ID.
	slices.SortFunc(turns, func(x, y TurnCandidate) int {
		return cmp.Or(x.Turn.At.Compare(y.Turn.At), cmp.Compare(len(x.Turn.ID), len(y.Turn.ID)), strings.Compare(x.Turn.ID, y.Turn.ID))
	})
	turns = slices.CompactFunc(turns, func(a, b TurnCandidate) bool { return a.Turn.ID == b.Turn.ID })
	texts := make([]string, len(turns))
	for i, t := range turns {
		texts[i] = cmp.Or(t.Said, t.Turn.Text)
	}
	aside := Asides(texts)
	var out []assemble.Exclusion
	exclude := func(id string, r assemble.Reason) {
		out = append(out, assemble.Exclusion{ID: id, Kind: assemble.KindTurn, Reason: r})
	}
	var keep []assemble.Turn
	for i, tc := range turns {
		t := tc.Turn
		switch {
		case real && (tc.Scope == assemble.ScopeHypothetical || tc.Scope == assemble.ScopeDraft):
			exclude(t.ID, assemble.ReasonOutOfScope)
		case aside[i]:
			exclude(t.ID, assemble.ReasonOutOfScope)
		case tc.Expired:
			exclude(t.ID, assemble.ReasonExpired)
		// states asks narrates of t.Text; the said text only when it differs.
		case tc.Superseded || states(t.Text, stale, current) || (texts[i] != t.Text && narrates(texts[i], current)) || contradicts(t.Text, t.At, topics):
			exclude(t.ID, assemble.ReasonSuperseded)
		default:
			// Questions are not state: only what a turn states is replayed.
			if t.Text = statements(t.Text); t.Text == "" {
				exclude(t.ID, assemble.ReasonOutOfScope)
				continue
			}
			keep = append(keep, t)
		}
	}
	docs := make([]string, len(keep))
	for i, t := range keep {
		docs[i] = t.Text
	}
	scores := scoreDocs(q.Terms, docs)
	for i := range keep {
		keep[i].Score = scores[i]
	}
	return keep, out
}

// relateEvidence applies the evidence rules to ev, in ID order; a sentence
// met twice counts once.
func relateEvidence(ev []EvidenceCandidate, turns []TurnCandidate, stale staleSet, current []string, said map[string]bool, topics []topic) ([]assemble.Evidence, []assemble.Exclusion) {
	ev = slices.Clone(ev)
	slices.SortFunc(ev, func(x, y EvidenceCandidate) int {
		return cmp.Or(strings.Compare(x.Evidence.ID, y.Evidence.ID), cmp.Compare(y.Evidence.Score, x.Evidence.Score))
	})
	ev = slices.CompactFunc(ev, func(a, b EvidenceCandidate) bool { return a.Evidence.ID == b.Evidence.ID })
	working := make(map[string]bool, len(turns))
	for _, t := range turns {
		if !t.Expired {
			working[t.Turn.ID] = true
		}
	}
	var keep []assemble.Evidence
	var out []assemble.Exclusion
	for _, c := range ev {
		switch {
		case working[c.TurnID], said[c.Evidence.ID]:
		case states(c.Evidence.Text, stale, current), contradicts(c.Evidence.Text, c.Evidence.At, topics):
			out = append(out, assemble.Exclusion{ID: c.Evidence.ID, Kind: assemble.KindEvidence, Reason: assemble.ReasonSuperseded})
		default:
			keep = append(keep, c.Evidence)
		}
	}
	return keep, out
}

// topic is what a current fact is about, for contradicts: its key (the
// stems of the words naming it are topicTerms(key), looked up only for a
// text said before the fact was recorded), and its value.
type topic struct {
	key   string
	value string
	at    time.Time
}

// topicCache holds the topic words of fact keys: a key's words never
// change, and every assembly asks for those of every kept fact.
var topicCache = struct {
	sync.Mutex
	m map[string][]string
}{m: map[string][]string{}}

// maxTopicKeys bounds topicCache; it is emptied when full.
const maxTopicKeys = 1 << 16

// topicTerms returns the words of what a fact with key is about: its
// entity's, else its attribute's.
func topicTerms(key string) []string {
	topicCache.Lock()
	terms, ok := topicCache.m[key]
	topicCache.Unlock()
	if ok {
		return terms
	}
	ent, attr := extract.NormalizeKey(key)
	name := ent
	if name == "" {
		name = attr
	}
	terms = lexical.Terms(strings.ReplaceAll(name, "_", " "))
	topicCache.Lock()
	if len(topicCache.m) >= maxTopicKeys {
		clear(topicCache.m)
	}
	topicCache.m[key] = terms
	topicCache.Unlock()
	return terms
}

// factTopics returns the topics of the current facts fs (not flagged for
// review, with a value); one whose key names no word is no topic, which
// contradicts finds out when it first needs the words. The slice is from
// factTopicSlices, for the caller to hand back.
func factTopics(fs []assemble.Fact) []topic {
	out := pooledSlice[topic](&factTopicSlices, len(fs))
	for _, f := range fs {
		if f.NeedsReview || f.Value == "" {
			continue
		}
		out = append(out, topic{key: f.Key, value: f.Value, at: f.RecordedAt})
	}
	return out
}

// contradicts reports whether text, said at at, names what a current fact
// is about (every word of its name) and gives it a value of the same kind
// that the fact does not hold, before the fact was recorded: "We're
// holding the team offsite in Valencia" once the offsite is in Seville.
// The fact holds what is current; the older sentence would bring the
// replaced value back.
func contradicts(text string, at time.Time, topics []topic) bool {
	var have map[string]bool // the text's terms, once a topic needs them
	var vals []string
	for _, tp := range topics {
		if !at.Before(tp.at) {
			continue
		}
		terms := topicTerms(tp.key)
		if len(terms) == 0 {
			continue // no topic
		}
		if have == nil {
			have = termSet(text)
		}
		if !all(terms, have) {
			continue
		}
		if vals == nil {
			vals = distinctive(text)
		}
		numeric := strings.ContainsAny(tp.value, "0123456789")
		name := map[string]bool{}
		for _, t := range terms {
			name[t] = true
		}
		for _, v := range vals {
			// A value, not a word of the topic's own name ("Beta").
			if vt := lexical.Terms(v); len(vt) > 0 && !all(vt, name) &&
				strings.ContainsAny(v, "0123456789") == numeric && !detect.Mentions(tp.value, v) {
				return true
			}
		}
		// A value said where the fact's topic links to it ("Tobias has
		// the onboarding deck"), which the distinctive words miss.
		if _, ok := extract.Anchor(text, tp.key, tp.value, at); ok {
			return true
		}
	}
	return false
}

func all(terms []string, in map[string]bool) bool {
	for _, t := range terms {
		if !in[t] {
			return false
		}
	}
	return true
}
