package assemble_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/tokens"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

var _ assemble.Counter = (*tokens.Counter)(nil)

var t0 = time.Date(2025, 11, 27, 16, 0, 0, 0, time.UTC)

func newCounter(tb testing.TB) *tokens.Counter {
	tb.Helper()
	c, err := tokens.New()
	if err != nil {
		tb.Fatalf("tokens.New: %v", err)
	}
	return c
}

func identity() assemble.Identity {
	return assemble.Identity{
		UserID: "u1", Name: "William", Organization: "Enterprise Solutions",
		Authority: "Vendor Manager", Department: "Procurement",
		Permissions: []string{"read", "approve", "read"},
		Attributes:  []assemble.Attr{{Key: "communication_style", Value: "concise"}},
	}
}

func env() []assemble.Attr {
	return []assemble.Attr{{Key: "timezone", Value: "UTC"}, {Key: "now", Value: "2025-11-27T16:00:00Z"}}
}

// fullInput exercises every kind of record once.
func fullInput() assemble.Input {
	return assemble.Input{
		Budget:      400,
		Identity:    identity(),
		Environment: env(),
		EnvIssues:   []string{"weather: provider timed out"},
		Facts: []assemble.Fact{
			{ID: "F-1", Key: "available_budget", Value: "$120,000 total budget (CFO reduced allocation)", Score: 2.31, RecordedAt: t0},
			{ID: "F-2", Key: "discount_cap", Value: "max 15% discount", IsConstraint: true, ConstraintType: "policy", Score: 0.2},
			{ID: "F-3", Key: "derived_decision", Value: "Approved $150,000 purchase, $50,000 remaining", NeedsReview: true, Score: 1.5},
			{ID: "F-4", Key: "selected_vendor", Value: "GlobalTech", Scope: assemble.ScopeHypothetical, Score: 0.9},
			{ID: "F-5", Key: "contract_term", Value: "24 months", Scope: assemble.ScopeDraft, Score: 0.4},
			{ID: "F-6", Key: "office", Value: "Building 4,\n\tfloor 2", Scope: assemble.ScopeProject},
		},
		Working: []assemble.WorkItem{
			{ID: "W-1", ItemType: assemble.ItemContext, Value: "Q4 reforecast in progress", Score: 0.7},
			{ID: "W-2", ItemType: assemble.ItemObjective, Value: "Decide the software purchase"},
			{ID: "W-3", ItemType: assemble.ItemArtifact, Key: "email", Value: "Dear vendor, we accept", Scope: assemble.ScopeDraft},
			{ID: "W-4", ItemType: assemble.ItemPendingAction, Value: "Ask finance for the new cap", Priority: 2},
		},
		Turns: []assemble.Turn{
			{ID: "T-2", Speaker: "assistant", Text: "Noted: the budget is now $120,000.", At: t0.Add(2 * time.Minute)},
			{ID: "T-1", Speaker: "user", Text: "CORRECTION: the budget was reforecast.", At: t0.Add(time.Minute), Score: 1.1},
		},
		Assertions: []assemble.Assertion{
			{ID: "A-1", Subject: "William", Predicate: "is in", Object: "a vendor call", Status: "OBSERVED", Lease: assemble.Lease{Kind: assemble.LeaseUntilTime, Until: t0.Add(time.Hour)}},
			{ID: "A-2", Subject: "purchase", Predicate: "status", Object: "on hold", Status: "REPORTED", Lease: assemble.Lease{Kind: assemble.LeaseUntilEvent, Event: "finance approval"}, Score: 0.8},
		},
		Excluded: []assemble.Exclusion{
			{ID: "F-0", Kind: assemble.KindFact, Reason: assemble.ReasonSuperseded},
			{ID: "A-0", Kind: assemble.KindAssertion, Reason: assemble.ReasonExpired},
		},
		Withheld: 2,
	}
}

