package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/store"
)

// restrictedExec is the restriction every restricted fact of these tests
// carries.
var restrictedExec = map[string]any{"minAuthority": "executive"}

// team is an executive and a peer of one organization, each an agent.
type team struct {
	env        *apitest.Env
	exec, peer string
}

func newTeam(t *testing.T) team {
	t.Helper()
	env := apitest.New(t)
	execID := apitest.Identity("acme", "exec")
	execID.UserName, execID.Authority = "Erin", "executive"
	peerID := apitest.Identity("acme", "peer")
	peerID.UserName, peerID.Authority = "Pat", "peer"
	return team{env: env, exec: apitest.Token(t, execID), peer: apitest.Token(t, peerID)}
}

// writeRestricted writes an organization fact only executives read.
func (tm team) writeRestricted(t *testing.T, key, value string) string {
	t.Helper()
	var out written
	tm.env.MustDo(t, tm.exec, writeQ, map[string]any{"in": map[string]any{"key": key, "value": value,
		"memoryType": "ORGANIZATIONAL", "restrictedTo": restrictedExec}}, &out)
	tm.env.Clock.Advance(time.Minute)
	return out.WriteFact.ID
}

func (tm team) turn(t *testing.T, tok, text string) json.RawMessage {
	t.Helper()
	return tm.turnBy(t, tok, "", text)
}

