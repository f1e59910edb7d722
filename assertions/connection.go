package assertions

import (
	"context"
	"fmt"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
)

// Connection is one Relay page of the caller's organization's assertions
// matching fl in view v, oldest created first, with the count of every one
// matching.
func (s *Service) Connection(ctx context.Context, fl Filter, pa store.PageArgs, v temporal.View) (Page, error) {
	if fl.Status != "" && !fl.Status.Valid() {
		return Page{}, fault.BadInputf("filter.status", "unknown status %q", fl.Status)
	}
	now := s.clock.Now()
	var pg Page
	err := s.view(ctx, func(tx *store.Txn) error {
		w, err := pa.Window(store.Scope("stateAssertions", tx.Partition(), fmt.Sprintf("%q %q %q %q", fl.Subject, fl.Predicate, fl.Context, fl.Status)))
		if err != nil {
			return err
		}
		type listed struct {
			a    Assertion
			tail []byte
		}
		var all []listed
		sp := tx.Partition().Shared()
		err = tx.Scan(sp, store.TableAssertionTime, nil, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
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
			if a, ok := raw.In(v, now); ok && fl.match(a) {
				all = append(all, listed{a, append([]byte(nil), suffix...)})
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		lo, hi := w.Slice(len(all), func(i int) []byte { return all[i].tail })
		pg.Total, pg.HasPrevious, pg.HasNext = len(all), lo > 0, hi < len(all)
		for _, l := range all[lo:hi] {
			pg.Assertions = append(pg.Assertions, l.a)
			pg.Cursors = append(pg.Cursors, w.Cursor(l.tail))
		}
		return nil
	})
	return pg, err
}
