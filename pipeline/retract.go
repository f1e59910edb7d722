package pipeline

import (
	"errors"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
)

// ActionRetracted: a fact was taken back without a successor.
const ActionRetracted Action = "RETRACTED"

// ErrOutranked is returned by RetractTx when the fact's authority ranks
// above the caller's: a lower authority cannot take it back.
var ErrOutranked = errors.New("pipeline: the fact's authority ranks above the caller's")

// Retraction is what takes a fact back: why, the words that said so, and
// the record that said them (a turn id).
type Retraction struct {
	Reason, Cue, By string
}

// RetractTx takes back the valid fact id inside tx, as a correction with
// no successor: the fact was never true. It runs the stages a
// supersession does for the retired fact: admit (the caller may read it,
// it is valid, and the caller's authority is not below the fact's: else
// ErrOutranked), link (it leaves the valid heads; facts derived from it
// need review), index (its postings move to history), observe (a
// RETRACTED audit entry, observers). It returns the fact as it now stands.
func (p *Pipeline) RetractTx(tx *store.Txn, caller authority.Identity, id string, r Retraction) (facts.Fact, error) {
	f, sp, err := p.facts.FindVisible(tx, caller, id)
	if errors.Is(err, store.ErrNotFound) {
		return facts.Fact{}, fault.New(fault.NotFound, "no fact with id %q", id)
	}
	if err != nil {
		return facts.Fact{}, err
	}
	if !f.IsValid() || f.SupersededBy != "" || f.Retracted != nil {
		return facts.Fact{}, fault.New(fault.Conflict, "fact %q is not valid; only a valid fact can be retracted", id)
	}
	if !p.rules.Supersedes(caller.Authority, f.Source.Authority) {
		return facts.Fact{}, ErrOutranked
	}
	now := p.clock.Now()
	actor := audit.Actor(caller)
	if err := p.facts.Unlist(tx, sp, f); err != nil {
		return facts.Fact{}, err
	}
	never := f.ValidFrom
	f.ValidTo, f.SupersededAt = &never, &now
	f.Retracted = &facts.Retraction{By: r.By, Reason: r.Reason, Cue: r.Cue, Actor: actor, At: now}
	if err := p.facts.Put(tx, sp, f); err != nil {
		return facts.Fact{}, err
	}
	if err := p.facts.FlagDerived(tx, f.ID, now); err != nil {
		return facts.Fact{}, err
	}
	if p.index != nil {
		if err := p.index.FactRetired(tx, f); err != nil {
			return facts.Fact{}, err
		}
	}
	if err := audit.Record(tx, sp, audit.Entry{
		ID: audit.NewID(p.ids), At: now, Actor: actor, Action: string(ActionRetracted), Record: f.ID, Kind: "fact", By: r.By, Detail: r.Reason,
	}); err != nil {
		return facts.Fact{}, err
	}
	p.notify(tx, Event{Kind: ActionRetracted, Fact: f, Org: tx.Partition().Org(), Actor: actor, At: now})
	return f, nil
}
