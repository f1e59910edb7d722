package server_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/store/tikvstore"
	"github.com/stategraph/stategraph/temporal"
)

// BenchmarkEngines compares the engines through the API: writeFact
// throughput with 8 concurrent clients (half of the writes supersede the
// client's previous fact by key), and assembleContext latency over 200
// facts. Badger runs in memory without syncs and TiKV on client-go's
// in-process mock cluster, so both measure the engine's code path, not a
// disk or a network: a deployed cluster adds its round trips (see
// docs/deploy-tikv.md). Reported: writes/s, p50-ms, p99-ms.
//
//	go test -run '^$' -bench BenchmarkEngines -benchtime 400x ./server/
func BenchmarkEngines(b *testing.B) {
	for _, e := range enginetest.All {
		newEnv := func(b *testing.B) *apitest.Env {
			return apitest.New(b, func(o *server.Options) {
				o.Store.Engine = e.New(b)
				o.Clock = temporal.System{}
			})
		}
		b.Run(e.Name+"/writeFact", func(b *testing.B) {
			env := newEnv(b)
			tok := apitest.Token(b, apitest.Identity("bench", "writer"))
			const clients = 8
			all, elapsed := writeConcurrently(b, clients, func(g, i int) func() error {
				n := i / clients
				in := map[string]any{"key": fmt.Sprintf("k-%d-%d", g, n/2), "value": fmt.Sprintf("value %d of client %d", n, g)}
				if n%2 == 1 {
					in["supersedes"] = in["key"]
				}
				return func() error {
					if r := env.Do(b, tok, writeFact, map[string]any{"in": in}); len(r.Errors) > 0 {
						return fmt.Errorf("writeFact: %v", r.Errors)
					}
					return nil
				}
			})
			b.ReportMetric(float64(len(all))/elapsed.Seconds(), "writes/s")
			reportLatency(b, all)
			reportRoundTrips(b, env, len(all))
		})
		b.Run(e.Name+"/assembleContext", func(b *testing.B) {
			env := newEnv(b)
			tok := apitest.Token(b, apitest.Identity("bench", "reader"))
			for i := range 200 {
				write(b, env, tok, map[string]any{"key": fmt.Sprintf("project.%d.status", i), "value": fmt.Sprintf("project %d is on track for the launch in week %d", i, i%52)})
			}
			q := `query($q: String!) { assembleContext(input: {query: $q, budget: 2000}) { tokens } }`
			var all []time.Duration
			before := engineStats(env)
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				if r := env.Do(b, tok, q, map[string]any{"q": fmt.Sprintf("what is the status of project %d and the launch", i%200)}); len(r.Errors) > 0 {
					b.Fatal(r)
				}
				all = append(all, time.Since(t0))
			}
			b.StopTimer()
			reportLatency(b, all)
			if s, ok := env.Server.Store().Engine().(interface{ Stats() tikvstore.Stats }); ok {
				after := s.Stats()
				b.ReportMetric(float64(after.Gets-before.Gets)/float64(len(all)), "gets/op")
				b.ReportMetric(float64(after.Seeks-before.Seeks)/float64(len(all)), "scans/op")
			}
		})
	}
}

func reportLatency(b *testing.B, all []time.Duration) {
	if len(all) == 0 {
		return
	}
	slices.Sort(all)
	pct := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

func engineStats(env *apitest.Env) tikvstore.Stats {
	if s, ok := env.Server.Store().Engine().(interface{ Stats() tikvstore.Stats }); ok {
		return s.Stats()
	}
	return tikvstore.Stats{}
}

// reportRoundTrips reports, on TiKV, the reads and scans per operation:
// each is at least one network round trip on a deployed cluster.
func reportRoundTrips(b *testing.B, env *apitest.Env, n int) {
	if s, ok := env.Server.Store().Engine().(interface{ Stats() tikvstore.Stats }); ok && n > 0 {
		st := s.Stats()
		b.ReportMetric(float64(st.Gets)/float64(n), "gets/op")
		b.ReportMetric(float64(st.Seeks)/float64(n), "scans/op")
	}
}
