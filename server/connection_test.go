package server_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/graph"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// page is one decoded connection page.
type page struct {
	Edges []struct {
		Cursor string
		Node   struct{ ID string }
	}
	PageInfo struct {
		HasPreviousPage, HasNextPage bool
		StartCursor, EndCursor       *string
	}
	TotalCount int
}

func (p page) ids() []string {
	var out []string
	for _, e := range p.Edges {
		out = append(out, e.Node.ID)
	}
	return out
}

// connection asks field (a connection root field) with args and returns
// its page.
func connection(t *testing.T, env *apitest.Env, tok, field, args string, vars map[string]any) apitest.Response {
	t.Helper()
	q := fmt.Sprintf(`query($first: Int, $after: String, $last: Int, $before: String) { c: %s(first: $first, after: $after, last: $last, before: $before%s) {
  edges { cursor node { id } } pageInfo { hasPreviousPage hasNextPage startCursor endCursor } totalCount } }`, field, args)
	return env.Do(t, tok, q, vars)
}

func mustPage(t *testing.T, r apitest.Response) page {
	t.Helper()
	var out struct{ C page }
	r.Decode(t, &out)
	return out.C
}

// walk pages through field n at a time, forwards (first/after) or
// backwards (last/before), checks each page's PageInfo against its
// edges, and returns every id in list order.
func walk(t *testing.T, env *apitest.Env, tok, field, args string, n int, backward bool) []string {
	t.Helper()
	var all []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 50 {
			t.Fatalf("%s: paging does not end", field)
		}
		vars := map[string]any{}
		if backward {
			vars["last"] = n
			if cursor != "" {
				vars["before"] = cursor
			}
		} else {
			vars["first"] = n
			if cursor != "" {
				vars["after"] = cursor
			}
		}
		p := mustPage(t, connection(t, env, tok, field, args, vars))
		if len(p.Edges) > n {
			t.Fatalf("%s: page of %d edges, asked for %d", field, len(p.Edges), n)
		}
		if len(p.Edges) > 0 {
			if p.PageInfo.StartCursor == nil || *p.PageInfo.StartCursor != p.Edges[0].Cursor ||
				p.PageInfo.EndCursor == nil || *p.PageInfo.EndCursor != p.Edges[len(p.Edges)-1].Cursor {
				t.Fatalf("%s: pageInfo cursors %v..%v do not match the edges", field, p.PageInfo.StartCursor, p.PageInfo.EndCursor)
			}
		} else if p.PageInfo.StartCursor != nil || p.PageInfo.EndCursor != nil {
			t.Fatalf("%s: an empty page has cursors", field)
		}
		ids := p.ids()
		if backward {
			all = append(ids, all...)
			if cursor != "" && !p.PageInfo.HasNextPage {
				t.Fatalf("%s: a page before a cursor says nothing follows", field)
			}
			if !p.PageInfo.HasPreviousPage {
				return all
			}
			cursor = *p.PageInfo.StartCursor
		} else {
			all = append(all, ids...)
			if cursor != "" && !p.PageInfo.HasPreviousPage {
				t.Fatalf("%s: a page after a cursor says nothing precedes", field)
			}
			if !p.PageInfo.HasNextPage {
				return all
			}
			cursor = *p.PageInfo.EndCursor
		}
	}
}

// TestConnections: every connection pages forwards and backwards over the
// same list, in the same order, with exact PageInfo, and totalCount counts
// what the caller may read under the filter, never a restricted record.
func TestConnections(t *testing.T) {
	env := apitest.New(t)
	exec := apitest.Identity("org-a", "ceo")
	exec.Authority = "executive"
	execTok := apitest.Token(t, exec)
	peer := apitest.Token(t, apitest.Identity("org-a", "pat"))
	// 13 facts: every third restricted to executives, two in the peer's
	// own memory.
	visible := 0
	for i := range 13 {
		in := map[string]any{"key": fmt.Sprintf("conn.k%02d", i), "value": i, "memoryType": "ORGANIZATIONAL"}
		tok := execTok
		switch {
		case i%3 == 0:
			in["restrictedTo"] = map[string]any{"minAuthority": "executive"}
		case i == 4 || i == 8:
			in["memoryType"], tok = "USER", peer
			visible++
		default:
			visible++
		}
		write(t, env, tok, in)
		env.Clock.Advance(time.Second)
	}
	// Five slots with two competing assertions each: ten assertions,
	// five conflicts.
	for i := range 5 {
		for _, obj := range []string{"Room#1", "Room#2"} {
			in := map[string]any{
				"subject": fmt.Sprintf("Entity#%d", i), "predicate": "location", "object": obj, "context": "thread-1",
				"epistemicStatus": "INFERENCE", "validity": map[string]any{"mode": "UNTIL_TIME", "expiresAt": apitest.Start.Add(5 * time.Hour).Format(time.RFC3339)},
				"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
			}
			env.MustDo(t, peer, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": in}, &struct{}{})
			env.Clock.Advance(time.Second)
		}
	}
	cases := []struct {
		name, field, args string
		tok               string
		total             int
	}{
		{"facts, peer", "facts", "", peer, visible},
		{"facts, executive", "facts", "", execTok, 11}, // not the peer's own memory
		{"facts by key", "facts", `, filter: {key: "conn.k01"}`, peer, 1},
		{"restricted key", "facts", `, filter: {key: "conn.k03"}`, peer, 0},
		{"user memory", "facts", `, filter: {memoryType: USER}`, peer, 2},
		{"stateAssertions", "stateAssertions", "", peer, 10},
		{"stateAssertions by subject", "stateAssertions", `, filter: {subject: "Entity#2"}`, peer, 2},
		{"conflicts", "conflicts", "", peer, 5},
		{"conflicts as of the start", "conflicts", `, asOf: "` + apitest.Start.Format(time.RFC3339) + `"`, peer, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			full := mustPage(t, connection(t, env, tc.tok, tc.field, tc.args, map[string]any{"first": 500}))
			if full.TotalCount != tc.total || len(full.Edges) != tc.total {
				t.Fatalf("totalCount %d with %d edges, want %d", full.TotalCount, len(full.Edges), tc.total)
			}
			if full.PageInfo.HasPreviousPage || full.PageInfo.HasNextPage {
				t.Errorf("a page of everything has pageInfo %+v", full.PageInfo)
			}
			for _, n := range []int{1, 3, 4} {
				if got := walk(t, env, tc.tok, tc.field, tc.args, n, false); !slices.Equal(got, full.ids()) {
					t.Errorf("forwards by %d: %v, want %v", n, got, full.ids())
				}
				if got := walk(t, env, tc.tok, tc.field, tc.args, n, true); !slices.Equal(got, full.ids()) {
					t.Errorf("backwards by %d: %v, want %v", n, got, full.ids())
				}
			}
			// totalCount is the same on every page, and on an empty one.
			for _, vars := range []map[string]any{{"first": 0}, {"last": 2}, {}} {
				p := mustPage(t, connection(t, env, tc.tok, tc.field, tc.args, vars))
				if p.TotalCount != tc.total {
					t.Errorf("%v: totalCount %d, want %d", vars, p.TotalCount, tc.total)
				}
			}
		})
	}
}

