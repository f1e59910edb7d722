package conflicts

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Assertions is what resolution needs of the state assertions. It is
// implemented by *assertions.Service. Both methods run inside the caller's
// transaction and see only its partition.
type Assertions interface {
	// CurrentTx returns the status of assertion id now ("ACTIVE",
	// "EXPIRED", ...), or store.ErrNotFound.
	CurrentTx(tx *store.Txn, id string) (status string, err error)
	// RevokeTx revokes the assertion id if it is still active, naming the
	// decision that revoked it; an assertion no longer active is left
	// alone and false is returned.
	RevokeTx(tx *store.Txn, caller authority.Identity, id, decisionID string, now time.Time) (bool, error)
}

// Service keeps conflicts and decisions. It is safe for concurrent use once
// Assertions is set, which happens before it serves.
type Service struct {
	store *store.Store
	clock temporal.Clock
	facts *facts.Service
	write FactWriter
	// Assertions revokes assertion candidates on resolution.
	Assertions Assertions
	// OnOpened and OnResolved, when set, are called once for each conflict
	// opened or resolved, after its transaction commits.
	OnOpened, OnResolved func()
	ids                  *ids.Generator
}

// FactWriter writes a fact inside a transaction (the write pipeline).
type FactWriter interface {
	WriteTx(tx *store.Txn, caller authority.Identity, in facts.WriteInput) (facts.Fact, error)
}

// NewService returns a Service over st; fs reads the candidate facts and w
// writes the corrections that resolve fact conflicts.
func NewService(st *store.Store, clock temporal.Clock, fs *facts.Service, w FactWriter) *Service {
	return &Service{store: st, clock: clock, facts: fs, write: w}
}

// WithIDs makes the service's conflict, decision and audit ids with g
// (nil: ulid.Make) and returns the service.
func (s *Service) WithIDs(g *ids.Generator) *Service { s.ids = g; return s }

func (s *Service) newConflictID() string { return s.ids.New("CF-") }
func (s *Service) newDecisionID() string { return s.ids.New("DC-") }

func slotPrefix(s Slot) store.Suffix {
	return store.Suffix(nil).Str(s.Context).Str(s.Subject).Str(s.Predicate)
}

// OpenTx records that cands compete in slot: the slot's OPEN conflict in
// space sp gains the candidates it lacks and a new last-seen time, or a new
// OPEN conflict is created.
func (s *Service) OpenTx(tx *store.Txn, sp tenancy.Space, slot Slot, cands []Candidate, reason string, now time.Time) (Conflict, error) {
	c, found, err := s.openInSlot(tx, sp, slot)
	if err != nil {
		return Conflict{}, err
	}
	if !found {
		c = Conflict{ID: s.newConflictID(), Slot: slot, Status: Open, OpenedAt: now, Reason: reason}
		if s.OnOpened != nil {
			tx.AfterCommit(s.OnOpened)
		}
		if err := tx.Put(sp, store.TableConflictSlot, slotPrefix(slot).Time(now).Raw(c.ID), nil, 0); err != nil {
			return Conflict{}, err
		}
		if err := tx.Put(sp, store.TableConflictTime, store.Suffix(nil).Time(now).Raw(c.ID), nil, 0); err != nil {
			return Conflict{}, err
		}
	}
	for _, cd := range cands {
		if !c.Has(cd.ID) {
			cd.At = now
			c.Candidates = append(c.Candidates, cd)
		}
	}
	c.LastSeenAt = now
	if err := tx.Put(sp, store.TableConflict, store.Suffix(nil).Raw(c.ID), c, 0); err != nil {
		return Conflict{}, err
	}
	return c, nil
}

// openInSlot finds the OPEN conflict of slot in sp.
func (s *Service) openInSlot(tx *store.Txn, sp tenancy.Space, slot Slot) (Conflict, bool, error) {
	ids, err := idsInSlot(tx, sp, slot)
	if err != nil {
		return Conflict{}, false, err
	}
	for _, id := range ids {
		var c Conflict
		if err := tx.Get(sp, store.TableConflict, store.Suffix(nil).Raw(id), &c); err != nil {
			return Conflict{}, false, err
		}
		if c.Status == Open {
			return c, true, nil
		}
	}
	return Conflict{}, false, nil
}

