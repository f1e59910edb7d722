package revision_test

import (
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
)

// TestConstraintTaxonomy: a rule gets the same constraint type whether it
// is written as a fact (constraintType) or stated in a turn (constraint).
func TestConstraintTaxonomy(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	tests := []struct {
		text, want string
	}{
		{"We must never share salary data.", "PROHIBITION"},
		{"The report is due by Friday.", "DEADLINE"},
		{"Marketing spend is capped at $10,000.", "BUDGET"},
		{"Refunds over $500 require Finance approval.", "POLICY"},
		{"Discounts of no more than 15% are allowed.", "LIMIT"},
		{"All services must use TLS.", "REQUIREMENT"},
	}
	for i, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			var out struct {
				WriteFact struct {
					IsConstraint   bool
					ConstraintType *string
				}
			}
			env.MustDo(t, tok, `mutation($in: FactInput!) { writeFact(input: $in) { isConstraint constraintType } }`,
				map[string]any{"in": map[string]any{"key": "rule", "value": tc.text}}, &out)
			if f := out.WriteFact; !f.IsConstraint || f.ConstraintType == nil || *f.ConstraintType != tc.want {
				t.Errorf("writeFact %q: isConstraint %v, constraintType %v; want %s", tc.text, f.IsConstraint, f.ConstraintType, tc.want)
			}
			res := turn(t, env, tok, "s"+string(rune('a'+i)), tc.text)
			if res.Constraint == nil || res.Constraint.Type != strings.ToLower(tc.want) {
				t.Errorf("recordTurn %q: constraint %+v, want %s", tc.text, res.Constraint, strings.ToLower(tc.want))
			}
		})
	}
}
