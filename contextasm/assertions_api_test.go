package contextasm_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/golden"
)

// assertState admits a state assertion through the API and returns its id.
func assertState(t *testing.T, env *apitest.Env, tok, subject, predicate, object, context, status string, validity map[string]any) string {
	t.Helper()
	var out struct{ AssertState struct{ ID string } }
	env.MustDo(t, tok, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"subject": subject, "predicate": predicate, "object": object, "context": context, "epistemicStatus": status,
		"validity":   validity,
		"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.8, "method": "observed"},
		"refs":       []map[string]any{{"kind": "sensor", "locator": "badge-reader-3"}},
	}}, &out)
	return out.AssertState.ID
}

// TestAssertionsInContext: active state assertions reach assembleContext
// as their own section (subject, predicate, object, epistemic status,
// lease), ranked with the query, with their provenance; those expired,
// revoked, promoted or of another context are excluded with the reason;
// the caller's now and asOf/knownAt decide what holds; another
// organization sees none of them.
func TestAssertionsInContext(t *testing.T) {
	env := apitest.New(t)
	alice := apitest.Token(t, apitest.Identity("org-a", "alice"))
	peerID := apitest.Identity("org-a", "pat")
	peerID.Authority = "peer"
	peer := apitest.Token(t, peerID)
	other := apitest.Token(t, apitest.Identity("org-b", "bob"))
	t0 := env.Clock.Now()
	until := func(d time.Duration) map[string]any {
		return map[string]any{"mode": "UNTIL_TIME", "expiresAt": t0.Add(d).Format(time.RFC3339)}
	}

	room := assertState(t, env, alice, "Entity#42", "location", "Room#7", "s1", "INFERENCE", until(2*time.Hour))
	reader := assertState(t, env, alice, "badge_reader", "status", "offline", "s1", "PERCEPTION", map[string]any{"mode": "UNTIL_EVENT", "untilEvent": "repair"})
	mood := assertState(t, env, alice, "Entity#42", "mood", "busy", "s2", "ASSUMPTION", map[string]any{"mode": "UNTIL_CHANGED"})
	printer := assertState(t, env, alice, "printer", "status", "jammed", "s1", "PERCEPTION", until(10*time.Minute))
	coffee := assertState(t, env, alice, "coffee_machine", "status", "broken", "s1", "PERCEPTION", map[string]any{"mode": "UNTIL_CHANGED"})
	t1 := env.Clock.Now() // before anything changed
	env.Clock.Advance(time.Minute)
	fixed := assertState(t, env, alice, "coffee_machine", "status", "fixed", "s1", "ACTION", map[string]any{"mode": "UNTIL_CHANGED"})
	plan := assertState(t, env, alice, "launch", "plan", "approved", "s1", "INFERENCE", map[string]any{"mode": "UNTIL_CHANGED"})
	env.MustDo(t, alice, `mutation($id: ID!) { promoteState(id: $id, decision: {reason: "the board signed"}) { id } }`, map[string]any{"id": plan}, &struct{}{})
	env.Clock.Advance(30 * time.Minute) // the printer's lease ends
	t2 := env.Clock.Now()

	const query = "where is Entity#42 located, which room"
	got := assemble(t, env, alice, map[string]any{"query": query, "budget": 1000, "sessionId": "s1"})
	golden.Check(t, "assertions.golden", got.Text)
	state := section(got, "Current state")
	for _, want := range []string{
		"- Entity#42 location Room#7 (inference, until 2026-01-05T11:00:00Z)",
		"- badge_reader status offline (perception, until repair)",
		"- coffee_machine status fixed (action, until changed)",
	} {
		if !strings.Contains(state, want) {
			t.Errorf("current state lacks %q:\n%s", want, state)
		}
	}
	if !strings.HasPrefix(state, "- Entity#42 location Room#7") {
		t.Errorf("the assertion the query names is not ranked first:\n%s", state)
	}
	for _, inc := range got.Included {
		if inc.ID == room && (inc.Kind != "ASSERTION" || inc.Score <= 0 || !strings.Contains(inc.Reason, "relevant")) {
			t.Errorf("provenance of %s = %+v, want a relevant ASSERTION with its score", room, inc)
		}
	}
	for id, want := range map[string]string{mood: "OUT_OF_SCOPE", printer: "EXPIRED", coffee: "SUPERSEDED", plan: "SUPERSEDED"} {
		if r := got.excluded(id); r != want {
			t.Errorf("%s excluded as %q, want %s", id, r, want)
		}
	}
	for _, id := range []string{room, reader, fixed} {
		if !got.includes(id) {
			t.Errorf("%s is not included: %+v", id, got.Included)
		}
	}

	t.Run("views and the caller's now", func(t *testing.T) {
		rfc := func(tm time.Time) string { return tm.Format(time.RFC3339Nano) }
		tests := []struct {
			name     string
			in       map[string]any
			included []string
			excluded map[string]string
			absent   []string
		}{
			{"no session takes every context", map[string]any{}, []string{room, reader, fixed, mood}, map[string]string{printer: "EXPIRED"}, nil},
			{"session s2", map[string]any{"sessionId": "s2"}, []string{mood}, map[string]string{room: "OUT_OF_SCOPE", fixed: "OUT_OF_SCOPE"}, nil},
			{"as of before the changes", map[string]any{"sessionId": "s1", "asOf": rfc(t1)}, []string{room, printer, coffee}, nil, []string{fixed, plan}},
			{"known before the changes", map[string]any{"sessionId": "s1", "knownAt": rfc(t1)}, []string{room, printer, coffee}, nil, []string{fixed, plan}},
			{"the caller's now before the printer's lease ends", map[string]any{"sessionId": "s1", "now": rfc(t0.Add(5 * time.Minute))}, []string{room, printer, fixed}, map[string]string{coffee: "SUPERSEDED"}, nil},
			{"the caller's now after the room's lease ends", map[string]any{"sessionId": "s1", "now": rfc(t0.Add(3 * time.Hour))}, []string{reader, fixed}, map[string]string{room: "EXPIRED", printer: "EXPIRED"}, nil},
			{"the caller's now before anything was asserted", map[string]any{"sessionId": "s1", "now": rfc(t0.Add(-time.Hour))}, nil, nil, []string{room, reader, printer, coffee, fixed}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				in := map[string]any{"query": query, "budget": 1000}
				for k, v := range tc.in {
					in[k] = v
				}
				got := assemble(t, env, alice, in)
				for _, id := range tc.included {
					if !got.includes(id) {
						t.Errorf("%s is not included:\n%s\n%+v", id, got.Text, got.Excluded)
					}
				}
				for id, want := range tc.excluded {
					if r := got.excluded(id); r != want {
						t.Errorf("%s excluded as %q, want %s", id, r, want)
					}
				}
				for _, id := range tc.absent {
					if got.includes(id) || got.excluded(id) != "" {
						t.Errorf("%s is in the context of a time before it existed", id)
					}
				}
			})
		}
	})

	t.Run("an event ends a lease", func(t *testing.T) {
		env.Clock.Advance(time.Minute)
		env.MustDo(t, alice, `mutation { signalEvent(name: "repair") { id } }`, nil, &struct{}{})
		got := assemble(t, env, alice, map[string]any{"query": query, "budget": 1000, "sessionId": "s1"})
		if r := got.excluded(reader); r != "EXPIRED" || strings.Contains(got.Text, "offline") {
			t.Errorf("after the event the reader is excluded as %q:\n%s", r, got.Text)
		}
		past := assemble(t, env, alice, map[string]any{"query": query, "budget": 1000, "sessionId": "s1", "asOf": t2.Format(time.RFC3339Nano)})
		if !past.includes(reader) {
			t.Errorf("as of before the event the reader is missing:\n%s", past.Text)
		}
	})

	t.Run("who sees them", func(t *testing.T) {
		// Assertions belong to the organization: a peer of it sees them;
		// another organization sees nothing of them, not even their ids.
		if got := assemble(t, env, peer, map[string]any{"query": query, "budget": 1000, "sessionId": "s1"}); !got.includes(room) {
			t.Errorf("a peer of the organization lacks %s:\n%s", room, got.Text)
		}
		got := assemble(t, env, other, map[string]any{"query": query, "budget": 1000, "sessionId": "s1"})
		if section(got, "Current state") != "" || strings.Contains(got.Text, "Room#7") {
			t.Errorf("another organization reads the state:\n%s", got.Text)
		}
		for _, id := range []string{room, reader, mood, printer, coffee, fixed, plan} {
			if got.includes(id) || got.excluded(id) != "" {
				t.Errorf("another organization's context names %s", id)
			}
		}
	})

	t.Run("budget", func(t *testing.T) {
		got := assemble(t, env, alice, map[string]any{"query": query, "budget": 60, "sessionId": "s1"})
		if got.Tokens > 60 {
			t.Errorf("tokens = %d, over the budget", got.Tokens)
		}
		if got.excluded(fixed) != "OVER_BUDGET" && !got.includes(fixed) {
			t.Errorf("%s neither packed nor over budget: %+v", fixed, got.Excluded)
		}
	})

	t.Run("a change after a read", func(t *testing.T) {
		// The assertions an assembly read (and decoded) are read again
		// as the next write left them.
		if got := assemble(t, env, alice, map[string]any{"query": query, "budget": 1000, "sessionId": "s1"}); !got.includes(fixed) {
			t.Fatalf("%s is not included before the change:\n%s", fixed, got.Text)
		}
		env.Clock.Advance(time.Minute)
		broken := assertState(t, env, alice, "coffee_machine", "status", "broken again", "s1", "PERCEPTION", map[string]any{"mode": "UNTIL_CHANGED"})
		got := assemble(t, env, alice, map[string]any{"query": query, "budget": 1000, "sessionId": "s1"})
		if r := got.excluded(fixed); r != "SUPERSEDED" || !got.includes(broken) || strings.Contains(got.Text, "status fixed") {
			t.Errorf("after the change %s is excluded as %q, %s included: %v:\n%s", fixed, r, broken, got.includes(broken), got.Text)
		}
	})
}

