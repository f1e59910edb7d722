package search_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// TestStatsCacheMatchesStore: the statistics an Index answers from its
// cache (sums kept under the versions of the corpus and of term buckets)
// are the statistics a fresh Index reads from the store, after every step
// of a seeded random run of writes, supersessions, restricted writes,
// batches and forgetting, for several readers and sets of terms; also in
// a transaction that wrote and reads its own writes, and after that
// transaction was rolled back.
func TestStatsCacheMatchesStore(t *testing.T) {
	st, ix, clock, p := pipelineWorld(t)
	ctx, part, id := callerParts(t)
	// A restriction the caller satisfies, so it can supersede and forget.
	managers := &permissions.Restriction{MinAuthority: "manager"}
	// Only user memory can be forgotten.
	memories := []facts.MemoryType{facts.MemoryOrganizational, facts.MemoryUser}
	words := []string{"falcon", "heron", "green", "blue", "deal", "payroll", "budget", "owner", "march", "porto"}
	terms := func(ws ...string) []string {
		var out []string
		for _, w := range ws {
			out = append(out, lexical.Terms(w)...)
		}
		return out
	}
	queries := [][]string{terms(words...), terms("falcon", "heron"), terms("budget", "item", "3"), terms("nothing", "porto", "falcon")}
	readers := []struct {
		name string
		rd   search.Readable
	}{
		{"all", nil},
		{"unrestricted only", func(*permissions.Restriction) bool { return false }},
	}
	// check compares ix with a fresh index, in tx.
	check := func(tx *store.Txn, step string) {
		t.Helper()
		for _, q := range queries {
			for _, r := range readers {
				// Twice: the second answer comes from the cache.
				for range 2 {
					got, err := ix.Stats(tx, part.Spaces(), q, temporal.View{}, r.rd)
					if err != nil {
						t.Fatal(err)
					}
					want, err := search.New().Stats(tx, part.Spaces(), q, temporal.View{}, r.rd)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s, reader %s, terms %v: cached %+v, store %+v", step, r.name, q, got, want)
					}
				}
			}
		}
	}
	view := func(step string) {
		t.Helper()
		if err := st.View(ctx, part, func(tx *store.Txn) error { check(tx, step); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	value := func(rng *rand.Rand) json.RawMessage {
		n := 1 + rng.IntN(4)
		v := ""
		for i := range n {
			if i > 0 {
				v += " "
			}
			v += words[rng.IntN(len(words))]
		}
		return json.RawMessage(fmt.Sprintf("%q", v))
	}

	rng := rand.New(rand.NewPCG(1, 2))
	var live []facts.Fact
	for step := range 60 {
		clock.Advance(time.Minute)
		var name string
		var written []facts.Fact
		switch op := rng.IntN(10); {
		case op < 4 || len(live) == 0:
			name = "write"
			in := facts.WriteInput{Key: fmt.Sprintf("item_%d.%s", rng.IntN(40), words[rng.IntN(len(words))]), Value: value(rng), MemoryType: memories[rng.IntN(len(memories))]}
			if rng.IntN(3) == 0 {
				in.RestrictedTo = managers
			}
			f, err := p.Write(ctx, in)
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			written = append(written, f)
		case op < 7:
			name = "supersede"
			old := live[rng.IntN(len(live))]
			f, err := p.Write(ctx, facts.WriteInput{Key: old.Key, Value: value(rng), MemoryType: old.MemoryType, Supersedes: old.ID, RestrictedTo: old.RestrictedTo})
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			live = slicesDelete(live, old.ID)
			written = append(written, f)
		case op < 8:
			name = "forget"
			var users []facts.Fact
			for _, f := range live {
				if f.MemoryType == facts.MemoryUser {
					users = append(users, f)
				}
			}
			if len(users) == 0 {
				continue
			}
			old := users[rng.IntN(len(users))]
			if _, err := p.Forget(ctx, old.ID); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			live = slicesDelete(live, old.ID)
		default:
			name = "batch"
			var ins []facts.WriteInput
			for i := range 1 + rng.IntN(8) {
				ins = append(ins, facts.WriteInput{Key: fmt.Sprintf("batch_%d_%d.%s", step, i, words[rng.IntN(len(words))]), Value: value(rng), MemoryType: facts.MemoryOrganizational})
			}
			fs, err := p.WriteBatch(ctx, ins)
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			written = append(written, fs...)
		}
		for _, f := range written {
			if f.Stale == nil && f.IsValid() {
				live = append(live, f)
			}
		}
		view(fmt.Sprintf("step %d (%s)", step, name))
	}

	// A transaction reads its own writes, and a rolled-back one leaves
	// nothing in the cache that a later reader would meet.
	errRollback := errors.New("roll back")
	err := st.Update(ctx, part, func(tx *store.Txn) error {
		check(tx, "before writing in the transaction")
		for i := range 3 {
			clock.Advance(time.Second)
			if _, err := p.WriteTx(tx, id, facts.WriteInput{Key: fmt.Sprintf("pending_%d.owner", i), Value: json.RawMessage(`"falcon porto"`), MemoryType: facts.MemoryOrganizational}); err != nil {
				return err
			}
			check(tx, fmt.Sprintf("after pending write %d", i))
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("rolled-back transaction: %v", err)
	}
	view("after the rollback")
}

func slicesDelete(fs []facts.Fact, id string) []facts.Fact {
	out := fs[:0]
	for _, f := range fs {
		if f.ID != id {
			out = append(out, f)
		}
	}
	return out
}

// TestCorpusVersionIsCardEpoch: the corpus statistics are cached under the
// space's card epoch (one version record per fact write, not two): a
// change of the corpus alone, with no card written, moves the epoch, and
// the cached sums follow it; the corpus version of stores written before
// (store.TableSearchVersion, empty suffix) is neither read nor written.
func TestCorpusVersionIsCardEpoch(t *testing.T) {
	st, ix, _, p := pipelineWorld(t)
	ctx, part, _ := callerParts(t)
	sp, err := facts.SpaceOf(part, facts.MemoryOrganizational)
	if err != nil {
		t.Fatal(err)
	}
	q := lexical.Terms("falcon budget")
	stats := func(ix *search.Index) (search.Stats, string) {
		t.Helper()
		return statsAndEpoch(t, st, ctx, part, sp, ix, q)
	}
	if _, err := p.Write(ctx, facts.WriteInput{Key: "falcon.budget", Value: json.RawMessage(`"falcon budget approved"`), MemoryType: facts.MemoryOrganizational}); err != nil {
		t.Fatal(err)
	}
	// A version the old layout stored: nothing reads it.
	if err := st.Update(ctx, part, func(tx *store.Txn) error {
		return tx.PutRaw(sp, store.TableSearchVersion, nil, []byte("old corpus version"))
	}); err != nil {
		t.Fatal(err)
	}
	before, epoch0 := stats(ix)
	if before.Docs != 1 || epoch0 == "" {
		t.Fatalf("after one write: %+v, epoch %q; want 1 document and an epoch", before, epoch0)
	}
	if again, _ := stats(ix); !reflect.DeepEqual(again, before) {
		t.Fatalf("cached %+v, first read %+v", again, before)
	}
	if err := st.Update(ctx, part, func(tx *store.Txn) error { search.AddCorpus(tx, sp, 2, 7); return nil }); err != nil {
		t.Fatal(err)
	}
	got, epoch1 := stats(ix)
	if epoch1 == epoch0 {
		t.Fatalf("a change of the corpus kept the card epoch %q", epoch0)
	}
	want, _ := stats(search.New())
	if !reflect.DeepEqual(got, want) || got.Docs != 3 || got.Length != before.Length+7 {
		t.Fatalf("after a corpus change: cached %+v, store %+v; want 3 documents, length %d", got, want, before.Length+7)
	}
	err = st.View(ctx, part, func(tx *store.Txn) error {
		b, err := tx.GetRaw(sp, store.TableSearchVersion, nil)
		if err != nil || string(b) != "old corpus version" {
			t.Errorf("the old corpus version: %q, %v; want it untouched", b, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTermVersionMovesEpoch: a change of a document frequency alone, with
// no card and no corpus change written with it, moves the card epoch too,
// so that a sum checked under an epoch holds for every snapshot holding
// it; the cached frequencies follow the change, and so do those of the
// other terms, checked again by their bucket's version.
func TestTermVersionMovesEpoch(t *testing.T) {
	st, ix, _, p := pipelineWorld(t)
	ctx, part, _ := callerParts(t)
	sp, err := facts.SpaceOf(part, facts.MemoryOrganizational)
	if err != nil {
		t.Fatal(err)
	}
	q := lexical.Terms("falcon budget heron")
	stats := func(ix *search.Index) (search.Stats, string) {
		t.Helper()
		return statsAndEpoch(t, st, ctx, part, sp, ix, q)
	}
	if _, err := p.Write(ctx, facts.WriteInput{Key: "falcon.budget", Value: json.RawMessage(`"falcon budget approved"`), MemoryType: facts.MemoryOrganizational}); err != nil {
		t.Fatal(err)
	}
	before, epoch0 := stats(ix)
	if again, _ := stats(ix); !reflect.DeepEqual(again, before) {
		t.Fatalf("cached %+v, first read %+v", again, before)
	}
	for i, term := range []string{q[0], q[2], q[0]} {
		if err := st.Update(ctx, part, func(tx *store.Txn) error { search.AddDF(tx, sp, term, 2); return nil }); err != nil {
			t.Fatal(err)
		}
		got, epoch1 := stats(ix)
		if epoch1 == epoch0 {
			t.Fatalf("change %d: a change of the frequency of %q kept the card epoch %q", i, term, epoch0)
		}
		epoch0 = epoch1
		want, _ := stats(search.New())
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("change %d, of %q: cached %+v, store %+v", i, term, got, want)
		}
		if again, _ := stats(ix); !reflect.DeepEqual(again, want) {
			t.Fatalf("change %d, of %q, read again: cached %+v, store %+v", i, term, again, want)
		}
	}
	if got, _ := stats(ix); got.DF[q[0]] != before.DF[q[0]]+4 || got.DF[q[2]] != before.DF[q[2]]+2 {
		t.Fatalf("after the changes: %v, before %v", got.DF, before.DF)
	}
}

// statsAndEpoch reads the statistics of terms q in part and the card epoch
// of space sp in one snapshot.
func statsAndEpoch(t *testing.T, st *store.Store, ctx context.Context, part tenancy.Partition, sp tenancy.Space, ix *search.Index, q []string) (s search.Stats, epoch string) {
	t.Helper()
	err := st.View(ctx, part, func(tx *store.Txn) error {
		var err error
		if s, err = ix.Stats(tx, part.Spaces(), q, temporal.View{}, nil); err != nil {
			return err
		}
		epoch, err = facts.EpochTx(tx, sp)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, epoch
}
