package constraint_test

import (
	"testing"

	"github.com/stategraph/stategraph/constraint"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		in       []string
		wantType constraint.Type // "" for none
		wantCue  string
		wantText string
	}{
		{[]string{"We must never share salary data."}, constraint.Prohibition, "never", ""},
		{[]string{"rule: never share salaries"}, constraint.Prohibition, "never", ""},
		{[]string{"rule: all services must use TLS"}, constraint.Requirement, "must", ""},
		{[]string{"The regulation applies."}, constraint.Policy, "regulation", ""},
		{[]string{"Do not email customers on weekends"}, constraint.Prohibition, "do not", ""},
		{[]string{"The report is due by Friday."}, constraint.Deadline, "due by", ""},
		{[]string{"Marketing spend is capped at $10,000."}, constraint.Budget, "capped at", ""},
		{[]string{"Refunds over $500 require Finance approval."}, constraint.Policy, "require finance approval", ""},
		{[]string{"discount_policy: max 15% discount"}, constraint.Limit, "max", ""},
		{[]string{"Discounts of no more than 15% are allowed."}, constraint.Limit, "no more than", ""},
		{[]string{"All services must use TLS."}, constraint.Requirement, "must", ""},
		{[]string{"The sky is blue.", "Nothing to see."}, "", "", ""},
		{nil, "", "", ""},
		// The most specific type wins over an earlier passage.
		{[]string{"You must use TLS.", "Never log tokens."}, constraint.Prohibition, "never", "Never log tokens."},
		// Within a type, the first passage that states it.
		{[]string{"Ship it.", "Must use TLS.", "Must sign."}, constraint.Requirement, "must", "Must use TLS."},
	}
	for _, tc := range tests {
		name := "none"
		if len(tc.in) > 0 {
			name = tc.in[0]
		}
		t.Run(name, func(t *testing.T) {
			m, ok := constraint.Classify(tc.in...)
			if ok != (tc.wantType != "") || m.Type != tc.wantType || m.Cue != tc.wantCue {
				t.Fatalf("Classify(%q) = %+v, %v; want %q (%q)", tc.in, m, ok, tc.wantType, tc.wantCue)
			}
			if tc.wantText != "" && m.Text != tc.wantText {
				t.Errorf("text: got %q, want %q", m.Text, tc.wantText)
			}
		})
	}
}

func TestTypes(t *testing.T) {
	want := []constraint.Type{constraint.Prohibition, constraint.Deadline, constraint.Budget, constraint.Policy, constraint.Limit, constraint.Requirement}
	got := constraint.Types()
	if len(got) != len(want) {
		t.Fatalf("Types() = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Types()[%d] = %q, want %q", i, got[i], want[i])
		}
	}
}
