package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/graph"
	"github.com/stategraph/stategraph/httpguard"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/store"
)

// reply is a raw HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) String() string { return strconv.Itoa(r.status) + ": " + string(r.body) }

// errs decodes a GraphQL-shaped error body.
func (r reply) errs(t testing.TB) []apitest.Error {
	t.Helper()
	var v struct {
		Errors []apitest.Error `json:"errors"`
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decode %s: %v", r, err)
	}
	return v.Errors
}

func request(t testing.TB, env *apitest.Env, method, path, token string, body []byte) reply {
	t.Helper()
	req, err := http.NewRequest(method, env.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := env.HTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, raw}
}

func gqlBody(t testing.TB, query string, vars map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const opsWriteFact = `mutation Write($in: FactInput!) { writeFact(input: $in) { id key } }`

// writeID records a fact and returns its id.
func writeID(t *testing.T, env *apitest.Env, tok string, in map[string]any) string {
	t.Helper()
	var out struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, opsWriteFact, map[string]any{"in": in}, &out)
	return out.WriteFact.ID
}

// healthy checks that a plain query still works.
func healthy(t testing.TB, env *apitest.Env, tok string) {
	t.Helper()
	var out struct{ Me struct{ UserID string } }
	env.MustDo(t, tok, `{ me { userId } }`, nil, &out)
	if out.Me.UserID == "" {
		t.Fatal("me.userId is empty")
	}
}

func TestMetricsEndpoint(t *testing.T) {
	env := apitest.New(t, apitest.OnBadger(t), func(o *server.Options) { o.OperatorOrg = "ops" }) // Badger's metrics
	tok := apitest.Token(t, apitest.Identity("org-secret-42", "user-secret-7"))
	first := writeID(t, env, tok, map[string]any{"key": "budget", "value": 100})
	writeID(t, env, tok, map[string]any{"key": "budget", "value": 120, "supersedes": first})
	if r := env.Do(t, tok, opsWriteFact, map[string]any{"in": map[string]any{"key": "", "value": 1}}); r.Code() != "BAD_USER_INPUT" {
		t.Fatalf("empty key: %s, want BAD_USER_INPUT", r)
	}
	request(t, env, http.MethodPost, "/graphql", "", gqlBody(t, `{ me { userId } }`, nil)) // 401

	// The operator's scrape (TestMetricsPublic checks everyone else's).
	r := request(t, env, http.MethodGet, "/metrics", serviceToken(t, "ops"), nil)
	if r.status != http.StatusOK {
		t.Fatalf("/metrics: %s", r)
	}
	text := string(r.body)
	for _, want := range []string{
		`stategraph_request_duration_seconds_count{code="OK",operation="Write"} 2`,
		`stategraph_request_duration_seconds_count{code="BAD_USER_INPUT",operation="Write"} 1`,
		`stategraph_request_duration_seconds_count{code="UNAUTHENTICATED",operation="anonymous"} 1`,
		`stategraph_errors_total{code="BAD_USER_INPUT"} 1`,
		`stategraph_errors_total{code="UNAUTHENTICATED"} 1`,
		`stategraph_facts_written_total 2`,
		`stategraph_supersessions_total{kind="EXPLICIT_WRITE"} 1`,
		`stategraph_badger_lsm_bytes`,
		`stategraph_badger_pending_compactions`,
		`stategraph_assemble_context_duration_seconds_bucket`,
		`stategraph_conflicts_opened_total 0`,
		`go_goroutines`,
		`process_resident_memory_bytes`,
	} {
		if !strings.Contains(text, want+"\n") && !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	for _, leak := range []string{"org-secret-42", "user-secret-7"} {
		if strings.Contains(text, leak) {
			t.Errorf("/metrics contains the id %q", leak)
		}
	}
}

func TestHealthAndReadiness(t *testing.T) {
	var free atomic.Uint64
	free.Store(1 << 40)
	env := apitest.New(t, func(o *server.Options) {
		o.MinFreeDisk = 1 << 30
		o.DiskProbe = func(string) (uint64, error) { return free.Load(), nil }
	})
	for _, path := range []string{"/healthz", "/readyz"} {
		if r := request(t, env, http.MethodGet, path, "", nil); r.status != http.StatusOK || string(r.body) != "ok\n" {
			t.Errorf("%s: %s, want 200 ok", path, r)
		}
	}

	// The disk guard caches its probe for a second: a fresh server sees the
	// low disk at once.
	free.Store(1 << 20)
	low := apitest.New(t, func(o *server.Options) {
		o.MinFreeDisk = 1 << 30
		o.DiskProbe = func(string) (uint64, error) { return free.Load(), nil }
	})
	if r := request(t, low, http.MethodGet, "/readyz", "", nil); r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "low disk space") {
		t.Errorf("/readyz on a full disk: %s, want 503 naming low disk space", r)
	}
	if r := request(t, low, http.MethodGet, "/healthz", "", nil); r.status != http.StatusOK {
		t.Errorf("/healthz on a full disk: %s, want 200 (the process is alive)", r)
	}
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	r := request(t, low, http.MethodPost, "/graphql", tok, gqlBody(t, opsWriteFact, map[string]any{"in": map[string]any{"id": "f1", "key": "k", "value": 1}}))
	errs := r.errs(t)
	if len(errs) != 1 || errs[0].Extensions["code"] != "INTERNAL" || !strings.Contains(errs[0].Message, "disk is nearly full") {
		t.Fatalf("write on a full disk: %s, want INTERNAL naming the full disk", r)
	}
	if id := errs[0].Extensions["requestId"]; id == "" || id != r.header.Get(httpguard.RequestIDHeader) {
		t.Errorf("requestId = %v, want the X-Request-Id %q", id, r.header.Get(httpguard.RequestIDHeader))
	}
	var out struct{ Fact *struct{ ID string } }
	low.MustDo(t, tok, `{ fact(id: "f1") { id } }`, nil, &out) // reads still work
	if out.Fact != nil {
		t.Errorf("the refused write was stored: %+v", out.Fact)
	}
}

