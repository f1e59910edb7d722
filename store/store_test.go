package store_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// partition returns the partition of a verified identity, the only way
// to get one.
func partition(t testing.TB, org, user, capability string) tenancy.Partition {
	t.Helper()
	_, p := storetest.Verified(t, authority.Identity{Org: org, UserID: user, Capability: capability, Kind: authority.KindAgent})
	return p
}

func TestUnverifiedIdentityHasNoPartition(t *testing.T) {
	if _, err := tenancy.For(authority.Identity{Org: "acme", UserID: "alice"}); !errors.Is(err, tenancy.ErrUnverified) {
		t.Errorf("tenancy.For(unverified) err = %v, want ErrUnverified", err)
	}
}

func TestForeignSpacesAreRefused(t *testing.T) { enginetest.Each(t, testForeignSpacesAreRefused) }

func testForeignSpacesAreRefused(t *testing.T, st *store.Store) {
	ctx := context.Background()
	alice := partition(t, "acme", "alice", "billing")
	bob := partition(t, "acme", "bob", "")
	eve := partition(t, "evil", "alice", "billing")
	foreign := []struct {
		name string
		sp   tenancy.Space
	}{
		{"other org's shared space", eve.Shared()},
		{"other org, same user id", eve.Private()},
		{"other user's private space", bob.Private()},
	}
	if c, ok := eve.Capability(); ok {
		foreign = append(foreign, struct {
			name string
			sp   tenancy.Space
		}{"other org's capability space", c})
	}
	for _, tc := range foreign {
		t.Run(tc.name, func(t *testing.T) {
			err := st.Update(ctx, alice, func(tx *store.Txn) error {
				return tx.Put(tc.sp, store.TableFact, []byte("x"), "v", 0)
			})
			if !errors.Is(err, store.ErrForeignSpace) {
				t.Errorf("Put: err = %v, want ErrForeignSpace", err)
			}
			err = st.View(ctx, alice, func(tx *store.Txn) error {
				return tx.Scan(tc.sp, store.TableFact, nil, store.ScanOptions{}, func([]byte, store.Item) (bool, error) { return true, nil })
			})
			if !errors.Is(err, store.ErrForeignSpace) {
				t.Errorf("Scan: err = %v, want ErrForeignSpace", err)
			}
		})
	}
	// The caller's own spaces work, and another org with the same user id
	// and record key sees nothing of them.
	for _, sp := range alice.Spaces() {
		if err := st.Update(ctx, alice, func(tx *store.Txn) error { return tx.Put(sp, store.TableFact, []byte("x"), "alice's", 0) }); err != nil {
			t.Fatalf("own space: %v", err)
		}
	}
	for _, sp := range eve.Spaces() {
		err := st.View(ctx, eve, func(tx *store.Txn) error {
			var v string
			return tx.Get(sp, store.TableFact, []byte("x"), &v)
		})
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("eve reads %v: err = %v, want ErrNotFound", sp.Kind(), err)
		}
	}
}

func TestUpdateRetriesConflicts(t *testing.T) { enginetest.Each(t, testUpdateRetriesConflicts) }

func testUpdateRetriesConflicts(t *testing.T, st *store.Store) {
	p := partition(t, "acme", "alice", "")
	ctx := context.Background()
	if err := st.Update(ctx, p, func(tx *store.Txn) error { return tx.Put(p.Shared(), store.TableFact, []byte("n"), 0, 0) }); err != nil {
		t.Fatal(err)
	}
	// Concurrent read-modify-write increments: Badger's conflict detection
	// plus retries must lose none.
	const n = 20
	var runs atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := st.Update(ctx, p, func(tx *store.Txn) error {
				runs.Add(1)
				var v int
				if err := tx.Get(p.Shared(), store.TableFact, []byte("n"), &v); err != nil {
					return err
				}
				return tx.Put(p.Shared(), store.TableFact, []byte("n"), v+1, 0)
			})
			if err != nil && !errors.Is(err, store.ErrContention) {
				t.Errorf("Update: %v", err)
			}
		}()
	}
	wg.Wait()
	var got int
	_ = st.View(ctx, p, func(tx *store.Txn) error { return tx.Get(p.Shared(), store.TableFact, []byte("n"), &got) })
	if got < 1 || got > n {
		t.Fatalf("counter = %d, want 1..%d", got, n)
	}
	t.Logf("%d increments committed in %d runs", got, runs.Load())
	if runs.Load() < int64(got) {
		t.Errorf("fewer runs (%d) than commits (%d)", runs.Load(), got)
	}
}

