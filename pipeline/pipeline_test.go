package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// testPipeline is a pipeline over a fresh in-memory store, on a manual
// clock, with nothing wired to its stages.
type testPipeline struct {
	*pipeline.Pipeline
	facts *facts.Service
	store *store.Store
	clock *temporal.Manual
}

func newTestPipeline(t testing.TB) testPipeline {
	t.Helper()
	st := storetest.Open(t)
	clock := temporal.NewManual(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	fs := facts.NewService(st, clock, authority.MustDefaultOrder())
	return testPipeline{pipeline.New(pipeline.Options{Store: st, Clock: clock, Facts: fs}), fs, st, clock}
}

// reactorFunc adapts a function to pipeline.Reactor.
type reactorFunc func(tx *store.Txn, caller authority.Identity, f facts.Fact, rivals []facts.Fact) error

func (fn reactorFunc) FactWritten(tx *store.Txn, caller authority.Identity, f facts.Fact, rivals []facts.Fact) error {
	return fn(tx, caller, f, rivals)
}

// TestRefusedSupersession checks what the react stage hands the conflicts
// package: a lower-authority supersession stores the fact beside the
// higher one, and the reactor sees the higher one as a valid rival in the
// same transaction; a reactor error aborts it all.
func TestRefusedSupersession(t *testing.T) {
	pl := newTestPipeline(t)
	st := pl.store
	var calls []string
	var fail error
	pl.AddReactor(reactorFunc(func(_ *store.Txn, _ authority.Identity, f facts.Fact, rivals []facts.Fact) error {
		for _, r := range rivals {
			calls = append(calls, r.ID+" vs "+f.ID)
		}
		return fail
	}))
	cfo := authority.Identity{UserID: "cfo", Org: "o", Authority: "CFO", Kind: authority.KindAgent}
	intern := authority.Identity{UserID: "intern", Org: "o", Authority: "Intern", Kind: authority.KindAgent}
	write := func(caller authority.Identity, in facts.WriteInput) (facts.Fact, error) {
		var out facts.Fact
		err := st.Update(context.Background(), partition(t, caller), func(tx *store.Txn) error {
			var err error
			out, err = pl.WriteTx(tx, caller, in)
			return err
		})
		return out, err
	}
	policy, err := write(cfo, facts.WriteInput{Key: "discount.max", Value: []byte(`"max 15%"`), Source: &facts.Source{Type: facts.SourcePolicy}})
	if err != nil {
		t.Fatal(err)
	}
	low, err := write(intern, facts.WriteInput{Key: "discount.max", Value: []byte(`"Let's offer 25%"`), Supersedes: "discount.max"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{policy.ID + " vs " + low.ID}; low.Supersedes != "" || !slices.Equal(calls, want) {
		t.Fatalf("supersedes %q, hook calls %q; want none and %q", low.Supersedes, calls, want)
	}
	fail = fault.New(fault.Conflict, "no")
	_, err = write(intern, facts.WriteInput{ID: "F-aborted", Key: "discount.max", Value: []byte(`"30%"`), Supersedes: "discount.max"})
	if !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("hook error: got %v", err)
	}
	if err := st.View(context.Background(), partition(t, intern), func(tx *store.Txn) error {
		if _, _, err := pl.facts.Find(tx, "F-aborted"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a write whose conflict failed was stored: %v", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func partition(t testing.TB, id authority.Identity) tenancy.Partition {
	t.Helper()
	p, err := tenancy.For(verified(t, id))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// verified returns id as a Verifier would.
func verified(t testing.TB, id authority.Identity) authority.Identity {
	t.Helper()
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: []byte("s")})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := authority.Mint([]byte("s"), id, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	vid, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	return vid
}

// TestListWithheld: a page counts the matching facts of its range the
// caller may not see, each once across pages, and nothing else of them.
func TestListWithheld(t *testing.T) {
	pl := newTestPipeline(t)
	clock := pl.clock
	boss := verified(t, authority.Identity{UserID: "boss", Org: "o", Authority: "executive", Kind: authority.KindAgent})
	clerk := verified(t, authority.Identity{UserID: "clerk", Org: "o", Authority: "employee", Kind: authority.KindAgent})
	secret := &permissions.Restriction{MinAuthority: "executive"}
	// public, secret, public, secret, secret, public
	for i, r := range []*permissions.Restriction{nil, secret, nil, secret, secret, nil} {
		in := facts.WriteInput{Key: fmt.Sprintf("k%d", i), Value: []byte(`"v"`), MemoryType: facts.MemoryOrganizational, RestrictedTo: r}
		if _, err := pl.Write(authority.NewContext(context.Background(), boss), in); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Second)
	}
	cases := []struct {
		name         string
		caller       authority.Identity
		first        int
		wantPages    [][]string
		wantWithheld []int
	}{
		{"clerk, pages of 2", clerk, 2, [][]string{{"k0", "k2"}, {"k5"}}, []int{1, 2}},
		{"clerk, one page", clerk, 10, [][]string{{"k0", "k2", "k5"}}, []int{3}},
		{"boss", boss, 10, [][]string{{"k0", "k1", "k2", "k3", "k4", "k5"}}, []int{0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := authority.NewContext(context.Background(), tc.caller)
			after := ""
			for i, want := range tc.wantPages {
				pg, err := pl.facts.List(ctx, facts.Filter{}, tc.first, after, temporal.View{})
				if err != nil {
					t.Fatal(err)
				}
				var keys []string
				for _, f := range pg.Facts {
					keys = append(keys, f.Key)
				}
				if !slices.Equal(keys, want) || pg.Withheld != tc.wantWithheld[i] || pg.HasNext != (i < len(tc.wantPages)-1) {
					t.Fatalf("page %d: keys %v withheld %d hasNext %v; want %v withheld %d", i, keys, pg.Withheld, pg.HasNext, want, tc.wantWithheld[i])
				}
				if pg.HasNext {
					after = pg.Cursors[len(pg.Cursors)-1]
				}
			}
		})
	}
}
