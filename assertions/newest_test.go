package assertions

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
)

// TestNewestFollowsWrites checks the newest assertions remembered under
// the assertion epoch (newestOf) against a lookup per id after each kind
// of write (new assertions, a record rewritten), in a snapshot taken
// before a write, for views whose instant lies before the newest
// assertions, and that a View reads them from memory while nothing was
// written.
func TestNewestFollowsWrites(t *testing.T) {
	enginetest.Each(t, func(t *testing.T, st *store.Store) {
		p := testPartition(t)
		s := &Service{}
		mk := func(i int) Assertion {
			return Assertion{
				ID: fmt.Sprintf("ST-%06d", i), Subject: fmt.Sprintf("Entity#%d", i%40), Predicate: "location", Object: json.RawMessage(fmt.Sprintf(`"Room#%d"`, i)),
				Context: fmt.Sprintf("s%d", i%3), EpistemicStatus: Inference, Validity: Validity{Mode: UntilChanged},
				CreatedAt: t0.Add(time.Duration(i) * time.Second), Status: Active,
			}
		}
		// put stores a as putNew does (its time-index entry and its record,
		// which writes the epoch), without the other indexes.
		put := func(tx *store.Txn, a Assertion) error {
			sp := tx.Partition().Shared()
			if err := tx.Put(sp, store.TableAssertionTime, store.Suffix(nil).Time(a.CreatedAt).Raw(a.ID), nil, 0); err != nil {
				return err
			}
			return s.put(tx, sp, a)
		}
		write := func(from, to int) {
			t.Helper()
			err := st.Update(context.Background(), p, func(tx *store.Txn) error {
				for i := from; i < to; i++ {
					if err := put(tx, mk(i)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		check := func(t *testing.T, tx *store.Txn, now time.Time) {
			t.Helper()
			views := []temporal.View{{}, {AsOf: ptr(t0.Add(100 * time.Second))}}
			for _, v := range views {
				for _, limit := range []int{1, 50, 128, 600} {
					want, err := lookupRecent(tx, v, now, limit)
					if err != nil {
						t.Fatal(err)
					}
					var got []Assertion
					if err := EachRecentTx(tx, v, now, limit, func(a Assertion) bool { got = append(got, a.clone()); return true }); err != nil {
						t.Fatal(err)
					}
					if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
						t.Fatalf("now %v, view %+v, limit %d: EachRecentTx met %d assertions, lookups %d", now, v, limit, len(got), len(want))
					}
				}
			}
		}
		view := func(now time.Time) {
			t.Helper()
			if err := st.View(context.Background(), p, func(tx *store.Txn) error { check(t, tx, now); return nil }); err != nil {
				t.Fatal(err)
			}
		}
		late := t0.Add(time.Hour)
		write(0, 300)
		view(late)
		view(t0.Add(250 * time.Second)) // the newest fifty lie after the instant

		// Remembered: a View under the same epoch reads nothing but the
		// epoch, so a list planted under it is what it answers.
		err := st.View(context.Background(), p, func(tx *store.Txn) error {
			l, err := newestOf(tx, p.Shared(), 128)
			if err != nil || l == nil {
				return fmt.Errorf("newestOf: %v, %v", l, err)
			}
			if again, _ := newestOf(tx, p.Shared(), 128); again != l {
				t.Error("newestOf read the store again under the same epoch")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}

		// A snapshot taken before writes keeps answering as of itself.
		err = st.View(context.Background(), p, func(old *store.Txn) error {
			write(300, 310) // new assertions
			view(late)
			err := st.Update(context.Background(), p, func(tx *store.Txn) error {
				a := mk(305)
				a.Status, a.EndedAt = Revoked, ptr(late)
				return s.put(tx, tx.Partition().Shared(), a) // a record rewritten
			})
			if err != nil {
				return err
			}
			view(late)
			check(t, old, late)
			view(late)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// Inside a transaction that writes, nothing is remembered or used.
		err = st.Update(context.Background(), p, func(tx *store.Txn) error {
			if l, err := newestOf(tx, p.Shared(), 128); l != nil || err != nil {
				t.Errorf("newestOf in a read-write transaction: %v, %v", l, err)
			}
			check(t, tx, late)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
