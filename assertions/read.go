package assertions

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/conflicts"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// view runs fn in a read transaction of the caller's partition.
func (s *Service) view(ctx context.Context, fn func(tx *store.Txn) error) error {
	p, err := tenancy.FromContext(ctx)
	if err != nil {
		return err
	}
	return s.store.View(ctx, p, fn)
}

// Get returns assertion id as it stood in v; ok is false when the caller's
// organization has no such assertion (or v does not know it).
func (s *Service) Get(ctx context.Context, id string, v temporal.View) (a Assertion, ok bool, err error) {
	now := s.clock.Now()
	err = s.view(ctx, func(tx *store.Txn) error {
		raw, err := getTx(tx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		a, ok = raw.In(v, now)
		return nil
	})
	return a, ok, err
}

// History returns every assertion of a's slot (context, subject and
// predicate), oldest first, in a's view.
func (s *Service) History(ctx context.Context, a Assertion) ([]Assertion, error) {
	return s.indexed(ctx, store.TableAssertionSlot, slotKey(a.Context, a.Subject, a.Predicate), a.View())
}

// indexed loads the assertions of an index prefix in view v, oldest first.
func (s *Service) indexed(ctx context.Context, t store.Table, prefix []byte, v temporal.View) ([]Assertion, error) {
	now := s.clock.Now()
	var out []Assertion
	err := s.view(ctx, func(tx *store.Txn) error {
		raw, err := s.scanTx(tx, tx.Partition().Shared(), t, prefix)
		if err != nil {
			return err
		}
		for _, r := range raw {
			if a, ok := r.In(v, now); ok {
				out = append(out, a)
			}
		}
		return nil
	})
	return out, err
}

// Filter selects assertions in List. Zero fields do not filter; Status
// filters on the status in the view.
type Filter struct {
	Subject, Predicate, Context string
	Status                      Status
}

func (fl Filter) match(a Assertion) bool {
	return (fl.Subject == "" || a.Subject == fl.Subject) &&
		(fl.Predicate == "" || a.Predicate == fl.Predicate) &&
		(fl.Context == "" || a.Context == fl.Context) &&
		(fl.Status == "" || a.Status == fl.Status)
}

// Page is one page of List, oldest created first.
type Page struct {
	Assertions []Assertion
	Cursors    []string
	HasNext    bool
	// HasPrevious and Total are set by Connection: whether assertions
	// precede the page, and how many match in all.
	HasPrevious bool
	Total       int
}

// List returns the assertions of the caller's organization matching fl in
// view v, oldest created first, first at a time after the opaque cursor
// after.
func (s *Service) List(ctx context.Context, fl Filter, first int, after string, v temporal.View) (Page, error) {
	first, start, err := store.ParsePage(first, after)
	if err != nil {
		return Page{}, err
	}
	if fl.Status != "" && !fl.Status.Valid() {
		return Page{}, fault.BadInputf("filter.status", "unknown status %q", fl.Status)
	}
	if start != nil {
		start = append(start, 0) // strictly after
	}
	now := s.clock.Now()
	var pg Page
	err = s.view(ctx, func(tx *store.Txn) error {
		sp := tx.Partition().Shared()
		return tx.Scan(sp, store.TableAssertionTime, nil, store.ScanOptions{Start: start, KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
			r := store.NewReader(suffix)
			r.Time()
			id := r.Rest()
			if err := r.Err(); err != nil {
				return false, err
			}
			var raw Assertion
			if err := tx.Get(sp, store.TableAssertion, store.Suffix(nil).Raw(id), &raw); err != nil {
				return false, err
			}
			a, ok := raw.In(v, now)
			if !ok || !fl.match(a) {
				return true, nil
			}
			if len(pg.Assertions) == first {
				pg.HasNext = true
				return false, nil
			}
			pg.Assertions = append(pg.Assertions, a)
			pg.Cursors = append(pg.Cursors, store.Cursor(suffix))
			return true, nil
		})
	})
	return pg, err
}

// Conflicts returns the conflicts a is a candidate of, in a's view.
func (s *Service) Conflicts(ctx context.Context, a Assertion) ([]conflicts.Conflict, error) {
	return s.conflicts.InSlot(ctx, conflicts.Slot{Context: a.Context, Subject: a.Subject, Predicate: a.Predicate}, a.ID, a.View())
}

// Entity is what the service holds about one entity: the assertions that
// name it as subject or as object, the valid facts whose key or value
// mentions it, and the conflicts over any of them.
type Entity struct {
	ID        string
	AsSubject []Assertion
	AsObject  []Assertion
	Facts     []facts.Fact
	Conflicts []conflicts.Conflict
}

// maxEntityFacts bounds how many facts an entity lookup scans.
const maxEntityFacts = 20000

// Entity looks entity id up in view v; ok is false when nothing the caller
// can see names it. An entity's facts are the valid facts (in v) whose key
// or value text mentions id as a whole word: "Entity#42" matches
// "Entity#42.location" but not "Entity#420".
func (s *Service) Entity(ctx context.Context, id string, v temporal.View) (e Entity, ok bool, err error) {
	if _, err := authority.FromContext(ctx); err != nil {
		return Entity{}, false, err
	}
	if strings.TrimSpace(id) == "" || len(id) > maxName {
		return Entity{}, false, nil
	}
	e.ID = id
	if e.AsSubject, err = s.indexed(ctx, store.TableAssertionIndex, store.Suffix(nil).Str(idxSubject).Str(id), v); err != nil {
		return Entity{}, false, err
	}
	if e.AsObject, err = s.indexed(ctx, store.TableAssertionIndex, store.Suffix(nil).Str(idxObject).Str(id), v); err != nil {
		return Entity{}, false, err
	}
	after := ""
	for n := 0; n < maxEntityFacts; n += facts.MaxPageSize {
		pg, err := s.facts.List(ctx, facts.Filter{}, facts.MaxPageSize, after, v)
		if err != nil {
			return Entity{}, false, err
		}
		for _, f := range pg.Facts {
			if Mentions(f.Key, id) || Mentions(f.ValueText(), id) {
				e.Facts = append(e.Facts, f)
			}
		}
		if !pg.HasNext {
			break
		}
		after = pg.Cursors[len(pg.Cursors)-1]
	}
	seen := map[string]bool{}
	add := func(cs []conflicts.Conflict) {
		for _, c := range cs {
			if !seen[c.ID] {
				seen[c.ID] = true
				e.Conflicts = append(e.Conflicts, c)
			}
		}
	}
	for _, a := range slices.Concat(e.AsSubject, e.AsObject) {
		cs, err := s.Conflicts(ctx, a)
		if err != nil {
			return Entity{}, false, err
		}
		add(cs)
	}
	for _, f := range e.Facts {
		cs, err := s.conflicts.InSlot(ctx, conflicts.Slot{Subject: f.Key, Predicate: conflicts.FactPredicate}, f.ID, v)
		if err != nil {
			return Entity{}, false, err
		}
		add(cs)
	}
	slices.SortFunc(e.Conflicts, func(a, b conflicts.Conflict) int {
		return cmp.Or(a.OpenedAt.Compare(b.OpenedAt), cmp.Compare(a.ID, b.ID))
	})
	ok = len(e.AsSubject)+len(e.AsObject)+len(e.Facts) > 0
	return e, ok, nil
}

// Mentions reports whether text contains ref as a whole word: not
// preceded or followed by a letter, digit, '_' or '#'.
func Mentions(text, ref string) bool {
	if ref == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], ref)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(ref)
		if (j == 0 || !wordByte(text[j-1])) && (end == len(text) || !wordByte(text[end])) {
			return true
		}
		i = j + 1
	}
}

func wordByte(b byte) bool {
	return b == '_' || b == '#' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
