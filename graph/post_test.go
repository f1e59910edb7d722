package graph

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/stategraph/stategraph/graph/assembled"
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
		got, ok := appendCompactJSON([]byte("x"), src, nil)
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
		if _, ok := appendCompactJSON(nil, []byte(src), nil); ok != (err == nil) {
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
			writeResponse(&got, 0, tc.resp)
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
		writeResponse(&bytes.Buffer{}, 0, &graphql.Response{Data: json.RawMessage(`{"a":`)})
	})
}

// TestWriteResponseLength: to an http.ResponseWriter, a response goes
// with its Content-Length and status, so a large one is not chunked and
// a client that reads only the JSON value (a json.Decoder) reuses its
// connection for the next request.
func TestWriteResponseLength(t *testing.T) {
	resp := &graphql.Response{Data: json.RawMessage(`{"text":"` + strings.Repeat("x", 64<<10) + `"}`)}
	want, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	for _, status := range []int{0, http.StatusBadRequest} {
		rec := httptest.NewRecorder()
		writeResponse(rec, status, resp)
		if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(len(want)) {
			t.Errorf("status %d: Content-Length = %q, want %d", status, got, len(want))
		}
		if wantStatus := cmp.Or(status, http.StatusOK); rec.Code != wantStatus {
			t.Errorf("status %d: wrote status %d, want %d", status, rec.Code, wantStatus)
		}
		if rec.Body.String() != string(want) {
			t.Errorf("status %d: body differs from json.Marshal's", status)
		}
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeResponse(w, 0, resp)
	}))
	t.Cleanup(srv.Close)
	reused := 0
	trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
		if i.Reused {
			reused++
		}
	}}
	for range 3 {
		req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), http.MethodPost, srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.TransferEncoding) > 0 {
			t.Errorf("response sent %v", res.TransferEncoding)
		}
		var v struct{ Data struct{ Text string } }
		if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	if reused != 2 {
		t.Errorf("%d of 2 later requests reused the connection", reused)
	}
}

// TestGuardTransportDecodesOnce: guardTransport hands postTransport the
// parameters of a POST body decoded as postTransport decoded them (JSON
// null included, the body's headers set in the request's), and leaves a
// body only that decoding refuses to postTransport, as it refuses what no
// GraphQL request decodes from.
func TestGuardTransportDecodesOnce(t *testing.T) {
	cases := []struct {
		name, body string
		status     int // 0: passed on
		decoded    bool
	}{
		{name: "request", body: `{"query":"{a}","operationName":"A","variables":{"n":1},"extensions":{"e":true},"headers":{"X-Body":["y"],"X-Request":["b"]}}`, decoded: true},
		{name: "no headers", body: `{"query":"{a}"}`, decoded: true},
		{name: "null headers", body: `{"query":"{a}","headers":null}`, decoded: true},
		{name: "null", body: `null`, decoded: true},
		{name: "headers not an object", body: `{"query":"{a}","headers":"x"}`},
		{name: "not an object", body: `[1]`, status: http.StatusBadRequest},
		{name: "not JSON", body: `{"query":`, status: http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			newRequest := func() *http.Request {
				req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(tc.body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Request", "r")
				return req
			}
			// What postTransport decoded from the body on its own.
			before := newRequest()
			want := &graphql.RawParams{Headers: before.Header}
			wantErr := decodeJSON([]byte(tc.body), &want)

			var called bool
			h := guardTransport(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				called = true
				if m := requestMethod(r.Context()); m != http.MethodPost {
					t.Errorf("requestMethod = %q", m)
				}
				params, decoded := decodedParams(r.Context())
				if decoded != tc.decoded || decoded != (wantErr == nil) {
					t.Fatalf("decoded = %v, want %v (postTransport's decoding: %v)", decoded, tc.decoded, wantErr)
				}
				if !decoded {
					return
				}
				if got := withHeaders(params, r); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(r.Header, before.Header) {
					t.Errorf("params = %+v, request headers %v; postTransport decoded %+v, request headers %v", got, r.Header, want, before.Header)
				}
			}))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, newRequest())
			if tc.status != 0 {
				if called || rec.Code != tc.status {
					t.Fatalf("passed on: %v, status %d; want refused with %d", called, rec.Code, tc.status)
				}
				return
			}
			if !called {
				t.Fatalf("refused with %d: %s", rec.Code, rec.Body)
			}
		})
	}
}

// TestCompactVerbatim: a value that starts where a verbatim span starts
// is copied as it is (even what compaction would change: the span's
// writer vouches for it), the rest compacted as before; a span no value
// starts at (a key, a part of a string, one passed over) is ignored, and
// so are spans beyond the data.
func TestCompactVerbatim(t *testing.T) {
	src := []byte(`{"text":"a <b>","list":[{"id":"x&y"}],"n":1, "s" : "<c>"}`)
	at := func(sub string) assembled.Span {
		i := bytes.Index(src, []byte(sub))
		return assembled.Span{Start: i, End: i + len(sub)}
	}
	plain, ok := appendCompactJSON(nil, src, nil)
	if !ok {
		t.Fatal("not compacted")
	}
	cases := []struct {
		name  string
		spans []assembled.Span
		want  string
	}{
		{"none", nil, string(plain)},
		{"a string", []assembled.Span{at(`"a <b>"`)}, `{"text":"a <b>","list":[{"id":"x\u0026y"}],"n":1,"s":"\u003cc\u003e"}`},
		{"a list and a string", []assembled.Span{at(`[{"id":"x&y"}]`), at(`"<c>"`)}, `{"text":"a \u003cb\u003e","list":[{"id":"x&y"}],"n":1,"s":"<c>"}`},
		{"a key", []assembled.Span{at(`"text"`)}, string(plain)},
		{"inside a string", []assembled.Span{at(`<b>`)}, string(plain)},
		{"an element", []assembled.Span{at(`{"id":"x&y"}`)}, `{"text":"a \u003cb\u003e","list":[{"id":"x&y"}],"n":1,"s":"\u003cc\u003e"}`},
		{"out of order", []assembled.Span{at(`"<c>"`), at(`"a <b>"`)}, `{"text":"a \u003cb\u003e","list":[{"id":"x\u0026y"}],"n":1,"s":"<c>"}`},
		{"beyond the data", []assembled.Span{{Start: len(src) + 5, End: len(src) + 9}}, string(plain)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := appendCompactJSON([]byte("x"), src, tc.spans)
			if !ok || string(got[1:]) != tc.want {
				t.Errorf("appendCompactJSON = %s, %v; want %s", got[1:], ok, tc.want)
			}
		})
	}
}
