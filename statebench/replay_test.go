package statebench_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/statebench"
)

// replayOn replays the timelines of path on a fresh server whose clock and
// ids the runner controls, as the loopback server of `stategraph
// statebench` is, and returns the result with the server.
func replayOn(t *testing.T, path string) (statebench.Result, *apitest.Env) {
	t.Helper()
	var gen *ids.Generator
	env := apitest.New(t, func(o *server.Options) {
		gen = ids.Seeded(o.Clock, 0)
		o.IDs = gen
	})
	tls, err := statebench.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := statebench.Server{Client: &statebench.Client{URL: env.URL + "/graphql"}, Clock: env.Clock, Reseed: gen.Reseed}
	res, err := statebench.Run(context.Background(), []statebench.Server{srv}, tls, statebench.Options{
		Budget: 2000, RunID: "run", Seed: 1,
		Mint: func(id authority.Identity) (string, error) { return apitest.Token(t, id), nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings: %q", res.Warnings)
	}
	return res, env
}

// TestReplayOnTheTimelinesClock replays a timeline of March 2025: every
// context's environment gives the query's own date, weekday and time,
// never the server clock's, the wall clock's or statebench.ReplayTime's;
// what an event writes is valid and recorded at the event's time; and a
// second replay makes the same ids, without renaming them.
func TestReplayOnTheTimelinesClock(t *testing.T) {
	path := filepath.Join("testdata", "clock2025.jsonl")
	res, env := replayOn(t, path)
	if len(res.Queries) != 2 {
		t.Fatalf("%d queries, want 2", len(res.Queries))
	}
	env2025 := func(q statebench.QueryResult) string {
		_, after, _ := strings.Cut(q.Context, "## Environment\n")
		section, _, _ := strings.Cut(after, "\n## ")
		return section
	}
	tests := []struct {
		query int
		env   []string
		hits  int
	}{
		{0, []string{"- date: 2025-03-14 (Fri)", "- now: 2025-03-14T09:15:00Z", "- location: Lisbon office", "- status: in the venue walkthrough"}, 1},
		{1, []string{"- date: 2025-03-17 (Mon)", "- now: 2025-03-17T10:30:00Z", "- location: Lisbon office", "- status: in the venue walkthrough"}, 1},
	}
	foreign := []string{
		time.Now().UTC().Format("2006-01-02"),       // the wall clock's day
		statebench.ReplayTime.Format("2006-01-02"),  // the runner's fallback
		apitest.Start.Format("2006-01-02"), "2026-", // the server's own clock
	}
	for _, tc := range tests {
		q := res.Queries[tc.query]
		section := env2025(q)
		for _, want := range tc.env {
			if !strings.Contains(section, want+"\n") && !strings.HasSuffix(section, want) {
				t.Errorf("query %d: environment lacks %q:\n%s", tc.query, want, section)
			}
		}
		for _, bad := range foreign {
			if strings.Contains(q.Context, bad) {
				t.Errorf("query %d: context holds %q, a time not the timeline's:\n%s", tc.query, bad, q.Context)
			}
		}
		if len(q.Hits) != tc.hits || len(q.Violations) != 0 {
			t.Errorf("query %d: hits %q, violations %q:\n%s", tc.query, q.Hits, q.Violations, q.Context)
		}
	}
	// On the timeline's clock, the turn and the working-set item of
	// 2025-03-14 have expired by 2025-03-17 (their default 24 h lifetime).
	expired := 0
	var ex []struct{ ID, Kind, Reason string }
	if err := json.Unmarshal(res.Queries[1].Excluded, &ex); err != nil {
		t.Fatal(err)
	}
	for _, e := range ex {
		if e.Reason == "EXPIRED" && (e.Kind == "TURN" || e.Kind == "WORK_ITEM") {
			expired++
		}
	}
	if expired != 2 {
		t.Errorf("query 1 excluded %+v; want the turn and the item of 2025-03-14 EXPIRED", ex)
	}

	// What the events wrote is valid and recorded at their times.
	tok := apitest.Token(t, authority.Identity{Org: "run-CLK-1", UserID: "ada", Authority: "manager", Kind: authority.KindAgent, AgentLevel: authority.AgentMaster})
	var out struct {
		Facts struct {
			Edges []struct {
				Node struct{ ID, Key, ValidFrom, RecordedAt string }
			}
		}
	}
	env.MustDo(t, tok, `{ facts(filter: {validity: ALL}) { edges { node { id key validFrom recordedAt } } } }`, nil, &out)
	want := map[string][2]string{ // key -> validFrom, recordedAt of the last version
		"launch_day":   {"2025-03-10T09:00:00Z", "2025-03-14T09:00:00Z"},
		"launch_venue": {"2025-03-17T10:00:00Z", "2025-03-17T10:00:00Z"},
	}
	got := map[string][2]string{}
	var venueFirst [2]string
	for _, e := range out.Facts.Edges {
		n := e.Node
		if n.Key == "launch_venue" && got[n.Key] != ([2]string{}) {
			venueFirst = got[n.Key]
		}
		got[n.Key] = [2]string{n.ValidFrom, n.RecordedAt}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: validFrom, recordedAt = %v, want %v", k, got[k], w)
		}
	}
	if w := [2]string{"2025-03-14T09:10:00Z", "2025-03-14T09:10:00Z"}; venueFirst != w {
		t.Errorf("first launch_venue: validFrom, recordedAt = %v, want %v", venueFirst, w)
	}

	// The ids the server made carry the time of their event.
	for i, want := range []time.Time{time.Date(2025, 3, 14, 9, 5, 0, 0, time.UTC), time.Date(2025, 3, 17, 10, 20, 0, 0, time.UTC)} {
		id, err := ulid.ParseStrict(strings.TrimPrefix(res.Turns[i].ID, "T-"))
		if err != nil {
			t.Fatalf("turn %d id %q: %v", i, res.Turns[i].ID, err)
		}
		if got := ulid.Time(id.Time()); !got.Equal(want) {
			t.Errorf("turn %d id %s carries %v, want the turn's time %v", i, res.Turns[i].ID, got.UTC(), want)
		}
	}

	// A second replay on another server makes the same ids: the output
	// is the same bytes, with the server's ids in it.
	again, _ := replayOn(t, path)
	a, _ := json.Marshal([]any{res.Queries, res.Turns})
	b, _ := json.Marshal([]any{again.Queries, again.Turns})
	if string(a) != string(b) {
		t.Errorf("two replays differ:\n%s\n%s", a, b)
	}
	if !regexp.MustCompile(`"T-[0-9A-HJKMNP-TV-Z]{26}"`).Match(a) || !regexp.MustCompile(`"W-[0-9A-HJKMNP-TV-Z]{26}"`).Match(a) {
		t.Errorf("the output holds no server id:\n%s", a)
	}
}
