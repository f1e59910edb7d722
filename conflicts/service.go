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
	// CandidateTx returns the status of assertion id now ("ACTIVE",
	// "EXPIRED", ...) and the authority it was asserted with, or
	// store.ErrNotFound.
	CandidateTx(tx *store.Txn, id string) (status, auth string, err error)
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
	write FactRevoker
	// Assertions revokes assertion candidates on resolution.
	Assertions Assertions
	// OnOpened and OnResolved, when set, are called once for each conflict
	// opened or resolved, after its transaction commits.
	OnOpened, OnResolved func()
	// OnChange, when set, is told of each conflict opened or decided,
	// after its transaction commits (the change feed).
	OnChange func(Change)
	ids      *ids.Generator
}

// FactWriter writes a fact inside a transaction (the write pipeline).
type FactWriter interface {
	WriteTx(tx *store.Txn, caller authority.Identity, in facts.WriteInput) (facts.Fact, error)
}

// FactRevoker retires, inside a decision's transaction, a fact candidate
// the decision did not keep (the write pipeline implements it).
type FactRevoker interface {
	// RevokeTx ends the valid time of fact id at r.At and records r on
	// it; a fact no longer valid is left alone and ok is false.
	RevokeTx(tx *store.Txn, caller authority.Identity, id string, r facts.Revocation) (f facts.Fact, ok bool, err error)
}

// NewService returns a Service over st; fs reads the candidate facts and w
// retires the fact candidates a decision revokes.
func NewService(st *store.Store, clock temporal.Clock, fs *facts.Service, w FactRevoker) *Service {
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
		s.changed(tx, ChangeOpened, c.ID, now)
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
	s.changed(tx, ChangeDecided, c.ID, at)
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

// Visible reports whether the caller of ctx may see conflict id (audit
// trails show a conflict's entries only then).
func (s *Service) Visible(ctx context.Context, id string) (bool, error) {
	_, ok, err := s.Get(ctx, id, temporal.View{})
	return ok, err
}

// DecisionVisible reports whether the caller of ctx may see decision id.
func (s *Service) DecisionVisible(ctx context.Context, id string) (bool, error) {
	_, ok, err := s.Decision(ctx, id, temporal.View{})
	return ok, err
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
// candidate still current, recording a Decision, in one transaction. The
// caller needs authority at least as high as the highest current
// candidate's, and the policy authority (permissions.Rules.WritePolicy)
// when a candidate is a policy fact: else FORBIDDEN. A revoked assertion
// becomes REVOKED; a revoked fact is retired (its valid time ends at the
// decision's time and it names the decision). The kept candidate is left
// as it is: it stays the one current record, restriction and all.
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
		cands, err := s.contendersTx(tx, c)
		if err != nil {
			return err
		}
		if err := s.gate(caller, c, cands); err != nil {
			return err
		}
		kept := cands[i]
		if !kept.current {
			if kept.Kind == KindAssertion {
				return fault.BadInputf("keep", "candidate %q is %s: an expired, revoked or promoted assertion cannot be kept by a decision", kept.ID, kept.status)
			}
			return fault.BadInputf("keep", "candidate %q is no longer a valid fact and cannot be kept", kept.ID)
		}
		now := s.clock.Now()
		d := Decision{ID: s.newDecisionID(), ConflictID: c.ID, Kept: &kept.Candidate, Reason: reason, Actor: audit.Actor(caller), At: now}
		for _, cd := range cands {
			if cd.ID == kept.ID || !cd.current {
				continue
			}
			revoked, err := s.revoke(tx, caller, cd.Candidate, d)
			if err != nil {
				return err
			}
			if revoked {
				d.Revoked = append(d.Revoked, cd.Candidate)
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

// contender is a candidate as a decision sees it: whether it is still
// current, its status (assertions), the authority it was written with, and
// whether it is a policy.
type contender struct {
	Candidate
	current   bool
	status    string
	authority string
	policy    bool
}

// contendersTx loads what a decision needs of each of c's candidates, in
// c's order.
func (s *Service) contendersTx(tx *store.Txn, c Conflict) ([]contender, error) {
	rules := s.facts.Rules()
	out := make([]contender, 0, len(c.Candidates))
	for _, cd := range c.Candidates {
		ct := contender{Candidate: cd}
		switch cd.Kind {
		case KindAssertion:
			st, auth, err := s.Assertions.CandidateTx(tx, cd.ID)
			if errors.Is(err, store.ErrNotFound) {
				st, err = "no longer stored", nil
			}
			if err != nil {
				return nil, err
			}
			ct.status, ct.authority, ct.current = st, auth, st == "ACTIVE"
		case KindFact:
			f, ok, err := s.currentFact(tx, cd.ID)
			if err != nil {
				return nil, err
			}
			ct.current = ok
			if ok {
				ct.authority = f.Source.Authority
				ct.policy = rules.IsPolicy(f.Source.Type == facts.SourcePolicy, f.IsConstraint, f.Source.Authority)
			}
		}
		out = append(out, ct)
	}
	return out, nil
}

// gate checks that caller may decide conflict c: its authority ranks at
// least as high as every current candidate's, and it may write policies
// when a current candidate is one. The message names authorities only,
// never a candidate's value.
func (s *Service) gate(caller authority.Identity, c Conflict, cands []contender) error {
	rules := s.facts.Rules()
	order := rules.Order()
	highest, policy := "", false
	for _, cd := range cands {
		if !cd.current {
			continue
		}
		policy = policy || cd.policy
		if highest == "" || order.Rank(cd.authority) > order.Rank(highest) {
			highest = cd.authority
		}
	}
	if highest != "" && !rules.Supersedes(caller.Authority, highest) {
		return fault.New(fault.Forbidden, "deciding conflict %q needs authority %s or above, the highest of its candidates; yours is %s: ask someone of that authority to decide it",
			c.ID, rules.Describe(highest), rules.Describe(caller.Authority))
	}
	if policy {
		if err := rules.WritePolicy(caller); err != nil {
			return fault.New(fault.Forbidden, "deciding conflict %q needs the authority that writes policies, since one of its candidates is a policy: %s", c.ID, policyReason(err))
		}
	}
	return nil
}

// policyReason is the message of a WritePolicy denial.
func policyReason(err error) string {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return fe.Msg
	}
	return err.Error()
}

// revoke revokes candidate cd by decision d: an assertion is revoked, a
// fact retired at the decision's time.
func (s *Service) revoke(tx *store.Txn, caller authority.Identity, cd Candidate, d Decision) (bool, error) {
	switch cd.Kind {
	case KindAssertion:
		return s.Assertions.RevokeTx(tx, caller, cd.ID, d.ID, d.At)
	case KindFact:
		_, ok, err := s.write.RevokeTx(tx, caller, cd.ID, facts.Revocation{
			Decision: d.ID, Conflict: d.ConflictID, At: d.At,
			Reason: fmt.Sprintf("conflict %s resolved by decision %s: %s", d.ConflictID, d.ID, d.Reason),
		})
		return ok, err
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