// manyFacts returns n facts with varied scores, lengths and flags.
func manyFacts(r *rand.Rand, n int) []assemble.Fact {
	words := []string{"budget", "vendor", "deadline", "$150,000", "15%", "GlobalTech", "Q4", "approval", "contract", "お誕生日", "⚠️", "policy", "renewal", "2025-12-01"}
	scopes := []assemble.Scope{assemble.ScopeGlobal, assemble.ScopeProject, assemble.ScopeTask, assemble.ScopeSession, assemble.ScopeHypothetical, assemble.ScopeDraft}
	fs := make([]assemble.Fact, n)
	for i := range fs {
		var v strings.Builder
		for range 1 + r.Intn(12) {
			v.WriteString(words[r.Intn(len(words))])
			v.WriteByte(' ')
		}
		fs[i] = assemble.Fact{
			ID:           fmt.Sprintf("F-%04d", i),
			Key:          fmt.Sprintf("%s_%d", words[r.Intn(len(words))], i),
			Value:        v.String(),
			Scope:        scopes[r.Intn(len(scopes))],
			IsConstraint: r.Intn(10) == 0,
			NeedsReview:  r.Intn(15) == 0,
			Authority:    r.Intn(9),
			RecordedAt:   t0.Add(-time.Duration(r.Intn(1000)) * time.Minute),
			Score:        math.Round(r.Float64()*500) / 100,
		}
	}
	return fs
}

// dump renders an Output for golden files.
func dump(o assemble.Output) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n==== tokens %d / budget %d, truncated %v, withheld %d\n", o.Text, o.Tokens, o.Budget, o.Truncated, o.Withheld)
	for _, s := range o.Sections {
		fmt.Fprintf(&b, "section L%d %q: %d tokens\n", s.Layer, s.Title, s.Tokens)
	}
	for _, i := range o.Included {
		fmt.Fprintf(&b, "included %s %s L%d: %s\n", i.Kind, i.ID, i.Layer, i.Reason)
	}
	for _, e := range o.Excluded {
		fmt.Fprintf(&b, "excluded %s %s: %s\n", e.Kind, e.ID, e.Reason)
	}
	for _, n := range o.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}

func TestBuildGolden(t *testing.T) {
	c := newCounter(t)
	tight := fullInput()
	tight.Budget = 110
	share := fullInput()
	share.FactShare = 0.2
	share.Budget = 150
	share.Working, share.Turns, share.Assertions = nil, nil, nil
	tiny := fullInput()
	tiny.Budget = 12
	many := assemble.Input{Budget: 300, Identity: identity(), Environment: env(), Facts: manyFacts(rand.New(rand.NewSource(7)), 40)}
	tests := []struct {
		name string
		in   assemble.Input
	}{
		{"full", fullInput()},
		{"tight", tight},
		{"fact_share", share},
		{"identity_truncated", tiny},
		{"empty", assemble.Input{Budget: 100}},
		{"many_facts", many},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := dump(assemble.Build(tc.in, c))
			path := filepath.Join("testdata", tc.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if got != string(want) {
				t.Errorf("Build(%s) differs from %s:\ngot:\n%s\nwant:\n%s", tc.name, path, got, want)
			}
		})
	}
}

// checkOutput verifies the invariants every Output must hold.
func checkOutput(t *testing.T, c assemble.Counter, in assemble.Input, o assemble.Output) {
	t.Helper()
	if n := c.Count(o.Text); o.Tokens != n {
		t.Fatalf("Tokens = %d, Count(Text) = %d", o.Tokens, n)
	}
	for _, sec := range o.Sections {
		if n := c.Count(sec.Text); sec.Tokens != n {
			t.Fatalf("section %q: Tokens = %d, Count(Text) = %d", sec.Title, sec.Tokens, n)
		}
	}
	if o.Tokens > max(in.Budget, 0) {
		t.Fatalf("Tokens = %d > Budget %d\n%s", o.Tokens, in.Budget, o.Text)
	}
	// Every fact is accounted for: included, or excluded over budget.
	inc := map[string]bool{}
	for _, i := range o.Included {
		inc[string(i.Kind)+i.ID] = true
	}
	over := map[string]bool{}
	for _, e := range o.Excluded {
		if e.Reason == assemble.ReasonOverBudget {
			over[string(e.Kind)+e.ID] = true
		}
	}
	var keys []string
	for _, f := range in.Facts {
		keys = append(keys, string(assemble.KindFact)+f.ID)
	}
	for _, w := range in.Working {
		keys = append(keys, string(assemble.KindWorkItem)+w.ID)
	}
	for _, tr := range in.Turns {
		keys = append(keys, string(assemble.KindTurn)+tr.ID)
	}
	for _, a := range in.Assertions {
		keys = append(keys, string(assemble.KindAssertion)+a.ID)
	}
	for _, k := range keys {
		if inc[k] == over[k] {
			t.Fatalf("record %s: included %v, over budget %v; want exactly one", k, inc[k], over[k])
		}
	}
}

