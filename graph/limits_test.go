package graph_test

import (
	"strings"
	"testing"

	"github.com/stategraph/stategraph/graph"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// duplicates returns a query of n copies of one field, inline or behind
// fragments.
func duplicates(n int, shape string) string {
	switch shape {
	case "inline fragments":
		return "{ " + strings.Repeat("... on Query { me { organization } } ", n/3) + "}"
	case "fragment spreads":
		return "query { " + strings.Repeat("...F ", 20) + "} fragment F on Query { me { " + strings.Repeat("organization ", n/20) + "} }"
	case "aliases":
		var b strings.Builder
		b.WriteString("{ ")
		for i := range n {
			b.WriteString("a")
			b.WriteString(strings.Repeat("x", i%7))
			b.WriteString(": me { organization } ")
		}
		return b.String() + "}"
	}
	return "{ me { " + strings.Repeat("organization ", n) + "} }"
}

// TestDuplicateFieldsRefused: a query of many duplicate fields (105 KB,
// which took 8.8 s to validate before) is refused with BAD_USER_INPUT
// before validation, by its size or, when the size limit is raised, by
// its count of selections; one at the selection limit is answered.
func TestDuplicateFieldsRefused(t *testing.T) {
	big := func(o *server.Options) {
		o.MaxBodyBytes = 4 << 20
		o.Limits = graph.DefaultLimits()
		o.Limits.MaxQueryBytes = 1 << 20
		o.Limits.ParserTokens = 1 << 20
		o.Limits.MaxAliases = 1 << 20
	}
	cases := []struct {
		name     string
		opts     []func(*server.Options)
		query    string
		wantCode string
		wantMsg  string
	}{
		{"105 KB of duplicates", nil, duplicates(105000/13, "fields"), "BAD_USER_INPUT", "bytes, more than the limit"},
		{"105 KB with the size limit raised", []func(*server.Options){big}, duplicates(105000/13, "fields"), "BAD_USER_INPUT", "selections"},
		{"inline fragments", []func(*server.Options){big}, duplicates(6000, "inline fragments"), "BAD_USER_INPUT", "selections"},
		{"aliases", []func(*server.Options){big}, duplicates(3000, "aliases"), "BAD_USER_INPUT", "selections"},
		{"fragment spreads", nil, duplicates(3000, "fragment spreads"), "BAD_USER_INPUT", "selections"},
		{"at the selection limit", []func(*server.Options){big}, duplicates(graph.DefaultLimits().MaxSelections-2, "fields"), "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t, tc.opts...)
			tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
			r := env.Do(t, tok, tc.query, nil)
			if r.Code() != tc.wantCode {
				t.Fatalf("code %q, want %q: %.300s", r.Code(), tc.wantCode, r.Raw)
			}
			if tc.wantMsg != "" && !strings.Contains(r.Errors[0].Message, tc.wantMsg) {
				t.Errorf("message %q, want it to mention %q", r.Errors[0].Message, tc.wantMsg)
			}
			if strings.Contains(string(r.Raw), "organization organization") {
				t.Errorf("the answer echoes the query")
			}
		})
	}
}

// BenchmarkDuplicateFields measures the answer to a query of duplicate
// fields over HTTP: 105 KB (refused by size), the same with the size limit
// raised (refused by selections), and one just under the selection limit
// (validated and run).
func BenchmarkDuplicateFields(b *testing.B) {
	cases := []struct {
		name  string
		n     int
		limit int
	}{
		{"105KB-default", 105000 / 13, 0},
		{"105KB-size-limit-raised", 105000 / 13, 1 << 20},
		{"at-selection-limit", graph.DefaultLimits().MaxSelections - 2, 1 << 20},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			env := apitest.New(b, func(o *server.Options) {
				o.MaxBodyBytes = 4 << 20
				o.Limits = graph.DefaultLimits()
				if tc.limit > 0 {
					o.Limits.MaxQueryBytes, o.Limits.ParserTokens = tc.limit, tc.limit
				}
			})
			tok := apitest.Token(b, apitest.Identity("org-a", "alice"))
			q := duplicates(tc.n, "fields")
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				env.Do(b, tok, q, nil)
			}
		})
	}
}

// TestSelectionCountRemembered: the selections of a small document are
// counted once and remembered; the same document asked again gets the
// same answer, refused when over the limit, answered when not.
func TestSelectionCountRemembered(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	over := duplicates(3000, "fragment spreads")
	for i := range 3 {
		if r := env.Do(t, tok, over, nil); r.Code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "selections") {
			t.Fatalf("over the limit, ask %d: %.300s", i, r.Raw)
		}
		if r := env.Do(t, tok, "{ me { organization } }", nil); r.Code() != "" {
			t.Fatalf("a small query, ask %d: %.300s", i, r.Raw)
		}
	}
}
