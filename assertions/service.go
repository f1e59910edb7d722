package assertions

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/conflicts"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Options configure a Service. Start from DefaultOptions.
type Options struct {
	// MaxLease bounds an UNTIL_TIME lease (--max-lease).
	MaxLease time.Duration
	// Policies decide conflicts of their predicates (--conflict-policy).
	Policies conflicts.Policies
	// SweepInterval is how often the background sweep records expired
	// leases; 0 disables it (reads still see expiry).
	SweepInterval time.Duration
	Logger        *slog.Logger
	// IDs makes assertion and audit ids; nil makes them with ulid.Make.
	IDs *ids.Generator
}

// DefaultOptions returns the defaults: a 30-day maximum lease, no
// policies, a sweep every minute.
func DefaultOptions() Options {
	return Options{MaxLease: DefaultMaxLease, SweepInterval: time.Minute}
}

func (o Options) validate() error {
	if o.MaxLease <= 0 {
		return errors.New("assertions: the maximum lease must be positive")
	}
	if o.SweepInterval < 0 {
		return errors.New("assertions: negative sweep interval")
	}
	for pred, p := range o.Policies {
		if pred == "" || !p.Valid() {
			return fmt.Errorf("assertions: bad conflict policy %q=%q", pred, p)
		}
	}
	return nil
}

// Service admits, reads, revokes, expires and promotes state assertions.
// It is safe for concurrent use.
type Service struct {
	store     *store.Store
	clock     temporal.Clock
	order     *authority.Order
	facts     *facts.Service
	write     conflicts.FactWriter
	conflicts *conflicts.Service
	opts      Options
	logger    *slog.Logger

	startOnce, stopOnce sync.Once
	done, sweepDone     chan struct{}

	// OnExpired, when set, is called once for each assertion whose
	// expiry (by its lease time or by signalEvent) commits.
	OnExpired func()
	// OnChange, when set, is told of each assertion admitted or ended,
	// after its transaction commits (the change feed).
	OnChange func(Change)
}

var _ conflicts.Assertions = (*Service)(nil)

// NewService returns a Service. fs reads facts, w writes promoted facts
// (the write pipeline); cs records conflicts and decisions.
func NewService(st *store.Store, clock temporal.Clock, order *authority.Order, fs *facts.Service, w conflicts.FactWriter, cs *conflicts.Service, o Options) (*Service, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{
		store: st, clock: clock, order: order, facts: fs, write: w, conflicts: cs, opts: o, logger: logger,
		done: make(chan struct{}), sweepDone: make(chan struct{}),
	}, nil
}

// leaseQueue is the store's due queue of UNTIL_TIME leases.
const leaseQueue = "lease"

// Index tags of TableAssertionIndex.
const (
	idxSubject = "s"
	idxObject  = "o"
	idxEvent   = "v"
)

func slotKey(ctx, subject, predicate string) store.Suffix {
	return store.Suffix(nil).Str(ctx).Str(subject).Str(predicate)
}

// Assert admits in for the caller of ctx, in one transaction: it revokes
// the active UNTIL_CHANGED assertions of the same slot, and a remaining
// active rival outside the new assertion's hypothesis group opens (or
// joins) a conflict, or, when the predicate has a policy, is decided at
// once.
func (s *Service) Assert(ctx context.Context, in Input) (Assertion, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return Assertion{}, err
	}
	if err := admit(&in, s.clock.Now(), s.opts.MaxLease); err != nil {
		return Assertion{}, err
	}
	var out Assertion
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		var err error
		out, err = s.AssertTx(tx, caller, in)
		return err
	})
	return out, err
}

