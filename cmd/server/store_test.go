package main

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/store/tikvstore"
)

// TestServeTiKVUnreachable: serve --store tikv with no PD answering
// fails (main exits non-zero) with a message naming the endpoints, well within
// 30 s, whether the engine comes from flags or STATEGRAPH_* variables.
func TestServeTiKVUnreachable(t *testing.T) {
	if tikvstore.DefaultConnectTimeout >= 30*time.Second {
		t.Fatalf("the default --tikv-connect-timeout %s is not below 30 s", tikvstore.DefaultConnectTimeout)
	}
	// An address nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tests := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"flags", []string{"serve", "--jwt-secret", strings.Repeat("s", 32), "--store", "tikv", "--pd-endpoints", addr, "--tikv-connect-timeout", "3s"}, nil},
		{"environment", []string{"serve", "--jwt-secret", strings.Repeat("s", 32)},
			map[string]string{"STATEGRAPH_STORE": "tikv", "STATEGRAPH_PD_ENDPOINTS": addr, "STATEGRAPH_TIKV_CONNECT_TIMEOUT": "3s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, _, err := runCLI(t, append(tc.args, "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()), tc.env)
			took := time.Since(start)
			if err == nil {
				t.Fatal("serve started without a cluster")
			}
			if !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "--store tikv") {
				t.Errorf("error %q does not name the store and the endpoints", err)
			}
			if took > 30*time.Second {
				t.Errorf("serve gave up after %s, want < 30 s", took)
			}
			t.Logf("%s: %v", took.Round(time.Millisecond), err)
		})
	}
}

// TestStoreFlags: the engine flags are checked before anything opens.
func TestStoreFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", "rocks"}, `--store "rocks": want badger or tikv`},
		{[]string{"--store", "tikv"}, "--store tikv needs --pd-endpoints"},
		{[]string{"--pd-endpoints", "pd:2379"}, "--pd-endpoints is for --store tikv"},
	} {
		args := append([]string{"serve", "--jwt-secret", strings.Repeat("s", 32), "--data-dir", t.TempDir()}, tc.args...)
		if _, _, err := runCLI(t, args, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
		}
	}
}
