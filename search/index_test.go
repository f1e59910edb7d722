package search_test

import (
	"context"
	"encoding/json"
	"fmt"
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
// zero; forgetting the last fact holding the word deletes every one of
// them, while a word still held by a live fact keeps its count.
func TestForgottenWordLeavesNoStatistics(t *testing.T) {
	st, ix, clock, p := pipelineWorld(t)
	ctx := caller(t)
	part, err := tenancy.FromContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := facts.SpaceOf(part, facts.MemoryUser)
	if err != nil {
		t.Fatal(err)
	}
	write := func(in facts.WriteInput) facts.Fact {
		t.Helper()
		clock.Advance(time.Minute)
		in.MemoryType = facts.MemoryUser
		f, err := p.Write(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// records counts the statistics records whose key holds word.
	records := func(word string) int {
		t.Helper()
		n := 0
		err := st.View(ctx, part, func(tx *store.Txn) error {
			return tx.Scan(sp, store.TableSearchStats, nil, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
				if strings.Contains(string(suffix), word) {
					n++
				}
				return true, nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	df := func(word string) int {
		t.Helper()
		var s search.Stats
		err := st.View(ctx, part, func(tx *store.Txn) (err error) {
			s, err = ix.Stats(tx, part.Spaces(), []string{word}, temporal.View{}, nil)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return s.DF[word]
	}
	// One key's value alternates between two words, each version in its
	// own transaction.
	f := write(facts.WriteInput{Key: "diet", Value: json.RawMessage(`"zanzibar"`)})
	for i := range 5 {
		v := `"zanzibar"`
		if i%2 == 0 {
			v = `"quokka"`
		}
		f = write(facts.WriteInput{Key: "diet", Value: json.RawMessage(v), Supersedes: f.ID})
	}
	forgotten := write(facts.WriteInput{Key: "trip", Value: json.RawMessage(`"zanzibar quokka"`)})
	if got := df("zanzibar"); got != 1 {
		t.Fatalf("before forgetting: df(zanzibar) = %d, want 1", got)
	}
	if records("zanzibar") == 0 {
		t.Fatal("before forgetting: no statistics record holds zanzibar")
	}
	if _, err := p.Forget(ctx, forgotten.ID); err != nil {
		t.Fatal(err)
	}
	if n := records("zanzibar"); n != 0 {
		t.Errorf("after forgetting the last fact holding it: %d statistics records hold zanzibar, want none", n)
	}
	if got := df("zanzibar"); got != 0 {
		t.Errorf("after forgetting: df(zanzibar) = %d, want 0", got)
	}
	if got := df("quokka"); got != 1 {
		t.Errorf("after forgetting: df(quokka) = %d, want 1 (the live version of diet)", got)
	}
}
