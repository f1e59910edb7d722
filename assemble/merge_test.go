package assemble

import (
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// TestMergeExclusions: merging a caller's exclusions with Build's own
// gives the stable sort of both, whether the caller's are sorted or not,
// with duplicates, and leaves both inputs as they were.
func TestMergeExclusions(t *testing.T) {
	kinds := []Kind{KindFact, KindTurn, KindAssertion, KindEvidence}
	reasons := []Reason{ReasonSuperseded, ReasonOverBudget, ReasonOutOfScope}
	rng := rand.New(rand.NewSource(1))
	some := func(n int) []Exclusion {
		es := make([]Exclusion, n)
		for i := range es {
			es[i] = Exclusion{ID: "F-" + strconv.Itoa(rng.Intn(20)), Kind: kinds[rng.Intn(len(kinds))], Reason: reasons[rng.Intn(len(reasons))]}
		}
		return es
	}
	for i := range 500 {
		a, b := some(rng.Intn(30)), some(rng.Intn(30))
		if i%3 != 0 {
			slices.SortFunc(a, CompareExclusions)
		}
		if i%5 == 0 {
			slices.SortFunc(b, CompareExclusions)
		}
		a0, b0 := slices.Clone(a), slices.Clone(b)
		want := append(slices.Clone(a), b...)
		slices.SortStableFunc(want, CompareExclusions)
		got := mergeExclusions(a, b)
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("case %d: merged %v, the stable sort gives %v", i, got, want)
		}
		if !slices.Equal(a, a0) || !slices.Equal(b, b0) {
			t.Fatalf("case %d: the inputs changed", i)
		}
	}
}

// BenchmarkMergeExclusions: a caller's 260 sorted exclusions and 70 of
// Build's own, as at 100,000 facts.
func BenchmarkMergeExclusions(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	a := make([]Exclusion, 260)
	for i := range a {
		a[i] = Exclusion{ID: "F-01J" + strconv.Itoa(100000+rng.Intn(100000)), Kind: KindFact, Reason: ReasonSuperseded}
	}
	slices.SortFunc(a, CompareExclusions)
	own := make([]Exclusion, 70)
	for i := range own {
		own[i] = Exclusion{ID: "F-01J" + strconv.Itoa(100000+rng.Intn(100000)), Kind: KindFact, Reason: ReasonOverBudget}
	}
	b.Run("merge", func(b *testing.B) {
		for b.Loop() {
			mergeExclusions(a, own)
		}
	})
	b.Run("stable sort", func(b *testing.B) {
		for b.Loop() {
			all := append(slices.Clone(a), own...)
			slices.SortStableFunc(all, CompareExclusions)
		}
	})
}

// TestReleaseExcluded: a list handed back is emptied (it keeps no
// caller's strings alive), and a later merge may make its list in it with
// the same result.
func TestReleaseExcluded(t *testing.T) {
	a := []Exclusion{{ID: "F-1", Kind: KindFact, Reason: ReasonSuperseded}, {ID: "F-3", Kind: KindFact, Reason: ReasonSuperseded}}
	b := []Exclusion{{ID: "F-2", Kind: KindFact, Reason: ReasonOverBudget}}
	first := mergeExclusions(a, b)
	want := slices.Clone(first)
	ReleaseExcluded(first)
	if first[:cap(first)][0] != (Exclusion{}) {
		t.Fatalf("a released list still holds %v", first[:1])
	}
	ReleaseExcluded(nil) // nothing to hand back
	for range 3 {
		got := mergeExclusions(a, b)
		if !slices.Equal(got, want) {
			t.Fatalf("merged %v after a release, want %v", got, want)
		}
		ReleaseExcluded(got)
	}
}
