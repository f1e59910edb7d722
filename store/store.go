// Package store keeps stategraph's records in an ordered transactional
// key-value engine: Badger, embedded, by default (see engine.go).
//
// It owns the key layout (keys.go), value encoding, transactions with
// bounded conflict retries, and the value-log GC loop. Every read and write
// goes through a Txn bound to one tenancy.Partition, and a Txn refuses any
// space its partition does not own, so no code path can address another
// organization's or another user's keys.
package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/tenancy"
)

// Errors returned by the store.
var (
	// ErrNotFound is returned by Get when the key does not exist.
	ErrNotFound = errors.New("store: record not found")
	// ErrForeignSpace is returned when a Txn is asked for a space its
	// partition does not own. It is a programming error, never user input.
	ErrForeignSpace = errors.New("store: space outside the transaction's partition")
	// ErrContention is returned by Update when a transaction still
	// conflicts after every retry.
	ErrContention = &fault.Error{Kind: fault.Conflict, Msg: "the records changed concurrently too often; retry the request"}
)

// Options configure Open. Start from DefaultOptions.
type Options struct {
	// Engine, when set, is the engine the store runs on (package
	// store/tikvstore's, for one); the Badger options below are then
	// ignored. Nil: Badger, in Dir or in memory.
	Engine Engine

	Dir      string
	InMemory bool
	// SyncWrites makes every acknowledged write durable: Update returns
	// after an fsync that covers its commit, shared by concurrent commits
	// (group commit, see groupcommit.go).
	SyncWrites bool
	Logger     *slog.Logger
	// GCInterval is how often the value-log GC runs; 0 disables it.
	GCInterval time.Duration
	// MaxRetries bounds how often a conflicting Update is run again.
	MaxRetries int
	// MemTableSize, NumMemtables, BlockCacheSize and IndexCacheSize trade
	// memory for speed. With an index cache, table indexes and bloom
	// filters live in a bounded cache instead of all in memory.
	MemTableSize   int64
	NumMemtables   int
	BlockCacheSize int64
	IndexCacheSize int64
}

// DefaultOptions returns durable options for a store in dir.
func DefaultOptions(dir string) Options {
	return Options{
		Dir:        dir,
		SyncWrites: true,
		GCInterval: 5 * time.Minute,
		MaxRetries: 16,
		// Memory, chosen for <= 256 MiB resident with 200,000 records
		// (see the README's Benchmarks). A 32 MiB memtable lets one
		// transaction hold 4.8 MiB and 52,000 entries (Badger's limit is
		// 15% of it): a writeFacts batch of 1,000 ordinary facts needs
		// about half. Two memtables: the one written and one flushing.
		// The caches hold the hot blocks and indexes; tables are read
		// through mmap, so the page cache serves the rest.
		MemTableSize:   32 << 20,
		NumMemtables:   2,
		BlockCacheSize: 32 << 20,
		IndexCacheSize: 16 << 20,
	}
}

func (o Options) validate() error {
	if o.Engine == nil && !o.InMemory && o.Dir == "" {
		return errors.New("store: a data directory is required unless in memory")
	}
	if o.MaxRetries < 0 || o.GCInterval < 0 || o.MemTableSize < 0 || o.NumMemtables < 0 || o.BlockCacheSize < 0 || o.IndexCacheSize < 0 {
		return errors.New("store: negative option")
	}
	return nil
}

// Store is an open store on its engine. It is safe for concurrent use.
type Store struct {
	eng    Engine
	bdg    *badgerEngine // nil on another engine
	opts   Options
	logger *slog.Logger

	// retries counts transactions run again after a conflict; contended
	// those that still conflicted after MaxRetries.
	retries, contended atomic.Uint64

	closeOnce sync.Once
	closeErr  error
}

// Open opens (creating if needed) the store described by opts: on
// opts.Engine, else on Badger.
func Open(opts Options) (*Store, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{eng: opts.Engine, opts: opts, logger: logger}
	if s.eng == nil {
		b, err := openBadger(opts, logger)
		if err != nil {
			return nil, err
		}
		s.eng, s.bdg = b, b
	}
	if err := s.checkFormat(); err != nil { // a commit: durable on return
		return nil, errors.Join(err, s.eng.Close())
	}
	return s, nil
}

