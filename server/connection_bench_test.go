package server_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

// BenchmarkFactConnection measures one facts page over HTTP against an
// in-memory store holding 10,000 of the caller's facts (a tenth restricted
// to executives, whom the caller is not): the first page, the last page,
// and a page without totalCount. Every page counts the whole partition.
// Reported: the median latency per request in ms.
func BenchmarkFactConnection(b *testing.B) {
	env := apitest.New(b)
	exec := apitest.Identity("bench", "ceo")
	exec.Authority = "executive"
	execTok := apitest.Token(b, exec)
	tok := apitest.Token(b, apitest.Identity("bench", "reader"))
	const total, batch = 10000, 1000
	for n := 0; n < total; n += batch {
		in := make([]map[string]any, batch)
		for i := range in {
			in[i] = map[string]any{"key": fmt.Sprintf("k-%05d", n+i), "value": fmt.Sprintf("value %d, a short sentence about the project", n+i), "memoryType": "ORGANIZATIONAL"}
			if i%10 == 0 {
				in[i]["restrictedTo"] = map[string]any{"minAuthority": "executive"}
			}
		}
		var out struct{ WriteFacts []struct{ ID string } }
		env.MustDo(b, execTok, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": in}, &out)
		env.Clock.Advance(time.Second)
	}
	cases := []struct{ name, query string }{
		{"first50+count", `{ facts(first: 50) { totalCount edges { node { id key } } pageInfo { hasNextPage endCursor } } }`},
		{"last50+count", `{ facts(last: 50) { totalCount edges { node { id key } } pageInfo { hasPreviousPage startCursor } } }`},
		{"count-only", `{ facts(first: 0) { totalCount } }`},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			body, _ := json.Marshal(map[string]any{"query": tc.query})
			var out struct{ Facts struct{ TotalCount int } }
			r := env.Post(b, tok, body)
			r.Decode(b, &out)
			if out.Facts.TotalCount != total-total/10 {
				b.Fatalf("totalCount %d, want %d", out.Facts.TotalCount, total-total/10)
			}
			lat := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				if r := env.Post(b, tok, body); len(r.Errors) > 0 {
					b.Fatal(r)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		})
	}
}
