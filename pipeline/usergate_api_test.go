package pipeline_test

import (
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
)

// TestHumanSupersedesIntoPredecessorsMemory: a person's own token (kind
// user) that names no memory writes a successor in its predecessor's
// memory, so an executive may correct or declassify an organization fact
// from their own token; a person still creates no user memory, directly
// or by superseding their own.
func TestHumanSupersedesIntoPredecessorsMemory(t *testing.T) {
	env := apitest.New(t)
	id := apitest.Identity("acme", "cfo")
	id.Authority = "CFO"
	agent := apitest.Token(t, id)
	id.Kind, id.AgentLevel = authority.KindUser, ""
	human := apitest.Token(t, id)

	const write = `mutation($in: FactInput!) { writeFact(input: $in) { id memoryType restrictedTo { minAuthority } supersession { declassified } } }`
	env.MustDo(t, agent, write, map[string]any{"in": map[string]any{"key": "merger.codename", "value": "Quokka",
		"memoryType": "ORGANIZATIONAL", "restrictedTo": map[string]any{"minAuthority": "executive"}}}, &struct{}{})
	var out struct {
		WriteFact struct {
			MemoryType   string
			RestrictedTo *struct{ MinAuthority string }
			Supersession struct{ Declassified bool }
		}
	}
	env.MustDo(t, human, write, map[string]any{"in": map[string]any{"key": "merger.codename", "value": "Quokka",
		"supersedes": "merger.codename", "declassify": true, "restrictedTo": map[string]any{"minAuthority": "manager"}}}, &out)
	if out.WriteFact.MemoryType != "ORGANIZATIONAL" || out.WriteFact.RestrictedTo == nil ||
		out.WriteFact.RestrictedTo.MinAuthority != "manager" || !out.WriteFact.Supersession.Declassified {
		t.Errorf("declassified successor = %+v, want an organization fact restricted to managers", out.WriteFact)
	}

	for name, in := range map[string]map[string]any{
		"new user memory":              {"key": "home", "value": "Leeds"},
		"superseding a key of nothing": {"key": "home", "value": "York", "supersedes": "home"},
	} {
		if res := env.Do(t, human, write, map[string]any{"in": in}); res.Code() != "FORBIDDEN" && res.Code() != "NOT_FOUND" {
			t.Errorf("%s: %s, want FORBIDDEN or NOT_FOUND", name, res)
		}
	}
	env.MustDo(t, agent, write, map[string]any{"in": map[string]any{"key": "home", "value": "Leeds", "memoryType": "USER"}}, &struct{}{})
	if res := env.Do(t, human, write, map[string]any{"in": map[string]any{"key": "home", "value": "York", "supersedes": "home"}}); res.Code() != "FORBIDDEN" {
		t.Errorf("a person superseding their own user memory: %s, want FORBIDDEN", res)
	}
}
