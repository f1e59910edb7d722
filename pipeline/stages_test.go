package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// stageEnv is a pipeline over an in-memory store with one caller.
type stageEnv struct {
	p      *Pipeline
	st     *store.Store
	clock  *temporal.Manual
	caller authority.Identity
	part   tenancy.Partition
}

func newStageEnv(t *testing.T, callerAuthority string) stageEnv {
	t.Helper()
	st := storetest.Open(t)
	clock := temporal.NewManual(t0)
	p := New(Options{
		Store: st, Clock: clock, Facts: facts.NewService(st, clock, authority.MustDefaultOrder()),
		Volatile: func(k string) bool { return k == "location" },
	})
	secret := []byte("stage-test-secret-0123456789abcdef")
	tok, err := authority.Mint(secret, authority.Identity{UserID: "u", UserName: "U", Org: "o", Authority: callerAuthority, Kind: authority.KindAgent}, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	caller, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	part, err := tenancy.For(caller)
	if err != nil {
		t.Fatal(err)
	}
	return stageEnv{p: p, st: st, clock: clock, caller: caller, part: part}
}

// in runs fn in a transaction that is committed only when commit is true.
func (e stageEnv) in(t *testing.T, commit bool, fn func(tx *store.Txn) error) error {
	t.Helper()
	errDiscard := errors.New("discard")
	err := e.st.Update(context.Background(), e.part, func(tx *store.Txn) error {
		if err := fn(tx); err != nil {
			return err
		}
		if !commit {
			return errDiscard
		}
		return nil
	})
	if errors.Is(err, errDiscard) {
		return nil
	}
	return err
}

func (e stageEnv) write(t *testing.T, in facts.WriteInput) facts.Fact {
	t.Helper()
	var f facts.Fact
	if err := e.in(t, true, func(tx *store.Txn) (err error) {
		f, err = e.p.WriteTx(tx, e.caller, in)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return f
}

func val(s string) json.RawMessage { b, _ := json.Marshal(s); return b }

func TestAdmit(t *testing.T) {
	yes := true
	cases := []struct {
		name     string
		auth     string
		in       facts.WriteInput
		wantKind fault.Kind // "" for success
		check    func(t *testing.T, w *write)
	}{
		{"memory type and scope inferred", "peer", facts.WriteInput{Key: "k", Value: val("v")}, "", func(t *testing.T, w *write) {
			if w.f.MemoryType != facts.MemoryOrganizational || w.f.Scope != facts.ScopeGlobal || w.f.ID == "" || !w.f.ValidFrom.Equal(t0) {
				t.Errorf("admitted %+v", w.f)
			}
		}},
		{"constraint inferred from text", "peer", facts.WriteInput{Key: "k", Value: val("never exceed 10%")}, "", func(t *testing.T, w *write) {
			if !w.f.IsConstraint {
				t.Errorf("%q is not a constraint", w.f.Text())
			}
		}},
		{"constraint as given", "peer", facts.WriteInput{Key: "k", Value: val("plain"), IsConstraint: &yes, ConstraintType: "budget"}, "", func(t *testing.T, w *write) {
			if !w.f.IsConstraint || w.f.ConstraintType != "budget" {
				t.Errorf("constraint %v %q", w.f.IsConstraint, w.f.ConstraintType)
			}
		}},
		{"empty key", "peer", facts.WriteInput{Key: " ", Value: val("v")}, fault.BadInput, nil},
		{"volatile key", "peer", facts.WriteInput{Key: "location", Value: val("Paris")}, fault.BadInput, nil},
		{"volatile key promoted", "peer", facts.WriteInput{Key: "location", Value: val("Paris"), PromotedFrom: "A-1"}, "", nil},
		{"policy by a peer", "peer", facts.WriteInput{Key: "k", Value: val("v"), Source: &facts.Source{Type: facts.SourcePolicy}}, fault.Forbidden, nil},
		{"policy by an executive", "executive", facts.WriteInput{Key: "k", Value: val("v"), Source: &facts.Source{Type: facts.SourcePolicy}}, "", nil},
		{"attributing more authority", "peer", facts.WriteInput{Key: "k", Value: val("v"), Source: &facts.Source{Authority: "executive"}}, fault.Forbidden, nil},
		{"capability without a claim", "peer", facts.WriteInput{Key: "k", Value: val("v"), MemoryType: facts.MemoryCapability}, fault.BadInput, nil},
		{"unknown dependency", "peer", facts.WriteInput{Key: "k", Value: val("v"), DependsOn: []string{"F-nope"}}, fault.BadInput, nil},
		{"bad restriction", "peer", facts.WriteInput{Key: "k", Value: val("v"), RestrictedTo: &permissions.Restriction{MinAuthority: "emperor"}}, fault.BadInput, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newStageEnv(t, tc.auth)
			var w *write
			err := e.in(t, false, func(tx *store.Txn) (err error) {
				w, err = e.p.admit(tx, e.caller, tc.in)
				return err
			})
			if tc.wantKind == "" {
				if err != nil {
					t.Fatalf("admit: %v", err)
				}
				if tc.check != nil {
					tc.check(t, w)
				}
				return
			}
			var fe *fault.Error
			if !errors.As(err, &fe) || fe.Kind != tc.wantKind {
				t.Fatalf("admit: got %v, want a %s error", err, tc.wantKind)
			}
		})
	}
}

func TestAdmitDuplicateID(t *testing.T) {
	e := newStageEnv(t, "peer")
	e.write(t, facts.WriteInput{ID: "F-1", Key: "k", Value: val("v")})
	err := e.in(t, false, func(tx *store.Txn) error {
		_, err := e.p.admit(tx, e.caller, facts.WriteInput{ID: "F-1", Key: "k2", Value: val("v")})
		return err
	})
	if !errors.Is(err, fault.ErrConflict) {
		t.Fatalf("got %v, want CONFLICT", err)
	}
}

// arbiterStub answers Directive and Stale as set.
type arbiterStub struct {
	replaces, cue string
	outranked     *facts.Staleness
	stale         *facts.Staleness
	staleCalls    int
}

func (a *arbiterStub) Directive(*store.Txn, authority.Identity, facts.Fact) (string, string, *facts.Staleness, error) {
	return a.replaces, a.cue, a.outranked, nil
}

func (a *arbiterStub) Stale(*store.Txn, authority.Identity, facts.Fact, bool) (*facts.Staleness, error) {
	a.staleCalls++
	return a.stale, nil
}

func TestArbitrate(t *testing.T) {
	later := t0.Add(time.Hour)
	earlier := t0.Add(-time.Hour)
	cases := []struct {
		name    string
		auth    string // of the second write
		arbiter *arbiterStub
		in      func(first facts.Fact) facts.WriteInput
		want    func(t *testing.T, w *write, first facts.Fact)
		errKind fault.Kind
	}{
		{"change ends the old valid time", "peer", nil,
			func(f facts.Fact) facts.WriteInput {
				return facts.WriteInput{Key: "k", Value: val("new"), Supersedes: "k", ValidFrom: &later}
			},
			func(t *testing.T, w *write, first facts.Fact) {
				if w.old == nil || w.old.ID != first.ID || !w.old.ValidTo.Equal(later) || w.f.Supersession.Kind != facts.Change {
					t.Errorf("old %+v new %+v", w.old, w.f)
				}
			}, ""},
		{"correction takes over the valid time", "peer", nil,
			func(f facts.Fact) facts.WriteInput {
				return facts.WriteInput{Key: "k", Value: val("new"), Supersedes: f.ID, Kind: facts.Correction}
			},
			func(t *testing.T, w *write, first facts.Fact) {
				if !w.f.ValidFrom.Equal(first.ValidFrom) || !w.old.ValidTo.Equal(first.ValidFrom) {
					t.Errorf("new from %v, old to %v; want both %v", w.f.ValidFrom, w.old.ValidTo, first.ValidFrom)
				}
			}, ""},
		{"change dated before the old fact", "peer", nil,
			func(f facts.Fact) facts.WriteInput {
				return facts.WriteInput{Key: "k", Value: val("new"), Supersedes: "k", ValidFrom: &earlier}
			}, nil, fault.BadInput},
		{"lower authority is refused beside", "subordinate", nil,
			func(f facts.Fact) facts.WriteInput {
				return facts.WriteInput{Key: "k", Value: val("new"), Supersedes: "k"}
			},
			func(t *testing.T, w *write, first facts.Fact) {
				if w.old != nil || w.refused == nil || w.refused.ID != first.ID {
					t.Errorf("old %v refused %v", w.old, w.refused)
				}
			}, ""},
		{"unknown target", "peer", nil,
			func(f facts.Fact) facts.WriteInput {
				return facts.WriteInput{Key: "k", Value: val("new"), Supersedes: "nope"}
			},
			nil, fault.NotFound},
		{"outranked directive is stale and supersedes nothing", "peer", &arbiterStub{outranked: &facts.Staleness{Reason: "outranked"}},
			func(f facts.Fact) facts.WriteInput { return facts.WriteInput{Key: "k", Value: val("new")} },
			func(t *testing.T, w *write, first facts.Fact) {
				if !w.stale || w.old != nil || w.f.IsValid() {
					t.Errorf("stale %v old %v valid %v", w.stale, w.old, w.f.IsValid())
				}
			}, ""},
		{"a directive names what it replaces", "peer", &arbiterStub{replaces: "", cue: "outranks"},
			func(f facts.Fact) facts.WriteInput { return facts.WriteInput{Key: "k2", Value: val("new")} },
			func(t *testing.T, w *write, first facts.Fact) {
				if w.stale || w.old == nil || w.old.ID != first.ID || w.f.Supersession.Detection != facts.DetectionAuthority || w.f.Supersession.Cue != "outranks" {
					t.Errorf("stale %v, old %v, edge %+v; want the first fact replaced by authority", w.stale, w.old, w.f.Supersession)
				}
			}, ""},
		{"a directive outside the write's scope replaces nothing", "peer", &arbiterStub{replaces: "", cue: "outranks"},
			func(f facts.Fact) facts.WriteInput {
				return facts.WriteInput{Key: "k2", Value: val("new"), Scope: facts.ScopeProject, ScopeID: "p1"}
			},
			func(t *testing.T, w *write, first facts.Fact) {
				if w.stale || w.old != nil || w.f.Supersedes != "" || w.f.Scope != facts.ScopeProject {
					t.Errorf("stale %v, old %v, supersedes %q, scope %s; want a new PROJECT fact replacing nothing", w.stale, w.old, w.f.Supersedes, w.f.Scope)
				}
			}, ""},
		{"stale write", "peer", &arbiterStub{stale: &facts.Staleness{Reason: "restates"}},
			func(f facts.Fact) facts.WriteInput { return facts.WriteInput{Key: "k", Value: val("old again")} },
			func(t *testing.T, w *write, first facts.Fact) {
				if !w.stale || w.f.Stale.Reason != "restates" {
					t.Errorf("not stale: %+v", w.f)
				}
			}, ""},
		{"a detection is never judged stale", "peer", &arbiterStub{stale: &facts.Staleness{Reason: "restates"}},
			func(f facts.Fact) facts.WriteInput {
				return facts.WriteInput{Key: "k", Value: val("new"), Supersedes: "k", Detection: "EXPLICIT"}
			},
			func(t *testing.T, w *write, first facts.Fact) {
				if w.stale || w.old == nil || w.f.Supersession.Detection != "EXPLICIT" {
					t.Errorf("stale %v old %v", w.stale, w.old)
				}
			}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newStageEnv(t, "peer")
			first := e.write(t, facts.WriteInput{Key: "k", Value: val("old")})
			if tc.arbiter != nil {
				if tc.arbiter.replaces == "" && tc.arbiter.cue != "" {
					tc.arbiter.replaces = first.ID
				}
				e.p.SetArbiter(tc.arbiter)
			}
			e.caller.Authority = tc.auth
			var w *write
			err := e.in(t, false, func(tx *store.Txn) error {
				var err error
				if w, err = e.p.admit(tx, e.caller, tc.in(first)); err != nil {
					return err
				}
				return e.p.arbitrate(tx, w)
			})
			if tc.errKind != "" {
				var fe *fault.Error
				if !errors.As(err, &fe) || fe.Kind != tc.errKind {
					t.Fatalf("got %v, want %s", err, tc.errKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.want(t, w, first)
		})
	}
}

// TestLinkIndexReact: after a supersession the old fact is off the valid
// heads, the new one is on them under both keys, derived facts need
// review, and the reactors see only real rivals.
func TestLinkIndexReact(t *testing.T) {
	e := newStageEnv(t, "peer")
	base := e.write(t, facts.WriteInput{Key: "budget", Value: val("100")})
	derived := e.write(t, facts.WriteInput{Key: "plan", Value: val("spend 50"), DependsOn: []string{base.ID}})
	var rivals [][]string
	e.p.AddReactor(reactor(func(_ *store.Txn, _ authority.Identity, f facts.Fact, rs []facts.Fact) error {
		var ids []string
		for _, r := range rs {
			ids = append(ids, r.ID)
		}
		rivals = append(rivals, ids)
		return nil
	}))
	e.clock.Advance(time.Minute)
	next := e.write(t, facts.WriteInput{Key: "budget.q1", Value: val("80"), Supersedes: "budget"})
	other := e.write(t, facts.WriteInput{Key: "budget.q1", Value: val("90")})
	err := e.in(t, false, func(tx *store.Txn) error {
		fs := e.p.facts
		for key, want := range map[string][]string{"budget": {next.ID}, "budget.q1": {next.ID, other.ID}} {
			heads, err := fs.ValidByKey(tx, key)
			if err != nil {
				return err
			}
			var got []string
			for _, h := range heads {
				got = append(got, h.ID)
			}
			if len(got) != len(want) || got[0] != want[0] {
				t.Errorf("valid heads of %s: %v, want %v", key, got, want)
			}
		}
		d, _, err := fs.Find(tx, derived.ID)
		if err != nil {
			return err
		}
		if d.NeedsReviewAt == nil {
			t.Error("the derived fact does not need review")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rivals) != 2 || len(rivals[0]) != 0 || len(rivals[1]) != 1 || rivals[1][0] != next.ID {
		t.Errorf("reactor saw rivals %v, want none then [%s]", rivals, next.ID)
	}
}

type reactor func(tx *store.Txn, caller authority.Identity, f facts.Fact, rivals []facts.Fact) error

func (fn reactor) FactWritten(tx *store.Txn, caller authority.Identity, f facts.Fact, rivals []facts.Fact) error {
	return fn(tx, caller, f, rivals)
}

// TestObserveAfterCommitOnly: observers hear about committed writes only,
// with the kind of write.
func TestObserveAfterCommitOnly(t *testing.T) {
	e := newStageEnv(t, "peer")
	var seen []Action
	e.p.AddObserver(ObserverFunc(func(ev Event) { seen = append(seen, ev.Kind) }))
	e.write(t, facts.WriteInput{Key: "k", Value: val("a")})
	if err := e.in(t, false, func(tx *store.Txn) error {
		_, err := e.p.WriteTx(tx, e.caller, facts.WriteInput{Key: "k", Value: val("discarded"), Supersedes: "k"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	e.write(t, facts.WriteInput{Key: "k", Value: val("b"), Supersedes: "k"})
	if len(seen) != 2 || seen[0] != ActionWritten || seen[1] != ActionSuperseded {
		t.Fatalf("observers saw %v, want [WRITTEN SUPERSEDED]", seen)
	}
}
