package pipeline

import (
	"context"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// MaxBatch is the most facts one WriteBatch records.
const MaxBatch = 1000

// recordsPerFact is about how many records the write of one fact stores
// (its record and card, its indexes, its audit entries, its search
// postings and its share of the statistics): a batch's transaction is
// made ready for that many per fact.
const recordsPerFact = 20

// WriteBatch records the facts ins for the caller in ctx, in order and in
// one transaction: all of them or none. Each goes through every stage
// exactly as Write would take it alone, after the ones before it, so that
// an item may supersede (by id or by key) or depend on a fact an earlier
// item wrote.
//
// An item's error fails the whole batch; it comes back as a
// *fault.ItemError naming the item's 0-based index. An empty batch, or one
// of more than MaxBatch items, is BAD_USER_INPUT; so is a batch whose
// records do not fit in one transaction (the store's error asks the caller
// to split it).
func (p *Pipeline) WriteBatch(ctx context.Context, ins []facts.WriteInput) ([]facts.Fact, error) {
	switch {
	case len(ins) == 0:
		return nil, fault.BadInputf("input", "a batch needs at least one fact")
	case len(ins) > MaxBatch:
		return nil, fault.BadInputf("input", "a batch holds at most %d facts, this one has %d: split it", MaxBatch, len(ins))
	}
	caller, part, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]facts.Fact, len(ins))
	err = p.store.Update(ctx, part, func(tx *store.Txn) error {
		tx.Grow(len(ins) * recordsPerFact)
		for i, in := range ins {
			f, err := p.WriteTx(tx, caller, in)
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
