package search_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

var secret = []byte("search-test-secret-0123456789")

// callerParts is caller, with the partition and the identity its token
// names.
func callerParts(t testing.TB) (context.Context, tenancy.Partition, authority.Identity) {
	t.Helper()
	ctx := caller(t)
	id, part, err := tenancy.Caller(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, part, id
}

func caller(t testing.TB) context.Context {
	t.Helper()
	id := authority.Identity{Org: "acme", UserID: "alice", Authority: "manager", Kind: authority.KindAgent, AgentLevel: authority.AgentMaster}
	tok, err := authority.Mint(secret, id, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	v, _ := authority.NewVerifier(authority.VerifierConfig{Secret: secret})
	vid, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	return authority.NewContext(context.Background(), vid)
}

// pipelineWorld opens a store with an index and a write pipeline on a
// manual clock (2026-01-05 09:00 UTC).
func pipelineWorld(tb testing.TB) (*store.Store, *search.Index, *temporal.Manual, *pipeline.Pipeline) {
	tb.Helper()
	st := storetest.Open(tb)
	ix := search.New()
	clock := temporal.NewManual(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	fs := facts.NewService(st, clock, authority.MustDefaultOrder())
	return st, ix, clock, pipeline.New(pipeline.Options{Store: st, Clock: clock, Facts: fs, Index: ix})
}

// TestStatsUnderConcurrentWrites: concurrent writers of facts sharing a
// word all commit (the statistics are sharded, so they rarely conflict and
// retry when they do) and the statistics count every document exactly; a
// supersession takes the retired document out.
func TestStatsUnderConcurrentWrites(t *testing.T) {
	st := storetest.Open(t)
	ix := search.New()
	fs := pipeline.New(pipeline.Options{
		Store: st, Clock: temporal.System{}, Facts: facts.NewService(st, temporal.System{}, authority.MustDefaultOrder()), Index: ix,
	})
	ctx := caller(t)

	const n = 64
	// The index holds terms, as the query parser makes them.
	shared := lexical.Terms("shared")[0]
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := fs.Write(ctx, facts.WriteInput{Key: fmt.Sprintf("item_%d", i), Value: json.RawMessage(`"shared word ` + fmt.Sprint(i) + `"`), MemoryType: facts.MemoryOrganizational})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent write: %v", err)
		}
	}
	stats := func() search.Stats {
		t.Helper()
		p, err := tenancy.FromContext(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var s search.Stats
		err = st.View(ctx, p, func(tx *store.Txn) (err error) {
			s, err = ix.Stats(tx, p.Spaces(), []string{shared, "item_1"}, temporal.View{}, nil)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := stats(); s.Docs != n || s.DF[shared] != n {
		t.Fatalf("after %d writes: docs %d, df(shared) %d", n, s.Docs, s.DF[shared])
	}
	if _, err := fs.Write(ctx, facts.WriteInput{Key: "item_0", Value: json.RawMessage(`"replaced"`), Supersedes: "item_0", MemoryType: facts.MemoryOrganizational}); err != nil {
		t.Fatal(err)
	}
	if s := stats(); s.Docs != n || s.DF[shared] != n-1 {
		t.Errorf("after a supersession: docs %d (want %d), df(shared) %d (want %d)", s.Docs, n, s.DF[shared], n-1)
	}
}

// TestForgottenWordLeavesNoStatistics: a transaction counts its documents
// in a shard of the statistics drawn at random, so a word written and
// retired over several transactions leaves shard records that add up to
// zero; forgetting a fact holding the word, live or retired, deletes every
// one of them once no live fact holds it, while a word still held by a
// live fact keeps its count. Statistics written by format 3 (a word's
// count in the shard of the fact's key) count and are purged alike.
func TestForgottenWordLeavesNoStatistics(t *testing.T) {
	w := newStatsWorld(t)
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, w *statsWorld)
	}{
		{"live fact", func(t *testing.T, w *statsWorld) {
			// One key's value alternates between two words, each version
			// in its own transaction.
			f := w.write(facts.WriteInput{Key: "diet", Value: json.RawMessage(`"zanzibar"`)})
			for i := range 5 {
				v := `"zanzibar"`
				if i%2 == 0 {
					v = `"quokka"`
				}
				f = w.write(facts.WriteInput{Key: "diet", Value: json.RawMessage(v), Supersedes: f.ID})
			}
			forgotten := w.write(facts.WriteInput{Key: "trip", Value: json.RawMessage(`"zanzibar quokka"`)})
			w.wantDF("before forgetting", map[string]int{"zanzibar": 1, "quokka": 2})
			if w.records("zanzibar") == 0 {
				t.Fatal("before forgetting: no statistics record holds zanzibar")
			}
			w.forget(forgotten)
			w.wantNoRecords("after forgetting the last fact holding it", "zanzibar")
			w.wantDF("after forgetting", map[string]int{"zanzibar": 0, "quokka": 1})
		}},
		{"retired fact", func(t *testing.T, w *statsWorld) {
			old := w.write(facts.WriteInput{Key: "meal", Value: json.RawMessage(`"mombasa"`)})
			w.write(facts.WriteInput{Key: "meal", Value: json.RawMessage(`"okapi"`), Supersedes: old.ID})
			w.wantDF("after the supersession", map[string]int{"mombasa": 0, "okapi": 1})
			w.forget(old)
			w.wantNoRecords("after forgetting the retired fact", "mombasa")
			w.wantDF("after forgetting", map[string]int{"mombasa": 0, "okapi": 1})
		}},
		{"written by format 3", func(t *testing.T, w *statsWorld) {
			old := w.write(facts.WriteInput{Key: "plan", Value: json.RawMessage(`"lamu dikdik"`)})
			w.asFormat3("plan", "plan", "lamu", "dikdik")
			w.wantDF("as format 3 wrote it", map[string]int{"lamu": 1, "dikdik": 1, "plan": 1})
			f := w.write(facts.WriteInput{Key: "plan", Value: json.RawMessage(`"dikdik heron"`), Supersedes: old.ID})
			w.wantDF("after the supersession", map[string]int{"lamu": 0, "dikdik": 1, "heron": 1, "plan": 1})
			w.forget(f)
			w.wantNoRecords("after forgetting the successor", "dikdik", "heron", "plan")
			w.wantDF("after forgetting the successor", map[string]int{"lamu": 0, "dikdik": 0, "heron": 0, "plan": 0})
			w.forget(old)
			w.wantNoRecords("after forgetting the first version", "lamu")
		}},
	} {
		// One store for all: each case writes words of its own.
		t.Run(tc.name, func(t *testing.T) { w.t = t; tc.run(t, w) })
	}
}

// statsWorld writes user-memory facts through the pipeline and reads the
// statistics as a fresh index does and as they are stored.
type statsWorld struct {
	t     *testing.T
	st    *store.Store
	clock *temporal.Manual
	p     *pipeline.Pipeline
	ctx   context.Context
	part  tenancy.Partition
	sp    tenancy.Space
}

func newStatsWorld(t *testing.T) *statsWorld {
	st, _, clock, p := pipelineWorld(t)
	ctx := caller(t)
	part, err := tenancy.FromContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := facts.SpaceOf(part, facts.MemoryUser)
	if err != nil {
		t.Fatal(err)
	}
	return &statsWorld{t: t, st: st, clock: clock, p: p, ctx: ctx, part: part, sp: sp}
}

func (w *statsWorld) write(in facts.WriteInput) facts.Fact {
	w.t.Helper()
	w.clock.Advance(time.Minute)
	in.MemoryType = facts.MemoryUser
	f, err := w.p.Write(w.ctx, in)
	if err != nil {
		w.t.Fatal(err)
	}
	return f
}

func (w *statsWorld) forget(f facts.Fact) {
	w.t.Helper()
	w.clock.Advance(time.Minute)
	if _, err := w.p.Forget(w.ctx, f.ID); err != nil {
		w.t.Fatal(err)
	}
}

// records counts the statistics records whose key holds word.
func (w *statsWorld) records(word string) int {
	w.t.Helper()
	n := 0
	err := w.st.View(w.ctx, w.part, func(tx *store.Txn) error {
		return tx.Scan(w.sp, store.TableSearchStats, nil, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
			if strings.Contains(string(suffix), word) {
				n++
			}
			return true, nil
		})
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return n
}

func (w *statsWorld) wantNoRecords(step string, words ...string) {
	w.t.Helper()
	for _, word := range words {
		if n := w.records(word); n != 0 {
			w.t.Errorf("%s: %d statistics records hold %q, want none", step, n, word)
		}
	}
}

// wantDF checks the document frequencies a fresh index reads.
func (w *statsWorld) wantDF(step string, want map[string]int) {
	w.t.Helper()
	var terms []string
	for t := range want {
		terms = append(terms, t)
	}
	var s search.Stats
	err := w.st.View(w.ctx, w.part, func(tx *store.Txn) (err error) {
		s, err = search.New().Stats(tx, w.part.Spaces(), terms, temporal.View{}, nil)
		return err
	})
	if err != nil {
		w.t.Fatal(err)
	}
	for t, n := range want {
		if s.DF[t] != n {
			w.t.Errorf("%s: df(%s) = %d, want %d", step, t, s.DF[t], n)
		}
	}
}

// asFormat3 rewrites the document frequencies of words as format 3 kept
// them for one unrestricted fact of key: a count of 1 in the shard of the
// key (FNV-1a of the key, mod 256), and none in any other shard.
func (w *statsWorld) asFormat3(key string, words ...string) {
	w.t.Helper()
	h := fnv.New32a()
	h.Write([]byte(key))
	shard := byte(h.Sum32() % 256)
	err := w.st.Update(w.ctx, w.part, func(tx *store.Txn) error {
		for _, word := range words {
			prefix := store.Suffix(nil).Str(word)
			var old [][]byte
			err := tx.Scan(w.sp, store.TableSearchStats, prefix, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
				old = append(old, slices.Clone(suffix))
				return true, nil
			})
			if err != nil {
				return err
			}
			for _, k := range old {
				if err := tx.Delete(w.sp, store.TableSearchStats, k); err != nil {
					return err
				}
			}
			if err := tx.PutRaw(w.sp, store.TableSearchStats, append(prefix, shard), binary.AppendVarint(nil, 1)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}
