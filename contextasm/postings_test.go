package contextasm

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
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
	st, clock, pl, id, p := w.st, w.clock, w.pl, w.caller, w.p
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
	check := func(after string) {
		t.Helper()
		fresh := &FactSource{Index: ix, Order: order, Counter: counter}
		var got, want Candidates
		err := st.View(context.Background(), p, func(tx *store.Txn) error {
			q.Now = clock.Now()
			var err error
			if got, err = remembering.Gather(tx, q); err != nil {
				return err
			}
			want, err = fresh.Gather(tx, q)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s: the remembering source gathered %d facts, a fresh one %d, or other ones", after, len(got.Facts), len(want.Facts))
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
