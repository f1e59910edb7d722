package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/temporal"
)

// BenchmarkWriteFact measures acknowledged writeFact throughput over HTTP
// with SyncWrites on, against an on-disk store, for 1 and 32 concurrent
// clients. Half of the writes supersede the client's previous fact by key.
// Reported: writes/s, p50 and p99 latency in ms, and allocations per write
// (client and server together, since both run in this process).
func BenchmarkWriteFact(b *testing.B) {
	for _, clients := range []int{1, 32} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			dir := b.TempDir()
			env := apitest.New(b, func(o *server.Options) {
				o.Store.InMemory, o.Store.Dir, o.Store.SyncWrites = false, dir, true
				o.Clock = temporal.System{}
			})
			tok := apitest.Token(b, apitest.Identity("bench", "writer"))
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients * 2}}
			post := func(body []byte) error {
				req, _ := http.NewRequest(http.MethodPost, env.URL+"/graphql", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := client.Do(req)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				raw, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != http.StatusOK || bytes.Contains(raw, []byte(`"errors"`)) {
					return fmt.Errorf("status %d: %s", resp.StatusCode, raw)
				}
				return nil
			}
			body := func(g, i int) []byte {
				in := map[string]any{"key": fmt.Sprintf("k-%d-%d", g, i/2), "value": fmt.Sprintf("value %d of client %d", i, g)}
				if i%2 == 1 {
					in["supersedes"] = in["key"]
				}
				b, _ := json.Marshal(map[string]any{"query": `mutation($in: FactInput!) { writeFact(input: $in) { id } }`, "variables": map[string]any{"in": in}})
				return b
			}
			lat := make([][]time.Duration, clients)
			var wg sync.WaitGroup
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for g := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := g; i < b.N; i += clients {
						req := body(g, i/clients)
						t0 := time.Now()
						if err := post(req); err != nil {
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
			all := slices.Concat(lat...)
			slices.Sort(all)
			if len(all) == 0 {
				return
			}
			pct := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000 }
			b.ReportMetric(float64(len(all))/elapsed.Seconds(), "writes/s")
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
}
