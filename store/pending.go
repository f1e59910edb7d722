package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Pending writes.
//
// A read-write Txn keeps its writes here, not in Badger's transaction, until
// it commits. Badger copies and sorts every pending write of a transaction
// each time the transaction opens an iterator (newPendingWritesIterator),
// so a transaction that writes n records and scans after each write (a
// batch of facts: a supersession looks its key up, the search index reads
// its postings) costs O(n² log n). Here the writes are kept sorted as they
// come (a sorted run and a small unsorted tail merged into it now and
// then), so a scan reads only the pending keys in its range.
//
// Reads see the transaction's own writes first, then Badger's snapshot;
// what Badger reads still counts for its conflict detection, and every
// write is handed to Badger (and counted against its transaction size) at
// commit.

// pendingTail is how many unsorted writes are kept before they are merged
// into the sorted run.
const pendingTail = 128

// pendingEntry is the latest write of one key.
type pendingEntry struct {
	key []byte
	val []byte
	del bool
	ttl time.Duration
}

type pendingWrites struct {
	byKey  map[string]*pendingEntry
	order  []*pendingEntry // first-write order, for commit
	sorted []*pendingEntry // by key
	tail   []*pendingEntry // not yet in sorted
}

func newPendingWrites() *pendingWrites {
	return &pendingWrites{byKey: map[string]*pendingEntry{}}
}

// set records a write of k (a put, or a delete when del).
func (p *pendingWrites) set(k, v []byte, del bool, ttl time.Duration) {
	if e, ok := p.byKey[string(k)]; ok {
		e.val, e.del, e.ttl = v, del, ttl
		return
	}
	e := &pendingEntry{key: k, val: v, del: del, ttl: ttl}
	p.byKey[string(k)] = e
	p.order = append(p.order, e)
	p.tail = append(p.tail, e)
	if len(p.tail) > pendingTail {
		p.merge()
	}
}

func byKey(a, b *pendingEntry) int { return bytes.Compare(a.key, b.key) }

// merge moves the tail into the sorted run.
func (p *pendingWrites) merge() {
	slices.SortFunc(p.tail, byKey)
	out := make([]*pendingEntry, 0, len(p.sorted)+len(p.tail))
	i, j := 0, 0
	for i < len(p.sorted) && j < len(p.tail) {
		if byKey(p.sorted[i], p.tail[j]) <= 0 {
			out = append(out, p.sorted[i])
			i++
		} else {
			out = append(out, p.tail[j])
			j++
		}
	}
	out = append(append(out, p.sorted[i:]...), p.tail[j:]...)
	p.sorted, p.tail = out, p.tail[:0]
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
	i, _ := slices.BinarySearchFunc(p.sorted, prefix, func(e *pendingEntry, k []byte) int { return bytes.Compare(e.key, k) })
	for ; i < len(p.sorted) && bytes.HasPrefix(p.sorted[i].key, prefix); i++ {
		if in(p.sorted[i].key) {
			out = append(out, p.sorted[i])
		}
	}
	n := len(out)
	for _, e := range p.tail {
		if in(e.key) {
			out = append(out, e)
		}
	}
	if len(out) > n {
		slices.SortFunc(out, byKey)
	}
	if reverse {
		slices.Reverse(out)
	}
	return out
}

// apply hands the writes to Badger's transaction, before its commit.
func (p *pendingWrites) apply(txn *badger.Txn) error {
	for _, e := range p.order {
		var err error
		if e.del {
			err = txn.Delete(e.key)
		} else {
			be := badger.NewEntry(e.key, e.val)
			if e.ttl > 0 {
				be = be.WithTTL(e.ttl)
			}
			err = txn.SetEntry(be)
		}
		if err != nil {
			return fmt.Errorf("store: put: %w", err)
		}
	}
	return nil
}

// errReadOnly is returned by a write in a View transaction.
var errReadOnly = fmt.Errorf("store: write: %w", badger.ErrReadOnlyTxn)

// write records a write of k in tx.
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
	item, err := tx.txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return Item{}, ErrNotFound
	}
	if err != nil {
		return Item{}, fmt.Errorf("store: get: %w", err)
	}
	return Item{item: item}, nil
}
