package consolidate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGroups: clustering by cosine of lexical vectors, table-driven, on
// the pure functions.
func TestGroups(t *testing.T) {
	for _, tc := range []struct {
		name      string
		texts     []string
		threshold float64
		minSize   int
		want      [][]int
		shared    [][]string
		rep       []int
	}{
		{
			name: "two topics and noise",
			texts: []string{
				"refund issued for a duplicate charge",
				"password reset link expired",
				"duplicate charge refunded",
				"parcel left with the neighbour",
				"refunds issued after duplicate charges",
				"reset link for the password expired again",
			},
			threshold: 0.3, minSize: 2,
			want:   [][]int{{0, 2, 4}, {1, 5}},
			shared: [][]string{{"charge", "duplicate", "refund", "issued"}, {"expired", "link", "password", "reset", "again"}},
			rep:    []int{0, 1},
		},
		{
			name:      "minimum size drops small clusters",
			texts:     []string{"alpha beta", "alpha beta", "gamma delta", "gamma delta", "gamma delta"},
			threshold: 0.9, minSize: 3,
			want:   [][]int{{2, 3, 4}},
			shared: [][]string{{"delta", "gamma"}},
			rep:    []int{2},
		},
		{
			name:      "nothing alike",
			texts:     []string{"alpha", "beta", "gamma"},
			threshold: 0.1, minSize: 2,
		},
		{
			name:      "empty",
			threshold: 0.5, minSize: 2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mems := make([]Memory, len(tc.texts))
			for i, s := range tc.texts {
				mems[i] = Memory{ID: fmt.Sprint(i), Text: s}
			}
			vecs, err := Lexical{}.Embed(context.Background(), tc.texts)
			if err != nil {
				t.Fatal(err)
			}
			got := Groups(mems, vecs, tc.threshold, tc.minSize)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d groups %+v, want %v", len(got), got, tc.want)
			}
			for i, g := range got {
				if !slices.Equal(g.Members, tc.want[i]) || !slices.Equal(g.SharedTerms, tc.shared[i]) || g.Representative != tc.rep[i] {
					t.Errorf("group %d = %+v, want members %v, shared %v, representative %d", i, g, tc.want[i], tc.shared[i], tc.rep[i])
				}
			}
		})
	}
}

// TestCosine: identical vectors are 1, disjoint ones 0, zero ones 0.
func TestCosine(t *testing.T) {
	a := Vector{Dims: []int{0, 2}, Weights: []float64{1, 2}}
	b := Vector{Dims: []int{1, 3}, Weights: []float64{1, 1}}
	for _, tc := range []struct {
		name string
		x, y Vector
		want float64
	}{
		{"same", a, a, 1},
		{"disjoint", a, b, 0},
		{"zero", a, Vector{}, 0},
	} {
		if got := Cosine(tc.x, tc.y); got < tc.want-1e-9 || got > tc.want+1e-9 {
			t.Errorf("%s: cosine %g, want %g", tc.name, got, tc.want)
		}
	}
}

// synthetic returns n event texts drawn from a few topics with noise, the
// same for every seed.
func synthetic(n int) []Memory {
	topics := [][]string{
		{"refund", "duplicate", "charge", "invoice", "card"},
		{"password", "reset", "link", "expired", "email"},
		{"parcel", "delivery", "courier", "late", "address"},
		{"upgrade", "plan", "seats", "annual", "discount"},
		{"outage", "login", "error", "timeout", "region"},
	}
	noise := []string{"customer", "asked", "again", "today", "team", "follow", "up", "ticket", "priority", "weekend", "manager", "escalated"}
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]Memory, n)
	for i := range out {
		tp := topics[r.IntN(len(topics))]
		var words []string
		for range 4 {
			words = append(words, tp[r.IntN(len(tp))])
		}
		for range 3 {
			words = append(words, noise[r.IntN(len(noise))])
		}
		out[i] = Memory{ID: fmt.Sprintf("ev-%04d", i), Text: fmt.Sprint(words)}
	}
	return out
}

// BenchmarkCluster500 is the time to cluster 500 event memories: lexical
// vectors, then grouping (every pair compared), as a run does after
// reading them.
func BenchmarkCluster500(b *testing.B) {
	mems := synthetic(500)
	texts := make([]string, len(mems))
	for i, m := range mems {
		texts[i] = m.Text
	}
	b.ReportAllocs()
	b.ResetTimer()
	groups := 0
	for b.Loop() {
		vecs, err := Lexical{}.Embed(context.Background(), texts)
		if err != nil {
			b.Fatal(err)
		}
		groups = len(Groups(mems, vecs, DefaultThreshold, DefaultMinClusterSize))
	}
	b.ReportMetric(float64(groups), "clusters")
}
