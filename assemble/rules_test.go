package assemble_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/assemble"
)

// section returns the body of the section with the given title, or "" and false.
func section(o assemble.Output, title string) (string, bool) {
	for _, s := range o.Sections {
		if s.Title == title {
			return s.Text, true
		}
	}
	return "", false
}

func included(o assemble.Output, kind assemble.Kind, id string) (assemble.Included, bool) {
	for _, i := range o.Included {
		if i.Kind == kind && i.ID == id {
			return i, true
		}
	}
	return assemble.Included{}, false
}

func excluded(o assemble.Output, kind assemble.Kind, id string, r assemble.Reason) bool {
	return slices.Contains(o.Excluded, assemble.Exclusion{ID: id, Kind: kind, Reason: r})
}

func TestBuildRules(t *testing.T) {
	c := newCounter(t)
	base := func(facts ...assemble.Fact) assemble.Input {
		return assemble.Input{Budget: 1000, Identity: identity(), Environment: env(), Facts: facts}
	}
	tests := []struct {
		name  string
		in    assemble.Input
		check func(t *testing.T, o assemble.Output)
	}{
		{
			name: "identity first, then environment",
			in:   base(assemble.Fact{ID: "F1", Key: "k", Value: "v", Score: 9}),
			check: func(t *testing.T, o assemble.Output) {
				var titles []string
				for _, s := range o.Sections {
					titles = append(titles, s.Title)
				}
				if want := []string{"Identity", "Environment", "Facts"}; !slices.Equal(titles, want) {
					t.Errorf("sections = %q, want %q", titles, want)
				}
				if !strings.HasPrefix(o.Text, "## Identity\n- user: William (u1)\n") {
					t.Errorf("text does not open with the identity:\n%s", o.Text)
				}
			},
		},
		{
			name: "constraint before more relevant facts",
			in: base(
				assemble.Fact{ID: "F1", Key: "vendor", Value: "GlobalTech", Score: 9},
				assemble.Fact{ID: "F2", Key: "budget_cap", Value: "max 15% discount", IsConstraint: true, ConstraintType: "policy"},
			),
			check: func(t *testing.T, o assemble.Output) {
				ci, fi := strings.Index(o.Text, "budget_cap"), strings.Index(o.Text, "vendor")
				if ci < 0 || fi < 0 || ci > fi {
					t.Errorf("constraint at %d, fact at %d; want the constraint first:\n%s", ci, fi, o.Text)
				}
				if body, _ := section(o, "Constraints (must hold)"); body != "- budget_cap: max 15% discount (constraint: policy)" {
					t.Errorf("constraints section = %q", body)
				}
				if i, _ := included(o, assemble.KindFact, "F2"); i.Reason != "constraint" {
					t.Errorf("constraint reason = %q, want %q", i.Reason, "constraint")
				}
				if i, _ := included(o, assemble.KindFact, "F1"); i.Reason != "relevant (score 9.00)" {
					t.Errorf("fact reason = %q, want %q", i.Reason, "relevant (score 9.00)")
				}
			},
		},
		{
			name: "hypothetical constraint is labelled, not in force",
			in:   base(assemble.Fact{ID: "F1", Key: "cap", Value: "10%", IsConstraint: true, Scope: assemble.ScopeHypothetical}),
			check: func(t *testing.T, o assemble.Output) {
				if _, ok := section(o, "Constraints (must hold)"); ok {
					t.Errorf("hypothetical constraint presented as in force:\n%s", o.Text)
				}
				if body, _ := section(o, "Facts"); body != "- [HYPOTHETICAL — not a commitment] cap: 10%" {
					t.Errorf("facts section = %q", body)
				}
			},
		},
		{
			name: "needs review: key only, flagged in provenance",
			in: base(
				assemble.Fact{ID: "F1", Key: "remaining", Value: "$50,000 remaining", NeedsReview: true, Score: 5},
				assemble.Fact{ID: "F2", Key: "budget", Value: "$120,000", Score: 1},
			),
			check: func(t *testing.T, o assemble.Output) {
				if strings.Contains(o.Text, "$50,000") {
					t.Errorf("stale value presented:\n%s", o.Text)
				}
				body, ok := section(o, "Needs recalculation (derived from a changed value; old result withheld)")
				if !ok || body != "- remaining" {
					t.Errorf("needs-review section = %q (present %v), want %q", body, ok, "- remaining")
				}
				if i, _ := included(o, assemble.KindFact, "F1"); i.Reason != "NEEDS_REVIEW" {
					t.Errorf("reason = %q, want NEEDS_REVIEW", i.Reason)
				}
				if !excluded(o, assemble.KindFact, "F1", assemble.ReasonNeedsReview) {
					t.Errorf("excluded = %v, want F1 NEEDS_REVIEW", o.Excluded)
				}
			},
		},
		{
			name: "hypothetical and draft content labelled",
			in: assemble.Input{
				Budget: 1000,
				Facts: []assemble.Fact{
					{ID: "F1", Key: "vendor", Value: "TechStart", Scope: assemble.ScopeHypothetical},
					{ID: "F2", Key: "term", Value: "24 months", Scope: assemble.ScopeDraft},
				},
				Working: []assemble.WorkItem{{ID: "W1", ItemType: assemble.ItemArtifact, Key: "email", Value: "Dear vendor", Scope: assemble.ScopeDraft}},
			},
			check: func(t *testing.T, o assemble.Output) {
				for _, want := range []string{
					"- [HYPOTHETICAL — not a commitment] vendor: TechStart",
					"- [DRAFT — not final] term: 24 months",
					"- [DRAFT — not final] artifact email: Dear vendor",
				} {
					if !strings.Contains(o.Text, want+"\n") && !strings.HasSuffix(o.Text, want) {
						t.Errorf("text lacks line %q:\n%s", want, o.Text)
					}
				}
			},
		},
		{
			name: "over budget: lowest ranked facts excluded",
			in: func() assemble.Input {
				in := base(
					assemble.Fact{ID: "F1", Key: "a", Value: "alpha", Score: 3},
					assemble.Fact{ID: "F2", Key: "b", Value: "beta", Score: 2},
					assemble.Fact{ID: "F3", Key: "c", Value: strings.Repeat("gamma ", 200), Score: 1},
				)
				in.Budget = 120
				return in
			}(),
			check: func(t *testing.T, o assemble.Output) {
				for _, id := range []string{"F1", "F2"} {
					if _, ok := included(o, assemble.KindFact, id); !ok {
						t.Errorf("%s not included: %v", id, o.Included)
					}
				}
				if !excluded(o, assemble.KindFact, "F3", assemble.ReasonOverBudget) {
					t.Errorf("excluded = %v, want F3 OVER_BUDGET", o.Excluded)
				}
			},
		},
		{
			name: "ties broken by recency, then authority, then ID",
			in: base(
				assemble.Fact{ID: "F4", Key: "d", Value: "4", Score: 1, RecordedAt: t0},
				assemble.Fact{ID: "F3", Key: "c", Value: "3", Score: 1, RecordedAt: t0},
				assemble.Fact{ID: "F2", Key: "b", Value: "2", Score: 1, RecordedAt: t0, Authority: 5},
				assemble.Fact{ID: "F1", Key: "a", Value: "1", Score: 1, RecordedAt: t0.Add(1)},
			),
			check: func(t *testing.T, o assemble.Output) {
				body, _ := section(o, "Facts")
				if want := "- a: 1\n- b: 2\n- c: 3\n- d: 4"; body != want {
					t.Errorf("facts = %q, want %q", body, want)
				}
			},
		},
		{
			name: "unused fact share goes back to facts",
			in: func() assemble.Input {
				in := base(
					assemble.Fact{ID: "F1", Key: "a", Value: strings.Repeat("alpha ", 30), Score: 2},
					assemble.Fact{ID: "F2", Key: "b", Value: strings.Repeat("beta ", 30), Score: 1},
				)
				in.Budget, in.FactShare = 140, 0.5
				return in
			}(),
			check: func(t *testing.T, o assemble.Output) {
				if _, ok := included(o, assemble.KindFact, "F2"); !ok {
					t.Errorf("F2 not included though the budget was left unused (%d of %d):\n%s", o.Tokens, o.Budget, o.Text)
				}
			},
		},
		{
			name: "environment issues only in provenance",
			in:   assemble.Input{Budget: 100, Environment: env(), EnvIssues: []string{"weather: timed out"}},
			check: func(t *testing.T, o assemble.Output) {
				if strings.Contains(o.Text, "weather") {
					t.Errorf("issue in text:\n%s", o.Text)
				}
				if !slices.Contains(o.Notes, "environment: weather: timed out") {
					t.Errorf("notes = %q", o.Notes)
				}
			},
		},
		{
			name: "turns oldest first, most relevant kept",
			in: assemble.Input{Budget: 1000, Turns: []assemble.Turn{
				{ID: "T2", Speaker: "Assistant", Text: "second", At: t0.Add(2)},
				{ID: "T1", Speaker: "user", Text: "first", At: t0.Add(1)},
				{ID: "T3", Speaker: "", Text: "third\nline", At: t0.Add(3)},
			}},
			check: func(t *testing.T, o assemble.Output) {
				body, _ := section(o, "Recent conversation")
				if want := "- user: first\n- assistant: second\n- unknown: third line"; body != want {
					t.Errorf("turns = %q, want %q", body, want)
				}
			},
		},
		{
			name: "assertions with their lease",
			in: assemble.Input{Budget: 1000, Assertions: []assemble.Assertion{
				{ID: "A1", Subject: "room", Predicate: "is", Object: "booked", Status: "OBSERVED", Lease: assemble.Lease{Kind: assemble.LeaseUntilChanged}, Score: 2},
				{ID: "A2", Subject: "Bob", Predicate: "is", Object: "away", Lease: assemble.Lease{Kind: assemble.LeaseUntilTime, Until: t0}},
				{ID: "A3", Subject: "Bob", Predicate: "is in", Object: "Lyon", Status: "ASSUMPTION", Hypothesis: "trip", Lease: assemble.Lease{Kind: assemble.LeaseUntilEvent, Event: "back"}},
			}},
			check: func(t *testing.T, o assemble.Output) {
				body, _ := section(o, "Current state")
				if want := "- room is booked (observed, until changed)\n- Bob is away (until 2025-11-27T16:00:00Z)\n- Bob is in Lyon (assumption, hypothesis trip, until back)"; body != want {
					t.Errorf("assertions = %q, want %q", body, want)
				}
			},
		},
		{
			name: "budget zero",
			in:   func() assemble.Input { in := fullInput(); in.Budget = 0; return in }(),
			check: func(t *testing.T, o assemble.Output) {
				if o.Text != "" || o.Tokens != 0 || !o.Truncated {
					t.Errorf("Build at budget 0 = %q (%d tokens, truncated %v), want empty and truncated", o.Text, o.Tokens, o.Truncated)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := assemble.Build(tc.in, c)
			checkOutput(t, c, tc.in, o)
			tc.check(t, o)
		})
	}
}

func TestBuildWithheldIsOnlyACount(t *testing.T) {
	c := newCounter(t)
	in := fullInput()
	in.Withheld = 0
	open := assemble.Build(in, c)
	in.Withheld = 7
	got := assemble.Build(in, c)
	if got.Withheld != 7 {
		t.Errorf("Withheld = %d, want 7", got.Withheld)
	}
	if got.Text != open.Text || !slices.Equal(got.Included, open.Included) || !slices.Equal(got.Excluded, open.Excluded) {
		t.Errorf("withheld records changed the text or provenance:\n%s\nvs\n%s", got.Text, open.Text)
	}
}

func TestBuildIdentityTruncation(t *testing.T) {
	c := newCounter(t)
	for _, budget := range []int{1, 2, 5, 20} {
		in := fullInput()
		in.Budget = budget
		o := assemble.Build(in, c)
		checkOutput(t, c, in, o)
		full := assemble.Build(assemble.Input{Budget: 1000, Identity: in.Identity}, c).Text
		if !o.Truncated || !strings.HasPrefix(full, o.Text) || o.Text == full {
			t.Errorf("budget %d: text %q (truncated %v), want a proper prefix of the identity", budget, o.Text, o.Truncated)
		}
		if !slices.ContainsFunc(o.Notes, func(n string) bool { return strings.HasPrefix(n, "identity truncated") }) {
			t.Errorf("budget %d: notes = %q, want the truncation reported", budget, o.Notes)
		}
		if len(o.Included) > 1 {
			t.Errorf("budget %d: included = %v, want the identity alone", budget, o.Included)
		}
	}
}
