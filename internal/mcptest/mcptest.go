// Package mcptest drives stategraph's MCP tools from the SDK's client, for
// the tests of each transport (stdio subprocess, streamable HTTP): the same
// scenario runs over both.
package mcptest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools are the tools every server lists.
var Tools = []string{
	"assemble_context", "assert_state", "fact_history", "forget_fact", "list_conflicts",
	"record_turn", "resolve_conflict", "search_facts", "write_fact",
}

// Connect connects the SDK's client over transport; the session closes
// when the test ends.
func Connect(t testing.TB, transport mcp.Transport) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "mcptest", Version: "v0"}, nil)
	s, err := c.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// HTTP is a streamable HTTP transport to endpoint sending token as bearer.
func HTTP(endpoint, token string) mcp.Transport {
	return &mcp.StreamableClientTransport{
		Endpoint:   endpoint,
		MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{token: token, next: http.DefaultTransport}},
	}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// Result is a tool's answer.
type Result struct {
	IsError bool
	Text    string
}

// Call calls a tool; a protocol error fails the test, a tool error does not.
func Call(t testing.TB, s *mcp.ClientSession, name string, args map[string]any) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return Result{IsError: res.IsError, Text: strings.Join(parts, "\n")}
}

// OK calls a tool that must succeed and decodes its JSON answer into v
// (nil: no decoding); it returns the text.
func OK(t testing.TB, s *mcp.ClientSession, name string, args map[string]any, v any) string {
	t.Helper()
	r := Call(t, s, name, args)
	if r.IsError {
		t.Fatalf("%s(%v) failed: %s", name, args, r.Text)
	}
	if v != nil {
		if err := json.Unmarshal([]byte(r.Text), v); err != nil {
			t.Fatalf("%s answer %q: %v", name, r.Text, err)
		}
	}
	return r.Text
}

// GraphQLError is the first error of a tool's error answer, in GraphQL's
// shape.
type GraphQLError struct {
	Message    string `json:"message"`
	Extensions struct {
		Code string `json:"code"`
	} `json:"extensions"`
}

// Fail calls a tool that must fail and returns its error.
func Fail(t testing.TB, s *mcp.ClientSession, name string, args map[string]any) GraphQLError {
	t.Helper()
	r := Call(t, s, name, args)
	if !r.IsError {
		t.Fatalf("%s(%v) succeeded, want an error: %s", name, args, r.Text)
	}
	var body struct {
		Errors []GraphQLError `json:"errors"`
	}
	if err := json.Unmarshal([]byte(r.Text), &body); err != nil || len(body.Errors) == 0 {
		t.Fatalf("%s error %q is not a GraphQL error (%v)", name, r.Text, err)
	}
	return body.Errors[0]
}

// Direct runs an operation on the GraphQL API as the scenario's first
// caller and returns its first error (zero when none).
type Direct func(query string, vars map[string]any) GraphQLError

// Sessions are the callers of a scenario, sharing one store.
type Sessions struct {
	// Alice is a manager of organization acme; required.
	Alice *mcp.ClientSession
	// Intern is an intern of acme; nil skips the conflict checks.
	Intern *mcp.ClientSession
	// Bob is of another organization; nil skips the isolation checks.
	Bob *mcp.ClientSession
}

