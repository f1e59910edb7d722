package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// secretMarker is sent in request bodies that are refused: it must never
// come back.
const secretMarker = "SECRET-BODY-7f3a"

// raw sends one HTTP request with a body, a content type and a token (each
// optional).
func raw(t *testing.T, env *apitest.Env, method, path, ctype, token, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, env.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := env.HTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

// TestTransportErrors: every request refused before GraphQL runs is
// answered in the GraphQL error shape, with a code, and never repeats the
// request body.
func TestTransportErrors(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.MaxBodyBytes = 4096 })
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	q := `{"query":"{ me { userId } }"}`
	cases := []struct {
		name, method, path, ctype, body string
		wantStatus                      int
		wantCode                        string
	}{
		{"bad JSON", "POST", "/graphql", "application/json", `{"query": ` + secretMarker, 400, "BAD_USER_INPUT"},
		{"variables not an object", "POST", "/graphql", "application/json", `{"query":"{ me { userId } }","variables":"` + secretMarker + `"}`, 400, "BAD_USER_INPUT"},
		{"JSON array", "POST", "/graphql", "application/json", `["` + secretMarker + `"]`, 400, "BAD_USER_INPUT"},
		{"wrong content type", "POST", "/graphql", "text/plain", q + secretMarker, 415, "BAD_USER_INPUT"},
		{"no content type", "POST", "/graphql", "", q + secretMarker, 415, "BAD_USER_INPUT"},
		{"form", "POST", "/graphql", "application/x-www-form-urlencoded", "query=" + secretMarker, 415, "BAD_USER_INPUT"},
		{"PUT", "PUT", "/graphql", "application/json", q + secretMarker, 405, "BAD_USER_INPUT"},
		{"DELETE", "DELETE", "/graphql", "", "", 405, "BAD_USER_INPUT"},
		{"GET with a mutation", "GET", `/graphql?query=mutation%7BforgetFact(id:%22` + secretMarker + `%22)%7Bid%7D%7D`, "", "", 200, "BAD_USER_INPUT"},
		{"GET with bad variables", "GET", `/graphql?query=%7Bme%7BuserId%7D%7D&variables=` + secretMarker, "", "", 400, "BAD_USER_INPUT"},
		{"body too large", "POST", "/graphql", "application/json", `{"query":"` + strings.Repeat(secretMarker, 500) + `"}`, 413, "BAD_USER_INPUT"},
		{"unknown route under /graphql", "POST", "/graphql/" + secretMarker, "application/json", q, 404, "NOT_FOUND"},
		{"unknown route, GET", "GET", "/graphql/", "", "", 404, "NOT_FOUND"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := raw(t, env, tc.method, tc.path, tc.ctype, tok, tc.body)
			if r.status != tc.wantStatus {
				t.Errorf("status %d, want %d: %s", r.status, tc.wantStatus, r.body)
			}
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want JSON", ct)
			}
			var shape struct {
				Errors []struct {
					Message    string         `json:"message"`
					Extensions map[string]any `json:"extensions"`
				} `json:"errors"`
			}
			if err := json.Unmarshal(r.body, &shape); err != nil || len(shape.Errors) == 0 {
				t.Fatalf("body %s is not the GraphQL error shape (%v)", r.body, err)
			}
			if got := shape.Errors[0].Extensions["code"]; got != tc.wantCode || shape.Errors[0].Message == "" {
				t.Errorf("code %v message %q, want %s and a message", got, shape.Errors[0].Message, tc.wantCode)
			}
			if bytes.Contains(r.body, []byte(secretMarker)) {
				t.Errorf("the answer repeats the request: %s", r.body)
			}
		})
	}
	healthy(t, env, tok)
}

