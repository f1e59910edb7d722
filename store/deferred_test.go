package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/store"
)

// counter is deferred work that adds up what a transaction's writes
// contributed and writes the sum once.
type counter struct {
	n       int
	flushes *int
}

func (c *counter) Flush(tx *store.Txn) error {
	*c.flushes++
	sp := tx.Partition().Shared()
	return tx.PutRaw(sp, store.TableSearchStats, []byte("sum"), []byte{byte(c.n)})
}

type counterKey struct{}

func TestDeferredWork(t *testing.T) { enginetest.Each(t, testDeferredWork) }

func testDeferredWork(t *testing.T, st *store.Store) {
	ctx := context.Background()
	p := partition(t, "acme", "alice", "")
	sp := p.Shared()
	read := func(tx *store.Txn) int {
		t.Helper()
		b, err := tx.GetRaw(sp, store.TableSearchStats, []byte("sum"))
		if errors.Is(err, store.ErrNotFound) {
			return -1
		}
		if err != nil {
			t.Fatal(err)
		}
		return int(b[0])
	}
	flushes := 0
	add := func(tx *store.Txn, n int) {
		tx.Defer(counterKey{}, func() store.Deferred { return &counter{flushes: &flushes} }).(*counter).n += n
	}

	// Gathered over the function, done once before commit.
	err := st.Update(ctx, p, func(tx *store.Txn) error {
		add(tx, 2)
		add(tx, 3)
		if got := read(tx); got != -1 {
			t.Errorf("before the commit the work is not done: read %d", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if flushes != 1 {
		t.Errorf("flushes = %d, want 1", flushes)
	}
	_ = st.View(ctx, p, func(tx *store.Txn) error {
		if got := read(tx); got != 5 {
			t.Errorf("committed sum = %d, want 5", got)
		}
		return nil
	})

	// Flush does it now, so a reader in the transaction sees it; work
	// registered after it is done again at commit.
	flushes = 0
	err = st.Update(ctx, p, func(tx *store.Txn) error {
		add(tx, 7)
		if err := tx.Flush(counterKey{}); err != nil {
			return err
		}
		if got := read(tx); got != 7 {
			t.Errorf("after Flush read %d, want 7", got)
		}
		add(tx, 9)
		return nil
	})
	if err != nil || flushes != 2 {
		t.Fatalf("err %v, flushes %d, want 2", err, flushes)
	}

	// A failed function does no work; Preview does it and discards it.
	flushes = 0
	boom := errors.New("boom")
	if err := st.Update(ctx, p, func(tx *store.Txn) error { add(tx, 1); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if err := st.Preview(ctx, p, func(tx *store.Txn) error { add(tx, 1); return nil }); err != nil {
		t.Fatal(err)
	}
	if flushes != 1 {
		t.Errorf("flushes = %d, want 1 (Preview only)", flushes)
	}
	_ = st.View(ctx, p, func(tx *store.Txn) error {
		if got := read(tx); got != 9 {
			t.Errorf("sum = %d, want 9: neither the failed update nor the preview may write", got)
		}
		return nil
	})
}