// formatVersion is the on-disk format this code writes. Version 2 encodes
// times in keys as seconds since year 1 and nanoseconds (temporal.AppendKey);
// version 1 used Unix nanoseconds. Version 3 stores search postings and audit
// entries in compact binary forms; their JSON forms of version 2 still read,
// so a version 2 directory is opened and stamped 3 (a build that reads only
// 2 then refuses it rather than misreading the new records). Version 4
// writes a transaction's search statistics to one shard, where a term's
// count may go below zero (package search); the records are those of
// version 3, so a version 3 directory is opened and stamped 4 with nothing
// to convert, and a version 3 build, which deletes a term's shard record
// when its count goes below zero and so would lose counts, refuses it.
const formatVersion = "4"

// upgradable are the formats this build opens and stamps formatVersion.
var upgradable = map[string]bool{"2": true, "3": true}

// ErrFormat is returned by Open for a data directory written in another
// on-disk format than this build's.
var ErrFormat = errors.New("store: data directory in another on-disk format")

func (s *Store) checkFormat() error {
	ctx := context.Background()
	return s.run(ctx, func(txn EngineTxn) error {
		v, err := txn.Get(systemKey("format"))
		if errors.Is(err, ErrNotFound) {
			return txn.Set(systemKey("format"), []byte(formatVersion), 0)
		}
		if err != nil {
			return fmt.Errorf("store: read format: %w", err)
		}
		var got []byte
		if err := v.Value(func(b []byte) error { got = slices.Clone(b); return nil }); err != nil {
			return fmt.Errorf("store: read format: %w", err)
		}
		switch {
		case string(got) == formatVersion:
			return nil
		case upgradable[string(got)]:
			return txn.Set(systemKey("format"), []byte(formatVersion), 0)
		}
		return fmt.Errorf("%w: it was written in format %s, this build reads formats 2 to %s only (time keys changed in format 2); open it with the build that wrote it, or start from an empty directory", ErrFormat, got, formatVersion)
	})
}

// run runs fn in a read-write engine transaction and commits it, once.
func (s *Store) run(ctx context.Context, fn func(EngineTxn) error) error {
	txn, err := s.eng.Begin(ctx, true)
	if err != nil {
		return err
	}
	defer txn.Discard()
	if err := fn(txn); err != nil {
		return err
	}
	return txn.Commit()
}

// view runs fn in a read-only engine transaction.
func (s *Store) view(ctx context.Context, fn func(EngineTxn) error) error {
	txn, err := s.eng.Begin(ctx, false)
	if err != nil {
		return err
	}
	defer txn.Discard()
	return fn(txn)
}

// Close stops background work and closes the engine. It is called last,
// after the HTTP server has drained. Closing twice returns the first
// result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.eng.Close() })
	return s.closeErr
}

// Badger returns the underlying database for operational tasks (metrics);
// domain code never uses it. It is nil on another engine.
func (s *Store) Badger() *badger.DB {
	if s.bdg == nil {
		return nil
	}
	return s.bdg.db
}

// Engine returns the engine the store runs on.
func (s *Store) Engine() Engine { return s.eng }

// RetryStats counts, since Open, the transactions run again after a
// conflict (Retries) and those refused with ErrContention after every
// retry (Contended), on every engine.
type RetryStats struct{ Retries, Contended uint64 }

// RetryStats reports the store's conflict counters.
func (s *Store) RetryStats() RetryStats {
	return RetryStats{Retries: s.retries.Load(), Contended: s.contended.Load()}
}

// Ping checks that the store is open and writable.
func (s *Store) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := s.run(ctx, func(txn EngineTxn) error {
		return txn.Set(systemKey("ping"), []byte(time.Now().UTC().Format(time.RFC3339)), 0)
	})
	if errors.Is(err, ErrConflict) {
		return nil // a concurrent ping wrote it: the engine answers
	}
	return err
}

// Update runs fn in a read-write transaction of partition p and commits it.
// When the commit conflicts with a concurrent transaction, fn runs again
// (it must be free of side effects outside tx) up to MaxRetries times; then
// ErrContention is returned. Nothing fn wrote is visible unless Update
// returns nil.
func (s *Store) Update(ctx context.Context, p tenancy.Partition, fn func(tx *Txn) error) error {
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		txn, err := s.eng.Begin(ctx, true)
		if err != nil {
			return err
		}
		tx := &Txn{txn: txn, p: p, pend: acquirePendingWrites()}
		err = fn(tx)
		if err == nil {
			err = tx.flushDeferred()
		}
		if err == nil {
			err = tx.pend.apply(txn)
		}
		if err == nil {
			err = txn.Commit() // acknowledged only once durable
		}
		txn.Discard()
		if err == nil {
			for _, f := range tx.afterCommit {
				f()
			}
			tx.releasePending()
			return nil
		}
		tx.releasePending()
		if !errors.Is(err, ErrConflict) {
			if errors.Is(err, ErrTooBig) {
				return errTooBig
			}
			return err
		}
		if attempt >= s.opts.MaxRetries {
			s.contended.Add(1)
			return ErrContention
		}
		s.retries.Add(1)
		// Jittered backoff so that retrying writers do not collide again.
		d := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 5)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

