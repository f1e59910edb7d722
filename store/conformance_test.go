package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/store/tikvstore"
)

// The engine conformance tests: what the layers above the store rely on,
// on every engine (subtests Badger and TiKV, the latter on client-go's
// in-process mock cluster).

// TestChainOfSupersessions: 50 writers at once each make the current head
// of one key their predecessor and become the head. Every commit must
// see the head the previous one left: the records form one linear chain,
// no fork, no lost writer.
func TestChainOfSupersessions(t *testing.T) {
	enginetest.Each(t, func(t *testing.T, st *store.Store) {
		p := partition(t, "acme", "alice", "")
		sp := p.Shared()
		ctx := context.Background()
		head := store.Suffix(nil).Raw("head")
		put := func(tx *store.Txn, id, prev string) error {
			if err := tx.Put(sp, store.TableFact, store.Suffix(nil).Raw("rec/"+id), prev, 0); err != nil {
				return err
			}
			return tx.Put(sp, store.TableFact, head, id, 0)
		}
		if err := st.Update(ctx, p, func(tx *store.Txn) error { return put(tx, "root", "") }); err != nil {
			t.Fatal(err)
		}
		const n = 50
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := st.Update(ctx, p, func(tx *store.Txn) error {
					var cur string
					if err := tx.Get(sp, store.TableFact, head, &cur); err != nil {
						return err
					}
					return put(tx, fmt.Sprint("w", i), cur)
				})
				switch {
				case err == nil:
					mu.Lock()
					won++
					mu.Unlock()
				case !errors.Is(err, store.ErrContention):
					t.Errorf("writer %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		// Walk the chain from the head.
		seen := map[string]bool{}
		err := st.View(ctx, p, func(tx *store.Txn) error {
			var id string
			if err := tx.Get(sp, store.TableFact, head, &id); err != nil {
				return err
			}
			for id != "" {
				if seen[id] {
					return fmt.Errorf("cycle at %s", id)
				}
				seen[id] = true
				if err := tx.Get(sp, store.TableFact, store.Suffix(nil).Raw("rec/"+id), &id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !seen["root"] || len(seen) != won+1 {
			t.Errorf("chain of %d records from the head (root reached: %v); %d writers committed: want one chain of %d", len(seen), seen["root"], won, won+1)
		}
		if won < n/10 { // the rest ran out of retries: allowed, counted
			t.Errorf("only %d of %d writers committed within the retries", won, n)
		}
		t.Logf("%d writers committed, retry stats %+v", won, st.RetryStats())
	})
}

// TestNoWriteSkew: two transactions each read two keys and, seeing both
// set, clear their own (the on-call doctors). Each writes a key the other
// only read, so only the read set can reveal the conflict: one of them
// must run again and then keep its key.
func TestNoWriteSkew(t *testing.T) {
	enginetest.Each(t, func(t *testing.T, st *store.Store) {
		p := partition(t, "acme", "alice", "")
		sp := p.Shared()
		ctx := context.Background()
		k := func(s string) []byte { return store.Suffix(nil).Raw(s) }
		for round := range 5 {
			err := st.Update(ctx, p, func(tx *store.Txn) error {
				return errors.Join(tx.Put(sp, store.TableFact, k("a"), 1, 0), tx.Put(sp, store.TableFact, k("b"), 1, 0))
			})
			if err != nil {
				t.Fatal(err)
			}
			var read sync.WaitGroup // both have read before either commits
			read.Add(2)
			var wg sync.WaitGroup
			for _, own := range []string{"a", "b"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					first := true
					err := st.Update(ctx, p, func(tx *store.Txn) error {
						var a, b int
						if err := errors.Join(tx.Get(sp, store.TableFact, k("a"), &a), tx.Get(sp, store.TableFact, k("b"), &b)); err != nil {
							return err
						}
						if first {
							first = false
							read.Done()
							read.Wait()
						}
						if a+b < 2 {
							return nil
						}
						return tx.Put(sp, store.TableFact, k(own), 0, 0)
					})
					if err != nil {
						t.Errorf("round %d, %s: %v", round, own, err)
					}
				}()
			}
			wg.Wait()
			var a, b int
			_ = st.View(ctx, p, func(tx *store.Txn) error {
				return errors.Join(tx.Get(sp, store.TableFact, k("a"), &a), tx.Get(sp, store.TableFact, k("b"), &b))
			})
			if a+b != 1 {
				t.Fatalf("round %d: a=%d b=%d: want exactly one cleared (write skew when both are)", round, a, b)
			}
		}
	})
}

// TestRecordsExpire: a record written with a TTL is read until it
// expires, then neither read nor scanned; a backup leaves it out.
func TestRecordsExpire(t *testing.T) {
	enginetest.Each(t, func(t *testing.T, st *store.Store) {
		p := partition(t, "acme", "alice", "")
		sp := p.Private()
		ctx := context.Background()
		err := st.Update(ctx, p, func(tx *store.Txn) error {
			return errors.Join(
				// Badger keeps expiry in whole seconds: a record with two
				// seconds to live lasts between one and two.
				tx.Put(sp, store.TableWorkItem, []byte("short"), "s", 2*time.Second),
				tx.Put(sp, store.TableWorkItem, []byte("long"), "l", time.Hour),
				tx.Put(sp, store.TableWorkItem, []byte("kept"), "k", 0))
		})
		if err != nil {
			t.Fatal(err)
		}
		scan := func() []string {
			t.Helper()
			var out []string
			err := st.View(ctx, p, func(tx *store.Txn) error {
				var err error
				out, err = tx.Tails(sp, store.TableWorkItem, nil)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		if got := fmt.Sprint(scan()); got != "[kept long short]" {
			t.Fatalf("before expiry: %s", got)
		}
		time.Sleep(3 * time.Second)
		if got := fmt.Sprint(scan()); got != "[kept long]" {
			t.Errorf("after expiry: %s, want [kept long]", got)
		}
		err = st.View(ctx, p, func(tx *store.Txn) error {
			var v string
			return tx.Get(sp, store.TableWorkItem, []byte("short"), &v)
		})
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("expired record: err = %v, want ErrNotFound", err)
		}
	})
}

// TestTiKVLost: when the cluster stops answering, reads and writes fail
// with store.ErrUnavailable (UNAVAILABLE) within the operation timeout,
// Ping fails, nothing of a failed transaction is visible, and the store
// serves again when the cluster returns, without a restart. Losing the
// cluster during the commit phase leaves nothing half-written either.
func TestTiKVLost(t *testing.T) {
	m := enginetest.Mock(t)
	o := enginetest.TiKV.Options(t)
	o.Engine = m
	st := enginetest.TiKV.OpenWith(t, o)
	p := partition(t, "acme", "alice", "")
	sp := p.Shared()
	ctx := context.Background()
	k := func(s string) []byte { return store.Suffix(nil).Raw(s) }
	write := func(v int) error {
		return st.Update(ctx, p, func(tx *store.Txn) error {
			var old int
			if err := tx.Get(sp, store.TableFact, k("x"), &old); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			return errors.Join(tx.Put(sp, store.TableFact, k("x"), v, 0), tx.Put(sp, store.TableFact, k(fmt.Sprint("y", v)), v, 0))
		})
	}
	read := func() (int, []string, error) {
		var x int
		var ys []string
		err := st.View(ctx, p, func(tx *store.Txn) error {
			if err := tx.Get(sp, store.TableFact, k("x"), &x); err != nil {
				return err
			}
			var err error
			ys, err = tx.Tails(sp, store.TableFact, k("y"))
			return err
		})
		return x, ys, err
	}
	if err := write(1); err != nil {
		t.Fatal(err)
	}

	m.Down(true)
	start := time.Now()
	if err := st.Ping(ctx); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Ping with the cluster down: %v, want ErrUnavailable", err)
	}
	if err := write(2); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("write with the cluster down: %v, want ErrUnavailable", err)
	}
	if _, _, err := read(); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("read with the cluster down: %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 25*time.Second { // 5 s + 1 s + 1 s when idle
		t.Errorf("the failures took %s", d)
	}

	m.Down(false)
	waitPing(t, st)
	if x, ys, err := read(); err != nil || x != 1 || fmt.Sprint(ys) != "[1]" {
		t.Fatalf("after the outage: x=%d ys=%v err=%v, want the state before it", x, ys, err)
	}

	// Lost between prewrite and commit: the primary never commits, so the
	// transaction is rolled back as a whole once its locks expire.
	m.DownOn("Commit")
	err := write(3)
	if !errors.Is(err, tikvstore.ErrUndetermined) && !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("write lost at commit: %v, want ErrUndetermined or ErrUnavailable", err)
	}
	m.Down(false)
	waitPing(t, st)
	deadline := time.Now().Add(20 * time.Second)
	for {
		x, ys, err := read()
		if err == nil {
			if x != 1 || fmt.Sprint(ys) != "[1]" {
				t.Errorf("after a commit lost: x=%d ys=%v, want nothing of the lost write", x, ys)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("reads still fail after the cluster returned: %v", err)
		}
	}
	if err := write(4); err != nil {
		t.Fatalf("write after the cluster returned: %v", err)
	}
	if x, ys, err := read(); err != nil || x != 4 || fmt.Sprint(ys) != "[1 4]" {
		t.Errorf("after recovery: x=%d ys=%v err=%v", x, ys, err)
	}
}

// waitPing polls Ping, as readiness checks do, until the store answers
// again: the client refreshes the routes it dropped while the cluster was
// away within a few attempts.
func waitPing(t *testing.T, st *store.Store) {
	t.Helper()
	start := time.Now()
	var err error
	for time.Since(start) < 15*time.Second {
		if err = st.Ping(context.Background()); err == nil {
			t.Logf("the store answers again after %s", time.Since(start).Round(time.Millisecond))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("Ping after the cluster returned: %v", err)
}