func idsInSlot(tx *store.Txn, sp tenancy.Space, slot Slot) ([]string, error) {
	var ids []string
	err := tx.Scan(sp, store.TableConflictSlot, slotPrefix(slot), store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
		r := store.NewReader(suffix)
		r.Str()
		r.Str()
		r.Str()
		r.Time()
		ids = append(ids, r.Rest())
		return true, r.Err()
	})
	return ids, err
}

// DecideTx records a decision on the conflict of slot in space sp among
// cands, made by a policy or a caller: the slot's OPEN conflict (or a new
// one) gains cands and is RESOLVED by the decision. The caller has already
// revoked what d revokes.
func (s *Service) DecideTx(tx *store.Txn, sp tenancy.Space, slot Slot, cands []Candidate, d Decision, now time.Time) (Conflict, Decision, error) {
	c, err := s.OpenTx(tx, sp, slot, cands, "", now)
	if err != nil {
		return Conflict{}, Decision{}, err
	}
	if d.ID == "" {
		d.ID = s.newDecisionID()
	}
	d.ConflictID, d.At = c.ID, now
	if err := s.resolveTx(tx, sp, &c, d); err != nil {
		return Conflict{}, Decision{}, err
	}
	return c, d, nil
}

func (s *Service) resolveTx(tx *store.Txn, sp tenancy.Space, c *Conflict, d Decision) error {
	at := d.At
	c.Status, c.ResolvedAt, c.DecisionID = Resolved, &at, d.ID
	if s.OnResolved != nil {
		tx.AfterCommit(s.OnResolved)
	}
	if err := tx.Put(sp, store.TableConflict, store.Suffix(nil).Raw(c.ID), c, 0); err != nil {
		return err
	}
	if err := s.PutDecisionTx(tx, sp, d); err != nil {
		return err
	}
	detail := "resolved by " + d.Actor
	if d.Policy != "" {
		detail = "resolved by policy " + d.Policy
	}
	return audit.Record(tx, sp, audit.Entry{ID: audit.NewID(s.ids), At: d.At, Actor: d.Actor, Action: "RESOLVED", Record: c.ID, Kind: "conflict", By: d.ID, Detail: detail})
}

// PutDecisionTx stores d in space sp.
func (s *Service) PutDecisionTx(tx *store.Txn, sp tenancy.Space, d Decision) error {
	if d.ID == "" || d.At.IsZero() {
		return errors.New("conflicts: decision needs an id and a time")
	}
	if d.Revoked == nil {
		d.Revoked = []Candidate{}
	}
	return tx.Put(sp, store.TableDecision, store.Suffix(nil).Raw(d.ID), d, 0)
}

// NewDecisionID returns a fresh decision id, for decisions recorded with
// PutDecisionTx.
func (s *Service) NewDecisionID() string { return s.newDecisionID() }

// FactWritten is the write pipeline's react stage: every valid rival of f
// with a different value, in the same memory and applying to the same
// scope, forms a conflict with f.
func (s *Service) FactWritten(tx *store.Txn, caller authority.Identity, f facts.Fact, rivals []facts.Fact) error {
	if !f.Scope.Real() {
		return nil
	}
	for _, r := range rivals {
		if !r.Scope.Real() || r.ScopeID != f.ScopeID || r.MemoryType != f.MemoryType || r.Owner != f.Owner || bytes.Equal(r.Value, f.Value) {
			continue
		}
		if err := s.OpenFactConflict(tx, caller, r, f, fmt.Sprintf("valid facts with key %q disagree and neither supersedes the other", f.Key)); err != nil {
			return err
		}
	}
	return nil
}

