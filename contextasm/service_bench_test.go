package contextasm_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/contextasm"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/benchcpu"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/tokens"
)

// BenchmarkAssembleService measures the assembly alone (gather, relate,
// pack: contextasm.Service.Assemble, wired with the server's sources) over
// BenchmarkAssembleContext's seeded stores and questions, without HTTP,
// GraphQL encoding and the client, which a busy machine disturbs less:
// time, CPU (the process's, garbage collection included), bytes and
// allocations per call.
func BenchmarkAssembleService(b *testing.B) {
	if testing.Short() {
		b.Skip("seeding is slow")
	}
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("facts=%d", n), func(b *testing.B) {
			s := seeded(b, n)
			v, err := authority.NewVerifier(authority.VerifierConfig{Secret: apitest.Secret})
			if err != nil {
				b.Fatal(err)
			}
			caller, err := v.Verify(s.tok)
			if err != nil {
				b.Fatal(err)
			}
			counter, err := tokens.New()
			if err != nil {
				b.Fatal(err)
			}
			cache := tokens.NewCache(counter, 1<<16)
			clock := s.clock // the server's, where seeding left it
			order := authority.MustDefaultOrder()
			svc := contextasm.New(contextasm.Options{
				Store: s.srv.Store(), Clock: clock, Counter: cache,
				Fetcher: environment.NewFetcher(nil, 0),
				Sources: []contextasm.Source{
					contextasm.EnvironmentSource{},
					&contextasm.FactSource{Index: search.New(), Order: order, Counter: cache, Visible: facts.NewService(s.srv.Store(), clock, order).Readable(), Cards: facts.NewCards()},
					contextasm.WorkingSource{},
					contextasm.AssertionSource{},
					contextasm.EvidenceSource{},
					contextasm.ProfileSource{},
				},
			})
			ctx := authority.NewContext(context.Background(), caller)
			vocab := vocabulary()
			rng := rand.New(rand.NewSource(2))
			ins := make([]contextasm.Input, 64)
			for i := range ins {
				q := fmt.Sprintf("what do we know about %s and %s, %s %s?", vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))])
				ins[i] = contextasm.Input{Query: q, Budget: 8000, SessionID: benchSession}
			}
			for _, in := range ins { // warm the caches
				if _, err := svc.Assemble(ctx, in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			cpu0 := benchcpu.Used()
			i := 0
			for b.Loop() {
				if _, err := svc.Assemble(ctx, ins[i%len(ins)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.StopTimer()
			if cpu := benchcpu.Used() - cpu0; cpu > 0 && i > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(i), "cpu-ms/call")
			}
		})
	}
}