// turnBy records a turn spoken by the person speakerID names ("" for the
// token's user).
func (tm team) turnBy(t *testing.T, tok, speakerID, text string) json.RawMessage {
	t.Helper()
	in := map[string]any{"sessionId": "s1", "speaker": "USER", "text": text}
	if speakerID != "" {
		in["speakerId"] = speakerID
	}
	var out struct{ RecordTurn json.RawMessage }
	tm.env.MustDo(t, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) {
		turn { id } extracted { key value outcome reason fact { id } previous { id } }
		detections { kind superseded { id kind } blocked }
		superseded { fact { id } by { id } }
	} }`, map[string]any{"in": in}, &out)
	tm.env.Clock.Advance(time.Minute)
	return out.RecordTurn
}

// peerView is everything the peer reads about key: it must hold none of
// the words of a restricted chain.
func (tm team) peerView(t *testing.T, key, query string, ids ...string) string {
	t.Helper()
	res := tm.env.Do(t, tm.peer, `query($k: String!, $q: String!) {
		currentValue(key: $k) { id value }
		factHistory(key: $k) { id value }
		facts(filter: {validity: ALL}) { edges { node { id key value } } }
		assembleContext(input: {query: $q, budget: 4000}) { text included { id } excluded { id } }
	}`, map[string]any{"k": key, "q": query})
	if len(res.Errors) > 0 {
		t.Fatalf("peer read: %s", res.Raw)
	}
	out := string(res.Raw)
	for _, id := range ids {
		r := tm.env.Do(t, tm.peer, `query($id: ID!) { fact(id: $id) { id value } }`, map[string]any{"id": id})
		out += string(r.Raw)
	}
	return out
}

// TestRestrictionSurvivesEverySuccessor: an executive's restricted fact
// stays unreadable to a peer whatever creates its successor (the table is
// every path that writes one); the executive reads the new value.
func TestRestrictionSurvivesEverySuccessor(t *testing.T) {
	cases := []struct {
		name, key, old, query string
		secret                []string // words of the old and the new value
		newWord               string   // a word of the new value the executive reads
		succeed               func(t *testing.T, tm team, key, oldID string)
	}{
		{name: "writeFact supersedes", key: "board.date", old: "March 3 zebra", query: "board date march zebra quokka",
			secret: []string{"March", "zebra", "quokka"}, newWord: "quokka",
			succeed: func(t *testing.T, tm team, key, _ string) {
				tm.env.MustDo(t, tm.exec, writeQ, map[string]any{"in": map[string]any{"key": key, "value": "March 17 quokka", "supersedes": key}}, &written{})
			}},
		{name: "writeFact correction", key: "board.date", old: "March 3 zebra", query: "board date march zebra quokka",
			secret: []string{"March", "zebra", "quokka"}, newWord: "quokka",
			succeed: func(t *testing.T, tm team, key, oldID string) {
				tm.env.MustDo(t, tm.exec, writeQ, map[string]any{"in": map[string]any{"key": key, "value": "March 17 quokka",
					"supersedes": oldID, "supersessionKind": "CORRECTION"}}, &written{})
			}},
		{name: "writeFacts batch", key: "board.date", old: "March 3 zebra", query: "board date march zebra quokka",
			secret: []string{"March", "zebra", "quokka"}, newWord: "quokka",
			succeed: func(t *testing.T, tm team, key, _ string) {
				tm.env.MustDo(t, tm.exec, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": []any{
					map[string]any{"key": "other.thing", "value": "plain"},
					map[string]any{"key": key, "value": "March 17 quokka", "supersedes": key},
				}}, &struct{}{})
			}},
		{name: "turn correction (extraction)", key: "board_meeting.date", old: "March 3", query: "board meeting date march",
			secret: []string{"March", "03-03", "03-17"}, newWord: "03-17",
			succeed: func(t *testing.T, tm team, _, _ string) {
				t.Logf("turn: %s", tm.turn(t, tm.exec, "Correction: the board meeting is on March 17, not March 3."))
			}},
		{name: "turn change (extraction)", key: "kickoff_date", old: "March 3", query: "kickoff date march",
			secret: []string{"March"}, newWord: "March 10",
			succeed: func(t *testing.T, tm team, _, _ string) {
				t.Logf("turn: %s", tm.turn(t, tm.exec, "Correction: the kickoff moved to March 10."))
			}},
		{name: "turn instead (detection)", key: "hotel", old: "Hilton Garden", query: "hotel hilton marriott staying",
			secret: []string{"Hilton", "Marriott"}, newWord: "Marriott",
			succeed: func(t *testing.T, tm team, _, _ string) {
				t.Logf("turn: %s", tm.turn(t, tm.exec, "Actually we are staying at the Marriott Downtown instead of the Hilton Garden."))
			}},
		{name: "turn implicit amount (extraction)", key: "marketing_budget", old: "$40,000", query: "marketing budget",
			secret: []string{"40,000", "55,000"}, newWord: "55,000",
			succeed: func(t *testing.T, tm team, _, _ string) {
				t.Logf("turn: %s", tm.turn(t, tm.exec, "The marketing budget is $55,000."))
			}},
		{name: "turn temporal update (detection)", key: "license_price", old: "$30 per seat", query: "license price seat",
			secret: []string{"$30", "$36"}, newWord: "$36",
			succeed: func(t *testing.T, tm team, _, _ string) {
				t.Logf("turn: %s", tm.turn(t, tm.exec, "As of today the license price is $36 per seat."))
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tm := newTeam(t)
			oldID := tm.writeRestricted(t, tc.key, tc.old)
			tc.succeed(t, tm, tc.key, oldID)
			var cv struct {
				CurrentValue *struct {
					ID, Value    string
					RestrictedTo *struct{ MinAuthority string }
				}
			}
			tm.env.MustDo(t, tm.exec, `query($k: String!) { currentValue(key: $k) { id value restrictedTo { minAuthority } } }`, map[string]any{"k": tc.key}, &cv)
			if cv.CurrentValue == nil || cv.CurrentValue.ID == oldID || !strings.Contains(cv.CurrentValue.Value, tc.newWord) {
				t.Fatalf("the executive's current value %+v, want a successor holding %q", cv.CurrentValue, tc.newWord)
			}
			if r := cv.CurrentValue.RestrictedTo; r == nil || r.MinAuthority != "executive" {
				t.Errorf("the successor's restriction %+v, want minAuthority executive", r)
			}
			seen := tm.peerView(t, tc.key, tc.query, oldID, cv.CurrentValue.ID)
			for _, w := range tc.secret {
				if strings.Contains(seen, w) {
					t.Errorf("the peer reads %q: %s", w, seen)
				}
			}
		})
	}
}

// TestDeclassify: only an explicit write with declassify: true gives a
// successor less restriction than its predecessor, only from a writer who
// reads the old fact with the authority its restriction asks for; the
// declassification is on the edge and in both facts' audit trails.
func TestDeclassify(t *testing.T) {
	const q = `mutation($in: FactInput!) { writeFact(input: $in) {
		id value restrictedTo { minAuthority } supersession { declassified } } }`
	type result struct {
		WriteFact struct {
			ID, Value    string
			RestrictedTo *struct{ MinAuthority string }
			Supersession *struct{ Declassified bool }
		}
	}
	cases := []struct {
		name string
		in   map[string]any
		// oldAuthority is the source authority of the restricted fact.
		oldAuthority string
		code         string // the write's error code, "" for success
		wantMin      string // the successor's minAuthority, "" for none
		declassified bool
		peerReads    bool
	}{
		{name: "to everyone", in: map[string]any{"declassify": true}, declassified: true, peerReads: true},
		{name: "to managers", in: map[string]any{"declassify": true, "restrictedTo": map[string]any{"minAuthority": "manager"}},
			wantMin: "manager", declassified: true},
		{name: "to peers", in: map[string]any{"declassify": true, "restrictedTo": map[string]any{"minAuthority": "peer"}},
			wantMin: "peer", declassified: true, peerReads: true},
		{name: "declassify but tighter", in: map[string]any{"declassify": true, "restrictedTo": map[string]any{"minAuthority": "executive", "roles": []string{"executive"}}},
			wantMin: "executive"},
		{name: "without declassify", in: map[string]any{"restrictedTo": map[string]any{"minAuthority": "peer"}}, wantMin: "executive"},
		{name: "declassify false", in: map[string]any{"declassify": false}, wantMin: "executive"},
		{name: "speaking below the restriction", in: map[string]any{"declassify": true, "source": map[string]any{"authority": "manager"}},
			oldAuthority: "peer", code: "FORBIDDEN"},
		{name: "without supersedes", in: map[string]any{"declassify": true, "supersedes": nil}, code: "BAD_USER_INPUT"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tm := newTeam(t)
			const key = "merger.codename"
			old := map[string]any{"key": key, "value": "Project zebra", "memoryType": "ORGANIZATIONAL", "restrictedTo": restrictedExec}
			if tc.oldAuthority != "" {
				old["source"] = map[string]any{"authority": tc.oldAuthority}
			}
			var was written
			tm.env.MustDo(t, tm.exec, writeQ, map[string]any{"in": old}, &was)
			tm.env.Clock.Advance(time.Minute)
			in := map[string]any{"key": key, "value": "Project quokka", "supersedes": key}
			for k, v := range tc.in {
				if v == nil {
					delete(in, k)
				} else {
					in[k] = v
				}
			}
			res := tm.env.Do(t, tm.exec, q, map[string]any{"in": in})
			if res.Code() != tc.code {
				t.Fatalf("code %q, want %q: %s", res.Code(), tc.code, res.Raw)
			}
			if tc.code != "" {
				if strings.Contains(string(res.Raw), "zebra") {
					t.Errorf("the refusal names the old value: %s", res.Raw)
				}
				return
			}
			var got result
			res.Decode(t, &got)
			wf := got.WriteFact
			if min := ""; wf.RestrictedTo != nil && wf.RestrictedTo.MinAuthority != tc.wantMin || wf.RestrictedTo == nil && tc.wantMin != min {
				t.Errorf("successor restriction %+v, want minAuthority %q", wf.RestrictedTo, tc.wantMin)
			}
			if wf.Supersession == nil || wf.Supersession.Declassified != tc.declassified {
				t.Errorf("supersession %+v, want declassified %v", wf.Supersession, tc.declassified)
			}
			seen := tm.peerView(t, key, "merger codename project zebra quokka", was.WriteFact.ID, wf.ID)
			if strings.Contains(seen, "zebra") || strings.Contains(seen, was.WriteFact.ID) {
				t.Errorf("the peer reads the declassified fact's predecessor: %s", seen)
			}
			if strings.Contains(seen, "quokka") != tc.peerReads {
				t.Errorf("the peer reads the successor: %v, want %v: %s", !tc.peerReads, tc.peerReads, seen)
			}
			type entry struct{ Action, By string }
			trail := func(tok, id string) []entry {
				var out struct{ AuditTrail []entry }
				tm.env.MustDo(t, tok, `query($id: ID!) { auditTrail(recordId: $id) { action by } }`, map[string]any{"id": id}, &out)
				return out.AuditTrail
			}
			wantOld := []entry{{"WRITTEN", ""}, {"SUPERSEDED", wf.ID}}
			wantNew := []entry{{"WRITTEN", ""}}
			if tc.declassified {
				wantOld = append(wantOld, entry{"DECLASSIFIED", wf.ID})
				wantNew = append(wantNew, entry{"DECLASSIFIED", ""})
			}
			if got := trail(tm.exec, was.WriteFact.ID); !slices.Equal(got, wantOld) {
				t.Errorf("the old fact's trail %+v, want %+v", got, wantOld)
			}
			if got := trail(tm.exec, wf.ID); !slices.Equal(got, wantNew) {
				t.Errorf("the successor's trail %+v, want %+v", got, wantNew)
			}
			if got := trail(tm.peer, was.WriteFact.ID); len(got) != 0 {
				t.Errorf("the peer reads the old fact's trail %+v", got)
			}
		})
	}
}

// TestCannotSupersedeWhatYouCannotRead: a peer's write or turn naming a
// restricted fact it cannot read answers exactly as naming nothing does
// (the same error, or a new fact of the peer's own); the hidden fact stays
// current for those who read it, with its old value.
func TestCannotSupersedeWhatYouCannotRead(t *testing.T) {
	tm := newTeam(t)
	hidden := tm.writeRestricted(t, "board_meeting.date", "March 3")
	unknown := func(ref string, declassify bool) apitest.Response {
		return tm.env.Do(t, tm.peer, writeQ, map[string]any{"in": map[string]any{"key": "board_meeting.date", "value": "March 17",
			"memoryType": "ORGANIZATIONAL", "supersedes": ref, "declassify": declassify}})
	}
	for _, tc := range []struct {
		name, ref  string
		declassify bool
	}{
		{"by key", "board_meeting.date", false},
		{"by id", hidden, false},
		{"by key, declassifying", "board_meeting.date", true},
		{"by id, declassifying", hidden, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, want := unknown(tc.ref, tc.declassify), unknown("no_such.key", tc.declassify)
			if got.Code() != "NOT_FOUND" || want.Code() != "NOT_FOUND" {
				t.Fatalf("codes %q and %q, want NOT_FOUND: %s", got.Code(), want.Code(), got.Raw)
			}
			if g, w := strings.ReplaceAll(got.Errors[0].Message, tc.ref, "K"), strings.ReplaceAll(want.Errors[0].Message, "no_such.key", "K"); g != w {
				t.Errorf("message %q, but for a key nobody wrote %q", g, w)
			}
		})
	}
	var low written
	tm.env.MustDo(t, tm.exec, writeQ, map[string]any{"in": map[string]any{"key": "license_price", "value": "$30 per seat",
		"memoryType": "ORGANIZATIONAL", "restrictedTo": restrictedExec, "source": map[string]any{"authority": "peer"}}}, &low)
	tm.env.MustDo(t, tm.exec, writeQ, map[string]any{"in": map[string]any{"key": "pat.role", "value": "peer", "memoryType": "ORGANIZATIONAL"}}, &written{})
	// The peer's turns, and the peer's words recorded by the executive's
	// agent (speakerId), replace, correct and retract none of them, even
	// where the peer's authority would reach the fact's.
	for _, tc := range []struct{ tok, speaker, text string }{
		{tm.peer, "", "Correction: the board meeting is on March 17, not March 3."},
		{tm.exec, "pat", "Correction: the board meeting is on March 17, not March 3."},
		{tm.exec, "pat", "The board meeting date is March 20."},
		{tm.peer, "", "As of today the license price is $36 per seat."},
		{tm.exec, "pat", "As of today the license price is $36 per seat."},
		{tm.exec, "pat", "Actually the license price is $38 per seat, not $30."},
		{tm.exec, "pat", "The license price was wrong."},
	} {
		tm.turnBy(t, tc.tok, tc.speaker, tc.text)
	}
	for id, value := range map[string]string{hidden: "March 3", low.WriteFact.ID: "$30 per seat"} {
		var got struct {
			Fact struct {
				Value        string
				IsValid      bool
				SupersededBy *struct{ ID string }
			}
		}
		tm.env.MustDo(t, tm.exec, `query($id: ID!) { fact(id: $id) { value isValid supersededBy { id } } }`, map[string]any{"id": id}, &got)
		if f := got.Fact; f.Value != value || !f.IsValid || f.SupersededBy != nil {
			t.Errorf("the hidden fact %s now %+v, want %q valid and not superseded", id, f, value)
		}
	}
	var cv struct{ CurrentValue struct{ ID string } }
	tm.env.MustDo(t, tm.exec, `{ currentValue(key: "board_meeting.date") { id } }`, nil, &cv)
	if cv.CurrentValue.ID != hidden {
		t.Errorf("the executive's current value %+v, want the hidden fact %s", cv.CurrentValue, hidden)
	}
}

// TestMemorySpacesHold: a successor stays in its predecessor's memory and
// scope, and supersedes resolves a key only where the writer's memory and
// scope are: another user's agent never reaches a user's memory (the same
// NOT_FOUND as a key nobody wrote), a write that names a memory or a scope
// supersedes only there, and one that names neither takes its
// predecessor's.
func TestMemorySpacesHold(t *testing.T) {
	const q = `mutation($in: FactInput!) { writeFact(input: $in) { id memoryType scope scopeId supersedes { id } } }`
	type result struct {
		WriteFact struct {
			ID, MemoryType, Scope string
			ScopeID               *string
			Supersedes            *struct{ ID string }
		}
	}
	nicoleID := apitest.Identity("acme", "nicole")
	nicoleBotID := nicoleID
	nicoleBotID.Capability = "travel"
	omarID := apitest.Identity("acme", "omar")

	cases := []struct {
		name     string
		old      map[string]any // written by nicole's agent
		writer   authority.Identity
		in       map[string]any // supersedes the old fact's key
		code     string
		wantMem  string
		wantScop string
	}{
		{name: "her agent, her memory", old: map[string]any{"memoryType": "USER"}, writer: nicoleID,
			in: map[string]any{}, wantMem: "USER", wantScop: "GLOBAL"},
		{name: "her agent with a capability, no memory named", old: map[string]any{"memoryType": "USER"}, writer: nicoleBotID,
			in: map[string]any{}, wantMem: "USER", wantScop: "GLOBAL"},
		{name: "her agent with a capability, organization fact", old: map[string]any{"memoryType": "ORGANIZATIONAL"}, writer: nicoleBotID,
			in: map[string]any{}, wantMem: "ORGANIZATIONAL", wantScop: "GLOBAL"},
		{name: "another user's agent", old: map[string]any{"memoryType": "USER"}, writer: omarID,
			in: map[string]any{}, code: "NOT_FOUND"},
		{name: "another user's agent, naming user memory", old: map[string]any{"memoryType": "USER"}, writer: omarID,
			in: map[string]any{"memoryType": "USER"}, code: "NOT_FOUND"},
		{name: "USER write over an organization fact", old: map[string]any{"memoryType": "ORGANIZATIONAL"}, writer: nicoleID,
			in: map[string]any{"memoryType": "USER"}, code: "NOT_FOUND"},
		{name: "a hypothetical over a real fact", old: map[string]any{"memoryType": "ORGANIZATIONAL"}, writer: nicoleID,
			in: map[string]any{"value": "Hypothetically, Lisbon"}, code: "NOT_FOUND"},
		{name: "a draft over a real fact", old: map[string]any{"memoryType": "ORGANIZATIONAL"}, writer: nicoleID,
			in: map[string]any{"scope": "DRAFT"}, code: "NOT_FOUND"},
		{name: "a project write over a global fact", old: map[string]any{"memoryType": "ORGANIZATIONAL"}, writer: nicoleID,
			in: map[string]any{"scope": "PROJECT", "scopeId": "p1"}, code: "NOT_FOUND"},
		{name: "no scope named over a project fact", old: map[string]any{"memoryType": "ORGANIZATIONAL", "scope": "PROJECT", "scopeId": "p1"}, writer: nicoleID,
			in: map[string]any{}, wantMem: "ORGANIZATIONAL", wantScop: "PROJECT"},
		{name: "the same project", old: map[string]any{"memoryType": "ORGANIZATIONAL", "scope": "PROJECT", "scopeId": "p1"}, writer: nicoleID,
			in: map[string]any{"scope": "PROJECT", "scopeId": "p1"}, wantMem: "ORGANIZATIONAL", wantScop: "PROJECT"},
		{name: "another project", old: map[string]any{"memoryType": "ORGANIZATIONAL", "scope": "PROJECT", "scopeId": "p1"}, writer: nicoleID,
			in: map[string]any{"scope": "PROJECT", "scopeId": "p2"}, code: "NOT_FOUND"},
		{name: "a hypothetical over a hypothetical", old: map[string]any{"memoryType": "ORGANIZATIONAL", "value": "Hypothetically, Porto"}, writer: nicoleID,
			in: map[string]any{"value": "Hypothetically, Lisbon"}, wantMem: "ORGANIZATIONAL", wantScop: "HYPOTHETICAL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t)
			const key = "offsite.city"
			old := map[string]any{"key": key, "value": "Madrid"}
			for k, v := range tc.old {
				old[k] = v
			}
			var was written
			env.MustDo(t, apitest.Token(t, nicoleID), writeQ, map[string]any{"in": old}, &was)
			env.Clock.Advance(time.Minute)
			in := map[string]any{"key": key, "value": "Lisbon", "supersedes": key}
			for k, v := range tc.in {
				in[k] = v
			}
			tok := apitest.Token(t, tc.writer)
			res := env.Do(t, tok, q, map[string]any{"in": in})
			if res.Code() != tc.code {
				t.Fatalf("code %q, want %q: %s", res.Code(), tc.code, res.Raw)
			}
			if tc.code != "" {
				// Exactly what a key nobody wrote answers.
				in["supersedes"], in["key"] = "nobody.wrote", "nobody.wrote"
				none := env.Do(t, tok, q, map[string]any{"in": in})
				if g, w := strings.ReplaceAll(res.Errors[0].Message, key, "K"), strings.ReplaceAll(none.Errors[0].Message, "nobody.wrote", "K"); g != w {
					t.Errorf("message %q, but for a key nobody wrote %q", g, w)
				}
				var cv struct{ CurrentValue *struct{ ID string } }
				env.MustDo(t, apitest.Token(t, nicoleID), `query($k: String!) { currentValue(key: $k) { id } }`, map[string]any{"k": key}, &cv)
				if real := tc.old["value"] == nil; real && (cv.CurrentValue == nil || cv.CurrentValue.ID != was.WriteFact.ID) {
					t.Errorf("nicole's current value %+v, want %s unchanged", cv.CurrentValue, was.WriteFact.ID)
				}
				return
			}
			var got result
			res.Decode(t, &got)
			wf := got.WriteFact
			if wf.MemoryType != tc.wantMem || wf.Scope != tc.wantScop || wf.Supersedes == nil || wf.Supersedes.ID != was.WriteFact.ID {
				t.Errorf("successor %+v, want %s %s memory superseding %s", wf, tc.wantScop, tc.wantMem, was.WriteFact.ID)
			}
		})
	}
}

// TestDecisionKeepsRestriction: resolving a conflict by keeping an
// executive's restricted fact over a peer's never lets the peer read the
// kept value, whatever the decision writes.
func TestDecisionKeepsRestriction(t *testing.T) {
	tm := newTeam(t)
	secret := tm.writeRestricted(t, "deal.floor", "secret floor 40k zebra")
	var peers written
	tm.env.MustDo(t, tm.peer, writeQ, map[string]any{"in": map[string]any{"key": "deal.floor", "value": "30k", "memoryType": "ORGANIZATIONAL"}}, &peers)
	var cs struct {
		Conflicts struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	tm.env.MustDo(t, tm.exec, `{ conflicts(filter: {subject: "deal.floor"}) { edges { node { id } } } }`, nil, &cs)
	if len(cs.Conflicts.Edges) != 1 {
		t.Fatalf("the executive sees %d conflicts, want 1", len(cs.Conflicts.Edges))
	}
	tm.env.Clock.Advance(time.Minute)
	tm.env.MustDo(t, tm.exec, `mutation($id: ID!, $keep: ID!) { resolveConflict(id: $id, keep: $keep, reason: "board decision") { id } }`,
		map[string]any{"id": cs.Conflicts.Edges[0].Node.ID, "keep": secret}, &struct{}{})
	seen := tm.peerView(t, "deal.floor", "deal floor secret zebra 40k", secret, peers.WriteFact.ID)
	if strings.Contains(seen, "zebra") || strings.Contains(seen, secret) {
		t.Errorf("the peer reads the kept restricted value: %s", seen)
	}
}

// TestRestoreKeepsRestrictions: an organization's backup restored into a
// fresh store brings back a restricted chain as it was: still unreadable
// to the peer, still the executive's current value, and a new successor
// written after the restore inherits the restriction.
func TestRestoreKeepsRestrictions(t *testing.T) {
	tm := newTeam(t)
	old := tm.writeRestricted(t, "board.date", "March 3 zebra")
	tm.env.MustDo(t, tm.exec, writeQ, map[string]any{"in": map[string]any{"key": "board.date", "value": "March 17 quokka", "supersedes": old}}, &written{})
	var buf bytes.Buffer
	if err := tm.env.Server.Store().Backup(context.Background(), &buf, "acme"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := store.DefaultOptions(dir)
	o.SyncWrites = false
	st, err := store.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Restore(context.Background(), bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	fresh := team{env: apitest.New(t, func(o *server.Options) { o.Store.Dir, o.Store.InMemory = dir, false }), exec: tm.exec, peer: tm.peer}
	fresh.env.Clock.Set(tm.env.Clock.Now().Add(time.Minute))
	var got written
	fresh.env.MustDo(t, fresh.exec, writeQ, map[string]any{"in": map[string]any{"key": "board.date", "value": "March 24 okapi", "supersedes": "board.date"}}, &got)
	if r := got.WriteFact.RestrictedTo; r == nil || r.MinAuthority != "executive" {
		t.Errorf("a successor written after the restore is restricted %+v, want minAuthority executive", r)
	}
	seen := fresh.peerView(t, "board.date", "board date march zebra quokka okapi", old, got.WriteFact.ID)
	for _, w := range []string{"March", "zebra", "quokka", "okapi"} {
		if strings.Contains(seen, w) {
			t.Errorf("after the restore the peer reads %q: %s", w, seen)
		}
	}
	var hist struct{ FactHistory []struct{ Value string } }
	fresh.env.MustDo(t, fresh.exec, `{ factHistory(key: "board.date") { value } }`, nil, &hist)
	if len(hist.FactHistory) != 3 {
		t.Errorf("the executive's history after the restore %+v, want the three values", hist.FactHistory)
	}
}

// TestRetractionAndPromotionKeepRestriction: a retraction by turn keeps
// the retracted fact's restriction; a promotion into a restricted fact's
// key supersedes nothing (the restricted fact stays valid for the
// executive) and reveals nothing of it to the peer.
func TestRetractionAndPromotionKeepRestriction(t *testing.T) {
	t.Run("retraction", func(t *testing.T) {
		tm := newTeam(t)
		id := tm.writeRestricted(t, "diagnosis", "zebra fever")
		tm.turn(t, tm.exec, "The diagnosis was wrong.")
		var got struct {
			Fact struct {
				IsValid      bool
				Retracted    *struct{ By string }
				RestrictedTo *struct{ MinAuthority string }
			}
		}
		tm.env.MustDo(t, tm.exec, `query($id: ID!) { fact(id: $id) { isValid retracted { by } restrictedTo { minAuthority } } }`, map[string]any{"id": id}, &got)
		if f := got.Fact; f.IsValid || f.Retracted == nil || f.RestrictedTo == nil || f.RestrictedTo.MinAuthority != "executive" {
			t.Errorf("the retracted fact %+v, want retracted and still restricted", f)
		}
		if seen := tm.peerView(t, "diagnosis", "diagnosis zebra fever", id); strings.Contains(seen, "zebra") || strings.Contains(seen, id) {
			t.Errorf("the peer reads the retracted fact: %s", seen)
		}
	})
	t.Run("promotion", func(t *testing.T) {
		tm := newTeam(t)
		id := tm.writeRestricted(t, "board.date", "March 3 zebra")
		var a struct{ AssertState struct{ ID string } }
		tm.env.MustDo(t, tm.exec, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": map[string]any{
			"subject": "board", "predicate": "venue", "object": "Room 7", "context": "t1", "epistemicStatus": "INFERENCE",
			"validity":   map[string]any{"mode": "UNTIL_CHANGED"},
			"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
		}}, &a)
		// A promotion onto the key takes the restricted fact's place, and
		// its restriction.
		var p struct {
			PromoteState struct {
				ID           string
				Supersedes   *struct{ ID string }
				RestrictedTo *struct{ MinAuthority string }
			}
		}
		tm.env.MustDo(t, tm.exec, `mutation($id: ID!) { promoteState(id: $id, decision: {reason: "settled", key: "board.date"}) { id supersedes { id } restrictedTo { minAuthority } } }`,
			map[string]any{"id": a.AssertState.ID}, &p)
		if p.PromoteState.Supersedes == nil || p.PromoteState.Supersedes.ID != id || p.PromoteState.RestrictedTo == nil {
			t.Errorf("the promoted fact %+v should supersede %s and keep its restriction", p.PromoteState, id)
		}
		if seen := tm.peerView(t, "board.date", "board date march zebra room", id); strings.Contains(seen, "zebra") || strings.Contains(seen, id) ||
			strings.Contains(seen, "Room 7") && strings.Contains(seen, "board.date") {
			t.Errorf("the peer reads the restricted fact or its successor: %s", seen)
		}
	})
}
