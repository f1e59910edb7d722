package assertions_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

const assertMut = `mutation($in: StateAssertionInput!) { assertState(input: $in) {
  id status subject predicate object context hypothesisGroup createdAt endedAt
  validity { mode expiresAt untilEvent }
  revokedBy { id } conflicts { id status }
} }`

const getQ = `query($id: ID!, $asOf: Time, $knownAt: Time) { stateAssertion(id: $id, asOf: $asOf, knownAt: $knownAt) {
  id status endedAt
  revokedBy { id }
  decision { id reason policy }
  promotedTo { id key value promotedFrom { id } }
  history { id status }
  subjectEntity { id }
  objectEntity { id }
  conflicts { id status }
} }`

type assertion struct {
	ID              string               `json:"id"`
	Status          string               `json:"status"`
	Subject         string               `json:"subject"`
	Object          json.RawMessage      `json:"object"`
	HypothesisGroup *string              `json:"hypothesisGroup"`
	EndedAt         *time.Time           `json:"endedAt"`
	RevokedBy       *struct{ ID string } `json:"revokedBy"`
	Decision        *struct {
		ID, Reason string
		Policy     *string
	} `json:"decision"`
	PromotedTo *struct {
		ID, Key      string
		Value        json.RawMessage
		PromotedFrom *struct{ ID string }
	} `json:"promotedTo"`
	History       []struct{ ID, Status string } `json:"history"`
	SubjectEntity *struct{ ID string }          `json:"subjectEntity"`
	ObjectEntity  *struct{ ID string }          `json:"objectEntity"`
	Conflicts     []struct{ ID, Status string } `json:"conflicts"`
}

// input returns a valid assertion input; fields override its fields (a
// nil value deletes one).
func input(fields map[string]any) map[string]any {
	in := map[string]any{
		"subject":         "Entity#42",
		"predicate":       "location",
		"object":          "Room#7",
		"context":         "thread-1",
		"epistemicStatus": "INFERENCE",
		"validity":        map[string]any{"mode": "UNTIL_CHANGED"},
		"provenance":      map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
	}
	for k, v := range fields {
		if v == nil {
			delete(in, k)
		} else {
			in[k] = v
		}
	}
	return in
}

func assertState(t *testing.T, env *apitest.Env, tok string, in map[string]any) assertion {
	t.Helper()
	var out struct{ AssertState assertion }
	env.MustDo(t, tok, assertMut, map[string]any{"in": in}, &out)
	return out.AssertState
}

func get(t *testing.T, env *apitest.Env, tok, id string, vars map[string]any) *assertion {
	t.Helper()
	if vars == nil {
		vars = map[string]any{}
	}
	vars["id"] = id
	var out struct{ StateAssertion *assertion }
	env.MustDo(t, tok, getQ, vars, &out)
	return out.StateAssertion
}

func count(t *testing.T, env *apitest.Env, tok string) int {
	t.Helper()
	var out struct {
		StateAssertions struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, tok, `{ stateAssertions(first: 500) { edges { node { id } } } }`, nil, &out)
	return len(out.StateAssertions.Edges)
}

func alice(t *testing.T) string { return apitest.Token(t, apitest.Identity("org-a", "alice")) }

