package facts

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

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

// Service stores and reads persistent facts. It is a plain storage layer:
// it validates nothing beyond the shape of its records and never calls back
// into higher packages. Writes go through package pipeline, which uses the
// storage primitives below inside its transaction. It is safe for
// concurrent use.
type Service struct {
	store *store.Store
	clock temporal.Clock
	order *authority.Order
	rules *permissions.Rules
	cards *Cards // Connection's card cache
}

// Option configures a Service.
type Option func(*Service)

// WithPermissions sets the read and write rules; the default is
// permissions.DefaultOptions over the service's order.
func WithPermissions(r *permissions.Rules) Option {
	return func(s *Service) { s.rules, s.order = r, r.Order() }
}

// NewService returns a Service over st.
func NewService(st *store.Store, clock temporal.Clock, order *authority.Order, opts ...Option) *Service {
	s := &Service{store: st, clock: clock, order: order, cards: NewCards()}
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

// Rules returns the permission rules the service reads with.
func (s *Service) Rules() *permissions.Rules { return s.rules }

// Store returns the store the service reads and writes.
func (s *Service) Store() *store.Store { return s.store }

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
	// RestrictedTo limits who may read the fact. A successor's is joined
	// with its predecessor's (it only tightens), unless Declassify.
	RestrictedTo *permissions.Restriction
	// Declassify asks that the successor carry RestrictedTo as given,
	// even when that is looser than the predecessor's; it needs
	// Supersedes and the authority the predecessor's restriction asks for.
	Declassify bool
	// PromotedFrom names the state assertion being promoted; only
	// promoteState sets it.
	PromotedFrom string
	// ReplaceKey asks, when Supersedes is empty, that the write supersede
	// the currently valid fact with its key that the writer may read, if
	// there is one (a promotion onto a key takes its place, and inherits
	// its restriction); with none, the write replaces nothing.
	ReplaceKey bool
}

// Validate checks the shape of a write: lengths, enumerations, ids and
// the range of its times. It reads nothing.
func (in *WriteInput) Validate() error {
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
	case in.Declassify && in.Supersedes == "":
		return fault.BadInputf("declassify", "declassify loosens the restriction of the fact a write supersedes; name that fact in supersedes")
	case in.Source != nil && in.Source.Type != "" && !in.Source.Type.Valid():
		return fault.BadInputf("source.type", "unknown source type %q", in.Source.Type)
	case len(in.ScopeID) > MaxKeyLen || len(in.Reason) > 1024 || len(in.ConstraintType) > 64:
		return fault.BadInputf("input", "scopeId, reason or constraintType is too long")
	case len(in.DependsOn) > 100:
		return fault.BadInputf("dependsOn", "a fact may depend on at most 100 facts")
	case in.Level != "" && !in.Level.Valid():
		return fault.BadInputf("level", "unknown memory level %q", in.Level)
	}
	if in.ValidFrom != nil && temporal.Check(*in.ValidFrom) != nil {
		return fault.BadInputf("validFrom", "validFrom is out of range")
	}
	return nil
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
				sp, err := SpaceOf(tx.Partition(), df.MemoryType)
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
// see and keep accepts (nil: all): an id, or else the currently valid fact
// with that key; in the given spaces only, when some are given.
func (s *Service) resolve(tx *store.Txn, caller authority.Identity, ref string, keep func(Fact) bool, spaces ...tenancy.Space) (Fact, tenancy.Space, error) {
	if keep == nil {
		keep = func(Fact) bool { return true }
	}
	f, sp, err := s.findVisible(tx, caller, ref)
	if err == nil && (len(spaces) == 0 || slices.Contains(spaces, sp)) && keep(f) {
		return f, sp, nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Fact{}, tenancy.Space{}, err
	}
	heads, err := s.validByKey(tx, ref, spaces...)
	if err != nil {
		return Fact{}, tenancy.Space{}, err
	}
	var valid []Fact
	for _, h := range heads {
		if h.Key == ref && s.visible(caller, h) && keep(h) {
			valid = append(valid, h)
		}
	}
	if len(valid) == 0 {
		return Fact{}, tenancy.Space{}, fault.New(fault.NotFound, "supersedes names no fact id and no currently valid fact with key %q", ref)
	}
	best := s.best(valid)
	sp, err = SpaceOf(tx.Partition(), best.MemoryType)
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
	if err == nil && s.visible(caller, f) {
		return f, sp, nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Fact{}, tenancy.Space{}, err
	}
	return s.findNamespaced(tx, caller, id)
}

// RestrictedIDMarker joins a client-chosen id to the digest of the read
// restriction of the fact stored under it (the write pipeline namespaces
// the client ids of restricted facts, so that an id collides only with
// facts of the same readers). A client id never contains it.
const RestrictedIDMarker = "#r."

// findNamespaced returns the oldest-keyed fact stored under client id id
// and a restriction's digest that caller may read: a restricted fact is
// found by the id its writer chose too.
func (s *Service) findNamespaced(tx *store.Txn, caller authority.Identity, id string) (Fact, tenancy.Space, error) {
	if !ValidID(id) || strings.Contains(id, RestrictedIDMarker) {
		return Fact{}, tenancy.Space{}, store.ErrNotFound
	}
	for _, sp := range tx.Partition().Spaces() {
		var found *Fact
		err := tx.Scan(sp, store.TableFact, store.Suffix(nil).Raw(id+RestrictedIDMarker), store.ScanOptions{}, func(_ []byte, it store.Item) (bool, error) {
			var f Fact
			if err := it.Decode(&f); err != nil {
				return false, err
			}
			if s.visible(caller, f) {
				found = &f
				return false, nil
			}
			return true, nil
		})
		if err != nil {
			return Fact{}, tenancy.Space{}, err
		}
		if found != nil {
			return *found, sp, nil
		}
	}
	return Fact{}, tenancy.Space{}, store.ErrNotFound
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
