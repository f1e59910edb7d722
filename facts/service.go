package facts

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Input limits.
const (
	MaxKeyLen   = 256
	MaxValueLen = 64 << 10
	maxChain    = 10000
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:#-]{0,127}$`)

// ValidID reports whether s may be used as a record id.
func ValidID(s string) bool { return idPattern.MatchString(s) }

// Service reads and writes persistent facts. It is safe for concurrent use
// once its listeners, observers and hooks are set (at wiring time).
type Service struct {
	store     *store.Store
	clock     temporal.Clock
	order     *authority.Order
	listeners []Listener
	observers []func(written Fact, superseded *Fact)
	rules     *permissions.Rules

	// Volatile, when set, reports whether a key names volatile state
	// (a location, a status, ...). Such a key is refused by every write
	// except a promotion (WriteInput.PromotedFrom): state is asserted with
	// a lease (assertState), not stored as a fact.
	Volatile func(key string) bool
	// OnWrite, when set, is called inside WriteTx after f is stored, with
	// the other currently valid facts having f's key (f's own supersession
	// already applied, so the fact f replaced is not among them). It runs
	// in f's transaction; an error aborts the write. The conflicts package
	// uses it to open a Conflict between valid facts that disagree.
	OnWrite func(tx *store.Txn, caller authority.Identity, f Fact, rivals []Fact) error
	// Stale, when set, is asked about every explicit write (not a
	// detection's, not a promotion's) before it is stored: a non-nil
	// Staleness means the write restates a value the conversation already
	// replaced. Such a fact is stored invalid from birth, supersedes
	// nothing and opens no conflict. It runs in the write's transaction.
	// in is the write as asked (whether validFrom was given, say).
	Stale func(tx *store.Txn, f Fact, in WriteInput) (*Staleness, error)
	// Directives, when set, is asked about every explicit write that
	// supersedes nothing: it may name a valid fact the write replaces (an
	// instruction it outranks, with the cue recorded on the edge), or say
	// that the write is itself outranked, in which case it is stored like
	// a stale write: invalid from birth. It runs in the write's transaction.
	Directives func(tx *store.Txn, caller authority.Identity, f Fact) (replaces, cue string, outranked *Staleness, err error)
}

// Option configures a Service.
type Option func(*Service)

// WithPermissions sets the read and write rules; the default is
// permissions.DefaultOptions over the service's order.
func WithPermissions(r *permissions.Rules) Option {
	return func(s *Service) { s.rules, s.order = r, r.Order() }
}

// A Listener is told about every fact written, inside the write
// transaction, so that what it maintains (an index, a conflict) commits or
// aborts with the fact. superseded is the fact the write retired, if any,
// as it now stands. An error aborts the write.
type Listener interface {
	FactWritten(tx *store.Txn, caller authority.Identity, written Fact, superseded *Fact) error
}

// A ForgetListener is a Listener that is also told, inside the forgetting
// transaction, that a fact was forgotten. before is the fact as it stood,
// so that what was derived from its text (a search index) is erased too.
// An error aborts the forgetting.
type ForgetListener interface {
	FactForgotten(tx *store.Txn, before Fact) error
}

// AddListener registers l. Call it before serving.
func (s *Service) AddListener(l Listener) { s.listeners = append(s.listeners, l) }

// Observe registers fn, called after every committed write, by Write or
// inside another mutation's transaction by WriteTx (for metrics).
// Call it before serving.
func (s *Service) Observe(fn func(written Fact, superseded *Fact)) {
	s.observers = append(s.observers, fn)
}

// NewService returns a Service over st.
func NewService(st *store.Store, clock temporal.Clock, order *authority.Order, opts ...Option) *Service {
	s := &Service{store: st, clock: clock, order: order}
	for _, o := range opts {
		o(s)
	}
	if s.rules == nil {
		po := permissions.DefaultOptions()
		if !order.Known(po.PolicyMinAuthority) {
			names := order.Names()
			po.PolicyMinAuthority = names[len(names)-1]
		}
		r, err := permissions.New(order, po)
		if err != nil {
			panic(err) // unreachable: both options are valid for order
		}
		s.rules = r
	}
	return s
}

// WriteInput is a fact to record. Only Key and Value are required.
type WriteInput struct {
	ID             string
	Key            string
	Value          json.RawMessage
	Source         *Source
	MemoryType     MemoryType
	Scope          Scope
	ScopeID        string
	DependsOn      []string
	IsConstraint   *bool
	ConstraintType string
	ValidFrom      *time.Time
	// Supersedes names a fact id, or a key meaning the currently valid
	// fact with that key.
	Supersedes string
	Kind       SupersessionKind
	Reason     string
	// Detection and Cue record what found the supersession; empty means
	// an explicit write.
	Detection string
	Cue       string
	// Level is the abstraction level of capability memory (default
	// EVENT); it is an error for the other memory types.
	Level MemoryLevel
	// RestrictedTo limits who may read the fact.
	RestrictedTo *permissions.Restriction
	// PromotedFrom names the state assertion being promoted; only
	// promoteState sets it.
	PromotedFrom string
}

func (in *WriteInput) validate() error {
	switch {
	case in.Key == "" || strings.TrimSpace(in.Key) == "":
		return fault.BadInputf("key", "key must not be empty")
	case len(in.Key) > MaxKeyLen || !utf8.ValidString(in.Key):
		return fault.BadInputf("key", "key must be valid UTF-8 of at most %d bytes", MaxKeyLen)
	case len(in.Value) == 0 || !json.Valid(in.Value):
		return fault.BadInputf("value", "value must be a JSON value")
	case string(in.Value) == "null":
		return fault.BadInputf("value", "value must not be null")
	case len(in.Value) > MaxValueLen:
		return fault.BadInputf("value", "value must be at most %d bytes", MaxValueLen)
	case in.ID != "" && !ValidID(in.ID):
		return fault.BadInputf("id", "id %q is not valid: use 1 to 128 letters, digits and . _ : # -, starting with a letter or digit", in.ID)
	case in.MemoryType != "" && !in.MemoryType.Valid():
		return fault.BadInputf("memoryType", "unknown memory type %q", in.MemoryType)
	case in.Scope != "" && !in.Scope.Valid():
		return fault.BadInputf("scope", "unknown scope %q", in.Scope)
	case in.Kind != "" && !in.Kind.Valid():
		return fault.BadInputf("supersedes", "unknown supersession kind %q", in.Kind)
	case in.Kind != "" && in.Supersedes == "":
		return fault.BadInputf("supersedes", "a supersession kind needs supersedes")
	case in.Source != nil && in.Source.Type != "" && !in.Source.Type.Valid():
		return fault.BadInputf("source.type", "unknown source type %q", in.Source.Type)
	case len(in.ScopeID) > MaxKeyLen || len(in.Reason) > 1024 || len(in.ConstraintType) > 64:
		return fault.BadInputf("input", "scopeId, reason or constraintType is too long")
	case len(in.DependsOn) > 100:
		return fault.BadInputf("dependsOn", "a fact may depend on at most 100 facts")
	case in.Level != "" && !in.Level.Valid():
		return fault.BadInputf("level", "unknown memory level %q", in.Level)
	}
	if in.ValidFrom != nil && (in.ValidFrom.Year() < 1 || in.ValidFrom.Year() > 9999) {
		return fault.BadInputf("validFrom", "validFrom is out of range")
	}
	return nil
}

// Write records a fact for the caller in ctx, in one transaction.
func (s *Service) Write(ctx context.Context, in WriteInput) (Fact, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return Fact{}, err
	}
	var out Fact
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		out, _, err = s.writeTx(tx, caller, in)
		return err
	})
	return out, err
}

