package assertions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// lookupRecent is RecentTx as a lookup per id: the time index read
// newest first, each record looked up (getTx), the rule scanRecent's
// batched scans must answer exactly as.
func lookupRecent(tx *store.Txn, v temporal.View, now time.Time, limit int) ([]Assertion, error) {
	var out []Assertion
	start := store.Suffix(nil).Time(v.Instant(now))
	err := tx.Scan(tx.Partition().Shared(), store.TableAssertionTime, nil, store.ScanOptions{Reverse: true, KeysOnly: true, Start: start},
		func(suffix []byte, _ store.Item) (bool, error) {
			r := store.NewReader(suffix)
			r.Time()
			id := r.Rest()
			if err := r.Err(); err != nil {
				return false, err
			}
			a, err := getTx(tx, id)
			if errors.Is(err, store.ErrNotFound) {
				return true, nil
			}
			if err != nil {
				return false, err
			}
			if a, ok := a.In(v, now); ok {
				out = append(out, a)
			}
			return len(out) < limit, nil
		})
	return out, err
}

// checkActive checks ActiveTx and EachActiveTx against lookups: the
// active assertions among the 4×limit most recent, at most limit of them,
// and EachActiveTx stops when its function says so.
func checkActive(t *testing.T, tx *store.Txn, now time.Time, limit int) {
	t.Helper()
	recent, err := lookupRecent(tx, temporal.View{}, now, 4*limit)
	if err != nil {
		t.Fatal(err)
	}
	var want []Assertion
	for _, a := range recent {
		if a.Status == Active && len(want) < limit {
			want = append(want, a)
		}
	}
	s := &Service{}
	got, err := s.ActiveTx(tx, now, limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
		t.Fatalf("limit %d: ActiveTx returned %d assertions, lookups %d", limit, len(got), len(want))
	}
	var each []Assertion
	err = s.EachActiveTx(tx, now, limit, func(a Assertion) bool {
		each = append(each, a.clone())
		return len(each) < 3
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := min(len(want), 3); len(each) != n || (n > 0 && !reflect.DeepEqual(each, want[:n])) {
		t.Fatalf("limit %d: EachActiveTx stopped after %d assertions, want the first %d of ActiveTx's", limit, len(each), n)
	}
}

func testPartition(t *testing.T) tenancy.Partition {
	t.Helper()
	secret := []byte("recent-test-secret-of-32-bytes!!")
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := authority.Mint(secret, authority.Identity{Org: "org-a", UserID: "alice"}, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	p, err := tenancy.For(id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// putRaw stores a in the assertion table and the time index, as putNew
// does, without the other indexes.
func putRaw(tx *store.Txn, a Assertion) error {
	sp := tx.Partition().Shared()
	if err := tx.Put(sp, store.TableAssertionTime, store.Suffix(nil).Time(a.CreatedAt).Raw(a.ID), nil, 0); err != nil {
		return err
	}
	return tx.Put(sp, store.TableAssertion, store.Suffix(nil).Raw(a.ID), a, 0)
}

// TestRecentMatchesLookups checks RecentTx, whose records are read in
// batches by scans of the assertion table, against a lookup per id, over
// stores whose ids follow creation order, do not, name no record or are
// not assertion ids, with more assertions than a batch holds, in views of
// the past, and inside a transaction that wrote assertions of its own.
func TestRecentMatchesLookups(t *testing.T) {
	const n = 1300 // more than two batches of recentBatch
	enginetest.Each(t, func(t *testing.T, st *store.Store) {
		p := testPartition(t)
		rng := rand.New(rand.NewSource(1))
		mk := func(i int, id string) Assertion {
			a := Assertion{
				ID: id, Subject: fmt.Sprintf("Entity#%d", i%40), Predicate: "location", Object: json.RawMessage(fmt.Sprintf(`"Room#%d"`, i)),
				Context: fmt.Sprintf("s%d", i%3), EpistemicStatus: Inference, Validity: Validity{Mode: UntilChanged},
				CreatedAt: t0.Add(time.Duration(i/2) * time.Second), Status: Active,
			}
			if i%4 == 0 {
				end := a.CreatedAt.Add(time.Hour)
				a.Status, a.EndedAt = Revoked, &end
			}
			if i%7 == 0 {
				exp := a.CreatedAt.Add(10 * time.Minute)
				a.Validity = Validity{Mode: UntilTime, ExpiresAt: &exp}
			}
			return a
		}
		err := st.Update(context.Background(), p, func(tx *store.Txn) error {
			for i := range n {
				var id string
				switch {
				case i < n/2:
					id = fmt.Sprintf("ST-%06d", i) // in creation order
				case i%5 == 0:
					id = fmt.Sprintf("ST-%06d", rng.Intn(1_000_000)) // anywhere
				default:
					id = fmt.Sprintf("ST-%06d", i)
				}
				if err := putRaw(tx, mk(i, id)); err != nil {
					return err
				}
			}
			// Index entries naming no record, or no assertion id.
			sp := tx.Partition().Shared()
			for i, id := range []string{"ST-999999x", "XX-000001", "ST-000010-gone"} {
				if err := tx.Put(sp, store.TableAssertionTime, store.Suffix(nil).Time(t0.Add(time.Duration(100*i)*time.Second)).Raw(id), nil, 0); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		now := t0.Add(n * time.Second)
		views := []struct {
			name string
			v    temporal.View
		}{
			{"current", temporal.View{}},
			{"asOf", temporal.View{AsOf: ptr(t0.Add(300 * time.Second))}},
			{"knownAt", temporal.View{KnownAt: ptr(t0.Add(500*time.Second + time.Minute))}},
		}
		check := func(t *testing.T, tx *store.Txn, v temporal.View, limit int) {
			t.Helper()
			want, err := lookupRecent(tx, v, now, limit)
			if err != nil {
				t.Fatal(err)
			}
			got, err := RecentTx(tx, v, now, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
				t.Fatalf("limit %d: RecentTx returned %d assertions, lookups %d (equal: %v)", limit, len(got), len(want), reflect.DeepEqual(got, want))
			}
			var each []Assertion
			if err := EachRecentTx(tx, v, now, limit, func(a Assertion) bool { each = append(each, a.clone()); return true }); err != nil {
				t.Fatal(err)
			}
			if len(each) != len(want) || (len(want) > 0 && !reflect.DeepEqual(each, want)) {
				t.Fatalf("limit %d: EachRecentTx met %d assertions, lookups %d", limit, len(each), len(want))
			}
			if v.AsOf == nil && v.KnownAt == nil && limit <= 128 {
				checkActive(t, tx, now, limit)
			}
		}
		for _, vc := range views {
			t.Run(vc.name, func(t *testing.T) {
				err := st.View(context.Background(), p, func(tx *store.Txn) error {
					for _, limit := range []int{1, 7, 128, 512, 513, 1100, 5000} {
						check(t, tx, vc.v, limit)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			})
		}
		t.Run("own writes", func(t *testing.T) {
			errDiscard := errors.New("discard")
			err := st.Update(context.Background(), p, func(tx *store.Txn) error {
				for i := range 40 {
					if err := putRaw(tx, mk(n+i, fmt.Sprintf("ST-%06d", rng.Intn(1_000_000)))); err != nil {
						return err
					}
				}
				// One of them rewritten, one deleted.
				a := mk(n+100, "ST-000600")
				a.Status = Promoted
				if err := putRaw(tx, a); err != nil {
					return err
				}
				if err := tx.Delete(tx.Partition().Shared(), store.TableAssertion, store.Suffix(nil).Raw("ST-000601")); err != nil {
					return err
				}
				for _, limit := range []int{50, 128, 700} {
					check(t, tx, temporal.View{}, limit)
				}
				return errDiscard
			})
			if !errors.Is(err, errDiscard) {
				t.Fatal(err)
			}
		})
	})
}
