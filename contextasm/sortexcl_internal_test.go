package contextasm

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stategraph/stategraph/assemble"
)

// TestSortExclusions holds sortExclusions to a plain sort, for inputs made
// of 0 to 12 runs in order (merged up to maxExclusionRuns, sorted past
// it), with duplicates.
func TestSortExclusions(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	kinds := []assemble.Kind{assemble.KindFact, assemble.KindAssertion, assemble.KindTurn, assemble.KindEvidence}
	reasons := []assemble.Reason{assemble.ReasonSuperseded, assemble.ReasonExpired, assemble.ReasonOverBudget}
	for round := range 2000 {
		var es []assemble.Exclusion
		for range rng.Intn(13) {
			run := make([]assemble.Exclusion, rng.Intn(20))
			for i := range run {
				run[i] = assemble.Exclusion{ID: fmt.Sprintf("id-%d", rng.Intn(30)), Kind: kinds[rng.Intn(len(kinds))], Reason: reasons[rng.Intn(len(reasons))]}
			}
			slices.SortFunc(run, assemble.CompareExclusions)
			es = append(es, run...)
		}
		want := slices.Clone(es)
		slices.SortFunc(want, assemble.CompareExclusions)
		sortExclusions(es)
		if !slices.Equal(es, want) {
			t.Fatalf("round %d: got %v, want %v", round, es, want)
		}
	}
}