var errTooBig = fault.New(fault.BadInput, "the request changes too many records in one transaction; split it")

// Preview runs fn in a read-write transaction of partition p and discards
// it: fn sees its own writes, nothing is committed, and functions given to
// AfterCommit never run. It answers "what would this change".
func (s *Store) Preview(ctx context.Context, p tenancy.Partition, fn func(tx *Txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	txn, err := s.eng.Begin(ctx, true)
	if err != nil {
		return err
	}
	defer txn.Discard()
	if b, ok := txn.(*badgerTxn); ok {
		b.neverCommits() // no sync waits for a preview
	}
	tx := &Txn{txn: txn, p: p, pend: acquirePendingWrites()}
	defer tx.releasePending()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.flushDeferred(); err != nil {
		return err
	}
	if err := tx.pend.apply(txn); errors.Is(err, ErrTooBig) {
		return errTooBig
	} else if err != nil {
		return err
	}
	return nil
}

// View runs fn in a read-only transaction of partition p.
func (s *Store) View(ctx context.Context, p tenancy.Partition, fn func(tx *Txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.view(ctx, func(txn EngineTxn) error { return fn(&Txn{txn: txn, p: p}) })
}

// Txn is a transaction bound to one partition.
type Txn struct {
	txn         EngineTxn
	p           tenancy.Partition
	pend        *pendingWrites // nil in a View
	afterCommit []func()
	deferred    []deferredWork
	epochs      epochMemo // in a View, the epochs read (Epoch)
}

// Deferred is work a transaction gathers over its writes and does once,
// before it commits: package search sums the statistics changes of every
// fact a transaction writes and applies the sum, instead of reading and
// rewriting the same records for each fact of a batch.
type Deferred interface {
	Flush(tx *Txn) error
}

type deferredWork struct {
	key  any
	work Deferred
}

// Defer returns the work registered in tx under key, registering the one
// mk makes on first use. Registered work is done, in the order it was
// registered, after the transaction's function returns and before it
// commits (in Preview too), unless Flush did it first. A reader of what the
// work writes calls Flush(key) before it reads, so that it sees the
// transaction's own changes. In a View, Defer returns mk()'s work, never
// done.
func (tx *Txn) Defer(key any, mk func() Deferred) Deferred {
	for _, d := range tx.deferred {
		if d.key == key {
			return d.work
		}
	}
	w := mk()
	if tx.pend != nil {
		tx.deferred = append(tx.deferred, deferredWork{key, w})
	}
	return w
}

// Flush does now the work registered under key, if any.
func (tx *Txn) Flush(key any) error {
	for i, d := range tx.deferred {
		if d.key == key {
			tx.deferred = append(tx.deferred[:i], tx.deferred[i+1:]...)
			return d.work.Flush(tx)
		}
	}
	return nil
}

// flushDeferred does all registered work; work may register more.
func (tx *Txn) flushDeferred() error {
	for len(tx.deferred) > 0 {
		d := tx.deferred[0]
		tx.deferred = tx.deferred[1:]
		if err := d.work.Flush(tx); err != nil {
			return err
		}
	}
	return nil
}

// AfterCommit registers f to run once the transaction has committed (never
// when it aborts or is retried), for side effects outside the store such as
// metrics.
func (tx *Txn) AfterCommit(f func()) { tx.afterCommit = append(tx.afterCommit, f) }

// Partition returns the partition the transaction is bound to.
func (tx *Txn) Partition() tenancy.Partition { return tx.p }

// Writable reports whether tx may write (Update, Preview), not a View. A
// reader that could skip reads with a cache under a version record
// reads that record only in a View: in a read-write transaction the read
// would make every concurrent writer of it a conflict.
func (tx *Txn) Writable() bool { return tx.pend != nil }

func (tx *Txn) check(sp tenancy.Space) error {
	if !tx.p.Owns(sp) {
		return ErrForeignSpace
	}
	return nil
}

// Get decodes the record at suffix of table t in space sp into v. It
// returns ErrNotFound when there is none.
func (tx *Txn) Get(sp tenancy.Space, t Table, suffix []byte, v any) error {
	if err := tx.check(sp); err != nil {
		return err
	}
	item, err := tx.read(key(sp, t, suffix))
	if err != nil {
		return err
	}
	return item.Decode(v)
}

// Exists reports whether a record exists at suffix of table t in space sp.
func (tx *Txn) Exists(sp tenancy.Space, t Table, suffix []byte) (bool, error) {
	if err := tx.check(sp); err != nil {
		return false, err
	}
	_, err := tx.read(key(sp, t, suffix))
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Put stores v (JSON-encoded; nil stores an empty value) at suffix of table
// t in space sp. A ttl > 0 makes Badger drop the record after ttl.
func (tx *Txn) Put(sp tenancy.Space, t Table, suffix []byte, v any, ttl time.Duration) error {
	if err := tx.check(sp); err != nil {
		return err
	}
	var val []byte
	if v != nil {
		var err error
		if val, err = json.Marshal(v); err != nil {
			return fmt.Errorf("store: encode: %w", err)
		}
	}
	return tx.write(key(sp, t, suffix), val, false, ttl)
}

// GetRaw returns a copy of the raw (not JSON) value at suffix of table t in
// space sp, or ErrNotFound. With PutRaw it serves small hot records that
// are cheaper to encode by hand.
func (tx *Txn) GetRaw(sp tenancy.Space, t Table, suffix []byte) ([]byte, error) {
	if err := tx.check(sp); err != nil {
		return nil, err
	}
	item, err := tx.read(key(sp, t, suffix))
	if err != nil {
		return nil, err
	}
	if item.own {
		return slices.Clone(item.raw), nil
	}
	var out []byte
	err = item.v.Value(func(b []byte) error { out = slices.Clone(b); return nil })
	return out, err
}

// ReadRaw calls fn with the raw (not JSON) value at suffix of table t in
// space sp, valid only during the call: GetRaw without the copy, for a
// reader that decodes the value at once. It returns ErrNotFound when
// there is none, else fn's error.
func (tx *Txn) ReadRaw(sp tenancy.Space, t Table, suffix []byte, fn func([]byte) error) error {
	if err := tx.check(sp); err != nil {
		return err
	}
	item, err := tx.read(key(sp, t, suffix))
	if err != nil {
		return err
	}
	return item.Value(fn)
}

// PutRaw stores b as the value at suffix of table t in space sp.
func (tx *Txn) PutRaw(sp tenancy.Space, t Table, suffix, b []byte) error {
	if err := tx.check(sp); err != nil {
		return err
	}
	k, v := keyValue(sp, t, suffix, b)
	return tx.write(k, v, false, 0)
}

// Delete removes the record at suffix of table t in space sp.
func (tx *Txn) Delete(sp tenancy.Space, t Table, suffix []byte) error {
	if err := tx.check(sp); err != nil {
		return err
	}
	return tx.write(key(sp, t, suffix), nil, true, 0)
}

// ScanOptions shape a Scan.
type ScanOptions struct {
	// Start is a suffix to begin at (inclusive going forward; going in
	// reverse, the scan begins at the last key having Start as prefix).
	Start []byte
	// Reverse scans from the end of the range backwards.
	Reverse bool
	// KeysOnly skips prefetching values.
	KeysOnly bool
}

// Item is one record met by Scan: the engine's, or the transaction's own
// pending write.
type Item struct {
	v   Value
	raw []byte
	own bool
}

// Decode decodes the record's value into v.
func (it Item) Decode(v any) error {
	if it.own {
		return decodeRaw(it.raw, v)
	}
	return decode(it.v, v)
}

// Value calls fn with the record's raw value, valid only during the call.
func (it Item) Value(fn func([]byte) error) error {
	if it.own {
		return fn(it.raw)
	}
	return it.v.Value(fn)
}

// Scan calls fn for every record of table t in space sp whose suffix starts
// with prefix, in key order, until fn returns false or an error. The suffix
// passed to fn is only valid during the call.
func (tx *Txn) Scan(sp tenancy.Space, t Table, prefix []byte, o ScanOptions, fn func(suffix []byte, it Item) (bool, error)) error {
	if err := tx.check(sp); err != nil {
		return err
	}
	full := key(sp, t, prefix) // the table's prefix, then prefix
	tp := full[:len(full)-len(prefix)]
	it := tx.txn.NewIterator(IterOptions{Prefix: full, Reverse: o.Reverse, KeysOnly: o.KeysOnly})
	defer it.Close()
	seek := full
	if o.Start != nil {
		seek = key(sp, t, o.Start)
	}
	if o.Reverse {
		// Seek to just past every key having seek as a prefix.
		seek = append(append([]byte(nil), seek...), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	}
	// Merge Badger's records with the transaction's own writes, which
	// replace (or delete) Badger's record of the same key.
	own := tx.pend.scan(full, seek, o.Reverse)
	before := func(a, b []byte) bool { // a comes first in scan order
		if o.Reverse {
			return bytes.Compare(a, b) > 0
		}
		return bytes.Compare(a, b) < 0
	}
	emit := func(e *pendingEntry) (bool, error) {
		if e.del {
			return true, nil
		}
		return fn(e.key[len(tp):], Item{raw: e.val, own: true})
	}
	for it.Seek(seek); it.Valid(); it.Next() {
		k := it.Key()
		for len(own) > 0 && before(own[0].key, k) {
			if more, err := emit(own[0]); err != nil || !more {
				return err
			}
			own = own[1:]
		}
		if len(own) > 0 && bytes.Equal(own[0].key, k) {
			more, err := emit(own[0])
			if err != nil || !more {
				return err
			}
			own = own[1:]
			continue
		}
		more, err := fn(k[len(tp):], Item{v: it.Value()})
		if err != nil || !more {
			return err
		}
	}
	if err := it.Err(); err != nil {
		return err
	}
	for _, e := range own {
		if more, err := emit(e); err != nil || !more {
			return err
		}
	}
	return nil
}

// Tails returns, in key order, what follows prefix in each key of table t
// in space sp: for index keys ending in an id, the ids.
func (tx *Txn) Tails(sp tenancy.Space, t Table, prefix []byte) ([]string, error) {
	var out []string
	err := tx.Scan(sp, t, prefix, ScanOptions{KeysOnly: true}, func(suffix []byte, _ Item) (bool, error) {
		out = append(out, string(suffix[len(prefix):]))
		return true, nil
	})
	return out, err
}

func decode(item Value, v any) error {
	if v == nil {
		return nil
	}
	return item.Value(func(val []byte) error { return decodeRaw(val, v) })
}

func decodeRaw(val []byte, v any) error {
	if v == nil {
		return nil
	}
	if err := json.Unmarshal(val, v); err != nil {
		return fmt.Errorf("store: decode: %w", err)
	}
	return nil
}

// Due is one entry of the due schedule: the record Ref of organization Org
// falls due at At.
type Due struct {
	Org string
	At  time.Time
	Ref string
}

// Schedule records, in queue, that the record ref of the transaction's
// organization falls due at at. Background work (the lease sweep) finds it
// with DueBefore; the organization always comes from the transaction's
// partition, never from the caller.
func (tx *Txn) Schedule(queue string, at time.Time, ref string) error {
	if tx.p.Org() == "" {
		return ErrForeignSpace
	}
	return tx.write(dueKey(queue, at, tx.p.Org(), ref), nil, false, 0)
}

// Unschedule removes an entry Schedule made; removing a missing entry is
// not an error.
func (tx *Txn) Unschedule(queue string, at time.Time, ref string) error {
	if tx.p.Org() == "" {
		return ErrForeignSpace
	}
	return tx.write(dueKey(queue, at, tx.p.Org(), ref), nil, true, 0)
}

// DueBefore returns up to limit entries of queue due at or before t, of
// every organization, earliest first. Acting on one needs a transaction of
// that organization (tenancy.Background).
func (s *Store) DueBefore(ctx context.Context, queue string, t time.Time, limit int) ([]Due, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Due
	prefix := duePrefix(queue)
	err := s.view(ctx, func(txn EngineTxn) error {
		it := txn.NewIterator(IterOptions{Prefix: prefix, KeysOnly: true})
		defer it.Close()
		for it.Seek(prefix); it.Valid() && len(out) < limit; it.Next() {
			r := NewReader(it.Key()[len(prefix):])
			d := Due{At: r.Time()}
			d.Org = r.Str()
			d.Ref = r.Rest()
			if err := r.Err(); err != nil {
				return err
			}
			if d.At.After(t) {
				return nil
			}
			out = append(out, d)
		}
		return it.Err()
	})
	return out, err
}
