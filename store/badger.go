package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// badgerEngine is the default Engine: an embedded Badger database, on disk
// or in memory. With SyncWrites, a commit returns once durable (group
// commit, groupcommit.go).
type badgerEngine struct {
	db     *badger.DB
	opts   Options
	gsync  *groupSync  // nil unless writes are synced
	files  *fileSyncer // the group commit's open file; nil with gsync
	done   chan struct{}
	gcDone chan struct{}

	// Close waits for the transactions begun before it (txns) and
	// refuses new ones (closed), so that no transaction reads a closed
	// database: Badger panics on an iterator of a closed one, and a
	// change-feed stream may still be reading while the server shuts
	// down.
	closing sync.RWMutex
	closed  bool
	txns    sync.WaitGroup
}

// closeWait bounds how long Close waits for open transactions.
const closeWait = 10 * time.Second

func openBadger(opts Options, logger *slog.Logger) (*badgerEngine, error) {
	bo := badger.DefaultOptions(opts.Dir).
		WithInMemory(opts.InMemory).
		// Durability is the group commit's (groupcommit.go): Badger's own
		// SyncWrites would sync once per transaction.
		WithSyncWrites(false).
		WithMetricsEnabled(true). // the group commit reads its value-log count
		WithLogger(badgerLogger{logger}).
		WithNumVersionsToKeep(1)
	if opts.InMemory {
		bo = bo.WithDir("").WithValueDir("")
	}
	if opts.MemTableSize > 0 {
		bo = bo.WithMemTableSize(opts.MemTableSize)
	}
	if opts.NumMemtables > 0 {
		bo = bo.WithNumMemtables(opts.NumMemtables)
	}
	if opts.IndexCacheSize > 0 {
		bo = bo.WithIndexCacheSize(opts.IndexCacheSize)
	}
	if opts.BlockCacheSize > 0 {
		bo = bo.WithBlockCacheSize(opts.BlockCacheSize)
	}
	db, err := badger.Open(bo)
	if err != nil {
		return nil, fmt.Errorf("store: open badger: %w", err)
	}
	e := &badgerEngine{db: db, opts: opts, done: make(chan struct{}), gcDone: make(chan struct{})}
	if opts.SyncWrites && !opts.InMemory {
		e.files = &fileSyncer{}
		e.gsync = newGroupSync(badgerSync(opts.Dir, e.files))
	}
	if opts.GCInterval > 0 && !opts.InMemory {
		go e.gcLoop()
	} else {
		close(e.gcDone)
	}
	return e, nil
}

func (e *badgerEngine) gcLoop() {
	defer close(e.gcDone)
	t := time.NewTicker(e.opts.GCInterval)
	defer t.Stop()
	for {
		select {
		case <-e.done:
			return
		case <-t.C:
			for e.db.RunValueLogGC(0.5) == nil {
				select {
				case <-e.done:
					return
				default:
				}
			}
		}
	}
}

// Close stops the value-log GC and closes Badger.
func (e *badgerEngine) Close() error {
	e.closing.Lock()
	e.closed = true
	e.closing.Unlock()
	waited := make(chan struct{})
	go func() { e.txns.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(closeWait):
	}
	close(e.done)
	<-e.gcDone
	err := e.db.Close()
	if e.files != nil {
		err = errors.Join(err, e.files.close())
	}
	if err != nil {
		return fmt.Errorf("store: close badger: %w", err)
	}
	return nil
}

// durable makes every write committed so far durable, when the store
// syncs writes.
func (e *badgerEngine) durable() error {
	if e.gsync == nil {
		return nil
	}
	return e.gsync.wait()
}

func (e *badgerEngine) Begin(_ context.Context, update bool) (EngineTxn, error) {
	e.closing.RLock()
	if e.closed || e.db.IsClosed() {
		e.closing.RUnlock()
		return nil, errors.New("store: closed")
	}
	e.txns.Add(1)
	e.closing.RUnlock()
	t := &badgerTxn{e: e, txn: e.db.NewTransaction(update), live: true}
	if update && e.gsync != nil {
		e.gsync.begin()
		t.open = true
	}
	return t, nil
}

