package consolidate

import (
	"cmp"
	"slices"

	"github.com/stategraph/stategraph/lexical"
)

// Memory is one input of clustering: an event memory's id and text.
type Memory struct {
	ID   string
	Text string
}

// Group is one cluster: its members (indexes into the input, in input
// order), the terms most of them share, and its representative (the
// member most similar to the others).
type Group struct {
	Members        []int
	SharedTerms    []string
	Representative int
}

// maxSharedTerms bounds the shared terms a group reports.
const maxSharedTerms = 5

// Groups clusters memories whose vectors are at least threshold similar
// (cosine), transitively (single linkage: a memory joins a group when it
// is that similar to any member), and returns the groups of at least
// minSize members, ordered by their first member. The result depends only
// on the inputs and their order, never on map iteration.
func Groups(mems []Memory, vecs []Vector, threshold float64, minSize int) []Group {
	n := len(mems)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	unit := make([]Vector, n)
	for i, v := range vecs {
		unit[i] = normalized(v)
	}
	pair := func(i, j int) float64 { return dot(unit[i], unit[j]) }
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			// Single linkage: a pair already joined needs no comparison.
			if a, b := find(i), find(j); a != b && pair(i, j) >= threshold {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	byRoot := map[int][]int{}
	var roots []int
	for i := 0; i < n; i++ {
		r := find(i)
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], i)
	}
	var out []Group
	for _, r := range roots {
		members := byRoot[r]
		if len(members) < max(minSize, 2) {
			continue
		}
		g := Group{Members: members, Representative: members[0]}
		// The sum of a member's similarities to the others is its dot
		// product with the members' sum, less its own (1, or 0 for an
		// empty vector): one pass instead of every pair.
		sum := map[int]float64{}
		for _, i := range members {
			for k, d := range unit[i].Dims {
				sum[d] += unit[i].Weights[k]
			}
		}
		best := -1.0
		for _, i := range members {
			var s float64
			for k, d := range unit[i].Dims {
				s += unit[i].Weights[k] * (sum[d] - unit[i].Weights[k])
			}
			if s > best+1e-12 { // ties keep the earliest member
				best, g.Representative = s, i
			}
		}
		g.SharedTerms = sharedTerms(mems, members)
		out = append(out, g)
	}
	return out
}

// sharedTerms returns the index terms found in at least half of the
// members, most widespread first, then alphabetically, at most
// maxSharedTerms, each written as the members most often write it ("refund"
// rather than the stem, "refunds" or "refunded", when they say "refund").
func sharedTerms(mems []Memory, members []int) []string {
	count := map[string]int{}
	surface := map[string]map[string]int{}
	for _, i := range members {
		seen := map[string]bool{}
		for _, tok := range lexical.Tokens(mems[i].Text) {
			t, ok := lexical.Term(tok)
			if !ok {
				continue
			}
			if surface[t] == nil {
				surface[t] = map[string]int{}
			}
			surface[t][tok]++
			if !seen[t] {
				seen[t] = true
				count[t]++
			}
		}
	}
	need := (len(members) + 1) / 2
	var terms []string
	for t, c := range count {
		if c >= need {
			terms = append(terms, t)
		}
	}
	slices.SortFunc(terms, func(a, b string) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b))
	})
	if len(terms) > maxSharedTerms {
		terms = terms[:maxSharedTerms]
	}
	out := make([]string, len(terms))
	for i, t := range terms {
		best, n := t, 0
		for w, c := range surface[t] {
			if c > n || c == n && w < best {
				best, n = w, c
			}
		}
		out[i] = best
	}
	return out
}