func TestAdmissionRules(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	in30d := apitest.Start.Add(31 * 24 * time.Hour).Format(time.RFC3339)
	past := apitest.Start.Add(-time.Hour).Format(time.RFC3339)
	soon := apitest.Start.Add(time.Hour).Format(time.RFC3339)
	cases := []struct {
		name, rule string
		in         map[string]any
	}{
		{"missing subject", "required-fields", input(map[string]any{"subject": nil})},
		{"blank subject", "required-fields", input(map[string]any{"subject": "  "})},
		{"missing predicate", "required-fields", input(map[string]any{"predicate": nil})},
		{"missing object", "required-fields", input(map[string]any{"object": nil})},
		{"missing context", "required-fields", input(map[string]any{"context": nil})},
		{"missing epistemic status", "required-fields", input(map[string]any{"epistemicStatus": nil})},
		{"missing validity", "required-fields", input(map[string]any{"validity": nil})},
		{"missing validity mode", "required-fields", input(map[string]any{"validity": map[string]any{}})},
		{"missing provenance", "required-fields", input(map[string]any{"provenance": nil})},
		{"until time without expiresAt", "lease-permanence", input(map[string]any{"validity": map[string]any{"mode": "UNTIL_TIME"}})},
		{"expiresAt beyond max lease", "lease-permanence", input(map[string]any{"validity": map[string]any{"mode": "UNTIL_TIME", "expiresAt": in30d}})},
		{"expiresAt in the past", "lease-permanence", input(map[string]any{"validity": map[string]any{"mode": "UNTIL_TIME", "expiresAt": past}})},
		{"until event without event", "lease-permanence", input(map[string]any{"validity": map[string]any{"mode": "UNTIL_EVENT"}})},
		{"expiresAt with until changed", "lease-permanence", input(map[string]any{"validity": map[string]any{"mode": "UNTIL_CHANGED", "expiresAt": soon}})},
		{"observed perception without refs", "perception-refs", input(map[string]any{"epistemicStatus": "PERCEPTION",
			"provenance": map[string]any{"method": "observed"}})},
		{"confidence out of range", "well-formed", input(map[string]any{"provenance": map[string]any{"confidence": 1.5}})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tok, assertMut, map[string]any{"in": tc.in})
			if r.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code = %q, want BAD_USER_INPUT: %s", r.Code(), r)
			}
			if msg := r.Errors[0].Message; !strings.Contains(msg, "admission rule "+tc.rule) {
				t.Errorf("message %q does not name rule %s", msg, tc.rule)
			}
		})
	}
	t.Run("mode meaning forever", func(t *testing.T) {
		r := env.Do(t, tok, assertMut, map[string]any{"in": input(map[string]any{"validity": map[string]any{"mode": "FOREVER"}})})
		if r.Code() != "BAD_USER_INPUT" {
			t.Fatalf("code = %q, want BAD_USER_INPUT: %s", r.Code(), r)
		}
	})
	if n := count(t, env, tok); n != 0 {
		t.Fatalf("%d assertions stored by rejected writes, want 0", n)
	}
	t.Run("admitted", func(t *testing.T) {
		a := assertState(t, env, tok, input(map[string]any{"epistemicStatus": "PERCEPTION",
			"provenance": map[string]any{"method": "observed"},
			"refs":       []any{map[string]any{"kind": "camera", "locator": "cam-3"}}}))
		if !strings.HasPrefix(a.ID, "ST-") || len(a.ID) != 29 || a.Status != "ACTIVE" {
			t.Errorf("got id %q status %q, want ST-<ULID> ACTIVE", a.ID, a.Status)
		}
	})
}

func TestVolatilePredicates(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.VolatilePredicates = []string{"location", "current_*"} })
	tok := alice(t)
	const write = `mutation($k: String!) { writeFact(input: {key: $k, value: "x"}) { id } }`
	for _, tc := range []struct {
		key  string
		code string
	}{
		{"location", "BAD_USER_INPUT"},
		{"Entity#42.location", "BAD_USER_INPUT"},
		{"user.current_task", "BAD_USER_INPUT"},
		{"user.status", ""}, // not configured here
		{"user.name", ""},
	} {
		t.Run(tc.key, func(t *testing.T) {
			r := env.Do(t, tok, write, map[string]any{"k": tc.key})
			if r.Code() != tc.code {
				t.Fatalf("code = %q, want %q: %s", r.Code(), tc.code, r)
			}
			if tc.code != "" && !strings.Contains(r.Errors[0].Message, "assertState") {
				t.Errorf("message %q does not point to assertState", r.Errors[0].Message)
			}
		})
	}
	var facts struct {
		Facts struct {
			Edges []struct{ Node struct{ Key string } }
		}
	}
	env.MustDo(t, tok, `{ facts { edges { node { key } } } }`, nil, &facts)
	if len(facts.Facts.Edges) != 2 {
		t.Errorf("%d facts stored, want 2 (the rejected writes stored nothing)", len(facts.Facts.Edges))
	}
}