// WriteTx records a fact inside tx, so that other mutations (promotion,
// detection) can write facts in their own transaction.
func (s *Service) WriteTx(tx *store.Txn, caller authority.Identity, in WriteInput) (Fact, error) {
	f, _, err := s.writeTx(tx, caller, in)
	return f, err
}

func (s *Service) writeTx(tx *store.Txn, caller authority.Identity, in WriteInput) (Fact, *Fact, error) {
	f, old, err := s.record(tx, caller, in)
	if err != nil {
		return Fact{}, nil, err
	}
	for _, l := range s.listeners {
		if err := l.FactWritten(tx, caller, f, old); err != nil {
			return Fact{}, nil, err
		}
	}
	if len(s.observers) > 0 {
		tx.AfterCommit(func() {
			for _, fn := range s.observers {
				fn(f, old)
			}
		})
	}
	return f, old, nil
}

// record validates and stores the fact, superseding as asked; it returns
// the superseded fact, if any.
func (s *Service) record(tx *store.Txn, caller authority.Identity, in WriteInput) (Fact, *Fact, error) {
	if err := in.validate(); err != nil {
		return Fact{}, nil, err
	}
	if in.RestrictedTo != nil {
		if err := s.rules.Validate(*in.RestrictedTo); err != nil {
			return Fact{}, nil, err
		}
	}
	if s.Volatile != nil && in.PromotedFrom == "" && s.Volatile(in.Key) {
		return Fact{}, nil, fault.BadInputf("key", "admission rule volatile-predicate: key %q names volatile state, which is not stored as a fact; record it with assertState (a state assertion with a lease) and promote it with promoteState if it must persist", in.Key)
	}
	now := s.clock.Now()
	src := DefaultSource(caller)
	if in.Source != nil {
		given := *in.Source
		if given.Type == "" {
			given.Type = src.Type
		}
		if given.Authority == "" {
			given.Authority = src.Authority
		} else if err := s.rules.Attribute(caller, given.Authority); err != nil {
			return Fact{}, nil, err
		}
		src = given
	}
	mt := in.MemoryType
	if mt == "" {
		mt = InferMemoryType(src.Type, caller)
	}
	f := Fact{
		ID: in.ID, Key: in.Key, Value: compact(in.Value), MemoryType: mt,
		Scope: cmp.Or(in.Scope, ScopeGlobal), ScopeID: in.ScopeID,
		Source: src, DependsOn: dedupe(in.DependsOn),
		ValidFrom: now, RecordedAt: now, PromotedFrom: in.PromotedFrom,
	}
	if in.RestrictedTo != nil && !in.RestrictedTo.Empty() {
		r := *in.RestrictedTo
		f.RestrictedTo = &r
	}
	if err := s.gateMemory(caller, &f, in.Level); err != nil {
		return Fact{}, nil, err
	}
	sp, err := spaceFor(tx.Partition(), f.MemoryType)
	if err != nil {
		return Fact{}, nil, err
	}
	f.Owner = sp.Owner()
	if in.ValidFrom != nil {
		f.ValidFrom = in.ValidFrom.UTC()
	}
	if in.IsConstraint != nil {
		f.IsConstraint = *in.IsConstraint
		f.ConstraintType = in.ConstraintType
		if f.IsConstraint && f.ConstraintType == "" {
			_, f.ConstraintType = InferConstraint(f.Text(), src.Type)
		}
	} else {
		f.IsConstraint, f.ConstraintType = InferConstraint(f.Text(), src.Type)
		if in.ConstraintType != "" {
			f.IsConstraint, f.ConstraintType = true, in.ConstraintType
		}
	}
	if s.rules.IsPolicy(src.Type == SourcePolicy, f.IsConstraint, src.Authority) {
		if err := s.rules.WritePolicy(caller); err != nil {
			return Fact{}, nil, err
		}
	}
	if f.ID == "" {
		f.ID = "F-" + ulid.Make().String()
	} else if _, _, err := s.find(tx, f.ID); err == nil {
		return Fact{}, nil, fault.New(fault.Conflict, "a fact with id %q already exists", f.ID)
	} else if !errors.Is(err, store.ErrNotFound) {
		return Fact{}, nil, err
	}
	for _, dep := range f.DependsOn {
		if dep == f.ID {
			return Fact{}, nil, fault.BadInputf("dependsOn", "a fact cannot depend on itself")
		}
		_, depSpace, err := s.findVisible(tx, caller, dep)
		if errors.Is(err, store.ErrNotFound) {
			return Fact{}, nil, fault.BadInputf("dependsOn", "dependsOn names no fact with id %q", dep)
		}
		if err != nil {
			return Fact{}, nil, err
		}
		if err := tx.Put(depSpace, store.TableFactDerived, store.Suffix(nil).Str(dep).Raw(f.ID), nil, 0); err != nil {
			return Fact{}, nil, err
		}
	}
	var st *Staleness
	if s.Directives != nil && in.Supersedes == "" && in.Detection == "" && in.PromotedFrom == "" {
		replaces, cue, outranked, err := s.Directives(tx, caller, f)
		if err != nil {
			return Fact{}, nil, err
		}
		st = outranked
		if replaces != "" && outranked == nil {
			in.Supersedes, in.Kind, in.Detection, in.Cue = replaces, Change, DetectionAuthority, cue
		}
	}
	if st == nil && s.Stale != nil && in.Detection == "" && in.PromotedFrom == "" {
		if st, err = s.Stale(tx, f, in); err != nil {
			return Fact{}, nil, err
		}
	}
	if st != nil {
		f.Stale = st
		never := f.ValidFrom
		f.ValidTo = &never
		if err := s.put(tx, sp, f); err != nil {
			return Fact{}, nil, err
		}
		f.view = temporal.View{}
		if err := tx.Put(sp, store.TableFactStale, store.Suffix(nil).Time(f.RecordedAt).Raw(f.ID), nil, 0); err != nil {
			return Fact{}, nil, err
		}
		return f, nil, indexNew(tx, sp, f)
	}
	var old, refused *Fact // refused: a higher-authority fact this write asked to supersede
	if in.Supersedes != "" {
		if old, refused, err = s.supersede(tx, caller, &f, in, now); err != nil {
			return Fact{}, nil, err
		}
	}
	if err := s.put(tx, sp, f); err != nil {
		return Fact{}, nil, err
	}
	if err := indexNew(tx, sp, f); err != nil {
		return Fact{}, nil, err
	}
	if refused != nil {
		if err := s.refuse(tx, caller, sp, *refused, f, now); err != nil {
			return Fact{}, nil, err
		}
	}
	f.view = temporal.View{}
	if s.OnWrite != nil {
		if err := s.onWrite(tx, caller, f); err != nil {
			return Fact{}, nil, err
		}
	}
	return f, old, nil
}

