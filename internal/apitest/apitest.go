// Package apitest runs a real stategraph server for end-to-end tests: an
// httptest server over the full handler, an in-memory (or on-disk) Badger
// store, a manual clock, and real HS256 tokens.
package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
)

// Secret is the HS256 secret of every test server.
var Secret = []byte("apitest-secret-0123456789abcdef-0123456789abcdef")

// Start is the manual clock's initial time.
var Start = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// Env is a running test server.
type Env struct {
	URL    string
	Server *server.Server
	Clock  *temporal.Manual
	HTTP   *httptest.Server
}

// defaultEngine, when set (build tag tikvtest), opens the engine of
// every server whose test did not choose one; nil is Badger.
var defaultEngine func(t testing.TB) store.Engine

// OnBadger runs the server of a test that reads Badger itself (its raw
// bytes, its metrics, its transaction size limit) on Badger, on disk under
// t's temporary directory, whatever engine the suite runs on.
func OnBadger(t testing.TB) func(*server.Options) {
	dir := t.TempDir()
	return func(o *server.Options) { o.Store.InMemory, o.Store.Dir, o.Store.Engine = false, dir, nil }
}

// New starts a server with an in-memory store; opts may change any option
// (set o.Store.Dir and o.Store.InMemory=false for disk). It is stopped and
// its store closed when the test ends.
func New(t testing.TB, opts ...func(*server.Options)) *Env {
	t.Helper()
	clock := temporal.NewManual(Start)
	o := server.DefaultOptions("")
	o.Store.InMemory = true
	o.Store.SyncWrites = false
	o.Verifier = authority.VerifierConfig{Secret: Secret}
	o.Clock = clock
	o.RateLimit = 0          // tests that need it opt in
	o.LeaseSweepInterval = 0 // tests sweep with Server.SweepLeases
	o.MinFreeDisk = 0        // the test machine's free space is not under test; guard tests set a DiskProbe
	for _, f := range opts {
		f(&o)
	}
	if defaultEngine != nil && o.Store.Engine == nil && o.Store.InMemory {
		o.Store.Engine = defaultEngine(t)
	}
	srv, err := server.New(o)
	if err != nil {
		t.Fatalf("start server: %v", err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		hs.Close()
		if err := srv.Close(); err != nil {
			t.Errorf("close server: %v", err)
		}
	})
	return &Env{URL: hs.URL, Server: srv, Clock: clock, HTTP: hs}
}

// Identity returns an agent identity of org and user with manager
// authority; tests change fields as they need.
func Identity(org, user string) authority.Identity {
	return authority.Identity{
		Org: org, UserID: user, UserName: "User " + user, Authority: "manager",
		Kind: authority.KindAgent, AgentLevel: authority.AgentMaster,
	}
}

// Token mints a token for id valid for an hour of real time.
func Token(t testing.TB, id authority.Identity) string {
	t.Helper()
	tok, err := authority.Mint(Secret, id, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatalf("mint token: %v", err)
	}
	return tok
}

// Error is one GraphQL error.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Response is a decoded GraphQL response.
type Response struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Errors []Error         `json:"errors"`
	Raw    []byte          `json:"-"`
}

// Code returns the extensions.code of the first error, or "".
func (r Response) Code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// Decode decodes the data into v, failing the test if there were errors.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("unexpected GraphQL errors: %s", r.Raw)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode data %s: %v", r.Data, err)
	}
}

// Do posts a GraphQL request with token (none when empty).
func (e *Env) Do(t testing.TB, token, query string, vars map[string]any) Response {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatalf("encode request: %v", err)
	}
	return e.Post(t, token, body)
}

// Post posts a raw request body with token (none when empty).
func (e *Env) Post(t testing.TB, token string, body []byte) Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.HTTP.Client().Do(req)
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	r := Response{Status: resp.StatusCode, Raw: raw}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("decode response (status %d) %q: %v", resp.StatusCode, raw, err)
	}
	r.Status = resp.StatusCode
	return r
}

// MustDo is Do that fails the test on any GraphQL error and decodes the
// data into v.
func (e *Env) MustDo(t testing.TB, token, query string, vars map[string]any, v any) {
	t.Helper()
	r := e.Do(t, token, query, vars)
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Raw)
	}
	r.Decode(t, v)
}

// String renders a response for failure messages.
func (r Response) String() string { return fmt.Sprintf("status %d: %s", r.Status, r.Raw) }
