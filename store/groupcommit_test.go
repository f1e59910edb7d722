package store_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stategraph/stategraph/internal/benchcpu"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/store"
)

// openDisk opens a durable store (SyncWrites) in dir.
func openDisk(t testing.TB, dir string) *store.Store {
	t.Helper()
	o := store.DefaultOptions(dir)
	o.GCInterval = 0
	st, err := store.Open(o)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	return st
}

// writeConcurrently commits clients×each transactions from clients
// goroutines, each with one record.
func writeConcurrently(t testing.TB, st *store.Store, clients, each int) {
	t.Helper()
	p := partition(t, "acme", "alice", "")
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				err := st.Update(context.Background(), p, func(tx *store.Txn) error {
					return tx.Put(p.Shared(), store.TableFact, []byte(fmt.Sprintf("c%d-%d", c, i)), map[string]int{"i": i}, 0)
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestGroupCommit: concurrent durable commits share syncs, and every
// acknowledged one is there after a reopen.
func TestGroupCommit(t *testing.T) {
	const clients, each = 16, 20
	dir := t.TempDir()
	st := openDisk(t, dir)
	// Whether commits overlap a sync depends on the scheduler: on a
	// loaded machine (or a file system whose sync is instant) one round
	// may run one commit at a time. Up to five rounds of the same writes
	// (the same keys, rewritten) must share at least one sync.
	var commits, syncs uint64
	for round := 0; round < 5 && (syncs == 0 || syncs >= commits); round++ {
		before := st.SyncStats()
		writeConcurrently(t, st, clients, each)
		got := st.SyncStats()
		c, s := got.Commits-before.Commits, got.Syncs-before.Syncs
		if c != clients*each {
			t.Errorf("commits waited for a sync = %d, want %d", c, clients*each)
		}
		commits, syncs = commits+c, syncs+s
	}
	if syncs == 0 || syncs >= commits {
		t.Errorf("syncs = %d for %d commits, want fewer syncs than commits", syncs, commits)
	}
	t.Logf("%d commits, %d syncs (%.1f commits per sync)", commits, syncs, float64(commits)/float64(syncs))
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st = openDisk(t, dir)
	defer st.Close()
	p := partition(t, "acme", "alice", "")
	err := st.View(context.Background(), p, func(tx *store.Txn) error {
		for c := range clients {
			for i := range each {
				var v map[string]int
				if err := tx.Get(p.Shared(), store.TableFact, []byte(fmt.Sprintf("c%d-%d", c, i)), &v); err != nil {
					return fmt.Errorf("c%d-%d: %w", c, i, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Errorf("after reopen: %v", err)
	}
}

// TestInMemoryStoreDoesNotSync: an in-memory store has nothing to sync.
func TestInMemoryStoreDoesNotSync(t *testing.T) {
	st := storetest.Open(t)
	writeConcurrently(t, st, 4, 5)
	if got := st.SyncStats(); got != (store.SyncStats{}) {
		t.Errorf("SyncStats = %+v, want zero", got)
	}
}

// BenchmarkDurableCommit measures durable single-record commits from 1 and
// 32 concurrent writers, and reports how many commits one sync covered.
func BenchmarkDurableCommit(b *testing.B) {
	for _, clients := range []int{1, 32} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			st := openDisk(b, b.TempDir())
			defer st.Close()
			each := max(1, b.N/clients)
			b.ResetTimer()
			writeConcurrently(b, st, clients, each)
			b.StopTimer()
			s := st.SyncStats()
			b.ReportMetric(float64(s.Commits)/float64(max(s.Syncs, 1)), "commits/sync")
		})
	}
}

// TestGroupCommitValueLog: a value large enough for Badger's value log is
// durable too.
func TestGroupCommitValueLog(t *testing.T) {
	dir := t.TempDir()
	st := openDisk(t, dir)
	p := partition(t, "acme", "alice", "")
	big := strings.Repeat("x", 3<<20/2)
	err := st.Update(context.Background(), p, func(tx *store.Txn) error {
		return tx.PutRaw(p.Shared(), store.TableFact, []byte("big"), []byte(big))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = openDisk(t, dir)
	defer st.Close()
	err = st.View(context.Background(), p, func(tx *store.Txn) error {
		got, err := tx.GetRaw(p.Shared(), store.TableFact, []byte("big"))
		if err == nil && string(got) != big {
			err = fmt.Errorf("read back %d bytes, want %d", len(got), len(big))
		}
		return err
	})
	if err != nil {
		t.Error(err)
	}
}

// BenchmarkCommitRecords measures what the records of a transaction cost:
// 32 writers commit durably (SyncWrites, on disk) transactions of 1, 8 or
// 32 records shaped like search postings (a 60-byte key, no value), so
// the difference between two sizes is the cost of the records alone:
// their pending writes, Badger's transaction, its log and memtable
// (a skiplist insert each) and the flush of the memtable to a table.
// Reported: CPU time per commit and per record (cpu-µs/commit,
// cpu-µs/record; the process's user and system time, which a loaded
// machine disturbs less than latency).
func BenchmarkCommitRecords(b *testing.B) {
	const clients = 32
	for _, records := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("records=%d", records), func(b *testing.B) {
			st := openDisk(b, b.TempDir())
			defer st.Close()
			p := partition(b, "acme", "alice", "")
			each := max(1, b.N/clients)
			var wg sync.WaitGroup
			errs := make(chan error, clients)
			b.ResetTimer()
			cpu0 := benchcpu.Used()
			for c := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var k []byte
					for i := range each {
						err := st.Update(context.Background(), p, func(tx *store.Txn) error {
							for r := range records {
								k = fmt.Appendf(k[:0], "term-%02d/2026-11-27T11:00:00.%09d/F-01KE6P4YM05VXM8Y%02d%06d", r, i, c, i)
								if err := tx.PutRaw(p.Shared(), store.TableSearchLive, k, nil); err != nil {
									return err
								}
							}
							return nil
						})
						if err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			cpu := benchcpu.Used() - cpu0
			b.StopTimer()
			close(errs)
			for err := range errs {
				b.Fatal(err)
			}
			if n := clients * each; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/commit")
				b.ReportMetric(float64(cpu.Microseconds())/float64(n*records), "cpu-µs/record")
			}
		})
	}
}

// TestScanReadsValuesOnDisk: a scan that reads values (Badger's values are
// read when asked for, not prefetched) returns each record's own value,
// in order, both from the tree and from the value log, in a read-only
// and in a read-write transaction.
func TestScanReadsValuesOnDisk(t *testing.T) {
	st := openDisk(t, t.TempDir())
	defer st.Close()
	p := partition(t, "acme", "alice", "")
	want := map[string]string{}
	var keys []string
	for i := range 40 {
		k, v := fmt.Sprintf("k%02d", i), fmt.Sprintf("value %d", i)
		if i == 7 {
			v = strings.Repeat("y", 3<<20/2) // in the value log
		}
		want[k] = v
		keys = append(keys, k)
	}
	err := st.Update(context.Background(), p, func(tx *store.Txn) error {
		for _, k := range keys {
			if err := tx.PutRaw(p.Shared(), store.TableFact, []byte(k), []byte(want[k])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(tx *store.Txn) error {
		var got []string
		err := tx.Scan(p.Shared(), store.TableFact, nil, store.ScanOptions{}, func(suffix []byte, it store.Item) (bool, error) {
			return true, it.Value(func(v []byte) error {
				if string(v) != want[string(suffix)] {
					return fmt.Errorf("value of %s: %d bytes %.12q, want %d bytes %.12q", suffix, len(v), v, len(want[string(suffix)]), want[string(suffix)])
				}
				got = append(got, string(suffix))
				return nil
			})
		})
		if err == nil && !slices.Equal(got, keys) {
			err = fmt.Errorf("scanned %v, want %v", got, keys)
		}
		return err
	}
	if err := st.View(context.Background(), p, check); err != nil {
		t.Errorf("view: %v", err)
	}
	if err := st.Update(context.Background(), p, check); err != nil {
		t.Errorf("update: %v", err)
	}
}
