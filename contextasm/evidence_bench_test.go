package contextasm_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

// BenchmarkAssembleEvidence measures assembleContext over HTTP at budget
// 8000 for a caller whose conversation holds 5,000 evidence sentences
// (500 turns of 10, recorded with recordTurn), reporting p50 and p99
// latency per call.
func BenchmarkAssembleEvidence(b *testing.B) {
	env := apitest.New(b)
	tok := apitest.Token(b, apitest.Identity("org-a", "alice"))
	vocab := vocabulary()
	rng := rand.New(rand.NewSource(3))
	sentence := func() string {
		w := make([]string, 8)
		for i := range w {
			w[i] = vocab[rng.Intn(len(vocab))]
		}
		return "We talked about " + strings.Join(w, " ") + "."
	}
	for range 500 {
		s := make([]string, 10)
		for i := range s {
			s[i] = sentence()
		}
		env.MustDo(b, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } } }`,
			map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "text": strings.Join(s, " ")}}, &struct{}{})
		env.Clock.Advance(time.Minute)
	}
	queries := make([]map[string]any, 64)
	for i := range queries {
		q := fmt.Sprintf("what did we say about %s and %s, %s %s?", vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))])
		queries[i] = map[string]any{"in": map[string]any{"query": q, "budget": 8000, "sessionId": "s1"}}
	}
	var probe struct{ AssembleContext assembled }
	env.MustDo(b, tok, assembleQ, queries[0], &probe)
	if len(probe.AssembleContext.evidenceIDs()) == 0 {
		b.Fatalf("no evidence in the context:\n%s", probe.AssembleContext.Text)
	}
	var lat []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		var out struct{ AssembleContext struct{ Tokens int } }
		env.MustDo(b, tok, assembleQ, queries[i%len(queries)], &out)
		lat = append(lat, time.Since(t0))
		i++
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(int(float64(len(lat))*p), len(lat)-1)].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkRecordTurnEvidence measures recordTurn over HTTP for a
// 2,000-character turn (about 25 sentences), all of whose sentences are
// indexed as evidence, in a conversation of 200 earlier such turns;
// reporting p50 and p99 latency per call.
func BenchmarkRecordTurnEvidence(b *testing.B) {
	env := apitest.New(b)
	tok := apitest.Token(b, apitest.Identity("org-a", "alice"))
	vocab := vocabulary()
	rng := rand.New(rand.NewSource(5))
	turn := func() string {
		var sb strings.Builder
		for sb.Len() < 2000-80 {
			w := make([]string, 8)
			for i := range w {
				w[i] = vocab[rng.Intn(len(vocab))]
			}
			sb.WriteString("We talked about " + strings.Join(w, " ") + ". ")
		}
		return strings.TrimSpace(sb.String())
	}
	record := func(text string) {
		env.MustDo(b, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } } }`,
			map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "text": text}}, &struct{}{})
		env.Clock.Advance(time.Minute)
	}
	for range 200 {
		record(turn())
	}
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = turn()
	}
	var lat []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		record(texts[i%len(texts)])
		lat = append(lat, time.Since(t0))
		i++
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(int(float64(len(lat))*p), len(lat)-1)].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
