package pipeline

import (
	"errors"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
)

// ActionRevoked: a fact lost a conflict and a decision retired it.
const ActionRevoked Action = "REVOKED"

// RevokeTx retires the fact id, which the decision r (made at r.At; its
// Actor is set here) did not keep, inside tx: its valid time ends at now (at its validFrom when that
// is later, so it was never valid), no successor is written, and the fact
// records the decision (facts.Revocation). It runs the stages a
// supersession does for the retired fact: admit (the caller may read it
// and its authority does not rank above the caller's: else FORBIDDEN),
// link (it leaves the valid heads; facts derived from it need review),
// index (its postings move to history), observe (a REVOKED audit entry
// naming the decision, observers). A fact no longer valid is left alone
// and ok is false.
func (p *Pipeline) RevokeTx(tx *store.Txn, caller authority.Identity, id string, r facts.Revocation) (f facts.Fact, ok bool, err error) {
	f, sp, err := p.facts.FindVisible(tx, caller, id)
	if errors.Is(err, store.ErrNotFound) {
		return facts.Fact{}, false, nil
	}
	if err != nil {
		return facts.Fact{}, false, err
	}
	if !f.IsValid() || f.SupersededBy != "" || f.SupersededAt != nil {
		return f, false, nil
	}
	if !p.rules.Supersedes(caller.Authority, f.Source.Authority) {
		return facts.Fact{}, false, fault.New(fault.Forbidden, "fact %q was written with authority %s, above yours (%s): a decision cannot retire it",
			f.ID, p.rules.Describe(f.Source.Authority), p.rules.Describe(caller.Authority))
	}
	now, actor := r.At, audit.Actor(caller)
	r.Actor = actor
	if err := p.facts.Unlist(tx, sp, f); err != nil {
		return facts.Fact{}, false, err
	}
	end := now
	if f.ValidFrom.After(end) {
		end = f.ValidFrom
	}
	f.ValidTo, f.SupersededAt = &end, &now
	f.Revoked = &r
	if err := p.facts.Put(tx, sp, f); err != nil {
		return facts.Fact{}, false, err
	}
	if err := p.facts.FlagDerived(tx, f.ID, now); err != nil {
		return facts.Fact{}, false, err
	}
	if p.index != nil {
		if err := p.index.FactRetired(tx, f); err != nil {
			return facts.Fact{}, false, err
		}
	}
	if err := audit.Record(tx, sp, audit.Entry{
		ID: audit.NewID(p.ids), At: now, Actor: actor, Action: string(ActionRevoked), Record: f.ID, Kind: "fact", By: r.Decision, Detail: r.Reason,
	}); err != nil {
		return facts.Fact{}, false, err
	}
	p.notify(tx, Event{Kind: ActionRevoked, Fact: f, Org: tx.Partition().Org(), Actor: actor, At: now})
	return f, true, nil
}