// TestAssertionHypotheses: rival assertions of one slot that share a
// hypothesis group are both current, each labelled as a hypothesis, so
// the context never presents either as established.
func TestAssertionHypotheses(t *testing.T) {
	env := apitest.New(t)
	alice := apitest.Token(t, apitest.Identity("org-a", "alice"))
	var ids []string
	for _, room := range []string{"Room#1", "Room#2"} {
		var out struct{ AssertState struct{ ID string } }
		env.MustDo(t, alice, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": map[string]any{
			"subject": "Entity#9", "predicate": "location", "object": room, "context": "s1", "epistemicStatus": "ASSUMPTION",
			"validity":        map[string]any{"mode": "UNTIL_CHANGED"},
			"provenance":      map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.4, "method": "guessed"},
			"hypothesisGroup": "where-is-9",
		}}, &out)
		ids = append(ids, out.AssertState.ID)
	}
	got := assemble(t, env, alice, map[string]any{"query": "where is Entity#9", "budget": 500, "sessionId": "s1"})
	state := section(got, "Current state")
	for _, want := range []string{
		"- Entity#9 location Room#1 (assumption, hypothesis where-is-9, until changed)",
		"- Entity#9 location Room#2 (assumption, hypothesis where-is-9, until changed)",
	} {
		if !strings.Contains(state, want) {
			t.Errorf("current state lacks %q:\n%s", want, state)
		}
	}
	for _, id := range ids {
		if !got.includes(id) {
			t.Errorf("%s is not included", id)
		}
	}
}
