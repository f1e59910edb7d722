// Package readme_test runs README.md and docs/graphql.md as written: every
// ```sh, ```bash and ```graphql block, in order, against a real stategraph
// server.
//
// Conventions (README.md states them under "How the examples run"):
//
//   - The server is the one the README's ```console block starts with a line
//     beginning `stategraph serve`; the test starts it with the same flags on
//     a free port (instead of 127.0.0.1:8080) with ./data in a temporary
//     working directory. ```console blocks are never run: they hold the
//     long-running commands (make run, make test, benchmarks).
//   - A shell block runs with `bash -e` in that working directory, with the
//     built binary first in PATH; `127.0.0.1:8080` in it is replaced by the
//     server's address. The variables it exports are exported to every
//     later block.
//   - A GraphQL block is posted to /graphql with the bearer token in the
//     TOKEN variable the README exported most recently, one operation at a
//     time in order (each named when the block holds several). A variable
//     `$NAME` of an operation takes the exported shell variable NAME.
//   - A GraphQL block must answer without errors, unless it holds a comment
//     line `# expect: CODE`: then its operation must fail with that
//     extensions.code.
package readme_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// block is one fenced code block of the README.
type block struct {
	file string // the file's name, relative to the repository
	lang string
	line int // line of the opening fence, 1-based
	body string
}

func (b block) String() string { return fmt.Sprintf("%s:%d (```%s)", b.file, b.line, b.lang) }

// readBlocks returns the fenced blocks of the markdown file at path.
func readBlocks(t *testing.T, path string) []block {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	var (
		out  []block
		cur  *block
		body strings.Builder
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &block{file: filepath.Base(path), lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: n}
			body.Reset()
		case cur != nil && trimmed == "```":
			cur.body = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if cur != nil {
		t.Fatalf("%s: the block is never closed", cur)
	}
	return out
}

// serveArgs returns the flags of the `stategraph serve` line of the README's
// console blocks.
func serveArgs(t *testing.T, blocks []block) []string {
	t.Helper()
	for _, b := range blocks {
		if b.lang != "console" {
			continue
		}
		for _, line := range strings.Split(b.body, "\n") {
			line, _, _ = strings.Cut(line, "#")
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "stategraph" && f[1] == "serve" {
				return f[2:]
			}
		}
	}
	t.Fatal("README.md has no ```console block with a `stategraph serve` line: the test cannot know how to start the server")
	return nil
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatalf("close probe listener: %v", err)
	}
	return addr
}

// env is the environment the README's shell blocks build up.
type env struct {
	base     []string          // the process environment the blocks start from
	exported map[string]string // what the blocks exported
}

func (e *env) list() []string {
	out := append([]string(nil), e.base...)
	for k, v := range e.exported {
		out = append(out, k+"="+v)
	}
	return out
}

// baseEnv is the test's environment without STATEGRAPH_* variables (a
// developer's own settings must not change what the README does), with the
// built binary first in PATH. The disk guard is off: how full the test
// machine's disk is must not decide whether the examples work.
func baseEnv(binDir string) []string {
	out := []string{"STATEGRAPH_MIN_FREE_DISK=0"}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "STATEGRAPH_"), k == "TOKEN":
		case k == "PATH":
			out = append(out, "PATH="+binDir+string(os.PathListSeparator)+v)
		default:
			out = append(out, kv)
		}
	}
	return out
}

func TestReadmeRuns(t *testing.T) {
	root := repoRoot(t)
	blocks := readBlocks(t, filepath.Join(root, "README.md"))
	runDoc(t, root, blocks, serveArgs(t, blocks))
}

// TestGraphQLGuideRuns runs the examples of docs/graphql.md the same way,
// against a server started as the README starts it.
func TestGraphQLGuideRuns(t *testing.T) {
	root := repoRoot(t)
	serve := serveArgs(t, readBlocks(t, filepath.Join(root, "README.md")))
	runDoc(t, root, readBlocks(t, filepath.Join(root, "docs", "graphql.md")), serve)
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// runDoc builds the binary, starts `stategraph serve` with serve (plus a free
// address) and runs the runnable blocks in order.
func runDoc(t *testing.T, root string, blocks []block, serve []string) {
	t.Helper()

	tmp := t.TempDir()
	binDir := filepath.Join(tmp, "bin")
	work := filepath.Join(tmp, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(binDir, "stategraph"), "./cmd/server")
	build.Dir = root
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/server: %v\n%s", err, out)
	}
	// The shell examples use jq; the test brings its own (gojq, pinned in
	// go.mod), so it runs where only Go and curl are installed.
	jq := exec.Command("go", "build", "-o", filepath.Join(binDir, "jq"), "github.com/itchyny/gojq/cmd/gojq")
	jq.Dir = root
	jq.Env = build.Env
	if out, err := jq.CombinedOutput(); err != nil {
		t.Fatalf("go build gojq (the examples' jq): %v\n%s", err, out)
	}

	e := &env{base: baseEnv(binDir), exported: map[string]string{}}
	addr := freeAddr(t)
	url := "http://" + addr
	startServer(t, e, work, binDir, append(serve, "--addr", addr), url)

	ran := 0
	for _, b := range blocks {
		switch b.lang {
		case "sh", "bash":
			runShell(t, e, work, b, addr)
		case "graphql":
			runGraphQL(t, e, b, url)
		default:
			continue
		}
		ran++
	}
	if ran == 0 {
		t.Fatal("no runnable block")
	}
	t.Logf("ran %d blocks", ran)
}

