package pipeline_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
)

const (
	writeScopeQ  = `mutation($in: FactInput!) { writeFact(input: $in) { id key value scope } }`
	writeFactsQ  = `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id key value scope } }`
	allFactsQ    = `{ facts(filter: {validity: ALL}, first: 500) { edges { node { key value scope } } } }`
	currentQ     = `query($k: String!) { currentValue(key: $k) { id value } }`
	assembleQ    = `query($in: ContextInput!) { assembleContext(input: $in) { text } }`
	stateMessage = "assertState"
)

type storedFact struct{ Key, Value, Scope string }

// storedFacts lists the caller's facts, valid or not.
func storedFacts(t *testing.T, env *apitest.Env, tok string) []storedFact {
	t.Helper()
	var out struct {
		Facts struct {
			Edges []struct {
				Node struct {
					Key   string
					Value json.RawMessage
					Scope string
				}
			}
		}
	}
	env.MustDo(t, tok, allFactsQ, nil, &out)
	var fs []storedFact
	for _, e := range out.Facts.Edges {
		var v string
		if json.Unmarshal(e.Node.Value, &v) != nil {
			v = string(e.Node.Value)
		}
		fs = append(fs, storedFact{e.Node.Key, v, e.Node.Scope})
	}
	return fs
}

// TestStateIsNotAFact: writeFact judges the value, not the key's name. A
// value that reads as short-lived state is refused with BAD_USER_INPUT
// pointing to assertState, and nothing is written; facts pass whatever
// their key is called, natural names such as current_address included.
func TestStateIsNotAFact(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	cases := []struct {
		name, key, value string
		state            bool
	}{
		{"build red right now", "ci.note", "The build is red right now.", true},
		{"on call this week", "alice.rota", "Alice is on call this week", true},
		{"API down at the moment", "api.note", "The API is down at the moment", true},
		{"meeting until 3", "user.note", "I'm in a meeting until 3", true},
		{"bare state value", "user.availability", "in a meeting until 3pm", true},
		{"bare build colour", "build_status", "red", true},
		{"on-call lead", "alice.role", "Alice is the on-call lead for the payments team", false},
		{"office in Lisbon", "office.location", "our office is in Lisbon", false},
		{"current_address", "current_address", "12 Elm Row", false},
		{"current_role", "current_role", "Staff engineer", false},
		{"now_playing", "now_playing", "Bohemian Rhapsody", false},
		{"location", "location", "Lisbon", false},
		{"status", "status", "shipped", false},
		{"last_known_city", "last_known_city", "Porto", false},
		{"recurring", "api.maintenance", "The API is down for maintenance every Sunday", false},
		{"state words in a scenario", "incident.plan", "Suppose the API is down right now: page Bob.", false},
		{"dated rule", "instruction_b", "[C_LEVEL] Carol (CEO): All purchases over $25k are frozen until Q2", false},
		{"labelled state", "standup.note", "Ops: the API is down at the moment", true},
	}
	want := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tok, writeScopeQ, map[string]any{"in": map[string]any{"key": tc.key, "value": tc.value}})
			if !tc.state {
				if len(r.Errors) > 0 {
					t.Fatalf("fact %q refused: %s", tc.value, r)
				}
				want++
				return
			}
			if r.Code() != "BAD_USER_INPUT" {
				t.Fatalf("state %q: code %q, want BAD_USER_INPUT: %s", tc.value, r.Code(), r)
			}
			msg := r.Errors[0].Message
			if !strings.Contains(msg, stateMessage) || !strings.Contains(msg, "state-content") {
				t.Errorf("message %q names neither assertState nor the rule", msg)
			}
			if f := r.Errors[0].Extensions["field"]; f != "value" {
				t.Errorf("extensions.field = %v, want value", f)
			}
		})
	}
	if got := storedFacts(t, env, tok); len(got) != want {
		t.Errorf("%d facts stored, want %d (refused writes store nothing): %+v", len(got), want, got)
	}
}

// TestBatchStateNamesIndex: one state item fails a writeFacts batch, which
// names its index and writes nothing.
func TestBatchStateNamesIndex(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	r := env.Do(t, tok, writeFactsQ, map[string]any{"in": []map[string]any{
		{"key": "office.location", "value": "Lisbon"},
		{"key": "current_address", "value": "12 Elm Row"},
		{"key": "api.note", "value": "The API is down at the moment."},
		{"key": "team.size", "value": "12"},
	}})
	if r.Code() != "BAD_USER_INPUT" {
		t.Fatalf("code %q, want BAD_USER_INPUT: %s", r.Code(), r)
	}
	if i, ok := r.Errors[0].Extensions["index"].(float64); !ok || i != 2 {
		t.Errorf("extensions.index = %v, want 2: %s", r.Errors[0].Extensions["index"], r)
	}
	if !strings.Contains(r.Errors[0].Message, stateMessage) {
		t.Errorf("message %q does not point to assertState", r.Errors[0].Message)
	}
	if got := storedFacts(t, env, tok); len(got) != 0 {
		t.Errorf("a refused batch stored %+v", got)
	}
}

