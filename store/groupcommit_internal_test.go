package store

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestGroupSyncGathers: the waiter that runs a sync first waits for the
// other open transactions to join it (or end), within its delay; a lone
// writer never waits; a waiter that arrives while a sync runs waits for
// the next one.
func TestGroupSyncGathers(t *testing.T) {
	const long = time.Hour // a test that waited for it would time out
	t.Run("lone writer syncs at once", func(t *testing.T) {
		var syncs atomic.Int32
		g := newGroupSync(func() error { syncs.Add(1); return nil })
		g.delay = long
		g.begin()
		if err := g.wait(); err != nil {
			t.Fatal(err)
		}
		g.end()
		if got := syncs.Load(); got != 1 {
			t.Errorf("syncs = %d, want 1", got)
		}
	})
	t.Run("open transactions join one sync", func(t *testing.T) {
		var syncs atomic.Int32
		g := newGroupSync(func() error { syncs.Add(1); return nil })
		g.delay = long
		for range 3 {
			g.begin()
		}
		var wg sync.WaitGroup
		for range 2 { // two commit and wait; the third is discarded
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := g.wait(); err != nil {
					t.Error(err)
				}
				g.end()
			}()
		}
		waitFor(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.leading && g.joined == 2 })
		if got := syncs.Load(); got != 0 {
			t.Fatalf("synced %d times before every open transaction joined or ended", got)
		}
		g.end() // the third ends without committing
		wg.Wait()
		if got := syncs.Load(); got != 1 {
			t.Errorf("syncs = %d, want 1 for both commits", got)
		}
	})
	t.Run("the delay bounds the wait", func(t *testing.T) {
		var syncs atomic.Int32
		g := newGroupSync(func() error { syncs.Add(1); return nil })
		g.delay = 20 * time.Millisecond
		g.begin()
		g.begin() // never commits
		t0 := time.Now()
		if err := g.wait(); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d < g.delay {
			t.Errorf("synced after %v, before the delay %v while another transaction was open", d, g.delay)
		}
		if got := syncs.Load(); got != 1 {
			t.Errorf("syncs = %d, want 1", got)
		}
	})
	t.Run("a commit during a sync waits for the next", func(t *testing.T) {
		release := make(chan struct{})
		var syncs atomic.Int32
		g := newGroupSync(func() error {
			if syncs.Add(1) == 1 {
				<-release
			}
			return nil
		})
		g.delay = long
		g.begin()
		first := make(chan error, 1)
		go func() { first <- g.wait() }()
		waitFor(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.running })
		g.end()
		g.begin()
		second := make(chan error, 1)
		go func() { second <- g.wait() }()
		waitFor(t, func() bool { return g.requests.Load() == 2 })
		close(release)
		if err := <-first; err != nil {
			t.Fatal(err)
		}
		if err := <-second; err != nil {
			t.Fatal(err)
		}
		g.end()
		if got := syncs.Load(); got != 2 {
			t.Errorf("syncs = %d, want 2: the second commit reached the log after the first sync started", got)
		}
	})
}

// waitFor polls cond until it holds, failing after ten seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10s")
		}
	}
}

// TestFileSyncerKeepsTheLastFileOpen: syncs of one path share one open
// file; another path closes it and opens its own; a path that is gone
// needs nothing; close closes the file kept.
func TestFileSyncerKeepsTheLastFileOpen(t *testing.T) {
	dir := t.TempDir()
	touchFiles(t, dir, "00001.mem", "00002.mem")
	a, b := filepath.Join(dir, "00001.mem"), filepath.Join(dir, "00002.mem")
	var s fileSyncer
	if err := s.sync(a); err != nil {
		t.Fatal(err)
	}
	first := s.f
	if err := s.sync(a); err != nil {
		t.Fatal(err)
	}
	if s.f != first || s.path != a {
		t.Errorf("a second sync of %s opened it again", a)
	}
	if err := s.sync(b); err != nil {
		t.Fatal(err)
	}
	if s.path != b {
		t.Errorf("kept %q open, want %q", s.path, b)
	}
	if err := first.Close(); err == nil {
		t.Errorf("the file of %s was not closed when %s was synced", a, b)
	}
	if err := s.sync(dir); err != nil { // a directory, as after a rotation
		t.Fatal(err)
	}
	if err := s.sync(filepath.Join(dir, "00009.mem")); err != nil {
		t.Errorf("sync of a file that is gone: %v", err)
	}
	if s.f != nil {
		t.Errorf("a file is kept open after a sync of one that is gone: %q", s.path)
	}
	if err := s.sync(a); err != nil {
		t.Fatal(err)
	}
	kept := s.f
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
	if s.f != nil || kept.Close() == nil {
		t.Error("close left the file open")
	}
	if err := s.close(); err != nil {
		t.Errorf("a second close: %v", err)
	}
}
