package facts

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// view runs fn in a read transaction of the caller's partition.
func (s *Service) view(ctx context.Context, fn func(tx *store.Txn, caller authority.Identity) error) error {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return err
	}
	return s.store.View(ctx, p, func(tx *store.Txn) error { return fn(tx, caller) })
}

// Get returns the fact with id as it stood in v; ok is false when there is
// no such fact in the caller's partition (or v does not know it yet).
func (s *Service) Get(ctx context.Context, id string, v temporal.View) (f Fact, ok bool, err error) {
	err = s.view(ctx, func(tx *store.Txn, caller authority.Identity) error {
		raw, _, err := s.findVisible(tx, caller, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		f, ok = raw.In(v)
		return nil
	})
	return f, ok, err
}

// GetTx returns the fact with id as it stands now, inside tx; ok is false
// when there is no such fact in tx's partition.
func (s *Service) GetTx(tx *store.Txn, id string) (f Fact, ok bool, err error) {
	raw, _, err := s.find(tx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Fact{}, false, nil
	}
	if err != nil {
		return Fact{}, false, err
	}
	f, ok = raw.In(temporal.View{})
	return f, ok, nil
}

// GetMany returns the facts with the given ids, in order; a nil entry
// stands for a fact that does not exist for the caller.
func (s *Service) GetMany(ctx context.Context, ids []string, v temporal.View) ([]*Fact, error) {
	out := make([]*Fact, len(ids))
	err := s.view(ctx, func(tx *store.Txn, caller authority.Identity) error {
		for i, id := range ids {
			raw, _, err := s.findVisible(tx, caller, id)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if f, ok := raw.In(v); ok {
				out[i] = &f
			}
		}
		return nil
	})
	return out, err
}

// derivedTx returns the facts that depend on id, in the view v.
func (s *Service) derivedTx(tx *store.Txn, id string, v temporal.View) ([]Fact, error) {
	var out []Fact
	for _, sp := range tx.Partition().Spaces() {
		ids, err := tx.Tails(sp, store.TableFactDerived, store.Suffix(nil).Str(id))
		if err != nil {
			return nil, err
		}
		for _, d := range ids {
			raw, _, err := s.find(tx, d)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if f, ok := raw.In(v); ok {
				out = append(out, f)
			}
		}
	}
	slices.SortFunc(out, byRecorded)
	return out, nil
}

// Current returns the current value of key in view v: it follows the
// supersession chain of every fact that had that key to its valid member
// and, among competing chains, prefers the highest authority, then the
// latest. Hypothetical and draft facts are never the current value.
func (s *Service) Current(ctx context.Context, key string, v temporal.View) (f Fact, ok bool, err error) {
	err = s.view(ctx, func(tx *store.Txn, caller authority.Identity) error {
		var heads []Fact
		var err error
		if v.Current() {
			heads, err = s.validByKey(tx, key)
		} else {
			heads, err = s.heads(tx, key, v)
		}
		if err != nil {
			return err
		}
		var cands []Fact
		for _, h := range heads {
			if h.IsValid() && h.Scope.Real() && s.visible(caller, h) {
				cands = append(cands, h)
			}
		}
		if len(cands) > 0 {
			f, ok = s.best(cands), true
		}
		return nil
	})
	return f, ok, err
}

// History returns every chain that a fact with key belongs to, each
// oldest first, chains ordered by their first record. Members the caller
// may not see are left out.
func (s *Service) History(ctx context.Context, key string, v temporal.View) ([]Fact, error) {
	var out []Fact
	err := s.view(ctx, func(tx *store.Txn, caller authority.Identity) error {
		chains, err := s.chains(tx, key, v)
		if err != nil {
			return err
		}
		for _, c := range chains {
			for _, f := range c {
				if s.visible(caller, f) {
					out = append(out, f)
				}
			}
		}
		return nil
	})
	return out, err
}

// heads returns, for every chain containing a fact with key, its member
// that answers view v: the one valid at v.AsOf when set, else the chain's
// last member as known in v.
func (s *Service) heads(tx *store.Txn, key string, v temporal.View) ([]Fact, error) {
	chains, err := s.chains(tx, key, v)
	if err != nil {
		return nil, err
	}
	var out []Fact
	for _, c := range chains {
		if v.AsOf == nil {
			out = append(out, c[len(c)-1])
			continue
		}
		for _, f := range c {
			if f.IsValid() {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// chains returns the distinct chains that contain a fact with key, as
// known in v.
func (s *Service) chains(tx *store.Txn, key string, v temporal.View) ([][]Fact, error) {
	members, err := s.byKey(tx, key, v)
	if err != nil {
		return nil, err
	}
	var out [][]Fact
	inChain := map[string]bool{}
	for _, m := range members {
		if inChain[m.ID] {
			continue
		}
		c, err := s.chain(tx, m, v)
		if err != nil {
			return nil, err
		}
		for _, f := range c {
			inChain[f.ID] = true
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b []Fact) int { return byRecorded(a[0], b[0]) })
	return out, nil
}

// chain returns f's whole chain as known in v, oldest first.
func (s *Service) chain(tx *store.Txn, f Fact, v temporal.View) ([]Fact, error) {
	back := []Fact{f}
	for cur := f; cur.Supersedes != ""; {
		prev, _, err := s.find(tx, cur.Supersedes)
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		if prev, _ = prev.In(v); len(back) > maxChain {
			return nil, errChainTooLong
		}
		back = append(back, prev)
		cur = prev
	}
	slices.Reverse(back)
	for cur := f; cur.SupersededBy != ""; {
		next, _, err := s.find(tx, cur.SupersededBy)
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		next, ok := next.In(v)
		if !ok {
			break
		}
		if len(back) > maxChain {
			return nil, errChainTooLong
		}
		back = append(back, next)
		cur = next
	}
	return back, nil
}

// head returns the last member of f's chain as it stands now.
func (s *Service) head(tx *store.Txn, f Fact) (Fact, error) {
	c, err := s.chain(tx, f, temporal.View{})
	if err != nil {
		return Fact{}, err
	}
	return c[len(c)-1], nil
}

// byKey returns the facts recorded with key, as known in v, oldest first.
func (s *Service) byKey(tx *store.Txn, key string, v temporal.View) ([]Fact, error) {
	var out []Fact
	for _, sp := range tx.Partition().Spaces() {
		var ids []string
		err := tx.Scan(sp, store.TableFactByKey, store.Suffix(nil).Str(key), store.ScanOptions{KeysOnly: true},
			func(suffix []byte, _ store.Item) (bool, error) {
				r := store.NewReader(suffix)
				r.Str()
				at := r.Time()
				if !v.Known(at) {
					return false, r.Err()
				}
				ids = append(ids, r.Rest())
				return true, r.Err()
			})
		if err != nil {
			return nil, err
		}
		fs, err := loadIn(tx, sp, ids, v)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	slices.SortFunc(out, byRecorded)
	return out, nil
}

func byRecorded(a, b Fact) int {
	return cmp.Or(a.RecordedAt.Compare(b.RecordedAt), cmp.Compare(a.ID, b.ID))
}

// Visible reports whether the caller of ctx may see the fact with id: it
// exists in the caller's partition and its restriction admits the caller.
// Other packages use it to hide what refers to facts (audit entries).
func (s *Service) Visible(ctx context.Context, id string) (ok bool, err error) {
	err = s.view(ctx, func(tx *store.Txn, caller authority.Identity) error {
		_, _, err := s.findVisible(tx, caller, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		ok = err == nil
		return err
	})
	return ok, err
}

// VisibleTx is Visible inside tx, for caller.
func (s *Service) VisibleTx(tx *store.Txn, caller authority.Identity, id string) (bool, error) {
	_, _, err := s.findVisible(tx, caller, id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// Validity filters facts by whether they hold in the view.
type Validity string

// The validity filters.
const (
	ValidOnly   Validity = "VALID"
	InvalidOnly Validity = "INVALID"
	AnyValidity Validity = "ALL"
)

// Filter selects facts in List. Zero fields do not filter.
type Filter struct {
	Key          string
	MemoryType   MemoryType
	Scope        Scope
	Validity     Validity // default ValidOnly
	NeedsReview  *bool
	IsConstraint *bool
}

func (fl Filter) match(f Fact) bool {
	switch {
	case fl.Key != "" && f.Key != fl.Key,
		fl.MemoryType != "" && f.MemoryType != fl.MemoryType,
		fl.Scope != "" && f.Scope != fl.Scope,
		fl.NeedsReview != nil && f.NeedsReview() != *fl.NeedsReview,
		fl.IsConstraint != nil && f.IsConstraint != *fl.IsConstraint:
		return false
	}
	switch cmp.Or(fl.Validity, ValidOnly) {
	case ValidOnly:
		return f.IsValid()
	case InvalidOnly:
		return !f.IsValid()
	}
	return true
}

// Page limits, as every connection's.
const (
	DefaultPageSize = store.DefaultPageSize
	MaxPageSize     = store.MaxPageSize
)

// Page is one page of a List, oldest first.
type Page struct {
	Facts   []Fact
	Cursors []string
	HasNext bool
	// HasPrevious and Total are set by Connection: whether facts precede
	// the page, and how many the caller may read in all.
	HasPrevious bool
	Total       int
	// Withheld counts the facts of the page's range that match the filter
	// but that the caller may not see. Only the count is ever reported
	// (assembled context says that something was withheld, never what).
	Withheld int
}

type listed struct {
	hidden bool // matches, but the caller may not see it
	f      Fact
	cursor []byte // recordedAt, id
}

// List returns the caller's facts matching fl in view v, oldest recorded
// first, first at a time after the opaque cursor after.
func (s *Service) List(ctx context.Context, fl Filter, first int, after string, v temporal.View) (Page, error) {
	first, start, err := store.ParsePage(first, after)
	if err != nil {
		return Page{}, err
	}
	switch fl.Validity {
	case "", ValidOnly, InvalidOnly, AnyValidity:
	default:
		return Page{}, fault.BadInputf("filter.validity", "unknown validity %q", fl.Validity)
	}
	var all []listed
	err = s.view(ctx, func(tx *store.Txn, caller authority.Identity) error {
		for _, sp := range tx.Partition().Spaces() {
			got, err := s.listSpace(tx, caller, sp, fl, first+1, start, v)
			if err != nil {
				return err
			}
			all = append(all, got...)
		}
		return nil
	})
	if err != nil {
		return Page{}, err
	}
	slices.SortFunc(all, func(a, b listed) int { return byRecorded(a.f, b.f) })
	var pg Page
	pending := 0 // hidden facts since the last visible one
	for _, l := range all {
		if l.hidden {
			pending++
			continue
		}
		if len(pg.Facts) == first {
			// The next page starts after the last fact shown: the hidden
			// ones since then are counted there.
			pg.HasNext, pending = true, 0
			break
		}
		pg.Withheld += pending
		pending = 0
		pg.Facts = append(pg.Facts, l.f)
		pg.Cursors = append(pg.Cursors, store.Cursor(l.cursor))
	}
	pg.Withheld += pending
	return pg, nil
}

// Connection is one Relay page of the caller's facts matching fl in view
// v, oldest recorded first, with the count of every fact the caller may read
// under the same filter and view. Facts the caller may not read are neither
// listed, counted nor positioned: cursors are made only of listed facts.
//
// The count needs every fact of the range judged, so the filter, the view
// and the read restriction are evaluated on the facts' cards (a compact
// binary projection, no JSON, cached while their space is not written);
// only the page's records are decoded.
func (s *Service) Connection(ctx context.Context, fl Filter, pa store.PageArgs, v temporal.View) (Page, error) {
	switch fl.Validity {
	case "", ValidOnly, InvalidOnly, AnyValidity:
	default:
		return Page{}, fault.BadInputf("filter.validity", "unknown validity %q", fl.Validity)
	}
	var pg Page
	err := s.view(ctx, func(tx *store.Txn, caller authority.Identity) error {
		p := tx.Partition()
		w, err := pa.Window(store.Scope("facts", p, fl.canonical()))
		if err != nil {
			return err
		}
		type listed struct {
			sp   tenancy.Space
			tail []byte // recordedAt, id
			id   string
		}
		var all []listed
		for _, mt := range []MemoryType{MemoryUser, MemoryCapability, MemoryOrganizational} {
			if fl.MemoryType != "" && fl.MemoryType != mt {
				continue
			}
			sp, err := SpaceOf(p, mt)
			if err != nil { // no capability: no capability memory
				continue
			}
			table, prefix := store.TableFactByTime, []byte(nil)
			if fl.Key != "" {
				table, prefix = store.TableFactByKey, store.Suffix(nil).Str(fl.Key)
			}
			restricted, err := tx.Exists(sp, store.TableFactRestricted, nil)
			if err != nil {
				return err
			}
			epoch, err := s.cards.Epoch(tx, sp)
			if err != nil {
				return err
			}
			err = tx.Scan(sp, table, prefix, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
				tail := suffix[len(prefix):]
				r := store.NewReader(tail)
				at := r.Time()
				id := r.Rest()
				if err := r.Err(); err != nil {
					return false, err
				}
				if !v.Known(at) {
					return true, nil
				}
				c, err := s.cards.Read(tx, sp, epoch, id)
				if err != nil {
					return false, err
				}
				f, ok := c.Fact.In(v)
				f.MemoryType = mt
				if ok && fl.match(f) && (!restricted || s.visible(caller, f)) {
					all = append(all, listed{sp, append([]byte(nil), tail...), id})
				}
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		slices.SortFunc(all, func(a, b listed) int { return bytes.Compare(a.tail, b.tail) })
		lo, hi := w.Slice(len(all), func(i int) []byte { return all[i].tail })
		pg.Total, pg.HasPrevious, pg.HasNext = len(all), lo > 0, hi < len(all)
		for _, l := range all[lo:hi] {
			var raw Fact
			if err := tx.Get(l.sp, store.TableFact, store.Suffix(nil).Raw(l.id), &raw); err != nil {
				return err
			}
			f, _ := raw.In(v)
			pg.Facts = append(pg.Facts, f)
			pg.Cursors = append(pg.Cursors, w.Cursor(l.tail))
		}
		return nil
	})
	return pg, err
}

// canonical is fl's text for cursor scopes.
func (fl Filter) canonical() string {
	b := func(p *bool) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatBool(*p)
	}
	return fmt.Sprintf("%q %q %q %q %s %s", fl.Key, fl.MemoryType, fl.Scope, cmp.Or(fl.Validity, ValidOnly), b(fl.NeedsReview), b(fl.IsConstraint))
}

// listSpace returns up to n matching facts of space sp after start.
func (s *Service) listSpace(tx *store.Txn, caller authority.Identity, sp tenancy.Space, fl Filter, n int, start []byte, v temporal.View) ([]listed, error) {
	table, prefix := store.TableFactByTime, []byte(nil)
	if fl.Key != "" {
		table, prefix = store.TableFactByKey, store.Suffix(nil).Str(fl.Key)
	}
	var from []byte
	if start != nil {
		from = append(append(append([]byte(nil), prefix...), start...), 0) // strictly after
	}
	var out []listed
	shown := 0
	err := tx.Scan(sp, table, prefix, store.ScanOptions{Start: from, KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
		tail := suffix[len(prefix):]
		r := store.NewReader(tail)
		at := r.Time()
		id := r.Rest()
		if err := r.Err(); err != nil {
			return false, err
		}
		if !v.Known(at) {
			return false, nil
		}
		var raw Fact
		if err := tx.Get(sp, store.TableFact, store.Suffix(nil).Raw(id), &raw); err != nil {
			return false, err
		}
		f, ok := raw.In(v)
		if ok && fl.match(f) {
			hidden := !s.visible(caller, f)
			if hidden {
				f = Fact{ID: f.ID, RecordedAt: f.RecordedAt} // nothing of it leaves this function
			} else {
				shown++
			}
			out = append(out, listed{f: f, hidden: hidden, cursor: append([]byte(nil), tail...)})
		}
		return shown < n, nil
	})
	return out, err
}

// DerivedMany returns, for each id, the facts that depend on it in view v.
func (s *Service) DerivedMany(ctx context.Context, ids []string, v temporal.View) ([][]Fact, error) {
	out := make([][]Fact, len(ids))
	err := s.view(ctx, func(tx *store.Txn, caller authority.Identity) error {
		for i, id := range ids {
			if _, _, err := s.findVisible(tx, caller, id); err != nil {
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				return err
			}
			d, err := s.derivedTx(tx, id, v)
			if err != nil {
				return err
			}
			for _, f := range d {
				if s.visible(caller, f) {
					out[i] = append(out[i], f)
				}
			}
		}
		return nil
	})
	return out, err
}

// StaleTx returns up to n facts stored invalid from birth (stale or
// outranked writes) that view v knows and caller may read, newest first.
func (s *Service) StaleTx(tx *store.Txn, caller authority.Identity, v temporal.View, n int) ([]Fact, error) {
	var out []Fact
	for _, sp := range tx.Partition().Spaces() {
		ids, err := StaleIDsTx(tx, sp)
		if err != nil {
			return nil, err
		}
		for i := len(ids) - 1; i >= 0 && len(out) < n; i-- {
			var raw Fact
			if err := tx.Get(sp, store.TableFact, factKey(ids[i]), &raw); err != nil {
				return nil, err
			}
			if f, ok := raw.In(v); ok && s.visible(caller, f) {
				out = append(out, f)
			}
		}
	}
	slices.SortFunc(out, func(a, b Fact) int { return byRecorded(b, a) })
	return out[:min(len(out), n)], nil
}
