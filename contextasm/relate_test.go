package contextasm_test

import (
	"math/rand"
	"reflect"
	"slices"
	"testing"
	"time"

	pack "github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/contextasm"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func keptFact(id, key, value string) contextasm.FactCandidate {
	return contextasm.FactCandidate{
		Fact:    pack.Fact{ID: id, Key: key, Value: value, Scope: pack.ScopeGlobal, RecordedAt: t0},
		Visible: true, Valid: true, PredecessorVisible: true,
	}
}

func turn(id, text string, at time.Duration) contextasm.TurnCandidate {
	return contextasm.TurnCandidate{Turn: pack.Turn{ID: id, Speaker: "USER", Text: text, At: t0.Add(at)}}
}

func ids[T any](xs []T, id func(T) string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

func excl(kind pack.Kind, id string, r pack.Reason) pack.Exclusion {
	return pack.Exclusion{ID: id, Kind: kind, Reason: r}
}

// TestRelate checks each rule of Relate on small candidate sets.
func TestRelate(t *testing.T) {
	with := func(c contextasm.FactCandidate, f func(*contextasm.FactCandidate)) contextasm.FactCandidate {
		f(&c)
		return c
	}
	tests := []struct {
		name         string
		q            contextasm.Query
		sets         []contextasm.Candidates
		wantFacts    []string
		wantTurns    []string
		wantWork     []string
		wantEnv      []pack.Attr
		wantExcluded []pack.Exclusion
		wantWithheld int
	}{
		{
			name: "withheld facts are never named; withheld is what the sources counted, whatever they met",
			sets: []contextasm.Candidates{
				{Facts: []contextasm.FactCandidate{
					{Fact: pack.Fact{ID: "F-secret"}},
					keptFact("F-open", "k", "v"),
				}},
				{Facts: []contextasm.FactCandidate{{Fact: pack.Fact{ID: "F-secret"}}}, Withheld: 2},
			},
			wantFacts:    []string{"F-open"},
			wantWithheld: 2,
		},
		{
			name: "not valid in the view: superseded or expired",
			sets: []contextasm.Candidates{{Facts: []contextasm.FactCandidate{
				with(keptFact("F-old", "k", "v"), func(c *contextasm.FactCandidate) { c.Valid, c.Superseded = false, true }),
				with(keptFact("F-ended", "k2", "v"), func(c *contextasm.FactCandidate) { c.Valid = false }),
			}}},
			wantExcluded: []pack.Exclusion{excl(pack.KindFact, "F-ended", pack.ReasonExpired), excl(pack.KindFact, "F-old", pack.ReasonSuperseded)},
		},
		{
			name: "session facts of another session and hypothetical facts for a real query are out of scope",
			q:    contextasm.Query{Text: "the room", SessionID: "s1"},
			sets: []contextasm.Candidates{{Facts: []contextasm.FactCandidate{
				with(keptFact("F-s1", "room", "4"), func(c *contextasm.FactCandidate) { c.Fact.Scope, c.ScopeID = pack.ScopeSession, "s1" }),
				with(keptFact("F-s2", "room", "9"), func(c *contextasm.FactCandidate) { c.Fact.Scope, c.ScopeID = pack.ScopeSession, "s2" }),
				with(keptFact("F-hyp", "vendor", "Globex"), func(c *contextasm.FactCandidate) { c.Fact.Scope = pack.ScopeHypothetical }),
				with(keptFact("F-draft", "email", "Dear"), func(c *contextasm.FactCandidate) { c.Fact.Scope = pack.ScopeDraft }),
			}}},
			wantFacts: []string{"F-s1"},
			wantExcluded: []pack.Exclusion{
				excl(pack.KindFact, "F-draft", pack.ReasonOutOfScope), excl(pack.KindFact, "F-hyp", pack.ReasonOutOfScope),
				excl(pack.KindFact, "F-s2", pack.ReasonOutOfScope),
			},
		},
		{
			name:      "hypothetical facts answer a hypothetical query",
			q:         contextasm.Query{Text: "what if we switch vendor"},
			sets:      []contextasm.Candidates{{Facts: []contextasm.FactCandidate{with(keptFact("F-hyp", "vendor", "Globex"), func(c *contextasm.FactCandidate) { c.Fact.Scope = pack.ScopeHypothetical })}}},
			wantFacts: []string{"F-hyp"},
		},
		{
			name: "a kept fact's predecessor is superseded, or not named when hidden",
			sets: []contextasm.Candidates{{Facts: []contextasm.FactCandidate{
				with(keptFact("F-new", "k", "new"), func(c *contextasm.FactCandidate) { c.Supersedes = "F-old" }),
				with(keptFact("F-open", "s", "March"), func(c *contextasm.FactCandidate) { c.Supersedes, c.PredecessorVisible = "F-secret", false }),
			}}},
			wantFacts:    []string{"F-new", "F-open"},
			wantExcluded: []pack.Exclusion{excl(pack.KindFact, "F-old", pack.ReasonSuperseded)},
		},
		{
			name: "a predecessor that is a candidate keeps its own verdict",
			q:    contextasm.Query{Text: "budget"},
			sets: []contextasm.Candidates{
				{Facts: []contextasm.FactCandidate{with(keptFact("F-new", "k", "new"), func(c *contextasm.FactCandidate) { c.Supersedes = "F-old" })}},
				{Facts: []contextasm.FactCandidate{with(keptFact("F-old", "k", "old"), func(c *contextasm.FactCandidate) { c.Valid = false })}},
			},
			wantFacts:    []string{"F-new"},
			wantExcluded: []pack.Exclusion{excl(pack.KindFact, "F-old", pack.ReasonExpired)},
		},
		{
			name: "fresh environment entries replace stored ones of the same key",
			sets: []contextasm.Candidates{
				{Environment: []contextasm.EnvCandidate{{Attr: pack.Attr{Key: "weather.temp", Value: "old"}}, {Attr: pack.Attr{Key: "location", Value: "Paris"}}},
					Excluded: []pack.Exclusion{excl(pack.KindEnvironment, "status", pack.ReasonExpired)}},
				{Environment: []contextasm.EnvCandidate{{Attr: pack.Attr{Key: "weather.temp", Value: "12C"}, Fresh: true}}},
			},
			wantEnv:      []pack.Attr{{Key: "location", Value: "Paris"}, {Key: "weather.temp", Value: "12C"}},
			wantExcluded: []pack.Exclusion{excl(pack.KindEnvironment, "status", pack.ReasonExpired)},
		},
		{
			name: "draft items are out of scope for a real query",
			q:    contextasm.Query{Text: "vendor", SessionID: "s1"},
			sets: []contextasm.Candidates{{Items: []contextasm.ItemCandidate{
				{Item: pack.WorkItem{ID: "W-goal", Key: "goal", Value: "choose the vendor", ItemType: pack.ItemObjective, Scope: pack.ScopeGlobal}},
				{Item: pack.WorkItem{ID: "W-draft", Key: "email", Value: "Dear vendor", ItemType: pack.ItemArtifact, Scope: pack.ScopeDraft}},
			}}},
			wantWork:     []string{"W-goal"},
			wantExcluded: []pack.Exclusion{excl(pack.KindWorkItem, "W-draft", pack.ReasonOutOfScope)},
		},
		{
			name: "turns: retired values, history of a current value, asides, questions, expiry, marks",
			q:    contextasm.Query{Text: "launch", SessionID: "s1"},
			sets: []contextasm.Candidates{
				{Turns: []contextasm.TurnCandidate{
					turn("T-1", "Remember, the launch is on Tuesday.", 1*time.Minute),
					turn("T-2", "Hold on - quick aside about lunch.", 2*time.Minute),
					turn("T-3", "Pizza is fine.", 3*time.Minute),
					turn("T-4", "Back to the launch plan.", 4*time.Minute),
					turn("T-5", "When is the launch?", 5*time.Minute),
					{Turn: pack.Turn{ID: "T-6", Text: "The venue is booked.", At: t0.Add(6 * time.Minute)}, Expired: true},
					{Turn: pack.Turn{ID: "T-7", Text: "The owner is Bob.", At: t0.Add(7 * time.Minute)}, Superseded: true},
					{Turn: pack.Turn{ID: "T-8", Text: "Maybe the launch could be in Paris.", At: t0.Add(8 * time.Minute)}, Scope: pack.ScopeHypothetical},
					turn("T-9", "The team is ready for the launch.", 9*time.Minute),
				}},
				{
					Facts:   []contextasm.FactCandidate{keptFact("F-day", "launch_day", "Thursday")},
					Retired: []contextasm.Retired{{ID: "F-day-old", Value: "Tuesday", New: "Thursday", At: t0}},
				},
			},
			wantFacts: []string{"F-day"},
			wantTurns: []string{"T-4", "T-9"},
			wantExcluded: []pack.Exclusion{
				excl(pack.KindTurn, "T-1", pack.ReasonSuperseded), excl(pack.KindTurn, "T-2", pack.ReasonOutOfScope),
				excl(pack.KindTurn, "T-3", pack.ReasonOutOfScope), excl(pack.KindTurn, "T-5", pack.ReasonOutOfScope),
				excl(pack.KindTurn, "T-6", pack.ReasonExpired), excl(pack.KindTurn, "T-7", pack.ReasonSuperseded),
				excl(pack.KindTurn, "T-8", pack.ReasonOutOfScope),
			},
		},
		{
			name: "a retired value a current fact holds again does not exclude a turn",
			q:    contextasm.Query{Text: "launch", SessionID: "s1"},
			sets: []contextasm.Candidates{{
				Facts:   []contextasm.FactCandidate{keptFact("F-day", "launch_day", "Tuesday")},
				Retired: []contextasm.Retired{{ID: "F-day-0", Value: "Tuesday", New: "Thursday", At: t0}},
				Turns:   []contextasm.TurnCandidate{turn("T-1", "The launch is on Tuesday.", time.Minute)},
			}},
			wantFacts: []string{"F-day"},
			wantTurns: []string{"T-1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := contextasm.Relate(tc.q, tc.sets...)
			if g := ids(got.Facts, func(f pack.Fact) string { return f.ID }); !slices.Equal(g, orEmpty(tc.wantFacts)) {
				t.Errorf("facts = %v, want %v", g, tc.wantFacts)
			}
			if g := ids(got.Turns, func(x pack.Turn) string { return x.ID }); !slices.Equal(g, orEmpty(tc.wantTurns)) {
				t.Errorf("turns = %v, want %v", g, tc.wantTurns)
			}
			if g := ids(got.Working, func(x pack.WorkItem) string { return x.ID }); !slices.Equal(g, orEmpty(tc.wantWork)) {
				t.Errorf("working = %v, want %v", g, tc.wantWork)
			}
			if tc.wantEnv != nil && !reflect.DeepEqual(got.Environment, tc.wantEnv) {
				t.Errorf("environment = %v, want %v", got.Environment, tc.wantEnv)
			}
			if !slices.Equal(got.Excluded, tc.wantExcluded) {
				t.Errorf("excluded = %v, want %v", got.Excluded, tc.wantExcluded)
			}
			if got.Withheld != tc.wantWithheld {
				t.Errorf("withheld = %d, want %d", got.Withheld, tc.wantWithheld)
			}
		})
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestRelateOrder relates the same candidate sets in many orders, each
// set's records shuffled too: the result never changes.
func TestRelateOrder(t *testing.T) {
	q := contextasm.Query{Text: "launch budget", SessionID: "s1"}
	sets := []contextasm.Candidates{
		{Facts: []contextasm.FactCandidate{
			keptFact("F-1", "launch_day", "Thursday"), {Fact: pack.Fact{ID: "F-2"}},
			func() contextasm.FactCandidate {
				c := keptFact("F-3", "budget", "$120,000")
				c.Supersedes = "F-0"
				return c
			}(),
		}, Retired: []contextasm.Retired{{ID: "F-0", Value: "$150,000", New: "$120,000", At: t0}, {ID: "F-9", Value: "Tuesday", New: "Thursday", At: t0}}},
		{Turns: []contextasm.TurnCandidate{
			turn("T-1", "The budget is $150,000.", time.Minute), turn("T-2", "Launch is Tuesday.", 2*time.Minute),
			turn("T-3", "Hold on - quick aside.", 3*time.Minute), turn("T-4", "Back to the launch.", 4*time.Minute),
			turn("T-5", "The launch budget is tight.", 5*time.Minute),
		}, Items: []contextasm.ItemCandidate{
			{Item: pack.WorkItem{ID: "W-1", Key: "goal", Value: "launch", ItemType: pack.ItemObjective}},
			{Item: pack.WorkItem{ID: "W-2", Key: "note", Value: "budget review", ItemType: pack.ItemContext}},
		}},
		{Environment: []contextasm.EnvCandidate{{Attr: pack.Attr{Key: "now", Value: "x"}}, {Attr: pack.Attr{Key: "a.b", Value: "1"}, Fresh: true}},
			Excluded: []pack.Exclusion{excl(pack.KindWorkItem, "W-9", pack.ReasonExpired)}, Notes: []string{"b: down", "a: slow"}},
	}
	want := contextasm.Relate(q, sets...)
	rng := rand.New(rand.NewSource(5))
	for range 200 {
		perm := make([]contextasm.Candidates, len(sets))
		for i, j := range rng.Perm(len(sets)) {
			c := sets[j]
			c.Facts, c.Turns, c.Items = slices.Clone(c.Facts), slices.Clone(c.Turns), slices.Clone(c.Items)
			c.Retired, c.Environment = slices.Clone(c.Retired), slices.Clone(c.Environment)
			rng.Shuffle(len(c.Facts), func(a, b int) { c.Facts[a], c.Facts[b] = c.Facts[b], c.Facts[a] })
			rng.Shuffle(len(c.Turns), func(a, b int) { c.Turns[a], c.Turns[b] = c.Turns[b], c.Turns[a] })
			rng.Shuffle(len(c.Items), func(a, b int) { c.Items[a], c.Items[b] = c.Items[b], c.Items[a] })
			rng.Shuffle(len(c.Retired), func(a, b int) { c.Retired[a], c.Retired[b] = c.Retired[b], c.Retired[a] })
			rng.Shuffle(len(c.Environment), func(a, b int) { c.Environment[a], c.Environment[b] = c.Environment[b], c.Environment[a] })
			perm[i] = c
		}
		got := contextasm.Relate(q, perm...)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("relate depends on order:\ngot  %+v\nwant %+v", got, want)
		}
	}
}

func TestInvalidated(t *testing.T) {
	tests := []struct {
		value string
		want  bool
	}{
		{"[INVALIDATED - was based on wrong data] $50,000", true},
		{"  [invalid] x", true},
		{"[Superseded by the March plan]", true},
		{"[VOID", true},
		{"[VOI", false},
		{"$50,000 [INVALIDATED]", false},
		{"", false},
		{"日本語のテキストはとても長いですがマーカーではありません", false},
	}
	for _, tc := range tests {
		if got := contextasm.Invalidated(tc.value); got != tc.want {
			t.Errorf("Invalidated(%q) = %v, want %v", tc.value, got, tc.want)
		}
	}
}

// TestRelateAssertions checks the assertion rules of Relate: ended
// assertions are excluded with their reason, active ones of another
// context than the session are out of scope, the rest are scored against
// the query, whatever the order of the candidates and however often one is
// met.
func TestRelateAssertions(t *testing.T) {
	st := func(id, subject, context, ended string) contextasm.AssertionCandidate {
		return contextasm.AssertionCandidate{
			Assertion: pack.Assertion{ID: id, Subject: subject, Predicate: "location", Object: "Room#7", Status: "INFERENCE", At: t0},
			Context:   context, Ended: ended,
		}
	}
	all := []contextasm.AssertionCandidate{
		st("ST-active", "printer", "s1", ""),
		st("ST-named", "Entity#42", "s1", ""),
		st("ST-other", "Entity#42", "s2", ""),
		st("ST-expired", "Entity#42", "s1", "EXPIRED"),
		st("ST-revoked", "Entity#42", "s1", "REVOKED"),
		st("ST-promoted", "Entity#42", "s1", "PROMOTED"),
	}
	via := st("ST-via", "badge", "thread-9", "")
	via.Session = "s1"
	all = append(all, via, all[0]) // ST-active met twice
	tests := []struct {
		name     string
		session  string
		kept     []string
		excluded []pack.Exclusion
	}{
		{"session s1", "s1", []string{"ST-active", "ST-named", "ST-via"}, []pack.Exclusion{
			excl(pack.KindAssertion, "ST-expired", pack.ReasonExpired),
			excl(pack.KindAssertion, "ST-other", pack.ReasonOutOfScope),
			excl(pack.KindAssertion, "ST-promoted", pack.ReasonSuperseded),
			excl(pack.KindAssertion, "ST-revoked", pack.ReasonSuperseded),
		}},
		{"no session", "", []string{"ST-active", "ST-named", "ST-other", "ST-via"}, []pack.Exclusion{
			excl(pack.KindAssertion, "ST-expired", pack.ReasonExpired),
			excl(pack.KindAssertion, "ST-promoted", pack.ReasonSuperseded),
			excl(pack.KindAssertion, "ST-revoked", pack.ReasonSuperseded),
		}},
	}
	rng := rand.New(rand.NewSource(5))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := contextasm.Query{Text: "where is Entity#42", Terms: contextasm.QueryTerms("where is Entity#42"), SessionID: tc.session}
			var first contextasm.Related
			for i := range 5 {
				cands := slices.Clone(all)
				rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
				r := contextasm.Relate(q, contextasm.Candidates{Assertions: cands[:3]}, contextasm.Candidates{Assertions: cands[3:]})
				if got := ids(r.Assertions, func(a pack.Assertion) string { return a.ID }); !reflect.DeepEqual(got, tc.kept) {
					t.Fatalf("kept = %v, want %v", got, tc.kept)
				}
				if !reflect.DeepEqual(r.Excluded, tc.excluded) {
					t.Fatalf("excluded = %v, want %v", r.Excluded, tc.excluded)
				}
				for _, a := range r.Assertions {
					if named := a.Subject == "Entity#42"; named != (a.Score > 0) {
						t.Errorf("%s scored %v against a query naming Entity#42", a.ID, a.Score)
					}
				}
				if i == 0 {
					first = r
				} else if !reflect.DeepEqual(r.Assertions, first.Assertions) {
					t.Fatalf("the order of the candidates changed the result: %+v, then %+v", first.Assertions, r.Assertions)
				}
			}
		})
	}
}