func TestUntilChangedRevokes(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	first := assertState(t, env, tok, input(nil))
	env.Clock.Advance(time.Minute)
	second := assertState(t, env, tok, input(map[string]any{"object": "Room#8"}))
	if second.Status != "ACTIVE" || len(second.Conflicts) != 0 {
		t.Fatalf("second = %+v, want ACTIVE without conflicts", second)
	}
	got := get(t, env, tok, first.ID, nil)
	if got.Status != "REVOKED" || got.RevokedBy == nil || got.RevokedBy.ID != second.ID {
		t.Fatalf("first = %+v, want REVOKED by %s", got, second.ID)
	}
	if len(got.History) != 2 || got.History[0].ID != first.ID || got.History[1].ID != second.ID {
		t.Errorf("history = %+v, want [first second]", got.History)
	}
	var trail struct {
		AuditTrail []struct{ Action, Actor, By string }
	}
	env.MustDo(t, tok, `query($id: ID!) { auditTrail(recordId: $id) { action actor by } }`, map[string]any{"id": first.ID}, &trail)
	if len(trail.AuditTrail) != 1 || trail.AuditTrail[0].Action != "REVOKED" || trail.AuditTrail[0].By != second.ID || trail.AuditTrail[0].Actor == "" {
		t.Errorf("audit = %+v, want one REVOKED entry by %s with an actor", trail.AuditTrail, second.ID)
	}
	// A different context is a different slot.
	other := assertState(t, env, tok, input(map[string]any{"context": "thread-2"}))
	if g := get(t, env, tok, second.ID, nil); g.Status != "ACTIVE" || other.Status != "ACTIVE" {
		t.Errorf("assertions of different contexts interfered: %s %s", g.Status, other.Status)
	}
}

func TestUntilTimeExpires(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	exp := apitest.Start.Add(2 * time.Hour)
	a := assertState(t, env, tok, input(map[string]any{"validity": map[string]any{"mode": "UNTIL_TIME", "expiresAt": exp.Format(time.RFC3339)}}))
	env.Clock.Advance(2*time.Hour - time.Second)
	if g := get(t, env, tok, a.ID, nil); g.Status != "ACTIVE" {
		t.Fatalf("before expiry status = %s, want ACTIVE", g.Status)
	}
	if n, err := env.Server.SweepLeases(context.Background()); err != nil || n != 0 {
		t.Fatalf("sweep before expiry = %d, %v; want 0", n, err)
	}
	env.Clock.Advance(time.Second)
	g := get(t, env, tok, a.ID, nil)
	if g.Status != "EXPIRED" || g.EndedAt == nil || !g.EndedAt.Equal(exp) {
		t.Fatalf("at expiry = %+v, want EXPIRED ended at %s (read time, before any sweep)", g, exp)
	}
	// Expired assertions are not current: a new one in the slot is no conflict.
	b := assertState(t, env, tok, input(map[string]any{"object": "Room#9"}))
	if len(b.Conflicts) != 0 {
		t.Errorf("an expired assertion entered a conflict: %+v", b.Conflicts)
	}
	if n, err := env.Server.SweepLeases(context.Background()); err != nil || n != 1 {
		t.Fatalf("sweep = %d, %v; want 1", n, err)
	}
	if n, _ := env.Server.SweepLeases(context.Background()); n != 0 {
		t.Errorf("second sweep expired %d, want 0", n)
	}
	var trail struct {
		AuditTrail []struct{ Action, Actor string }
	}
	env.MustDo(t, tok, `query($id: ID!) { auditTrail(recordId: $id) { action actor } }`, map[string]any{"id": a.ID}, &trail)
	if len(trail.AuditTrail) != 1 || trail.AuditTrail[0].Action != "EXPIRED" {
		t.Errorf("audit = %+v, want one EXPIRED entry", trail.AuditTrail)
	}
	// As of before the expiry it was active.
	if g := get(t, env, tok, a.ID, map[string]any{"asOf": apitest.Start.Add(time.Hour)}); g.Status != "ACTIVE" {
		t.Errorf("as of before expiry status = %s, want ACTIVE", g.Status)
	}
	var list struct {
		StateAssertions struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, tok, `{ stateAssertions(filter: {status: ACTIVE}) { edges { node { id } } } }`, nil, &list)
	if len(list.StateAssertions.Edges) != 1 || list.StateAssertions.Edges[0].Node.ID != b.ID {
		t.Errorf("active = %+v, want only %s", list.StateAssertions.Edges, b.ID)
	}
}

