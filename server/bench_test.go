package server_test

import (
	"bytes"
	"encoding/json"
	"expvar"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/benchcpu"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/temporal"
)

// BenchmarkWriteFact measures acknowledged writeFact throughput over HTTP
// with SyncWrites on, against an on-disk store, for 1 and 32 concurrent
// clients. Half of the writes supersede the client's previous fact by key.
// Reported: writes/s, p50 and p99 latency in ms, commits acknowledged per
// fsync (the group commit), transactions run again after a conflict per
// write, and CPU time (cpu-µs/write) and allocations
// per write (client and server together, since both run in this process;
// CPU time is what a loaded machine changes least).
//
// The clients are lean, as a production writer would be: every request
// body (the mutation and its variables) is encoded before the clock
// starts, each client keeps its connection alive and reads responses into
// a buffer of its own; a write counts once its response (sent after the
// commit's fsync) says it succeeded.
func BenchmarkWriteFact(b *testing.B) {
	for _, clients := range []int{1, 32} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			dir := b.TempDir()
			env := apitest.New(b, func(o *server.Options) {
				o.Store.InMemory, o.Store.Dir, o.Store.SyncWrites = false, dir, true
				o.Clock = temporal.System{}
			})
			auth := "Bearer " + apitest.Token(b, apitest.Identity("bench", "writer"))
			url := env.URL + "/graphql"
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients * 2}}
			bufs := make([]bytes.Buffer, clients)
			post := func(g int, body []byte) error {
				req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
				if err != nil {
					return err
				}
				req.Header["Content-Type"] = []string{"application/json"}
				req.Header["Authorization"] = []string{auth}
				resp, err := client.Do(req)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				buf := &bufs[g]
				buf.Reset()
				if _, err := buf.ReadFrom(resp.Body); err != nil {
					return err
				}
				if raw := buf.Bytes(); resp.StatusCode != http.StatusOK || bytes.Contains(raw, []byte(`"errors"`)) {
					return fmt.Errorf("status %d: %s", resp.StatusCode, raw)
				}
				return nil
			}
			const query = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`
			bodies := make([][]byte, b.N)
			for i := range bodies {
				g, n := i%clients, i/clients
				in := map[string]any{"key": fmt.Sprintf("k-%d-%d", g, n/2), "value": fmt.Sprintf("value %d of client %d", n, g)}
				if n%2 == 1 {
					in["supersedes"] = in["key"]
				}
				bodies[i], _ = json.Marshal(map[string]any{"query": query, "variables": map[string]any{"in": in}})
			}
			b.ReportAllocs()
			cpu0, eng0 := benchcpu.Used(), badgerWork()
			all, elapsed := writeConcurrently(b, clients, func(g, i int) func() error {
				return func() error { return post(g, bodies[i]) }
			})
			reportCPU(b, benchcpu.Used()-cpu0, len(all), "cpu-µs/write")
			badgerWork().report(b, eng0, len(all))
			b.ReportMetric(float64(len(all))/elapsed.Seconds(), "writes/s")
			reportLatency(b, all)
			st := env.Server.Store().SyncStats()
			b.ReportMetric(float64(st.Commits)/float64(max(1, st.Syncs)), "commits/sync")
			b.ReportMetric(float64(env.Server.Store().RetryStats().Retries)/float64(max(1, len(all))), "retries/write")
		})
	}
}

// writeConcurrently runs the writes prepare(g, i) returns, for i in
// [0, b.N), over clients goroutines (client g takes every clients-th i),
// timing each write but not its preparation; it returns the latencies of
// the writes that succeeded and the time they all took, with the benchmark
// timer stopped. A failed write ends its client.
func writeConcurrently(b *testing.B, clients int, prepare func(g, i int) func() error) ([]time.Duration, time.Duration) {
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for g := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < b.N; i += clients {
				write := prepare(g, i)
				t0 := time.Now()
				if err := write(); err != nil {
					b.Error(err)
					return
				}
				lat[g] = append(lat[g], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	return slices.Concat(lat...), elapsed
}

// engineWork is what Badger did so far, as its metrics count it (for
// the whole process: the benchmark's store is its only database): the
// entries written (records set or deleted, and one marker per committed
// transaction), the point reads and the iterators opened. Each entry is a
// skiplist insert, a log record and, later, a table row; the counts do not
// depend on how loaded the machine is.
type engineWork struct{ puts, gets, iters int64 }

func badgerWork() engineWork {
	n := func(name string) int64 {
		if v, ok := expvar.Get(name).(*expvar.Int); ok {
			return v.Value()
		}
		return 0
	}
	return engineWork{n("badger_put_num_user"), n("badger_get_num_user"), n("badger_iterator_num_user")}
}

// report reports the work done since before, per operation (ops of them).
func (w engineWork) report(b *testing.B, before engineWork, ops int) {
	if ops == 0 || w.puts == 0 {
		return
	}
	b.ReportMetric(float64(w.puts-before.puts)/float64(ops), "entries/write")
	b.ReportMetric(float64(w.gets-before.gets)/float64(ops), "gets/write")
	b.ReportMetric(float64(w.iters-before.iters)/float64(ops), "iters/write")
}

// reportCPU reports the CPU time cpu spent on n operations, in µs per
// operation (unit names the operation), when the platform reads it.
func reportCPU(b *testing.B, cpu time.Duration, n int, unit string) {
	if cpu > 0 && n > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(n), unit)
	}
}

// BenchmarkWriteFacts measures one writeFacts call of 1,000 facts over HTTP
// with SyncWrites on, against an on-disk store; every tenth fact
// supersedes an earlier one of the same batch by key. Reported: the
// median and p99 latency per call in ms, and the CPU time per call
// (cpu-ms/call, client and server together, building the requests left
// out).
func BenchmarkWriteFacts(b *testing.B) {
	dir := b.TempDir()
	env := apitest.New(b, func(o *server.Options) {
		o.Store.InMemory, o.Store.Dir, o.Store.SyncWrites = false, dir, true
		o.Clock = temporal.System{}
	})
	tok := apitest.Token(b, apitest.Identity("bench", "writer"))
	const size = 1000
	body := func(n int) []byte {
		in := make([]map[string]any, size)
		for i := range in {
			in[i] = map[string]any{"key": fmt.Sprintf("k-%d-%d", n, i), "value": fmt.Sprintf("value %d of batch %d, a short sentence about the project", i, n)}
			if i%10 == 9 {
				in[i]["key"] = fmt.Sprintf("k-%d-%d", n, i-5)
				in[i]["supersedes"] = in[i]["key"]
			}
		}
		b, _ := json.Marshal(map[string]any{"query": `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, "variables": map[string]any{"in": in}})
		return b
	}
	var lat []time.Duration
	var cpu time.Duration
	b.ResetTimer()
	for n := range b.N {
		b.StopTimer()
		req := body(n)
		b.StartTimer()
		t0, c0 := time.Now(), benchcpu.Used()
		r := env.Post(b, tok, req)
		lat, cpu = append(lat, time.Since(t0)), cpu+benchcpu.Used()-c0
		if len(r.Errors) > 0 {
			b.Fatal(r)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	reportCPU(b, cpu/1000, b.N, "cpu-ms/call")
}