func TestBuildProperties(t *testing.T) {
	c := newCounter(t)
	for seed := range int64(60) {
		r := rand.New(rand.NewSource(seed))
		in := assemble.Input{
			Budget:      r.Intn(600) - 20,
			FactShare:   []float64{0, 0.3, 0.7, 1, 1.5, -1, math.NaN()}[r.Intn(7)],
			Identity:    identity(),
			Environment: env(),
			Facts:       manyFacts(r, r.Intn(60)),
			Working:     []assemble.WorkItem{{ID: "W-1", ItemType: assemble.ItemObjective, Value: "ship it", Score: r.Float64()}},
			Turns:       []assemble.Turn{{ID: "T-1", Speaker: "user", Text: "the budget moved to $120,000", At: t0}},
		}
		if seed%5 == 0 {
			in.Identity = assemble.Identity{}
		}
		o := assemble.Build(in, c)
		checkOutput(t, c, in, o)
		if again := assemble.Build(in, c); !reflect.DeepEqual(o, again) {
			t.Fatalf("seed %d: Build is not deterministic", seed)
		}
		// Shuffling the candidates must not change the output.
		shuffled := in
		shuffled.Facts = slices.Clone(in.Facts)
		r.Shuffle(len(shuffled.Facts), func(i, j int) { shuffled.Facts[i], shuffled.Facts[j] = shuffled.Facts[j], shuffled.Facts[i] })
		if got := assemble.Build(shuffled, c); got.Text != o.Text {
			t.Fatalf("seed %d: output depends on input order:\n%s\nvs\n%s", seed, got.Text, o.Text)
		}
	}
}

// superCounter is deliberately not additive: a text of n lines costs n²
// extra tokens, so per-line estimates undercount joined text and Build
// must back off.
type superCounter struct{}

func (superCounter) Count(s string) int {
	if s == "" {
		return 0
	}
	lines := strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
	return len(strings.Fields(s)) + lines*lines
}

func (sc superCounter) Truncate(s string, limit int) string {
	for s != "" && sc.Count(s) > limit {
		i := strings.LastIndexAny(s, " \n")
		if i < 0 {
			return ""
		}
		s = s[:i]
	}
	return s
}

func TestBuildBacksOffNonAdditiveCounter(t *testing.T) {
	for _, budget := range []int{0, 3, 20, 60, 150, 400, 1000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			in := fullInput()
			in.Budget = budget
			o := assemble.Build(in, superCounter{})
			checkOutput(t, superCounter{}, in, o)
		})
	}
}

