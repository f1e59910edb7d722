package pipeline

import (
	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/store"
)

// The audit actions of writes.
const (
	// ActionWritten: a fact was written.
	ActionWritten Action = "WRITTEN"
	// ActionSuperseded: a fact was retired by a new one (the entry's By);
	// as an event kind, a write that retired a fact.
	ActionSuperseded Action = "SUPERSEDED"
	// ActionStale: a fact was written invalid from birth (stale or
	// outranked).
	ActionStale Action = "STALE"
	// ActionForgotten: a fact's value was erased.
	ActionForgotten Action = "FORGOTTEN"
)

// Action names what happened to a fact, in the audit trail and in events.
type Action string

// observe records the write in the audit trail of the fact's space, in
// the write's transaction, and hands it to the observers once the
// transaction has committed.
func (p *Pipeline) observe(tx *store.Txn, w *write) error {
	e := Event{Kind: ActionWritten, Fact: w.f, Superseded: w.old, Org: tx.Partition().Org(), Actor: audit.Actor(w.caller), At: w.now}
	entry := audit.Entry{ID: audit.NewID(p.ids), At: w.now, Actor: e.Actor, Record: w.f.ID, Kind: "fact"}
	if w.stale {
		e.Kind, entry.Detail = ActionStale, w.f.Stale.Reason
	}
	entry.Action = string(e.Kind)
	if err := audit.Record(tx, w.space, entry); err != nil {
		return err
	}
	if w.old != nil {
		e.Kind = ActionSuperseded
		s := w.f.Supersession
		if err := audit.Record(tx, w.oldSpace, audit.Entry{
			ID: audit.NewID(p.ids), At: w.now, Actor: e.Actor, Action: string(ActionSuperseded), Record: w.old.ID, Kind: "fact",
			By: w.f.ID, Detail: string(s.Kind) + " (" + s.Detection + ")",
		}); err != nil {
			return err
		}
	}
	p.notify(tx, e)
	return nil
}

// notify hands e to the observers after tx commits.
func (p *Pipeline) notify(tx *store.Txn, e Event) {
	if len(p.observers) == 0 {
		return
	}
	tx.AfterCommit(func() {
		for _, o := range p.observers {
			o.Observe(e)
		}
	})
}
