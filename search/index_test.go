package search_test

import (
	"context"
	"encoding/json"
	"fmt"
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
