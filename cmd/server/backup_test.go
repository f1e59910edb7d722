package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

func TestBackupRestoreCommands(t *testing.T) {
	env := apitest.New(t)
	alice := apitest.Token(t, apitest.Identity("org-a", "alice"))
	var w struct{ WriteFact struct{ ID string } }
	env.MustDo(t, alice, `mutation { writeFact(input: {key: "budget", value: 100}) { id } }`, nil, &w)
	svc := apitest.Identity("org-a", "backup-bot")
	svc.Kind, svc.AgentLevel, svc.Permissions = authority.KindService, "", []string{server.PermBackup}
	tok := apitest.Token(t, svc)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "a.backup")
	dir := filepath.Join(tmp, "data")

	cmd := func(args ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr)
		return stdout.String(), err
	}
	tests := []struct {
		name    string
		args    []string
		wantOut string
		wantErr string
	}{
		{"agent token refused", []string{"backup", "--server", env.URL, "--token", alice, "--org", "org-a", "--out", out}, "", "backups need a service token"},
		{"neither source", []string{"backup", "--out", out}, "", "either --server"},
		{"remote backup", []string{"backup", "--server", env.URL, "--token", tok, "--org", "org-a", "--out", out}, "backed up organization org-a to " + out, ""},
		{"restore", []string{"restore", "--data-dir", dir, "--in", out}, "(organizations: org-a) into " + dir, ""},
		{"restore twice", []string{"restore", "--data-dir", dir, "--in", out}, "", "already holds records"},
		{"offline backup", []string{"backup", "--data-dir", dir, "--out", filepath.Join(tmp, "b.backup")}, "backed up the whole store", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := cmd(tc.args...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !strings.Contains(got, tc.wantOut) {
				t.Fatalf("got %q, %v; want output containing %q", got, err, tc.wantOut)
			}
		})
	}
	fresh := apitest.New(t, func(o *server.Options) { o.Store.Dir, o.Store.InMemory = dir, false })
	var f struct{ Fact *struct{ Value int } }
	fresh.MustDo(t, alice, `query($id: ID!) { fact(id: $id) { value } }`, map[string]any{"id": w.WriteFact.ID}, &f)
	if f.Fact == nil || f.Fact.Value != 100 {
		t.Errorf("restored fact = %+v, want value 100", f.Fact)
	}
}