func TestUpdateIsAllOrNothing(t *testing.T) { enginetest.Each(t, testUpdateIsAllOrNothing) }

func testUpdateIsAllOrNothing(t *testing.T, st *store.Store) {
	p := partition(t, "acme", "alice", "")
	ctx := context.Background()
	boom := errors.New("boom")
	err := st.Update(ctx, p, func(tx *store.Txn) error {
		if err := tx.Put(p.Shared(), store.TableFact, []byte("a"), 1, 0); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	ok, _ := func() (bool, error) {
		var ok bool
		err := st.View(ctx, p, func(tx *store.Txn) (err error) { ok, err = tx.Exists(p.Shared(), store.TableFact, []byte("a")); return })
		return ok, err
	}()
	if ok {
		t.Error("a failed Update left its write behind")
	}
}

func TestReopenKeepsData(t *testing.T) {
	dir := t.TempDir()
	p := partition(t, "acme", "alice", "")
	ctx := context.Background()
	st, err := store.Open(store.DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(ctx, p, func(tx *store.Txn) error { return tx.Put(p.Private(), store.TableFact, []byte("k"), "durable", 0) }); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open(store.DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var v string
	if err := st.View(ctx, p, func(tx *store.Txn) error { return tx.Get(p.Private(), store.TableFact, []byte("k"), &v) }); err != nil || v != "durable" {
		t.Errorf("after reopen: %q, %v", v, err)
	}
}

func TestScanOrderAndStart(t *testing.T) { enginetest.Each(t, testScanOrderAndStart) }

func testScanOrderAndStart(t *testing.T, st *store.Store) {
	p := partition(t, "acme", "alice", "")
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	_ = st.Update(ctx, p, func(tx *store.Txn) error {
		for i := 4; i >= 0; i-- {
			if err := tx.Put(p.Shared(), store.TableFactByTime, store.Suffix(nil).Time(base.Add(time.Duration(i)*time.Hour)).Raw("id"), nil, 0); err != nil {
				return err
			}
		}
		return nil
	})
	collect := func(o store.ScanOptions) []time.Time {
		var out []time.Time
		_ = st.View(ctx, p, func(tx *store.Txn) error {
			return tx.Scan(p.Shared(), store.TableFactByTime, nil, o, func(s []byte, _ store.Item) (bool, error) {
				out = append(out, store.NewReader(s).Time())
				return true, nil
			})
		})
		return out
	}
	fwd := collect(store.ScanOptions{KeysOnly: true})
	if len(fwd) != 5 || !fwd[0].Equal(base) || !fwd[4].Equal(base.Add(4*time.Hour)) {
		t.Errorf("forward scan = %v", fwd)
	}
	rev := collect(store.ScanOptions{KeysOnly: true, Reverse: true})
	if len(rev) != 5 || !rev[0].Equal(base.Add(4*time.Hour)) {
		t.Errorf("reverse scan = %v", rev)
	}
	from := collect(store.ScanOptions{KeysOnly: true, Start: store.Suffix(nil).Time(base.Add(2 * time.Hour))})
	if len(from) != 3 || !from[0].Equal(base.Add(2*time.Hour)) {
		t.Errorf("scan from the third = %v", from)
	}
}

func TestEndedTxnCannotWrite(t *testing.T) { enginetest.Each(t, testEndedTxnCannotWrite) }

// testEndedTxnCannotWrite: a Txn kept past its Update (a bug) writes
// nothing, neither into a later transaction nor into the store.
func testEndedTxnCannotWrite(t *testing.T, st *store.Store) {
	p := partition(t, "acme", "alice", "")
	ctx := context.Background()
	var ended *store.Txn
	if err := st.Update(ctx, p, func(tx *store.Txn) error {
		ended = tx
		return tx.Put(p.Shared(), store.TableFact, []byte("a"), 1, 0)
	}); err != nil {
		t.Fatal(err)
	}
	err := st.Update(ctx, p, func(tx *store.Txn) error {
		if err := ended.Put(p.Shared(), store.TableFact, []byte("b"), 2, 0); err == nil {
			t.Error("an ended Txn accepted a write")
		}
		return tx.Put(p.Shared(), store.TableFact, []byte("c"), 3, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(ctx, p, func(tx *store.Txn) error {
		for _, k := range []string{"a", "b", "c"} {
			ok, err := tx.Exists(p.Shared(), store.TableFact, []byte(k))
			if err != nil {
				return err
			}
			if ok != (k != "b") {
				t.Errorf("record %s exists: %v", k, ok)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
