package contextasm

import (
	"sync"
	"time"

	"github.com/stategraph/stategraph/assemble"
)

// Candidates is what one Source found for a request: typed candidate sets,
// as read from the store, before anything is decided about them. A Source
// returns its own Candidates and never sees another's; Relate combines
// them. Every field is optional.
type Candidates struct {
	// Facts are persistent facts (layer 2) as they stand in the view.
	Facts []FactCandidate
	// Items are the session's live working-set items (layer 3).
	Items []ItemCandidate
	// Turns are the session's recent conversation turns, in any order.
	Turns []TurnCandidate
	// Evidence are sentences of earlier turns, ranked against the query
	// by the evidence index, as they hold in the view.
	Evidence []EvidenceCandidate
	// Assertions are state assertions as they stand in the view, active
	// or ended.
	Assertions []AssertionCandidate
	// Identity holds identity attributes beyond the token's claims (the
	// caller's profile and reporting line), rendered in order.
	Identity []assemble.Attr
	// Documents are chunks of organizational documents the caller may
	// see, ranked against the query.
	Documents []assemble.Document
	// Environment holds environment entries (layer 4).
	Environment []EnvCandidate
	// Retired are values that facts superseded (or that writes restated
	// after they were replaced): turns stating them are not replayed.
	Retired []Retired
	// Excluded are records the source itself knows are out (an expired
	// environment entry or working-set item), with the reason.
	Excluded []assemble.Exclusion
	// Withheld counts records the caller may not see that the source met
	// but does not list.
	Withheld int
	// Notes are problems worth reporting (a provider that failed).
	Notes []string

	// pooled reports that Facts, Assertions and Retired were made in
	// working memory reused from call to call (pooledSlice), which
	// release hands back.
	pooled bool
}

// Pools of the large slices of a call, by element type: at 100,000 facts
// the facts, assertions and retired values a call gathers, and what
// Relate keeps and works with, were about 200 KB a call; each is copied
// or rendered before it is handed back.
var (
	factCandidates      sync.Pool // of *[]FactCandidate
	assertionCandidates sync.Pool // of *[]AssertionCandidate
	retiredValues       sync.Pool // of *[]Retired
	keptFacts           sync.Pool // of *[]assemble.Fact
	keptAssertions      sync.Pool // of *[]assemble.Assertion
	exclusionSlices     sync.Pool // of *[]assemble.Exclusion
	factTopicSlices     sync.Pool // of *[]topic
	idSlices            sync.Pool // of *[]string
)

// maxPooled bounds the elements a pooled slice or map keeps room for.
const maxPooled = 4096

// Pools of the maps of a call: sets of IDs, and the successors Relate
// keeps for Prune (a few KB each, made on every call otherwise).
var (
	idSets     sync.Pool // of map[string]bool
	idMaps     sync.Pool // of map[string]string
	predSlices sync.Pool // of *[]pred
)

// pooledMap returns an empty map from p.
func pooledMap[V any](p *sync.Pool) map[string]V {
	if m, ok := p.Get().(map[string]V); ok {
		return m
	}
	return map[string]V{}
}

// putPooledMap empties m (its keys are the store's strings, not to be
// kept alive) and hands it to p, unless it grew large.
func putPooledMap[V any](p *sync.Pool, m map[string]V) {
	if m == nil || len(m) > maxPooled {
		return
	}
	clear(m)
	p.Put(m)
}

// pooledSlice returns an empty slice with room for n, from p.
func pooledSlice[T any](p *sync.Pool, n int) []T {
	if s, ok := p.Get().(*[]T); ok && cap(*s) >= n {
		return (*s)[:0]
	}
	return make([]T, 0, n)
}

// putPooledSlice empties s (its elements hold the store's strings, not
// to be kept alive) and hands it to p.
func putPooledSlice[T any](p *sync.Pool, s []T) {
	if cap(s) == 0 || cap(s) > maxPooled {
		return
	}
	clear(s)
	s = s[:0]
	p.Put(&s)
}

// release hands c's pooled slices back for reuse: c's Facts, Assertions
// and Retired must not be used afterwards (Service.Assemble releases its
// sets once Relate has copied what it keeps).
func (c *Candidates) release() {
	if !c.pooled {
		return
	}
	putPooledSlice(&factCandidates, c.Facts)
	putPooledSlice(&assertionCandidates, c.Assertions)
	putPooledSlice(&retiredValues, c.Retired)
	c.Facts, c.Assertions, c.Retired, c.pooled = nil, nil, nil, false
}

// FactCandidate is a fact a source met, as it stands in the request's
// view. A fact the caller may not read carries only its ID and
// Visible=false: nothing else about it may reach the output.
type FactCandidate struct {
	// Fact is the fact as it would be packed (value as text, score).
	Fact assemble.Fact
	// ScopeID is the session or task of a SESSION or TASK fact.
	ScopeID string
	// Visible reports whether the caller may read the fact.
	Visible bool
	// Valid reports whether the fact holds in the view; Superseded, when
	// it does not, whether a successor replaced it (else it expired).
	Valid, Superseded bool
	// Supersedes is the fact this one replaced, if any, and
	// PredecessorVisible whether the caller may read that one.
	Supersedes         string
	PredecessorVisible bool
	// Said is the evidence id of the sentence the fact was extracted from
	// (evidence.ID), or "": the fact stands for that sentence.
	Said string
}

// ItemCandidate is a live (not expired) working-set item.
type ItemCandidate struct {
	Item assemble.WorkItem // Score is set by Relate
}

// TurnCandidate is a conversation turn and what the view knows of it.
type TurnCandidate struct {
	Turn assemble.Turn // Text as replayed; Score is set by Relate
	// Said is the turn's text as recorded, which Relate judges (a turn
	// telling the history of a value is left out even when the sentence
	// with the final value is not replayed); "" means Turn.Text.
	Said  string
	Scope assemble.Scope
	// Expired: the turn's lifetime ended before the request's time.
	Expired bool
	// Superseded: supersession detection marked the turn replaced, in a
	// transaction the view knows.
	Superseded bool
}

// EvidenceCandidate is a sentence of an earlier turn that holds in the
// request's view (not retired), with its relevance score.
type EvidenceCandidate struct {
	Evidence assemble.Evidence // ID names turn and sentence
	TurnID   string
}

// AssertionCandidate is a state assertion and what the view knows of it.
type AssertionCandidate struct {
	// Assertion is the assertion as it would be packed (object as text;
	// Score is set by Relate).
	Assertion assemble.Assertion
	// Context is the thread or context the assertion holds in, and
	// Session the session it came through, if any: it is in the context
	// of a request for either.
	Context, Session string
	// Ended says why it no longer holds in the view: "" while active,
	// else its status there (EXPIRED, REVOKED or PROMOTED).
	Ended string
}

// EnvCandidate is an environment entry. A Fresh one comes from a
// provider called for this request and replaces a stored entry of the
// same key.
type EnvCandidate struct {
	Attr  assemble.Attr
	Fresh bool
}

// Retired is a superseded fact's value, the value of the head that
// replaced it, and when it was superseded.
type Retired struct {
	ID    string
	Value string
	New   string
	At    time.Time
}