// AssertTx is Assert inside tx, for a writer that derives assertions in
// its own transaction (a recorded turn stating short-lived state).
func (s *Service) AssertTx(tx *store.Txn, caller authority.Identity, in Input) (Assertion, error) {
	now := s.clock.Now()
	if err := admit(&in, now, s.opts.MaxLease); err != nil {
		return Assertion{}, err
	}
	a := newAssertion(s.opts.IDs.New("ST-"), in, caller, now)
	sp := tx.Partition().Shared()
	slot, err := s.slotTx(tx, sp, a.Context, a.Subject, a.Predicate)
	if err != nil {
		return Assertion{}, err
	}
	var rivals []Assertion
	for _, old := range slot {
		if cur, _ := old.In(temporal.View{}, now); cur.Status != Active {
			continue
		}
		switch {
		case a.HypothesisGroup != "" && old.HypothesisGroup == a.HypothesisGroup:
			// Competing hypotheses of one group coexist.
		case old.Validity.Mode == UntilChanged:
			if err := s.endTx(tx, audit.Actor(caller), &old, Revoked, now, a.ID, "", "changed: a newer assertion for the same context, subject and predicate revoked it"); err != nil {
				return Assertion{}, err
			}
		default:
			rivals = append(rivals, old)
		}
	}
	if err := s.putNew(tx, sp, a); err != nil {
		return Assertion{}, err
	}
	if len(rivals) > 0 {
		if err := s.contest(tx, caller, sp, &a, rivals, now); err != nil {
			return Assertion{}, err
		}
	}
	out, _ := a.In(temporal.View{}, now)
	return out, nil
}

func newAssertion(id string, in Input, caller authority.Identity, now time.Time) Assertion {
	prov := *in.Provenance
	if prov.Author.ID == "" {
		prov.Author = Author{Kind: string(caller.Kind), ID: caller.UserID}
	}
	v := *in.Validity
	if v.ExpiresAt != nil {
		t := v.ExpiresAt.UTC()
		v.ExpiresAt = &t
	}
	var obj bytes.Buffer
	if json.Compact(&obj, in.Object) != nil {
		obj.Reset()
		obj.Write(in.Object)
	}
	return Assertion{
		ID: id, Subject: strings.TrimSpace(in.Subject), Predicate: strings.TrimSpace(in.Predicate),
		Object: obj.Bytes(), Context: strings.TrimSpace(in.Context), EpistemicStatus: in.EpistemicStatus,
		Validity: v, Provenance: prov, Refs: in.Refs, Visibility: in.Visibility, Tags: in.Tags,
		HypothesisGroup: in.HypothesisGroup, Authority: caller.Authority, Actor: audit.Actor(caller),
		CreatedAt: now, UpdatedAt: now, Status: Active,
	}
}

// putNew stores a new assertion with its indexes and, for a lease ending
// by time, its entry in the due schedule.
func (s *Service) putNew(tx *store.Txn, sp tenancy.Space, a Assertion) error {
	puts := []struct {
		t store.Table
		k []byte
	}{
		{store.TableAssertionSlot, slotKey(a.Context, a.Subject, a.Predicate).Time(a.CreatedAt).Raw(a.ID)},
		{store.TableAssertionTime, store.Suffix(nil).Time(a.CreatedAt).Raw(a.ID)},
		{store.TableAssertionIndex, store.Suffix(nil).Str(idxSubject).Str(a.Subject).Time(a.CreatedAt).Raw(a.ID)},
	}
	if ref, ok := ObjectRef(a.Object); ok {
		puts = append(puts, struct {
			t store.Table
			k []byte
		}{store.TableAssertionIndex, store.Suffix(nil).Str(idxObject).Str(ref).Time(a.CreatedAt).Raw(a.ID)})
	}
	if a.Validity.Mode == UntilEvent {
		puts = append(puts, struct {
			t store.Table
			k []byte
		}{store.TableAssertionIndex, eventKey(a)})
	}
	for _, p := range puts {
		if err := tx.Put(sp, p.t, p.k, nil, 0); err != nil {
			return err
		}
	}
	if a.Validity.Mode == UntilTime && a.Validity.ExpiresAt != nil {
		if err := tx.Schedule(leaseQueue, *a.Validity.ExpiresAt, a.ID); err != nil {
			return err
		}
	}
	s.changed(tx, ChangeAsserted, a.ID, a.CreatedAt)
	return s.put(tx, sp, a)
}

