// Package tikvstore runs stategraph's store on a TiKV cluster: a
// store.Engine on the transactional API of github.com/tikv/client-go/v2.
//
// Every key of the store is written under a prefix (Options.Prefix), so
// several stategraph deployments, or other programs, can share a cluster.
// Each store transaction is one TiKV transaction (optimistic, two-phase
// commit). Optimistic commit alone detects only write-write conflicts, so
// at commit a read-write transaction also locks (LockKeys) every key it
// read and did not write: a concurrent commit of any of them makes the
// commit fail with a write conflict, which the store retries. That is the
// conflict rule of Badger, the embedded engine, so both engines give the
// same answers to the same requests (no write skew: two concurrent
// supersessions of one fact form one chain).
//
// TiKV's transactional API has no TTL: a record written with one carries
// its expiry (Unix seconds) in a header of its value, and reads skip it
// once expired. Errors of an unreachable cluster are store.ErrUnavailable
// (UNAVAILABLE in GraphQL); nothing of a transaction that failed so is
// visible.
package tikvstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	tikverr "github.com/tikv/client-go/v2/error"
	tikvkv "github.com/tikv/client-go/v2/kv"
	"github.com/tikv/client-go/v2/oracle"
	"github.com/tikv/client-go/v2/tikv"
	"github.com/tikv/client-go/v2/txnkv"
	"github.com/tikv/client-go/v2/txnkv/transaction"
	"go.uber.org/zap/zapcore"

	pingcaplog "github.com/pingcap/log"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
)

// DefaultPrefix is the prefix of every key when Options.Prefix is empty.
const DefaultPrefix = "stategraph/"

// DefaultConnectTimeout bounds Open when Options.ConnectTimeout is 0.
const DefaultConnectTimeout = 10 * time.Second

// Options configure Open.
type Options struct {
	// PDEndpoints are the addresses (host:port) of the cluster's PD
	// servers.
	PDEndpoints []string
	// Prefix is written before every key (DefaultPrefix when empty).
	Prefix string
	// ConnectTimeout bounds the connection to PD at Open.
	ConnectTimeout time.Duration
	// OpTimeout bounds each read and each commit (DefaultOpTimeout when
	// 0): a cluster that does not answer within it is unavailable.
	OpTimeout time.Duration
	Logger    *slog.Logger
}

// latches is the number of local latch slots (keys hash onto them).
const latches = 1 << 16

// DefaultOpTimeout is the default Options.OpTimeout.
const DefaultOpTimeout = 10 * time.Second

// Engine is a store.Engine on TiKV. It is safe for concurrent use.
type Engine struct {
	kv        *tikv.KVStore
	prefix    []byte
	logger    *slog.Logger
	close     func() error
	closeOnce sync.Once
	opTimeout time.Duration
	// down is set when an operation found the cluster unavailable, and
	// cleared by the first probe that reaches it again: while it is set,
	// Begin probes (a read bounded by OpTimeout) instead of letting each
	// request wait for the client's own retries.
	down atomic.Bool

	begun, committed, conflicts, unavailable, lockedKeys, gets, seeks atomic.Uint64
}

// Open connects to the cluster whose PD servers are o.PDEndpoints. When
// no PD answers within o.ConnectTimeout it returns an error naming the
// endpoints.
func Open(o Options) (*Engine, error) {
	if len(o.PDEndpoints) == 0 {
		return nil, errors.New("tikvstore: no PD endpoint: pass --pd-endpoints host:2379,... (or STATEGRAPH_PD_ENDPOINTS)")
	}
	for _, ep := range o.PDEndpoints {
		if ep == "" || strings.ContainsAny(ep, " \t") {
			return nil, fmt.Errorf("tikvstore: bad PD endpoint %q: want host:port", ep)
		}
	}
	timeout := o.ConnectTimeout
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
	}
	quietClientLogs()
	type result struct {
		c   *txnkv.Client
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := txnkv.NewClient(o.PDEndpoints)
		done <- result{c, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(timeout):
		go func() { // close a client that connects too late
			if r := <-done; r.c != nil {
				_ = r.c.Close()
			}
		}()
		return nil, fmt.Errorf("tikvstore: no PD server answered at %s within %s: check --pd-endpoints and that the cluster is up", strings.Join(o.PDEndpoints, ","), timeout)
	}
	if r.err != nil {
		return nil, fmt.Errorf("tikvstore: connect to PD at %s: %w", strings.Join(o.PDEndpoints, ","), r.err)
	}
	e := newEngine(r.c.KVStore, o)
	e.close = r.c.Close
	return e, nil
}