type badgerTxn struct {
	e    *badgerEngine
	txn  *badger.Txn
	open bool // counted open by the group commit until Discard
	live bool // counted in the engine's txns until Discard
	// ents is where Set takes its entries from, entrySlab at a time
	// rather than one allocation each (Badger keeps a pointer to each
	// until the commit).
	ents []badger.Entry
}

// entrySlab is how many entries Set allocates together; a write of one
// fact sets about twenty.
const entrySlab = 32

func (t *badgerTxn) Get(k []byte) (Value, error) {
	item, err := t.txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: get: %w", err)
	}
	return item, nil
}

// reserve makes room for n more Sets in one allocation: the pending
// writes know how many they hand over at commit.
func (t *badgerTxn) reserve(n int) {
	if len(t.ents) < n {
		t.ents = make([]badger.Entry, n)
	}
}

func (t *badgerTxn) Set(k, v []byte, ttl time.Duration) error {
	if len(t.ents) == 0 {
		t.ents = make([]badger.Entry, entrySlab)
	}
	be := &t.ents[0]
	t.ents = t.ents[1:]
	be.Key, be.Value = k, v
	if ttl > 0 {
		be = be.WithTTL(ttl)
	}
	return badgerErr("put", t.txn.SetEntry(be))
}

func (t *badgerTxn) Delete(k []byte) error { return badgerErr("delete", t.txn.Delete(k)) }

// Commit commits, then waits until the commit is durable.
func (t *badgerTxn) Commit() error {
	if err := t.txn.Commit(); err != nil {
		return badgerErr("commit", err)
	}
	return t.e.durable()
}

// neverCommits tells the group commit that t will be discarded, not
// committed, so that no sync waits for it.
func (t *badgerTxn) neverCommits() {
	if t.open {
		t.open = false
		t.e.gsync.end()
	}
}

func (t *badgerTxn) Discard() {
	t.txn.Discard()
	if t.open {
		t.open = false
		t.e.gsync.end()
	}
	if t.live {
		t.live = false
		t.e.txns.Done()
	}
}

func badgerErr(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, badger.ErrConflict):
		return fmt.Errorf("store: %s: %w", op, ErrConflict)
	case errors.Is(err, badger.ErrTxnTooBig):
		return fmt.Errorf("store: %s: %w", op, ErrTooBig)
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

func (t *badgerTxn) NewIterator(o IterOptions) EngineIterator {
	// Values are read when asked for, never prefetched, KeysOnly or not:
	// Badger prefetches a value by starting a goroutine for each record
	// the iterator passes (sixteen at a Seek), while a value stored in the
	// tree (all but the largest) is read by a copy. A scan that reads one
	// record paid for sixteen goroutines.
	opts := badger.DefaultIteratorOptions
	opts.Prefix = o.Prefix
	opts.Reverse = o.Reverse
	opts.PrefetchValues = false
	return badgerIter{t.txn.NewIterator(opts)}
}

type badgerIter struct{ it *badger.Iterator }

func (b badgerIter) Seek(k []byte) { b.it.Seek(k) }
func (b badgerIter) Valid() bool   { return b.it.Valid() }
func (b badgerIter) Key() []byte   { return b.it.Item().Key() }
func (b badgerIter) Value() Value  { return b.it.Item() }
func (b badgerIter) Next()         { b.it.Next() }
func (b badgerIter) Err() error    { return nil }
func (b badgerIter) Close()        { b.it.Close() }

// badgerLogger sends Badger's logs to slog; its chatty info goes to debug.
// A message is formatted only when its level is enabled: Badger logs at
// debug level several times per commit.
type badgerLogger struct{ l *slog.Logger }

func (b badgerLogger) log(level slog.Level, f string, a []any) {
	if b.l.Enabled(context.Background(), level) {
		b.l.Log(context.Background(), level, "badger", "msg", fmt.Sprintf(f, a...))
	}
}

func (b badgerLogger) Errorf(f string, a ...any)   { b.log(slog.LevelError, f, a) }
func (b badgerLogger) Warningf(f string, a ...any) { b.log(slog.LevelWarn, f, a) }
func (b badgerLogger) Infof(f string, a ...any)    { b.log(slog.LevelDebug, f, a) }
func (b badgerLogger) Debugf(f string, a ...any)   { b.log(slog.LevelDebug, f, a) }