func TestUntilEventSignal(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	ev := func(ctx, pred string) assertion {
		return assertState(t, env, tok, input(map[string]any{"context": ctx, "predicate": pred,
			"validity": map[string]any{"mode": "UNTIL_EVENT", "untilEvent": "meeting_over"}}))
	}
	a1, a2, a3 := ev("t1", "availability"), ev("t2", "availability"), ev("t1", "mood")
	const signal = `mutation($n: String!, $c: String) { signalEvent(name: $n, context: $c) { id status } }`
	var out struct{ SignalEvent []struct{ ID, Status string } }
	env.MustDo(t, tok, signal, map[string]any{"n": "other_event"}, &out)
	if len(out.SignalEvent) != 0 {
		t.Fatalf("unrelated event expired %+v", out.SignalEvent)
	}
	env.MustDo(t, tok, signal, map[string]any{"n": "meeting_over", "c": "t1"}, &out)
	if len(out.SignalEvent) != 2 {
		t.Fatalf("signal in t1 expired %+v, want 2", out.SignalEvent)
	}
	for _, id := range []string{a1.ID, a3.ID} {
		if g := get(t, env, tok, id, nil); g.Status != "EXPIRED" {
			t.Errorf("%s status = %s, want EXPIRED", id, g.Status)
		}
	}
	if g := get(t, env, tok, a2.ID, nil); g.Status != "ACTIVE" {
		t.Errorf("other context expired: %s", g.Status)
	}
	env.MustDo(t, tok, signal, map[string]any{"n": "meeting_over"}, &out)
	if len(out.SignalEvent) != 1 || out.SignalEvent[0].ID != a2.ID || out.SignalEvent[0].Status != "EXPIRED" {
		t.Errorf("signal in all contexts = %+v, want only %s", out.SignalEvent, a2.ID)
	}
}

const conflictQ = `query($id: ID!) { conflict(id: $id) {
  id status subject predicate context openedAt lastSeenAt resolvedAt
  candidates { __typename ... on StateAssertion { id status } ... on Fact { id value isValid } }
  decision { id reason actor policy kept { ... on StateAssertion { id } ... on Fact { id } } revoked { ... on StateAssertion { id } ... on Fact { id } } }
} }`

type candidate struct {
	Typename string `json:"__typename"`
	ID       string
	Status   string
	Value    json.RawMessage
	IsValid  bool
}

type conflict struct {
	ID, Status, Subject, Predicate string
	Context                        *string
	OpenedAt, LastSeenAt           time.Time
	ResolvedAt                     *time.Time
	Candidates                     []candidate
	Decision                       *struct {
		ID, Reason, Actor string
		Policy            *string
		Kept              *struct{ ID string }
		Revoked           []struct{ ID string }
	}
}

func getConflict(t *testing.T, env *apitest.Env, tok, id string) *conflict {
	t.Helper()
	var out struct{ Conflict *conflict }
	env.MustDo(t, tok, conflictQ, map[string]any{"id": id}, &out)
	return out.Conflict
}

func timed(h time.Duration, extra map[string]any) map[string]any {
	f := map[string]any{"validity": map[string]any{"mode": "UNTIL_TIME", "expiresAt": apitest.Start.Add(h).Format(time.RFC3339)}}
	for k, v := range extra {
		f[k] = v
	}
	return input(f)
}