func newEngine(kv *tikv.KVStore, o Options) *Engine {
	prefix := o.Prefix
	if prefix == "" {
		prefix = DefaultPrefix
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	opTimeout := o.OpTimeout
	if opTimeout <= 0 {
		opTimeout = DefaultOpTimeout
	}
	// Local latches order this process's transactions that write (or
	// lock) the same keys before they reach the cluster, so concurrent
	// requests of one server conflict in memory instead of waiting on
	// each other's locks.
	kv.EnableTxnLocalLatches(latches)
	return &Engine{kv: kv, prefix: []byte(prefix), logger: logger, close: kv.Close, opTimeout: opTimeout}
}

// Close closes the client; closing again does nothing.
func (e *Engine) Close() error {
	var err error
	e.closeOnce.Do(func() {
		if cerr := e.close(); cerr != nil {
			err = fmt.Errorf("tikvstore: close: %w", cerr)
		}
	})
	return err
}

// Stats counts the engine's transactions since it opened.
type Stats struct {
	// Begun and Committed count transactions (Committed: read-write ones
	// whose commit succeeded).
	Begun, Committed uint64
	// Conflicts counts commits refused for a write conflict (the store
	// retries them, within its bound).
	Conflicts uint64
	// Unavailable counts operations that failed because the cluster
	// could not be reached.
	Unavailable uint64
	// LockedKeys counts keys locked at commit because they were read.
	LockedKeys uint64
	// Gets and Seeks count point reads and range scans started: on a
	// cluster, each costs at least one round trip to a TiKV node.
	Gets, Seeks uint64
}

// Stats reports the engine's counters.
func (e *Engine) Stats() Stats {
	return Stats{Begun: e.begun.Load(), Committed: e.committed.Load(), Conflicts: e.conflicts.Load(),
		Unavailable: e.unavailable.Load(), LockedKeys: e.lockedKeys.Load(), Gets: e.gets.Load(), Seeks: e.seeks.Load()}
}

// Begin starts a transaction at a timestamp from PD, within ctx.
func (e *Engine) Begin(ctx context.Context, update bool) (store.EngineTxn, error) {
	t, err := e.begin(ctx, update)
	if err != nil {
		return nil, err
	}
	if e.down.Load() {
		if err := t.probe(); err != nil {
			t.Discard()
			return nil, err
		}
	}
	return t, nil
}

func (e *Engine) begin(ctx context.Context, update bool) (*Txn, error) {
	octx, cancel := context.WithTimeout(ctx, e.opTimeout)
	defer cancel()
	ts, err := e.kv.GetOracle().GetTimestamp(octx, &oracle.Option{TxnScope: oracle.GlobalTxnScope})
	if err != nil {
		return nil, e.classify(ctx, "begin", err)
	}
	txn, err := e.kv.Begin(tikv.WithStartTS(ts))
	if err != nil {
		return nil, e.classify(ctx, "begin", err)
	}
	e.begun.Add(1)
	t := &Txn{e: e, txn: txn, ctx: ctx, update: update}
	if update {
		t.reads, t.writes = map[string]struct{}{}, map[string]struct{}{}
	}
	return t, nil
}

// classify turns a client error into the store's: a write conflict is
// store.ErrConflict, a transaction too large store.ErrTooBig, a context's
// end stays itself, anything else means the cluster could not serve the
// request: store.ErrUnavailable.
func (e *Engine) classify(ctx context.Context, op string, err error) error {
	var tooLarge *tikverr.ErrTxnTooLarge
	var entryTooLarge *tikverr.ErrEntryTooLarge
	var latch *tikverr.ErrWriteConflictInLatch
	switch {
	case err == nil:
		return nil
	case tikverr.IsErrNotFound(err):
		return store.ErrNotFound
	case tikverr.IsErrWriteConflict(err) || errors.As(err, &latch):
		e.conflicts.Add(1)
		return fmt.Errorf("tikvstore: %s: %w", op, store.ErrConflict)
	case errors.As(err, &tooLarge), errors.As(err, &entryTooLarge):
		return fmt.Errorf("tikvstore: %s: %w", op, store.ErrTooBig)
	case tikverr.IsErrorUndetermined(err):
		e.unavailable.Add(1)
		e.down.Store(true)
		e.logger.Error("tikv: commit result undetermined", "op", op, "err", err)
		return fmt.Errorf("tikvstore: %s: %v: %w", op, err, ErrUndetermined)
	case ctx.Err() != nil: // the caller's deadline, not the cluster's
		return fmt.Errorf("tikvstore: %s: %w", op, ctx.Err())
	}
	e.unavailable.Add(1)
	if !e.down.Swap(true) {
		e.logger.Warn("tikv: the cluster is unavailable", "op", op, "err", err)
	}
	return fmt.Errorf("tikvstore: %s: %v: %w", op, err, store.ErrUnavailable)
}

// ErrUndetermined is returned when the cluster failed while committing the
// primary key: the transaction may or may not have committed (all of it or
// none). It is UNAVAILABLE in GraphQL.
var ErrUndetermined = &fault.Error{Kind: fault.Unavailable, Msg: "the storage cluster failed while committing: the change may or may not have been applied; read it back before retrying"}

// Txn is a TiKV transaction.
type Txn struct {
	e      *Engine
	txn    *transaction.KVTxn
	ctx    context.Context
	update bool
	reads  map[string]struct{} // keys read, of a read-write transaction
	writes map[string]struct{} // keys written
	done   bool
}

func (t *Txn) key(k []byte) []byte {
	return append(append(make([]byte, 0, len(t.e.prefix)+len(k)), t.e.prefix...), k...)
}

// probeTimeout bounds the read that checks whether a lost cluster
// answers again (OpTimeout when shorter): a cluster that answers does so
// in milliseconds, and while it is away every request waits this long.
const probeTimeout = time.Second

// probe reads one key within probeTimeout: the cluster answers again, or
// the transaction fails with store.ErrUnavailable.
func (t *Txn) probe() error {
	ctx, cancel := context.WithTimeout(t.ctx, min(probeTimeout, t.e.opTimeout))
	defer cancel()
	_, err := t.txn.Get(ctx, t.key([]byte("\x00probe")))
	if err != nil && !tikverr.IsErrNotFound(err) {
		return t.e.classify(t.ctx, "probe", err)
	}
	if t.e.down.Swap(false) {
		t.e.logger.Info("tikv: the cluster answers again")
	}
	return nil
}

func (t *Txn) read(pk []byte) {
	if t.reads != nil {
		t.reads[string(pk)] = struct{}{}
	}
}

// Get reads key, the transaction's own write first.
func (t *Txn) Get(k []byte) (store.Value, error) {
	pk := t.key(k)
	t.read(pk)
	t.e.gets.Add(1)
	ctx, cancel := context.WithTimeout(t.ctx, t.e.opTimeout)
	defer cancel()
	v, err := t.txn.Get(ctx, pk)
	if err != nil {
		return nil, t.e.classify(t.ctx, "get", err)
	}
	rec, err := decodeValue(v)
	if err != nil {
		return nil, err
	}
	if rec.expired(time.Now()) {
		return nil, store.ErrNotFound
	}
	return rec, nil
}

// Set writes key; a ttl > 0 stores its expiry with the value.
func (t *Txn) Set(k, v []byte, ttl time.Duration) error {
	return t.SetExpiresAt(k, v, store.ExpiresAt(time.Now(), ttl))
}

// SetExpiresAt writes key with an expiry in Unix seconds (0: never).
func (t *Txn) SetExpiresAt(k, v []byte, expiresAt uint64) error {
	pk := t.key(k)
	if t.writes != nil {
		t.writes[string(pk)] = struct{}{}
	}
	if err := t.txn.Set(pk, encodeValue(v, expiresAt)); err != nil {
		return t.e.classify(t.ctx, "put", err)
	}
	return nil
}

// Delete removes key.
func (t *Txn) Delete(k []byte) error {
	pk := t.key(k)
	if t.writes != nil {
		t.writes[string(pk)] = struct{}{}
	}
	if err := t.txn.Delete(pk); err != nil {
		return t.e.classify(t.ctx, "delete", err)
	}
	return nil
}

// Commit locks the keys the transaction read and did not write, then
// commits it. A transaction that wrote nothing commits nothing: its reads
// came from one snapshot.
func (t *Txn) Commit() error {
	if t.done {
		return nil
	}
	t.done = true
	if !t.update || t.txn.Len() == 0 {
		return t.txn.Rollback()
	}
	var locks [][]byte
	for k := range t.reads {
		if _, ok := t.writes[k]; !ok { // a write conflicts by itself
			locks = append(locks, []byte(k))
		}
	}
	ctx, cancel := context.WithTimeout(t.ctx, t.e.opTimeout)
	defer cancel()
	if len(locks) > 0 {
		lockCtx := tikvkv.NewLockCtx(t.txn.StartTS(), tikvkv.LockNoWait, time.Now())
		if err := t.txn.LockKeys(ctx, lockCtx, locks...); err != nil {
			_ = t.txn.Rollback()
			return t.e.classify(t.ctx, "lock", err)
		}
		t.e.lockedKeys.Add(uint64(len(locks)))
	}
	if err := t.txn.Commit(ctx); err != nil {
		return t.e.classify(t.ctx, "commit", err)
	}
	t.e.committed.Add(1)
	return nil
}

// Discard rolls back a transaction that did not commit.
func (t *Txn) Discard() {
	if t.done {
		return
	}
	t.done = true
	_ = t.txn.Rollback()
}

// NewIterator iterates the keys having o.Prefix; expired records are
// skipped.
func (t *Txn) NewIterator(o store.IterOptions) store.EngineIterator {
	return &iterator{t: t, o: o, prefix: t.key(o.Prefix), now: time.Now()}
}

type iterator struct {
	t      *Txn
	o      store.IterOptions
	prefix []byte // with the engine's prefix
	now    time.Time
	it     interface {
		Valid() bool
		Key() []byte
		Value() []byte
		Next() error
		Close()
	}
	rec record
	err error
}

func (i *iterator) Seek(k []byte) {
	i.Close()
	i.t.e.seeks.Add(1)
	pk := i.t.key(k)
	var err error
	if i.o.Reverse {
		// IterReverse meets keys below its argument: k itself is met.
		i.it, err = i.t.txn.IterReverse(append(pk, 0))
	} else {
		i.it, err = i.t.txn.Iter(pk, upperBound(i.prefix))
	}
	if err != nil {
		i.it, i.err = nil, i.t.e.classify(i.t.ctx, "scan", err)
		return
	}
	i.settle()
}

// settle skips expired records and stops at the end of the prefix.
func (i *iterator) settle() {
	for i.it != nil && i.it.Valid() {
		k := i.it.Key()
		if !bytes.HasPrefix(k, i.prefix) {
			i.it.Close()
			i.it = nil
			return
		}
		rec, err := decodeValue(i.it.Value())
		if err != nil {
			i.err = err
			i.it.Close()
			i.it = nil
			return
		}
		i.t.read(k)
		if !rec.expired(i.now) {
			i.rec = rec
			return
		}
		if err := i.it.Next(); err != nil {
			i.err = i.t.e.classify(i.t.ctx, "scan", err)
			i.it.Close()
			i.it = nil
			return
		}
	}
}

func (i *iterator) Valid() bool        { return i.it != nil && i.it.Valid() }
func (i *iterator) Key() []byte        { return i.it.Key()[len(i.t.e.prefix):] }
func (i *iterator) Value() store.Value { return i.rec }
func (i *iterator) Err() error         { return i.err }

func (i *iterator) Next() {
	if err := i.it.Next(); err != nil {
		i.err = i.t.e.classify(i.t.ctx, "scan", err)
		i.it.Close()
		i.it = nil
		return
	}
	i.settle()
}

func (i *iterator) Close() {
	if i.it != nil {
		i.it.Close()
		i.it = nil
	}
}

// upperBound returns the first key after every key having prefix (nil
// when there is none).
func upperBound(prefix []byte) []byte {
	b := bytes.Clone(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return b[:i+1]
		}
	}
	return nil
}

