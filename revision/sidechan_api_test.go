package revision_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
)

// TestStaleWriteHidesWhatCallerCannotRead: a write of a value the
// conversation replaced answers stale.replacedBy only when the caller may
// read the replacement; otherwise it answers exactly as if there were no
// newer record: a valid write.
func TestStaleWriteHidesWhatCallerCannotRead(t *testing.T) {
	execID := apitest.Identity("acme", "erin")
	execID.Authority = "executive"
	peerID := apitest.Identity("acme", "pete")
	peerID.Authority = "peer"
	for _, tc := range []struct {
		name string
		// setup makes TechStart a replaced value, GlobalTech its
		// replacement, where the peer may not read it.
		setup func(t *testing.T, env *apitest.Env, exec, other string)
	}{
		{"a restricted replacement", func(t *testing.T, env *apitest.Env, exec, _ string) {
			write(t, env, exec, map[string]any{"key": "selected_vendor", "value": "TechStart", "memoryType": "ORGANIZATIONAL",
				"restrictedTo": map[string]any{"minAuthority": "executive"}})
			turn(t, env, exec, "s1", "Correction: we are going with GlobalTech for the contract instead of TechStart.")
		}},
		{"a restricted replacement that extraction wrote", func(t *testing.T, env *apitest.Env, exec, _ string) {
			write(t, env, exec, map[string]any{"key": "selected_vendor", "value": "TechStart", "memoryType": "ORGANIZATIONAL",
				"restrictedTo": map[string]any{"minAuthority": "executive"}})
			turn(t, env, exec, "s1", "The selected vendor is GlobalTech now, not TechStart.")
		}},
		{"another user's private memory", func(t *testing.T, env *apitest.Env, _, other string) {
			write(t, env, other, map[string]any{"key": "selected_vendor", "value": "TechStart", "memoryType": "USER"})
			turn(t, env, other, "s1", "Correction: we are going with GlobalTech for the contract instead of TechStart.")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t)
			exec, peer := apitest.Token(t, execID), apitest.Token(t, peerID)
			other := apitest.Token(t, apitest.Identity("acme", "olga"))
			tc.setup(t, env, exec, other)
			var w struct {
				WriteFact struct {
					ID      string
					IsValid bool
					Stale   *struct{ Reason, ReplacedBy string }
				}
			}
			r := env.Do(t, peer, writeFact, map[string]any{"in": map[string]any{"key": "selected_vendor", "value": "TechStart", "memoryType": "ORGANIZATIONAL"}})
			r.Decode(t, &w)
			if strings.Contains(string(r.Raw), "GlobalTech") || !w.WriteFact.IsValid || w.WriteFact.Stale != nil {
				t.Errorf("the peer's write answers %s; want a valid write that names nothing hidden", r.Raw)
			}
			// The executive writes a stale value into the organization's
			// memory: the stale fact, which the peer reads, does not name
			// the restricted replacement either.
			env.Do(t, exec, writeFact, map[string]any{"in": map[string]any{"key": "selected_vendor", "value": "TechStart", "memoryType": "ORGANIZATIONAL"}})
			var h struct{ FactHistory json.RawMessage }
			env.MustDo(t, peer, history, map[string]any{"k": "selected_vendor"}, &h)
			if strings.Contains(string(h.FactHistory), "GlobalTech") {
				t.Errorf("the peer's history: %s", h.FactHistory)
			}
		})
	}
}
