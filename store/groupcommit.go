package store

import (
	"cmp"
	"errors"
	"expvar"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
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
// A sync (badgerSync) flushes the files commits write; Badger syncs flushed
// tables and the manifest itself.
//
// Gathering. A sync costs about the same CPU and device time whether it
// covers one commit or thirty, and the next commit's write to a page the
// sync made clean pays again. So the waiter about to run a sync first
// waits, at most gatherDelay, for the other open read-write transactions
// to commit and join it (or end): it stops as soon as every open one is
// waiting for this sync. A lone writer never waits (it is the only open
// transaction), and a commit is still acknowledged only after a sync that
// started after it reached the log.

// gatherDelay bounds how long a sync waits for the open transactions.
const gatherDelay = time.Millisecond

// groupSync coalesces concurrent sync requests.
type groupSync struct {
	sync  func() error
	delay time.Duration // gatherDelay; 0 never waits

	mu       sync.Mutex
	cond     *sync.Cond
	running  bool   // a sync runs
	leading  bool   // a waiter gathers commits before it starts one
	started  uint64 // syncs started
	finished uint64 // the last sync that finished
	err      error  // its result
	// joined counts the waiters the next sync will cover (the leader
	// included) while a leader gathers.
	joined int

	// open counts read-write transactions begun and not yet ended;
	// gathering is set while a leader waits for them.
	open      atomic.Int64
	gathering atomic.Bool

	requests, syncs atomic.Uint64
}

func newGroupSync(fn func() error) *groupSync {
	g := &groupSync{sync: fn, delay: gatherDelay}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// begin notes an open read-write transaction; end, that it ended
// (committed and acknowledged, or discarded). Every begin is followed by
// one end.
func (g *groupSync) begin() { g.open.Add(1) }

func (g *groupSync) end() {
	g.open.Add(-1)
	if g.gathering.Load() {
		g.mu.Lock()
		g.cond.Broadcast()
		g.mu.Unlock()
	}
}

// wait returns once a sync that started after the call has finished (or
// with that sync's error). Concurrent callers share syncs.
func (g *groupSync) wait() error {
	g.requests.Add(1)
	g.mu.Lock()
	defer g.mu.Unlock()
	// A sync already running may have started before the caller's commit
	// reached the log: only the next one covers it. A leader gathering
	// has not started its sync yet: that one covers the caller.
	target := g.started + 1
	if g.leading {
		g.joined++
		g.cond.Broadcast()
	}
	for g.finished < target {
		if g.running || g.leading {
			g.cond.Wait()
			continue
		}
		g.leading, g.joined = true, 1
		g.gather()
		g.leading, g.running = false, true
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

// gather waits, with g.mu held (and released while waiting), until every
// open transaction waits for the coming sync, or g.delay has passed.
func (g *groupSync) gather() {
	if g.delay <= 0 || g.open.Load() <= 1 {
		return
	}
	g.gathering.Store(true)
	defer g.gathering.Store(false)
	expired := false
	t := time.AfterFunc(g.delay, func() {
		g.mu.Lock()
		expired = true
		g.cond.Broadcast()
		g.mu.Unlock()
	})
	defer t.Stop()
	for int64(g.joined) < g.open.Load() && !expired {
		g.cond.Wait()
	}
}

// badgerSync returns the sync of a Badger database in dir: an fdatasync of
// every file a commit may have written that changed since the last sync.
//
// Commits write the memtable logs (*.mem) and, for values above Badger's
// value threshold, the newest value-log file (*.vlog; Badger syncs one it
// rotates away from), all through mmap. The value log is synced only when
// Badger's count of value-log writes moved (a sync of a clean file still
// costs a device flush). Every memtable log is synced (one or two: a
// flushed one is deleted), not only the current one as by db.Sync, since
// Badger rotates a full memtable without syncing it when its own
// SyncWrites is off; the directory is synced when a rotation created a
// log. files syncs each of them.
func badgerSync(dir string, files *fileSyncer) func() error {
	return badgerSyncWith(dir, files.sync)
}

// badgerSyncWith is badgerSync with fsync as the sync of one path.
//
// Only the newest memtable log is written: Badger's single writer
// (doWrites) creates a new log and writes nothing more to the older ones,
// which wait to be flushed to a table. So a log seen beside a newer one is
// final, and once a sync that saw it so has succeeded, it is never synced
// again (each fdatasync of a clean file would cost a device flush, on
// every commit while a memtable is being flushed).
//
// Badger numbers its logs in sequence (a new memtable log is the newest
// one's number plus one, a new value-log file likewise), so after a sync
// that listed the directory, the next one needs no listing while the file
// that would follow the newest log is absent: it syncs the newest log (and
// the newest value log if written), as a listing would have found. A commit
// the sync acknowledges reached its log before the sync started, so a log
// it wrote existed by then. Any doubt (a rotation, an error, a name out of
// sequence) lists the directory again.
func badgerSyncWith(dir string, fsync func(path string) error) func() error {
	var (
		mems       map[string]bool // memtable logs at the last sync: true when final and synced
		vlogWrites int64           = -1
		// After a sync that listed the directory and succeeded: the newest
		// memtable log and value log, and the names that would follow them.
		newest, nextLog, vlog, nextVlog string
	)
	absent := func(name string) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return errors.Is(err, fs.ErrNotExist)
	}
	return func() error {
		// Read before looking at the files: a commit acknowledged before
		// this sync started has written the value log, if at all, before
		// the count moved.
		vw := vlogWritten()
		if newest != "" && absent(nextLog) && (vw == vlogWrites || vlog != "" && absent(nextVlog)) {
			err := fsync(filepath.Join(dir, newest))
			if err == nil && vw != vlogWrites {
				err = fsync(filepath.Join(dir, vlog))
			}
			if err != nil {
				return fmt.Errorf("store: sync: %w", err)
			}
			vlogWrites = vw
			return nil
		}
		newest = "" // listed again until a listing sync succeeds
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("store: sync: %w", err)
		}
		var logs []string
		lastVlog := ""
		for _, e := range entries {
			name := e.Name()
			switch {
			case strings.HasSuffix(name, ".mem"):
				logs = append(logs, name)
			case strings.HasSuffix(name, ".vlog") && logOrder(lastVlog, name) < 0:
				lastVlog = name
			}
		}
		slices.SortFunc(logs, logOrder) // the last log is the newest
		now := make(map[string]bool, len(logs))
		changed := mems == nil
		var errs []error
		for i, name := range logs {
			final, seen := mems[name]
			changed = changed || !seen
			if !final {
				errs = append(errs, fsync(filepath.Join(dir, name)))
			}
			now[name] = i < len(logs)-1 // synced now beside a newer log: final
		}
		if lastVlog != "" && vw != vlogWrites {
			errs = append(errs, fsync(filepath.Join(dir, lastVlog)))
		}
		if changed {
			errs = append(errs, fsync(dir))
		}
		if err := errors.Join(errs...); err != nil {
			return fmt.Errorf("store: sync: %w", err)
		}
		mems, vlogWrites = now, vw
		if len(logs) > 0 {
			newest, nextLog = logs[len(logs)-1], nextName(logs[len(logs)-1], "%05d.mem")
			vlog, nextVlog = lastVlog, nextName(lastVlog, "%06d.vlog")
			if nextLog == "" {
				newest = "" // not Badger's numbering: list every time
			}
		}
		return nil
	}
}

// logOrder orders the names of log or value-log files as Badger numbers
// them: numbers are zero-padded to a width they may outgrow (99999.mem,
// then 100000.mem), so a shorter name is older.
func logOrder(a, b string) int {
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// nextName returns the name Badger gives the file after the one named
// name, in format (its number plus one), or "" when name is not a number
// and an extension.
func nextName(name, format string) string {
	n, err := strconv.ParseUint(strings.TrimSuffix(name, filepath.Ext(name)), 10, 32)
	if err != nil {
		return ""
	}
	return fmt.Sprintf(format, n+1)
}

// vlogWritten returns Badger's count of entries written to value logs, by
// every database of the process (a change means some value log may need
// a sync), or -1 when it is not published.
func vlogWritten() int64 {
	if v, ok := expvar.Get("badger_write_num_vlog").(*expvar.Int); ok {
		return v.Value()
	}
	return -1
}

// SyncStats counts the commits that waited to be made durable and the syncs
// that did it; with concurrent writers Syncs is well below Commits.
type SyncStats struct {
	Commits, Syncs uint64
}

// SyncStats reports the group commit's counters (zero unless the store is
// on disk with SyncWrites).
func (s *Store) SyncStats() SyncStats {
	if s.bdg == nil || s.bdg.gsync == nil {
		return SyncStats{}
	}
	g := s.bdg.gsync
	return SyncStats{Commits: g.requests.Load(), Syncs: g.syncs.Load()}
}

// fileSyncer syncs files by path (syncFile), keeping the last one it
// opened open: the group commit syncs the newest memtable log on almost
// every commit, and its open and close cost a third of the sync's own CPU
// time. Badger never gives a new file the name of an older one, so a path
// names one file while the database is open. A failed sync closes the
// file, so the next one opens it again.
type fileSyncer struct {
	mu   sync.Mutex
	path string
	f    *os.File // nil: none open
}

// sync syncs the file or directory at path; one that is gone (a flushed
// memtable's log) needs nothing.
func (s *fileSyncer) sync(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil || s.path != path {
		s.closeLocked()
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		s.f, s.path = f, path
	}
	if err := syncFile(s.f); err != nil {
		s.closeLocked()
		return err
	}
	return nil
}

// close closes the file kept open, if any.
func (s *fileSyncer) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeLocked()
}

func (s *fileSyncer) closeLocked() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f, s.path = nil, ""
	return err
}
