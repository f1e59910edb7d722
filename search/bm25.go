package search

import (
	"math"
	"slices"

	"github.com/stategraph/stategraph/lexical"
)

// BM25 is the Okapi BM25 ranking function: K1 saturates term frequency, B
// sets how much document length normalizes it. The zero value is not
// useful; start from DefaultBM25.
type BM25 struct {
	K1, B float64
}

// DefaultBM25 returns the usual parameters, K1 = 1.2 and B = 0.75.
func DefaultBM25() BM25 { return BM25{K1: 1.2, B: 0.75} }

// Score returns a document's score for a query. df maps each query term to
// the number of documents containing it, out of docs; avgLen is the mean
// document length and docLen this document's, both in terms; tf maps terms
// to their frequency in this document. IDF is the non-negative Lucene form
// ln(1 + (N - df + 0.5)/(df + 0.5)). Terms are summed in sorted order, so
// the result does not depend on map iteration.
func (m BM25) Score(df map[string]int, docs int, avgLen float64, docLen int, tf map[string]int) float64 {
	terms := make([]string, 0, len(df))
	for t := range df {
		if tf[t] > 0 {
			terms = append(terms, t)
		}
	}
	slices.Sort(terms)
	norm := m.norm(docLen, avgLen)
	var score float64
	for _, t := range terms {
		score += m.weigh(m.idf(df[t], docs), norm, tf[t])
	}
	return score
}

// Term returns one query term's contribution to a document's score, with
// the statistics of Score: summing Term over the query's distinct terms in
// sorted order gives exactly Score. It lets an inverted index accumulate
// scores posting by posting.
func (m BM25) Term(df, docs int, avgLen float64, docLen, tf int) float64 {
	return m.Scorer(df, docs, avgLen).Score(docLen, tf)
}

// norm is the length norm of a document of docLen terms where the mean
// is avgLen (1 when the mean is unknown).
func (m BM25) norm(docLen int, avgLen float64) float64 {
	if avgLen <= 0 {
		return 1
	}
	return 1 - m.B + m.B*float64(max(docLen, 0))/avgLen
}

// idf is the inverse document frequency of a term in df of docs
// documents.
func (m BM25) idf(df, docs int) float64 {
	n := float64(max(docs, 0))
	d := float64(min(max(df, 0), max(docs, 0)))
	return math.Log(1 + (n-d+0.5)/(d+0.5))
}

// weigh is a term's contribution for its idf, the document's length
// norm and the term's frequency in it.
func (m BM25) weigh(idf, norm float64, tf int) float64 {
	f := float64(tf)
	return idf * f * (m.K1 + 1) / (f + m.K1*norm)
}

// TermScorer is Term for one term's statistics (df, docs, avgLen),
// computed once for all the term's postings: its Score(docLen, tf) equals
// Term(df, docs, avgLen, docLen, tf) to the bit.
type TermScorer struct {
	m      BM25
	idf    float64
	avgLen float64
}

// Scorer returns the TermScorer of a term in df of docs documents of mean
// length avgLen.
func (m BM25) Scorer(df, docs int, avgLen float64) TermScorer {
	return TermScorer{m: m, idf: m.idf(df, docs), avgLen: avgLen}
}

// Score returns the term's contribution to the score of a document of
// docLen terms holding it tf times.
func (s TermScorer) Score(docLen, tf int) float64 {
	if tf <= 0 {
		return 0
	}
	return s.m.weigh(s.idf, s.m.norm(docLen, s.avgLen), tf)
}

// ScoreDocs scores each of docs against query with statistics taken from
// docs themselves: for small candidate sets that have no persistent index,
// such as working-set items and recent turns.
func (m BM25) ScoreDocs(query string, docs []string) []float64 {
	q := lexical.Terms(query)
	df := make(map[string]int, len(q))
	for _, t := range q {
		df[t] = 0
	}
	tfs := make([]map[string]int, len(docs))
	lens := make([]int, len(docs))
	total := 0
	for i, d := range docs {
		ts := lexical.Terms(d)
		lens[i] = len(ts)
		total += len(ts)
		tf := make(map[string]int)
		for _, t := range ts {
			if _, ok := df[t]; ok {
				tf[t]++
			}
		}
		for t := range tf {
			df[t]++
		}
		tfs[i] = tf
	}
	scores := make([]float64, len(docs))
	if len(docs) == 0 {
		return scores
	}
	avg := float64(total) / float64(len(docs))
	for i := range docs {
		scores[i] = m.Score(df, len(docs), avg, lens[i], tfs[i])
	}
	return scores
}
