package graph

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// FuzzAppendCompactJSON: what appendCompactJSON takes, it writes as
// encoding/json writes a json.RawMessage, and it takes every document
// encoding/json takes.
func FuzzAppendCompactJSON(f *testing.F) {
	for _, s := range []string{
		`{"data":{"a":[1,2.5,-0.25e+3,true,false,null,"x"]}}`, ` { "a" : [ 1 , {} , [] ] } `, `"<b> & </b>"`, "\"line\u2028sep\u2029\"",
		`"\u00e9\n\t\"\\\/"`, `{"a":"\ud83d\ude00"}`, `01`, `-`, `1.`, `1e`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `tru`, `nulls`, "\"\x01\"", "\"\xe2\x80\"", "\"\xff\xfe\"",
		`"unterminated`, `[`, `{`, ``, ` `, `"\x"`, `"\u12g4"`, `{"a":{"b":{"c":[[["deep"]]]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want, err := json.Marshal(json.RawMessage(src))
		got, ok := appendCompactJSON([]byte("x"), src)
		switch {
		case ok != (err == nil):
			t.Fatalf("appendCompactJSON(%q) ok = %v, encoding/json's error = %v", src, ok, err)
		case ok && string(got[1:]) != string(want):
			t.Fatalf("appendCompactJSON(%q) = %q, encoding/json writes %q", src, got[1:], want)
		case !ok && string(got) != "x":
			t.Fatalf("appendCompactJSON(%q) refused but changed dst: %q", src, got)
		}
	})
}

// TestCompactNesting: the nesting bound is encoding/json's.
func TestCompactNesting(t *testing.T) {
	for _, depth := range []int{maxNesting, maxNesting + 1} {
		src := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		_, err := json.Marshal(json.RawMessage(src))
		if _, ok := appendCompactJSON(nil, []byte(src)); ok != (err == nil) {
			t.Errorf("depth %d: ok = %v, encoding/json's error = %v", depth, ok, err)
		}
	}
}

// TestWriteResponse: a response is written as json.Marshal writes it,
// whatever it holds, the deferred parts and data encoding/json refuses
// included (a panic, as gqlgen's transports panic).
func TestWriteResponse(t *testing.T) {
	yes := true
	cases := []struct {
		name string
		resp *graphql.Response
	}{
		{"nil", nil},
		{"data", &graphql.Response{Data: json.RawMessage(`{"assembleContext":{"text":"a <b> & c\u2028","tokens":3,"included":[{"id":"x","score":0.5}]}}`)}},
		{"no data", &graphql.Response{}},
		{"errors", &graphql.Response{Errors: gqlerror.List{
			{Message: "budget must be <= 8 & > 0", Path: ast.Path{ast.PathName("assembleContext"), ast.PathIndex(2)}, Extensions: map[string]any{"code": "BAD_USER_INPUT"}},
			{Message: "second", Locations: []gqlerror.Location{{Line: 1, Column: 2}}},
		}}},
		{"errors and data", &graphql.Response{Errors: gqlerror.List{{Message: "x"}}, Data: json.RawMessage(`{"a":null}`)}},
		{"extensions", &graphql.Response{Data: json.RawMessage(`{}`), Extensions: map[string]any{"b": 1, "a": "<x>"}}},
		{"whitespace in data", &graphql.Response{Data: json.RawMessage(" {\n \"a\" : [ 1 , 2 ] }\t")}},
		{"deferred", &graphql.Response{Data: json.RawMessage(`{"a":1}`), Label: "l", Path: ast.Path{ast.PathName("a")}, HasNext: &yes}},
		{"empty errors and extensions", &graphql.Response{Errors: gqlerror.List{}, Data: json.RawMessage(`1`), Extensions: map[string]any{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(tc.resp)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			writeResponse(&got, tc.resp)
			if got.String() != string(want) {
				t.Errorf("wrote %s, json.Marshal writes %s", got.Bytes(), want)
			}
		})
	}
	t.Run("invalid data", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Error("no panic for data that is not JSON")
			}
		}()
		writeResponse(&bytes.Buffer{}, &graphql.Response{Data: json.RawMessage(`{"a":`)})
	})
}
