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

// TestClientIDsCollideOnlyWithReadable: a client id that a fact the
// caller may not read already uses answers exactly as a fresh id: the
// write succeeds as a separate record, and reading the id back returns the
// caller's own fact. Ids still collide among records the caller can read.
func TestClientIDsCollideOnlyWithReadable(t *testing.T) {
	env := apitest.New(t)
	execID := apitest.Identity("acme", "erin")
	execID.Authority = "executive"
	peerID := apitest.Identity("acme", "pete")
	peerID.Authority = "peer"
	exec, peer := apitest.Token(t, execID), apitest.Token(t, peerID)
	const write = `mutation($in: FactInput!) { writeFact(input: $in) { id key value isValid restrictedTo { minAuthority } } }`
	const read = `query($id: ID!) { fact(id: $id) { id value } }`
	secret := env.Do(t, exec, write, map[string]any{"in": map[string]any{"id": "deal-1", "key": "deal.floor", "value": "secret floor 45k",
		"memoryType": "ORGANIZATIONAL", "restrictedTo": map[string]any{"minAuthority": "executive"}}})
	if len(secret.Errors) > 0 {
		t.Fatalf("the executive's write: %s", secret.Raw)
	}
	var sw struct{ WriteFact struct{ ID string } }
	secret.Decode(t, &sw)

	// The peer's write of a taken id and of a fresh one answer alike.
	taken := env.Do(t, peer, write, map[string]any{"in": map[string]any{"id": "deal-1", "key": "deal.note", "value": "call the client", "memoryType": "ORGANIZATIONAL"}})
	fresh := env.Do(t, peer, write, map[string]any{"in": map[string]any{"id": "deal-2", "key": "deal.note", "value": "call the client", "memoryType": "ORGANIZATIONAL"}})
	if got, want := strings.Replace(string(taken.Raw), "deal-1", "deal-X", 1), strings.Replace(string(fresh.Raw), "deal-2", "deal-X", 1); got != want {
		t.Errorf("a taken id answers %s\na fresh one %s", taken.Raw, fresh.Raw)
	}
	var back struct{ Fact struct{ ID, Value string } }
	env.MustDo(t, peer, read, map[string]any{"id": "deal-1"}, &back)
	if back.Fact.ID != "deal-1" || !strings.Contains(back.Fact.Value, "call the client") {
		t.Errorf("the peer reads back %+v, want its own fact deal-1", back.Fact)
	}

	// The executive reads its own fact by the id its write answered, and
	// by the id it chose when no fact it reads holds that id itself.
	env.MustDo(t, exec, read, map[string]any{"id": sw.WriteFact.ID}, &back)
	if !strings.Contains(back.Fact.Value, "45k") {
		t.Errorf("the executive reads back %+v, want its secret", back.Fact)
	}
	env.MustDo(t, exec, write, map[string]any{"in": map[string]any{"id": "deal-3", "key": "deal.ceiling", "value": "secret ceiling 90k",
		"memoryType": "ORGANIZATIONAL", "restrictedTo": map[string]any{"minAuthority": "executive"}}}, &struct{}{})
	env.MustDo(t, exec, read, map[string]any{"id": "deal-3"}, &back)
	if !strings.Contains(back.Fact.Value, "90k") {
		t.Errorf("the executive reads deal-3 as %+v, want its secret", back.Fact)
	}
	var none struct{ Fact *struct{ ID string } }
	env.MustDo(t, peer, read, map[string]any{"id": "deal-3"}, &none)
	if none.Fact != nil {
		t.Errorf("the peer reads deal-3 as %+v, want nothing", none.Fact)
	}
	for _, tc := range []struct {
		name, tok, id string
		in            map[string]any
		code          string
	}{
		{"a readable restricted id collides", exec, "deal-1", map[string]any{"restrictedTo": map[string]any{"minAuthority": "executive"}}, "CONFLICT"},
		{"a readable plain id collides", exec, "deal-2", nil, "CONFLICT"},
		{"a readable id of another namespace collides", exec, "deal-3", nil, "CONFLICT"},
		{"the namespace marker is not a client's", peer, sw.WriteFact.ID, nil, "BAD_USER_INPUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := map[string]any{"id": tc.id, "key": "deal.other", "value": "x", "memoryType": "ORGANIZATIONAL"}
			for k, v := range tc.in {
				in[k] = v
			}
			r := env.Do(t, tc.tok, write, map[string]any{"in": in})
			if r.Code() != tc.code {
				t.Errorf("code %q, want %q: %s", r.Code(), tc.code, r.Raw)
			}
		})
	}
}
