package mcpserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/mcptest"
)

// TestStreamableHTTP drives /mcp of a real server with the SDK's client.
func TestStreamableHTTP(t *testing.T) {
	env := apitest.New(t)
	aliceTok := apitest.Token(t, apitest.Identity("acme", "alice"))
	bobTok := apitest.Token(t, apitest.Identity("globex", "bob"))
	alice := mcptest.Connect(t, mcptest.HTTP(env.URL+"/mcp", aliceTok))
	bob := mcptest.Connect(t, mcptest.HTTP(env.URL+"/mcp", bobTok))
	intern := apitest.Identity("acme", "ivan")
	intern.Authority = "Intern"
	internS := mcptest.Connect(t, mcptest.HTTP(env.URL+"/mcp", apitest.Token(t, intern)))
	mcptest.Scenario(t, mcptest.Sessions{Alice: alice, Intern: internS, Bob: bob}, func(query string, vars map[string]any) mcptest.GraphQLError {
		r := env.Do(t, aliceTok, query, vars)
		if len(r.Errors) == 0 {
			return mcptest.GraphQLError{}
		}
		var e mcptest.GraphQLError
		e.Message = r.Errors[0].Message
		e.Extensions.Code = r.Code()
		return e
	})
}

// TestStreamableHTTPAuth: /mcp refuses what /graphql refuses, with the same
// JSON error shape.
func TestStreamableHTTPAuth(t *testing.T) {
	env := apitest.New(t)
	cases := []struct {
		name, auth, message string
	}{
		{"no token", "", "missing bearer token"},
		{"malformed header", "Token abc", "malformed Authorization header"},
		{"bad signature", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.AAAA", "invalid or expired token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
			req, err := http.NewRequest(http.MethodPost, env.URL+"/mcp", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := env.HTTP.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			var got struct {
				Errors []struct {
					Message    string
					Extensions struct{ Code string }
				}
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatalf("status %d, body %q: %v", resp.StatusCode, raw, err)
			}
			if resp.StatusCode != http.StatusUnauthorized || len(got.Errors) != 1 ||
				got.Errors[0].Extensions.Code != "UNAUTHENTICATED" || !strings.Contains(got.Errors[0].Message, tc.message) {
				t.Fatalf("status %d, body %s; want 401 UNAUTHENTICATED %q", resp.StatusCode, raw, tc.message)
			}
		})
	}
}
