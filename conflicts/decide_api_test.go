package conflicts_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

const writeFactQ = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`

// writeFact writes in and returns the fact's id.
func writeFact(t *testing.T, env *apitest.Env, tok string, in map[string]any) string {
	t.Helper()
	var out struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, writeFactQ, map[string]any{"in": in}, &out)
	return out.WriteFact.ID
}

// openConflict returns the id of the one conflict over key the token sees.
func openConflict(t *testing.T, env *apitest.Env, tok, key string) string {
	t.Helper()
	var out struct {
		Conflicts struct {
			Edges []struct{ Node struct{ ID, Status string } }
		}
	}
	env.MustDo(t, tok, `query($k: String) { conflicts(filter: {subject: $k}) { edges { node { id status } } } }`, map[string]any{"k": key}, &out)
	if len(out.Conflicts.Edges) != 1 || out.Conflicts.Edges[0].Node.Status != "OPEN" {
		t.Fatalf("conflicts over %s = %+v, want one OPEN", key, out.Conflicts.Edges)
	}
	return out.Conflicts.Edges[0].Node.ID
}

const resolveQ = `mutation($id: ID!, $k: ID!, $r: String!) { resolveConflict(id: $id, keep: $k, reason: $r) { id status decision { id at } } }`

type resolved struct {
	ResolveConflict struct {
		ID, Status string
		Decision   struct {
			ID string
			At time.Time
		}
	}
}

// factState is what the tests read of a fact.
type factState struct {
	ID, Value string
	IsValid   bool
	ValidTo   *time.Time
	RevokedBy *struct{ ID string }
}

const factQ = `query($id: ID!, $asOf: Time, $knownAt: Time) { fact(id: $id, asOf: $asOf, knownAt: $knownAt) { id value isValid validTo revokedBy { id } } }`

func readFact(t *testing.T, env *apitest.Env, tok, id string, asOf, knownAt time.Time) *factState {
	t.Helper()
	var out struct{ Fact *factState }
	env.MustDo(t, tok, factQ, vars(asOf, knownAt, map[string]any{"id": id}), &out)
	return out.Fact
}

// TestDecisionGated: deciding a conflict needs authority at least as high
// as its highest current candidate's, and the policy authority when a
// candidate is a policy; a refusal is FORBIDDEN, names authorities but no
// candidate's value, and changes nothing.
func TestDecisionGated(t *testing.T) {
	env := apitest.New(t)
	ident := func(user, auth string) string {
		id := apitest.Identity("acme", user)
		id.Authority = auth
		return apitest.Token(t, id)
	}
	cfo, vp, mgr, emp, intern := ident("cfo", "CFO"), ident("vp", "executive"), ident("mgr", "manager"), ident("emp", "employee"), ident("intern", "Intern")

	// A CFO policy and an intern's rival: the conflict of TestVector3.
	policy := writeFact(t, env, cfo, map[string]any{"key": "discount.max", "value": "capped at max 15% zebra", "source": map[string]any{"type": "POLICY"}})
	offer := writeFact(t, env, intern, map[string]any{"key": "discount.max", "value": "offer 25% quokka", "memoryType": "ORGANIZATIONAL", "supersedes": "discount.max"})
	high := openConflict(t, env, cfo, "discount.max")
	// A policy attributed to an employee (the manager who wrote it may
	// claim less authority than it holds) and a peer's rival: only the
	// policy authority (manager by default) may decide it.
	low := writeFact(t, env, mgr, map[string]any{"key": "desk.rule", "value": "hot desks only walrus", "source": map[string]any{"type": "POLICY", "authority": "employee"}})
	peer := writeFact(t, env, ident("peer", "peer"), map[string]any{"key": "desk.rule", "value": "fixed desks narwhal", "memoryType": "ORGANIZATIONAL"})
	lowConflict := openConflict(t, env, mgr, "desk.rule")

	for _, tc := range []struct {
		name, tok, conflict, keep string
		code                      string
		mentions                  string
	}{
		{"intern against the CFO's policy", intern, high, offer, "FORBIDDEN", "executive"},
		{"manager against the CFO's policy", mgr, high, offer, "FORBIDDEN", "executive"},
		{"employee against an employee's policy", emp, lowConflict, peer, "FORBIDDEN", "manager"},
		{"keep is not a candidate", vp, high, low, "BAD_USER_INPUT", "not a candidate"},
		{"unknown conflict", vp, "CF-01ARZ3NDEKTSV4RRFFQ69G5FAV", offer, "NOT_FOUND", "no conflict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tc.tok, resolveQ, map[string]any{"id": tc.conflict, "k": tc.keep, "r": "we decided"})
			if r.Code() != tc.code {
				t.Fatalf("code = %q, want %s: %s", r.Code(), tc.code, r)
			}
			msg := r.Errors[0].Message
			if !strings.Contains(msg, tc.mentions) {
				t.Errorf("message %q does not mention %q", msg, tc.mentions)
			}
			for _, secret := range []string{"zebra", "quokka", "walrus", "narwhal", "15%", "25%"} {
				if strings.Contains(msg, secret) {
					t.Errorf("message %q reveals a candidate's value (%s)", msg, secret)
				}
			}
		})
	}
	// Nothing changed: both conflicts open, every candidate valid.
	for _, c := range []string{high, lowConflict} {
		var out struct{ Conflict *conflictOut }
		env.MustDo(t, cfo, conflictQ, map[string]any{"id": c}, &out)
		if out.Conflict == nil || out.Conflict.Status != "OPEN" {
			t.Errorf("conflict %s after refusals = %+v, want OPEN", c, out.Conflict)
		}
	}
	for _, id := range []string{policy, offer, low, peer} {
		if f := readFact(t, env, cfo, id, time.Time{}, time.Time{}); f == nil || !f.IsValid || f.RevokedBy != nil {
			t.Errorf("fact %s after refusals = %+v, want valid", id, f)
		}
	}
	// Those with the authority decide.
	var res resolved
	env.MustDo(t, mgr, resolveQ, map[string]any{"id": lowConflict, "k": peer, "r": "the office has fixed desks"}, &res)
	if res.ResolveConflict.Status != "RESOLVED" {
		t.Errorf("manager's decision = %+v", res.ResolveConflict)
	}
	env.MustDo(t, vp, resolveQ, map[string]any{"id": high, "k": offer, "r": "the board raised the cap"}, &res)
	if res.ResolveConflict.Status != "RESOLVED" {
		t.Errorf("executive's decision = %+v", res.ResolveConflict)
	}
	r := env.Do(t, cfo, resolveQ, map[string]any{"id": high, "k": policy, "r": "again"})
	if r.Code() != "CONFLICT" {
		t.Errorf("deciding a resolved conflict: %s", r)
	}
}

// TestDecisionPolicyMinimum: a conflict with a policy candidate needs the
// configured --policy-min-authority, even when the policy was attributed
// less authority.
func TestDecisionPolicyMinimum(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.Permissions.PolicyMinAuthority = "executive" })
	ident := func(user, auth string) string {
		id := apitest.Identity("acme", user)
		id.Authority = auth
		return apitest.Token(t, id)
	}
	exec, mgr := ident("vp", "executive"), ident("mgr", "manager")
	writeFact(t, env, exec, map[string]any{"key": "travel.class", "value": "economy only", "source": map[string]any{"type": "POLICY", "authority": "manager"}})
	rival := writeFact(t, env, ident("peer", "peer"), map[string]any{"key": "travel.class", "value": "business on long flights", "memoryType": "ORGANIZATIONAL"})
	cid := openConflict(t, env, mgr, "travel.class")
	r := env.Do(t, mgr, resolveQ, map[string]any{"id": cid, "k": rival, "r": "long flights"})
	if r.Code() != "FORBIDDEN" || !strings.Contains(r.Errors[0].Message, "executive") || strings.Contains(r.Errors[0].Message, "economy") {
		t.Fatalf("a manager deciding against a policy with the minimum at executive: %s", r)
	}
	var res resolved
	env.MustDo(t, exec, resolveQ, map[string]any{"id": cid, "k": rival, "r": "long flights"}, &res)
	if res.ResolveConflict.Status != "RESOLVED" {
		t.Errorf("the executive's decision = %+v", res.ResolveConflict)
	}
}

// TestDecisionApplied: a decision retires every revoked fact candidate
// (its valid time ends at the decision's time; revokedBy names the
// decision) and never duplicates the kept one, which stays the one current
// record with its restriction; everything reads as of a time like facts.
func TestDecisionApplied(t *testing.T) {
	env := apitest.New(t)
	execID := apitest.Identity("acme", "cfo")
	execID.Authority = "CFO"
	peerID := apitest.Identity("acme", "peer")
	peerID.Authority = "peer"
	exec, peerTok := apitest.Token(t, execID), apitest.Token(t, peerID)
	restricted := map[string]any{"minAuthority": "executive"}

	t0 := env.Clock.Now()
	a := writeFact(t, env, exec, map[string]any{"key": "launch.date", "value": "March 3 zebra", "memoryType": "ORGANIZATIONAL", "restrictedTo": restricted})
	env.Clock.Advance(time.Minute)
	b := writeFact(t, env, exec, map[string]any{"key": "launch.date", "value": "March 17 quokka", "memoryType": "ORGANIZATIONAL", "restrictedTo": restricted})
	env.Clock.Advance(time.Minute)
	c := writeFact(t, env, exec, map[string]any{"key": "launch.date", "value": "April 2 walrus", "memoryType": "ORGANIZATIONAL", "restrictedTo": restricted})
	cid := openConflict(t, env, exec, "launch.date")
	env.Clock.Advance(time.Minute)
	var res resolved
	env.MustDo(t, exec, resolveQ, map[string]any{"id": cid, "k": b, "r": "the board moved it to March 17"}, &res)
	td, did := res.ResolveConflict.Decision.At, res.ResolveConflict.Decision.ID
	if !td.Equal(env.Clock.Now()) || did == "" {
		t.Fatalf("decision = %+v, want one made now", res.ResolveConflict.Decision)
	}
	env.Clock.Advance(time.Hour)
	ns := time.Nanosecond

	t.Run("kept once, with its restriction", func(t *testing.T) {
		var out struct {
			CurrentValue *struct{ ID, Value string }
			Facts        struct {
				Edges []struct{ Node struct{ ID, Value string } }
			}
		}
		const q = `{ currentValue(key: "launch.date") { id value } facts(filter: {key: "launch.date"}) { edges { node { id value } } } }`
		env.MustDo(t, exec, q, nil, &out)
		if out.CurrentValue == nil || out.CurrentValue.ID != b {
			t.Errorf("current value = %+v, want the kept fact %s itself", out.CurrentValue, b)
		}
		if len(out.Facts.Edges) != 1 || out.Facts.Edges[0].Node.ID != b {
			t.Errorf("valid facts = %+v, want only %s", out.Facts.Edges, b)
		}
		var all struct {
			Facts struct {
				Edges []struct{ Node struct{ Value string } }
			}
		}
		env.MustDo(t, exec, `{ facts(filter: {key: "launch.date", validity: ALL}) { edges { node { value } } } }`, nil, &all)
		kept := 0
		for _, e := range all.Facts.Edges {
			if strings.Contains(e.Node.Value, "quokka") {
				kept++
			}
		}
		if len(all.Facts.Edges) != 3 || kept != 1 {
			t.Errorf("all facts = %+v, want the three candidates, the kept value once", all.Facts.Edges)
		}
		resp := env.Do(t, peerTok, q, nil)
		for _, secret := range []string{"zebra", "quokka", "walrus"} {
			if strings.Contains(string(resp.Raw), secret) {
				t.Errorf("the peer reads %s after the decision: %s", secret, resp.Raw)
			}
		}
	})

	t.Run("revoked facts as of a time", func(t *testing.T) {
		for _, tc := range []struct {
			name          string
			id            string
			asOf, knownAt time.Time
			valid         bool
			revoked       bool
		}{
			{"revoked, now", a, time.Time{}, time.Time{}, false, true},
			{"revoked, the other", c, time.Time{}, time.Time{}, false, true},
			{"revoked, as of before the decision", a, td.Add(-ns), time.Time{}, true, false},
			{"revoked, known before the decision", a, time.Time{}, td.Add(-ns), true, false},
			{"revoked, as of the decision", a, td, time.Time{}, false, true},
			{"revoked, known at the decision", c, time.Time{}, td, false, true},
			{"kept, now", b, time.Time{}, time.Time{}, true, false},
			{"kept, as of before the decision", b, td.Add(-ns), time.Time{}, true, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				f := readFact(t, env, exec, tc.id, tc.asOf, tc.knownAt)
				if f == nil {
					t.Fatal("fact = null")
				}
				if f.IsValid != tc.valid || (f.RevokedBy != nil) != tc.revoked {
					t.Fatalf("fact = %+v, want valid %v, revoked %v", f, tc.valid, tc.revoked)
				}
				if tc.revoked && (f.RevokedBy.ID != did || f.ValidTo == nil || !f.ValidTo.Equal(td)) {
					t.Errorf("fact = %+v, want validTo %v and revokedBy %s", f, td, did)
				}
			})
		}
		var cur struct{ CurrentValue *struct{ ID string } }
		env.MustDo(t, exec, `query($asOf: Time) { currentValue(key: "launch.date", asOf: $asOf) { id } }`, vars(t0.Add(30*time.Second), time.Time{}, nil), &cur)
		if cur.CurrentValue == nil || cur.CurrentValue.ID != a {
			t.Errorf("current value before the rivals = %+v, want %s", cur.CurrentValue, a)
		}
	})

	t.Run("conflict and decision as of a time", func(t *testing.T) {
		const q = `query($id: ID!, $d: ID!, $asOf: Time, $knownAt: Time) {
			conflict(id: $id, asOf: $asOf, knownAt: $knownAt) { status candidates { ... on Fact { id isValid } } }
			decision(id: $d, asOf: $asOf, knownAt: $knownAt) { kept { ... on Fact { id isValid } } revoked { ... on Fact { id isValid revokedBy { id } } } }
		}`
		type cand struct {
			ID        string
			IsValid   bool
			RevokedBy *struct{ ID string }
		}
		for _, tc := range []struct {
			name          string
			asOf, knownAt time.Time
			status        string
			decided       bool
		}{
			{"known before the decision", time.Time{}, td.Add(-ns), "OPEN", false},
			{"as of before the decision", td.Add(-ns), time.Time{}, "OPEN", false},
			{"known at the decision", time.Time{}, td, "RESOLVED", true},
			{"now", time.Time{}, time.Time{}, "RESOLVED", true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var out struct {
					Conflict *struct {
						Status     string
						Candidates []cand
					}
					Decision *struct {
						Kept    *cand
						Revoked []cand
					}
				}
				env.MustDo(t, exec, q, vars(tc.asOf, tc.knownAt, map[string]any{"id": cid, "d": did}), &out)
				if out.Conflict == nil || out.Conflict.Status != tc.status || len(out.Conflict.Candidates) != 3 {
					t.Fatalf("conflict = %+v, want %s over 3 facts", out.Conflict, tc.status)
				}
				for _, cd := range out.Conflict.Candidates {
					if want := !tc.decided || cd.ID == b; cd.IsValid != want {
						t.Errorf("candidate %s valid = %v, want %v", cd.ID, cd.IsValid, want)
					}
				}
				if (out.Decision != nil) != tc.decided {
					t.Fatalf("decision = %+v, want present %v", out.Decision, tc.decided)
				}
				if !tc.decided {
					return
				}
				if out.Decision.Kept == nil || out.Decision.Kept.ID != b || !out.Decision.Kept.IsValid || len(out.Decision.Revoked) != 2 {
					t.Fatalf("decision = %+v, want %s kept and two revoked", out.Decision, b)
				}
				for _, rv := range out.Decision.Revoked {
					if rv.IsValid || rv.RevokedBy == nil || rv.RevokedBy.ID != did {
						t.Errorf("revoked candidate = %+v, want invalid and revoked by %s", rv, did)
					}
				}
			})
		}
	})

	t.Run("audit trail", func(t *testing.T) {
		var out struct{ AuditTrail []struct{ Action, By string } }
		env.MustDo(t, exec, `query($id: ID!) { auditTrail(recordId: $id) { action by } }`, map[string]any{"id": a}, &out)
		last := out.AuditTrail[len(out.AuditTrail)-1]
		if last.Action != "REVOKED" || last.By != did {
			t.Errorf("trail of a revoked fact = %+v, want REVOKED by %s last", out.AuditTrail, did)
		}
	})
}
