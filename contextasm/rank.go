package contextasm

import (
	"cmp"
	"slices"
	"strings"
)

// compareCandidates is the fact source's rank order: score, then
// recency, then ID; each compared only on a tie of the one before
// (cmp.Or would compare all three every time).
func compareCandidates(a, b *candidate) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	if c := b.at.Compare(a.at); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}

// rankQueue hands out candidates in rank order (compareCandidates): a
// binary heap, so that taking the first k of n costs about n + k·log n
// comparisons instead of sorting all n. The fact source takes candidates
// until its budget is spent, usually a fraction of them, and then only
// those it always takes (always).
type rankQueue struct {
	h []*candidate
}

// newRankQueue orders cs into a heap in place.
func newRankQueue(cs []*candidate) *rankQueue {
	q := &rankQueue{h: cs}
	for i := len(cs)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
	return q
}

func (q *rankQueue) len() int { return len(q.h) }

// pop removes and returns the first candidate in rank order.
func (q *rankQueue) pop() *candidate {
	first := q.h[0]
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h[n] = nil
	q.h = q.h[:n]
	if n > 0 {
		q.down(0)
	}
	return first
}

// always removes and returns, in rank order, the candidates left that
// are always taken.
func (q *rankQueue) always() []*candidate {
	out := q.h[:0]
	for _, c := range q.h {
		if c.always {
			out = append(out, c)
		}
	}
	q.h = nil
	slices.SortFunc(out, compareCandidates)
	return out
}

// down restores the heap order below i.
func (q *rankQueue) down(i int) {
	h := q.h
	n := len(h)
	for {
		first := 2*i + 1
		if first >= n {
			return
		}
		if r := first + 1; r < n && compareCandidates(h[r], h[first]) < 0 {
			first = r
		}
		if compareCandidates(h[first], h[i]) >= 0 {
			return
		}
		h[i], h[first] = h[first], h[i]
		i = first
	}
}