// startServer starts the built binary with args in work and waits until it
// serves; it is stopped (SIGINT, then killed) when the test ends.
func startServer(t *testing.T, e *env, work, binDir string, args []string, url string) {
	t.Helper()
	var logs bytes.Buffer
	cmd := exec.Command(filepath.Join(binDir, "stategraph"), append([]string{"serve"}, args...)...)
	cmd.Dir = work
	cmd.Env = e.list()
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start stategraph serve: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server log:\n%s", tail(logs.String(), 4000))
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-done:
			t.Fatalf("stategraph serve %s exited: %v\n%s", strings.Join(args, " "), err, logs.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("stategraph serve did not answer /healthz within 30s\n%s", logs.String())
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// runShell runs one shell block with bash -e and records what it exported.
func runShell(t *testing.T, e *env, work string, b block, addr string) {
	t.Helper()
	envFile := filepath.Join(work, ".readme-env")
	script := strings.ReplaceAll(b.body, "127.0.0.1:8080", addr) + "\nenv -0 > " + shellQuote(envFile) + "\n"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", script)
	cmd.Dir = work
	cmd.Env = e.list()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s failed: %v\n--- block ---\n%s--- output ---\n%s", b, err, b.body, tail(string(out), 4000))
	}
	raw, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatalf("%s: read its environment: %v", b, err)
	}
	base := map[string]string{}
	for _, kv := range e.base {
		k, v, _ := strings.Cut(kv, "=")
		base[k] = v
	}
	for _, kv := range strings.Split(string(raw), "\x00") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || k == "_" || k == "PWD" || k == "OLDPWD" || k == "SHLVL" {
			continue
		}
		if bv, inBase := base[k]; inBase && bv == v {
			continue
		}
		e.exported[k] = v
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var expectRE = regexp.MustCompile(`(?m)^\s*#\s*expect:\s*([A-Z_]+)\s*$`)

// runGraphQL posts every operation of one GraphQL block in order.
func runGraphQL(t *testing.T, e *env, b block, url string) {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Name: b.String(), Input: b.body})
	if err != nil {
		t.Fatalf("%s does not parse: %v\n%s", b, err, b.body)
	}
	if len(doc.Operations) == 0 {
		t.Fatalf("%s holds no operation", b)
	}
	var expect string
	if m := expectRE.FindAllStringSubmatch(b.body, -1); len(m) > 0 {
		if len(m) > 1 || len(doc.Operations) > 1 {
			t.Fatalf("%s: an `# expect:` block holds one operation and one expect line", b)
		}
		expect = m[0][1]
	}
	token, ok := e.exported["TOKEN"]
	if !ok {
		t.Fatalf("%s: no shell block above exported TOKEN", b)
	}
	for _, op := range doc.Operations {
		if op.Name == "" && len(doc.Operations) > 1 {
			t.Fatalf("%s holds %d operations and one has no name: pasted as shown the server refuses it", b, len(doc.Operations))
		}
		vars := map[string]any{}
		for _, v := range op.VariableDefinitions {
			val, ok := e.exported[v.Variable]
			if !ok && !v.Type.NonNull && v.DefaultValue == nil {
				continue // an optional variable left out: null
			}
			if !ok {
				t.Fatalf("%s: operation %q uses $%s, which no shell block above exported", b, op.Name, v.Variable)
			}
			switch v.Type.Name() {
			case "String", "ID", "Time":
				vars[v.Variable] = val
			default:
				var x any
				if err := json.Unmarshal([]byte(val), &x); err != nil {
					t.Fatalf("%s: $%s=%q is not JSON for %s: %v", b, v.Variable, val, v.Type, err)
				}
				vars[v.Variable] = x
			}
		}
		status, resp := post(t, url, token, b.body, op.Name, vars)
		name := op.Name
		if name == "" {
			name = "(anonymous)"
		}
		t.Logf("%s %s: %s", b, name, tail(resp.raw, 600))
		if expect != "" {
			got := ""
			if len(resp.Errors) > 0 {
				got = resp.Errors[0].Extensions.Code
			}
			if got != expect {
				t.Fatalf("%s %s: want an error with code %s, got HTTP %d %s", b, name, expect, status, resp.raw)
			}
			continue
		}
		if status != http.StatusOK || len(resp.Errors) > 0 {
			t.Fatalf("%s %s: HTTP %d %s\n--- block ---\n%s", b, name, status, resp.raw, b.body)
		}
	}
}

type gqlResponse struct {
	Errors []struct {
		Message    string `json:"message"`
		Extensions struct {
			Code string `json:"code"`
		} `json:"extensions"`
	} `json:"errors"`
	raw string
}

func post(t *testing.T, url, token, query, opName string, vars map[string]any) (int, gqlResponse) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "operationName": opName, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, url+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST /graphql: %v", err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatalf("read response: %v", err)
	}
	var out gqlResponse
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("response is not JSON (HTTP %d): %s", resp.StatusCode, buf.String())
	}
	out.raw = tail(buf.String(), 2000)
	return resp.StatusCode, out
}
