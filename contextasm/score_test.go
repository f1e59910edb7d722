package contextasm

import (
	"math"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/search"
)

// FuzzScoreDocs checks scoreDocs against search.BM25.ScoreDocs, bit for
// bit, over a query and documents split from one text.
func FuzzScoreDocs(f *testing.F) {
	f.Add("budget offsite Lisbon", "The budget is approved|offsite in Lisbon, Lisbon again|nothing|budgets and BUDGETING")
	f.Add("what do we know about w1 and w2?", "w1 w2 w1|w2|||the and of")
	f.Add("", "a|b")
	f.Add("q", "")
	f.Fuzz(func(t *testing.T, query, docs string) {
		ds := strings.Split(docs, "|")
		if docs == "" {
			ds = nil
		}
		want := search.DefaultBM25().ScoreDocs(query, ds)
		got := scoreDocs(QueryTerms(query), ds)
		if len(got) != len(want) {
			t.Fatalf("scoreDocs returned %d scores, ScoreDocs %d", len(got), len(want))
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("doc %q: scoreDocs %v, ScoreDocs %v", ds[i], got[i], want[i])
			}
		}
	})
}