func TestConflictsAndResolution(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	a := assertState(t, env, tok, timed(5*time.Hour, nil))
	// Same hypothesis group: competing hypotheses coexist.
	h1 := assertState(t, env, tok, timed(5*time.Hour, map[string]any{"predicate": "intent", "hypothesisGroup": "g"}))
	h2 := assertState(t, env, tok, timed(5*time.Hour, map[string]any{"predicate": "intent", "hypothesisGroup": "g", "object": "leave"}))
	if len(h2.Conflicts) != 0 || get(t, env, tok, h1.ID, nil).Status != "ACTIVE" {
		t.Fatalf("hypotheses of one group conflicted: %+v", h2.Conflicts)
	}
	env.Clock.Advance(time.Minute)
	b := assertState(t, env, tok, timed(5*time.Hour, map[string]any{"object": "Room#8"}))
	if len(b.Conflicts) != 1 || b.Conflicts[0].Status != "OPEN" {
		t.Fatalf("b conflicts = %+v, want one OPEN", b.Conflicts)
	}
	cid := b.Conflicts[0].ID
	if !strings.HasPrefix(cid, "CF-") {
		t.Errorf("conflict id %q, want CF-<ULID>", cid)
	}
	env.Clock.Advance(time.Minute)
	c := assertState(t, env, tok, timed(5*time.Hour, map[string]any{"object": "Room#9", "hypothesisGroup": "other"}))
	if len(c.Conflicts) != 1 || c.Conflicts[0].ID != cid {
		t.Fatalf("third rival conflicts = %+v, want to join %s", c.Conflicts, cid)
	}
	got := getConflict(t, env, tok, cid)
	if got.Status != "OPEN" || len(got.Candidates) != 3 || got.Subject != "Entity#42" || got.Predicate != "location" ||
		got.Context == nil || *got.Context != "thread-1" || !got.LastSeenAt.After(got.OpenedAt) {
		t.Fatalf("conflict = %+v", got)
	}
	var list struct {
		Conflicts struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, tok, `{ conflicts(filter: {status: OPEN, subject: "Entity#42"}) { edges { node { id } } } }`, nil, &list)
	if len(list.Conflicts.Edges) != 1 {
		t.Errorf("open conflicts = %+v, want 1", list.Conflicts.Edges)
	}

	const resolve = `mutation($id: ID!, $keep: ID!, $r: String!) { resolveConflict(id: $id, keep: $keep, reason: $r) { id status } }`
	for _, tc := range []struct {
		name, id, keep, reason, code string
	}{
		{"no reason", cid, b.ID, " ", "BAD_USER_INPUT"},
		{"keep not a candidate", cid, h1.ID, "r", "BAD_USER_INPUT"},
		{"unknown conflict", "CF-01ARZ3NDEKTSV4RRFFQ69G5FAV", b.ID, "r", "NOT_FOUND"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tok, resolve, map[string]any{"id": tc.id, "keep": tc.keep, "r": tc.reason})
			if r.Code() != tc.code {
				t.Fatalf("code = %q, want %s: %s", r.Code(), tc.code, r)
			}
		})
	}
	if g := getConflict(t, env, tok, cid); g.Status != "OPEN" {
		t.Fatalf("a rejected resolution changed the conflict: %s", g.Status)
	}
	// An expired candidate cannot be kept.
	t.Run("expired candidate", func(t *testing.T) {
		env2 := apitest.New(t)
		x := assertState(t, env2, tok, timed(time.Hour, nil))
		y := assertState(t, env2, tok, timed(3*time.Hour, map[string]any{"object": "Room#8"}))
		env2.Clock.Advance(2 * time.Hour)
		r := env2.Do(t, tok, resolve, map[string]any{"id": y.Conflicts[0].ID, "keep": x.ID, "r": "x"})
		if r.Code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "EXPIRED") {
			t.Fatalf("keeping an expired candidate: %s", r)
		}
	})

	var res struct{ ResolveConflict struct{ ID, Status string } }
	env.MustDo(t, tok, resolve, map[string]any{"id": cid, "keep": b.ID, "r": "the badge reader saw Room#8"}, &res)
	if res.ResolveConflict.Status != "RESOLVED" {
		t.Fatalf("resolve = %+v", res)
	}
	got = getConflict(t, env, tok, cid)
	if got.ResolvedAt == nil || got.Decision == nil || got.Decision.Kept == nil || got.Decision.Kept.ID != b.ID ||
		len(got.Decision.Revoked) != 2 || got.Decision.Reason != "the badge reader saw Room#8" || got.Decision.Actor == "" || got.Decision.Policy != nil {
		t.Fatalf("resolved conflict = %+v decision %+v", got, got.Decision)
	}
	if !strings.HasPrefix(got.Decision.ID, "DC-") {
		t.Errorf("decision id %q, want DC-<ULID>", got.Decision.ID)
	}
	for _, id := range []string{a.ID, c.ID} {
		g := get(t, env, tok, id, nil)
		if g.Status != "REVOKED" || g.Decision == nil || g.Decision.ID != got.Decision.ID {
			t.Errorf("%s = %+v, want REVOKED by the decision", id, g)
		}
	}
	if g := get(t, env, tok, b.ID, nil); g.Status != "ACTIVE" {
		t.Errorf("kept candidate status = %s", g.Status)
	}
	r := env.Do(t, tok, resolve, map[string]any{"id": cid, "keep": b.ID, "r": "again"})
	if r.Code() != "CONFLICT" {
		t.Errorf("resolving twice: code %q, want CONFLICT", r.Code())
	}
}