// gateMemory applies the write gates of f's memory type: user memory is
// not created by users; capability memory carries a level (default EVENT)
// that the agent's maturity must reach.
func (s *Service) gateMemory(caller authority.Identity, f *Fact, level MemoryLevel) error {
	switch f.MemoryType {
	case MemoryUser:
		if err := s.rules.WriteUserMemory(caller); err != nil {
			return err
		}
	case MemoryCapability:
		f.Level = cmp.Or(level, LevelEvent)
		return s.rules.WriteCapability(caller, f.Level.AgentLevel(), string(f.Level))
	}
	if level != "" {
		return fault.BadInputf("level", "level applies to CAPABILITY memory only; this fact is %s memory", f.MemoryType)
	}
	return nil
}

// ActionSupersessionRefused is the audit action of a write that asked to
// supersede a fact of higher authority and was stored beside it instead.
const ActionSupersessionRefused = "SUPERSESSION_REFUSED"

// refuse records that f asked to supersede the higher-authority fact old
// and was stored beside it, in the audit trail. The conflict between the
// two valid facts of one key is opened by the OnWrite hook (the conflicts
// package), like any other.
func (s *Service) refuse(tx *store.Txn, caller authority.Identity, sp tenancy.Space, old, f Fact, now time.Time) error {
	reason := fmt.Sprintf("authority %s cannot supersede authority %s",
		s.rules.Describe(f.Source.Authority), s.rules.Describe(old.Source.Authority))
	return audit.Record(tx, sp, audit.Entry{
		At: now, Actor: audit.Actor(caller), Action: ActionSupersessionRefused,
		Record: f.ID, Kind: "fact", By: old.ID, Detail: reason,
	})
}

