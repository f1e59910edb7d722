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

// FuzzTermScorer: a TermScorer's Score is the Score of a one-term query
// with the same statistics, to the bit.
func FuzzTermScorer(f *testing.F) {
	f.Add(3, 100, 7.5, 8, 1, 1.2, 0.75)
	f.Add(0, 0, 0.0, 0, 0, 1.2, 0.75)
	f.Add(200, 100, 0.0, -3, 2, 1.2, 0.75)
	f.Add(-1, 1, math.Inf(1), 1<<30, 1<<20, 0.0, 1.0)
	f.Add(5, 1000, math.NaN(), 12, 3, 2.0, 0.0)
	f.Fuzz(func(t *testing.T, df, docs int, avg float64, docLen, tf int, k1, b float64) {
		m := search.BM25{K1: k1, B: b}
		// A one-term query's whole-document score is the term's
		// contribution, whether scored at once or posting by posting.
		want := m.Score(map[string]int{"t": df}, docs, avg, docLen, map[string]int{"t": tf})
		got := m.Scorer(df, docs, avg).Score(docLen, tf)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("Scorer(%d, %d, %v).Score(%d, %d) = %v, Score = %v", df, docs, avg, docLen, tf, got, want)
		}
	})
}

// BenchmarkTermPostings scores one term's postings (400, as a query term
// has at 100,000 facts) with Term and with a TermScorer.
func BenchmarkTermPostings(b *testing.B) {
	m := search.DefaultBM25()
	lens := make([]int, 400)
	for i := range lens {
		lens[i] = 6 + i%7
	}
	var sink float64
	b.Run("Term", func(b *testing.B) {
		for b.Loop() {
			for _, l := range lens {
				sink += m.Term(400, 100000, 8.2, l, 1)
			}
		}
	})
	b.Run("Scorer", func(b *testing.B) {
		for b.Loop() {
			ts := m.Scorer(400, 100000, 8.2)
			for _, l := range lens {
				sink += ts.Score(l, 1)
			}
		}
	})
	_ = sink
}
