package main

import (
	"strings"
	"testing"
)

// TestConsolidateFlags: a bad consolidation setting, from a flag or its
// STATEGRAPH_* variable, stops serve before it listens, with an error
// naming the setting.
func TestConsolidateFlags(t *testing.T) {
	secret := strings.Repeat("k", minSecretBytes)
	base := []string{"serve", "--in-memory", "--addr", "127.0.0.1:0", "--jwt-secret", secret}
	for _, tc := range []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{"level", []string{"--consolidate-level", "wizard"}, nil, `unknown agent level "wizard"`},
		{"level from the environment", nil, map[string]string{"STATEGRAPH_CONSOLIDATE_LEVEL": "wizard"}, `unknown agent level "wizard"`},
		{"authority", []string{"--consolidate-authority", "pope"}, nil, `"pope" is not an authority of the order`},
		{"threshold", []string{"--consolidate-threshold", "1.5"}, nil, "similarity threshold must be in (0, 1]"},
		{"min cluster", []string{"--consolidate-min-cluster", "1"}, nil, "minimum cluster size must be at least 2"},
		{"every", []string{"--consolidate-every", "-1s"}, nil, "schedule period must be positive"},
		{"stale after", []string{"--consolidate-stale-after", "-1h"}, nil, "stale-after must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runCLI(t, append(append([]string(nil), base...), tc.args...), tc.env)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
