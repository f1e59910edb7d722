package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

// TestTimeExtremes writes facts, turns and environment entries at the
// edges of the representable range (years 0001 and 9999, and past 2262,
// where nanoseconds since 1970 overflow) and checks that every later read
// answers, in time order.
func TestTimeExtremes(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	froms := []string{
		"0001-01-01T00:00:00Z",
		"1677-01-01T00:00:00Z",
		"1970-01-01T00:00:00Z",
		"2300-06-01T12:00:00Z",
		"9999-12-31T23:59:59.999999999Z",
	}
	for i, from := range froms {
		in := map[string]any{"key": "era", "value": i, "validFrom": from}
		if i > 0 {
			in["supersedes"] = "era"
		}
		r := env.Do(t, tok, writeFact, map[string]any{"in": in})
		if len(r.Errors) > 0 {
			t.Fatalf("write validFrom %s: %s", from, r.Raw)
		}
	}
	var out struct {
		Facts struct {
			Edges []struct{ Node struct{ ValidFrom time.Time } }
		}
	}
	env.MustDo(t, tok, `{ facts(first: 50) { edges { node { validFrom } } } }`, nil, &out)
	if len(out.Facts.Edges) == 0 {
		t.Fatalf("facts returned nothing")
	}
	hist := history(t, env, tok, "era", nil)
	if len(hist) != len(froms) {
		t.Fatalf("factHistory has %d facts, want %d", len(hist), len(froms))
	}
	for _, asOf := range froms {
		f := current(t, env, tok, "era", map[string]any{"asOf": asOf})
		want, _ := time.Parse(time.RFC3339Nano, asOf)
		if f == nil || !f.ValidFrom.Equal(want) {
			t.Errorf("currentValue asOf %s = %+v, want the fact valid from then", asOf, f)
		}
	}

	// Turns and environment entries at the extremes.
	for _, at := range []string{"0001-01-01T00:00:00Z", "2300-01-01T00:00:00Z", "9999-12-31T23:59:59Z"} {
		r := env.Do(t, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id at } } }`,
			map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "text": "hello at " + at, "at": at}})
		if len(r.Errors) > 0 {
			t.Errorf("recordTurn at %s: %s", at, r.Raw)
		}
		r = env.Do(t, tok, `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id at } }`,
			map[string]any{"in": []any{map[string]any{"key": "office", "value": "at " + at, "at": at}}})
		if len(r.Errors) > 0 {
			t.Errorf("setEnvironment at %s: %s", at, r.Raw)
		}
	}
	r := env.Do(t, tok, `query { assembleContext(input: {sessionId: "s1", query: "hello", budget: 2000}) { text } }`, nil)
	if len(r.Errors) > 0 {
		t.Errorf("assembleContext after extreme turns: %s", r.Raw)
	}
}

// TestTimeOutOfRange: every time argument outside 0001-01-01..9999-12-31
// UTC is refused with BAD_USER_INPUT, and nothing is written.
func TestTimeOutOfRange(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	bad := []string{
		"0000-12-31T23:59:59Z",
		"0001-01-01T00:00:00+01:00", // year 0 in UTC
		"9999-12-31T23:59:59-01:00", // year 10000 in UTC
	}
	type call struct {
		name  string
		query string
		vars  func(at string) map[string]any
	}
	calls := []call{
		{"writeFact validFrom", writeFact, func(at string) map[string]any {
			return map[string]any{"in": map[string]any{"key": "k", "value": 1, "validFrom": at}}
		}},
		{"facts asOf", `query($t: Time) { facts(asOf: $t) { edges { node { id } } } }`, func(at string) map[string]any { return map[string]any{"t": at} }},
		{"facts knownAt", `query($t: Time) { facts(knownAt: $t) { edges { node { id } } } }`, func(at string) map[string]any { return map[string]any{"t": at} }},
		{"factHistory asOf", `query($t: Time) { factHistory(key: "k", asOf: $t) { id } }`, func(at string) map[string]any { return map[string]any{"t": at} }},
		{"recordTurn at", `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } } }`, func(at string) map[string]any {
			return map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "text": "zebra crossing", "at": at}}
		}},
		{"setEnvironment at", `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id } }`, func(at string) map[string]any {
			return map[string]any{"in": []any{map[string]any{"key": "office", "value": "zebra-1", "at": at}}}
		}},
		{"setEnvironment expiresAt", `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id } }`, func(at string) map[string]any {
			return map[string]any{"in": []any{map[string]any{"key": "office", "value": "zebra-2", "expiresAt": at}}}
		}},
		{"assertState expiresAt", `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, func(at string) map[string]any {
			return map[string]any{"in": map[string]any{
				"subject": "Entity#42", "predicate": "location", "object": "Room#7", "context": "thread-1", "epistemicStatus": "INFERENCE",
				"validity":   map[string]any{"mode": "UNTIL_TIME", "expiresAt": at},
				"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
			}}
		}},
		{"stateAssertions knownAt", `query($t: Time) { stateAssertions(knownAt: $t) { edges { node { id } } } }`, func(at string) map[string]any { return map[string]any{"t": at} }},
		{"conflicts asOf", `query($t: Time) { conflicts(asOf: $t) { edges { node { id } } } }`, func(at string) map[string]any { return map[string]any{"t": at} }},
		{"decision knownAt", `query($t: Time) { decision(id: "DC-1", knownAt: $t) { id } }`, func(at string) map[string]any { return map[string]any{"t": at} }},
		{"auditTrail asOf", `query($t: Time) { auditTrail(recordId: "F-1", asOf: $t) { id } }`, func(at string) map[string]any { return map[string]any{"t": at} }},
		{"assembleContext asOf", `query($t: Time) { assembleContext(input: {query: "q", budget: 100, asOf: $t}) { text } }`, func(at string) map[string]any { return map[string]any{"t": at} }},
	}
	for _, c := range calls {
		for _, at := range bad {
			t.Run(c.name+" "+at, func(t *testing.T) {
				r := env.Do(t, tok, c.query, c.vars(at))
				if got := r.Code(); got != "BAD_USER_INPUT" {
					t.Errorf("code = %q, want BAD_USER_INPUT: %s", got, r.Raw)
				}
			})
		}
	}
	var out struct {
		Facts struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, tok, `{ facts { edges { node { id } } } }`, nil, &out)
	if len(out.Facts.Edges) != 0 {
		t.Errorf("facts after refused writes = %d, want 0", len(out.Facts.Edges))
	}
	var as struct {
		StateAssertions struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, tok, `{ stateAssertions { edges { node { id } } } }`, nil, &as)
	if len(as.StateAssertions.Edges) != 0 {
		t.Errorf("assertions after refused writes = %d, want 0", len(as.StateAssertions.Edges))
	}
	var ctx struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, `query { assembleContext(input: {query: "zebra", budget: 4000, sessionId: "s1"}) { text } }`, nil, &ctx)
	if strings.Contains(ctx.AssembleContext.Text, "zebra") {
		t.Errorf("a refused turn or environment entry was stored: %s", ctx.AssembleContext.Text)
	}
}
