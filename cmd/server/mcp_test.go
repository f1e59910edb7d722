package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/mcptest"
)

// mcpSecret signs the tokens of the embedded-store tests.
const mcpSecret = "mcp-test-secret-0123456789abcdef0123456789"

// buildBinary builds the stategraph command into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "stategraph")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// stdio starts `stategraph mcp args...` and connects the SDK's client to it.
func stdio(t *testing.T, bin string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stategraph mcp stderr:\n%s", stderr.String())
		}
	})
	return mcptest.Connect(t, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second})
}

func mint(t *testing.T, secret []byte, id authority.Identity) string {
	t.Helper()
	tok, err := authority.Mint(secret, id, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatalf("mint: %v", err)
	}
	return tok
}

// TestMCPStdio drives `stategraph mcp` subprocesses with the SDK's client:
// on an embedded in-memory store, and forwarding to a running server (two
// organizations sharing it, errors compared with the GraphQL API's).
func TestMCPStdio(t *testing.T) {
	bin := buildBinary(t)
	t.Run("in-memory", func(t *testing.T) {
		tok := mint(t, []byte(mcpSecret), apitest.Identity("acme", "alice"))
		alice := stdio(t, bin, "--in-memory", "--jwt-secret", mcpSecret, "--token", tok)
		mcptest.Scenario(t, mcptest.Sessions{Alice: alice}, nil)
	})
	t.Run("token from the environment", func(t *testing.T) {
		tok := mint(t, []byte(mcpSecret), apitest.Identity("acme", "carol"))
		cmd := exec.Command(bin, "mcp", "--in-memory")
		cmd.Env = []string{"STATEGRAPH_TOKEN=" + tok, "STATEGRAPH_JWT_SECRET=" + mcpSecret}
		s := mcptest.Connect(t, &mcp.CommandTransport{Command: cmd})
		var me struct{ ID string }
		mcptest.OK(t, s, "write_fact", map[string]any{"key": "env.check", "value": "yes"}, &me)
		if me.ID == "" {
			t.Fatal("write_fact answered no id")
		}
	})
	t.Run("url", func(t *testing.T) {
		env := apitest.New(t)
		aliceTok := apitest.Token(t, apitest.Identity("acme", "alice"))
		bobTok := apitest.Token(t, apitest.Identity("globex", "bob"))
		alice := stdio(t, bin, "--url", env.URL, "--token", aliceTok)
		bob := stdio(t, bin, "--url", env.URL, "--token", bobTok)
		intern := apitest.Identity("acme", "ivan")
		intern.Authority = "Intern"
		internS := stdio(t, bin, "--url", env.URL, "--token", apitest.Token(t, intern))
		mcptest.Scenario(t, mcptest.Sessions{Alice: alice, Intern: internS, Bob: bob}, func(query string, vars map[string]any) mcptest.GraphQLError {
			r := env.Do(t, aliceTok, query, vars)
			var e mcptest.GraphQLError
			if len(r.Errors) > 0 {
				e.Message, e.Extensions.Code = r.Errors[0].Message, r.Code()
			}
			return e
		})
	})
}

// TestMCPRefuses: mcp refuses to start without a usable token.
func TestMCPRefuses(t *testing.T) {
	other := mint(t, []byte("another-secret-0123456789abcdef0123456789"), apitest.Identity("acme", "alice"))
	env := apitest.New(t)
	notStategraph := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notStategraph.Close)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no token", []string{"--in-memory", "--jwt-secret", mcpSecret}, "no --token"},
		{"token of another secret", []string{"--in-memory", "--jwt-secret", mcpSecret, "--token", other}, "UNAUTHENTICATED: invalid or expired token"},
		{"no way to verify", []string{"--in-memory", "--data-dir", t.TempDir(), "--token", other}, "no --jwt-secret"},
		{"url and in-memory", []string{"--url", "http://127.0.0.1:1", "--in-memory", "--token", other}, "not both"},
		{"url refusing the token", []string{"--url", env.URL, "--token", other}, "UNAUTHENTICATED: invalid or expired token"},
		{"url of something else", []string{"--url", notStategraph.URL, "--token", other}, "answered HTTP 404 without a GraphQL response"},
		{"unreachable url", []string{"--url", "http://127.0.0.1:1", "--jwt-secret", mcpSecret, "--token", other}, "cannot reach the stategraph server"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := run(ctx, append([]string{"mcp"}, tc.args...), func(string) string { return "" }, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if stdout.Len() != 0 {
				t.Fatalf("stdout, the protocol stream, got %q", stdout.String())
			}
		})
	}
}
