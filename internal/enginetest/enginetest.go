// Package enginetest runs a test on each storage engine: Badger in
// memory, and TiKV on client-go's in-process mock cluster (no external
// process). Subtests are named after the engine ("Badger", "TiKV").
package enginetest

import (
	"testing"
	"time"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/store/tikvstore"
)

// Engine is one engine a conformance test runs on.
type Engine struct {
	Name string
	// New returns a fresh engine, or nil for Badger (which the store
	// opens itself from its options).
	New func(t testing.TB) store.Engine
}

// Badger and TiKV are the engines.
var (
	Badger = Engine{Name: "Badger", New: func(testing.TB) store.Engine { return nil }}
	TiKV   = Engine{Name: "TiKV", New: func(t testing.TB) store.Engine { return Mock(t) }}
)

// All are the engines every conformance test runs on.
var All = []Engine{Badger, TiKV}

// Mock returns a TiKV engine on a fresh mock cluster, with a short
// operation timeout so that a lost cluster is noticed quickly. The store
// that uses it closes it.
func Mock(t testing.TB) *tikvstore.Mock {
	t.Helper()
	m, err := tikvstore.NewMock(tikvstore.Options{OpTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("mock TiKV cluster: %v", err)
	}
	return m
}

// Options returns in-memory store options on engine e.
func (e Engine) Options(t testing.TB) store.Options {
	o := store.DefaultOptions("")
	o.InMemory, o.SyncWrites = true, false
	o.Engine = e.New(t)
	return o
}

// Open opens a store on engine e, closed (and checked to close cleanly)
// when t ends.
func (e Engine) Open(t testing.TB) *store.Store {
	t.Helper()
	return e.OpenWith(t, e.Options(t))
}

// OpenWith opens a store with o, closed when t ends.
func (e Engine) OpenWith(t testing.TB, o store.Options) *store.Store {
	t.Helper()
	st, err := store.Open(o)
	if err != nil {
		t.Fatalf("open store on %s: %v", e.Name, err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("close store: %v", err)
		}
	})
	return st
}

// Each runs fn as a subtest on every engine, with a fresh store.
func Each(t *testing.T, fn func(t *testing.T, st *store.Store)) {
	t.Helper()
	for _, e := range All {
		t.Run(e.Name, func(t *testing.T) { fn(t, e.Open(t)) })
	}
}
