package pipeline

import (
	"cmp"
	"errors"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// arbitrate decides what the write replaces and how. In order:
//
//   - an explicit write that names no target may replace an instruction it
//     outranks, or be outranked itself (the Arbiter's Directive);
//   - an explicit write restating a value the conversation replaced is
//     stale (the Arbiter's Stale);
//   - a stale or outranked write is stored invalid from birth and
//     supersedes nothing;
//   - otherwise the target named by Supersedes is resolved among the facts
//     the caller may read, and the supersession is checked: a forgotten or
//     already superseded fact cannot be superseded, capability levels
//     gate capability memory, and a lower authority never supersedes a
//     higher one (the write is refused beside it, or rejected);
//   - a CHANGE ends the old valid time at the new validFrom; a CORRECTION
//     gives the new fact the old one's valid time and empties the old one;
//   - the successor's restriction is at least the predecessor's (joined
//     with what the write asks for), unless the write declassifies: then
//     it is what the write asks for, if the writer may (see inherit).
//
// It writes nothing: link applies what it decided. A write whose
// inferred memory refused it (admit's gate) is refused unless its
// predecessor moved it into another memory that admits it.
func (p *Pipeline) arbitrate(tx *store.Txn, w *write) error {
	if err := p.decide(tx, w); err != nil {
		return err
	}
	return w.gate
}

// decide is arbitrate's judgement, before admit's deferred gate.
func (p *Pipeline) decide(tx *store.Txn, w *write) error {
	in := &w.in
	st, err := p.judge(tx, w)
	if err != nil {
		return err
	}
	if st != nil {
		w.stale = true
		w.f.Stale = st
		never := w.f.ValidFrom
		w.f.ValidTo = &never
		return nil
	}
	if in.Supersedes == "" && in.ReplaceKey {
		// A promotion onto a key takes the place of the fact holding it,
		// if the writer reads one (else it replaces nothing).
		in.Supersedes, w.directed = in.Key, true
	}
	if in.Supersedes == "" {
		return nil
	}
	return p.supersede(tx, w)
}

// supersede resolves and checks the target of w's supersession and
// decides the new valid times of both facts.
func (p *Pipeline) supersede(tx *store.Txn, w *write) error {
	in, f := w.in, &w.f
	var within []tenancy.Space
	if in.MemoryType != "" {
		// The write says which memory it is for: it supersedes there.
		within = append(within, w.space)
	}
	var keep func(facts.Fact) bool
	if scopeNamed(in, *f) {
		// The write says which scope it is for: it supersedes there.
		keep = func(g facts.Fact) bool { return g.Scope == f.Scope && g.ScopeID == f.ScopeID }
	}
	old, oldSpace, err := p.facts.Resolve(tx, w.caller, in.Supersedes, keep, within...)
	if w.directed && fault.KindOf(err) == fault.NotFound {
		// The instruction the Arbiter named lives in another memory or
		// scope than the write: the write replaces nothing.
		in.Supersedes, in.Kind, in.Detection, in.Cue = "", "", "", ""
		w.in = in
		return nil
	}
	if err != nil {
		return err
	}
	if err := p.stayInSpace(w, old, oldSpace); err != nil {
		return err
	}
	if keep == nil {
		f.Scope, f.ScopeID = old.Scope, old.ScopeID
	}
	if old.Forgotten != nil {
		return fault.New(fault.Conflict, "fact %q was forgotten; it cannot be superseded", old.ID)
	}
	if old.SupersededBy != "" {
		head, err := p.facts.Head(tx, old)
		if err != nil {
			return err
		}
		if !p.facts.CanRead(w.caller, head) {
			return fault.New(fault.Conflict, "fact %q was already superseded", old.ID)
		}
		// Name the successor only when the caller may read it too.
		next, _, err := p.facts.FindVisible(tx, w.caller, old.SupersededBy)
		if errors.Is(err, store.ErrNotFound) {
			return fault.New(fault.Conflict, "fact %q was already superseded; the current head of its chain is %q", old.ID, head.ID)
		}
		if err != nil {
			return err
		}
		return fault.New(fault.Conflict, "fact %q was already superseded by %q; the current head of its chain is %q", old.ID, next.ID, head.ID)
	}
	if old.MemoryType == facts.MemoryCapability {
		if err := p.rules.WriteCapability(w.caller, old.Level.AgentLevel(), string(cmp.Or(old.Level, facts.LevelEvent))); err != nil {
			return err
		}
	}
	if !p.rules.Supersedes(f.Source.Authority, old.Source.Authority) {
		if p.rules.Violation() == permissions.ViolationReject {
			return fault.New(fault.Forbidden, "fact %q has authority %s, above this write's %s: a lower authority cannot supersede it",
				old.ID, p.rules.Describe(old.Source.Authority), p.rules.Describe(f.Source.Authority))
		}
		// Refused, it is stored beside old as a rival: no less
		// restricted than what it meant to replace.
		f.RestrictedTo = p.rules.Join(old.RestrictedTo, f.RestrictedTo)
		w.refused = &old
		return nil
	}
	kind := cmp.Or(in.Kind, facts.Change)
	switch kind {
	case facts.Change:
		if f.ValidFrom.Before(old.ValidFrom) {
			return fault.BadInputf("validFrom", "validFrom %s is before the superseded fact's validFrom %s; to say the old value was never true, use kind CORRECTION",
				f.ValidFrom.Format(time.RFC3339), old.ValidFrom.Format(time.RFC3339))
		}
		end := f.ValidFrom
		old.ValidTo = &end
	case facts.Correction:
		if in.ValidFrom != nil && !in.ValidFrom.Equal(old.ValidFrom) {
			return fault.BadInputf("validFrom", "a correction takes over the superseded fact's valid time; omit validFrom")
		}
		f.ValidFrom = old.ValidFrom
		never := old.ValidFrom
		old.ValidTo = &never
	}
	declassified, err := p.inherit(w, old)
	if err != nil {
		return err
	}
	at := w.now
	old.SupersededBy, old.SupersededAt = f.ID, &at
	f.Supersedes = old.ID
	f.Supersession = &facts.Supersession{
		Kind: kind, Detection: cmp.Or(in.Detection, facts.DetectionExplicitWrite),
		Cue: in.Cue, Reason: in.Reason, Actor: cmp.Or(w.caller.UserName, w.caller.UserID), At: w.now,
		Declassified: declassified,
	}
	w.old, w.oldSpace = &old, oldSpace
	return nil
}

// inherit sets the restriction of w's fact, the successor of old: never
// less restricted than old (the join of old's restriction and the one the
// write gave: a writer may only tighten), whatever wrote it. Only an
// explicit write with Declassify may loosen it, and only when its writer
// may declassify old (permissions.Rules.Declassify): the successor then
// carries exactly the restriction the write gave. declassified reports a
// successor that is in fact looser than old. A write that reached this
// point could read old (the target is resolved among the facts the
// caller may read), so its refusal reveals nothing new.
func (p *Pipeline) inherit(w *write, old facts.Fact) (declassified bool, err error) {
	f := &w.f
	if !w.in.Declassify {
		f.RestrictedTo = p.rules.Join(old.RestrictedTo, f.RestrictedTo)
		return false, nil
	}
	if err := p.rules.Declassify(w.caller, f.Source.Authority, old.RestrictedTo); err != nil {
		return false, err
	}
	return p.rules.Looser(f.RestrictedTo, old.RestrictedTo), nil
}

// scopeNamed reports whether a write says which scope its fact is for: a
// scope or scopeId given, or a value that opens as a hypothetical or a
// draft (f's scope is then not GLOBAL). Such a write supersedes only a
// fact of that scope; one that says nothing takes its predecessor's, so a
// successor never moves a fact between the real world, a project, a
// hypothetical and a draft.
func scopeNamed(in facts.WriteInput, f facts.Fact) bool {
	return in.Scope != "" || in.ScopeID != "" || f.Scope != facts.ScopeGlobal
}

// stayInSpace keeps a successor in its predecessor's memory: a write that
// named no memory type takes the predecessor's (an agent with a capability
// correcting an organization fact writes an organization fact), under the
// gates of that memory.
func (p *Pipeline) stayInSpace(w *write, old facts.Fact, oldSpace tenancy.Space) error {
	if oldSpace == w.space {
		return nil
	}
	w.f.MemoryType, w.f.Level = old.MemoryType, ""
	if err := p.gateMemory(w.caller, &w.f, old.Level); err != nil {
		return err
	}
	w.gate = nil // the memory it moves to admits it
	w.space, w.f.Owner = oldSpace, oldSpace.Owner()
	return nil
}

// judge asks the Arbiter about an explicit write (not a detection's, not a
// promotion's): one naming no target may replace an instruction it
// outranks (w's input then names it) or be outranked; one that replaces
// nothing may restate a value the conversation replaced. The staleness
// returned, if any, means w is stored invalid from birth.
func (p *Pipeline) judge(tx *store.Txn, w *write) (*facts.Staleness, error) {
	in := &w.in
	if p.arbiter == nil || in.Detection != "" || in.PromotedFrom != "" {
		return nil, nil
	}
	if in.Supersedes == "" {
		replaces, cue, outranked, err := p.arbiter.Directive(tx, w.caller, w.f)
		if err != nil || outranked != nil {
			return outranked, err
		}
		if replaces != "" {
			in.Supersedes, in.Kind, in.Detection, in.Cue = replaces, facts.Change, facts.DetectionAuthority, cue
			w.directed = true
			return nil, nil
		}
	}
	return p.arbiter.Stale(tx, w.caller, w.f, in.ValidFrom != nil)
}