func TestConflictPolicies(t *testing.T) {
	cases := []struct {
		policy string
		// the second write; the first is by a manager with confidence 0.5
		second    map[string]any
		tok       func(t *testing.T) string
		wantFirst bool
	}{
		{"latest", nil, alice, false},
		{"highest_confidence", map[string]any{"provenance": map[string]any{"confidence": 0.2}}, alice, true},
		{"highest_confidence", map[string]any{"provenance": map[string]any{"confidence": 0.9}}, alice, false},
		{"highest_authority", nil, func(t *testing.T) string {
			id := apitest.Identity("org-a", "guest")
			id.Authority = "guest"
			return apitest.Token(t, id)
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.policy, func(t *testing.T) {
			env := apitest.New(t, func(o *server.Options) { o.ConflictPolicies = []string{"location=" + tc.policy} })
			tok := alice(t)
			first := assertState(t, env, tok, timed(time.Hour, nil))
			env.Clock.Advance(time.Minute)
			extra := map[string]any{"object": "Room#8"}
			for k, v := range tc.second {
				extra[k] = v
			}
			second := assertState(t, env, tc.tok(t), timed(time.Hour, extra))
			keep, lose := second.ID, first.ID
			if tc.wantFirst {
				keep, lose = first.ID, second.ID
			}
			if g := get(t, env, tok, keep, nil); g.Status != "ACTIVE" {
				t.Errorf("kept %s status = %s", keep, g.Status)
			}
			g := get(t, env, tok, lose, nil)
			if g.Status != "REVOKED" || g.Decision == nil || g.Decision.Policy == nil || *g.Decision.Policy != tc.policy {
				t.Fatalf("loser = %+v, want REVOKED by policy %s", g, tc.policy)
			}
			if len(g.Conflicts) != 1 || g.Conflicts[0].Status != "RESOLVED" {
				t.Errorf("policy decision left conflicts %+v, want one RESOLVED", g.Conflicts)
			}
		})
	}
}

func TestPromotion(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	a := assertState(t, env, tok, input(map[string]any{"predicate": "preferred_language", "object": "fr"}))
	const promote = `mutation($id: ID!, $d: DecisionInput!) { promoteState(id: $id, decision: $d) { id key value promotedFrom { id status } } }`
	r := env.Do(t, tok, promote, map[string]any{"id": a.ID, "d": map[string]any{"reason": ""}})
	if r.Code() != "BAD_USER_INPUT" {
		t.Fatalf("promotion without reason: %s", r)
	}
	r = env.Do(t, tok, promote, map[string]any{"id": "ST-01ARZ3NDEKTSV4RRFFQ69G5FAV", "d": map[string]any{"reason": "x"}})
	if r.Code() != "NOT_FOUND" {
		t.Fatalf("promoting an unknown id: %s", r)
	}
	var out struct {
		PromoteState struct {
			ID, Key      string
			Value        json.RawMessage
			PromotedFrom struct{ ID, Status string }
		}
	}
	env.MustDo(t, tok, promote, map[string]any{"id": a.ID, "d": map[string]any{"reason": "confirmed twice"}}, &out)
	f := out.PromoteState
	if f.Key != "Entity#42.preferred_language" || string(f.Value) != `"fr"` || f.PromotedFrom.ID != a.ID || f.PromotedFrom.Status != "PROMOTED" {
		t.Fatalf("fact = %+v", f)
	}
	g := get(t, env, tok, a.ID, nil)
	if g.Status != "PROMOTED" || g.PromotedTo == nil || g.PromotedTo.ID != f.ID || g.Decision == nil || g.Decision.Reason != "confirmed twice" {
		t.Fatalf("assertion = %+v", g)
	}
	r = env.Do(t, tok, promote, map[string]any{"id": a.ID, "d": map[string]any{"reason": "again"}})
	if r.Code() != "BAD_USER_INPUT" {
		t.Fatalf("promoting twice: %s", r)
	}
	// A volatile predicate may still be promoted by an explicit decision.
	loc := assertState(t, env, tok, input(nil))
	env.MustDo(t, tok, promote, map[string]any{"id": loc.ID, "d": map[string]any{"reason": "permanent office"}}, &out)
	if out.PromoteState.Key != "Entity#42.location" {
		t.Errorf("promoted volatile key = %q", out.PromoteState.Key)
	}
}

func TestAsOfReads(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	t0 := apitest.Start
	a := assertState(t, env, tok, input(nil))
	env.Clock.Advance(time.Hour)
	b := assertState(t, env, tok, input(map[string]any{"object": "Room#8"}))
	t1 := t0.Add(30 * time.Minute)
	cases := []struct {
		name     string
		vars     map[string]any
		id, want string
	}{
		{"now", nil, a.ID, "REVOKED"},
		{"asOf before the change", map[string]any{"asOf": t1}, a.ID, "ACTIVE"},
		{"knownAt before the change", map[string]any{"knownAt": t1}, a.ID, "ACTIVE"},
		{"asOf before it existed", map[string]any{"asOf": t0.Add(-time.Minute)}, a.ID, ""},
		{"knownAt before b", map[string]any{"knownAt": t1}, b.ID, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := get(t, env, tok, tc.id, tc.vars)
			switch {
			case tc.want == "" && g != nil:
				t.Fatalf("got %+v, want null", g)
			case tc.want != "" && (g == nil || g.Status != tc.want):
				t.Fatalf("got %+v, want %s", g, tc.want)
			}
		})
	}
	var list struct {
		StateAssertions struct {
			Edges []struct{ Node struct{ ID, Status string } }
		}
	}
	env.MustDo(t, tok, `query($k: Time) { stateAssertions(knownAt: $k, filter: {status: ACTIVE}) { edges { node { id status } } } }`, map[string]any{"k": t1}, &list)
	if len(list.StateAssertions.Edges) != 1 || list.StateAssertions.Edges[0].Node.ID != a.ID {
		t.Errorf("active known at t1 = %+v, want only %s", list.StateAssertions.Edges, a.ID)
	}
}