// TestIntrospectionForbidden: with introspection off, __schema and __type
// are FORBIDDEN (not INTERNAL); with it on, they answer.
func TestIntrospectionForbidden(t *testing.T) {
	for _, enabled := range []bool{false, true} {
		env := apitest.New(t, func(o *server.Options) { o.Introspection = enabled })
		tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
		for _, q := range []string{`{ __schema { queryType { name } } }`, `{ __type(name: "Fact") { name } }`, `{ me { userId } __type(name: "Fact") { name } }`} {
			r := env.Do(t, tok, q, nil)
			switch {
			case enabled && len(r.Errors) > 0:
				t.Errorf("introspection on, %s: %s", q, r)
			case !enabled && (r.Code() != "FORBIDDEN" || len(r.Errors) != 1):
				t.Errorf("introspection off, %s: %s, want one FORBIDDEN error", q, r)
			}
		}
	}
}

// operatorToken mints a service token of org with perms.
func serviceToken(t *testing.T, org string, perms ...string) string {
	t.Helper()
	id := apitest.Identity(org, "ops-bot")
	id.Kind, id.AgentLevel, id.Permissions = authority.KindService, "", perms
	return apitest.Token(t, id)
}

// TestReadyzDetail: a failing /readyz names the failing check without the
// data directory's path; the operator's token sees the detail, nobody
// else's does.
func TestReadyzDetail(t *testing.T) {
	const dir = "/srv/tenant-data-9c1e"
	env := apitest.New(t, func(o *server.Options) {
		o.OperatorOrg = "ops"
		o.Store.Dir = dir // in memory: only the disk guard reads it
		o.MinFreeDisk = 1 << 30
		o.DiskProbe = func(string) (uint64, error) { return 1 << 20, nil }
	})
	cases := []struct {
		name, token string
		wantPath    bool
	}{
		{"no token", "", false},
		{"an agent of the operator organization", apitest.Token(t, apitest.Identity("ops", "agent")), false},
		{"a service token of another organization", serviceToken(t, "org-a"), false},
		{"the operator", serviceToken(t, "ops"), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := raw(t, env, "GET", "/readyz", "", tc.token, "")
			body := string(r.body)
			if r.status != http.StatusServiceUnavailable || !strings.Contains(body, "not ready: disk") || !strings.Contains(body, "low disk space") {
				t.Fatalf("/readyz: %s, want 503 naming the disk", r)
			}
			if strings.Contains(body, dir) != tc.wantPath {
				t.Errorf("/readyz %q: path shown %v, want %v", body, !tc.wantPath, tc.wantPath)
			}
		})
	}
}

// TestMetricsPublic: /metrics without the operator's token sums the
// request histogram over operation names, which callers choose; the
// operator sees them.
func TestMetricsPublic(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.OperatorOrg = "ops" })
	tok := apitest.Token(t, apitest.Identity("org-secret-42", "user-secret-7"))
	for _, op := range []string{"AcquireCompetitorPlan", "Write"} {
		var out struct{}
		env.MustDo(t, tok, `query `+op+` { me { userId } }`, nil, &out)
	}
	public := string(raw(t, env, "GET", "/metrics", "", serviceToken(t, "org-secret-42"), "").body)
	operator := string(raw(t, env, "GET", "/metrics", "", serviceToken(t, "ops"), "").body)
	for _, leak := range []string{"AcquireCompetitorPlan", `operation="Write"`, "org-secret-42", "user-secret-7"} {
		if strings.Contains(public, leak) {
			t.Errorf("public /metrics contains %q", leak)
		}
	}
	if !strings.Contains(public, `stategraph_request_duration_seconds_count{code="OK"} 2`) {
		t.Errorf("public /metrics lacks the request count summed over operations:\n%s", grepLines(public, "request_duration_seconds_count"))
	}
	if !strings.Contains(public, `stategraph_request_duration_seconds_bucket{code="OK",le="+Inf"} 2`) {
		t.Errorf("public /metrics lacks the summed buckets:\n%s", grepLines(public, "request_duration_seconds_bucket"))
	}
	if !strings.Contains(operator, `stategraph_request_duration_seconds_count{code="OK",operation="AcquireCompetitorPlan"} 1`) {
		t.Errorf("the operator's /metrics lacks the operation:\n%s", grepLines(operator, "request_duration_seconds_count"))
	}
}

func grepLines(text, sub string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
