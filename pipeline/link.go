package pipeline

import (
	"slices"

	"github.com/stategraph/stategraph/store"
)

// link applies what arbitrate decided: the retired fact leaves the valid
// heads of its keys, gains its end and its edge to the new fact and is
// stored again; everything derived from it, transitively, needs review;
// the new fact is listed under its predecessors' keys too, gains its
// dependency edges, and is stored.
func (p *Pipeline) link(tx *store.Txn, w *write) error {
	if old := w.old; old != nil {
		if err := p.facts.Unlist(tx, w.oldSpace, *old); err != nil {
			return err
		}
		for _, k := range old.Keys() {
			if k != w.f.Key && !slices.Contains(w.f.Aliases, k) {
				w.f.Aliases = append(w.f.Aliases, k)
			}
		}
		if err := p.facts.Put(tx, w.oldSpace, *old); err != nil {
			return err
		}
		if err := p.facts.FlagDerived(tx, old.ID, w.now); err != nil {
			return err
		}
	}
	for _, d := range w.deps {
		if err := p.facts.LinkDerived(tx, d.space, d.id, w.f.ID); err != nil {
			return err
		}
	}
	return p.facts.Put(tx, w.space, w.f)
}

// indexFact lists the new fact under its key and time (and as a valid
// head unless it is stale), marks a stale fact as such, and keeps the
// search index: the new fact's postings, the retired one's history.
func (p *Pipeline) indexFact(tx *store.Txn, w *write) error {
	if err := p.facts.Index(tx, w.space, w.f); err != nil {
		return err
	}
	if w.stale {
		if err := p.facts.MarkStale(tx, w.space, w.f); err != nil {
			return err
		}
	}
	if p.index == nil {
		return nil
	}
	return p.index.FactWritten(tx, w.f, w.old)
}
