package evidence_test

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
)

// benchText returns sentences of eight words drawn from a vocabulary of
// 2,000, about n characters in all.
func benchText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n-80 {
		b.WriteString("We talked about")
		for range 8 {
			b.WriteString(" w" + strconv.Itoa(rng.Intn(2000)))
		}
		b.WriteString(". ")
	}
	return strings.TrimSpace(b.String())
}

// BenchmarkSearch ranks 5,000 stored sentences (500 turns of 10, 1 in 50
// retired) against four-word queries, in the current view and known at a
// past time.
func BenchmarkSearch(b *testing.B) {
	w := newWorld(b)
	rng := rand.New(rand.NewSource(1))
	for i := range 500 {
		w.turn(b, fmt.Sprintf("T-%04d", i), benchText(rng, 10*60), facts.ScopeGlobal)
	}
	mid := w.clock.Now().Add(-250 * time.Minute)
	err := w.st.Update(context.Background(), w.p, func(tx *store.Txn) error {
		for i := 0; i < 500; i += 5 {
			if err := evidence.RetireSentenceTx(tx, fmt.Sprintf("T-%04d", i), i%10, "F-x", w.clock.Now()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	queries := make([]string, 64)
	for i := range queries {
		queries[i] = fmt.Sprintf("what about w%d and w%d, w%d w%d?", rng.Intn(2000), rng.Intn(2000), rng.Intn(2000), rng.Intn(2000))
	}
	for _, tc := range []struct {
		name string
		v    temporal.View
	}{{"current", temporal.View{}}, {"knownAt", temporal.View{KnownAt: &mid}}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_ = w.search(b, queries[i%len(queries)], tc.v)
				i++
			}
		})
	}
}

// BenchmarkIndexTurn analyses and indexes a 2,000-character turn (about 25
// sentences) in its own transaction, in a store already holding 200 such
// turns; "analyze" is extract.Analyze alone, which recordTurn runs for
// extraction anyway.
func BenchmarkIndexTurn(b *testing.B) {
	w := newWorld(b)
	rng := rand.New(rand.NewSource(2))
	for i := range 200 {
		w.turn(b, fmt.Sprintf("T-%04d", i), benchText(rng, 2000), facts.ScopeGlobal)
	}
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = benchText(rng, 2000)
	}
	b.Run("analyze", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = extract.Analyze(extract.Turn{Text: texts[i%len(texts)], Speaker: "user", At: w.clock.Now()})
			i++
		}
	})
	b.Run("analyze+index", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			now := w.clock.Now()
			sentences := extract.Analyze(extract.Turn{Text: texts[i%len(texts)], Speaker: "user", At: now}).Sentences
			err := w.st.Update(context.Background(), w.p, func(tx *store.Txn) error {
				return evidence.IndexTurnTx(tx, evidence.Turn{ID: fmt.Sprintf("T-b%06d", i), SessionID: "s1", Speaker: "USER", At: now, RecordedAt: now}, sentences)
			})
			if err != nil {
				b.Fatal(err)
			}
			w.clock.Advance(time.Second)
			i++
		}
	})
}
