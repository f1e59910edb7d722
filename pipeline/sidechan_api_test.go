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
