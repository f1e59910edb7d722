package pipeline

import (
	"context"
	"errors"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Forget erases the value of the caller's user-memory fact id, in one
// transaction, and returns its tombstone. The record stays in history,
// never valid again, with who forgot it and when; its supersession reason
// and cue are erased too, and so is what the index derived from its text;
// facts derived from it are flagged for review, and the audit trail gains
// a FORGOTTEN entry. Only user memory can be forgotten, by its owner (the
// only caller whose partition reaches it).
//
// It runs the stages a write does, for erasure: admit (the fact exists,
// is readable, is user memory, is not forgotten yet), link (it leaves the
// valid heads; derived facts need review), index (postings erased, and
// whatever the erasers keep of its text), observe (audit, observers).
func (p *Pipeline) Forget(ctx context.Context, id string) (facts.Fact, error) {
	caller, part, err := tenancy.Caller(ctx)
	if err != nil {
		return facts.Fact{}, err
	}
	var out facts.Fact
	err = p.store.Update(ctx, part, func(tx *store.Txn) error {
		f, sp, err := p.facts.FindVisible(tx, caller, id)
		if errors.Is(err, store.ErrNotFound) {
			return fault.New(fault.NotFound, "no fact with id %q", id)
		}
		if err != nil {
			return err
		}
		if f.MemoryType != facts.MemoryUser {
			return fault.New(fault.Forbidden, "only user memory can be forgotten; fact %q is %s memory", id, f.MemoryType)
		}
		if f.Forgotten != nil {
			return fault.New(fault.Conflict, "fact %q was already forgotten", id)
		}
		if p.index != nil {
			if err := p.index.FactForgotten(tx, f); err != nil {
				return err
			}
		}
		for _, e := range p.erasers {
			if err := e.FactForgotten(tx, f); err != nil {
				return err
			}
		}
		if err := p.facts.Unlist(tx, sp, f); err != nil {
			return err
		}
		now := p.clock.Now()
		f.Value = facts.Erased
		f.Forgotten = &facts.Tombstone{By: audit.Actor(caller), At: now}
		if f.Supersession != nil {
			f.Supersession.Reason, f.Supersession.Cue = "", ""
		}
		if err := p.facts.Put(tx, sp, f); err != nil {
			return err
		}
		if err := p.facts.FlagDerived(tx, f.ID, now); err != nil {
			return err
		}
		e := Event{Kind: ActionForgotten, Fact: f, Org: part.Org(), Actor: audit.Actor(caller), At: now}
		if err := audit.Record(tx, sp, audit.Entry{
			ID: audit.NewID(p.ids), At: now, Actor: e.Actor, Action: string(ActionForgotten), Record: f.ID, Kind: "fact",
		}); err != nil {
			return err
		}
		p.notify(tx, e)
		out = f
		return nil
	})
	return out, err
}