func eventKey(a Assertion) []byte {
	return store.Suffix(nil).Str(idxEvent).Str(a.Validity.UntilEvent).Str(a.Context).Raw(a.ID)
}

// put stores a's record, and a new assertion epoch of sp (touchEpoch): every
// write of an assertion record, new or changed, goes through it.
func (s *Service) put(tx *store.Txn, sp tenancy.Space, a Assertion) error {
	if err := tx.Put(sp, store.TableAssertion, store.Suffix(nil).Raw(a.ID), a, 0); err != nil {
		return err
	}
	return touchEpoch(tx, sp)
}

// endTx takes a out of ACTIVE with status st, recording why in the audit
// trail, and drops its lease bookkeeping.
func (s *Service) endTx(tx *store.Txn, actor string, a *Assertion, st Status, now time.Time, revokedBy, decisionID, detail string) error {
	sp := tx.Partition().Shared()
	at := now
	a.Status, a.EndedAt, a.UpdatedAt = st, &at, now
	a.RevokedBy, a.DecisionID = revokedBy, decisionID
	if st == Expired && s.OnExpired != nil {
		tx.AfterCommit(s.OnExpired)
	}
	s.changed(tx, endKind(st, decisionID), a.ID, now)
	if err := s.put(tx, sp, *a); err != nil {
		return err
	}
	switch a.Validity.Mode {
	case UntilEvent:
		if err := tx.Delete(sp, store.TableAssertionIndex, eventKey(*a)); err != nil {
			return err
		}
	case UntilTime:
		if a.Validity.ExpiresAt != nil {
			if err := tx.Unschedule(leaseQueue, *a.Validity.ExpiresAt, a.ID); err != nil {
				return err
			}
		}
	}
	return audit.Record(tx, sp, audit.Entry{
		ID: audit.NewID(s.opts.IDs), At: now, Actor: actor, Action: string(st), Record: a.ID, Kind: "assertion",
		By: cmp.Or(revokedBy, decisionID), Detail: detail,
	})
}

// contest handles a's active rivals: a policy decides at once, otherwise
// the slot's conflict opens or grows.
func (s *Service) contest(tx *store.Txn, caller authority.Identity, sp tenancy.Space, a *Assertion, rivals []Assertion, now time.Time) error {
	all := append(slices.Clone(rivals), *a)
	cands := make([]conflicts.Candidate, len(all))
	contenders := make([]conflicts.Contender, len(all))
	for i, c := range all {
		cands[i] = conflicts.Candidate{Kind: conflicts.KindAssertion, ID: c.ID}
		contenders[i] = conflicts.Contender{ID: c.ID, At: c.CreatedAt, Rank: s.order.Rank(c.Authority)}
		if c.Provenance.Confidence != nil {
			contenders[i].Confidence = *c.Provenance.Confidence
		}
	}
	slot := conflicts.Slot{Context: a.Context, Subject: a.Subject, Predicate: a.Predicate}
	policy, ok := s.opts.Policies[a.Predicate]
	if !ok {
		_, err := s.conflicts.OpenTx(tx, sp, slot, cands, "", now)
		return err
	}
	win := policy.Select(contenders)
	kept := cands[win]
	d := conflicts.Decision{
		ID: s.conflicts.NewDecisionID(), Kept: &kept, Policy: string(policy), Actor: audit.Actor(caller),
		Reason: fmt.Sprintf("policy %s of predicate %q kept %s", policy, a.Predicate, kept.ID),
	}
	for i := range all {
		if i == win {
			continue
		}
		loser := &all[i]
		if loser.ID == a.ID {
			loser = a
		}
		if err := s.endTx(tx, d.Actor, loser, Revoked, now, "", d.ID, "revoked by policy "+string(policy)); err != nil {
			return err
		}
		d.Revoked = append(d.Revoked, cands[i])
	}
	_, _, err := s.conflicts.DecideTx(tx, sp, slot, cands, d, now)
	return err
}

// slotTx returns every assertion of a slot, oldest first.
func (s *Service) slotTx(tx *store.Txn, sp tenancy.Space, ctx, subject, predicate string) ([]Assertion, error) {
	return s.scanTx(tx, sp, store.TableAssertionSlot, slotKey(ctx, subject, predicate))
}

