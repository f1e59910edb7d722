package consolidate_test

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/temporal"
)

const (
	writeQ = `mutation($in: FactInput!) { writeFact(input: $in) { id level } }`
	runQ   = `mutation($c: String!) { consolidateCapability(capability: $c) {
		id capability actor agentLevel mode level scheduled reused threshold minClusterSize staleAfterSeconds inputs
		clusters { members sharedTerms representative key text factId status }
		pruned { factId reason applied } } }`
	runsQ  = `query($c: String!, $n: Int) { consolidationRuns(capability: $c, first: $n) { id reused scheduled actor mode inputs clusters { factId status } pruned { factId reason applied } } }`
	factQ  = `query($id: ID!) { fact(id: $id) { id key value level isValid dependsOn { id } validTo revokedBy { id } } }`
	auditQ = `query($id: ID!) { auditTrail(recordId: $id) { action by actor } }`
)

type cluster struct {
	Members        []string
	SharedTerms    []string
	Representative string
	Key, Text      string
	FactID         string
	Status         string
}

type prune struct {
	FactID, Reason string
	Applied        bool
}

type run struct {
	ID, Capability, Actor string
	AgentLevel            *string
	Mode, Level           string
	Scheduled, Reused     bool
	Threshold             float64
	MinClusterSize        int
	StaleAfterSeconds     int
	Inputs                []string
	Clusters              []cluster
	Pruned                []prune
}

type fact struct {
	ID, Key, Level string
	Value          any
	IsValid        bool
	DependsOn      []struct{ ID string }
	ValidTo        *string
	RevokedBy      *struct{ ID string }
}

// events are the event memories of the tests: two clusters of three
// similar events, and two events like no other.
var events = []struct{ id, key, value string }{
	{"ev-refund-1", "ticket.refund", "Refund issued for a duplicate card charge on the March invoice"},
	{"ev-pw-1", "ticket.password", "Password reset link expired before the customer opened the email"},
	{"ev-refund-2", "ticket.refund", "Refund issued after a duplicate card charge on the April invoice"},
	{"ev-odd-1", "ticket.shipping", "Parcel delivered to the neighbour across the street"},
	{"ev-pw-2", "ticket.password", "Password reset link expired: the customer opened the email a day later"},
	{"ev-refund-3", "ticket.refund", "Duplicate card charge refunded on the May invoice"},
	{"ev-pw-3", "ticket.password", "Customer asked again because the password reset link expired"},
	{"ev-odd-2", "ticket.language", "Answered a question in Portuguese"},
}

func agent(org string, level authority.AgentLevel, capability string) authority.Identity {
	id := apitest.Identity(org, "agent-"+string(level))
	id.AgentLevel, id.Capability = level, capability
	return id
}

// seed writes events as a junior agent of capability in org.
func seed(t *testing.T, env *apitest.Env, org, capability string) {
	t.Helper()
	tok := apitest.Token(t, agent(org, authority.AgentJunior, capability))
	for _, e := range events {
		var out struct{ WriteFact struct{ ID, Level string } }
		env.MustDo(t, tok, writeQ, map[string]any{"in": map[string]any{
			"id": e.id, "key": e.key, "value": e.value, "memoryType": "CAPABILITY", "level": "EVENT"}}, &out)
		if out.WriteFact.Level != "EVENT" {
			t.Fatalf("seed %s: level %q", e.id, out.WriteFact.Level)
		}
	}
}

func write(t *testing.T, env *apitest.Env, tok string, in map[string]any) {
	t.Helper()
	var out struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, writeQ, map[string]any{"in": in}, &out)
}

func consolidate(t *testing.T, env *apitest.Env, tok, capability string) run {
	t.Helper()
	var out struct{ ConsolidateCapability run }
	env.MustDo(t, tok, runQ, map[string]any{"c": capability}, &out)
	return out.ConsolidateCapability
}

func getFact(t *testing.T, env *apitest.Env, tok, id string) *fact {
	t.Helper()
	var out struct{ Fact *fact }
	env.MustDo(t, tok, factQ, map[string]any{"id": id}, &out)
	return out.Fact
}

func members(r run) [][]string {
	var out [][]string
	for _, c := range r.Clusters {
		out = append(out, c.Members)
	}
	return out
}

// wantClusters: inputs come oldest first, then by id (the seed writes
// them at one instant), and clusters by their first member.
var wantClusters = [][]string{{"ev-pw-1", "ev-pw-2", "ev-pw-3"}, {"ev-refund-1", "ev-refund-2", "ev-refund-3"}}

