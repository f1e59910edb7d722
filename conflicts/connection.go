package conflicts

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
)

// Connection is one Relay page of the conflicts the caller may see matching
// fl in view v, oldest opened first, with the count of every one of them.
// A conflict the caller may not see is neither listed nor counted.
func (s *Service) Connection(ctx context.Context, fl Filter, pa store.PageArgs, v temporal.View) (Page, error) {
	if fl.Status != "" && !fl.Status.Valid() {
		return Page{}, fault.BadInputf("filter.status", "unknown conflict status %q", fl.Status)
	}
	caller, err := authority.FromContext(ctx)
	if err != nil {
		return Page{}, err
	}
	type listed struct {
		c    Conflict
		tail []byte
	}
	var pg Page
	err = s.view(ctx, func(tx *store.Txn) error {
		ctxText := "-"
		if fl.Context != nil {
			ctxText = fmt.Sprintf("%q", *fl.Context)
		}
		w, err := pa.Window(store.Scope("conflicts", tx.Partition(), fmt.Sprintf("%q %q %q %s", fl.Status, fl.Subject, fl.Predicate, ctxText)))
		if err != nil {
			return err
		}
		var all []listed
		for _, sp := range tx.Partition().Spaces() {
			err := tx.Scan(sp, store.TableConflictTime, nil, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
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
				c, ok := raw.In(v)
				if !ok || !fl.match(c) {
					return true, nil
				}
				shown, err := s.shownTx(tx, caller, raw)
				if err != nil || !shown {
					return err == nil, err
				}
				all = append(all, listed{c, append([]byte(nil), suffix...)})
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
			pg.Conflicts = append(pg.Conflicts, l.c)
			pg.Cursors = append(pg.Cursors, w.Cursor(l.tail))
		}
		return nil
	})
	return pg, err
}