// OpenFactConflict records, inside tx, that facts a and b (same key,
// different values, both valid, neither superseding the other) conflict:
// the OPEN conflict of slot ("", key, "value") gains them, or is created
// with reason. It is stored in the narrowest space of the two facts
// (user, then capability, then shared), so it is never visible to a caller
// who could not see both.
func (s *Service) OpenFactConflict(tx *store.Txn, caller authority.Identity, a, b facts.Fact, reason string) error {
	_ = caller // the candidates, not the caller, are the subject of the record
	sp, err := facts.NarrowestSpace(tx.Partition(), a, b)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	_, err = s.OpenTx(tx, sp, Slot{Subject: a.Key, Predicate: FactPredicate},
		[]Candidate{{Kind: KindFact, ID: a.ID}, {Kind: KindFact, ID: b.ID}}, reason, now)
	return err
}

// view runs fn in a read transaction of the caller's partition.
func (s *Service) view(ctx context.Context, fn func(tx *store.Txn) error) error {
	p, err := tenancy.FromContext(ctx)
	if err != nil {
		return err
	}
	return s.store.View(ctx, p, fn)
}

// shownTx reports whether the caller may see conflict c: not when one of
// its fact candidates is withheld from them (restrictedTo), since a
// conflict with a fact they cannot see would tell them the fact exists.
func (s *Service) shownTx(tx *store.Txn, caller authority.Identity, c Conflict) (bool, error) {
	for _, cd := range c.Candidates {
		if cd.Kind != KindFact {
			continue
		}
		if ok, err := s.facts.VisibleTx(tx, caller, cd.ID); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// getTx finds conflict id in the partition's spaces.
func getTx(tx *store.Txn, id string) (Conflict, tenancy.Space, error) {
	if !strings.HasPrefix(id, "CF-") || len(id) > 64 {
		return Conflict{}, tenancy.Space{}, store.ErrNotFound
	}
	for _, sp := range tx.Partition().Spaces() {
		var c Conflict
		err := tx.Get(sp, store.TableConflict, store.Suffix(nil).Raw(id), &c)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		return c, sp, err
	}
	return Conflict{}, tenancy.Space{}, store.ErrNotFound
}

// Get returns conflict id as it stood in v; ok is false when the caller
// has no such conflict.
func (s *Service) Get(ctx context.Context, id string, v temporal.View) (c Conflict, ok bool, err error) {
	caller, err := authority.FromContext(ctx)
	if err != nil {
		return Conflict{}, false, err
	}
	err = s.view(ctx, func(tx *store.Txn) error {
		raw, _, err := getTx(tx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if shown, err := s.shownTx(tx, caller, raw); err != nil || !shown {
			return err
		}
		c, ok = raw.In(v)
		return nil
	})
	return c, ok, err
}

// Decision returns decision id as it stood in v; ok is false when the
// caller has none (or it was made after v). A decision on a conflict the
// caller may not see (a candidate is a fact restricted from it) looks like
// no decision at all.
func (s *Service) Decision(ctx context.Context, id string, v temporal.View) (d Decision, ok bool, err error) {
	if !strings.HasPrefix(id, "DC-") || len(id) > 64 {
		return Decision{}, false, nil
	}
	caller, err := authority.FromContext(ctx)
	if err != nil {
		return Decision{}, false, err
	}
	err = s.view(ctx, func(tx *store.Txn) error {
		for _, sp := range tx.Partition().Spaces() {
			err := tx.Get(sp, store.TableDecision, store.Suffix(nil).Raw(id), &d)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if d.ConflictID != "" {
				c, _, err := getTx(tx, d.ConflictID)
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					return err
				}
				if err == nil {
					if shown, err := s.shownTx(tx, caller, c); err != nil || !shown {
						return err
					}
				}
			}
			d, ok = d.In(v)
			return nil
		}
		return nil
	})
	return d, ok, err
}

// InSlot returns the conflicts of slot having candidate id (every conflict
// of the slot when id is empty), as they stood in v, oldest first.
func (s *Service) InSlot(ctx context.Context, slot Slot, id string, v temporal.View) ([]Conflict, error) {
	caller, err := authority.FromContext(ctx)
	if err != nil {
		return nil, err
	}
	var out []Conflict
	err = s.view(ctx, func(tx *store.Txn) error {
		for _, sp := range tx.Partition().Spaces() {
			ids, err := idsInSlot(tx, sp, slot)
			if err != nil {
				return err
			}
			for _, cid := range ids {
				var raw Conflict
				if err := tx.Get(sp, store.TableConflict, store.Suffix(nil).Raw(cid), &raw); err != nil {
					return err
				}
				shown, err := s.shownTx(tx, caller, raw)
				if err != nil {
					return err
				}
				if c, ok := raw.In(v); ok && shown && (id == "" || c.Has(id)) {
					out = append(out, c)
				}
			}
		}
		return nil
	})
	slices.SortFunc(out, byOpened)
	return out, err
}

func byOpened(a, b Conflict) int {
	return cmp.Or(a.OpenedAt.Compare(b.OpenedAt), cmp.Compare(a.ID, b.ID))
}

// Filter selects conflicts in List. Zero fields do not filter.
type Filter struct {
	Status    Status
	Subject   string
	Predicate string
	Context   *string
}

func (fl Filter) match(c Conflict) bool {
	return (fl.Status == "" || c.Status == fl.Status) &&
		(fl.Subject == "" || c.Subject == fl.Subject) &&
		(fl.Predicate == "" || c.Predicate == fl.Predicate) &&
		(fl.Context == nil || c.Context == *fl.Context)
}

// Page is one page of List, oldest opened first.
type Page struct {
	Conflicts []Conflict
	Cursors   []string
	HasNext   bool
	// HasPrevious and Total are set by Connection: whether conflicts
	// precede the page, and how many the caller may see in all.
	HasPrevious bool
	Total       int
}

// List returns the caller's conflicts matching fl, oldest opened first,
// first at a time after the opaque cursor after.
func (s *Service) List(ctx context.Context, fl Filter, first int, after string, v temporal.View) (Page, error) {
	first, start, err := store.ParsePage(first, after)
	if err != nil {
		return Page{}, err
	}
	if fl.Status != "" && !fl.Status.Valid() {
		return Page{}, fault.BadInputf("filter.status", "unknown conflict status %q", fl.Status)
	}
	if start != nil {
		start = append(start, 0) // strictly after
	}
	type listed struct {
		c      Conflict
		cursor []byte
	}
	caller, err := authority.FromContext(ctx)
	if err != nil {
		return Page{}, err
	}
	var all []listed
	err = s.view(ctx, func(tx *store.Txn) error {
		for _, sp := range tx.Partition().Spaces() {
			n := 0
			err := tx.Scan(sp, store.TableConflictTime, nil, store.ScanOptions{Start: start, KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
				r := store.NewReader(suffix)
				r.Time()
				id := r.Rest()
				if err := r.Err(); err != nil {
					return false, err
				}
				var raw Conflict
				if err := tx.Get(sp, store.TableConflict, store.Suffix(nil).Raw(id), &raw); err != nil {
					return false, err
				}
				shown, err := s.shownTx(tx, caller, raw)
				if err != nil {
					return false, err
				}
				if c, ok := raw.In(v); ok && shown && fl.match(c) {
					all = append(all, listed{c, append([]byte(nil), suffix...)})
					n++
				}
				return n <= first, nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Page{}, err
	}
	slices.SortFunc(all, func(a, b listed) int { return bytes.Compare(a.cursor, b.cursor) })
	var pg Page
	if len(all) > first {
		all, pg.HasNext = all[:first], true
	}
	for _, l := range all {
		pg.Conflicts = append(pg.Conflicts, l.c)
		pg.Cursors = append(pg.Cursors, store.Cursor(l.cursor))
	}
	return pg, nil
}

// Resolve keeps candidate keep of conflict id and revokes every other
// candidate still current, recording a Decision, in one transaction. An
// assertion candidate is revoked; a fact candidate is corrected: a new fact
// with the kept value supersedes it (CORRECTION), so its chain records the
// decision.
func (s *Service) Resolve(ctx context.Context, id, keep, reason string) (Conflict, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return Conflict{}, err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" || len(reason) > 1024 {
		return Conflict{}, fault.BadInputf("reason", "a resolution needs a reason of 1 to 1024 bytes")
	}
	var out Conflict
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		c, sp, err := getTx(tx, id)
		if errors.Is(err, store.ErrNotFound) {
			return fault.New(fault.NotFound, "no conflict with id %q", id)
		}
		if err != nil {
			return err
		}
		if shown, err := s.shownTx(tx, caller, c); err != nil {
			return err
		} else if !shown {
			return fault.New(fault.NotFound, "no conflict with id %q", id)
		}
		if c.Status != Open {
			return fault.New(fault.Conflict, "conflict %q is already resolved by decision %q", c.ID, c.DecisionID)
		}
		i := slices.IndexFunc(c.Candidates, func(cd Candidate) bool { return cd.ID == keep })
		if i < 0 {
			return fault.BadInputf("keep", "keep %q is not a candidate of conflict %q", keep, c.ID)
		}
		kept := c.Candidates[i]
		now := s.clock.Now()
		d := Decision{ID: s.newDecisionID(), ConflictID: c.ID, Kept: &kept, Reason: reason, Actor: audit.Actor(caller), At: now}
		var keptFact facts.Fact
		switch kept.Kind {
		case KindAssertion:
			st, err := s.Assertions.CurrentTx(tx, kept.ID)
			if err != nil {
				return err
			}
			if st != "ACTIVE" {
				return fault.BadInputf("keep", "candidate %q is %s: an expired, revoked or promoted assertion cannot be kept by a decision", kept.ID, st)
			}
		case KindFact:
			f, ok, err := s.currentFact(tx, kept.ID)
			if err != nil {
				return err
			}
			if !ok {
				return fault.BadInputf("keep", "candidate %q is no longer a valid fact and cannot be kept", kept.ID)
			}
			keptFact = f
		}
		for _, cd := range c.Candidates {
			if cd.ID == kept.ID {
				continue
			}
			revoked, err := s.revoke(tx, caller, cd, keptFact, d, now)
			if err != nil {
				return err
			}
			if revoked {
				d.Revoked = append(d.Revoked, cd)
			}
		}
		if err := s.resolveTx(tx, sp, &c, d); err != nil {
			return err
		}
		out, _ = c.In(temporal.View{})
		return nil
	})
	return out, err
}

func (s *Service) revoke(tx *store.Txn, caller authority.Identity, cd Candidate, kept facts.Fact, d Decision, now time.Time) (bool, error) {
	switch cd.Kind {
	case KindAssertion:
		return s.Assertions.RevokeTx(tx, caller, cd.ID, d.ID, now)
	case KindFact:
		loser, ok, err := s.currentFact(tx, cd.ID)
		if err != nil || !ok {
			return false, err
		}
		if kept.ID == "" {
			// Fact conflicts only ever hold facts.
			return false, fault.BadInputf("keep", "a fact candidate can only lose to another fact")
		}
		_, err = s.write.WriteTx(tx, caller, facts.WriteInput{
			Key: loser.Key, Value: kept.Value, MemoryType: loser.MemoryType, Scope: loser.Scope, ScopeID: loser.ScopeID,
			Source:     &facts.Source{Type: kept.Source.Type, Authority: kept.Source.Authority, Identity: kept.Source.Identity},
			Supersedes: loser.ID, Kind: facts.Correction,
			// The successor carries the kept value: it keeps the kept
			// fact's restriction (the pipeline joins the loser's).
			RestrictedTo: kept.RestrictedTo,
			Reason:       fmt.Sprintf("conflict %s resolved by decision %s: %s", d.ConflictID, d.ID, d.Reason),
		})
		return err == nil, err
	}
	return false, nil
}

// currentFact returns fact id when it is currently valid.
func (s *Service) currentFact(tx *store.Txn, id string) (facts.Fact, bool, error) {
	f, ok, err := s.facts.GetTx(tx, id)
	if err != nil || !ok || !f.IsValid() {
		return facts.Fact{}, false, err
	}
	return f, true, nil
}