func TestBodyLimit(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.MaxBodyBytes = 4096 })
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	big := gqlBody(t, opsWriteFact, map[string]any{"in": map[string]any{"key": "k", "value": strings.Repeat("x", 5000)}})
	r := request(t, env, http.MethodPost, "/graphql", tok, big)
	if errs := r.errs(t); r.status != http.StatusRequestEntityTooLarge || len(errs) != 1 || errs[0].Extensions["code"] != "BAD_USER_INPUT" || !strings.Contains(errs[0].Message, "4096") {
		t.Fatalf("big body: %s, want 413 BAD_USER_INPUT naming the limit", r)
	}
	healthy(t, env, tok)
}

func TestRateLimitPerOrganization(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.RateLimit, o.RateBurst = 0.01, 2 })
	a := apitest.Token(t, apitest.Identity("org-a", "alice"))
	a2 := apitest.Token(t, apitest.Identity("org-a", "anna"))
	b := apitest.Token(t, apitest.Identity("org-b", "bob"))
	q := gqlBody(t, `{ me { userId } }`, nil)
	for i, tok := range []string{a, a2} {
		if r := request(t, env, http.MethodPost, "/graphql", tok, q); r.status != http.StatusOK {
			t.Fatalf("org-a request %d within the burst: %s", i, r)
		}
	}
	r := request(t, env, http.MethodPost, "/graphql", a, q)
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("org-a over its burst: %s, want 429", r)
	}
	if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 {
		t.Errorf("Retry-After = %q, want whole seconds >= 1", r.header.Get("Retry-After"))
	}
	if errs := r.errs(t); len(errs) != 1 || errs[0].Extensions["code"] != "FORBIDDEN" {
		t.Errorf("429 body: %s, want code FORBIDDEN", r)
	}
	// Another user of the same organization shares its bucket; another
	// organization has its own.
	if r := request(t, env, http.MethodPost, "/graphql", a2, q); r.status != http.StatusTooManyRequests {
		t.Errorf("org-a, other user: %s, want 429", r)
	}
	healthy(t, env, b)
}

