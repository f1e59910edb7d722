package sweep

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
)

// TestSweepConfidentiality: within one organization, a peer (an employee
// of another department, agent or human) reaches nothing an executive
// restricted, after every kind of state change that makes a successor of a
// restricted fact: a supersession by key and by id, a correction, a batch,
// a correction and a change said in conversation, a retraction, a conflict
// decided for the restricted fact, a promoted state assertion and a
// promoted working-set item. None of them names a restriction: each must
// inherit its predecessor's.
func TestSweepConfidentiality(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, unlimited)
	v := seedConfidential(t, env)
	peer := apitest.Identity("org-c", "pat")
	peer.Authority, peer.Department = "Sales Rep", "Sales"
	human := peer
	human.Kind, human.AgentLevel = authority.KindUser, ""
	sweep(t, env, v, apitest.Token(t, peer), apitest.Token(t, human))
}

// seedConfidential seeds organization org-c: an executive's restricted
// facts, each then replaced in one of the ways a successor is made, every
// value a canary.
func seedConfidential(t *testing.T, env *apitest.Env) victim {
	v := &victim{times: []string{apitest.Start.Add(3 * time.Minute).Format(time.RFC3339)}}
	s := &seeder{t: t, env: env, v: v}
	cfoID := apitest.Identity("org-c", "cora")
	cfoID.Authority, cfoID.Department = "CFO", "Finance"
	directorID := apitest.Identity("org-c", "dario")
	directorID.Authority, directorID.Department = "Finance Director", "Finance"
	cfo, director := apitest.Token(t, cfoID), apitest.Token(t, directorID)
	executives := map[string]any{"minAuthority": "executive"}
	finance := map[string]any{"departments": []string{"Finance"}}

	// Supersession by key, by id, a correction and a batch: none of the
	// successors names a restriction.
	first := s.write(cfo, map[string]any{"key": "acq.target", "value": s.canary("target"), "memoryType": "ORGANIZATIONAL", "restrictedTo": executives})
	s.write(cfo, map[string]any{"key": "acq.target", "value": s.canary("target"), "memoryType": "ORGANIZATIONAL", "supersedes": "acq.target"})
	byID := s.write(cfo, map[string]any{"key": "acq.price", "value": s.canary("price"), "memoryType": "ORGANIZATIONAL", "restrictedTo": executives})
	s.write(cfo, map[string]any{"key": "acq.price", "value": s.canary("price"), "memoryType": "ORGANIZATIONAL", "supersedes": byID, "supersessionKind": "CORRECTION", "reason": s.canary("reason")})
	_ = first
	var batch struct{ WriteFacts []struct{ ID, Key string } }
	env.MustDo(t, cfo, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id key } }`, map[string]any{"in": []map[string]any{
		{"key": "acq.advisor", "value": s.canary("advisor"), "memoryType": "ORGANIZATIONAL", "restrictedTo": executives},
		{"key": "acq.advisor", "value": s.canary("advisor"), "memoryType": "ORGANIZATIONAL", "supersedes": "acq.advisor"},
	}}, &batch)
	for _, f := range batch.WriteFacts {
		v.ids = append(v.ids, f.ID)
	}
	v.keys = append(v.keys, "acq.advisor")
	env.Clock.Advance(time.Minute)

	// In conversation: a correction that quotes the old value, a change,
	// and a retraction of a value said in an earlier turn.
	s.write(cfo, map[string]any{"key": "board.meeting", "value": "March 3", "memoryType": "ORGANIZATIONAL", "restrictedTo": executives})
	v.canaries = append(v.canaries, "March 3", "March 17", "2026-03-17", "2026-03-03")
	s.say(cfo, "sess-cora", "Correction: the board meeting is on March 17, not March 3.")
	s.expect(cfo, "board.meeting", "March 17")
	codename := s.canary("codename")
	s.write(cfo, map[string]any{"key": "acq.codename", "value": s.canary("codename"), "memoryType": "ORGANIZATIONAL", "restrictedTo": executives})
	s.say(cfo, "sess-cora", "The acquisition codename is now "+codename+".")
	s.expect(cfo, "acq.codename", codename)
	s.write(cfo, map[string]any{"key": "acq.lawyer", "value": s.canary("lawyer"), "memoryType": "ORGANIZATIONAL", "restrictedTo": executives})
	s.say(cfo, "sess-cora", "The acquisition lawyer is "+s.canary("lawyer")+".")
	s.say(cfo, "sess-cora", "Sorry, that was wrong.")

	// A conflict: the director (who may read the fact) is refused a
	// supersession of the CFO's; the CFO keeps the restricted fact.
	capID := s.write(cfo, map[string]any{"key": "budget.cap", "value": s.canary("cap"), "memoryType": "ORGANIZATIONAL", "restrictedTo": finance})
	s.write(director, map[string]any{"key": "budget.cap", "value": s.canary("cap"), "memoryType": "ORGANIZATIONAL", "supersedes": "budget.cap"})
	var conf struct {
		Conflicts struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, cfo, `{ conflicts(filter: {subject: "budget.cap"}) { edges { node { id } } } }`, nil, &conf)
	if len(conf.Conflicts.Edges) != 1 {
		t.Fatalf("the director's refused supersession opened %d conflicts, want 1", len(conf.Conflicts.Edges))
	}
	var res struct {
		ResolveConflict struct{ Decision struct{ ID string } }
	}
	env.MustDo(t, cfo, `mutation($id: ID!, $keep: ID!, $r: String!) { resolveConflict(id: $id, keep: $keep, reason: $r) { decision { id } } }`,
		map[string]any{"id": conf.Conflicts.Edges[0].Node.ID, "keep": capID, "r": s.canary("decision")}, &res)
	v.ids = append(v.ids, conf.Conflicts.Edges[0].Node.ID, res.ResolveConflict.Decision.ID)
	env.Clock.Advance(time.Minute)

	// Promotions onto a restricted key: a state assertion and a
	// working-set item.
	s.write(cfo, map[string]any{"key": "acq.close", "value": s.canary("close"), "memoryType": "ORGANIZATIONAL", "restrictedTo": executives})
	// The assertion itself is organization knowledge (state assertions
	// carry no restriction); the fact it becomes on a restricted key must
	// be restricted like the fact it replaces.
	var st struct{ AssertState struct{ ID string } }
	env.MustDo(t, cfo, `mutation { assertState(input: {subject: "Entity#acq", predicate: "close", object: "end of quarter", context: "ctx-acq",
		epistemicStatus: INFERENCE, validity: {mode: UNTIL_CHANGED}, provenance: {author: {kind: "agent", id: "cora"}}}) { id } }`, nil, &st)
	var prom struct{ PromoteState struct{ ID, Key string } }
	env.MustDo(t, cfo, `mutation($id: ID!) { promoteState(id: $id, decision: {reason: "signed off", key: "acq.close", memoryType: ORGANIZATIONAL}) { id key } }`,
		map[string]any{"id": st.AssertState.ID}, &prom)
	v.ids = append(v.ids, prom.PromoteState.ID)
	s.write(cfo, map[string]any{"key": "acq.banker", "value": s.canary("banker"), "memoryType": "ORGANIZATIONAL", "restrictedTo": executives})
	s.item(cfo, "sess-cora-done", "acq.banker")
	var done struct {
		CompleteObjective struct{ Promoted []struct{ ID, Key string } }
	}
	env.MustDo(t, cfo, `mutation { completeObjective(input: {sessionId: "sess-cora-done", promote: ["acq.banker"]}) { promoted { id key } } }`, nil, &done)
	for _, f := range done.CompleteObjective.Promoted {
		v.ids = append(v.ids, f.ID)
	}

	// Every fact of the seed, first or successor, is restricted.
	for _, id := range v.ids {
		if !strings.HasPrefix(id, "F-") {
			continue
		}
		var out struct {
			Fact struct {
				Key          string
				RestrictedTo *struct{ MinAuthority string }
			}
		}
		env.MustDo(t, cfo, `query($id: ID!) { fact(id: $id) { key restrictedTo { minAuthority } } }`, map[string]any{"id": id}, &out)
		if out.Fact.RestrictedTo == nil {
			t.Errorf("seeding: fact %s (%s) lost its predecessor's restriction", id, out.Fact.Key)
		}
	}

	v.tokens = []string{cfo, director}
	v.dump = confidentialDump(v)
	return *v
}

// say records a turn as tok and records the session and the turn's id.
func (s *seeder) say(tok, session, text string) {
	s.t.Helper()
	var out struct {
		RecordTurn struct{ Turn struct{ ID string } }
	}
	s.env.MustDo(s.t, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } } }`, map[string]any{"in": map[string]any{
		"sessionId": session, "speaker": "USER", "text": text}}, &out)
	s.v.ids = append(s.v.ids, out.RecordTurn.Turn.ID)
	s.name(session)
	s.env.Clock.Advance(time.Minute)
}

// expect fails unless tok's current value of key contains want: the seed
// made the successor it meant to.
func (s *seeder) expect(tok, key, want string) {
	s.t.Helper()
	var out struct{ CurrentValue *struct{ Value any } }
	s.env.MustDo(s.t, tok, `query($k: String!) { currentValue(key: $k) { value } }`, map[string]any{"k": key}, &out)
	if out.CurrentValue == nil || !strings.Contains(fmt.Sprint(out.CurrentValue.Value), want) {
		s.t.Fatalf("seeding: current %s = %+v, want a value with %q", key, out.CurrentValue, want)
	}
}

// confidentialDump reads the executive's records by id: the peer's
// writes may add facts of their own to the organization, but must never
// change, supersede or unrestrict one of these.
func confidentialDump(v *victim) string {
	var q []string
	for i, id := range v.ids {
		q = append(q, fmt.Sprintf("f%d: fact(id: %s) { id value isValid validTo supersededBy { id } restrictedTo { roles permissions minAuthority departments } }", i, jsonString(id)))
	}
	return "query { " + strings.Join(q, "\n") + " }"
}
