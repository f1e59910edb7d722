package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestWorkingTurnsFlag checks that --working-turns and its STATEGRAPH_*
// variable are read, and that the server refuses a value that is not a
// positive number of turns before serving.
func TestWorkingTurnsFlag(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{"zero", []string{"--working-turns", "0"}, nil, "--working-turns must be positive"},
		{"negative from the environment", nil, map[string]string{"STATEGRAPH_WORKING_TURNS": "-3"}, "--working-turns must be positive"},
		{"not a number from the environment", nil, map[string]string{"STATEGRAPH_WORKING_TURNS": "many"}, `STATEGRAPH_WORKING_TURNS="many"`},
		{"the flag wins over the environment", []string{"--working-turns", "0"}, map[string]string{"STATEGRAPH_WORKING_TURNS": "12"}, "--working-turns must be positive"},
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