// Values are stored with a one-byte header: 0, then the value; or 1, the
// expiry in Unix seconds (8 bytes, big-endian), then the value. The header
// also keeps every stored value non-empty, which TiKV requires.
const (
	hdrPlain   = 0
	hdrExpires = 1
)

func encodeValue(v []byte, expiresAt uint64) []byte {
	if expiresAt == 0 {
		return append([]byte{hdrPlain}, v...)
	}
	b := make([]byte, 9, 9+len(v))
	b[0] = hdrExpires
	binary.BigEndian.PutUint64(b[1:], expiresAt)
	return append(b, v...)
}

// record is a decoded value: a store.Value and store.Expiring.
type record struct {
	val       []byte
	expiresAt uint64
}

var errBadValue = errors.New("tikvstore: a value without the stategraph header: is the prefix shared with another program?")

func decodeValue(b []byte) (record, error) {
	switch {
	case len(b) >= 1 && b[0] == hdrPlain:
		return record{val: b[1:]}, nil
	case len(b) >= 9 && b[0] == hdrExpires:
		return record{val: b[9:], expiresAt: binary.BigEndian.Uint64(b[1:9])}, nil
	}
	return record{}, errBadValue
}

func (r record) expired(now time.Time) bool        { return store.Expired(r.expiresAt, now) }
func (r record) Value(fn func([]byte) error) error { return fn(r.val) }
func (r record) ExpiresAt() uint64                 { return r.expiresAt }

// quietClientLogs keeps client-go's own logs (zap, info by default) to
// errors: stategraph logs what matters through slog.
func quietClientLogs() { pingcaplog.SetLevel(zapcore.ErrorLevel) }

// Collectors export the engine's counters (Stats) as Prometheus metrics.
func (e *Engine) Collectors() []prometheus.Collector {
	counter := func(name, help string, v *atomic.Uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "stategraph_tikv_" + name, Help: help},
			func() float64 { return float64(v.Load()) })
	}
	return []prometheus.Collector{
		counter("transactions_total", "TiKV transactions begun.", &e.begun),
		counter("commits_total", "TiKV read-write transactions committed.", &e.committed),
		counter("write_conflicts_total", "TiKV commits refused for a write conflict (retried by the store, within its bound).", &e.conflicts),
		counter("unavailable_total", "TiKV operations that failed because the cluster could not be reached.", &e.unavailable),
		counter("locked_read_keys_total", "Keys read by a transaction and locked at its commit, against write skew.", &e.lockedKeys),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "stategraph_tikv_up", Help: "1 while the TiKV cluster answers, 0 after an operation found it unavailable until a probe reaches it again."},
			func() float64 {
				if e.down.Load() {
					return 0
				}
				return 1
			}),
	}
}