// TestLevels: the same events consolidate at every agent level; the
// candidates are written at the level the agent may write (senior:
// HEURISTIC, master and service: STRATEGY), or only proposed (junior).
func TestLevels(t *testing.T) {
	service := apitest.Identity("acme", "svc")
	service.Kind, service.AgentLevel, service.Capability = authority.KindService, "", "support"
	for _, tc := range []struct {
		name       string
		id         authority.Identity
		mode       string
		level      string
		written    bool
		agentLevel string
	}{
		{"junior", agent("acme", authority.AgentJunior, "support"), "PROPOSED", "HEURISTIC", false, "junior"},
		{"senior", agent("acme", authority.AgentSenior, "support"), "WRITTEN", "HEURISTIC", true, "senior"},
		{"master", agent("acme", authority.AgentMaster, "support"), "WRITTEN", "STRATEGY", true, "master"},
		{"service", service, "WRITTEN", "STRATEGY", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t)
			seed(t, env, "acme", "support")
			tok := apitest.Token(t, tc.id)
			r := consolidate(t, env, tok, "support")
			if r.Mode != tc.mode || r.Level != tc.level || r.Reused || r.Scheduled || r.Capability != "support" {
				t.Fatalf("run %+v, want mode %s level %s", r, tc.mode, tc.level)
			}
			if got := ""; r.AgentLevel != nil {
				got = *r.AgentLevel
				if got != tc.agentLevel {
					t.Errorf("agentLevel %q, want %q", got, tc.agentLevel)
				}
			} else if tc.agentLevel != "" {
				t.Errorf("agentLevel null, want %q", tc.agentLevel)
			}
			if got := members(r); !slices.EqualFunc(got, wantClusters, slices.Equal) {
				t.Fatalf("clusters %v, want %v", got, wantClusters)
			}
			if len(r.Inputs) != len(events) || len(r.Pruned) != 0 {
				t.Errorf("inputs %v pruned %v, want every event and no prune", r.Inputs, r.Pruned)
			}
			refund := r.Clusters[1]
			if !slices.Contains(refund.SharedTerms, "refund") || !slices.Contains(refund.SharedTerms, "duplicate") {
				t.Errorf("refund cluster shares %v, want refund and duplicate among them", refund.SharedTerms)
			}
			for _, c := range r.Clusters {
				f := getFact(t, env, tok, c.FactID)
				if !tc.written {
					if c.Status != "PROPOSED" || f != nil {
						t.Errorf("junior: candidate %s status %s, fact %+v: want PROPOSED and nothing written", c.FactID, c.Status, f)
					}
					continue
				}
				if c.Status != "WRITTEN" || f == nil {
					t.Fatalf("candidate %s status %s, fact %+v: want WRITTEN", c.FactID, c.Status, f)
				}
				var deps []string
				for _, d := range f.DependsOn {
					deps = append(deps, d.ID)
				}
				slices.Sort(deps)
				want := slices.Sorted(slices.Values(c.Members))
				if f.Level != tc.level || f.Key != c.Key || f.Value != c.Text || !f.IsValid || !slices.Equal(deps, want) {
					t.Errorf("candidate fact %+v (deps %v), want level %s, key %s, the run's text, dependsOn %v", f, deps, tc.level, c.Key, want)
				}
			}
		})
	}
}

