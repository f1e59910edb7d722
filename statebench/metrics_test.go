package statebench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

func TestContains(t *testing.T) {
	tests := []struct {
		name, text, phrase string
		want               bool
	}{
		{"exact", "budget is $150,000", "$150,000", true},
		{"case-insensitive", "We go with GLOBALTECH now", "globaltech", true},
		{"inside a word", "the cap was capped", "capped", true},
		{"prefix of a word", "capped spending", "cap", false},
		{"suffix of a word", "recap", "cap", false},
		{"symbol start needs no left boundary", "cost:$150,000.", "$150,000", true},
		{"symbol start still needs right boundary", "$150,0000", "$150,000", false},
		{"percent end needs no right boundary", "15%off", "15%", true},
		{"percent still needs left boundary", "115%", "15%", false},
		{"digits are word characters", "$1500", "$150", false},
		{"later occurrence matches", "Seattles and Seattle", "Seattle", true},
		{"multi-word", "meet in Conference Room 1 today", "conference room 1", true},
		{"multi-word boundary", "Conference Room 12", "Conference Room 1", false},
		{"underscore is a word character", "budget_v2", "budget", false},
		{"unicode letters", "café crème", "café", true},
		{"unicode boundary", "cafés", "café", false},
		{"blank phrase", "anything", "  ", false},
		{"trimmed phrase", "on hold now", " on hold ", true},
		{"empty text", "", "x", false},
		{"phrase longer than text", "ab", "abc", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Contains(tc.text, tc.phrase); got != tc.want {
				t.Errorf("Contains(%q, %q) = %v, want %v", tc.text, tc.phrase, got, tc.want)
			}
		})
	}
}

func FuzzContains(f *testing.F) {
	f.Add("budget is $150,000", "$150,000")
	f.Add("15%off", "15%")
	f.Add("İstanbul", "i̇")
	f.Add("\xff\xfe", "\xfe")
	f.Fuzz(func(t *testing.T, text, phrase string) {
		got := Contains(text, phrase)
		if got && !strings.Contains(strings.ToLower(text), strings.ToLower(strings.TrimSpace(phrase))) {
			t.Fatalf("Contains(%q, %q) true but not a substring", text, phrase)
		}
		if strings.TrimSpace(phrase) == "" {
			if got {
				t.Fatalf("blank phrase %q matched", phrase)
			}
			return
		}
		if !Contains(" "+phrase+" ", phrase) {
			t.Fatalf("phrase %q not found in itself surrounded by spaces", phrase)
		}
	})
}

func TestScore(t *testing.T) {
	gt := GroundTruth{
		MustMention:    []Text{"$120,000", "over budget", " ", "exceeds"},
		MustNotMention: []Text{"$200,000", "$50,000 remaining", ""},
	}
	tests := []struct {
		name           string
		context        string
		wantHits       []string
		wantViolations []string
	}{
		{"clean", "Budget: $120,000. We are over budget.", []string{"$120,000", "over budget"}, nil},
		{"resurrected", "Budget: $200,000, $50,000 remaining.", nil, []string{"$200,000", "$50,000 remaining"}},
		{"boundary protects", "Budget: $1,200,000.", nil, nil},
		{"empty context", "", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Score(tc.context, gt)
			if fmt.Sprint(got.Hits) != fmt.Sprint(tc.wantHits) {
				t.Errorf("hits: got %q, want %q", got.Hits, tc.wantHits)
			}
			if fmt.Sprint(got.Violations) != fmt.Sprint(tc.wantViolations) {
				t.Errorf("violations: got %q, want %q", got.Violations, tc.wantViolations)
			}
			if got.MustMention != 3 {
				t.Errorf("must-mention count: got %d, want 3 (blank phrases ignored)", got.MustMention)
			}
			if got.Resurrected() != (len(tc.wantViolations) > 0) {
				t.Errorf("Resurrected() = %v with violations %q", got.Resurrected(), got.Violations)
			}
		})
	}
}

func TestTally(t *testing.T) {
	var tl Tally
	tl.Add("a", QueryScore{Hits: []string{"x"}, MustMention: 2, Violations: []string{"y"}}, 100)
	tl.Add("a", QueryScore{Hits: []string{"x", "z"}, MustMention: 2}, 50)
	tl.Add("b", QueryScore{MustMention: 0}, 30)
	r := tl.Report()

	tests := []struct {
		name string
		got  Metrics
		want Metrics
	}{
		{"overall", r.Overall, Metrics{Queries: 3, Resurrected: 1, Hits: 3, MustMention: 4, Tokens: 180, CSFRR: 1.0 / 3, CMMR: 0.75, MeanTokens: 60}},
		{"track a", r.Tracks["a"], Metrics{Queries: 2, Resurrected: 1, Hits: 3, MustMention: 4, Tokens: 150, CSFRR: 0.5, CMMR: 0.75, MeanTokens: 75}},
		{"track b, no phrases", r.Tracks["b"], Metrics{Queries: 1, Tokens: 30, MeanTokens: 30}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %+v, want %+v", tc.got, tc.want)
			}
		})
	}
	if got := fmt.Sprint(r.TrackNames()); got != "[a b]" {
		t.Errorf("TrackNames() = %s, want [a b]", got)
	}
	if got := (&Tally{}).Report().Overall; got != (Metrics{}) {
		t.Errorf("empty tally: got %+v, want zero metrics", got)
	}
}

