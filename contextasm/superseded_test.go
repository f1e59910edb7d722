package contextasm

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stategraph/stategraph/assemble"
)

// TestSupersededOf checks supersededOf against supersededFacts on random
// candidate sets: distinct IDs or not, withheld, expired, superseded,
// out-of-scope and kept facts, predecessors that are candidates or not,
// visible or not.
func TestSupersededOf(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	q := Query{Text: "what is the budget", SessionID: "s1"}
	scopes := []assemble.Scope{"", assemble.ScopeSession, assemble.ScopeHypothetical}
	for round := range 2000 {
		n := rng.Intn(12)
		cands := make([]FactCandidate, n)
		for i := range cands {
			c := FactCandidate{
				Fact:               assemble.Fact{ID: fmt.Sprintf("F%d", rng.Intn(16)), Scope: scopes[rng.Intn(len(scopes))], Score: float64(rng.Intn(3))},
				ScopeID:            []string{"s1", "s2"}[rng.Intn(2)],
				Visible:            rng.Intn(8) > 0,
				Valid:              rng.Intn(3) > 0,
				Superseded:         rng.Intn(2) == 0,
				PredecessorVisible: round%2 == 0 || rng.Intn(6) > 0,
			}
			if rng.Intn(2) == 0 {
				c.Supersedes = fmt.Sprintf("F%d", rng.Intn(24))
			}
			cands[i] = c
		}
		want := supersededFacts(q, slices.Clone(cands))
		if got := supersededOf(q, slices.Clone(cands)); !slices.Equal(got, want) {
			t.Fatalf("round %d: supersededOf = %v, supersededFacts = %v\ncandidates %+v", round, got, want, cands)
		}
	}
}
