package server_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/benchcpu"
	"github.com/stategraph/stategraph/server"
)

// benchFacts is how many facts the partition holds before recordTurn is
// measured.
const benchFacts = 10_000

// benchTurns are the turns recorded, in rotation; %[1]d is a project
// number, so turns name facts that exist. They mix what a conversation
// holds: changes that supersede, negations and questions that must not,
// state, chatter and a longer assistant answer.
var benchTurns = []struct{ speaker, text string }{
	{"USER", "Actually, Dana Reyes owns project %[1]d now."},
	{"USER", "The budget for project %[1]d is $45k."},
	{"USER", "Can you summarize where we are on project %[1]d?"},
	{"USER", "We're not moving the deadline of project %[1]d."},
	{"USER", "I'm in a meeting until 3, the build is red right now."},
	{"ASSISTANT", "Here is the plan for project %[1]d. First, confirm the owner with finance. Then book the review for next Friday. You could also ask Jonas to take over the onboarding deck."},
	{"USER", "Jonas is taking project %[1]d off Lena's hands."},
	{"USER", "Thanks, that helps a lot."},
	{"USER", "Hypothetically, what if project %[1]d moved to Porto?"},
	{"USER", "The deadline of project %[1]d slipped to March 3."},
}

// BenchmarkRecordTurn measures recordTurn over HTTP (GraphQL with a real
// signed token, the full handler) with 10,000 facts in the caller's
// partition: 2,000 projects with an owner, a budget, a deadline, a
// location and a status each. The turns rotate over benchTurns, each about
// a project that exists, one second apart on the server's clock. Two
// stores: an in-memory Badger (store=memory), and the served default, on
// disk with SyncWrites on, so every turn waits for its fsync
// (store=disk). Reported: p50 and p99 latency per turn in ms (target: p50
// <= 2 ms), CPU time per turn (cpu-µs/turn, the process's: client,
// server and the store's background work together; what a loaded machine
// changes least) and allocations per turn (client and server together).
func BenchmarkRecordTurn(b *testing.B) {
	b.Run("store=memory", func(b *testing.B) { benchRecordTurn(b, apitest.New(b)) })
	b.Run("store=disk", func(b *testing.B) {
		dir := b.TempDir()
		benchRecordTurn(b, apitest.New(b, func(o *server.Options) {
			o.Store.InMemory, o.Store.Dir, o.Store.SyncWrites = false, dir, true
		}))
	})
}

func benchRecordTurn(b *testing.B, env *apitest.Env) {
	tok := apitest.Token(b, apitest.Identity("bench", "agent"))
	seedFacts(b, env, tok, benchFacts)
	const q = `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } detections { kind } } }`
	bodies := make([][]byte, len(benchTurns)*7)
	for i := range bodies {
		t := benchTurns[i%len(benchTurns)]
		in := map[string]any{"sessionId": fmt.Sprintf("s-%d", i%4), "speaker": t.speaker, "text": fmt.Sprintf(t.text, (i*37)%(benchFacts/5))}
		bodies[i], _ = json.Marshal(map[string]any{"query": q, "variables": map[string]any{"in": in}})
	}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := benchcpu.Used()
	for n := range b.N {
		b.StopTimer()
		env.Clock.Advance(time.Second)
		body := bodies[n%len(bodies)]
		b.StartTimer()
		t0 := time.Now()
		r := env.Post(b, tok, body)
		lat = append(lat, time.Since(t0))
		if len(r.Errors) > 0 {
			b.Fatal(r)
		}
	}
	b.StopTimer()
	reportCPU(b, benchcpu.Used()-cpu0, b.N, "cpu-µs/turn")
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// seedFacts writes n facts through writeFacts, in batches of 1,000.
func seedFacts(b *testing.B, env *apitest.Env, tok string, n int) {
	b.Helper()
	attrs := []struct{ key, value string }{
		{"owner", "Person %d"}, {"budget", "$%d000"}, {"deadline", "2027-0%d-15"},
		{"location", "Office %d"}, {"status", "phase %d"},
	}
	const batch = 1000
	for start := 0; start < n; start += batch {
		in := make([]map[string]any, 0, batch)
		for i := start; i < min(start+batch, n); i++ {
			a := attrs[i%len(attrs)]
			p := i / len(attrs)
			v := fmt.Sprintf(a.value, 1+p%9)
			in = append(in, map[string]any{"key": fmt.Sprintf("project_%d.%s", p, a.key), "value": v})
		}
		r := env.Do(b, tok, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": in})
		if len(r.Errors) > 0 {
			b.Fatalf("seed: %s", r)
		}
	}
}
