package pipeline_test

import (
	"go/build"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

const writeQ = `mutation($in: FactInput!) { writeFact(input: $in) { id key value restrictedTo { minAuthority roles } } }`

type written struct {
	WriteFact struct {
		ID, Key, Value string
		RestrictedTo   *struct {
			MinAuthority string
			Roles        []string
		}
	}
}

// TestSuccessorInheritsRestriction: whatever the superseding write says,
// its fact is at least as restricted as the fact it supersedes, so a
// restricted value cannot be made public by superseding it; a writer may
// add restrictions (they join).
func TestSuccessorInheritsRestriction(t *testing.T) {
	env := apitest.New(t)
	execID := apitest.Identity("acme", "cfo")
	execID.Authority = "CFO"
	peerID := apitest.Identity("acme", "peer")
	peerID.Authority = "peer"
	exec, peer := apitest.Token(t, execID), apitest.Token(t, peerID)

	cases := []struct {
		name      string
		successor map[string]any
		wantMin   string
		wantRoles []string
	}{
		{"no restriction given", map[string]any{}, "executive", nil},
		{"a looser one given", map[string]any{"restrictedTo": map[string]any{"minAuthority": "peer"}}, "executive", nil},
		{"a stricter one given", map[string]any{"restrictedTo": map[string]any{"minAuthority": "policy"}}, "policy", nil},
		{"another criterion given", map[string]any{"restrictedTo": map[string]any{"roles": []string{"CFO"}}}, "executive", []string{"CFO"}},
		{"by a correction", map[string]any{"supersessionKind": "CORRECTION"}, "executive", nil},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := "board.date." + string(rune('a'+i))
			var old written
			env.MustDo(t, exec, writeQ, map[string]any{"in": map[string]any{"key": key, "value": "March 3 zebra",
				"memoryType": "ORGANIZATIONAL", "restrictedTo": map[string]any{"minAuthority": "executive"}}}, &old)
			in := map[string]any{"key": key, "value": "March 17 quokka", "memoryType": "ORGANIZATIONAL", "supersedes": key}
			for k, v := range tc.successor {
				in[k] = v
			}
			env.Clock.Advance(time.Minute)
			var got written
			env.MustDo(t, exec, writeQ, map[string]any{"in": in}, &got)
			r := got.WriteFact.RestrictedTo
			if r == nil || r.MinAuthority != tc.wantMin || !slices.Equal(r.Roles, tc.wantRoles) {
				t.Fatalf("successor restriction %+v, want minAuthority %q roles %v", r, tc.wantMin, tc.wantRoles)
			}
			res := env.Do(t, peer, `query($k: String!) {
				currentValue(key: $k) { value }
				factHistory(key: $k) { value }
				assembleContext(input: {query: "march zebra quokka board date", budget: 2000}) { text }
			}`, map[string]any{"k": key})
			if len(res.Errors) > 0 || strings.Contains(string(res.Raw), "March") {
				t.Errorf("the peer reads the restricted chain: %s", res.Raw)
			}
		})
	}
}

// TestAuditOfWrites: the observe stage records every write in the trail
// of the facts it touched: WRITTEN for the new fact, SUPERSEDED (by the
// new fact) for the one it retired, STALE for a write stored invalid.
func TestAuditOfWrites(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	var a, b written
	env.MustDo(t, tok, writeQ, map[string]any{"in": map[string]any{"key": "office", "value": "Lyon"}}, &a)
	env.Clock.Advance(time.Minute)
	env.MustDo(t, tok, writeQ, map[string]any{"in": map[string]any{"key": "office", "value": "Lille", "supersedes": "office"}}, &b)
	type entry struct{ Action, By, Detail string }
	trail := func(id string) []entry {
		var out struct{ AuditTrail []entry }
		env.MustDo(t, tok, `query($id: ID!) { auditTrail(recordId: $id) { action by detail } }`, map[string]any{"id": id}, &out)
		return out.AuditTrail
	}
	if got, want := trail(a.WriteFact.ID), []entry{{"WRITTEN", "", ""}, {"SUPERSEDED", b.WriteFact.ID, "CHANGE (EXPLICIT_WRITE)"}}; !slices.Equal(got, want) {
		t.Errorf("trail of the retired fact: got %+v, want %+v", got, want)
	}
	if got, want := trail(b.WriteFact.ID), []entry{{"WRITTEN", "", ""}}; !slices.Equal(got, want) {
		t.Errorf("trail of the new fact: got %+v, want %+v", got, want)
	}
}

// TestFactsIsPlainStorage: the fact store never imports the packages that
// sit above it in the write path, so it cannot call back up into them.
func TestFactsIsPlainStorage(t *testing.T) {
	pkg, err := build.ImportDir("../facts", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, forbidden := range []string{"pipeline", "search", "conflicts", "revision", "assertions", "session", "contextasm", "detect"} {
		if slices.Contains(pkg.Imports, "github.com/stategraph/stategraph/"+forbidden) {
			t.Errorf("package facts imports %s", forbidden)
		}
	}
}

// TestSuccessorStaysInItsSpace: superseding never moves a fact to another
// memory. An agent whose token carries a capability (its writes default to
// capability memory) corrects an organization fact: the successor is an
// organization fact every member reads. A write that names another memory
// resolves its target there only.
func TestSuccessorStaysInItsSpace(t *testing.T) {
	env := apitest.New(t)
	agentID := apitest.Identity("acme", "bot")
	agentID.Capability = "billing"
	agent := apitest.Token(t, agentID)
	other := apitest.Token(t, apitest.Identity("acme", "carol"))
	var org written
	env.MustDo(t, other, writeQ, map[string]any{"in": map[string]any{"key": "invoice.terms", "value": "net 30", "memoryType": "ORGANIZATIONAL"}}, &org)
	env.Clock.Advance(time.Minute)

	res := env.Do(t, agent, writeQ, map[string]any{"in": map[string]any{"key": "invoice.terms", "value": "net 45", "memoryType": "USER", "supersedes": "invoice.terms"}})
	if res.Code() != "NOT_FOUND" {
		t.Errorf("a USER write superseding an organization key: %s, want NOT_FOUND", res)
	}
	res = env.Do(t, agent, writeQ, map[string]any{"in": map[string]any{"key": "invoice.terms", "value": "net 45", "memoryType": "CAPABILITY", "supersedes": org.WriteFact.ID}})
	if res.Code() != "NOT_FOUND" {
		t.Errorf("a CAPABILITY write superseding an organization fact by id: %s, want NOT_FOUND", res)
	}

	var out struct {
		WriteFact struct {
			ID, MemoryType string
			Supersedes     *struct{ ID string }
		}
	}
	env.MustDo(t, agent, `mutation($in: FactInput!) { writeFact(input: $in) { id memoryType supersedes { id } } }`,
		map[string]any{"in": map[string]any{"key": "invoice.terms", "value": "net 45", "supersedes": "invoice.terms"}}, &out)
	if out.WriteFact.MemoryType != "ORGANIZATIONAL" || out.WriteFact.Supersedes == nil || out.WriteFact.Supersedes.ID != org.WriteFact.ID {
		t.Fatalf("successor %+v, want an organization fact superseding %s", out.WriteFact, org.WriteFact.ID)
	}
	var cv struct{ CurrentValue *struct{ Value string } }
	env.MustDo(t, other, `{ currentValue(key: "invoice.terms") { value } }`, nil, &cv)
	if cv.CurrentValue == nil || cv.CurrentValue.Value != "net 45" {
		t.Errorf("another member's current value: %+v, want net 45", cv.CurrentValue)
	}
}
