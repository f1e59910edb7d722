package store

import (
	"context"
	"errors"
	"time"

	"github.com/stategraph/stategraph/fault"
)

// The storage engine.
//
// A Store keeps its records in an Engine: an ordered key-value store with
// transactions. Everything above the store (keys, partitions, pending
// writes, deferred work, retries, backups) is the Store's and the same on
// every engine; an engine only reads, iterates and commits. Badger
// (badger.go) is the default and embedded engine; package
// store/tikvstore runs the same store on a TiKV cluster.
//
// An engine's transactions must be serializable for what the store uses
// them for: a read-write transaction fails to commit (ErrConflict) when a
// key it read or wrote was committed by another transaction after it
// began. Badger checks this itself; a TiKV transaction locks the keys it
// read at commit.

// Engine is an ordered, transactional key-value store.
type Engine interface {
	// Begin starts a transaction that sees a snapshot of the committed
	// keys; update makes it read-write. ctx bounds the transaction's
	// reads and its commit.
	Begin(ctx context.Context, update bool) (EngineTxn, error)
	// Close releases the engine; it is called once, last.
	Close() error
}

// EngineTxn is one transaction of an Engine. Store uses it from one
// goroutine at a time.
type EngineTxn interface {
	// Get returns the value of key, or an error wrapping ErrNotFound.
	Get(key []byte) (Value, error)
	// NewIterator returns an iterator over the keys having prefix.
	NewIterator(o IterOptions) EngineIterator
	// Set writes key with value; a ttl > 0 makes the key expire (and
	// disappear from reads) after ttl.
	Set(key, value []byte, ttl time.Duration) error
	// Delete removes key.
	Delete(key []byte) error
	// Commit commits the transaction's writes, all or none. It returns
	// an error wrapping ErrConflict when a concurrent transaction
	// committed a key this one read or wrote, ErrTooBig when the
	// transaction is too large, ErrUnavailable when the engine cannot be
	// reached.
	Commit() error
	// Discard ends the transaction; after Commit it does nothing.
	Discard()
}

// IterOptions shape an EngineIterator.
type IterOptions struct {
	// Prefix bounds the iteration: only keys having it are met.
	Prefix []byte
	// Reverse iterates in decreasing key order.
	Reverse bool
	// KeysOnly says that values will not be read (Badger then skips
	// prefetching them).
	KeysOnly bool
}

// EngineIterator walks the keys of an IterOptions.Prefix in order.
type EngineIterator interface {
	// Seek moves to the first key >= key (<= key in reverse).
	Seek(key []byte)
	// Valid reports whether the iterator is on a key having the prefix.
	Valid() bool
	// Key returns the current key, valid until Next.
	Key() []byte
	// Value returns the current value, valid until Next.
	Value() Value
	Next()
	// Err returns the error that ended the iteration, if any.
	Err() error
	Close()
}

// Value is a record's value, read on demand.
type Value interface {
	// Value calls fn with the raw value, valid only during the call.
	Value(fn func([]byte) error) error
}

// Errors engines return (wrapped), and the store turns into its own.
var (
	// ErrConflict: a concurrent transaction committed a key the
	// transaction read or wrote; the store runs the transaction again.
	ErrConflict = errors.New("store: transaction conflict")
	// ErrTooBig: the transaction exceeds the engine's size limit.
	ErrTooBig = errors.New("store: transaction too big")
	// ErrUnavailable: the engine cannot be reached (a TiKV cluster that
	// lost its quorum or is down). Nothing of the transaction was
	// committed. It is UNAVAILABLE in GraphQL.
	ErrUnavailable = &fault.Error{Kind: fault.Unavailable, Msg: "the storage cluster is unavailable; nothing was changed, retry in a moment"}
)

// Bytes is a Value held in memory.
type Bytes []byte

// Value calls fn with b.
func (b Bytes) Value(fn func([]byte) error) error { return fn(b) }

// ExpiresAt returns when a record written now with ttl expires, in Unix
// seconds as backups record it (0: never), rounding as Badger does.
func ExpiresAt(now time.Time, ttl time.Duration) uint64 {
	if ttl <= 0 {
		return 0
	}
	return uint64(now.Add(ttl).Unix())
}

// Expired reports whether a record expiring at expiresAt (Unix seconds, 0
// for never) has expired at now, as Badger decides it.
func Expired(expiresAt uint64, now time.Time) bool {
	return expiresAt != 0 && expiresAt <= uint64(now.Unix())
}
