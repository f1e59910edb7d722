package search_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stategraph/stategraph/search"
)

func TestBM25Score(t *testing.T) {
	m := search.DefaultBM25()
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
	got := search.DefaultBM25().ScoreDocs("What is our remaining budget of $120,000?", docs)
	if got[1] <= got[3] || got[3] <= 0 {
		t.Errorf("scores = %v, want doc 1 > doc 3 > 0", got)
	}
	if got[0] != 0 || got[2] != 0 {
		t.Errorf("scores = %v, want 0 for documents without query terms", got)
	}
	if got := search.DefaultBM25().ScoreDocs("", docs); slices.ContainsFunc(got, func(s float64) bool { return s != 0 }) {
		t.Errorf("empty query scores = %v, want all 0", got)
	}
	if got := search.DefaultBM25().ScoreDocs("budget", nil); len(got) != 0 {
		t.Errorf("no documents: scores = %v", got)
	}
}