// TestIdempotent: a second run over the same inputs writes nothing and
// returns the first; a new event makes a new run, which keeps the
// candidates already written.
func TestIdempotent(t *testing.T) {
	env := apitest.New(t)
	seed(t, env, "acme", "support")
	tok := apitest.Token(t, agent("acme", authority.AgentSenior, "support"))
	first := consolidate(t, env, tok, "support")
	env.Clock.Advance(time.Minute)
	again := consolidate(t, env, tok, "support")
	if !again.Reused || again.ID != first.ID {
		t.Fatalf("second run %s (reused %v), want the first run %s reused", again.ID, again.Reused, first.ID)
	}
	var runs struct{ ConsolidationRuns []run }
	env.MustDo(t, tok, runsQ, map[string]any{"c": "support"}, &runs)
	if len(runs.ConsolidationRuns) != 1 || runs.ConsolidationRuns[0].Reused {
		t.Fatalf("runs %+v, want the first only", runs.ConsolidationRuns)
	}
	// Nothing was written: the candidates' audit trails hold one entry.
	for _, c := range first.Clusters {
		var trail struct{ AuditTrail []struct{ Action string } }
		env.MustDo(t, tok, auditQ, map[string]any{"id": c.FactID}, &trail)
		if len(trail.AuditTrail) != 1 {
			t.Errorf("candidate %s trail %+v, want one WRITTEN entry", c.FactID, trail.AuditTrail)
		}
	}
	// A new event of the refund cluster: a new run, a new candidate for
	// the grown cluster, the password one kept.
	junior := apitest.Token(t, agent("acme", authority.AgentJunior, "support"))
	write(t, env, junior, map[string]any{
		"id": "ev-refund-4", "key": "ticket.refund", "value": "Refund issued for a duplicate card charge on the June invoice", "memoryType": "CAPABILITY"})
	next := consolidate(t, env, tok, "support")
	if next.Reused || next.ID == first.ID || len(next.Clusters) != 2 {
		t.Fatalf("run after a new event %+v, want a new run with two clusters", next)
	}
	if c := next.Clusters[0]; c.Status != "EXISTING" || c.FactID != first.Clusters[0].FactID {
		t.Errorf("unchanged cluster %+v, want EXISTING %s", c, first.Clusters[0].FactID)
	}
	if c := next.Clusters[1]; c.Status != "WRITTEN" || len(c.Members) != 4 || c.FactID == first.Clusters[1].FactID {
		t.Errorf("grown cluster %+v, want 4 members WRITTEN as a new candidate", c)
	}
	env.MustDo(t, tok, runsQ, map[string]any{"c": "support", "n": 1}, &runs)
	if len(runs.ConsolidationRuns) != 1 || runs.ConsolidationRuns[0].ID != next.ID {
		t.Errorf("first: 1 gives %+v, want the newest run %s", runs.ConsolidationRuns, next.ID)
	}
	var one struct{ ConsolidationRun *run }
	env.MustDo(t, tok, `query($id: ID!) { consolidationRun(id: $id) { id inputs } }`, map[string]any{"id": first.ID}, &one)
	if one.ConsolidationRun == nil || one.ConsolidationRun.ID != first.ID || len(one.ConsolidationRun.Inputs) != len(events) {
		t.Errorf("consolidationRun(%s) = %+v", first.ID, one.ConsolidationRun)
	}
}