// onWrite calls the OnWrite hook with the other valid facts of f's key.
func (s *Service) onWrite(tx *store.Txn, caller authority.Identity, f Fact) error {
	// Only a fact of the same memory and owner can be f's rival.
	sp, err := spaceFor(tx.Partition(), f.MemoryType)
	if err != nil {
		return err
	}
	heads, err := s.validByKey(tx, f.Key, sp)
	if err != nil {
		return err
	}
	var rivals []Fact
	for _, h := range heads {
		if h.ID != f.ID && h.Key == f.Key {
			rivals = append(rivals, h)
		}
	}
	return s.OnWrite(tx, caller, f, rivals)
}

// supersede links f to the fact named by in.Supersedes and retires it;
// it returns the retired fact as it now stands.
//
// Authority rule: a fact of higher authority than f's source is never
// superseded. With the conflict treatment (the default), supersede leaves
// it alone and returns it as refused, and f is stored as a plain fact
// beside it; with the reject treatment the write is FORBIDDEN.
func (s *Service) supersede(tx *store.Txn, caller authority.Identity, f *Fact, in WriteInput, now time.Time) (retired, refused *Fact, err error) {
	old, oldSpace, err := s.resolve(tx, caller, in.Supersedes)
	if err != nil {
		return nil, nil, err
	}
	if old.Forgotten != nil {
		return nil, nil, fault.New(fault.Conflict, "fact %q was forgotten; it cannot be superseded", old.ID)
	}
	if old.SupersededBy != "" {
		head, err := s.head(tx, old)
		if err != nil {
			return nil, nil, err
		}
		if !s.visible(caller, head) {
			return nil, nil, fault.New(fault.Conflict, "fact %q was already superseded", old.ID)
		}
		return nil, nil, fault.New(fault.Conflict, "fact %q was already superseded by %q; the current head of its chain is %q", old.ID, old.SupersededBy, head.ID)
	}
	if old.MemoryType == MemoryCapability {
		if err := s.rules.WriteCapability(caller, old.Level.AgentLevel(), string(cmp.Or(old.Level, LevelEvent))); err != nil {
			return nil, nil, err
		}
	}
	if !s.rules.Supersedes(f.Source.Authority, old.Source.Authority) {
		if s.rules.Violation() == permissions.ViolationReject {
			return nil, nil, fault.New(fault.Forbidden, "fact %q has authority %s, above this write's %s: a lower authority cannot supersede it",
				old.ID, s.rules.Describe(old.Source.Authority), s.rules.Describe(f.Source.Authority))
		}
		return nil, &old, nil
	}
	kind := cmp.Or(in.Kind, Change)
	switch kind {
	case Change:
		if f.ValidFrom.Before(old.ValidFrom) {
			return nil, nil, fault.BadInputf("validFrom", "validFrom %s is before the superseded fact's validFrom %s; to say the old value was never true, use kind CORRECTION",
				f.ValidFrom.Format(time.RFC3339), old.ValidFrom.Format(time.RFC3339))
		}
		end := f.ValidFrom
		old.ValidTo = &end
	case Correction:
		if in.ValidFrom != nil && !in.ValidFrom.Equal(old.ValidFrom) {
			return nil, nil, fault.BadInputf("validFrom", "a correction takes over the superseded fact's valid time; omit validFrom")
		}
		f.ValidFrom = old.ValidFrom
		never := old.ValidFrom
		old.ValidTo = &never
	}
	at := now
	if err := unlistValid(tx, oldSpace, old); err != nil {
		return nil, nil, err
	}
	for _, k := range old.headKeys() {
		if k != f.Key && !slices.Contains(f.Aliases, k) {
			f.Aliases = append(f.Aliases, k)
		}
	}
	old.SupersededBy, old.SupersededAt = f.ID, &at
	f.Supersedes = old.ID
	actor := cmp.Or(caller.UserName, caller.UserID)
	f.Supersession = &Supersession{
		Kind: kind, Detection: cmp.Or(in.Detection, DetectionExplicitWrite),
		Cue: in.Cue, Reason: in.Reason, Actor: actor, At: now,
	}
	if err := s.put(tx, oldSpace, old); err != nil {
		return nil, nil, err
	}
	return &old, nil, s.flagDerived(tx, old.ID, now)
}

