package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestAuthorityFlags checks that the authority flags and their STATEGRAPH_*
// variables reach the server, which refuses a bad value before serving.
func TestAuthorityFlags(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{"role onto an unknown authority", []string{"--authority-roles", "Staff Engineer=overlord"}, nil, `"overlord", which is not in the authority order`},
		{"malformed role rule", []string{"--authority-roles", "Staff Engineer"}, nil, "want pattern=authority"},
		{"policy minimum from the environment", nil, map[string]string{"STATEGRAPH_POLICY_MIN_AUTHORITY": "boss"}, `policy minimum authority "boss"`},
		{"violation mode from the environment", nil, map[string]string{"STATEGRAPH_AUTHORITY_VIOLATION": "maybe"}, `authority violation mode "maybe"`},
		{"roles checked against a custom order", []string{"--authority-order", "low,high", "--authority-roles", "Boss=high,Intern=executive"}, nil, `"executive", which is not in the authority order`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"serve", "--in-memory", "--jwt-secret", testSecret, "--addr", "127.0.0.1:0"}, tc.args...)
			env := func(k string) string { return tc.env[k] }
			var out, errb bytes.Buffer
			err := run(context.Background(), args, env, &out, &errb)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