// Scenario runs the shared checks. With direct, each tool error is
// compared with the error GraphQL answers to Alice for the same operation.
func Scenario(t *testing.T, ss Sessions, direct Direct) {
	t.Helper()
	alice, bob := ss.Alice, ss.Bob
	t.Run("list tools", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := alice.ListTools(ctx, nil)
		if err != nil {
			t.Fatalf("list tools: %v", err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if len(tool.Description) < 40 {
				t.Errorf("tool %s: description %q is too short for an LLM to follow", tool.Name, tool.Description)
			}
			schema, err := json.Marshal(tool.InputSchema)
			if tool.Name == "write_fact" && !strings.Contains(string(schema), `"enum":["GLOBAL","PROJECT"`) {
				t.Errorf("write_fact schema %s does not enumerate scopes", schema)
			}
			if err != nil || !strings.Contains(string(schema), `"properties"`) || !strings.Contains(string(schema), `"description"`) {
				t.Errorf("tool %s: input schema %s lacks described properties", tool.Name, schema)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, Tools) {
			t.Errorf("tools = %v, want %v", names, Tools)
		}
	})

	t.Run("write then assemble", func(t *testing.T) {
		var f struct{ ID, Key, Value string }
		OK(t, alice, "write_fact", map[string]any{"key": "mcp.deadline", "value": "March 3"}, &f)
		if f.ID == "" || f.Value != "March 3" {
			t.Fatalf("write_fact answered %+v", f)
		}
		text := OK(t, alice, "assemble_context", map[string]any{"query": "what is the mcp deadline?", "budget": 800}, nil)
		if !strings.Contains(text, "March 3") {
			t.Fatalf("context lacks the fact:\n%s", text)
		}
	})

	t.Run("supersession", func(t *testing.T) {
		var f struct {
			ID         string
			Value      string
			Supersedes struct{ Value string }
		}
		OK(t, alice, "write_fact", map[string]any{"key": "mcp.deadline", "value": "March 10", "supersedes": "mcp.deadline", "reason": "slipped a week"}, &f)
		if f.Value != "March 10" || f.Supersedes.Value != "March 3" {
			t.Fatalf("write_fact answered %+v", f)
		}
		text := OK(t, alice, "assemble_context", map[string]any{"query": "what is the mcp deadline?", "budget": 800}, nil)
		if !strings.Contains(text, "March 10") || strings.Contains(text, "March 3") {
			t.Fatalf("context does not show the new value alone:\n%s", text)
		}
		var h struct {
			Result []struct {
				Value        string
				IsValid      bool
				SupersededBy *struct{ Value string }
			}
		}
		OK(t, alice, "fact_history", map[string]any{"key": "mcp.deadline"}, &h)
		if len(h.Result) != 2 || h.Result[0].IsValid || h.Result[0].SupersededBy == nil || h.Result[0].SupersededBy.Value != "March 10" || !h.Result[1].IsValid {
			t.Fatalf("fact_history = %+v", h.Result)
		}
		var s struct {
			Facts []struct{ Value string }
		}
		OK(t, alice, "search_facts", map[string]any{"query": "mcp deadline"}, &s)
		if len(s.Facts) == 0 || s.Facts[0].Value != "March 10" {
			t.Fatalf("search_facts(query) = %+v", s.Facts)
		}
		OK(t, alice, "search_facts", map[string]any{"key": "mcp.deadline"}, &s)
		if len(s.Facts) != 1 || s.Facts[0].Value != "March 10" {
			t.Fatalf("search_facts(key) = %+v", s.Facts)
		}
	})

	t.Run("a turn supersedes", func(t *testing.T) {
		OK(t, alice, "write_fact", map[string]any{"key": "kickoff_date", "value": "April 3"}, nil)
		var res struct {
			Detections []struct {
				Kind       string
				Superseded []struct{ ID, Kind string }
			}
		}
		OK(t, alice, "record_turn", map[string]any{"session_id": "mcp-s0", "text": "Correction: the kickoff moved to April 10."}, &res)
		if len(res.Detections) != 1 || len(res.Detections[0].Superseded) != 1 || res.Detections[0].Superseded[0].Kind != "FACT" {
			t.Fatalf("record_turn detections = %+v, want one superseded fact", res.Detections)
		}
		text := OK(t, alice, "assemble_context", map[string]any{"query": "when is the kickoff?", "budget": 800}, nil)
		if !strings.Contains(text, "April 10") || strings.Contains(text, "April 3") {
			t.Fatalf("context after the turn does not show the new value alone:\n%s", text)
		}
	})

	t.Run("other tools", func(t *testing.T) {
		var turn struct {
			Turn struct{ ID, Text string }
		}
		OK(t, alice, "record_turn", map[string]any{"session_id": "mcp-s1", "text": "Please prepare the launch checklist."}, &turn)
		if turn.Turn.ID == "" {
			t.Fatalf("record_turn answered no turn")
		}
		var a struct{ ID, Status string }
		OK(t, alice, "assert_state", map[string]any{"subject": "build", "predicate": "status", "object": "red", "context": "mcp-s1", "epistemic_status": "PERCEPTION", "method": "reported"}, &a)
		if a.ID == "" || a.Status != "ACTIVE" {
			t.Fatalf("assert_state answered %+v", a)
		}
		var c struct{ TotalCount int }
		OK(t, alice, "list_conflicts", map[string]any{"status": "ALL"}, &c)
		var fg struct {
			ID        string
			Forgotten *struct{ By string }
		}
		var mine struct{ ID string }
		OK(t, alice, "write_fact", map[string]any{"key": "mcp.likes", "value": "tea", "memory_type": "USER"}, &mine)
		OK(t, alice, "forget_fact", map[string]any{"id": mine.ID}, &fg)
		if fg.Forgotten == nil {
			t.Fatalf("forget_fact left no tombstone: %+v", fg)
		}
	})

	t.Run("errors", func(t *testing.T) {
		cases := []struct {
			name, tool string
			args       map[string]any
			query      string
			vars       map[string]any
			code       string
		}{
			{"negative budget", "assemble_context", map[string]any{"query": "x", "budget": -5},
				`query AssembleContext($input: ContextInput!) { assembleContext(input: $input) { text } }`,
				map[string]any{"input": map[string]any{"query": "x", "budget": -5}}, "BAD_USER_INPUT"},
			{"supersede a missing key", "write_fact", map[string]any{"key": "mcp.nothing", "value": "v", "supersedes": "mcp.never-written"},
				`mutation WriteFact($input: FactInput!) { writeFact(input: $input) { id } }`,
				map[string]any{"input": map[string]any{"key": "mcp.nothing", "value": "v", "supersedes": "mcp.never-written"}}, "NOT_FOUND"},
			{"resolve a missing conflict", "resolve_conflict", map[string]any{"id": "CF-01ARZ3NDEKTSV4RRFFQ69G5FAV", "keep": "x", "reason": "r"},
				`mutation ResolveConflict($id: ID!, $keep: ID!, $reason: String!) { resolveConflict(id: $id, keep: $keep, reason: $reason) { id } }`,
				map[string]any{"id": "CF-01ARZ3NDEKTSV4RRFFQ69G5FAV", "keep": "x", "reason": "r"}, "NOT_FOUND"},
			{"argument missing from the schema", "write_fact", map[string]any{"key": "mcp.novalue"}, "", nil, "BAD_USER_INPUT"},
			{"argument of the wrong type", "assemble_context", map[string]any{"query": "x", "budget": "lots"}, "", nil, "BAD_USER_INPUT"},
			{"value outside an enumeration", "write_fact", map[string]any{"key": "mcp.scoped", "value": "v", "scope": "WORLD"}, "", nil, "BAD_USER_INPUT"},
			{"neither query nor key", "search_facts", map[string]any{}, "", nil, "BAD_USER_INPUT"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got := Fail(t, alice, tc.tool, tc.args)
				if got.Extensions.Code != tc.code || got.Message == "" {
					t.Fatalf("%s: error %+v, want code %s", tc.tool, got, tc.code)
				}
				if direct == nil || tc.query == "" {
					return
				}
				want := direct(tc.query, tc.vars)
				if got != want {
					t.Fatalf("%s: tool error %+v, GraphQL error %+v", tc.tool, got, want)
				}
			})
		}
	})

	if ss.Intern != nil {
		t.Run("conflict", func(t *testing.T) { conflict(t, alice, ss.Intern) })
	}
	if bob == nil {
		return
	}
	t.Run("other organization sees nothing", func(t *testing.T) {
		text := OK(t, bob, "assemble_context", map[string]any{"query": "what is the mcp deadline?", "budget": 800}, nil)
		if strings.Contains(text, "March") {
			t.Fatalf("another organization's context shows the fact:\n%s", text)
		}
		var h struct{ Result []any }
		OK(t, bob, "fact_history", map[string]any{"key": "mcp.deadline"}, &h)
		var s struct{ Facts []any }
		OK(t, bob, "search_facts", map[string]any{"query": "mcp deadline"}, &s)
		if len(h.Result) != 0 || len(s.Facts) != 0 {
			t.Fatalf("another organization finds history %v, search %v", h.Result, s.Facts)
		}
		if e := Fail(t, bob, "write_fact", map[string]any{"key": "mcp.deadline", "value": "never", "supersedes": "mcp.deadline"}); e.Extensions.Code != "NOT_FOUND" {
			t.Fatalf("superseding another organization's fact: %+v, want NOT_FOUND", e)
		}
	})
}

