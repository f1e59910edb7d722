package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// testSecret is the HS256 secret of the tests that start a server; it is
// at least minSecretBytes long, as every secret must be.
const testSecret = "cmd-server-test-secret-0123456789abcdef"

// runCLI runs the command line args with the environment env and returns
// what it wrote to stdout and stderr.
func runCLI(t testing.TB, args []string, env map[string]string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), args, func(k string) string { return env[k] }, &out, &errb)
	return out.String(), errb.String(), err
}

// TestHelp checks that help and -h list the commands, one line each, and
// that 'help COMMAND' and 'COMMAND -h' show that command's flags.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"-help"}, {"help", "help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, _, err := runCLI(t, args, nil)
			if err != nil {
				t.Fatalf("err %v, want nil", err)
			}
			for _, c := range commands() {
				line := regexp.MustCompile(`(?m)^  ` + c.name + ` +` + regexp.QuoteMeta(c.summary) + `$`)
				if !line.MatchString(stdout) {
					t.Errorf("the command list does not give %q its line:\n%s", c.name, stdout)
				}
			}
		})
	}
	// wantFlag is a flag each command's help must show.
	wantFlag := map[string]string{
		"serve": "-jwt-secret", "token": "-org", "statebench": "-data", "backup": "-out", "restore": "-in",
	}
	for _, c := range commands() {
		if c.name == "help" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			_, dashH, err := runCLI(t, []string{c.name, "-h"}, nil)
			if err != nil {
				t.Fatalf("%s -h: err %v, want nil", c.name, err)
			}
			helpCmd, _, err := runCLI(t, []string{"help", c.name}, nil)
			if err != nil {
				t.Fatalf("help %s: err %v, want nil", c.name, err)
			}
			if dashH != helpCmd {
				t.Errorf("'%s -h' wrote\n%s\nbut 'help %[1]s' wrote\n%s", c.name, dashH, helpCmd)
			}
			if !strings.HasPrefix(helpCmd, "usage: stategraph "+c.name) || !strings.Contains(helpCmd, c.summary) {
				t.Errorf("help %s = %q, want its usage line and summary", c.name, helpCmd)
			}
			if f, ok := wantFlag[c.name]; ok && !strings.Contains(helpCmd, "\n  "+f+" ") {
				t.Errorf("help %s does not show %s:\n%s", c.name, f, helpCmd)
			}
		})
	}
	t.Run("unknown command", func(t *testing.T) {
		if _, _, err := runCLI(t, []string{"help", "frobnicate"}, nil); err == nil || !strings.Contains(err.Error(), `unknown command "frobnicate"`) {
			t.Fatalf("err %v, want unknown command", err)
		}
	})
}

// TestVersion checks that version prints the module version and the
// commit: the one set at link time when there is one, "unknown" when the
// build recorded none (go test builds without VCS stamps).
func TestVersion(t *testing.T) {
	cases := []struct {
		name, commit, want string
	}{
		{"set with -ldflags -X", "0123abc", "commit 0123abc\n"},
		{"not recorded", "", "commit unknown\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			saved := commit
			commit = tc.commit
			t.Cleanup(func() { commit = saved })
			stdout, _, err := runCLI(t, []string{"version"}, nil)
			if err != nil {
				t.Fatalf("err %v, want nil", err)
			}
			if !regexp.MustCompile(`^stategraph \S+\n`).MatchString(stdout) || !strings.Contains(stdout, tc.want) {
				t.Errorf("version printed %q, want a version line and %q", stdout, tc.want)
			}
		})
	}
}

// TestShortSecret checks that every command taking an HS256 secret
// refuses one shorter than 32 bytes, from the flag or the environment,
// without echoing it, and accepts one of 32 bytes.
func TestShortSecret(t *testing.T) {
	short, ok32 := "tiny-secret", strings.Repeat("k", minSecretBytes)
	devDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(devDir, devSecretFile), []byte("abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string // "" means no error
	}{
		{"serve flag", []string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--jwt-secret", short}, nil, "--jwt-secret (or STATEGRAPH_JWT_SECRET) is 11 bytes; an HS256 secret needs at least 32"},
		{"serve environment", []string{"serve", "--in-memory", "--addr", "127.0.0.1:0"}, map[string]string{"STATEGRAPH_JWT_SECRET": short}, "is 11 bytes"},
		{"serve dev secret file", []string{"serve", "--dev", "--data-dir", devDir, "--addr", "127.0.0.1:0"}, nil, "the dev secret in " + filepath.Join(devDir, devSecretFile) + " (delete it to make a new one) is 3 bytes"},
		{"token flag", []string{"token", "--org", "o", "--sub", "u", "--jwt-secret", short}, nil, "is 11 bytes"},
		{"token environment", []string{"token", "--org", "o", "--sub", "u"}, map[string]string{"STATEGRAPH_JWT_SECRET": short}, "is 11 bytes"},
		{"token dev secret file", []string{"token", "--org", "o", "--sub", "u", "--data-dir", devDir}, nil, "is 3 bytes"},
		{"token 32 bytes", []string{"token", "--org", "o", "--sub", "u", "--jwt-secret", ok32}, nil, ""},
		{"mcp flag", []string{"mcp", "--in-memory", "--jwt-secret", short, "--token", "x"}, nil, "is 11 bytes"},
		{"mcp environment", []string{"mcp", "--in-memory", "--token", "x"}, map[string]string{"STATEGRAPH_JWT_SECRET": short}, "is 11 bytes"},
		{"mcp dev secret file", []string{"mcp", "--data-dir", devDir, "--token", "x"}, nil, "is 3 bytes"},
		{"statebench", []string{"statebench", "--data", "x.jsonl", "--server", "http://127.0.0.1:1", "--jwt-secret", short}, nil, "is 11 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, _, err := runCLI(t, tc.args, tc.env)
			if tc.wantErr == "" {
				if err != nil || strings.Count(stdout, ".") != 2 {
					t.Fatalf("err %v, stdout %q; want a token", err, stdout)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err %v, want one containing %q", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), short) {
				t.Errorf("the error %q shows the secret", err)
			}
		})
	}
}

// TestMakeRun checks, from what make would run, that 'make run' says what
// it is doing before the long first build, stamps the commit for
// 'stategraph version', and runs the built binary in dev mode.
func TestMakeRun(t *testing.T) {
	out, err := exec.Command("make", "-C", filepath.Join("..", ".."), "-n", "--no-print-directory", "run").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^echo "building bin/stategraph \(the first build takes about a minute`),
		regexp.MustCompile(`^\S+ build -ldflags '-X main\.commit=\S*' -o bin/stategraph \./cmd/server$`),
		regexp.MustCompile(`^echo "starting bin/stategraph serve --dev`),
		regexp.MustCompile(`^bin/stategraph serve --dev$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("make -n run prints %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d of make -n run is %q, want it to match %s", i+1, lines[i], re)
		}
	}
}
