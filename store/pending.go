package store

import (
	"bytes"
	"errors"
	"slices"
	"sync"
	"time"
	"unsafe"
)

// Pending writes.
//
// A read-write Txn keeps its writes here, not in Badger's transaction, until
// it commits. Badger copies and sorts every pending write of a transaction
// each time the transaction opens an iterator (newPendingWritesIterator),
// so a transaction that writes n records and scans after each write (a
// batch of facts: a supersession looks its key up, the search index reads
// its postings) costs O(n² log n). Here the writes are kept sorted as they
// come (in a few sorted runs and a short unsorted tail), so a scan reads
// only the pending keys in its range.
//
// The writes are grouped by table (a key's space and table byte, the
// shortest prefix a scan names), and a table's writes are sorted only once
// a scan has read that table: most of a batch's writes go to tables no
// scan of the transaction reads (search postings, audit entries, fact
// records, statistics), and Badger takes the writes in any order.
//
// Reads see the transaction's own writes first, then Badger's snapshot;
// what Badger reads still counts for its conflict detection, and every
// write is handed to Badger (and counted against its transaction size) at
// commit.

// pendingTail is how many unsorted writes of a table a scan reads one by
// one; beyond that it sorts them into a run first.
const pendingTail = 64

// pendingEntry is the latest write of one key.
type pendingEntry struct {
	key []byte
	val []byte
	del bool
	ttl time.Duration
}

// pendingWrites holds a transaction's writes: by key, in first-write order,
// and for scans by table.
type pendingWrites struct {
	byKey map[string]*pendingEntry
	order []*pendingEntry
	// tables holds the writes by table prefix (tableKeyLen); the writes
	// of keys that name no table are under "".
	tables map[string]*pendingTable
	// last is the table of the latest new key, tested before the map:
	// consecutive writes often go to one table.
	last *pendingTable
	// slab is where the next entries are allocated, pendingSlab at a
	// time rather than one by one.
	slab []pendingEntry
	// tableSlab and tailSlab are where the next tables and the first
	// capacity of their tails are allocated, tableSlab tables at a time:
	// a write of one fact touches about a dozen tables, with a few writes
	// in each.
	tableSlab []pendingTable
	tailSlab  []*pendingEntry
	// first, firstTables and firstTails are the slabs the writes started
	// with, which release empties for the next transaction to take up
	// again; grown is set once grow made room for a batch.
	first       []pendingEntry
	firstTables []pendingTable
	firstTails  []*pendingEntry
	grown       bool
}

// pendingTable holds the writes of one table: for scans in sorted runs of
// decreasing length (each at least twice the next, as in a binary
// counter, so there are O(log n) of them and each write is merged
// O(log n) times) plus an unsorted tail. Until a scan reads the table, its
// writes stay in the tail, unsorted.
type pendingTable struct {
	prefix  string
	runs    [][]*pendingEntry
	tail    []*pendingEntry
	scanned bool
}

// pendingSlab is how many entries are allocated together; a write of one
// fact makes about twenty.
const pendingSlab = 32

// tableSlab is how many tables are allocated together, and tailStart the
// capacity each table's tail starts with (a tail that outgrows it grows as
// any slice does, up to pendingTail once a scan reads the table).
const (
	tableSlab = 16
	tailStart = 8
)

func newPendingWrites() *pendingWrites {
	p := &pendingWrites{
		byKey:       make(map[string]*pendingEntry, pendingSlab),
		order:       make([]*pendingEntry, 0, pendingSlab),
		tables:      make(map[string]*pendingTable, tableSlab),
		first:       make([]pendingEntry, pendingSlab),
		firstTables: make([]pendingTable, tableSlab),
		firstTails:  make([]*pendingEntry, tableSlab*tailStart),
	}
	p.slab, p.tableSlab, p.tailSlab = p.first, p.firstTables, p.firstTails
	return p
}

// Reuse. A write of one fact fills a dozen tables with about thirty
// writes: the slabs, maps and order of its pending writes came to about a
// sixth of the memory a write allocated, and the collector's work with it.
// An ended transaction's pending writes are emptied and kept for the next
// one (pendingPool), unless they grew beyond maxPooledWrites or for a
// batch (grow): the pool holds small ones only.