// flagDerived marks every valid fact derived from id, transitively, as
// needing review. Derived facts in spaces the caller cannot reach (another
// user's memory) are not visible to this transaction and are left alone.
func (s *Service) flagDerived(tx *store.Txn, id string, now time.Time) error {
	seen := map[string]bool{id: true}
	queue := []string{id}
	for len(queue) > 0 && len(seen) < maxChain {
		base := queue[0]
		queue = queue[1:]
		derived, err := s.derivedTx(tx, base, temporal.View{})
		if err != nil {
			return err
		}
		for _, df := range derived {
			if seen[df.ID] || df.SupersededBy != "" {
				continue
			}
			seen[df.ID] = true
			if df.NeedsReviewAt == nil {
				at := now
				df.NeedsReviewAt = &at
				sp, err := spaceFor(tx.Partition(), df.MemoryType)
				if err != nil {
					return err
				}
				if err := s.put(tx, sp, df); err != nil {
					return err
				}
			}
			queue = append(queue, df.ID)
		}
	}
	return nil
}

// resolve finds the fact a supersedes field names, among those caller may
// see: an id, or else the currently valid fact with that key.
func (s *Service) resolve(tx *store.Txn, caller authority.Identity, ref string) (Fact, tenancy.Space, error) {
	f, sp, err := s.findVisible(tx, caller, ref)
	if err == nil {
		return f, sp, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return Fact{}, tenancy.Space{}, err
	}
	heads, err := s.validByKey(tx, ref)
	if err != nil {
		return Fact{}, tenancy.Space{}, err
	}
	var valid []Fact
	for _, h := range heads {
		if h.Key == ref && s.visible(caller, h) {
			valid = append(valid, h)
		}
	}
	if len(valid) == 0 {
		return Fact{}, tenancy.Space{}, fault.New(fault.NotFound, "supersedes names no fact id and no currently valid fact with key %q", ref)
	}
	best := s.best(valid)
	sp, err = spaceFor(tx.Partition(), best.MemoryType)
	return best, sp, err
}

