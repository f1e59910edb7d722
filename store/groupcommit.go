package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
)

// Group commit.
//
// Badger (v4.9) already gathers concurrent commits into one batch (its
// writeCh / doWrites loop), but with its own SyncWrites on it still syncs
// the memtable's write-ahead log once per transaction (writeToLSM ends in
// mt.SyncWAL), so N concurrent writers pay N syncs, one after another.
//
// With Options.SyncWrites the store therefore opens Badger with SyncWrites
// off and makes every commit durable itself before Update returns: a
// committer waits for a sync that started after its commit was written, and
// one of the waiters runs it for all of them. So one sync acknowledges every
// write that reached the log while the previous sync ran.
//
// A sync is db.Sync (the current memtable's log and value-log file) plus,
// whenever the set of memtable logs changed since the last sync (Badger
// rotated a full memtable without syncing it, since its SyncWrites is off),
// an fsync of every memtable log and of the directory. Badger syncs a
// rotated value-log file, flushed tables and the manifest itself.

// groupSync coalesces concurrent sync requests.
type groupSync struct {
	sync func() error

	mu       sync.Mutex
	cond     *sync.Cond
	running  bool
	started  uint64 // syncs started
	finished uint64 // the last sync that finished
	err      error  // its result

	requests, syncs atomic.Uint64
}

func newGroupSync(fn func() error) *groupSync {
	g := &groupSync{sync: fn}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// wait returns once a sync that started after the call has finished (or
// with that sync's error). Concurrent callers share syncs.
func (g *groupSync) wait() error {
	g.requests.Add(1)
	g.mu.Lock()
	defer g.mu.Unlock()
	// A sync already running may have started before the caller's commit
	// reached the log: only the next one covers it.
	target := g.started + 1
	for g.finished < target {
		if g.running {
			g.cond.Wait()
			continue
		}
		g.running = true
		g.started++
		n := g.started
		g.mu.Unlock()
		err := g.sync()
		g.syncs.Add(1)
		g.mu.Lock()
		g.running, g.finished, g.err = false, n, err
		g.cond.Broadcast()
	}
	return g.err
}

// badgerSync returns the sync of a Badger database in dir.
func badgerSync(db *badger.DB, dir string) func() error {
	var seen map[string]bool // memtable logs at the last sync
	return func() error {
		if err := db.Sync(); err != nil {
			return fmt.Errorf("store: sync: %w", err)
		}
		// Listed after db.Sync: a rotation before the listing shows as a
		// new log here; one after it came after db.Sync had synced the
		// log our committers wrote to.
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("store: sync: %w", err)
		}
		now := make(map[string]bool, len(seen)+1)
		changed := false
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".mem") {
				now[e.Name()] = true
				changed = changed || !seen[e.Name()]
			}
		}
		if !changed && seen != nil {
			seen = now
			return nil
		}
		var errs []error
		for name := range now {
			errs = append(errs, fsync(filepath.Join(dir, name)))
		}
		errs = append(errs, fsync(dir))
		if err := errors.Join(errs...); err != nil {
			return fmt.Errorf("store: sync: %w", err)
		}
		seen = now
		return nil
	}
}

// fsync syncs the file or directory at path; one that is gone (a flushed
// memtable's log) needs nothing.
func fsync(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}

// SyncStats counts the commits that waited to be made durable and the syncs
// that did it; with concurrent writers Syncs is well below Commits.
type SyncStats struct {
	Commits, Syncs uint64
}

// SyncStats reports the group commit's counters (zero unless the store is
// on disk with SyncWrites).
func (s *Store) SyncStats() SyncStats {
	if s.gsync == nil {
		return SyncStats{}
	}
	return SyncStats{Commits: s.gsync.requests.Load(), Syncs: s.gsync.syncs.Load()}
}

// durable makes every write committed so far durable, when the store
// syncs writes.
func (s *Store) durable() error {
	if s.gsync == nil {
		return nil
	}
	return s.gsync.wait()
}