func TestQueryLimits(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) {
		o.Limits = graph.Limits{MaxComplexity: 500, MaxDepth: 5, MaxAliases: 3, MaxOperations: 3, ParserTokens: 400}
	})
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	page := `query P($n: Int) { facts(first: $n) { edges { node { id key value text } } } }`
	aliases := `{ a: me { userId } b: me { userId } c: me { userId } d: me { userId } }`
	tests := []struct {
		name, query, opName string
		vars                map[string]any
		wantMsg             string // "" means allowed
	}{
		{"small page", page, "", map[string]any{"n": 10}, ""},
		{"page over complexity", page, "", map[string]any{"n": 100}, "complexity 601, more than the limit of 500"},
		{"literal page over complexity", `{ facts(first: 200) { edges { node { id } } } }`, "", nil, "complexity"},
		{"default page size counts", `{ facts { edges { node { id key value text supersedes { id key } supersededBy { id key } } } } }`, "", nil, "complexity"},
		{"depth at limit", `{ fact(id: "x") { supersedes { supersedes { supersedes { id } } } } }`, "", nil, ""},
		{"too deep", `{ fact(id: "x") { supersedes { supersedes { supersedes { supersedes { id } } } } } }`, "", nil, "deeper than the limit of 5"},
		{"too deep through fragments", `query { fact(id: "x") { ...A } } fragment A on Fact { supersedes { supersedes { ...B } } } fragment B on Fact { supersedes { supersedes { id } } }`, "", nil, "deeper than the limit of 5"},
		{"aliases at limit", `{ a: me { userId } b: me { userId } c: me { userId } }`, "", nil, ""},
		{"too many aliases", aliases, "", nil, "4 aliases, more than the limit of 3"},
		{"several operations unnamed", `query A { me { userId } } query B { me { userId } }`, "", nil, "name the one to run with operationName"},
		{"several operations named", `query A { me { userId } } query B { me { userId } }`, "B", nil, ""},
		{"too many operations", `query A { me { userId } } query B { me { userId } } query C { me { userId } } query D { me { userId } }`, "A", nil, "defines 4 operations, more than the limit of 3"},
		{"too many tokens", `{ me { ` + strings.Repeat("userId ", 500) + `} }`, "", nil, "token limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body, err := json.Marshal(map[string]any{"query": tc.query, "variables": tc.vars, "operationName": tc.opName})
			if err != nil {
				t.Fatal(err)
			}
			r := env.Post(t, tok, body)
			if tc.wantMsg == "" {
				if len(r.Errors) > 0 {
					t.Fatalf("refused: %s", r)
				}
			} else if r.Code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, tc.wantMsg) {
				t.Fatalf("got %s, want BAD_USER_INPUT containing %q", r, tc.wantMsg)
			}
			healthy(t, env, tok)
		})
	}
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) lines(t testing.TB) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func TestAccessLog(t *testing.T) {
	var logs syncBuffer
	env := apitest.New(t, func(o *server.Options) {
		o.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	})
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	r := request(t, env, http.MethodPost, "/graphql", tok, gqlBody(t, opsWriteFact, map[string]any{"in": map[string]any{"key": "", "value": 1}}))
	lines := logs.lines(t)
	if len(lines) != 1 {
		t.Fatalf("got %d log lines, want 1: %v", len(lines), lines)
	}
	l := lines[0]
	want := map[string]any{"msg": "request", "request_id": r.header.Get(httpguard.RequestIDHeader), "path": "/graphql",
		"operation": "Write", "code": "BAD_USER_INPUT", "status": float64(200)}
	for k, v := range want {
		if l[k] != v {
			t.Errorf("log %s = %v, want %v", k, l[k], v)
		}
	}
}

