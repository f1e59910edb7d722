package pipeline_test

import (
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
)

// TestErrorsNameOnlyWhatCallerReads: refusing a supersession never names
// an id, key or value the caller may not read, however the target is
// named.
func TestErrorsNameOnlyWhatCallerReads(t *testing.T) {
	env := apitest.New(t)
	execID := apitest.Identity("acme", "erin")
	execID.Authority = "executive"
	peerID := apitest.Identity("acme", "pete")
	peerID.Authority = "peer"
	exec, peer := apitest.Token(t, execID), apitest.Token(t, peerID)
	const write = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`
	var v1, h2 struct{ WriteFact struct{ ID string } }
	env.MustDo(t, peer, write, map[string]any{"in": map[string]any{"key": "deal.floor", "value": "30k", "memoryType": "ORGANIZATIONAL"}}, &v1)
	env.MustDo(t, exec, write, map[string]any{"in": map[string]any{"key": "deal.floor", "value": "secret floor 45k", "memoryType": "ORGANIZATIONAL",
		"supersedes": v1.WriteFact.ID, "restrictedTo": map[string]any{"minAuthority": "executive"}}}, &h2)
	for _, tc := range []struct {
		name       string
		supersedes string
	}{
		{"by id", v1.WriteFact.ID},
		{"by key", "deal.floor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, peer, write, map[string]any{"in": map[string]any{"key": "deal.floor", "value": "35k", "memoryType": "ORGANIZATIONAL", "supersedes": tc.supersedes}})
			if len(r.Errors) == 0 {
				return // the write stands beside what the peer cannot see
			}
			if strings.Contains(string(r.Raw), h2.WriteFact.ID) || strings.Contains(string(r.Raw), "45k") || r.Code() == "INTERNAL" {
				t.Errorf("the peer's error names what it may not read: %s", r.Raw)
			}
		})
	}
}

// TestReadsNameOnlyWhatCallerReads: after an executive supersedes a
// peer's fact with a restricted one, nothing the peer can ask about its
// own fact (history, the fact, lists, audit trail, conflicts) names the
// restricted successor's id or value.
func TestReadsNameOnlyWhatCallerReads(t *testing.T) {
	env := apitest.New(t)
	execID := apitest.Identity("acme", "erin")
	execID.Authority = "executive"
	peerID := apitest.Identity("acme", "pete")
	peerID.Authority = "peer"
	exec, peer := apitest.Token(t, execID), apitest.Token(t, peerID)
	const write = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`
	var v1, h2 struct{ WriteFact struct{ ID string } }
	env.MustDo(t, peer, write, map[string]any{"in": map[string]any{"key": "deal.floor", "value": "30k", "memoryType": "ORGANIZATIONAL"}}, &v1)
	env.MustDo(t, exec, write, map[string]any{"in": map[string]any{"key": "deal.floor", "value": "secret floor 45k", "memoryType": "ORGANIZATIONAL",
		"supersedes": v1.WriteFact.ID, "restrictedTo": map[string]any{"minAuthority": "executive"}}}, &h2)
	env.MustDo(t, exec, write, map[string]any{"in": map[string]any{"key": "deal.ceiling", "value": "secret ceiling 90k", "memoryType": "ORGANIZATIONAL",
		"restrictedTo": map[string]any{"minAuthority": "executive"}}}, &struct{}{})
	vars := map[string]any{"id": v1.WriteFact.ID}
	for _, tc := range []struct{ name, query string }{
		{"factHistory", `{ factHistory(key: "deal.floor") { id value isValid supersededAt supersededBy { id value } supersession { reason } } }`},
		{"fact", `query($id: ID!) { fact(id: $id) { id value supersededBy { id } derivedFacts { id } } }`},
		{"facts", `{ facts(filter: {validity: ALL}, first: 50) { edges { cursor node { id value } } pageInfo { endCursor hasNextPage } } }`},
		{"auditTrail", `query($id: ID!) { auditTrail(recordId: $id) { id action record by detail } }`},
		{"conflicts", `{ conflicts(first: 50) { edges { cursor node { id } } } }`},
		{"currentValue", `{ currentValue(key: "deal.floor") { id value } }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := map[string]any(nil)
			if strings.Contains(tc.query, "$id") {
				v = vars
			}
			r := env.Do(t, peer, tc.query, v)
			raw := string(r.Raw)
			if strings.Contains(raw, h2.WriteFact.ID) || strings.Contains(raw, "45k") || strings.Contains(raw, "90k") || strings.Contains(raw, "ceiling") {
				t.Errorf("the peer reads what it may not: %s", raw)
			}
			if r.Code() == "INTERNAL" {
				t.Errorf("internal error: %s", raw)
			}
		})
	}
}
