package pipeline

import (
	"fmt"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/store"
)

// ActionSupersessionRefused is the audit action of a write that asked to
// supersede a fact of higher authority and was stored beside it instead.
const ActionSupersessionRefused = "SUPERSESSION_REFUSED"

// react tells the other domains about the stored fact: a refused
// supersession is audited, and the reactors (conflict detection) see the
// fact with its valid rivals of the same key in its space. A stale fact
// is history only: nothing reacts to it.
func (p *Pipeline) react(tx *store.Txn, w *write) error {
	if w.stale {
		return nil
	}
	if old := w.refused; old != nil {
		if err := audit.Record(tx, w.space, audit.Entry{
			ID: audit.NewID(p.ids), At: w.now, Actor: audit.Actor(w.caller), Action: ActionSupersessionRefused,
			Record: w.f.ID, Kind: "fact", By: old.ID,
			Detail: fmt.Sprintf("authority %s cannot supersede authority %s",
				p.rules.Describe(w.f.Source.Authority), p.rules.Describe(old.Source.Authority)),
		}); err != nil {
			return err
		}
	}
	if len(p.reactors) == 0 {
		return nil
	}
	rivals, err := p.facts.Rivals(tx, w.space, w.f)
	if err != nil {
		return err
	}
	for _, r := range p.reactors {
		if err := r.FactWritten(tx, w.caller, w.f, rivals); err != nil {
			return err
		}
	}
	return nil
}