// pendingPool holds emptied pending writes for reuse.
var pendingPool = sync.Pool{New: func() any { return newPendingWrites() }}

// maxPooledWrites is the most writes of pending writes kept for reuse.
const maxPooledWrites = 4 * pendingSlab

// acquirePendingWrites returns empty pending writes, reused if it can.
func acquirePendingWrites() *pendingWrites { return pendingPool.Get().(*pendingWrites) }

// release keeps p, which its transaction no longer uses and nothing else
// refers to, for reuse when reset empties it.
func (p *pendingWrites) release() {
	if p.reset() {
		pendingPool.Put(p)
	}
}

// reset empties p for reuse, dropping the keys and values it held (handed
// to the engine, never reused), and reports true; or, when p grew for a
// batch or beyond maxPooledWrites, leaves it as it is and reports false.
func (p *pendingWrites) reset() bool {
	if p.grown || cap(p.order) > maxPooledWrites {
		return false
	}
	clear(p.first)
	clear(p.firstTables)
	clear(p.firstTails)
	clear(p.byKey)
	clear(p.tables)
	clear(p.order)
	p.order, p.last = p.order[:0], nil
	p.slab, p.tableSlab, p.tailSlab = p.first, p.firstTables, p.firstTails
	return true
}

// grow makes room for about n more writes.
func (p *pendingWrites) grow(n int) {
	p.grown = true
	m := make(map[string]*pendingEntry, len(p.byKey)+n)
	for k, e := range p.byKey {
		m[k] = e
	}
	p.byKey = m
	p.order = slices.Grow(p.order, n)
	if len(p.slab) < n {
		p.slab = make([]pendingEntry, n)
	}
}

// table returns the writes of the table k belongs to, made on first use.
// k is a key set owns: a new table's prefix is k's own bytes, without a
// copy, as byKey's keys are.
func (p *pendingWrites) table(k []byte) *pendingTable {
	prefix := k[:tableKeyLen(k)]
	if t := p.last; t != nil && t.prefix == string(prefix) {
		return t
	}
	t, ok := p.tables[string(prefix)]
	if !ok {
		t = p.newTable(unsafe.String(unsafe.SliceData(prefix), len(prefix)))
		p.tables[t.prefix] = t
	}
	p.last = t
	return t
}

// newTable returns an empty table of prefix, taken from the slabs.
func (p *pendingWrites) newTable(prefix string) *pendingTable {
	if len(p.tableSlab) == 0 {
		p.tableSlab = make([]pendingTable, tableSlab)
		p.tailSlab = make([]*pendingEntry, tableSlab*tailStart)
	}
	t := &p.tableSlab[0]
	p.tableSlab = p.tableSlab[1:]
	*t = pendingTable{prefix: prefix, tail: p.tailSlab[:0:tailStart]}
	p.tailSlab = p.tailSlab[tailStart:]
	return t
}

// set records a write of k (a put, or a delete when del). It takes
// ownership of k and v: the caller must not change them afterwards (k is
// the map's key without a copy).
func (p *pendingWrites) set(k, v []byte, del bool, ttl time.Duration) {
	if e, ok := p.byKey[string(k)]; ok {
		e.val, e.del, e.ttl = v, del, ttl
		return
	}
	if len(p.slab) == 0 {
		p.slab = make([]pendingEntry, pendingSlab)
	}
	e := &p.slab[0]
	p.slab = p.slab[1:]
	*e = pendingEntry{key: k, val: v, del: del, ttl: ttl}
	p.byKey[unsafe.String(unsafe.SliceData(k), len(k))] = e
	p.order = append(p.order, e)
	t := p.table(k)
	t.tail = append(t.tail, e)
	if t.scanned && len(t.tail) >= pendingTail {
		t.flushTail()
	}
}

func byKey(a, b *pendingEntry) int { return bytes.Compare(a.key, b.key) }

// flushTail sorts the tail into a run and merges the shortest runs while
// the last is not at most half the one before it.
func (t *pendingTable) flushTail() {
	run := slices.Clone(t.tail)
	slices.SortFunc(run, byKey)
	t.tail = t.tail[:0]
	t.runs = append(t.runs, run)
	for n := len(t.runs); n >= 2 && len(t.runs[n-2]) <= 2*len(t.runs[n-1]); n = len(t.runs) {
		t.runs = append(t.runs[:n-2], mergeRuns(t.runs[n-2], t.runs[n-1]))
	}
}