// TestConnectionCursors: a cursor works only with the connection, filter
// and caller that returned it; anything else, and a malformed page
// request, is BAD_USER_INPUT.
func TestConnectionCursors(t *testing.T) {
	env := apitest.New(t)
	alice := apitest.Token(t, apitest.Identity("org-a", "alice"))
	bob := apitest.Token(t, apitest.Identity("org-b", "alice")) // same user id, other organization
	for i := range 4 {
		write(t, env, alice, map[string]any{"key": fmt.Sprintf("cur.k%d", i), "value": i, "memoryType": "ORGANIZATIONAL"})
		write(t, env, bob, map[string]any{"key": fmt.Sprintf("cur.k%d", i), "value": i, "memoryType": "ORGANIZATIONAL"})
		env.Clock.Advance(time.Second)
	}
	p := mustPage(t, connection(t, env, alice, "facts", "", map[string]any{"first": 2}))
	cursor := *p.PageInfo.EndCursor
	// The same cursor is stable: asked again, the page is the same.
	if again := mustPage(t, connection(t, env, alice, "facts", "", map[string]any{"first": 2})); *again.PageInfo.EndCursor != cursor {
		t.Fatalf("cursor changed between identical requests: %s then %s", cursor, *again.PageInfo.EndCursor)
	}
	if next := mustPage(t, connection(t, env, alice, "facts", "", map[string]any{"first": 2, "after": cursor})); len(next.Edges) != 2 {
		t.Fatalf("the next page has %d edges, want 2", len(next.Edges))
	}
	cases := []struct {
		name, tok, field, args string
		vars                   map[string]any
	}{
		{"another organization", bob, "facts", "", map[string]any{"after": cursor}},
		{"another organization, backwards", bob, "facts", "", map[string]any{"last": 1, "before": cursor}},
		{"another filter", alice, "facts", `, filter: {validity: ALL}`, map[string]any{"after": cursor}},
		{"another connection", alice, "conflicts", "", map[string]any{"after": cursor}},
		{"not a cursor", alice, "facts", "", map[string]any{"after": "not-a-cursor"}},
		{"a truncated cursor", alice, "facts", "", map[string]any{"before": cursor[:len(cursor)-2]}},
		{"first and last", alice, "facts", "", map[string]any{"first": 1, "last": 1}},
		{"negative last", alice, "stateAssertions", "", map[string]any{"last": -1}},
		{"last over the maximum", alice, "conflicts", "", map[string]any{"last": 501}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := connection(t, env, tc.tok, tc.field, tc.args, tc.vars)
			if r.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %s", r.Code(), r)
			}
			if raw, _ := json.Marshal(r.Errors); strings.Contains(string(raw), cursor) {
				t.Errorf("the error echoes the cursor: %s", raw)
			}
		})
	}
}

// TestConnectionComplexity: a backward page costs what a forward page of
// the same size costs.
func TestConnectionComplexity(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.Limits = graph.Limits{MaxComplexity: 500} })
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	for _, tc := range []struct {
		query    string
		wantCode string
	}{
		{`{ facts(last: 10) { edges { node { id key value text } } } }`, ""},
		{`{ facts(last: 100) { edges { node { id key value text } } } }`, "BAD_USER_INPUT"},
		{`{ conflicts(last: 200, before: null) { edges { node { id status } } } }`, "BAD_USER_INPUT"},
		{`{ stateAssertions { totalCount edges { node { id subject predicate object context status history { id } } } } }`, "BAD_USER_INPUT"},
	} {
		if r := env.Do(t, tok, tc.query, nil); r.Code() != tc.wantCode {
			t.Errorf("%s: %s, want code %q", tc.query, r, tc.wantCode)
		}
	}
}
