package conflicts_test

import (
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

const assertMut = `mutation($in: StateAssertionInput!) { assertState(input: $in) { id conflicts { id status } } }`

type asserted struct {
	ID        string
	Conflicts []struct{ ID, Status string }
}

// assert records an assertion of Entity#42's location with a five-hour
// lease, at the manual clock's time.
func assert(t *testing.T, env *apitest.Env, tok, object string) asserted {
	t.Helper()
	in := map[string]any{
		"subject": "Entity#42", "predicate": "location", "object": object, "context": "thread-1",
		"epistemicStatus": "INFERENCE",
		"validity":        map[string]any{"mode": "UNTIL_TIME", "expiresAt": apitest.Start.Add(5 * time.Hour).Format(time.RFC3339)},
		"provenance":      map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
	}
	var out struct{ AssertState asserted }
	env.MustDo(t, tok, assertMut, map[string]any{"in": in}, &out)
	return out.AssertState
}

const conflictQ = `query($id: ID!, $asOf: Time, $knownAt: Time) { conflict(id: $id, asOf: $asOf, knownAt: $knownAt) {
  id status resolvedAt lastSeenAt
  candidates { ... on StateAssertion { id status } }
  decision { id kept { ... on StateAssertion { id } } }
} }`

type conflictOut struct {
	ID, Status string
	ResolvedAt *time.Time
	LastSeenAt time.Time
	Candidates []struct{ ID, Status string }
	Decision   *struct {
		ID   string
		Kept *struct{ ID string }
	}
}

// vars returns the view variables: asOf and knownAt when non-zero.
func vars(asOf, knownAt time.Time, extra map[string]any) map[string]any {
	v := map[string]any{}
	if !asOf.IsZero() {
		v["asOf"] = asOf.Format(time.RFC3339Nano)
	}
	if !knownAt.IsZero() {
		v["knownAt"] = knownAt.Format(time.RFC3339Nano)
	}
	for k, x := range extra {
		v[k] = x
	}
	return v
}

// TestConflictsAsOf: conflict, conflicts, decision and auditTrail answer
// exactly what they answered at a past (valid, known) time: a conflict
// opened later is absent, one resolved later reads OPEN with the
// candidates it had then, a decision made later is absent, and the audit
// trail holds only the acts done by then.
func TestConflictsAsOf(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	t0 := env.Clock.Now()
	a := assert(t, env, tok, "Room#7")
	env.Clock.Advance(time.Minute)
	t1 := env.Clock.Now() // the conflict opens
	b := assert(t, env, tok, "Room#8")
	if len(b.Conflicts) != 1 {
		t.Fatalf("b conflicts = %+v, want one", b.Conflicts)
	}
	cid := b.Conflicts[0].ID
	env.Clock.Advance(time.Minute)
	t2 := env.Clock.Now() // a third candidate joins
	c := assert(t, env, tok, "Room#9")
	env.Clock.Advance(time.Minute)
	t3 := env.Clock.Now() // resolved, keeping b
	var res struct{ ResolveConflict struct{ Status string } }
	env.MustDo(t, tok, `mutation($id: ID!, $k: ID!) { resolveConflict(id: $id, keep: $k, reason: "the badge reader saw Room#8") { status } }`,
		map[string]any{"id": cid, "k": b.ID}, &res)
	env.Clock.Advance(time.Hour)
	ns := time.Nanosecond

	getConflict := func(asOf, knownAt time.Time) *conflictOut {
		t.Helper()
		var out struct{ Conflict *conflictOut }
		env.MustDo(t, tok, conflictQ, vars(asOf, knownAt, map[string]any{"id": cid}), &out)
		return out.Conflict
	}
	tests := []struct {
		name          string
		asOf, knownAt time.Time
		status        string // "" means absent
		candidates    int
		decided       bool
	}{
		{"known before it opened", time.Time{}, t1.Add(-ns), "", 0, false},
		{"as of before it opened", t1.Add(-ns), time.Time{}, "", 0, false},
		{"as of before it opened, known now", t0, env.Clock.Now(), "", 0, false},
		{"known exactly when it opened", time.Time{}, t1, "OPEN", 2, false},
		{"after the third joined, before resolution", time.Time{}, t2, "OPEN", 3, false},
		{"as of before resolution", t3.Add(-ns), time.Time{}, "OPEN", 3, false},
		{"as of after, known before resolution", t3.Add(time.Minute), t3.Add(-ns), "OPEN", 3, false},
		{"known exactly at resolution", time.Time{}, t3, "RESOLVED", 3, true},
		{"now", time.Time{}, time.Time{}, "RESOLVED", 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := getConflict(tc.asOf, tc.knownAt)
			if tc.status == "" {
				if got != nil {
					t.Fatalf("conflict = %+v, want null", got)
				}
				return
			}
			if got == nil {
				t.Fatalf("conflict = null, want %s", tc.status)
			}
			if got.Status != tc.status || len(got.Candidates) != tc.candidates || (got.Decision != nil) != tc.decided || (got.ResolvedAt != nil) != tc.decided {
				t.Fatalf("conflict = %+v, want %s with %d candidates, decided %v", got, tc.status, tc.candidates, tc.decided)
			}
			if tc.decided && (got.Decision.Kept == nil || got.Decision.Kept.ID != b.ID) {
				t.Errorf("decision = %+v, want b kept", got.Decision)
			}
			for _, cd := range got.Candidates {
				if want := map[bool]string{true: "ACTIVE", false: "REVOKED"}[!tc.decided || cd.ID == b.ID]; cd.Status != want {
					t.Errorf("candidate %s status = %s, want %s", cd.ID, cd.Status, want)
				}
			}
		})
	}

	t.Run("list", func(t *testing.T) {
		list := func(status string, asOf, knownAt time.Time) int {
			t.Helper()
			var out struct {
				Conflicts struct {
					Edges []struct{ Node struct{ ID string } }
				}
			}
			env.MustDo(t, tok, `query($s: ConflictStatus, $asOf: Time, $knownAt: Time) { conflicts(filter: {status: $s}, asOf: $asOf, knownAt: $knownAt) { edges { node { id } } } }`,
				vars(asOf, knownAt, map[string]any{"s": status}), &out)
			return len(out.Conflicts.Edges)
		}
		for _, tc := range []struct {
			name          string
			status        string
			asOf, knownAt time.Time
			want          int
		}{
			{"open, known before opening", "OPEN", time.Time{}, t1.Add(-ns), 0},
			{"open, known before resolution", "OPEN", time.Time{}, t2, 1},
			{"open, as of before resolution", "OPEN", t2, time.Time{}, 1},
			{"resolved, known before resolution", "RESOLVED", time.Time{}, t2, 0},
			{"open now", "OPEN", time.Time{}, time.Time{}, 0},
			{"resolved now", "RESOLVED", time.Time{}, time.Time{}, 1},
		} {
			if got := list(tc.status, tc.asOf, tc.knownAt); got != tc.want {
				t.Errorf("%s: %d conflicts, want %d", tc.name, got, tc.want)
			}
		}
	})

	var now struct{ Conflict *conflictOut }
	env.MustDo(t, tok, conflictQ, map[string]any{"id": cid}, &now)
	did := now.Conflict.Decision.ID
	t.Run("decision", func(t *testing.T) {
		for _, tc := range []struct {
			name          string
			asOf, knownAt time.Time
			want          bool
		}{
			{"known before it was made", time.Time{}, t3.Add(-ns), false},
			{"as of before it was made", t3.Add(-ns), time.Time{}, false},
			{"known exactly when made", time.Time{}, t3, true},
			{"now", time.Time{}, time.Time{}, true},
		} {
			var out struct {
				Decision *struct {
					ID       string
					Kept     *struct{ ID string }
					Revoked  []struct{ ID string }
					Conflict *struct{ ID, Status string }
				}
			}
			env.MustDo(t, tok, `query($id: ID!, $asOf: Time, $knownAt: Time) { decision(id: $id, asOf: $asOf, knownAt: $knownAt) {
				id kept { ... on StateAssertion { id } } revoked { ... on StateAssertion { id } } conflict { id status } } }`,
				vars(tc.asOf, tc.knownAt, map[string]any{"id": did}), &out)
			if got := out.Decision != nil; got != tc.want {
				t.Errorf("%s: decision present = %v, want %v", tc.name, got, tc.want)
				continue
			}
			if tc.want && (out.Decision.Kept == nil || out.Decision.Kept.ID != b.ID || len(out.Decision.Revoked) != 2 ||
				out.Decision.Conflict == nil || out.Decision.Conflict.Status != "RESOLVED") {
				t.Errorf("%s: decision = %+v", tc.name, out.Decision)
			}
		}
	})

	t.Run("audit trail", func(t *testing.T) {
		trail := func(id string, asOf, knownAt time.Time) []string {
			t.Helper()
			var out struct{ AuditTrail []struct{ Action string } }
			env.MustDo(t, tok, `query($id: ID!, $asOf: Time, $knownAt: Time) { auditTrail(recordId: $id, asOf: $asOf, knownAt: $knownAt) { action } }`,
				vars(asOf, knownAt, map[string]any{"id": id}), &out)
			var acts []string
			for _, e := range out.AuditTrail {
				acts = append(acts, e.Action)
			}
			return acts
		}
		for _, tc := range []struct {
			name          string
			id            string
			asOf, knownAt time.Time
			want          int
		}{
			{"conflict, known before resolution", cid, time.Time{}, t3.Add(-ns), 0},
			{"conflict, as of before resolution", cid, t3.Add(-ns), time.Time{}, 0},
			{"conflict, known at resolution", cid, time.Time{}, t3, 1},
			{"conflict now", cid, time.Time{}, time.Time{}, 1},
			{"revoked candidate, as of before", a.ID, t2, time.Time{}, 0},
			{"revoked candidate, now", c.ID, time.Time{}, time.Time{}, 1},
		} {
			if got := trail(tc.id, tc.asOf, tc.knownAt); len(got) != tc.want {
				t.Errorf("%s: trail %v, want %d entries", tc.name, got, tc.want)
			}
		}
	})
}
