package store

import (
	"crypto/rand"
	"errors"
	"sync"

	"github.com/stategraph/stategraph/tenancy"
)

// TouchEpoch writes a new epoch of table t in space sp: a fresh random
// value at the table's empty suffix, written blindly (concurrent writers
// do not conflict on it on Badger). A package that caches what it read
// under the epoch a snapshot holds, and rewrites the epoch with every
// write of what it caches, in the same transaction, has a cache that never
// answers differently from the store. Several calls in one transaction
// leave one record.
func (tx *Txn) TouchEpoch(sp tenancy.Space, t Table) error {
	epoch := make([]byte, 12)
	_, _ = rand.Read(epoch)
	return tx.PutRaw(sp, t, nil, epoch)
}

// Epoch returns the epoch of table t in space sp as tx sees it (see
// TouchEpoch); "" when the space has none.
//
// In a View the snapshot never changes, so an epoch is read from the
// engine once and then answered from tx's memory: an assembly asks for
// the same card epoch several times (the card reader, the index
// statistics), and each read was an engine lookup. A writable transaction
// reads it every time (its own writes change it).
func (tx *Txn) Epoch(sp tenancy.Space, t Table) (string, error) {
	view := tx.pend == nil
	if view {
		if e, ok := tx.epochs.get(sp, t); ok {
			return e, nil
		}
	}
	var epoch string
	err := tx.ReadRaw(sp, t, nil, func(b []byte) error { epoch = string(b); return nil })
	if errors.Is(err, ErrNotFound) {
		epoch, err = "", nil
	}
	if err == nil && view {
		tx.epochs.put(sp, t, epoch)
	}
	return epoch, err
}

// epochMemo holds the epochs a View has read. A View's reads may run
// concurrently, so it has a lock.
type epochMemo struct {
	mu   sync.Mutex
	read []epochRead
}

type epochRead struct {
	sp    tenancy.Space
	t     Table
	epoch string
}

func (m *epochMemo) get(sp tenancy.Space, t Table) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.read {
		if r.sp == sp && r.t == t {
			return r.epoch, true
		}
	}
	return "", false
}

func (m *epochMemo) put(sp tenancy.Space, t Table, epoch string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.read {
		if r.sp == sp && r.t == t {
			return
		}
	}
	m.read = append(m.read, epochRead{sp, t, epoch})
}