func mergeRuns(a, b []*pendingEntry) []*pendingEntry {
	out := make([]*pendingEntry, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if byKey(a[0], b[0]) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// get returns the pending write of k, if any.
func (p *pendingWrites) get(k []byte) (*pendingEntry, bool) {
	if p == nil {
		return nil, false
	}
	e, ok := p.byKey[string(k)]
	return e, ok
}

// scan returns the pending writes (deletes included) whose key has prefix,
// and is >= from (or <= from in reverse), in scan order.
func (p *pendingWrites) scan(prefix, from []byte, reverse bool) []*pendingEntry {
	if p == nil || len(p.order) == 0 {
		return nil
	}
	in := func(k []byte) bool {
		if !bytes.HasPrefix(k, prefix) {
			return false
		}
		if reverse {
			return bytes.Compare(k, from) <= 0
		}
		return bytes.Compare(k, from) >= 0
	}
	var out []*pendingEntry
	read := func(t *pendingTable) {
		t.scanned = true
		if len(t.tail) >= pendingTail {
			t.flushTail()
		}
		for _, run := range t.runs {
			i, _ := slices.BinarySearchFunc(run, prefix, func(e *pendingEntry, k []byte) int { return bytes.Compare(e.key, k) })
			for ; i < len(run) && bytes.HasPrefix(run[i].key, prefix); i++ {
				if in(run[i].key) {
					out = append(out, run[i])
				}
			}
		}
		for _, e := range t.tail {
			if in(e.key) {
				out = append(out, e)
			}
		}
	}
	if n := tableKeyLen(prefix); n > 0 {
		// Every key with prefix is in that table (tableKeyLen).
		if t, ok := p.tables[string(prefix[:n])]; ok {
			read(t)
		}
	} else {
		for _, t := range p.tables {
			read(t)
		}
	}
	slices.SortFunc(out, byKey)
	if reverse {
		slices.Reverse(out)
	}
	return out
}

// apply hands the writes to the engine's transaction, before its commit.
func (p *pendingWrites) apply(txn EngineTxn) error {
	if r, ok := txn.(interface{ reserve(n int) }); ok {
		sets := 0
		for _, e := range p.order {
			if !e.del {
				sets++
			}
		}
		r.reserve(sets)
	}
	for _, e := range p.order {
		var err error
		if e.del {
			err = txn.Delete(e.key)
		} else {
			err = txn.Set(e.key, e.val, e.ttl)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// errReadOnly is returned by a write in a View transaction.
var errReadOnly = errors.New("store: write in a read-only transaction")

// Grow prepares tx for about n more writes, so that a transaction that
// knows how much it will write (a batch of facts) does not grow its pending
// writes step by step. It is only a hint: tx holds any number of writes
// either way. In a View it does nothing.
func (tx *Txn) Grow(n int) {
	if tx.pend != nil && n > 0 {
		tx.pend.grow(n)
	}
}

// releasePending hands tx's pending writes back for reuse once tx has
// ended (committed, or discarded): tx can no longer read or write them.
func (tx *Txn) releasePending() {
	if p := tx.pend; p != nil {
		tx.pend = nil
		p.release()
	}
}

// write records a write of k in tx, which takes ownership of k and v:
// every caller passes a key and a value made for this write alone.
func (tx *Txn) write(k, v []byte, del bool, ttl time.Duration) error {
	if tx.pend == nil {
		return errReadOnly
	}
	tx.pend.set(k, v, del, ttl)
	return nil
}

// read returns the value of k as tx sees it: its own write, else Badger's.
func (tx *Txn) read(k []byte) (Item, error) {
	if e, ok := tx.pend.get(k); ok {
		if e.del {
			return Item{}, ErrNotFound
		}
		return Item{raw: e.val, own: true}, nil
	}
	v, err := tx.txn.Get(k)
	if err != nil {
		return Item{}, err
	}
	return Item{v: v}, nil
}
