package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestMaxSubscriptionsFlag checks that --max-subscriptions-per-org and its
// STATEGRAPH_* variable are read, and that the server refuses a limit that
// is not positive before serving.
func TestMaxSubscriptionsFlag(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{"zero", []string{"--max-subscriptions-per-org", "0"}, nil, "--max-subscriptions-per-org must be positive"},
		{"negative from the environment", nil, map[string]string{"STATEGRAPH_MAX_SUBSCRIPTIONS_PER_ORG": "-1"}, "--max-subscriptions-per-org must be positive"},
		{"not a number from the environment", nil, map[string]string{"STATEGRAPH_MAX_SUBSCRIPTIONS_PER_ORG": "lots"}, `STATEGRAPH_MAX_SUBSCRIPTIONS_PER_ORG="lots"`},
		{"the flag wins over the environment", []string{"--max-subscriptions-per-org", "0"}, map[string]string{"STATEGRAPH_MAX_SUBSCRIPTIONS_PER_ORG": "5"}, "--max-subscriptions-per-org must be positive"},
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
