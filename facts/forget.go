package facts

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Readable is the read rule of restrictedTo as a value, for readers that
// already hold the fact (context assembly).
type Readable struct{ s *Service }

// Readable returns the service's read rule.
func (s *Service) Readable() Readable { return Readable{s} }

// Visible reports whether caller may read f.
func (r Readable) Visible(caller authority.Identity, f Fact) bool { return r.s.visible(caller, f) }

// ActionForgotten is the audit action of forgetting a fact.
const ActionForgotten = "FORGOTTEN"

// erased is the value a forgotten fact keeps: the empty string.
var erased = json.RawMessage(`""`)

// Forget erases the value of the caller's user-memory fact id, in one
// transaction, and returns its tombstone. The record stays in history,
// never valid again, with who forgot it and when; its supersession reason
// and cue are erased too, so is what listeners derived from its text (the
// search index, through ForgetListener), facts derived from it are flagged
// for review, and the audit trail gains a FORGOTTEN entry. Only user memory can be
// forgotten, by its owner (the only caller whose partition reaches it).
func (s *Service) Forget(ctx context.Context, id string) (Fact, error) {
	caller, err := authority.FromContext(ctx)
	if err != nil {
		return Fact{}, err
	}
	p, err := tenancy.For(caller)
	if err != nil {
		return Fact{}, err
	}
	var out Fact
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		f, sp, err := s.findVisible(tx, caller, id)
		if errors.Is(err, store.ErrNotFound) {
			return fault.New(fault.NotFound, "no fact with id %q", id)
		}
		if err != nil {
			return err
		}
		if f.MemoryType != MemoryUser {
			return fault.New(fault.Forbidden, "only user memory can be forgotten; fact %q is %s memory", id, f.MemoryType)
		}
		if f.Forgotten != nil {
			return fault.New(fault.Conflict, "fact %q was already forgotten", id)
		}
		for _, l := range s.listeners {
			if fl, ok := l.(ForgetListener); ok {
				if err := fl.FactForgotten(tx, f); err != nil {
					return err
				}
			}
		}
		now := s.clock.Now()
		f.Value = erased
		f.Forgotten = &Tombstone{By: audit.Actor(caller), At: now}
		if f.Supersession != nil {
			f.Supersession.Reason, f.Supersession.Cue = "", ""
		}
		if err := s.put(tx, sp, f); err != nil {
			return err
		}
		if err := s.flagDerived(tx, f.ID, now); err != nil {
			return err
		}
		if err := audit.Record(tx, sp, audit.Entry{
			At: now, Actor: audit.Actor(caller), Action: ActionForgotten, Record: f.ID, Kind: "fact",
		}); err != nil {
			return err
		}
		out = f
		return nil
	})
	return out, err
}
