package contextasm_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

// TestAssembleNow checks that assembleContext(now:) is the time the
// context is for: the environment's now and date lines and every expiry
// (working-set items, turns, environment entries) follow it, while the
// server's clock stands still.
func TestAssembleNow(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	clock := env.Clock.Now()
	item := putItem(t, env, tok, map[string]any{"sessionId": "s1", "key": "draft_reply", "value": "send the contract on Friday", "itemType": "CONTEXT", "ttl": 60})
	turn := recordTurn(t, env, tok, "s1", "USER", "The contract goes out on Friday.")
	env.MustDo(t, tok, `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id } }`, map[string]any{"in": []map[string]any{
		{"key": "status", "value": "in a meeting", "expiresAt": clock.Add(10 * time.Minute).Format(time.RFC3339)},
	}}, &struct{ SetEnvironment []struct{ ID string } }{})

	tests := []struct {
		name string
		now  time.Time
		// lines the environment section must hold
		env []string
		// ids and keys that must be excluded as EXPIRED, and those that
		// must be in the text
		expired, present []string
	}{
		{"the clock's now", clock, []string{"now: 2026-01-05T09:00:00Z", "date: 2026-01-05 (Mon)", "status: in a meeting"}, nil, []string{"send the contract", "goes out on Friday"}},
		{"two minutes later the item has expired", clock.Add(2 * time.Minute), []string{"now: 2026-01-05T09:02:00Z", "status: in a meeting"}, []string{item}, []string{"goes out on Friday"}},
		{"eleven minutes later the entry has expired", clock.Add(11 * time.Minute), []string{"now: 2026-01-05T09:11:00Z"}, []string{item, "status"}, []string{"goes out on Friday"}},
		{"a day later the turn has expired", clock.Add(25 * time.Hour), []string{"now: 2026-01-06T10:00:00Z", "date: 2026-01-06 (Tue)"}, []string{item, "status", turn}, nil},
		{"another zone names the same instant", clock.In(time.FixedZone("", -5*3600)), []string{"now: 2026-01-05T09:00:00Z", "date: 2026-01-05 (Mon)"}, nil, []string{"send the contract"}},
		{"a day in 2025", time.Date(2025, 3, 14, 16, 30, 0, 0, time.UTC), []string{"now: 2025-03-14T16:30:00Z", "date: 2025-03-14 (Fri)"}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := assemble(t, env, tok, map[string]any{"query": "contract", "budget": 500, "sessionId": "s1", "now": tc.now.Format(time.RFC3339)})
			envText := section(got, "Environment")
			for _, want := range tc.env {
				if !strings.Contains(envText, want) {
					t.Errorf("environment lacks %q:\n%s", want, envText)
				}
			}
			for _, id := range tc.expired {
				if r := got.excluded(id); r != "EXPIRED" {
					t.Errorf("%s excluded as %q, want EXPIRED:\n%s", id, r, got.Text)
				}
			}
			for _, want := range tc.present {
				if !strings.Contains(got.Text, want) {
					t.Errorf("context lacks %q:\n%s", want, got.Text)
				}
			}
			if strings.Contains(got.Text, "2026-11-23") {
				t.Errorf("the wall clock's date leaked:\n%s", got.Text)
			}
		})
	}
	if !env.Clock.Now().Equal(clock) {
		t.Errorf("the server clock moved to %v", env.Clock.Now())
	}
	// Without now, the server clock decides: nothing has expired.
	got := assemble(t, env, tok, map[string]any{"query": "contract", "budget": 500, "sessionId": "s1"})
	if got.excluded(item) != "" || !strings.Contains(section(got, "Environment"), "date: 2026-01-05 (Mon)") {
		t.Errorf("default now is not the server clock's:\n%s\n%+v", got.Text, got.Excluded)
	}
}

// TestAssembleNowBadInput refuses a now that is no time or lies outside
// the representable range.
func TestAssembleNowBadInput(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	tests := []struct {
		name string
		now  any
		msg  string
	}{
		{"not a time", "next Tuesday", "RFC 3339"},
		{"a number", 1735689600, "RFC 3339"},
		{"year 0", "0000-12-31T23:00:00Z", "outside the representable range"},
		{"before year 1 in UTC", "0001-01-01T00:30:00+01:00", "outside the representable range"},
		{"five-digit year", "10000-01-01T00:00:00Z", "RFC 3339"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "x", "budget": 10, "now": tc.now}})
			if r.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %s", r.Code(), r)
			}
			if !strings.Contains(r.Errors[0].Message, tc.msg) {
				t.Errorf("message %q lacks %q", r.Errors[0].Message, tc.msg)
			}
		})
	}
}

// TestReplacedSignalIsNotReplayed: when an environment signal gets a new
// value, a turn that stated the old one is not replayed (the old value is
// retired like a superseded fact's), while a turn about something else is.
func TestReplacedSignalIsNotReplayed(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	set := func(value string, at time.Time) {
		env.MustDo(t, tok, `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id } }`, map[string]any{"in": []map[string]any{
			{"key": "deadline", "value": value, "at": at.Format(time.RFC3339)},
		}}, &struct{ SetEnvironment []struct{ ID string } }{})
	}
	clock := env.Clock.Now()
	set("Sarah's offer letter expires Friday (5 days)", clock.Add(-time.Hour))
	recordTurn(t, env, tok, "s1", "USER", "Note: Sarah's offer letter expires Friday (5 days)")
	recordTurn(t, env, tok, "s1", "USER", "The onboarding survey closes at noon.")
	set("Sarah's offer expires TODAY at 5:00 PM. No response yet.", clock)
	got := assemble(t, env, tok, map[string]any{"query": "What's the status of Sarah's offer?", "budget": 2000, "sessionId": "s1"})
	for _, gone := range []string{"5 days", "expires Friday"} {
		if strings.Contains(got.Text, gone) {
			t.Errorf("the context still states the replaced value (%q):\n%s", gone, got.Text)
		}
	}
	for _, want := range []string{"TODAY at 5:00 PM", "noon"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("context lacks %q:\n%s", want, got.Text)
		}
	}
}