func TestAdminBackup(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.OperatorOrg = "ops" })
	alice := apitest.Token(t, apitest.Identity("org-a", "alice"))
	bob := apitest.Token(t, apitest.Identity("org-b", "bob"))
	first := writeID(t, env, alice, map[string]any{"key": "budget", "value": 100})
	second := writeID(t, env, alice, map[string]any{"key": "budget", "value": 120, "supersedes": first})
	writeID(t, env, alice, map[string]any{"key": "budget", "value": 90, "supersedes": second, "supersessionKind": "CORRECTION"})
	writeID(t, env, alice, map[string]any{"key": "note", "value": "mine", "memoryType": "USER"})
	writeID(t, env, bob, map[string]any{"key": "org-b-secret", "value": "do not export"})

	service := func(org string, perms ...string) string {
		id := apitest.Identity(org, "backup-bot")
		id.Kind, id.AgentLevel, id.Permissions = authority.KindService, "", perms
		return apitest.Token(t, id)
	}
	tests := []struct {
		name, token, query string
		wantStatus         int
	}{
		{"agent token", alice, "?org=org-a", http.StatusForbidden},
		{"service without permission", service("org-a"), "?org=org-a", http.StatusForbidden},
		{"another organization", service("org-a", server.PermBackup), "?org=org-b", http.StatusForbidden},
		{"whole store without backup-all", service("org-a", server.PermBackup), "", http.StatusForbidden},
		{"no token", "", "?org=org-a", http.StatusUnauthorized},
		{"own organization", service("org-a", server.PermBackup), "?org=org-a", http.StatusOK},
		{"any organization with backup-all", service("ops", server.PermBackupAll), "?org=org-b", http.StatusOK},
		{"whole store with backup-all", service("ops", server.PermBackupAll), "", http.StatusOK},
		{"own organization with backup-all", service("org-a", server.PermBackupAll), "?org=org-a", http.StatusOK},
		{"backup-all outside the operator organization, another", service("org-a", server.PermBackupAll), "?org=org-b", http.StatusForbidden},
		{"backup-all outside the operator organization, whole store", service("org-a", server.PermBackupAll), "", http.StatusForbidden},
		{"operator organization without backup-all", service("ops", server.PermBackup), "", http.StatusForbidden},
		{"an agent of the operator organization", apitest.Token(t, apitest.Identity("ops", "agent")), "", http.StatusForbidden},
		{"unknown organization", service("ops", server.PermBackupAll), "?org=org-none", http.StatusNotFound},
		{"unknown organization, not allowed", service("org-a", server.PermBackup), "?org=org-none", http.StatusForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := request(t, env, http.MethodGet, "/admin/backup"+tc.query, tc.token, nil)
			if r.status != tc.wantStatus {
				t.Fatalf("status %s, want %d", r, tc.wantStatus)
			}
			if tc.wantStatus == http.StatusForbidden {
				if errs := r.errs(t); len(errs) != 1 || errs[0].Extensions["code"] != "FORBIDDEN" {
					t.Errorf("body %s, want one FORBIDDEN error", r)
				}
			}
			if tc.wantStatus == http.StatusNotFound {
				if errs := r.errs(t); len(errs) != 1 || errs[0].Extensions["code"] != "NOT_FOUND" {
					t.Errorf("body %s, want one NOT_FOUND error", r)
				}
			}
		})
	}

	// An export of org-a restores into a fresh server and reads back
	// identically; it holds nothing of org-b.
	r := request(t, env, http.MethodGet, "/admin/backup?org=org-a", service("org-a", server.PermBackup), nil)
	if r.status != http.StatusOK {
		t.Fatalf("backup: %s", r)
	}
	dir := t.TempDir()
	restoreInto(t, dir, r.body)
	fresh := apitest.New(t, func(o *server.Options) { o.Store.Dir, o.Store.InMemory = dir, false })
	const read = `{ facts(filter: {validity: ALL}) { edges { node { id key value isValid validFrom validTo recordedAt supersededAt memoryType
		supersedes { id } supersededBy { id } supersession { kind detection actor at } } } }
		factHistory(key: "budget") { id value isValid } }`
	for _, who := range []string{"alice", "anna"} {
		tok := apitest.Token(t, apitest.Identity("org-a", who))
		want := env.Do(t, tok, read, nil)
		got := fresh.Do(t, tok, read, nil)
		if len(want.Errors) > 0 || string(got.Raw) != string(want.Raw) {
			t.Errorf("%s reads after restore:\n got %s\nwant %s", who, got.Raw, want.Raw)
		}
	}
	var out struct {
		Facts struct{ Edges []any }
	}
	fresh.MustDo(t, bob, `{ facts(filter: {validity: ALL}) { edges { node { id } } } }`, nil, &out)
	if len(out.Facts.Edges) != 0 || bytes.Contains(r.body, []byte("org-b")) {
		t.Errorf("the org-a export carries org-b data: %d facts", len(out.Facts.Edges))
	}
}

func restoreInto(t testing.TB, dir string, backup []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "org.backup")
	if err := os.WriteFile(path, backup, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := store.DefaultOptions(dir)
	o.SyncWrites = false
	st, err := store.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Restore(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestAdminBackupNoOperator: without an operator organization configured,
// nobody exports the whole store or another organization, whatever their
// permissions; everyone may still export their own.
func TestAdminBackupNoOperator(t *testing.T) {
	env := apitest.New(t)
	writeID(t, env, apitest.Token(t, apitest.Identity("org-a", "alice")), map[string]any{"key": "budget", "value": 100})
	writeID(t, env, apitest.Token(t, apitest.Identity("ops", "alice")), map[string]any{"key": "budget", "value": 100})
	tests := []struct {
		name, token, query string
		wantStatus         int
	}{
		{"whole store", serviceToken(t, "ops", server.PermBackupAll), "", http.StatusForbidden},
		{"another organization", serviceToken(t, "ops", server.PermBackupAll), "?org=org-a", http.StatusForbidden},
		{"own organization", serviceToken(t, "ops", server.PermBackupAll), "?org=ops", http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := request(t, env, http.MethodGet, "/admin/backup"+tc.query, tc.token, nil)
			if r.status != tc.wantStatus {
				t.Fatalf("status %s, want %d", r, tc.wantStatus)
			}
		})
	}
}
