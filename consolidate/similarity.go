package consolidate

import (
	"context"
	"math"
	"slices"

	"github.com/stategraph/stategraph/lexical"
)

// Vector is a sparse vector: dimensions in increasing order, each with its
// weight. Dense embeddings use dimensions 0..n-1.
type Vector struct {
	Dims    []int
	Weights []float64
}

// Embedder turns texts into vectors that consolidation compares by cosine
// similarity. Embed returns one vector per text, in order; it may be
// called concurrently by different runs and must be deterministic (the
// same texts give the same vectors), or runs stop being idempotent. The
// default, Lexical, needs no model; an embedding service plugs in here.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([]Vector, error)
}

// Lexical is the default Embedder: TF-IDF vectors over the project's index
// terms (lexical.Terms: tokens, stop words dropped, stemmed), with the
// inverse document frequency of BM25 (ln(1 + (N - df + 0.5)/(df + 0.5)))
// taken over the texts of one call, so that words every memory of a
// capability shares weigh little.
type Lexical struct{}

// Embed implements Embedder.
func (Lexical) Embed(_ context.Context, texts []string) ([]Vector, error) {
	vocab := map[string]int{}
	tfs := make([]map[int]int, len(texts))
	df := map[int]int{}
	for i, s := range texts {
		tf := map[int]int{}
		for _, t := range lexical.Terms(s) {
			d, ok := vocab[t]
			if !ok {
				d = len(vocab)
				vocab[t] = d
			}
			tf[d]++
		}
		for d := range tf {
			df[d]++
		}
		tfs[i] = tf
	}
	n := float64(len(texts))
	out := make([]Vector, len(texts))
	for i, tf := range tfs {
		v := Vector{Dims: make([]int, 0, len(tf))}
		for d := range tf {
			v.Dims = append(v.Dims, d)
		}
		slices.Sort(v.Dims)
		v.Weights = make([]float64, len(v.Dims))
		for k, d := range v.Dims {
			idf := math.Log(1 + (n-float64(df[d])+0.5)/(float64(df[d])+0.5))
			v.Weights[k] = float64(tf[d]) * idf
		}
		out[i] = v
	}
	return out, nil
}

// Cosine returns the cosine similarity of a and b, 0 when either is zero.
func Cosine(a, b Vector) float64 {
	d := dot(a, b)
	na, nb := norm(a), norm(b)
	if d == 0 || na == 0 || nb == 0 {
		return 0
	}
	return d / (na * nb)
}

// dot returns the dot product of a and b.
func dot(a, b Vector) float64 {
	var s float64
	for i, j := 0, 0; i < len(a.Dims) && j < len(b.Dims); {
		switch {
		case a.Dims[i] < b.Dims[j]:
			i++
		case a.Dims[i] > b.Dims[j]:
			j++
		default:
			s += a.Weights[i] * b.Weights[j]
			i++
			j++
		}
	}
	return s
}

// normalized returns v scaled to length 1 (v itself when it is zero).
func normalized(v Vector) Vector {
	n := norm(v)
	if n == 0 {
		return v
	}
	w := make([]float64, len(v.Weights))
	for i, x := range v.Weights {
		w[i] = x / n
	}
	return Vector{Dims: v.Dims, Weights: w}
}

func norm(v Vector) float64 {
	var s float64
	for _, w := range v.Weights {
		s += w * w
	}
	return math.Sqrt(s)
}