// baselineContext renders the reference "state_based" context: every valid
// fact (supersession applied naively, by id or key) and the last ten turns.
type baseline struct {
	facts []Write // current facts in insertion order
	turns []string
}

func newBaseline(tl Timeline) *baseline {
	b := &baseline{}
	for _, f := range tl.InitialState.PersistentFacts {
		if f.Valid() {
			b.facts = append(b.facts, Write{ID: f.ID, Key: f.Key, Value: f.Value, Layer: LayerFacts})
		}
	}
	return b
}

func (b *baseline) apply(e Event) {
	switch e.Kind {
	case KindTurn:
		b.turns = append(b.turns, string(e.Speaker)+": "+string(e.Text))
	case KindStateWrite, KindSupersession:
		for _, w := range e.Writes {
			if w.Supersedes != "" {
				for i, f := range b.facts {
					if f.ID == string(w.Supersedes) || f.Key == string(w.Supersedes) {
						b.facts = append(b.facts[:i], b.facts[i+1:]...)
						break
					}
				}
			}
			b.facts = append(b.facts, w)
		}
	}
}

func (b *baseline) context() string {
	var sb strings.Builder
	for _, f := range b.facts {
		fmt.Fprintf(&sb, "- %s: %s\n", f.Key, f.Value)
	}
	turns := b.turns
	if len(turns) > 10 {
		turns = turns[len(turns)-10:]
	}
	for _, t := range turns {
		sb.WriteString(t + "\n")
	}
	return sb.String()
}

// TestBaseline measures the reference baseline on dev; the README reports
// cSFRR 57.3% and cMMR 73.6% for it. Run with -v to see the figures.
func TestBaseline(t *testing.T) {
	dev := loadSplit(t, "dev.jsonl")
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		t.Fatalf("cl100k: %v", err)
	}
	var tally Tally
	for _, tl := range dev {
		b := newBaseline(tl)
		for _, e := range tl.Events {
			if e.Kind != KindQuery {
				b.apply(e)
				continue
			}
			ctx := b.context()
			tally.Add(tl.Track, Score(ctx, e.GroundTruth), len(enc.Encode(ctx, nil, nil)))
		}
	}
	r := tally.Report()
	t.Logf("dev baseline: %d queries, cSFRR %.1f%%, cMMR %.1f%%, %.0f tokens",
		r.Overall.Queries, 100*r.Overall.CSFRR, 100*r.Overall.CMMR, r.Overall.MeanTokens)
	for _, n := range r.TrackNames() {
		m := r.Tracks[n]
		t.Logf("  %-26s %3d queries  cSFRR %5.1f%%  cMMR %5.1f%%  %4.0f tokens", n, m.Queries, 100*m.CSFRR, 100*m.CMMR, m.MeanTokens)
	}
	if r.Overall.Queries == 0 || r.Overall.MustMention == 0 {
		t.Fatalf("no queries scored: %+v", r.Overall)
	}
	// The naive replay is the README's reference; large drift means the
	// loader or the matcher is wrong.
	if d := r.Overall.CMMR - 0.736; d > 0.05 || d < -0.05 {
		t.Errorf("cMMR %.3f, want within 0.05 of the published 0.736", r.Overall.CMMR)
	}
}

func BenchmarkScore(b *testing.B) {
	ctx := strings.Repeat("The approved budget is $120,000 and the vendor is GlobalTech. ", 20)
	gt := GroundTruth{MustMention: []Text{"$120,000", "GlobalTech", "over budget"}, MustNotMention: []Text{"$200,000", "TechStart"}}
	b.ReportAllocs()
	for b.Loop() {
		Score(ctx, gt)
	}
}

// TestScoreClockOnly tells a forbidden phrase found only in the
// environment's date/now lines from one found in stored content; both
// count as resurrected.
func TestScoreClockOnly(t *testing.T) {
	gt := GroundTruth{MustNotMention: []Text{"Friday", "2025-11-28", "Hall B"}}
	tests := []struct {
		name      string
		context   string
		violation bool
		clockOnly bool
	}{
		{"weekday in the date line only", "## Environment\n- date: Friday, 2025-11-28\n- now: 2025-11-28T13:13:00Z\n## Facts\n- launch_date: Monday March 18th", true, true},
		{"weekday in a fact too", "## Environment\n- date: Friday, 2025-11-28\n## Facts\n- launch_date: Friday", true, false},
		{"another forbidden value beside the clock", "## Environment\n- date: Friday, 2025-11-28\n## Facts\n- venue: Hall B", true, false},
		{"a date line inside a fact is not the clock", "## Facts\n- note: the date: Friday", true, false},
		{"clean", "## Environment\n- date: Monday, 2025-12-01", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Score(tc.context, gt)
			if got.Resurrected() != tc.violation || got.ClockOnly != tc.clockOnly {
				t.Errorf("resurrected %v, clock only %v; want %v, %v (violations %q)", got.Resurrected(), got.ClockOnly, tc.violation, tc.clockOnly, got.Violations)
			}
		})
	}
	var tl Tally
	tl.Add("a", Score(tests[0].context, gt), 10)
	tl.Add("a", Score(tests[1].context, gt), 10)
	if m := tl.Report().Tracks["a"]; m.Resurrected != 2 || m.ClockOnly != 1 {
		t.Errorf("tally: resurrected %d, clock only %d; want 2, 1", m.Resurrected, m.ClockOnly)
	}
}
