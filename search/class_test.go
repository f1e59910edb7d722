package search_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// TestStatsPerReadClass: the statistics of restricted facts are kept per
// read class, so a reader who may not read a class gets statistics with
// none of its documents (only their count, Hidden), now and in views of
// the past, through writes, supersessions and forgetting.
func TestStatsPerReadClass(t *testing.T) {
	st, ix, clock, p := pipelineWorld(t)
	ctx := caller(t)
	exec := &permissions.Restriction{MinAuthority: "executive"}
	hr := &permissions.Restriction{Departments: []string{"hr"}}
	write := func(key, value string, r *permissions.Restriction, supersedes string) {
		t.Helper()
		clock.Advance(time.Minute)
		if _, err := p.Write(ctx, facts.WriteInput{Key: key, Value: json.RawMessage(`"` + value + `"`), MemoryType: facts.MemoryOrganizational, RestrictedTo: r, Supersedes: supersedes}); err != nil {
			t.Fatal(err)
		}
	}
	write("plain_a", "falcon green", nil, "")
	write("plain_b", "heron blue", nil, "")
	write("secret_a", "falcon secret deal", exec, "")
	write("secret_b", "falcon payroll", hr, "")
	before := clock.Now()
	// Tightened: the plain fact's document moves to the executives' class.
	write("plain_b", "heron gone", exec, "plain_b")

	falcon := lexical.Terms("falcon")[0]
	all := func(*permissions.Restriction) bool { return true }
	none := func(*permissions.Restriction) bool { return false }
	onlyExec := func(r *permissions.Restriction) bool { return r.MinAuthority == "executive" }
	for _, tc := range []struct {
		name         string
		view         temporal.View
		rd           search.Readable
		docs, hidden int
		df           int
	}{
		{"nil reads all", temporal.View{}, nil, 4, 0, 3},
		{"reads all", temporal.View{}, all, 4, 0, 3},
		{"reads none", temporal.View{}, none, 1, 3, 1},
		{"reads one class", temporal.View{}, onlyExec, 3, 1, 2},
		{"past: reads none", temporal.View{KnownAt: &before}, none, 2, 2, 1},
		{"past: reads one class", temporal.View{KnownAt: &before}, onlyExec, 3, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			part, err := tenancy.FromContext(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var s search.Stats
			err = st.View(ctx, part, func(tx *store.Txn) (err error) {
				s, err = ix.Stats(tx, part.Spaces(), []string{falcon}, tc.view, tc.rd)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if s.Docs != tc.docs || s.Hidden != tc.hidden || s.DF[falcon] != tc.df {
				t.Errorf("docs %d hidden %d df %d; want %d %d %d", s.Docs, s.Hidden, s.DF[falcon], tc.docs, tc.hidden, tc.df)
			}
		})
	}
}