func TestFactConflicts(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	const write = `mutation($k: String!, $v: JSON!) { writeFact(input: {key: $k, value: $v, memoryType: ORGANIZATIONAL}) { id } }`
	var f1, f2, f3 struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, write, map[string]any{"k": "Entity#42.office", "v": "Paris"}, &f1)
	env.MustDo(t, tok, write, map[string]any{"k": "Entity#42.office", "v": "Paris"}, &f3) // same value: no conflict
	env.Clock.Advance(time.Minute)
	env.MustDo(t, tok, write, map[string]any{"k": "Entity#42.office", "v": "Lyon"}, &f2)
	var list struct {
		Conflicts struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, tok, `{ conflicts(filter: {subject: "Entity#42.office"}) { edges { node { id } } } }`, nil, &list)
	if len(list.Conflicts.Edges) != 1 {
		t.Fatalf("fact conflicts = %+v, want 1", list.Conflicts.Edges)
	}
	cid := list.Conflicts.Edges[0].Node.ID
	c := getConflict(t, env, tok, cid)
	if c.Status != "OPEN" || c.Predicate != "value" || c.Context != nil || len(c.Candidates) != 3 || c.Candidates[0].Typename != "Fact" {
		t.Fatalf("conflict = %+v, want OPEN over 3 facts", c)
	}
	var res struct{ ResolveConflict struct{ Status string } }
	env.MustDo(t, tok, `mutation($id: ID!, $k: ID!) { resolveConflict(id: $id, keep: $k, reason: "moved") { status } }`,
		map[string]any{"id": cid, "k": f2.WriteFact.ID}, &res)
	var cur struct {
		CurrentValue struct {
			ID    string
			Value json.RawMessage
		}
		FactHistory []struct {
			ID      string
			IsValid bool
			Value   json.RawMessage
		}
	}
	env.MustDo(t, tok, `{ currentValue(key: "Entity#42.office") { id value } factHistory(key: "Entity#42.office") { id isValid value } }`, nil, &cur)
	if string(cur.CurrentValue.Value) != `"Lyon"` {
		t.Errorf("current value after resolution = %s, want Lyon", cur.CurrentValue.Value)
	}
	for _, h := range cur.FactHistory {
		if h.IsValid && string(h.Value) != `"Lyon"` {
			t.Errorf("a losing fact is still valid: %+v", h)
		}
	}
	// Entity lookup: facts mentioning the entity, and their conflicts.
	var ent struct {
		Entity *struct {
			ID        string
			Facts     []struct{ Key string }
			Conflicts []struct{ ID string }
		}
	}
	env.MustDo(t, tok, `{ entity(id: "Entity#42") { id facts { key } conflicts { id } } }`, nil, &ent)
	if ent.Entity == nil || len(ent.Entity.Facts) == 0 || len(ent.Entity.Conflicts) != 1 {
		t.Errorf("entity = %+v, want its facts and one conflict", ent.Entity)
	}
}

func TestEntity(t *testing.T) {
	env := apitest.New(t)
	tok := alice(t)
	a := assertState(t, env, tok, input(nil))                                                                          // Entity#42 location Room#7
	b := assertState(t, env, tok, input(map[string]any{"subject": "Room#7", "predicate": "status", "object": "open"})) // Room#7 as subject
	var out struct {
		Entity *struct {
			ID                  string
			AssertionsAsSubject []struct{ ID string }
			AssertionsAsObject  []struct{ ID string }
		}
	}
	const q = `query($id: ID!) { entity(id: $id) { id assertionsAsSubject { id } assertionsAsObject { id } } }`
	env.MustDo(t, tok, q, map[string]any{"id": "Room#7"}, &out)
	if out.Entity == nil || len(out.Entity.AssertionsAsSubject) != 1 || out.Entity.AssertionsAsSubject[0].ID != b.ID ||
		len(out.Entity.AssertionsAsObject) != 1 || out.Entity.AssertionsAsObject[0].ID != a.ID {
		t.Fatalf("entity Room#7 = %+v", out.Entity)
	}
	g := get(t, env, tok, a.ID, nil)
	if g.SubjectEntity == nil || g.SubjectEntity.ID != "Entity#42" || g.ObjectEntity == nil || g.ObjectEntity.ID != "Room#7" {
		t.Errorf("edges = %+v %+v", g.SubjectEntity, g.ObjectEntity)
	}
	if g := get(t, env, tok, b.ID, nil); g.ObjectEntity != nil {
		t.Errorf("a plain JSON object has an entity: %+v", g.ObjectEntity)
	}
	env.MustDo(t, tok, q, map[string]any{"id": "Nobody#1"}, &out)
	if out.Entity != nil {
		t.Errorf("unknown entity = %+v, want null", out.Entity)
	}
}