// scanTx loads the assertions of an index whose keys end in createdAt
// and id after prefix.
func (s *Service) scanTx(tx *store.Txn, sp tenancy.Space, t store.Table, prefix []byte) ([]Assertion, error) {
	var ids []string
	err := tx.Scan(sp, t, prefix, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
		k := suffix[len(prefix):]
		ids = append(ids, store.AfterTime(string(k))) // after createdAt
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Assertion, 0, len(ids))
	for _, id := range ids {
		var a Assertion
		if err := tx.Get(sp, store.TableAssertion, store.Suffix(nil).Raw(id), &a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// getTx returns the stored assertion id of tx's organization.
func getTx(tx *store.Txn, id string) (Assertion, error) {
	if !strings.HasPrefix(id, "ST-") || len(id) > 64 {
		return Assertion{}, store.ErrNotFound
	}
	raw, err := tx.GetRaw(tx.Partition().Shared(), store.TableAssertion, store.Suffix(nil).Raw(id))
	if err != nil {
		return Assertion{}, err
	}
	return decodeAssertion(raw)
}

// CandidateTx returns the status of assertion id now and the authority it
// was asserted with. It implements conflicts.Assertions.
func (s *Service) CandidateTx(tx *store.Txn, id string) (status, auth string, err error) {
	a, err := getTx(tx, id)
	if err != nil {
		return "", "", err
	}
	cur, _ := a.In(temporal.View{}, s.clock.Now())
	return string(cur.Status), a.Authority, nil
}

// RevokeTx revokes assertion id, if still active, by decision decisionID.
// It implements conflicts.Assertions.
func (s *Service) RevokeTx(tx *store.Txn, caller authority.Identity, id, decisionID string, now time.Time) (bool, error) {
	return s.revokeTx(tx, caller, id, "", decisionID, "revoked by decision "+decisionID, now)
}

// revokeTx revokes assertion id if it is still active: by names the
// record that replaced it, decisionID the decision that chose another.
func (s *Service) revokeTx(tx *store.Txn, caller authority.Identity, id, by, decisionID, detail string, now time.Time) (bool, error) {
	a, err := getTx(tx, id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if cur, _ := a.In(temporal.View{}, now); cur.Status != Active {
		return false, nil
	}
	return true, s.endTx(tx, audit.Actor(caller), &a, Revoked, now, by, decisionID, detail)
}

// SignalEvent expires every active UNTIL_EVENT assertion waiting for event
// name, in context ctxID when it is not nil, else in every context, in one
// transaction, and returns them.
func (s *Service) SignalEvent(ctx context.Context, name string, ctxID *string) ([]Assertion, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(name) == "" || len(name) > maxName {
		return nil, fault.BadInputf("name", "name must be 1 to %d bytes", maxName)
	}
	prefix := store.Suffix(nil).Str(idxEvent).Str(name)
	if ctxID != nil {
		prefix = prefix.Str(*ctxID)
	}
	var out []Assertion
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		out = nil
		sp := p.Shared()
		var ids []string
		err := tx.Scan(sp, store.TableAssertionIndex, prefix, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
			r := store.NewReader(suffix)
			r.Str()
			r.Str()
			r.Str()
			ids = append(ids, r.Rest())
			return true, r.Err()
		})
		if err != nil {
			return err
		}
		now := s.clock.Now()
		for _, id := range ids {
			a, err := getTx(tx, id)
			if err != nil {
				return err
			}
			if cur, _ := a.In(temporal.View{}, now); cur.Status != Active || a.Validity.UntilEvent != name {
				continue
			}
			if err := s.endTx(tx, audit.Actor(caller), &a, Expired, now, "", "", fmt.Sprintf("event %q signalled", name)); err != nil {
				return err
			}
			cur, _ := a.In(temporal.View{}, now)
			out = append(out, cur)
		}
		return nil
	})
	return out, err
}

// DecisionInput is the explicit decision that promotes an assertion.
type DecisionInput struct {
	Reason string
	// Key of the fact; default "<subject>.<predicate>".
	Key        string
	MemoryType facts.MemoryType
	Scope      facts.Scope
}

// Promote turns active assertion id into a persistent fact by an explicit
// decision, in one transaction: the fact (PromotedFrom id) is written, the
// assertion becomes PROMOTED (PromotedTo the fact), and the decision and an
// audit entry record who, when and why.
func (s *Service) Promote(ctx context.Context, id string, d DecisionInput) (facts.Fact, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return facts.Fact{}, err
	}
	d.Reason = strings.TrimSpace(d.Reason)
	if d.Reason == "" || len(d.Reason) > maxText {
		return facts.Fact{}, fault.BadInputf("decision.reason", "a promotion needs a reason of 1 to %d bytes", maxText)
	}
	var out facts.Fact
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		a, err := getTx(tx, id)
		if errors.Is(err, store.ErrNotFound) {
			return fault.New(fault.NotFound, "no state assertion with id %q", id)
		}
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if cur, _ := a.In(temporal.View{}, now); cur.Status != Active {
			return fault.BadInputf("id", "only an active assertion can be promoted; %q is %s", id, cur.Status)
		}
		dec := conflicts.Decision{
			ID: s.conflicts.NewDecisionID(), Kept: &conflicts.Candidate{Kind: conflicts.KindAssertion, ID: a.ID, At: now},
			Reason: d.Reason, Actor: audit.Actor(caller), At: now,
		}
		f, err := s.write.WriteTx(tx, caller, facts.WriteInput{
			Key: cmp.Or(strings.TrimSpace(d.Key), a.Subject+"."+a.Predicate), Value: a.Object,
			MemoryType: d.MemoryType, Scope: d.Scope, PromotedFrom: a.ID, ReplaceKey: true,
		})
		if err != nil {
			return err
		}
		dec.Promoted = f.ID
		if err := s.conflicts.PutDecisionTx(tx, tx.Partition().Shared(), dec); err != nil {
			return err
		}
		a.PromotedTo = f.ID
		if err := s.endTx(tx, dec.Actor, &a, Promoted, now, "", dec.ID, fmt.Sprintf("promoted to fact %s: %s", f.ID, d.Reason)); err != nil {
			return err
		}
		out = f
		return nil
	})
	return out, err
}