// conflict: an intern superseding a manager's fact opens a conflict, which
// the intern may not decide and the manager may.
func conflict(t *testing.T, alice, intern *mcp.ClientSession) {
	t.Helper()
	var policy, offer struct{ ID string }
	OK(t, alice, "write_fact", map[string]any{"key": "travel.class", "value": "economy", "source_type": "POLICY"}, &policy)
	OK(t, intern, "write_fact", map[string]any{"key": "travel.class", "value": "business", "supersedes": "travel.class", "memory_type": "ORGANIZATIONAL"}, &offer)
	var list struct {
		TotalCount int
		Conflicts  []struct {
			ID, Status string
			Candidates []struct{ ID string }
		}
	}
	OK(t, alice, "list_conflicts", map[string]any{"subject": "travel.class"}, &list)
	if list.TotalCount != 1 || len(list.Conflicts) != 1 || len(list.Conflicts[0].Candidates) != 2 {
		t.Fatalf("list_conflicts = %+v, want one open conflict of two candidates", list)
	}
	id := list.Conflicts[0].ID
	if e := Fail(t, intern, "resolve_conflict", map[string]any{"id": id, "keep": offer.ID, "reason": "I prefer it"}); e.Extensions.Code != "FORBIDDEN" {
		t.Fatalf("intern deciding: %+v, want FORBIDDEN", e)
	}
	var done struct {
		Status   string
		Decision struct {
			Kept struct{ ID string }
		}
	}
	OK(t, alice, "resolve_conflict", map[string]any{"id": id, "keep": policy.ID, "reason": "policy stands"}, &done)
	if done.Status != "RESOLVED" || done.Decision.Kept.ID != policy.ID {
		t.Fatalf("resolve_conflict = %+v", done)
	}
	OK(t, alice, "list_conflicts", map[string]any{"subject": "travel.class"}, &list)
	if list.TotalCount != 0 {
		t.Fatalf("open conflicts after the decision: %+v", list)
	}
}
