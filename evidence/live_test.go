package evidence_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
)

// searchStore is search in a read-write transaction, which reads the
// store and neither uses nor fills what current searches remember.
func (w *world) searchStore(t testing.TB, q string) []evidence.Hit {
	t.Helper()
	var hits []evidence.Hit
	err := w.st.Update(context.Background(), w.p, func(tx *store.Txn) error {
		var err error
		hits, err = evidence.SearchTx(tx, q, temporal.View{}, 50)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

// TestLiveFollowsWrites: a current search answers as the store does after
// every kind of evidence write (a turn indexed, a sentence and a turn
// retired, a live and a retired sentence erased), searched twice each
// time (the second answered from what the first remembered); and a
// snapshot taken before a write keeps answering as of its snapshot.
func TestLiveFollowsWrites(t *testing.T) {
	w := newWorld(t)
	start := w.clock.Now()
	const q = "budget vendor Berlin offsite"
	w.turn(t, "T-1", "The budget is 150k. The vendor is Acme.", facts.ScopeGlobal)
	w.turn(t, "T-2", "The offsite is in Berlin. The budget may grow.", facts.ScopeGlobal)
	w.turn(t, "T-3", "Our vendor Acme confirmed. Berlin is cold.", facts.ScopeGlobal)
	check := func(step string) {
		t.Helper()
		want := w.searchStore(t, q)
		for round := range 2 {
			if got := w.search(t, q, temporal.View{}); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, search %d: %v, the store holds %v", step, round+1, ids(got), ids(want))
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s: nothing found", step)
		}
	}
	check("indexed")
	update := func(fn func(tx *store.Txn) error) {
		t.Helper()
		if err := w.st.Update(context.Background(), w.p, fn); err != nil {
			t.Fatal(err)
		}
	}
	w.turn(t, "T-4", "The vendor budget is final.", facts.ScopeGlobal)
	check("a turn indexed")
	update(func(tx *store.Txn) error { return evidence.RetireSentenceTx(tx, "T-1", 0, "F-x", w.clock.Now()) })
	check("a sentence retired")
	update(func(tx *store.Txn) error { return evidence.RetireTurnTx(tx, "T-3", "F-y", w.clock.Now()) })
	check("a turn retired")
	update(func(tx *store.Txn) error { return evidence.EraseSentenceTx(tx, "T-2", 0) })
	check("a live sentence erased")
	update(func(tx *store.Txn) error { return evidence.EraseSentenceTx(tx, "T-1", 0) })
	check("a retired sentence erased")

	// A snapshot from before a write answers as of itself, before and
	// after a later snapshot remembered the write.
	err := w.st.View(context.Background(), w.p, func(tx *store.Txn) error {
		before, err := evidence.SearchTx(tx, q, temporal.View{}, 50)
		if err != nil {
			return err
		}
		w.turn(t, "T-5", "Berlin budget vendor offsite, all four.", facts.ScopeGlobal)
		check("a turn indexed during an older snapshot")
		again, err := evidence.SearchTx(tx, q, temporal.View{}, 50)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(again, before) {
			t.Errorf("the older snapshot found %v, then %v", ids(before), ids(again))
		}
		for _, h := range again {
			if h.TurnID == "T-5" {
				t.Errorf("the older snapshot found %s, written after it", h.ID())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if hits := w.search(t, q, temporal.View{}); len(hits) == 0 || hits[0].TurnID != "T-5" {
		t.Errorf("after the write: %v, want T-5's sentence first", ids(hits))
	}
	// A view of the past is not answered from the current view's memory.
	past := temporal.View{KnownAt: ptr(start.Add(150 * time.Second))} // T-1 to T-3 said, none retired yet
	got := w.search(t, q, past)
	if len(got) == 0 || !reflect.DeepEqual(got, w.search(t, q, past)) {
		t.Errorf("the past view found %v", ids(got))
	}
	for _, h := range got {
		if h.TurnID == "T-4" || h.TurnID == "T-5" || h.ID() == "T-1#0" || h.ID() == "T-2#0" { // said later, or erased
			t.Errorf("the past view found %s", h.ID())
		}
	}
}
