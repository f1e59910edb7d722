package contextasm_test

import (
	"slices"
	"testing"

	"github.com/stategraph/stategraph/contextasm"
	"github.com/stategraph/stategraph/lexical"
)

// FuzzQueryTerms holds QueryTerms to its definition: the distinct index
// terms of the query, sorted; none for a query without any.
func FuzzQueryTerms(f *testing.F) {
	for _, s := range []string{"", "the and of", "budget venue 3 lisbon", "Budgets budget BUDGET venues", "what do we know about w1 and w2, w3 w1?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		var want []string
		seen := map[string]bool{}
		for _, term := range lexical.Terms(q) {
			if !seen[term] {
				seen[term] = true
				want = append(want, term)
			}
		}
		slices.Sort(want)
		if got := contextasm.QueryTerms(q); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("QueryTerms(%q) = %#v, want %#v", q, got, want)
		}
	})
}
