package contextasm_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

// restricted is the read restriction of the executive's secrets.
var restricted = map[string]any{"minAuthority": "executive"}

// orgPair returns tokens of an executive and a peer of one organization.
func orgPair(t *testing.T) (exec, peer string) {
	t.Helper()
	e := apitest.Identity("acme", "erin")
	e.Authority = "executive"
	p := apitest.Identity("acme", "pete")
	p.Authority = "peer"
	return apitest.Token(t, e), apitest.Token(t, p)
}

// TestWithheldIgnoresQuery: withheld counts what the caller may not read
// in its partitions at that time, whatever the query's words.
func TestWithheldIgnoresQuery(t *testing.T) {
	env := apitest.New(t)
	exec, peer := orgPair(t)
	fact(t, env, exec, map[string]any{"key": "launch.codename", "value": "the launch codename is Nightingale",
		"memoryType": "ORGANIZATIONAL", "restrictedTo": restricted})
	fact(t, env, peer, map[string]any{"key": "office.city", "value": "the office is in Lyon", "memoryType": "ORGANIZATIONAL"})
	padOrg(t, env, peer, 250)
	for _, tc := range []struct {
		name, query string
	}{
		{"names the secret", "nightingale codename"},
		{"names nothing", "weather today"},
		{"names the peer's fact", "office Lyon"},
		{"empty", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := assemble(t, env, peer, map[string]any{"query": tc.query, "budget": 2000})
			if got.Withheld != 1 {
				t.Errorf("withheld = %d, want 1 (the one restricted fact)", got.Withheld)
			}
		})
	}
	// A view of the past counts from the postings that hold in it.
	known := env.Clock.Now().Format(time.RFC3339Nano)
	env.Clock.Advance(time.Hour)
	for _, q := range []string{"nightingale codename", "weather today"} {
		if got := assemble(t, env, peer, map[string]any{"query": q, "budget": 2000, "knownAt": known}); got.Withheld != 1 {
			t.Errorf("known at %s, query %q: withheld = %d, want 1", known, q, got.Withheld)
		}
	}
	if got := assemble(t, env, exec, map[string]any{"query": "weather", "budget": 2000}); got.Withheld != 0 {
		t.Errorf("the executive's withheld = %d, want 0", got.Withheld)
	}
}

// TestHiddenWordsDoNotRank: a reader's assembled context, scores included,
// is byte-identical whether or not a fact it may not read holds a word of
// its query: hidden facts are not in the reader's ranking statistics.
func TestHiddenWordsDoNotRank(t *testing.T) {
	run := func(t *testing.T, secret string) []byte {
		t.Helper()
		env := apitest.New(t)
		exec, peer := orgPair(t)
		padOrg(t, env, peer, 250)
		for i, v := range []string{"project falcon owner is Dana", "falcon budget review on Friday", "the office is in Lyon", "status meeting moved to Monday"} {
			fact(t, env, peer, map[string]any{"id": "mine-" + string(rune('a'+i)), "key": "note." + string(rune('a'+i)), "value": v, "memoryType": "ORGANIZATIONAL"})
		}
		fact(t, env, exec, map[string]any{"id": "secret-1", "key": "board.secret", "value": secret,
			"memoryType": "ORGANIZATIONAL", "restrictedTo": restricted})
		var out json.RawMessage
		env.MustDo(t, peer, assembleQ, map[string]any{"in": map[string]any{"query": "falcon owner", "budget": 400}}, &out)
		return out
	}
	// Both worlds hold one hidden fact of the same length; only one holds
	// the guessed word.
	with := run(t, "acquisition of falcon confirmed in writing")
	without := run(t, "acquisition of heron confirmed in writing")
	if string(with) != string(without) {
		t.Errorf("the peer's context depends on a hidden word:\nwith:    %s\nwithout: %s", with, without)
	}
}

// padOrg writes n plain facts of the caller's organization in one batch, so
// that the partition is larger than contextasm.SmallPartition and only
// relevant facts are candidates.
func padOrg(t *testing.T, env *apitest.Env, tok string, n int) {
	t.Helper()
	in := make([]map[string]any, n)
	for i := range in {
		in[i] = map[string]any{"key": fmt.Sprintf("filler.item%d", i), "value": fmt.Sprintf("warehouse shelf %d holds spare parts", i), "memoryType": "ORGANIZATIONAL"}
	}
	var out struct{ WriteFacts []struct{ ID string } }
	env.MustDo(t, tok, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": in}, &out)
}

// TestHiddenPredecessorKeepsTurns: a reader's own turn is not left out of
// its context because a fact it may not read held the turn's value, even
// when that fact lies in the chain of facts the reader reads.
func TestHiddenPredecessorKeepsTurns(t *testing.T) {
	env := apitest.New(t)
	exec, peer := orgPair(t)
	fact(t, env, exec, map[string]any{"key": "launch.venue", "value": "the launch venue is Pier Seven", "memoryType": "ORGANIZATIONAL",
		"restrictedTo": restricted})
	env.Clock.Advance(time.Minute)
	recordTurn(t, env, exec, "x1", "USER", "Correction: the launch venue is the Grand Hall, not Pier Seven.")
	env.Clock.Advance(time.Minute)
	var cur struct{ CurrentValue *struct{ ID, Value string } }
	env.MustDo(t, peer, `{ currentValue(key: "launch.venue") { id value } }`, nil, &cur)
	if cur.CurrentValue != nil {
		// Whatever the correction wrote that the peer may read is
		// superseded once more, so that the hidden fact lies inside the
		// chain the peer reads.
		fact(t, env, exec, map[string]any{"key": "launch.venue", "value": "the launch venue is the Opera House", "memoryType": "ORGANIZATIONAL",
			"supersedes": cur.CurrentValue.ID})
		env.Clock.Advance(time.Minute)
	}
	turn := recordTurn(t, env, peer, "p1", "USER", "My invitation says Pier Seven, I will be there early.")
	env.Clock.Advance(time.Minute)
	got := assemble(t, env, peer, map[string]any{"query": "launch venue", "budget": 2000, "sessionId": "p1"})
	if r := got.excluded(turn); r != "" {
		t.Errorf("the peer's own turn is excluded (%s) because of a fact it may not read:\n%s", r, got.Text)
	}
}
