package revision_test

import (
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// TestRoleRanksAlike: a role phrase ranks the same whether it is a token's
// authority or a role cited in a turn ("per the Head of Sales ..."), because
// authentication, writes and detection share one order and role table; and
// a configured role rule (--authority-roles) changes all of them at once.
func TestRoleRanksAlike(t *testing.T) {
	tests := []struct {
		name  string
		roles string // --authority-roles; "" for the defaults
		// wantOutranked: the head of sales ranks below an executive, so
		// neither their write nor a turn citing them replaces the
		// executive's fact.
		wantOutranked bool
	}{
		{"default table: a head of a function is a manager", "", true},
		{"configured: heads are executives", "Head of *=executive", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rules, err := authority.ParseRoles(tc.roles)
			if err != nil {
				t.Fatal(err)
			}
			env := apitest.New(t, func(o *server.Options) { o.AuthorityRoles = rules })
			execID := apitest.Identity("acme", "erin")
			execID.Authority = "executive"
			exec := apitest.Token(t, execID)
			headID := apitest.Identity("acme", "hank")
			headID.Authority = "Head of Sales"
			head := apitest.Token(t, headID)

			// In a token: the head of sales writes over the executive.
			first := write(t, env, exec, map[string]any{"key": "launch_date", "value": "March 3"})
			write(t, env, head, map[string]any{"key": "launch_date", "value": "March 5", "supersedes": first})
			if got := currentOf(t, env, exec, "launch_date"); (got.ID == first) != tc.wantOutranked {
				t.Fatalf("token with authority Head of Sales over an executive's fact: current %+v, want outranked %v", got, tc.wantOutranked)
			}

			// In a turn: the executive relays the head of sales.
			second := write(t, env, exec, map[string]any{"key": "renewal_price", "value": "$40,000"})
			res := turn(t, env, exec, "s1", "Per the Head of Sales, the renewal price is $45,000.")
			if len(res.Detections) == 0 {
				t.Fatalf("no detection in %+v", res)
			}
			blocked := res.Detections[0].Blocked
			if blocked != tc.wantOutranked || res.superseded(second) == tc.wantOutranked {
				t.Errorf("turn citing the Head of Sales over an executive's fact: blocked %v, superseded %v; want outranked %v (%+v)",
					blocked, res.superseded(second), tc.wantOutranked, res.Detections)
			}
		})
	}
}
