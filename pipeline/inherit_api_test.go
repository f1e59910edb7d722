package pipeline_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
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
	var out struct{ RecordTurn json.RawMessage }
	tm.env.MustDo(t, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) {
		turn { id } extracted { key value outcome reason fact { id } previous { id } }
		detections { kind superseded { id kind } blocked }
		superseded { fact { id } by { id } }
	} }`, map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "text": text}}, &out)
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
		{name: "turn extraction correction", key: "board_meeting.date", old: "March 3", query: "board meeting date march",
			secret: []string{"March", "03-03", "03-17"}, newWord: "03-17",
			succeed: func(t *testing.T, tm team, _, _ string) {
				t.Logf("turn: %s", tm.turn(t, tm.exec, "Correction: the board meeting is on March 17, not March 3."))
			}},
		{name: "turn detection", key: "kickoff_date", old: "March 3", query: "kickoff date march",
			secret: []string{"March"}, newWord: "March 10",
			succeed: func(t *testing.T, tm team, _, _ string) {
				t.Logf("turn: %s", tm.turn(t, tm.exec, "Correction: the kickoff moved to March 10."))
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
