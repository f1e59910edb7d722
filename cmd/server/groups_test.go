package main

import (
	"strings"
	"testing"

	"github.com/stategraph/stategraph/authority"
)

// TestTokenGroups: `token --group` (repeatable) mints the groups claim
// that document permissions read.
func TestTokenGroups(t *testing.T) {
	secret := strings.Repeat("k", minSecretBytes)
	stdout, _, err := runCLI(t, []string{"token", "--org", "o", "--sub", "u", "--group", "finance", "--group", "deal-room", "--jwt-secret", secret}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: []byte(secret)})
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.Verify(strings.TrimSpace(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(id.Groups, ",") != "finance,deal-room" || !id.InGroup("deal-room") || id.InGroup("hr") {
		t.Errorf("groups %v, want finance and deal-room", id.Groups)
	}
}

// TestDocPermissionFlags: the webhook's URL must be http(s) and its
// timeout positive; a bad one stops the server from starting.
func TestDocPermissionFlags(t *testing.T) {
	secret := strings.Repeat("k", minSecretBytes)
	for _, tc := range []struct {
		name, want string
		args       []string
	}{
		{"a non-http URL", "not an http(s) URL", []string{"--doc-permission-url", "ftp://perm.example.com"}},
		{"a zero timeout", "--doc-permission-timeout must be positive", []string{"--doc-permission-url", "http://127.0.0.1:1", "--doc-permission-timeout", "0s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--jwt-secret", secret}, tc.args...)
			_, _, err := runCLI(t, args, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want one containing %q", err, tc.want)
			}
		})
	}
}
