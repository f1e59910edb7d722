package facts

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Storage primitives. They are what package pipeline composes into a write:
// each does one thing to the fact records and their indexes inside the
// caller's transaction, and none decides anything (admission, authority,
// supersession rules live in the pipeline). Ids that name no fact come back
// as store.ErrNotFound.

// Find looks a fact up by id in every space of tx's partition.
func (s *Service) Find(tx *store.Txn, id string) (Fact, tenancy.Space, error) { return s.find(tx, id) }

// FindVisible is Find for caller: a fact caller may not read is not found.
func (s *Service) FindVisible(tx *store.Txn, caller authority.Identity, id string) (Fact, tenancy.Space, error) {
	return s.findVisible(tx, caller, id)
}

// Resolve finds the fact a supersedes field names, among those caller may
// read and keep accepts (nil accepts all): an id, or else the current value
// of that key; in the given spaces only, when some are given. A reference
// naming nothing, or only facts caller may not read, is the same
// fault.NotFound error.
func (s *Service) Resolve(tx *store.Txn, caller authority.Identity, ref string, keep func(Fact) bool, spaces ...tenancy.Space) (Fact, tenancy.Space, error) {
	return s.resolve(tx, caller, ref, keep, spaces...)
}

// Head returns the last member of f's chain as it stands now.
func (s *Service) Head(tx *store.Txn, f Fact) (Fact, error) { return s.head(tx, f) }

// CanRead reports whether caller may read f.
func (s *Service) CanRead(caller authority.Identity, f Fact) bool { return s.visible(caller, f) }

// Put stores f in space sp, replacing the record with its id.
func (s *Service) Put(tx *store.Txn, sp tenancy.Space, f Fact) error { return s.put(tx, sp, f) }

// Index lists a newly stored fact under its key and recording time, and,
// when it is valid, as the valid head of its keys.
func (s *Service) Index(tx *store.Txn, sp tenancy.Space, f Fact) error { return indexNew(tx, sp, f) }

// Unlist removes f from the valid heads of its keys (it was superseded or
// forgotten).
func (s *Service) Unlist(tx *store.Txn, sp tenancy.Space, f Fact) error {
	return unlistValid(tx, sp, f)
}

// MarkStale lists f among the facts stored invalid from birth.
func (s *Service) MarkStale(tx *store.Txn, sp tenancy.Space, f Fact) error {
	return tx.Put(sp, store.TableFactStale, store.Suffix(nil).Time(f.RecordedAt).Raw(f.ID), nil, 0)
}

// LinkDerived records that fact derived depends on fact base, stored in
// base's space.
func (s *Service) LinkDerived(tx *store.Txn, baseSpace tenancy.Space, base, derived string) error {
	return tx.Put(baseSpace, store.TableFactDerived, store.Suffix(nil).Str(base).Raw(derived), nil, 0)
}

// FlagDerived marks every valid fact derived from id, transitively, as
// needing review at now.
func (s *Service) FlagDerived(tx *store.Txn, id string, now time.Time) error {
	return s.flagDerived(tx, id, now)
}

// ValidByKey returns the currently valid heads listed under key, in the
// given spaces (every space of the partition when none are given).
func (s *Service) ValidByKey(tx *store.Txn, key string, spaces ...tenancy.Space) ([]Fact, error) {
	return s.validByKey(tx, key, spaces...)
}

// Rivals returns the valid facts of space sp, other than f, whose key is
// f's key, oldest recorded first: the heads listed under f.Key, read
// without decoding f's own record (the write that just stored it holds it).
func (s *Service) Rivals(tx *store.Txn, sp tenancy.Space, f Fact) ([]Fact, error) {
	ids, err := tx.Tails(sp, store.TableFactValid, store.Suffix(nil).Str(f.Key))
	if err != nil {
		return nil, err
	}
	ids = slices.DeleteFunc(ids, func(id string) bool { return id == f.ID })
	if len(ids) == 0 {
		return nil, nil
	}
	fs, err := loadIn(tx, sp, ids, temporal.View{})
	if err != nil {
		return nil, err
	}
	fs = slices.DeleteFunc(fs, func(h Fact) bool { return !h.IsValid() || h.Key != f.Key })
	slices.SortFunc(fs, byRecorded)
	return fs, nil
}

// Best picks the current value among competing valid facts: the highest
// authority, then the latest valid time, then the latest recorded.
func (s *Service) Best(fs []Fact) Fact { return s.best(fs) }

// Compact returns v as compact JSON (v itself if it is not JSON).
func Compact(v json.RawMessage) json.RawMessage { return compact(v) }

// Dedupe returns ids without repetitions, in first-seen order.
func Dedupe(ids []string) []string { return dedupe(ids) }

// Keys returns the keys under which f is listed as a valid head.
func (f Fact) Keys() []string { return f.headKeys() }