func TestIsolationBetweenOrganizations(t *testing.T) {
	env := apitest.New(t)
	tokA := alice(t)
	tokB := apitest.Token(t, apitest.Identity("org-b", "bob"))
	b1 := assertState(t, env, tokB, timed(time.Hour, map[string]any{"validity": map[string]any{"mode": "UNTIL_EVENT", "untilEvent": "done"}}))
	// b1 waits for an event, b2 for a time: neither ends by change, so
	// they conflict in org B.
	b2 := assertState(t, env, tokB, timed(time.Hour, map[string]any{"object": "Room#8"}))
	b3 := assertState(t, env, tokB, timed(2*time.Hour, map[string]any{"object": "Room#9"}))
	if len(b2.Conflicts) != 1 || len(b3.Conflicts) != 1 || b3.Conflicts[0].ID != b2.Conflicts[0].ID {
		t.Fatalf("org B conflicts = %+v, want 1", b3.Conflicts)
	}
	cid := b3.Conflicts[0].ID

	// Org A writes the same slot: no conflict with org B's assertions.
	a := assertState(t, env, tokA, input(nil))
	if len(a.Conflicts) != 0 {
		t.Fatalf("org A's assertion joined org B's conflict: %+v", a.Conflicts)
	}
	if g := get(t, env, tokA, b1.ID, nil); g != nil {
		t.Errorf("org A reads org B's assertion: %+v", g)
	}
	if c := getConflict(t, env, tokA, cid); c != nil {
		t.Errorf("org A reads org B's conflict: %+v", c)
	}
	var lists struct {
		StateAssertions struct {
			Edges []struct{ Node struct{ ID string } }
		}
		Conflicts struct {
			Edges []struct{ Node struct{ ID string } }
		}
		Entity *struct{ AssertionsAsSubject []struct{ ID string } }
	}
	env.MustDo(t, tokA, `{ stateAssertions { edges { node { id } } } conflicts { edges { node { id } } } entity(id: "Entity#42") { assertionsAsSubject { id } } }`, nil, &lists)
	if len(lists.StateAssertions.Edges) != 1 || len(lists.Conflicts.Edges) != 0 || lists.Entity == nil || len(lists.Entity.AssertionsAsSubject) != 1 {
		t.Errorf("org A sees %+v", lists)
	}
	// Org A cannot act on org B's records: the same answers as unknown ids.
	r := env.Do(t, tokA, `mutation($id: ID!, $k: ID!) { resolveConflict(id: $id, keep: $k, reason: "x") { id } }`, map[string]any{"id": cid, "k": b3.ID})
	if r.Code() != "NOT_FOUND" || strings.Contains(r.Errors[0].Message, "org-b") {
		t.Errorf("resolving org B's conflict from org A: %s", r)
	}
	r = env.Do(t, tokA, `mutation($id: ID!) { promoteState(id: $id, decision: {reason: "x"}) { id } }`, map[string]any{"id": b1.ID})
	if r.Code() != "NOT_FOUND" {
		t.Errorf("promoting org B's assertion from org A: %s", r)
	}
	var sig struct{ SignalEvent []struct{ ID string } }
	env.MustDo(t, tokA, `mutation { signalEvent(name: "done") { id } }`, nil, &sig)
	if len(sig.SignalEvent) != 0 {
		t.Errorf("org A's signal expired %+v", sig.SignalEvent)
	}
	if g := get(t, env, tokB, b1.ID, nil); g == nil || g.Status != "ACTIVE" {
		t.Errorf("org B's assertion after org A's signal: %+v", g)
	}
	if c := getConflict(t, env, tokB, cid); c == nil || c.Status != "OPEN" {
		t.Errorf("org B's conflict after org A's attempt: %+v", c)
	}
}
