package store

import (
	"crypto/rand"
	"errors"

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
func (tx *Txn) Epoch(sp tenancy.Space, t Table) (string, error) {
	var epoch string
	err := tx.ReadRaw(sp, t, nil, func(b []byte) error { epoch = string(b); return nil })
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	return epoch, err
}