// TestPrune: events older than the stale-after period that no context
// used, that a context last used before it, or that depend on a
// superseded fact are pruned, with an audit entry naming the run; a
// junior's run only proposes it.
func TestPrune(t *testing.T) {
	for _, level := range []authority.AgentLevel{authority.AgentJunior, authority.AgentSenior} {
		t.Run(string(level), func(t *testing.T) {
			env := apitest.New(t, func(o *server.Options) { o.Consolidation.StaleAfter = 24 * time.Hour })
			seed(t, env, "acme", "support")
			tok := apitest.Token(t, agent("acme", level, "support"))
			junior := apitest.Token(t, agent("acme", authority.AgentJunior, "support"))
			// A base fact, and an event that depends on it.
			write(t, env, junior, map[string]any{"id": "base", "key": "refund.policy", "value": "refunds within 30 days", "memoryType": "ORGANIZATIONAL"})
			write(t, env, junior, map[string]any{"id": "ev-derived", "key": "ticket.policy",
				"value": "Applied the thirty day refund window", "memoryType": "CAPABILITY", "dependsOn": []string{"base"}})
			// A context uses the shipping event now, and the language event.
			use := func(query string) {
				var out struct {
					AssembleContext struct{ Included []struct{ ID string } }
				}
				env.MustDo(t, tok, `query($q: String!) { assembleContext(input: {query: $q, budget: 130}) { included { id } } }`, map[string]any{"q": query}, &out)
			}
			use("parcel delivered neighbour street")
			env.Clock.Advance(20 * time.Hour)
			use("question answered in portuguese")
			env.Clock.Advance(20 * time.Hour) // 40h: the shipping event's use is stale, the language one's is not
			write(t, env, junior, map[string]any{"key": "refund.policy", "value": "refunds within 14 days", "supersedes": "base"})
			// A fresh event: never used, but not old enough to prune.
			write(t, env, junior, map[string]any{"id": "ev-fresh", "key": "ticket.misc",
				"value": "Customer thanked the team", "memoryType": "CAPABILITY"})

			r := consolidate(t, env, tok, "support")
			got := map[string]string{}
			for _, p := range r.Pruned {
				got[p.FactID] = p.Reason
				if p.Applied != (level != authority.AgentJunior) {
					t.Errorf("prune %+v applied %v at level %s", p, p.Applied, level)
				}
			}
			want := map[string]string{"ev-derived": "CONTRADICTED", "ev-odd-1": "STALE"}
			for _, e := range events {
				if e.id != "ev-odd-1" && e.id != "ev-odd-2" {
					want[e.id] = "UNUSED"
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("pruned %v, want %v", got, want)
			}
			if !slices.Equal(r.Inputs, []string{"ev-odd-2", "ev-fresh"}) {
				t.Errorf("inputs %v, want the recently used and the fresh event", r.Inputs)
			}
			f := getFact(t, env, tok, "ev-refund-1")
			var trail struct {
				AuditTrail []struct{ Action, By, Actor string }
			}
			env.MustDo(t, tok, auditQ, map[string]any{"id": "ev-refund-1"}, &trail)
			if level == authority.AgentJunior {
				if f == nil || !f.IsValid || len(trail.AuditTrail) != 1 {
					t.Errorf("junior: pruned event %+v trail %+v, want it valid and untouched", f, trail.AuditTrail)
				}
				return
			}
			if f == nil || f.IsValid || f.ValidTo == nil || f.RevokedBy != nil {
				t.Errorf("pruned event %+v, want it ended (its valid time closed), by no conflict decision", f)
			}
			var actions []string
			for _, e := range trail.AuditTrail {
				actions = append(actions, e.Action)
				if e.Action != "WRITTEN" && e.By != r.ID {
					t.Errorf("audit entry %+v, want it by run %s", e, r.ID)
				}
			}
			if !slices.Equal(actions, []string{"WRITTEN", "REVOKED", "PRUNED"}) {
				t.Errorf("audit trail %v, want WRITTEN, REVOKED, PRUNED", actions)
			}
			if again := consolidate(t, env, tok, "support"); !again.Reused || again.ID != r.ID {
				t.Errorf("run after pruning %s reused %v, want run %s reused", again.ID, again.Reused, r.ID)
			}
		})
	}
}

// TestOtherOrganizations: a run touches its own organization's capability
// only; the same capability name elsewhere keeps its events and has no
// run.
func TestOtherOrganizations(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.Consolidation.StaleAfter = time.Hour })
	seed(t, env, "acme", "support")
	seed(t, env, "globex", "support")
	env.Clock.Advance(2 * time.Hour)
	acme := apitest.Token(t, agent("acme", authority.AgentSenior, "support"))
	globex := apitest.Token(t, agent("globex", authority.AgentSenior, "support"))
	r := consolidate(t, env, acme, "support")
	if len(r.Pruned) != len(events) {
		t.Fatalf("acme pruned %v, want every event", r.Pruned)
	}
	var runs struct{ ConsolidationRuns []run }
	env.MustDo(t, globex, runsQ, map[string]any{"c": "support"}, &runs)
	if len(runs.ConsolidationRuns) != 0 {
		t.Errorf("globex runs %+v, want none", runs.ConsolidationRuns)
	}
	for _, e := range events {
		if f := getFact(t, env, globex, e.id); f == nil || !f.IsValid {
			t.Errorf("globex event %s = %+v, want it valid", e.id, f)
		}
	}
	var one struct{ ConsolidationRun *run }
	env.MustDo(t, globex, `query($id: ID!) { consolidationRun(id: $id) { id } }`, map[string]any{"id": r.ID}, &one)
	if one.ConsolidationRun != nil {
		t.Errorf("globex reads acme's run %s", r.ID)
	}
}