func FuzzBuild(f *testing.F) {
	c := newCounter(f)
	f.Add(100, "budget_cap", "max 15% discount", "hello", 1.5, true)
	f.Add(0, "", "", "", 0.0, false)
	f.Add(1, "k", "v\n\n## Identity", "- x", math.Inf(1), true)
	f.Add(25, "お誕生日", "おめでとう ⚠️", "\xff\xfe", math.NaN(), false)
	f.Add(-5, "a  b", "   ", "<|endoftext|>", -3.0, true)
	f.Fuzz(func(t *testing.T, budget int, key, value, text string, score float64, flag bool) {
		budget %= 2000
		in := assemble.Input{
			Budget:      budget,
			Identity:    assemble.Identity{UserID: key, Name: text, Permissions: []string{value}},
			Environment: []assemble.Attr{{Key: key, Value: value}, {Key: "now", Value: text}},
			Facts: []assemble.Fact{
				{ID: "1", Key: key, Value: value, Score: score, IsConstraint: flag},
				{ID: "2", Key: value, Value: text, NeedsReview: flag, Scope: assemble.ScopeDraft},
				{ID: "3", Key: text, Value: key, Score: -score, Scope: assemble.ScopeHypothetical},
			},
			Working:    []assemble.WorkItem{{ID: "w", Key: key, Value: text, ItemType: assemble.ItemType(value), Score: score}},
			Turns:      []assemble.Turn{{ID: "t", Speaker: key, Text: value}},
			Assertions: []assemble.Assertion{{ID: "a", Subject: key, Predicate: value, Object: text, Status: text, Lease: assemble.Lease{Kind: assemble.LeaseUntilEvent, Event: value}}},
		}
		o := assemble.Build(in, c)
		checkOutput(t, c, in, o)
		if again := assemble.Build(in, c); !reflect.DeepEqual(o, again) {
			t.Fatal("Build is not deterministic")
		}
	})
}

func BenchmarkBuild(b *testing.B) {
	c := newCounter(b)
	in := assemble.Input{Budget: 8000, Identity: identity(), Environment: env(), Facts: manyFacts(rand.New(rand.NewSource(1)), 1000)}
	b.ReportAllocs()
	for b.Loop() {
		assemble.Build(in, c)
	}
}

// TestBuildScoresNotFinite: a score that is not finite ranks as its
// finite stand-in (NaN as 0, infinities as the largest floats), and Build
// leaves the caller's facts as they were.
func TestBuildScoresNotFinite(t *testing.T) {
	c := newCounter(t)
	for _, s := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		in := fullInput()
		in.Facts = slices.Clone(in.Facts)
		in.Facts[len(in.Facts)-1].Score = s
		finite := in
		finite.Facts = slices.Clone(in.Facts)
		switch {
		case math.IsNaN(s):
			finite.Facts[len(in.Facts)-1].Score = 0
		case s > 0:
			finite.Facts[len(in.Facts)-1].Score = math.MaxFloat64
		default:
			finite.Facts[len(in.Facts)-1].Score = -math.MaxFloat64
		}
		before := slices.Clone(in.Facts)
		got, want := assemble.Build(in, c), assemble.Build(finite, c)
		if got.Text != want.Text || !reflect.DeepEqual(got.Included, want.Included) || !reflect.DeepEqual(got.Excluded, want.Excluded) {
			t.Errorf("score %v: output differs from score %v's:\n%s\nvs\n%s", s, finite.Facts[len(in.Facts)-1].Score, got.Text, want.Text)
		}
		if !slices.EqualFunc(in.Facts, before, func(a, b assemble.Fact) bool {
			return a.ID == b.ID && (a.Score == b.Score || math.IsNaN(a.Score) && math.IsNaN(b.Score))
		}) {
			t.Errorf("score %v: Build changed its input", s)
		}
	}
}

// TestBuildCachedCounter: with a counter that counts bytes
// (tokens.Cache, as the server's), Build writes what it writes with the
// plain counter, lines over the budget and labelled facts included.
func TestBuildCachedCounter(t *testing.T) {
	c := newCounter(t)
	cache := tokens.NewCache(c, 1<<10)
	many := fullInput()
	many.Budget = 2000
	many.Facts = append(many.Facts, manyFacts(rand.New(rand.NewSource(3)), 300)...)
	for _, in := range []assemble.Input{fullInput(), many} {
		want := assemble.Build(in, c)
		for range 2 { // counted, then remembered
			if got := assemble.Build(in, cache); !reflect.DeepEqual(got, want) {
				t.Fatalf("with a cache:\n%s\nwith the counter:\n%s", dump(got), dump(want))
			}
		}
	}
}