// find looks a fact up by id in every space of the transaction's partition.
func (s *Service) find(tx *store.Txn, id string) (Fact, tenancy.Space, error) {
	if !ValidID(id) {
		return Fact{}, tenancy.Space{}, store.ErrNotFound
	}
	for _, sp := range tx.Partition().Spaces() {
		var f Fact
		err := tx.Get(sp, store.TableFact, store.Suffix(nil).Raw(id), &f)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return Fact{}, tenancy.Space{}, err
		}
		return f, sp, nil
	}
	return Fact{}, tenancy.Space{}, store.ErrNotFound
}

// findVisible is find for caller: a fact caller may not see is not found.
func (s *Service) findVisible(tx *store.Txn, caller authority.Identity, id string) (Fact, tenancy.Space, error) {
	f, sp, err := s.find(tx, id)
	if err == nil && !s.visible(caller, f) {
		return Fact{}, tenancy.Space{}, store.ErrNotFound
	}
	return f, sp, err
}

// visible reports whether caller may read f.
func (s *Service) visible(caller authority.Identity, f Fact) bool {
	return s.rules.CanRead(caller, f.RestrictedTo)
}

func (s *Service) put(tx *store.Txn, sp tenancy.Space, f Fact) error {
	if f.RestrictedTo != nil {
		if err := tx.PutRaw(sp, store.TableFactRestricted, nil, nil); err != nil {
			return err
		}
	}
	if err := putCard(tx, sp, f); err != nil {
		return err
	}
	return tx.Put(sp, store.TableFact, store.Suffix(nil).Raw(f.ID), f, 0)
}