// TestScopeFromText: a value that reads "Hypothetically, …", "Suppose …",
// "What if …", "Draft: …" or "[DRAFT] …" is stored in that scope unless
// the caller set one, in writeFact and in writeFacts alike; such a fact is
// never the current value, and a real query's context does not present it.
func TestScopeFromText(t *testing.T) {
	cases := []struct {
		name, key, value, scope, want string
	}{
		{"hypothetically", "offsite.city", "Hypothetically, the offsite moves to Porto.", "", "HYPOTHETICAL"},
		{"suppose", "hiring.budget", "Suppose the hiring budget is 90k zorbles.", "", "HYPOTHETICAL"},
		{"what if", "vendor", "What if we switch the vendor to Quillmark?", "", "HYPOTHETICAL"},
		{"draft colon", "launch.date", "Draft: launch on March 3 with Plumtree.", "", "DRAFT"},
		{"draft brackets", "pricing", "[DRAFT] seats cost 40 grommets", "", "DRAFT"},
		{"caller's scope wins", "roadmap", "Draft: ship Vexley in Q3", "PROJECT", "PROJECT"},
		{"plain", "office.city", "Lisbon", "", "GLOBAL"},
		{"if later on", "refund.rule", "Refunds within 30 days, if the receipt is kept.", "", "GLOBAL"},
		{"a conditional rule", "approval.rule", "If a purchase exceeds 10k, the CFO approves it.", "", "GLOBAL"},
		{"imagine", "office.plan", "Imagine we open an office in Oslo-by-the-sea.", "", "HYPOTHETICAL"},
	}
	for _, batch := range []bool{false, true} {
		name := "writeFact"
		if batch {
			name = "writeFacts"
		}
		t.Run(name, func(t *testing.T) {
			env := apitest.New(t)
			tok := apitest.Token(t, apitest.Identity("acme", "alice"))
			ins := make([]map[string]any, len(cases))
			for i, tc := range cases {
				ins[i] = map[string]any{"key": tc.key, "value": tc.value}
				if tc.scope != "" {
					ins[i]["scope"] = tc.scope
				}
			}
			got := map[string]string{}
			if batch {
				var out struct{ WriteFacts []struct{ Key, Scope string } }
				env.MustDo(t, tok, writeFactsQ, map[string]any{"in": ins}, &out)
				for _, f := range out.WriteFacts {
					got[f.Key] = f.Scope
				}
			} else {
				for _, in := range ins {
					var out struct{ WriteFact struct{ Key, Scope string } }
					env.MustDo(t, tok, writeScopeQ, map[string]any{"in": in}, &out)
					got[out.WriteFact.Key] = out.WriteFact.Scope
				}
			}
			for _, tc := range cases {
				if got[tc.key] != tc.want {
					t.Errorf("%s: scope %q, want %q", tc.name, got[tc.key], tc.want)
				}
			}
			// Stored as returned.
			for _, f := range storedFacts(t, env, tok) {
				if f.Scope != got[f.Key] {
					t.Errorf("%s stored with scope %q, returned %q", f.Key, f.Scope, got[f.Key])
				}
			}
			for _, tc := range cases {
				if tc.want != "HYPOTHETICAL" && tc.want != "DRAFT" {
					continue
				}
				var cur struct{ CurrentValue *struct{ ID string } }
				env.MustDo(t, tok, currentQ, map[string]any{"k": tc.key}, &cur)
				if cur.CurrentValue != nil {
					t.Errorf("%s: the %s fact is the current value", tc.name, tc.want)
				}
			}
			var ctx struct{ AssembleContext struct{ Text string } }
			env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{
				"query": "offsite city Porto hiring budget zorbles vendor Quillmark launch date Plumtree pricing seats grommets office plan Oslo", "budget": 2000,
			}}, &ctx)
			text := ctx.AssembleContext.Text
			for _, word := range []string{"Porto", "zorbles", "Quillmark", "Plumtree", "grommets", "Oslo"} {
				if strings.Contains(text, word) {
					t.Errorf("a real query's context presents %q:\n%s", word, text)
				}
			}
			if !strings.Contains(text, "Lisbon") {
				t.Errorf("the real fact is missing from the context:\n%s", text)
			}
		})
	}
}

// TestPromotedStateIsAdmitted: the state-content rule refuses a direct
// write, but state asserted with a lease may still become a fact through
// an explicit promoteState decision.
func TestPromotedStateIsAdmitted(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	const value = "in a meeting until 3pm"
	r := env.Do(t, tok, writeScopeQ, map[string]any{"in": map[string]any{"key": "Entity#42.availability", "value": value}})
	if r.Code() != "BAD_USER_INPUT" {
		t.Fatalf("direct write of state: %s", r)
	}
	var asserted struct{ AssertState struct{ ID string } }
	env.MustDo(t, tok, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"subject": "Entity#42", "predicate": "availability", "object": value, "context": "thread-1",
		"epistemicStatus": "INFERENCE", "validity": map[string]any{"mode": "UNTIL_CHANGED"},
		"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
	}}, &asserted)
	var promoted struct {
		PromoteState struct{ Key, Value string }
	}
	env.MustDo(t, tok, `mutation($id: ID!) { promoteState(id: $id, decision: {reason: "standing meeting"}) { key value } }`,
		map[string]any{"id": asserted.AssertState.ID}, &promoted)
	if promoted.PromoteState.Key != "Entity#42.availability" || promoted.PromoteState.Value != value {
		t.Errorf("promoted %+v, want Entity#42.availability = %q", promoted.PromoteState, value)
	}
}
