package search_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// TestPostingsNewestForward: in the current view, Postings reads a term's
// newest postings forward from where its last answer for the term began;
// whatever was written, superseded or forgotten since, and in a
// transaction with writes of its own, it answers what the reverse scan
// answers, for every limit.
func TestPostingsNewestForward(t *testing.T) {
	st, ix, clock, p := pipelineWorld(t)
	ctx, part, id := callerParts(t)
	words := []string{"falcon", "heron", "green", "owner"}
	var terms []string
	for _, w := range words {
		terms = append(terms, lexical.Terms(w)...)
	}
	read := func(tx *store.Txn, sp tenancy.Space, term string, limit int) []search.Posting {
		t.Helper()
		var out []search.Posting
		if err := ix.Postings(tx, sp, term, temporal.View{}, limit, func(p search.Posting) bool {
			out = append(out, p)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	check := func(tx *store.Txn, step string) {
		t.Helper()
		for _, sp := range part.Spaces() {
			for _, term := range terms {
				for _, limit := range []int{1, 4} {
					got := read(tx, sp, term, limit)
					var want []search.Posting
					search.WithoutNewest(func() { want = read(tx, sp, term, limit) })
					if !slices.EqualFunc(got, want, func(a, b search.Posting) bool {
						return a.ID == b.ID && a.RecordedAt.Equal(b.RecordedAt) && a.TF == b.TF && a.Len == b.Len
					}) {
						t.Fatalf("%s, %v, %q, limit %d:\n got %v\nwant %v", step, sp.Kind(), term, limit, got, want)
					}
					// The next read starts at the oldest posting returned, or
					// reads the whole list when it holds fewer than limit.
					at, id, whole, ok := search.NewestStart(sp, term, limit)
					switch {
					case !ok:
						t.Fatalf("%s, %v, %q, limit %d: no start remembered", step, sp.Kind(), term, limit)
					case len(want) < limit && !whole,
						len(want) == limit && (whole || id != want[limit-1].ID || !at.Equal(want[limit-1].RecordedAt)):
						t.Fatalf("%s, %v, %q, limit %d: start %v %q (whole: %v), want the oldest of %v", step, sp.Kind(), term, limit, at, id, whole, want)
					}
				}
			}
		}
	}
	value := func(rng *rand.Rand) json.RawMessage {
		return json.RawMessage(fmt.Sprintf("%q", words[rng.IntN(len(words))]+" "+words[rng.IntN(len(words))]))
	}
	memories := []facts.MemoryType{facts.MemoryOrganizational, facts.MemoryUser}
	rng := rand.New(rand.NewPCG(3, 4))
	var live []facts.Fact
	// Lists longer than the limits, in both spaces.
	for _, m := range memories {
		var ins []facts.WriteInput
		for i := range 24 {
			ins = append(ins, facts.WriteInput{Key: fmt.Sprintf("seed_%d.%s", i, words[i%len(words)]), Value: value(rng), MemoryType: m})
		}
		fs, err := p.WriteBatch(ctx, ins)
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, fs...)
	}
	for step := range 40 {
		clock.Advance(time.Minute)
		switch op := rng.IntN(10); {
		case op < 5 || len(live) == 0:
			f, err := p.Write(ctx, facts.WriteInput{Key: fmt.Sprintf("item_%d.%s", rng.IntN(30), words[rng.IntN(len(words))]), Value: value(rng), MemoryType: memories[rng.IntN(2)]})
			if err != nil {
				t.Fatal(err)
			}
			live = append(live, f)
		case op < 8:
			i := rng.IntN(len(live))
			old := live[i]
			f, err := p.Write(ctx, facts.WriteInput{Key: old.Key, Value: value(rng), MemoryType: old.MemoryType, Supersedes: old.ID})
			if err != nil {
				t.Fatal(err)
			}
			live[i] = f
		default:
			i := slices.IndexFunc(live, func(f facts.Fact) bool { return f.MemoryType == facts.MemoryUser })
			if i < 0 {
				continue
			}
			if _, err := p.Forget(ctx, live[i].ID); err != nil {
				t.Fatal(err)
			}
			live = slices.Delete(live, i, i+1)
		}
		if err := st.View(ctx, part, func(tx *store.Txn) error { check(tx, fmt.Sprintf("step %d", step)); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	// A transaction's own writes, new postings and retired ones, count.
	errRollback := errors.New("roll back")
	err := st.Update(ctx, part, func(tx *store.Txn) error {
		for i := range 4 {
			clock.Advance(time.Second)
			old := live[i]
			if _, err := p.WriteTx(tx, id, facts.WriteInput{Key: old.Key, Value: json.RawMessage(`"falcon heron"`), MemoryType: old.MemoryType, Supersedes: old.ID}); err != nil {
				return err
			}
			check(tx, fmt.Sprintf("pending write %d", i))
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatal(err)
	}
	if err := st.View(ctx, part, func(tx *store.Txn) error { check(tx, "after the rollback"); return nil }); err != nil {
		t.Fatal(err)
	}
}
