package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestAgentShowsSupersession runs the example as `go run` would, against a
// real server, and checks that its output shows the context moving from
// Lena to Jonas; the whole transcript is compared with
// testdata/conversation.golden.
func TestAgentShowsSupersession(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "agent-1"))
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"--url", env.URL + "/graphql", "--token", tok}, noEnv, &out, &errOut); err != nil {
		t.Fatalf("run: %v\nstderr: %s", err, errOut.String())
	}
	got := out.String()

	// Before the supersession the context says Lena; after it, Jonas only.
	cut := strings.Index(got, "user> Jonas is taking")
	if cut < 0 {
		t.Fatalf("output lacks the Jonas turn:\n%s", got)
	}
	before, after := got[:cut], got[cut:]
	if !strings.Contains(before, "    - onboarding_deck.owner: Lena\n") {
		t.Errorf("context before the supersession lacks Lena:\n%s", before)
	}
	if !strings.Contains(after, "  superseded (") || !strings.Contains(after, "onboarding_deck.owner: Lena -> Jonas") {
		t.Errorf("output does not show the supersession:\n%s", after)
	}
	for _, block := range strings.Split(after, "\n\n") {
		if !strings.HasPrefix(block, "user> ") {
			continue
		}
		if !strings.Contains(block, "    - onboarding_deck.owner: Jonas\n") || strings.Contains(block, "    - onboarding_deck.owner: Lena") {
			t.Errorf("context after the supersession should say Jonas, not Lena:\n%s", block)
		}
	}
	if !strings.Contains(got, "  superseded onboarding_deck.owner: Lena\n") || !strings.Contains(got, "  current    onboarding_deck.owner: Jonas\n") {
		t.Errorf("history does not show Lena superseded by Jonas:\n%s", got)
	}
	golden(t, "conversation.golden", got)
}

func TestScriptFlag(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "agent-1"))
	script := filepath.Join(t.TempDir(), "script.txt")
	if err := os.WriteFile(script, []byte("# comment\n\nThe launch budget is 40000 euros.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"--url", env.URL, "--token", tok, "--script", script, "--session", "s-2"}, noEnv, &out, &errOut); err != nil {
		t.Fatalf("run: %v\nstderr: %s", err, errOut.String())
	}
	if n := strings.Count(out.String(), "user> "); n != 1 || !strings.Contains(out.String(), "user> The launch budget is 40000 euros.\n") {
		t.Errorf("output has %d turns; want the script's one:\n%s", n, out.String())
	}
}

func TestRunErrors(t *testing.T) {
	env := apitest.New(t)
	empty := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(empty, []byte("# nothing\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		token string // $STATEGRAPH_TOKEN
		want  string
	}{
		{"no token", []string{"--url", env.URL}, "", "--token (or STATEGRAPH_TOKEN) is required"},
		{"bad token", []string{"--url", env.URL, "--token", "not-a-jwt"}, "", "UNAUTHENTICATED"},
		{"missing script", []string{"--token", "t", "--script", filepath.Join(t.TempDir(), "none.txt")}, "", "read script"},
		{"empty script", []string{"--token", "t", "--script", empty}, "", "the script has no turns"},
		{"stray argument", []string{"--token", "t", "hello"}, "", "unexpected arguments"},
		{"token from the environment", []string{"--url", env.URL}, "env-token", "UNAUTHENTICATED"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			getenv := func(k string) string {
				if k == "STATEGRAPH_TOKEN" {
					return tc.token
				}
				return ""
			}
			err := run(context.Background(), tc.args, getenv, &out, &errOut)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want one containing %q", err, tc.want)
			}
		})
	}
}

func noEnv(string) string { return "" }

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test ./examples/agent -update to create it): %v", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update after checking it):\n got:\n%s\nwant:\n%s", path, got, want)
	}
}
