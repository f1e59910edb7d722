package assemble_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stategraph/stategraph/assemble"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"The budget is $150,000", []string{"budget", "150000"}},
		{"max 15% discount", []string{"max", "15", "discount"}},
		{"150000 and 1.5x", []string{"150000", "1.5x"}},
		{"available_budget", []string{"available", "budget"}},
		{"Deadlines, policies & classes", []string{"deadline", "policy", "class"}},
		{"status of the analysis", []string{"status", "analysis"}},
		{"Does it matter? Yes!", []string{"matter", "yes"}},
		{"2025-01-15", []string{"2025", "01", "15"}},
		{"end of sentence 42.", []string{"end", "sentence", "42"}},
		{"ÉTÉ Straße お誕生日", []string{"été", "straße", "お誕生日"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := assemble.Terms(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("Terms(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzTerms(f *testing.F) {
	f.Add("The budget is $150,000")
	f.Add("1,2.3,,4..5")
	f.Add("\xff\xfe ÉTÉ")
	f.Fuzz(func(t *testing.T, s string) {
		for _, term := range assemble.Terms(s) {
			if term == "" {
				t.Fatalf("Terms(%q) has an empty term", s)
			}
			if strings.ToLower(term) != term {
				t.Fatalf("Terms(%q) has %q, not lowercase", s, term)
			}
			if strings.IndexFunc(term, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' }) >= 0 {
				t.Fatalf("Terms(%q) has %q with a separator", s, term)
			}
		}
		if !slices.Equal(assemble.Terms(s), assemble.Terms(s+" the")) {
			t.Fatalf("a trailing stopword changed Terms(%q)", s)
		}
	})
}

func TestBM25Score(t *testing.T) {
	m := assemble.DefaultBM25()
	// One query term in 1 of 10 documents, once, in a document of average
	// length: idf = ln(1 + 9.5/1.5), tf part = 2.2/(1+1.2) = 1.
	got := m.Score(map[string]int{"budget": 1}, 10, 5, 5, map[string]int{"budget": 1})
	if want := 1.992430164690206; math.Abs(got-want) > 1e-12 {
		t.Errorf("Score = %v, want %v", got, want)
	}
	score := func(df, docLen, tf int) float64 {
		return m.Score(map[string]int{"q": df, "other": 3}, 100, 10, docLen, map[string]int{"q": tf})
	}
	tests := []struct {
		name          string
		higher, lower float64
	}{
		{"more occurrences", score(5, 10, 3), score(5, 10, 1)},
		{"rarer term", score(2, 10, 1), score(50, 10, 1)},
		{"shorter document", score(5, 5, 1), score(5, 40, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !(tc.higher > tc.lower) {
				t.Errorf("got %v <= %v, want greater", tc.higher, tc.lower)
			}
		})
	}
	edges := []struct {
		name string
		got  float64
	}{
		{"no match", m.Score(map[string]int{"q": 1}, 10, 5, 5, map[string]int{"x": 3})},
		{"no query", m.Score(nil, 10, 5, 5, map[string]int{"x": 3})},
		{"no documents", m.Score(map[string]int{"q": 0}, 0, 0, 0, nil)},
	}
	for _, tc := range edges {
		if tc.got != 0 {
			t.Errorf("%s: Score = %v, want 0", tc.name, tc.got)
		}
	}
	// Inconsistent statistics stay finite and non-negative.
	if s := m.Score(map[string]int{"q": 50}, 10, 0, -3, map[string]int{"q": 2}); math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		t.Errorf("Score with df > docs = %v, want finite and >= 0", s)
	}
}

func TestBM25ScoreDocs(t *testing.T) {
	docs := []string{
		"selected_vendor: TechStart for the contract",
		"available_budget: $120,000 total budget",
		"office: building 4",
		"budget review meeting",
	}
	got := assemble.DefaultBM25().ScoreDocs("What is our remaining budget of $120,000?", docs)
	if got[1] <= got[3] || got[3] <= 0 {
		t.Errorf("scores = %v, want doc 1 > doc 3 > 0", got)
	}
	if got[0] != 0 || got[2] != 0 {
		t.Errorf("scores = %v, want 0 for documents without query terms", got)
	}
	if got := assemble.DefaultBM25().ScoreDocs("", docs); slices.ContainsFunc(got, func(s float64) bool { return s != 0 }) {
		t.Errorf("empty query scores = %v, want all 0", got)
	}
	if got := assemble.DefaultBM25().ScoreDocs("budget", nil); len(got) != 0 {
		t.Errorf("no documents: scores = %v", got)
	}
}
