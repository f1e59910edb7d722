package contextasm

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/assertions"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/store"
)

// MaxAssertions is how many of the most recent state assertions known in
// the view AssertionSource gathers by default: active assertions are few
// (leases end), so the newest are the ones that can still hold.
const MaxAssertions = 128

// AssertionSource gathers state assertions: the most recent ones that
// exist in the request's view, judged at the request's instant (Query.Now:
// asOf, else knownAt, else the caller's now), active or ended. They are
// read from the caller's organization only, where every member may read
// them. Relate keeps the active ones in the request's context.
type AssertionSource struct {
	// Max bounds the assertions gathered; 0 means MaxAssertions.
	Max int
}

// Gather implements Source.
func (s AssertionSource) Gather(tx *store.Txn, q Query) (Candidates, error) {
	limit := s.Max
	if limit <= 0 {
		limit = MaxAssertions
	}
	c := Candidates{Assertions: pooledSlice[AssertionCandidate](&assertionCandidates, min(limit, MaxAssertions)), pooled: true}
	err := assertions.EachRecentTx(tx, q.View, q.Now, limit, func(a assertions.Assertion) bool {
		// a shares its slices with the decoded cache: everything kept is
		// copied (strings are immutable; ValueText and lease copy).
		ac := AssertionCandidate{
			Assertion: assemble.Assertion{
				ID: a.ID, Subject: a.Subject, Predicate: a.Predicate, Object: objectText(a.Object),
				Status: string(a.EpistemicStatus), Hypothesis: a.HypothesisGroup, Lease: lease(a.Validity), At: a.CreatedAt,
			},
			Context: a.Context, Session: a.Provenance.Origin.SessionID,
		}
		if a.Status != assertions.Active {
			ac.Ended = string(a.Status)
		}
		c.Assertions = append(c.Assertions, ac)
		return true
	})
	if err != nil {
		return Candidates{}, err
	}
	return c, nil
}

// objectTexts remembers objectText by the object's stored JSON: an
// assembly gathers the 128 most recent assertions, mostly the ones the
// assembly before gathered, and each object's text was a new string every
// time. It holds at most maxObjectTexts texts of objects of at most
// maxObjectText bytes (at most about 2 MB, key and text), and is emptied
// when full.
var objectTexts = struct {
	mu sync.Mutex
	m  map[string]string
}{m: map[string]string{}}

const (
	maxObjectTexts = 1 << 12
	maxObjectText  = 1 << 8
)

// objectText is facts.ValueText(v) (objectTextOf), remembered in
// objectTexts.
func objectText(v json.RawMessage) string {
	if len(v) > maxObjectText {
		return objectTextOf(v)
	}
	objectTexts.mu.Lock()
	t, ok := objectTexts.m[string(v)] // the look-up does not copy v
	objectTexts.mu.Unlock()
	if ok {
		return t
	}
	t = objectTextOf(v)
	objectTexts.mu.Lock()
	defer objectTexts.mu.Unlock()
	if len(objectTexts.m) >= maxObjectTexts {
		clear(objectTexts.m)
	}
	objectTexts.m[string(v)] = t
	return t
}

// objectTextOf is facts.ValueText(v): the text of a JSON string, else the
// trimmed JSON. A string of printable ASCII without escapes is its bytes
// between the quotes, as encoding/json decodes it; anything else is
// decoded.
func objectTextOf(v json.RawMessage) string {
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' {
		plain := true
		for _, b := range v[1 : n-1] {
			if b < 0x20 || b >= 0x7f || b == '"' || b == '\\' {
				plain = false
				break
			}
		}
		if plain {
			return string(v[1 : n-1])
		}
	}
	return facts.ValueText(v)
}

// lease maps an assertion's validity to the lease Build renders.
func lease(v assertions.Validity) assemble.Lease {
	l := assemble.Lease{Kind: assemble.LeaseKind(v.Mode), Event: v.UntilEvent}
	if v.ExpiresAt != nil {
		l.Until = *v.ExpiresAt
	}
	return l
}

// assertionVerdict is the rule for one assertion candidate: keep it (""),
// or the reason it is excluded. An assertion whose lease ended is EXPIRED;
// one revoked (by a newer assertion, a decision or a turn) or promoted to
// a fact is SUPERSEDED; an active one of another context than the
// request's session is OUT_OF_SCOPE. A request that names no session takes
// every context.
func assertionVerdict(q Query, c AssertionCandidate) assemble.Reason {
	switch {
	case c.Ended == string(assertions.Expired):
		return assemble.ReasonExpired
	case c.Ended != "":
		return assemble.ReasonSuperseded
	case q.SessionID != "" && c.Context != q.SessionID && c.Session != q.SessionID:
		return assemble.ReasonOutOfScope
	}
	return ""
}

// assertionDoc is the text an assertion is ranked by: what it says and
// where it holds.
func assertionDoc(a AssertionCandidate) string {
	return strings.Join([]string{a.Assertion.Subject, a.Assertion.Predicate, a.Assertion.Object, a.Context}, " ")
}