// TestScheduled: the background consolidator runs every registered
// capability of every organization on its tick, as a system agent of the
// configured level, with no user token.
func TestScheduled(t *testing.T) {
	ticks := make(chan time.Time)
	env := apitest.New(t, func(o *server.Options) {
		o.Consolidation.Ticks = ticks
		o.Consolidation.Level = authority.AgentMaster
	})
	seed(t, env, "acme", "support")
	seed(t, env, "globex", "billing")
	ticks <- apitest.Start
	for _, c := range []struct{ org, capability string }{{"acme", "support"}, {"globex", "billing"}} {
		tok := apitest.Token(t, agent(c.org, authority.AgentJunior, c.capability))
		var runs struct{ ConsolidationRuns []run }
		deadline := time.Now().Add(10 * time.Second)
		for {
			env.MustDo(t, tok, runsQ, map[string]any{"c": c.capability}, &runs)
			if len(runs.ConsolidationRuns) > 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if len(runs.ConsolidationRuns) != 1 {
			t.Fatalf("%s/%s: runs %+v, want one scheduled run", c.org, c.capability, runs.ConsolidationRuns)
		}
		r := runs.ConsolidationRuns[0]
		if !r.Scheduled || r.Actor != "system (consolidation)" || r.Mode != "WRITTEN" || len(r.Clusters) != 2 {
			t.Errorf("%s: scheduled run %+v", c.org, r)
		}
		if f := getFact(t, env, tok, r.Clusters[0].FactID); f == nil || f.Level != "STRATEGY" {
			t.Errorf("%s: scheduled candidate %+v, want a STRATEGY", c.org, f)
		}
	}
}

// TestBadInput: errors carry their codes.
func TestBadInput(t *testing.T) {
	env := apitest.New(t)
	senior := apitest.Token(t, agent("acme", authority.AgentSenior, "support"))
	none := apitest.Token(t, apitest.Identity("acme", "agent-x"))
	userID := apitest.Identity("acme", "alice")
	userID.Kind, userID.Capability = authority.KindUser, "support"
	user := apitest.Token(t, userID)
	long := string(make([]byte, 200))
	for _, tc := range []struct {
		name, tok, query string
		vars             map[string]any
		code             string
	}{
		{"empty capability", senior, runQ, map[string]any{"c": " "}, "BAD_USER_INPUT"},
		{"long capability", senior, runQ, map[string]any{"c": long}, "BAD_USER_INPUT"},
		{"other capability", senior, runQ, map[string]any{"c": "billing"}, "FORBIDDEN"},
		{"no capability claim", none, runQ, map[string]any{"c": "support"}, "FORBIDDEN"},
		{"user token", user, runQ, map[string]any{"c": "support"}, "FORBIDDEN"},
		{"no token", "", runQ, map[string]any{"c": "support"}, "UNAUTHENTICATED"},
		{"first 0", senior, runsQ, map[string]any{"c": "support", "n": 0}, "BAD_USER_INPUT"},
		{"first 101", senior, runsQ, map[string]any{"c": "support", "n": 101}, "BAD_USER_INPUT"},
		{"runs of another capability", senior, runsQ, map[string]any{"c": "billing"}, "FORBIDDEN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tc.tok, tc.query, tc.vars)
			if r.Code() != tc.code {
				t.Errorf("got %s, want %s", r, tc.code)
			}
		})
	}
}

// TestUsageSurvivesRestart: the usage a context noted is written when the
// server closes, so after a restart an event a context included is STALE
// (it was used, long ago), not UNUSED.
func TestUsageSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	clock := temporal.NewManual(apitest.Start)
	open := func() *apitest.Env {
		o := server.DefaultOptions(dir)
		o.Store.SyncWrites = false
		o.Verifier = authority.VerifierConfig{Secret: apitest.Secret}
		o.Clock, o.RateLimit, o.LeaseSweepInterval, o.MinFreeDisk = clock, 0, 0, 0
		o.Consolidation.StaleAfter = time.Hour
		srv, err := server.New(o)
		if err != nil {
			t.Fatalf("start server: %v", err)
		}
		hs := httptest.NewServer(srv.Handler())
		return &apitest.Env{URL: hs.URL, Server: srv, Clock: clock, HTTP: hs}
	}
	shut := func(env *apitest.Env) {
		env.HTTP.Close()
		if err := env.Server.Close(); err != nil {
			t.Fatalf("close server: %v", err)
		}
	}
	env := open()
	seed(t, env, "acme", "support")
	tok := apitest.Token(t, agent("acme", authority.AgentSenior, "support"))
	var ctx struct {
		AssembleContext struct{ Included []struct{ ID string } }
	}
	env.MustDo(t, tok, `{ assembleContext(input: {query: "refund password parcel", budget: 4000}) { included { id } } }`, nil, &ctx)
	shut(env)

	clock.Advance(2 * time.Hour)
	env = open()
	defer shut(env)
	r := consolidate(t, env, tok, "support")
	if len(r.Pruned) != len(events) {
		t.Fatalf("pruned %+v, want every event", r.Pruned)
	}
	for _, p := range r.Pruned {
		if p.Reason != "STALE" {
			t.Errorf("prune %+v, want STALE: the context's use was lost in the restart", p)
		}
	}
}