// AnyRestricted reports whether any space of tx's partition holds a fact
// with a read restriction; when none does, every fact is readable by every
// caller of the partition and per-fact checks can be skipped.
func AnyRestricted(tx *store.Txn) (bool, error) {
	for _, sp := range tx.Partition().Spaces() {
		if ok, err := tx.Exists(sp, store.TableFactRestricted, nil); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func indexNew(tx *store.Txn, sp tenancy.Space, f Fact) error {
	if err := tx.Put(sp, store.TableFactByKey, store.Suffix(nil).Str(f.Key).Time(f.RecordedAt).Raw(f.ID), nil, 0); err != nil {
		return err
	}
	if err := tx.Put(sp, store.TableFactByTime, store.Suffix(nil).Time(f.RecordedAt).Raw(f.ID), nil, 0); err != nil {
		return err
	}
	if !f.IsValid() {
		return nil
	}
	for _, k := range f.headKeys() {
		if err := tx.Put(sp, store.TableFactValid, store.Suffix(nil).Str(k).Raw(f.ID), nil, 0); err != nil {
			return err
		}
	}
	return nil
}

// unlistValid removes f from the valid heads of its keys.
func unlistValid(tx *store.Txn, sp tenancy.Space, f Fact) error {
	for _, k := range f.headKeys() {
		if err := tx.Delete(sp, store.TableFactValid, store.Suffix(nil).Str(k).Raw(f.ID)); err != nil {
			return err
		}
	}
	return nil
}

// validByKey returns the currently valid heads listed under key, in the
// given spaces (every space of the partition when none are given): the
// chains that hold a fact with that key.
func (s *Service) validByKey(tx *store.Txn, key string, spaces ...tenancy.Space) ([]Fact, error) {
	if len(spaces) == 0 {
		spaces = tx.Partition().Spaces()
	}
	var out []Fact
	for _, sp := range spaces {
		ids, err := tx.Tails(sp, store.TableFactValid, store.Suffix(nil).Str(key))
		if err != nil {
			return nil, err
		}
		fs, err := loadIn(tx, sp, ids, temporal.View{})
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			if f.IsValid() {
				out = append(out, f)
			}
		}
	}
	slices.SortFunc(out, byRecorded)
	return out, nil
}

// loadIn reads the facts ids of space sp as they stand in view v, leaving
// out those v does not know yet.
func loadIn(tx *store.Txn, sp tenancy.Space, ids []string, v temporal.View) ([]Fact, error) {
	var out []Fact
	for _, id := range ids {
		var raw Fact
		if err := tx.Get(sp, store.TableFact, store.Suffix(nil).Raw(id), &raw); err != nil {
			return nil, err
		}
		if f, ok := raw.In(v); ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// spaceFor returns the space a fact of memory type mt lives in.
func spaceFor(p tenancy.Partition, mt MemoryType) (tenancy.Space, error) {
	switch mt {
	case MemoryUser:
		return p.Private(), nil
	case MemoryCapability:
		sp, ok := p.Capability()
		if !ok {
			return tenancy.Space{}, fault.BadInputf("memoryType", "capability memory needs a token with a capability claim")
		}
		return sp, nil
	default:
		return p.Shared(), nil
	}
}

// best picks the current value among competing valid facts: the highest
// authority, then the latest valid time, then the latest recorded.
func (s *Service) best(fs []Fact) Fact {
	return slices.MaxFunc(fs, func(a, b Fact) int {
		return cmp.Or(
			cmp.Compare(s.order.Rank(a.Source.Authority), s.order.Rank(b.Source.Authority)),
			a.ValidFrom.Compare(b.ValidFrom),
			a.RecordedAt.Compare(b.RecordedAt),
			cmp.Compare(a.ID, b.ID),
		)
	})
}

func compact(v json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return v
	}
	return b.Bytes()
}

func dedupe(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// errChainTooLong guards against a corrupted, cyclic chain.
var errChainTooLong = fmt.Errorf("facts: supersession chain longer than %d", maxChain)
