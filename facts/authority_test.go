package facts

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// recorder is a ConflictOpener that records its calls and writes a marker
// record in the writing transaction, so the test can see that the conflict
// commits (or not) with the write.
type recorder struct {
	calls []string
	fail  error
}

func (r *recorder) OpenFactConflict(tx *store.Txn, _ authority.Identity, a, b Fact, reason string) error {
	r.calls = append(r.calls, a.ID+" vs "+b.ID+": "+reason)
	if r.fail != nil {
		return r.fail
	}
	return audit.Record(tx, tx.Partition().Shared(), audit.Entry{At: b.RecordedAt, Actor: "test", Action: "CONFLICT_OPENED", Record: b.ID, Kind: "conflict", By: a.ID})
}

func newTestService(t testing.TB, opts ...Option) (*Service, *store.Store) {
	t.Helper()
	o := store.DefaultOptions("")
	o.InMemory, o.SyncWrites = true, false
	st, err := store.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return NewService(st, temporal.NewManual(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)), authority.MustDefaultOrder(), opts...), st
}

// TestConflictOpener checks the hook the conflicts package plugs into: a
// lower-authority supersession stores the fact beside the higher one and
// calls the opener in the same transaction; an opener error aborts it all.
func TestConflictOpener(t *testing.T) {
	rec := &recorder{}
	svc, st := newTestService(t, WithConflictOpener(rec))
	cfo := authority.Identity{UserID: "cfo", Org: "o", Authority: "CFO", Kind: authority.KindAgent}
	intern := authority.Identity{UserID: "intern", Org: "o", Authority: "Intern", Kind: authority.KindAgent}
	write := func(caller authority.Identity, in WriteInput) (Fact, error) {
		var out Fact
		p := partition(t, caller)
		err := st.Update(context.Background(), p, func(tx *store.Txn) error {
			var err error
			out, err = svc.WriteTx(tx, caller, in)
			return err
		})
		return out, err
	}
	policy, err := write(cfo, WriteInput{Key: "discount.max", Value: []byte(`"max 15%"`), Source: &Source{Type: SourcePolicy}})
	if err != nil {
		t.Fatal(err)
	}
	low, err := write(intern, WriteInput{Key: "discount.max", Value: []byte(`"Let's offer 25%"`), Supersedes: "discount.max"})
	if err != nil {
		t.Fatal(err)
	}
	if low.Supersedes != "" || len(rec.calls) != 1 {
		t.Fatalf("supersedes %q, opener calls %q; want none and one", low.Supersedes, rec.calls)
	}
	want := policy.ID + " vs " + low.ID + `: authority "Intern" (subordinate) cannot supersede authority "CFO" (executive)`
	if rec.calls[0] != want {
		t.Errorf("opener call %q, want %q", rec.calls[0], want)
	}
	rec.fail = fault.New(fault.Conflict, "no")
	_, err = write(intern, WriteInput{ID: "F-aborted", Key: "discount.max", Value: []byte(`"30%"`), Supersedes: "discount.max"})
	if !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("opener error: got %v", err)
	}
	if err := st.View(context.Background(), partition(t, intern), func(tx *store.Txn) error {
		if _, _, err := svc.find(tx, "F-aborted"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a write whose conflict failed was stored: %v", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func partition(t testing.TB, id authority.Identity) tenancy.Partition {
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
	p, err := tenancy.For(vid)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
