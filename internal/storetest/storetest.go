// Package storetest opens the real store for tests: Badger in memory,
// closed when the test ends, and a caller as a verified token names it.
package storetest

import (
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Open returns a fresh in-memory store (sync writes off: nothing reaches a
// disk) that is closed, and checked to close cleanly, when t ends.
func Open(t testing.TB) *store.Store {
	t.Helper()
	o := store.DefaultOptions("")
	o.InMemory, o.SyncWrites = true, false
	st, err := store.Open(o)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("close store: %v", err)
		}
	})
	return st
}

// Verified mints a real signed token for id, verifies it, and returns the
// identity the verifier read and the partition it names: the caller as
// the service would see it.
func Verified(t testing.TB, id authority.Identity) (authority.Identity, tenancy.Partition) {
	t.Helper()
	secret := []byte("storetest-secret-0123456789abcdef")
	tok, err := authority.Mint(secret, id, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	vid, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	p, err := tenancy.For(vid)
	if err != nil {
		t.Fatal(err)
	}
	return vid, p
}
