package contextasm

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tokens"
)

// TestLivePostingsFollowWrites: the fact source remembers the live
// postings of query terms under each space's card epoch; after every kind
// of write that changes them (a new fact, a supersession taking a word
// away, a retraction, a revocation, an erasure, in the shared and the
// private space) it gathers exactly what a source remembering nothing
// gathers. (The facts are written through the pipeline into Badger; the
// package's API tests cannot start a server here.)
func TestLivePostingsFollowWrites(t *testing.T) {
	ix := search.New()
	w := newPipelineWorld(t, ix)
	clock, pl, id := w.clock, w.pl, w.caller
	order := authority.MustDefaultOrder()
	counter, err := tokens.New()
	if err != nil {
		t.Fatal(err)
	}
	update := func(what string, fn func(tx *store.Txn) error) {
		t.Helper()
		w.update(t, what, fn)
	}
	write := func(in facts.WriteInput) {
		t.Helper()
		w.write(t, in)
	}
	// More than SmallPartition facts, so that relevance decides.
	for i := range SmallPartition + 40 {
		mt := facts.MemoryOrganizational
		if i%3 == 0 {
			mt = facts.MemoryUser
		}
		write(facts.WriteInput{ID: fmt.Sprintf("f%d", i), Key: fmt.Sprintf("item.%d", i), Value: json.RawMessage(fmt.Sprintf(`"budget venue %d"`, i%17)), MemoryType: mt})
	}
	remembering := &FactSource{Index: ix, Order: order, Counter: counter, Cards: facts.NewCards()}
	q := Query{Caller: id, Text: "budget venue 3 lisbon", Terms: QueryTerms("budget venue 3 lisbon"), Budget: 4000}
	// A small budget stops the loading early, on the remembered counts
	// of the estimate lines (livePosting.est).
	small := q
	small.Budget = 60
	check := func(after string) {
		t.Helper()
		for _, q := range []Query{q, small} {
			got, want := w.gatherBoth(t, remembering, &FactSource{Index: ix, Order: order, Counter: counter}, q)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("after %s, budget %d: the remembering source gathered %d facts, a fresh one %d, or other ones", after, q.Budget, len(got.Facts), len(want.Facts))
			}
		}
	}
	check("seeding")
	check("seeding, remembered")
	if remembering.live.n == 0 {
		t.Fatal("no postings remembered")
	}
	write(facts.WriteInput{ID: "new-shared", Key: "offsite.city", Value: json.RawMessage(`"Lisbon budget venue 3"`)})
	check("a new shared fact")
	write(facts.WriteInput{ID: "new-mine", Key: "my.city", Value: json.RawMessage(`"Lisbon venue"`), MemoryType: facts.MemoryUser})
	check("a new private fact")
	write(facts.WriteInput{Key: "item.3", Value: json.RawMessage(`"nothing left of it"`), Supersedes: "item.3"})
	check("a supersession taking the words away")
	update("retract", func(tx *store.Txn) error {
		_, err := pl.RetractTx(tx, id, "new-shared", pipeline.Retraction{Reason: "wrong"})
		return err
	})
	check("a retraction")
	update("revoke", func(tx *store.Txn) error {
		_, _, err := pl.RevokeTx(tx, id, "f20", facts.Revocation{Decision: "D-1", Reason: "lost", At: clock.Now()})
		return err
	})
	check("a revocation")
	clock.Advance(time.Second)
	if _, err := pl.Forget(authority.NewContext(context.Background(), id), "new-mine"); err != nil {
		t.Fatal(err)
	}
	check("an erasure")
}

// TestRememberedConstraintsFollowWrites: the fact source takes the
// current view's constraint postings (the MaxConstraints most recent) and,
// in a small partition, every live posting from what it remembers under
// each space's card epoch; after each kind of write that changes them it
// gathers exactly what a source remembering nothing gathers, in a small
// partition holding fewer constraints than the source takes and in one
// holding more.
func TestRememberedConstraintsFollowWrites(t *testing.T) {
	yes := true
	for _, tc := range []struct {
		name        string
		facts, cons int
	}{
		{"small partition", 12, 4},
		{"more constraints than taken", SmallPartition, 9}, // the source takes 5 (maxConstraints)
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := search.New()
			w := newPipelineWorld(t, ix)
			order := authority.MustDefaultOrder()
			counter, err := tokens.New()
			if err != nil {
				t.Fatal(err)
			}
			// One transaction, so that seeding stays fast.
			w.update(t, "seed", func(tx *store.Txn) error {
				for i := range tc.facts + tc.cons {
					in := facts.WriteInput{ID: fmt.Sprintf("f%d", i), Key: fmt.Sprintf("item.%d", i), Value: json.RawMessage(fmt.Sprintf(`"budget venue %d"`, i%7))}
					if i >= tc.facts {
						in.IsConstraint, in.Value = &yes, json.RawMessage(fmt.Sprintf(`"never exceed %d euros"`, i))
					}
					if _, err := w.pl.WriteTx(tx, w.caller, in); err != nil {
						return err
					}
				}
				return nil
			})
			remembering := &FactSource{Index: ix, Order: order, Counter: counter, Cards: facts.NewCards(), maxConstraints: 5}
			q := Query{Caller: w.caller, Text: "budget venue", Terms: QueryTerms("budget venue"), Budget: 100000}
			check := func(after string) {
				t.Helper()
				got, want := w.gatherBoth(t, remembering, &FactSource{Index: ix, Order: order, Counter: counter, maxConstraints: 5}, q)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("after %s: the remembering source gathered %d facts, a fresh one %d, or other ones", after, len(got.Facts), len(want.Facts))
				}
				if len(got.Facts) == 0 {
					t.Fatalf("after %s: nothing gathered", after)
				}
				// The constraints taken are Index.Postings's, in its order.
				err = w.st.View(context.Background(), w.p, func(tx *store.Txn) error {
					cr, err := remembering.cardReader(tx)
					if err != nil {
						return err
					}
					for _, sp := range w.p.Spaces() {
						var want []posting
						err := ix.Postings(tx, sp, search.TermConstraint, q.View, remembering.maxConstraints, func(p search.Posting) bool {
							want = append(want, posting{id: p.ID, at: p.RecordedAt, tf: p.TF, len: p.Len})
							return true
						})
						if err != nil {
							return err
						}
						got, err := remembering.recentConstraints(tx, sp, cr.epochs[sp], remembering.maxConstraints)
						if err != nil {
							return err
						}
						if !reflect.DeepEqual(got, slices.Clip(want)) && !(len(got) == 0 && len(want) == 0) {
							t.Fatalf("after %s: constraints %v, Index.Postings %v", after, got, want)
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			check("seeding")
			check("seeding, remembered")
			w.write(t, facts.WriteInput{ID: "new-con", Key: "spend.cap", Value: json.RawMessage(`"never exceed 10 euros"`), IsConstraint: &yes})
			check("a new constraint")
			w.write(t, facts.WriteInput{ID: "new-mine", Key: "my.cap", Value: json.RawMessage(`"never exceed 5 euros"`), IsConstraint: &yes, MemoryType: facts.MemoryUser})
			check("a new private constraint")
			last := fmt.Sprintf("item.%d", tc.facts+tc.cons-1)
			w.write(t, facts.WriteInput{Key: last, Value: json.RawMessage(`"budget venue, no cap"`), Supersedes: last})
			check("a constraint superseded")
			w.update(t, "retract", func(tx *store.Txn) error {
				_, err := w.pl.RetractTx(tx, w.caller, "new-con", pipeline.Retraction{Reason: "wrong"})
				return err
			})
			check("a retraction")
		})
	}
}
