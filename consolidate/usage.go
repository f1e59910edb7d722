package consolidate

import (
	"context"
	"sync"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// maxPendingUsage bounds the usage marks kept in memory between flushes;
// beyond it new marks are dropped (a dropped mark can only make an event
// look less used, and pruning waits for the stale-after period anyway).
const maxPendingUsage = 1 << 16

// Usage records which capability facts assembled contexts included. It is
// cheap on the read path: Used only notes the ids in memory; the marks
// reach the store (TableFactUsage, in the capability's space) when a run
// of that capability starts, on every tick of the background
// consolidator, and on Close. It is safe for concurrent use.
type Usage struct {
	mu      sync.Mutex
	pending map[usageKey]time.Time
}

type usageKey struct{ org, capability, id string }

func newUsage() *Usage { return &Usage{pending: map[usageKey]time.Time{}} }

// Used notes that a context assembled at at for partition p included the
// facts ids. Only partitions with a capability are noted: no other
// caller's context can include capability memory.
func (u *Usage) Used(p tenancy.Partition, at time.Time, ids []string) {
	sp, ok := p.Capability()
	if !ok || len(ids) == 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, id := range ids {
		k := usageKey{sp.Org(), sp.Owner(), id}
		if prev, ok := u.pending[k]; ok {
			if at.After(prev) {
				u.pending[k] = at
			}
			continue
		}
		if len(u.pending) < maxPendingUsage {
			u.pending[k] = at
		}
	}
}

// take removes and returns the pending marks of one capability, or of
// every capability when org is "".
func (u *Usage) take(org, capability string) map[usageKey]time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := map[usageKey]time.Time{}
	for k, at := range u.pending {
		if org == "" || k.org == org && k.capability == capability {
			out[k] = at
			delete(u.pending, k)
		}
	}
	return out
}

// flushUsage writes the pending usage marks of p's capability, in one
// transaction of their own.
func (s *Service) flushUsage(ctx context.Context, p tenancy.Partition) error {
	sp, _ := p.Capability()
	marks := s.usage.take(sp.Org(), sp.Owner())
	if len(marks) == 0 {
		return nil
	}
	return s.writeUsage(ctx, p, marks)
}

// FlushUsage writes every pending usage mark, one transaction per
// capability.
func (s *Service) FlushUsage(ctx context.Context) error {
	byCap := map[[2]string]map[usageKey]time.Time{}
	for k, at := range s.usage.take("", "") {
		c := [2]string{k.org, k.capability}
		if byCap[c] == nil {
			byCap[c] = map[usageKey]time.Time{}
		}
		byCap[c][k] = at
	}
	for c, marks := range byCap {
		p, err := tenancy.BackgroundCapability(c[0], c[1])
		if err != nil {
			return err
		}
		if err := s.writeUsage(ctx, p, marks); err != nil {
			return err
		}
	}
	return nil
}

// writeUsage stores marks (of p's capability): for each fact of the
// capability's space, the latest time it was used.
func (s *Service) writeUsage(ctx context.Context, p tenancy.Partition, marks map[usageKey]time.Time) error {
	sp, _ := p.Capability()
	return s.store.Update(ctx, p, func(tx *store.Txn) error {
		for k, at := range marks {
			if _, ok, err := facts.LoadTx(tx, sp, k.id); err != nil || !ok {
				if err != nil {
					return err
				}
				continue // not capability memory
			}
			suffix := store.Suffix(nil).Raw(k.id)
			prev, err := tx.GetRaw(sp, store.TableFactUsage, suffix)
			if err == nil {
				if t, err := temporal.DecodeKey(prev); err == nil && !at.After(t) {
					continue
				}
			} else if err != store.ErrNotFound {
				return err
			}
			if err := tx.PutRaw(sp, store.TableFactUsage, suffix, temporal.AppendKey(nil, at)); err != nil {
				return err
			}
		}
		return nil
	})
}

// readUsage returns the last use of every fact of sp that was used.
func readUsage(tx *store.Txn, sp tenancy.Space) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	err := tx.Scan(sp, store.TableFactUsage, nil, store.ScanOptions{}, func(suffix []byte, it store.Item) (bool, error) {
		id := string(suffix)
		return true, it.Value(func(b []byte) error {
			t, err := temporal.DecodeKey(b)
			if err != nil {
				return err
			}
			out[id] = t
			return nil
		})
	})
	return out, err
}
