package search_test

import (
	"encoding/json"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// TestQueryMeetsIndex: a query parsed with lexical.Terms finds the facts
// whose words are inflections of its own ("pricing" / "prices"), accents
// kept ("Café"), and only those: the index and the query share one
// tokenizer.
func TestQueryMeetsIndex(t *testing.T) {
	st := storetest.Open(t)
	ix := search.New()
	fs := pipeline.New(pipeline.Options{
		Store: st, Clock: temporal.System{}, Facts: facts.NewService(st, temporal.System{}, authority.MustDefaultOrder()), Index: ix,
	})
	ctx := caller(t)
	ids := map[string]string{}
	for key, value := range map[string]string{
		"pricing_policy": "Enterprise pricing reviewed quarterly",
		"venue":          "Café Lumière, 2nd floor",
		"budget":         "$150,000 for 2026",
	} {
		f, err := fs.Write(ctx, facts.WriteInput{Key: key, Value: json.RawMessage(`"` + value + `"`), MemoryType: facts.MemoryOrganizational})
		if err != nil {
			t.Fatal(err)
		}
		ids[key] = f.ID
	}
	p, err := tenancy.FromContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  []string // keys whose facts every query term finds
	}{
		{"What prices do we have?", []string{"pricing_policy"}},
		{"policies", []string{"pricing_policy"}},
		{"the café", []string{"venue"}},
		{"CAFÉ", []string{"venue"}},
		{"150,000", []string{"budget"}},
		{"cafe", nil},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			terms := lexical.Terms(tc.query)
			if len(terms) == 0 {
				t.Fatalf("no terms in %q", tc.query)
			}
			for _, term := range terms {
				var got []string
				err := st.View(ctx, p, func(tx *store.Txn) error {
					return ix.Postings(tx, p.Shared(), term, temporal.View{}, 0, func(ps search.Posting) bool {
						got = append(got, ps.ID)
						return true
					})
				})
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, k := range tc.want {
					want = append(want, ids[k])
				}
				if len(got) != len(want) || (len(want) > 0 && got[0] != want[0]) {
					t.Errorf("term %q of %q: postings %v, want %v", term, tc.query, got, want)
				}
			}
		})
	}
}
