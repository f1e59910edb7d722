package assemble_test

import (
	"strings"
	"testing"

	"github.com/stategraph/stategraph/assemble"
)

// TestDocumentShare: document chunks take their own share of the budget
// before facts, render with their provenance after the facts, and what
// their share cannot hold gets what the others leave, after deferred
// facts.
func TestDocumentShare(t *testing.T) {
	c := newCounter(t)
	doc := func(id string, chunk int, score float64, text string) assemble.Document {
		return assemble.Document{ID: id + "#" + string(rune('0'+chunk)), DocumentID: id, Chunk: chunk, Title: "Travel policy", SourceURI: "https://wiki.example.com/travel", Text: text, Score: score}
	}
	in := assemble.Input{
		Identity: identity(), Environment: env(),
		Facts: []assemble.Fact{{ID: "F-1", Key: "hotel.cap", Value: "250 dollars a night", Score: 1, RecordedAt: t0}},
		Documents: []assemble.Document{
			doc("travel", 1, 0.5, "Expense reports are due within thirty days."),
			doc("travel", 0, 2.5, "Hotels are capped at 250 dollars a night."),
		},
	}
	for _, tc := range []struct {
		name     string
		budget   int
		share    float64
		wantDocs []string // included, in text order
		wantOut  []string // excluded as over budget
	}{
		{"both fit", 2000, 0, []string{"travel#0", "travel#1"}, nil},
		{"a share too small: both get what is left", 138, 0.01, []string{"travel#0", "travel#1"}, nil},
		{"a tight budget keeps the best", 130, 0.3, []string{"travel#0"}, []string{"travel#1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := in
			in.Budget, in.DocumentShare = tc.budget, tc.share
			out := assemble.Build(in, c)
			if out.Tokens > tc.budget {
				t.Fatalf("tokens %d over the budget %d", out.Tokens, tc.budget)
			}
			var docs []string
			for _, inc := range out.Included {
				if inc.Kind == assemble.KindDocument {
					docs = append(docs, inc.ID)
				}
			}
			if strings.Join(docs, ",") != strings.Join(tc.wantDocs, ",") {
				t.Errorf("documents included %v, want %v\n%s", docs, tc.wantDocs, out.Text)
			}
			var over []string
			for _, e := range out.Excluded {
				if e.Kind == assemble.KindDocument && e.Reason == assemble.ReasonOverBudget {
					over = append(over, e.ID)
				}
			}
			if strings.Join(over, ",") != strings.Join(tc.wantOut, ",") {
				t.Errorf("documents over budget %v, want %v", over, tc.wantOut)
			}
			if len(docs) > 0 {
				if !strings.Contains(out.Text, "## Facts\n- hotel.cap: 250 dollars a night\n## Documents\n- [Travel policy — travel chunk 1, https://wiki.example.com/travel] Hotels are capped at 250 dollars a night.") {
					t.Errorf("text:\n%s", out.Text)
				}
			}
		})
	}
}
