// Package storetest opens the real store for tests: Badger in memory,
// closed when the test ends.
package storetest

import (
	"testing"

	"github.com/stategraph/stategraph/store"
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
