package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/statebench"
)

// devSample is the first 30 timelines of the StateBench dev split (MIT,
// Parslee LLC; see its LICENSE).
var devSample = filepath.Join("..", "..", "testdata", "statebench", "dev30.jsonl")

// firstTimelines writes the first n timelines of the dev sample to a file.
func firstTimelines(t *testing.T, n int) string {
	t.Helper()
	raw, err := os.ReadFile(devSample)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(raw), "\n", n+1)
	path := filepath.Join(t.TempDir(), "few.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:n], "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStatebenchCommand replays a few timelines through the subcommand,
// against its own loopback server and against a running one with
// --server and --jwt-secret, and checks both outputs.
func TestStatebenchCommand(t *testing.T) {
	data := firstTimelines(t, 5)
	env := apitest.New(t)
	tests := []struct {
		name string
		args []string
	}{
		{"loopback", nil},
		{"server", []string{"--server", env.URL, "--jwt-secret", string(apitest.Secret)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			args := append([]string{"statebench", "--data", data, "--out", out, "--workers", "2"}, tc.args...)
			if err := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr); err != nil {
				t.Fatalf("statebench: %v\n%s", err, stderr.String())
			}
			if !strings.Contains(stdout.String(), "overall") || !strings.Contains(stdout.String(), "cSFRR") {
				t.Errorf("no report table:\n%s", stdout.String())
			}
			f, err := os.Open(filepath.Join(out, "queries.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			n := 0
			for sc.Scan() {
				var q map[string]json.RawMessage
				if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
					t.Fatalf("line %d: %v", n, err)
				}
				for _, k := range []string{"timeline", "track", "query", "prompt", "context", "tokens", "included", "excluded", "hits", "violations"} {
					if _, ok := q[k]; !ok {
						t.Errorf("line %d lacks %q", n, k)
					}
				}
				var ctx string
				if err := json.Unmarshal(q["context"], &ctx); err != nil || !strings.Contains(ctx, "## Identity") {
					t.Errorf("line %d: context %q is not an assembled context", n, ctx)
				}
				n++
			}
			if n == 0 {
				t.Fatal("queries.jsonl is empty")
			}
			var sum struct {
				Overall struct{ Queries int }
				Tracks  map[string]json.RawMessage
			}
			raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Overall.Queries != n || len(sum.Tracks) == 0 {
				t.Errorf("summary %s: want %d queries and the tracks", raw, n)
			}
		})
	}
}

// TestStatebenchWorkersSameOutput replays the dev sample with one worker and
// with four: queries.jsonl, turns.jsonl and summary.json are the same bytes,
// with the servers' own ids in them (seeded on the timeline, not renamed),
// and no context carries a date that is not the timeline's.
func TestStatebenchWorkersSameOutput(t *testing.T) {
	outputs := map[string]map[string][]byte{}
	for _, workers := range []string{"1", "4"} {
		out := t.TempDir()
		var stdout, stderr bytes.Buffer
		args := []string{"statebench", "--data", devSample, "--out", out, "--workers", workers}
		if err := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr); err != nil {
			t.Fatalf("statebench --workers %s: %v\n%s", workers, err, stderr.String())
		}
		outputs[workers] = map[string][]byte{}
		for _, name := range []string{"queries.jsonl", "turns.jsonl", "summary.json"} {
			raw, err := os.ReadFile(filepath.Join(out, name))
			if err != nil {
				t.Fatal(err)
			}
			outputs[workers][name] = raw
		}
	}
	queries := string(outputs["1"]["queries.jsonl"])
	if !regexp.MustCompile(`"F-[0-9A-HJKMNP-TV-Z]{26}"`).MatchString(queries) || !regexp.MustCompile(`"T-[0-9A-HJKMNP-TV-Z]{26}"`).MatchString(queries) {
		t.Errorf("queries.jsonl holds no server-made fact or turn id")
	}
	if regexp.MustCompile(`"G[0-9]+"`).MatchString(queries) {
		t.Errorf("queries.jsonl renames the server's ids")
	}
	for _, foreign := range []string{time.Now().UTC().Format("2006-01-02"), statebench.ReplayTime.Format("2006-01-02")} {
		if regexp.MustCompile(`date: [A-Za-z]+, ` + foreign).MatchString(queries) {
			t.Errorf("a context carries %s, a date not the timeline's", foreign)
		}
	}
	if !strings.Contains(queries, `date: 2025-11-27 (Thu)\n`) {
		t.Errorf("no context gives the first timeline's date, Thursday, 2025-11-27")
	}
	for name, one := range outputs["1"] {
		if four := outputs["4"][name]; !bytes.Equal(one, four) {
			t.Errorf("%s differs between --workers 1 (%d bytes) and --workers 4 (%d bytes)", name, len(one), len(four))
		}
		if len(one) == 0 {
			t.Errorf("%s is empty", name)
		}
	}
}
