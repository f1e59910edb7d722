package facts

import (
	"context"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// MaxBatch is the most facts one WriteBatch records.
const MaxBatch = 1000

// WriteBatch records the facts ins for the caller in ctx, in order and in
// one transaction: all of them or none. Each is written exactly as Write
// would write it alone, after the ones before it, so that an item may
// supersede (by id or by key) or depend on a fact an earlier item wrote.
//
// An item's error fails the whole batch; it comes back as a
// *fault.ItemError naming the item's 0-based index. An empty batch, or one
// of more than MaxBatch items, is BAD_USER_INPUT; so is a batch whose
// records do not fit in one transaction (the store's error asks the caller
// to split it).
func (s *Service) WriteBatch(ctx context.Context, ins []WriteInput) ([]Fact, error) {
	switch {
	case len(ins) == 0:
		return nil, fault.BadInputf("input", "a batch needs at least one fact")
	case len(ins) > MaxBatch:
		return nil, fault.BadInputf("input", "a batch holds at most %d facts, this one has %d: split it", MaxBatch, len(ins))
	}
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Fact, len(ins))
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		for i, in := range ins {
			f, _, err := s.writeTx(tx, caller, in)
			if err != nil {
				return fault.AtIndex(i, err)
			}
			out[i] = f
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
