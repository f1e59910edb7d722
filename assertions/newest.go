package assertions

import (
	"fmt"
	"sync"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// touchEpoch writes a new assertion epoch of sp in tx: a fresh random
// value, written blindly (concurrent writers do not conflict on it on
// Badger). Every write of an assertion record calls it (Service.put), so
// the newest entries cached under an epoch are the store's for as long as
// a snapshot holds that epoch. Several calls in one transaction leave one
// record.
func touchEpoch(tx *store.Txn, sp tenancy.Space) error {
	if err := tx.TouchEpoch(sp, store.TableAssertionEpoch); err != nil {
		return fmt.Errorf("assertions: epoch: %w", err)
	}
	return nil
}

// newestEntry is one entry of the time index with its record.
type newestEntry struct {
	suffix string // the time-index suffix: createdAt, id
	rec    Assertion
	found  bool // a record was found (loadMany)
}

// newestList is the newest entries of an organization's time index,
// newest first, with their records, as read under one assertion epoch.
// It is never modified once made: readers share it.
type newestList struct {
	epoch   string
	entries []newestEntry
	whole   bool // entries are the whole index
}

// newest remembers, per organization, its newestList under the epoch it
// was read in: every assembly reads the organization's newest
// assertions, the same ones while nothing is asserted. Every write of an
// assertion record writes a new epoch in the same transaction (touchEpoch),
// and the time index is written only with a new record, so a list read
// under the epoch a snapshot holds is that snapshot's. It holds at most
// maxNewestSpaces lists (of at most recentBatch entries, their records
// shared with decoded) and is emptied when full. It is safe for
// concurrent use.
var newest = struct {
	mu     sync.Mutex
	spaces map[tenancy.Space]*newestList
}{spaces: map[tenancy.Space]*newestList{}}

const maxNewestSpaces = 64

// newestOf returns the newest n entries of sp's time index (all of them
// when it holds fewer), read in tx or remembered under the epoch tx
// holds; nil when they are not remembered: tx may write (reading the
// epoch would make each concurrent assertion write a conflict), or sp has
// no epoch.
func newestOf(tx *store.Txn, sp tenancy.Space, n int) (*newestList, error) {
	if tx.Writable() {
		return nil, nil
	}
	epoch, err := tx.Epoch(sp, store.TableAssertionEpoch)
	if err != nil || epoch == "" {
		return nil, err
	}
	newest.mu.Lock()
	l := newest.spaces[sp]
	newest.mu.Unlock()
	if l != nil && l.epoch == epoch && (l.whole || len(l.entries) >= n) {
		return l, nil
	}
	if l, err = readNewest(tx, sp, n); err != nil {
		return nil, err
	}
	l.epoch = epoch
	newest.mu.Lock()
	defer newest.mu.Unlock()
	if len(newest.spaces) >= maxNewestSpaces {
		clear(newest.spaces)
	}
	newest.spaces[sp] = l
	return l, nil
}

// readNewest reads the newest n entries of sp's time index and their
// records.
func readNewest(tx *store.Txn, sp tenancy.Space, n int) (*newestList, error) {
	all, ends, last, err := indexBatch(tx, sp, nil, nil, n)
	if err != nil {
		return nil, err
	}
	ids := idsOf(all, ends)
	buf := recentBufs.Get().(*recentBuf)
	defer buf.release()
	recs, found, err := loadMany(tx, sp, ids, buf)
	if err != nil {
		return nil, err
	}
	l := &newestList{entries: make([]newestEntry, len(ids)), whole: last == nil}
	from := 0
	for i, end := range ends {
		l.entries[i] = newestEntry{suffix: all[from:end], rec: recs[i], found: found[i]}
		from = end
	}
	return l, nil
}
