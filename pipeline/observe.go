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
	// ActionDeclassified: a fact was superseded by a less restricted one
	// (the entry's By), by an explicit declassification; recorded in the
	// trail of both facts (the successor's names no predecessor: its
	// readers may not be the predecessor's).
	ActionDeclassified Action = "DECLASSIFIED"
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
		if s.Declassified {
			if err := p.auditDeclassified(tx, w, e.Actor); err != nil {
				return err
			}
		}
	}
	p.notify(tx, e)
	return nil
}

// auditDeclassified records w's declassification in the trail of the
// retired fact (By: the successor) and of the successor.
func (p *Pipeline) auditDeclassified(tx *store.Txn, w *write, actor string) error {
	const detail = "the successor is less restricted than the fact it supersedes"
	if err := audit.Record(tx, w.oldSpace, audit.Entry{
		ID: audit.NewID(p.ids), At: w.now, Actor: actor, Action: string(ActionDeclassified), Record: w.old.ID, Kind: "fact",
		By: w.f.ID, Detail: detail,
	}); err != nil {
		return err
	}
	return audit.Record(tx, w.space, audit.Entry{
		ID: audit.NewID(p.ids), At: w.now, Actor: actor, Action: string(ActionDeclassified), Record: w.f.ID, Kind: "fact",
		Detail: detail,
	})
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
