package contextasm

import (
	"github.com/stategraph/stategraph/internal/memo"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/search"
)

// termsMemo remembers the index terms of the texts Relate scores (turns,
// assertions, working-set items): every assembly scores the same ones
// again. The slices are shared.
var termsMemo = memo.New(lexical.Terms, memo.Limits{Bytes: 2 << 20, Key: 64 << 10})

// scoreDocs is search.DefaultBM25().ScoreDocs(query, docs) for q the
// query's distinct terms in sorted order (QueryTerms(query): Relate has
// them in its Query, and does not make them again for each kind it
// scores), each document's terms remembered: it scores each of docs
// against the query with statistics taken from docs themselves, term by
// term in sorted order of the query's distinct terms (as BM25.Score sums
// them), so the scores are equal to the bit. FuzzScoreDocs checks it
// against ScoreDocs.
func scoreDocs(q []string, docs []string) []float64 {
	scores := make([]float64, len(docs))
	if len(docs) == 0 {
		return scores
	}
	// tf[i*len(q)+j]: frequency of q[j] in docs[i].
	tf := make([]int, len(docs)*len(q))
	df := make([]int, len(q))
	lens := make([]int, len(docs))
	total := 0
	for i, d := range docs {
		ts := termsMemo.Get(d)
		lens[i] = len(ts)
		total += len(ts)
		if len(q) == 0 {
			continue
		}
		row := tf[i*len(q) : (i+1)*len(q)]
		for _, t := range ts {
			for j, qt := range q {
				if t == qt {
					row[j]++
					break
				}
			}
		}
		for j, n := range row {
			if n > 0 {
				df[j]++
			}
		}
	}
	bm := search.DefaultBM25()
	avg := float64(total) / float64(len(docs))
	for i := range docs {
		var s float64
		for j := range q {
			if n := tf[i*len(q)+j]; n > 0 {
				s += bm.Term(df[j], len(docs), avg, lens[i], n)
			}
		}
		scores[i] = s
	}
	return scores
}