// ActiveTx returns up to limit of the organization's assertions active at
// now, most recently created first, looking at no more than 4*limit of the
// latest assertions.
func (s *Service) ActiveTx(tx *store.Txn, now time.Time, limit int) ([]Assertion, error) {
	var out []Assertion
	err := s.EachActiveTx(tx, now, limit, func(a Assertion) bool {
		out = append(out, a.clone())
		return true
	})
	return out, err
}

// EachActiveTx calls fn with the assertions ActiveTx returns, in its
// order, until fn returns false. Like EachRecentTx's, the Assertion fn gets
// shares its slices and pointers with the cache of decoded records: fn
// must neither modify nor keep them (it copies what it keeps), which
// spares recordTurn, which reads a few fields of each, a deep copy of
// every active assertion on every turn.
func (s *Service) EachActiveTx(tx *store.Txn, now time.Time, limit int, fn func(Assertion) bool) error {
	// The active ones among the 4×limit most recent, as RecentTx would
	// return them, without keeping the others.
	if limit <= 0 {
		return nil
	}
	seen, active := 0, 0
	return scanRecent(tx, temporal.View{}, now, 4*limit, func(a Assertion) bool {
		seen++
		if a.Status == Active {
			active++
			if !fn(a) {
				return false
			}
		}
		return seen < 4*limit && active < limit
	})
}

// RetractTx revokes assertion id, if still active, because record by (a
// conversation turn) replaced it; detail says why, in the audit trail.
func (s *Service) RetractTx(tx *store.Txn, caller authority.Identity, id, by, detail string, now time.Time) (bool, error) {
	return s.revokeTx(tx, caller, id, by, "", detail, now)
}
