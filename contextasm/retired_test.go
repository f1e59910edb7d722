package contextasm

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tokens"
)

// TestRetiredLoadedSuccessors: the values the fact source retires, with
// the successors it loaded taken from what it loaded, are those read
// without them (every successor read from its card): chains in both
// spaces, one to three links long, a head declaring itself void, and
// retired values whose successor was not loaded.
func TestRetiredLoadedSuccessors(t *testing.T) {
	ix := search.New()
	w := newPipelineWorld(t, ix)
	order := authority.MustDefaultOrder()
	counter, err := tokens.New()
	if err != nil {
		t.Fatal(err)
	}
	for i := range SmallPartition + 40 {
		mt := facts.MemoryOrganizational
		if i%3 == 0 {
			mt = facts.MemoryUser
		}
		w.write(t, facts.WriteInput{ID: fmt.Sprintf("f%d", i), Key: fmt.Sprintf("item.%d", i), Value: json.RawMessage(fmt.Sprintf(`"budget venue %d"`, i%17)), MemoryType: mt})
	}
	for i := range 60 {
		mt := facts.MemoryOrganizational
		if i%3 == 0 {
			mt = facts.MemoryUser
		}
		for link := range 1 + i%3 {
			v := fmt.Sprintf(`"budget venue %d, take %d"`, i%17, link)
			if i%7 == 0 && link == i%3 {
				v = `"[INVALIDATED - wrong data] budget venue"`
			}
			if i%5 == 0 {
				v = fmt.Sprintf(`"moved on %d"`, link) // a successor no query term finds
			}
			w.write(t, facts.WriteInput{Key: fmt.Sprintf("item.%d", i), Value: json.RawMessage(v), Supersedes: fmt.Sprintf("item.%d", i), MemoryType: mt})
		}
	}
	fs := &FactSource{Index: ix, Order: order, Counter: counter, Cards: facts.NewCards(),
		Visible: facts.NewService(w.st, w.clock, order).Readable()}
	for _, text := range []string{"budget venue 3 lisbon", "venue take", "moved"} {
		q := Query{Caller: w.caller, Text: text, Terms: QueryTerms(text), Budget: 4000, SessionID: "s1", Now: w.clock.Now()}
		err := w.st.View(context.Background(), w.p, func(tx *store.Txn) error {
			for range 2 { // the second with the cards remembered
				c, err := fs.Gather(tx, q)
				if err != nil {
					return err
				}
				cr, err := fs.cardReader(tx)
				if err != nil {
					return err
				}
				none := func(string) (string, bool) { return "", false }
				want, err := fs.retired(tx, cr, q, supersededOf(q, c.Facts), none)
				if err != nil {
					return err
				}
				if len(want) == 0 {
					t.Errorf("%q: nothing retired", text)
				}
				if !reflect.DeepEqual(c.Retired, want) {
					t.Errorf("%q: retired %v, reading every successor %v", text, c.Retired, want)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
