package server_test

import (
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

// TestFactRuleEdges reads a change through the API at the rule's edges:
// exactly at a fact's validFrom it holds, exactly at its validTo it no
// longer does, and a supersession recorded after knownAt does not count.
func TestFactRuleEdges(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	t0 := env.Clock.Now()
	from := t0.Add(-24 * time.Hour)
	a := write(t, env, tok, map[string]any{"key": "ceo", "value": "Ann", "validFrom": from.Format(time.RFC3339Nano)})
	env.Clock.Advance(2 * time.Hour)
	recorded := env.Clock.Now()
	change := t0.Add(time.Hour) // the world changed before the service learned it
	b := write(t, env, tok, map[string]any{"key": "ceo", "value": "Bob", "supersedes": "ceo", "validFrom": change.Format(time.RFC3339Nano)})
	ns := time.Nanosecond
	f := func(t time.Time) string { return t.Format(time.RFC3339Nano) }
	tests := []struct {
		name string
		vars map[string]any
		want string // fact id, "" for none
	}{
		{"just before validFrom", map[string]any{"asOf": f(from.Add(-ns))}, ""},
		{"exactly at validFrom", map[string]any{"asOf": f(from)}, a.ID},
		{"just before validTo", map[string]any{"asOf": f(change.Add(-ns))}, a.ID},
		{"exactly at validTo", map[string]any{"asOf": f(change)}, b.ID},
		{"at validTo, known before the change was recorded", map[string]any{"asOf": f(change), "knownAt": f(recorded.Add(-ns))}, a.ID},
		{"at validTo, known exactly when recorded", map[string]any{"asOf": f(change), "knownAt": f(recorded)}, b.ID},
		{"current, known before the change was recorded", map[string]any{"knownAt": f(recorded.Add(-ns))}, a.ID},
		{"current", nil, b.ID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := current(t, env, tok, "ceo", tc.vars)
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("currentValue = %s, want none", got.ID)
			case tc.want != "" && (got == nil || got.ID != tc.want):
				t.Errorf("currentValue = %+v, want %s", got, tc.want)
			}
			// factHistory's isValid answers by the same rule.
			for _, h := range history(t, env, tok, "ceo", tc.vars) {
				if h.IsValid != (h.ID == tc.want) {
					t.Errorf("factHistory: %s isValid = %v, want %v", h.ID, h.IsValid, h.ID == tc.want)
				}
			}
		})
	}
}
