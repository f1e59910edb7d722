package contextasm_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/benchcpu"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// benchServer is a seeded server, shared by the runs of -count.
type benchServer struct {
	srv   *server.Server
	http  *httptest.Server
	clock *temporal.Manual // the server's, where seeding left it
	tok   string
	dir   string
	keep  bool // the directory is STATEGRAPH_BENCH_DIR's: not removed
}

// close stops the server and removes its data directory.
func (s *benchServer) close() {
	s.http.Close()
	_ = s.srv.Close()
	if !s.keep {
		_ = os.RemoveAll(s.dir)
	}
}

// closeBenchServers closes every seeded server but keep.
func closeBenchServers(keep int) {
	benchMu.Lock()
	defer benchMu.Unlock()
	for n, s := range benchServers {
		if n != keep {
			s.close()
			delete(benchServers, n)
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	closeBenchServers(-1)
	os.Exit(code)
}

var (
	benchMu      sync.Mutex
	benchServers = map[int]*benchServer{}
)

// vocabulary is the synthetic corpus' words: 2,000 of them, so a word is
// in about n*8/2000 documents.
func vocabulary() []string {
	v := make([]string, 2000)
	for i := range v {
		v[i] = "w" + strconv.FormatInt(int64(i)*7919+1000, 36)
	}
	return v
}

// seeded returns a server whose caller holds n valid facts and n
// superseded ones, written through facts.Service (with the search index
// listening) into a real Badger store, in batches, and the rest of what an
// agent's partition holds (seedConversation): state assertions, and a
// session of recorded turns whose sentences are evidence.
func seeded(b *testing.B, n int) *benchServer {
	benchMu.Lock()
	defer benchMu.Unlock()
	if s, ok := benchServers[n]; ok {
		return s
	}
	clock := temporal.NewManual(apitest.Start)
	// On disk, as in production; the directory outlives the benchmark
	// runs of -count and is removed by TestMain, unless
	// STATEGRAPH_BENCH_DIR names a directory to keep it in: then a store
	// seeded by an earlier run is reused as it is (seeding 100,000 facts
	// takes minutes).
	dir, keep, reuse := "", false, false
	if base := os.Getenv("STATEGRAPH_BENCH_DIR"); base != "" {
		dir, keep = filepath.Join(base, fmt.Sprintf("facts-%d", n)), true
		_, err := os.Stat(filepath.Join(dir, seededMarker))
		reuse = err == nil
		if !reuse {
			_ = os.RemoveAll(dir)
		}
	} else {
		var err error
		if dir, err = os.MkdirTemp("", "stategraph-bench-"); err != nil {
			b.Fatal(err)
		}
	}
	o := server.DefaultOptions(dir)
	o.Store.SyncWrites = false
	o.RateLimit = 0 // the benchmark is one organization's load by design
	o.MinFreeDisk = 0
	o.Verifier = authority.VerifierConfig{Secret: apitest.Secret}
	o.Clock = clock
	srv, err := server.New(o)
	if err != nil {
		b.Fatal(err)
	}
	id := apitest.Identity("org-bench", "alice")
	tok := apitest.Token(b, id)
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: apitest.Secret})
	if err != nil {
		b.Fatal(err)
	}
	caller, err := v.Verify(tok)
	if err != nil {
		b.Fatal(err)
	}
	p, err := tenancy.For(caller)
	if err != nil {
		b.Fatal(err)
	}
	if reuse {
		clock.Advance(time.Duration(2*((n+15)/16))*time.Second + conversationTime) // as seeding left it
		s := &benchServer{srv: srv, http: httptest.NewServer(srv.Handler()), clock: clock, tok: tok, dir: dir, keep: keep}
		benchServers[n] = s
		return s
	}
	fs := pipeline.New(pipeline.Options{
		Store: srv.Store(), Clock: clock, Facts: facts.NewService(srv.Store(), clock, authority.MustDefaultOrder()), Index: search.New(),
	})
	vocab := vocabulary()
	rng := rand.New(rand.NewSource(1))
	value := func() string {
		w := make([]string, 8)
		for i := range w {
			w[i] = vocab[rng.Intn(len(vocab))]
		}
		return strings.Join(w, " ")
	}
	f := false
	const batch = 16
	for pass := range 2 { // pass 0 writes n facts, pass 1 supersedes each
		for start := 0; start < n; start += batch {
			clock.Advance(time.Second)
			err := srv.Store().Update(context.Background(), p, func(tx *store.Txn) error {
				for i := start; i < min(start+batch, n); i++ {
					in := facts.WriteInput{Key: fmt.Sprintf("item_%d", i), Value: json.RawMessage(strconv.Quote(value())), IsConstraint: &f}
					if pass == 1 {
						in.Supersedes = in.Key
					}
					if _, err := fs.WriteTx(tx, caller, in); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	// A few active constraints, as a real organization has.
	err = srv.Store().Update(context.Background(), p, func(tx *store.Txn) error {
		for i := range 10 {
			in := facts.WriteInput{Key: fmt.Sprintf("policy_%d", i), Value: json.RawMessage(strconv.Quote("never exceed " + value()))}
			if _, err := fs.WriteTx(tx, caller, in); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	s := &benchServer{srv: srv, http: httptest.NewServer(srv.Handler()), clock: clock, tok: tok, dir: dir, keep: keep}
	seedConversation(b, &apitest.Env{URL: s.http.URL, Server: srv, Clock: clock, HTTP: s.http}, tok, vocab, rng)
	if keep {
		if err := os.WriteFile(filepath.Join(dir, seededMarker), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	benchServers[n] = s
	return s
}

// seededMarker marks a kept benchmark store as completely seeded (its
// suffix is the version of what seeded writes).
const seededMarker = "SEEDED-3"

// Sizes of the conversation seedConversation records.
const (
	benchSession    = "s1"
	benchAssertions = 1000
	benchTurns      = 40
	// conversationTime is how far seedConversation moves the clock.
	conversationTime = benchTurns * time.Minute
)

// seedConversation records, over the API, what an agent's partition holds
// beside its facts: benchAssertions state assertions (ten contexts, the
// benchmark's session one of them; a later one of a slot revokes the
// earlier, so a quarter have ended), and benchTurns turns of ten sentences
// in session benchSession (the last ones its working set, every sentence
// evidence), a minute apart.
func seedConversation(b *testing.B, env *apitest.Env, tok string, vocab []string, rng *rand.Rand) {
	for i := range benchAssertions {
		env.MustDo(b, tok, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": map[string]any{
			"subject": fmt.Sprintf("Entity#%d", i%750), "predicate": "location", "object": fmt.Sprintf("Room#%d", i), "context": fmt.Sprintf("s%d", i%10),
			"epistemicStatus": "INFERENCE", "validity": map[string]any{"mode": "UNTIL_CHANGED"},
			"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
		}}, &struct{}{})
	}
	for range benchTurns {
		s := make([]string, 10)
		for i := range s {
			w := make([]string, 8)
			for j := range w {
				w[j] = vocab[rng.Intn(len(vocab))]
			}
			s[i] = "We talked about " + strings.Join(w, " ") + "."
		}
		env.MustDo(b, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } } }`,
			map[string]any{"in": map[string]any{"sessionId": benchSession, "speaker": "USER", "text": strings.Join(s, " ")}}, &struct{}{})
		env.Clock.Advance(time.Minute)
	}
}

// BenchmarkAssembleContext measures assembleContext over HTTP at budget
// 8000 for a caller with 1,000 and 100,000 valid facts (and as many
// superseded), 1,000 state assertions and a recorded conversation
// (seedConversation), asking questions in that conversation's session (so
// every source reads: facts, working set, assertions, evidence), reporting p50 and p99 latency (from the
// request to the response's last byte), bytes allocated and CPU time
// (cpu-ms/call, which a busy machine disturbs less than latency) per call
// (client and server together: one process), collection cycles per
// 1,000 calls and the process's CPU over wall time in the slowest 1% of
// calls (tailCPUShare); the 100,000 case also reports the process's
// resident memory with its 200,000 records stored.
// It runs in make bench only.
func BenchmarkAssembleContext(b *testing.B) {
	if testing.Short() {
		b.Skip("seeding is slow")
	}
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("facts=%d", n), func(b *testing.B) {
			s := seeded(b, n)
			vocab := vocabulary()
			rng := rand.New(rand.NewSource(2))
			bodies := make([][]byte, 64)
			for i := range bodies {
				q := fmt.Sprintf("what do we know about %s and %s, %s %s?", vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))])
				bodies[i], _ = json.Marshal(map[string]any{"query": assembleQ, "variables": map[string]any{"in": map[string]any{"query": q, "budget": 8000, "sessionId": benchSession}}})
			}
			client := s.http.Client()
			// The client is lean, as BenchmarkWriteFact's are: it reads each
			// response into a buffer of its own, and a call's latency ends
			// with the response's last byte. Checking the response
			// (decoding it) is the benchmark's work, not the service's: it
			// runs after the clock stops (check), though its CPU counts in
			// cpu-ms/call. Until 2026-11-28 a json.Decoder decoded each
			// response on the clock, growing a new buffer to the 40–90 KB
			// response: about a fifth of the process's CPU and half of the
			// bytes allocated per call.
			var buf bytes.Buffer
			call := func(body []byte) {
				req, _ := http.NewRequest(http.MethodPost, s.http.URL+"/graphql", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+s.tok)
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				defer resp.Body.Close()
				buf.Reset()
				if _, err := buf.ReadFrom(resp.Body); err != nil || resp.StatusCode != http.StatusOK {
					b.Fatalf("assembleContext: status %d: %v", resp.StatusCode, err)
				}
			}
			check := func() {
				var out struct {
					Data   struct{ AssembleContext struct{ Tokens int } }
					Errors []any
				}
				if err := json.Unmarshal(buf.Bytes(), &out); err != nil || len(out.Errors) > 0 || out.Data.AssembleContext.Tokens > 8000 {
					b.Fatalf("assembleContext: %v %v", err, out.Errors)
				}
			}
			for _, body := range bodies { // warm the token cache and connections
				call(body)
				check()
			}
			var lat []time.Duration
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			if path := os.Getenv("BENCH_CPUPROFILE"); path != "" {
				f, err := os.Create(fmt.Sprintf("%s.%d", path, n))
				if err != nil {
					b.Fatal(err)
				}
				_ = pprof.StartCPUProfile(f)
				defer func() { pprof.StopCPUProfile(); f.Close() }()
			}
			// BENCH_MEMPROFILE=FILE writes the heap profile before and
			// after the timed calls (FILE.N.before, FILE.N.after), so
			// `go tool pprof -sample_index=alloc_space -base
			// FILE.N.before FILE.N.after` shows what the calls allocated,
			// without seeding and warming up.
			memProfile := func(string) {}
			if path := os.Getenv("BENCH_MEMPROFILE"); path != "" {
				memProfile = func(when string) {
					runtime.GC() // the profile holds what the last cycle saw
					f, err := os.Create(fmt.Sprintf("%s.%d.%s", path, n, when))
					if err != nil {
						b.Fatal(err)
					}
					defer f.Close()
					if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
						b.Fatal(err)
					}
				}
			}
			memProfile("before")
			defer memProfile("after")
			b.ReportAllocs()
			// The process's CPU during each call (read outside the
			// latency's clock), and the collection cycles of the run: for
			// the slowest calls, CPU near their wall time says the process
			// was working (the call, or a collection beside it); far below
			// it, that it waited for a core (tailCPUShare).
			cpuOf := make([]time.Duration, 0, b.N)
			gcs := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
			metrics.Read(gcs)
			gc0 := gcs[0].Value.Uint64()
			cpu0 := benchcpu.Used()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				c0 := benchcpu.Used()
				t0 := time.Now()
				call(bodies[i%len(bodies)])
				lat = append(lat, time.Since(t0))
				cpuOf = append(cpuOf, benchcpu.Used()-c0)
				check()
				i++
			}
			b.StopTimer()
			if cpu := benchcpu.Used() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(lat)), "cpu-ms/call")
			}
			metrics.Read(gcs)
			b.ReportMetric(float64(gcs[0].Value.Uint64()-gc0)*1000/float64(len(lat)), "gc/1000calls")
			b.ReportMetric(tailCPUShare(lat, cpuOf), "tail-cpu/wall")
			runtime.ReadMemStats(&ms1)
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[min(int(float64(len(lat))*p), len(lat)-1)].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(len(lat)), "alloc-B/call")
			if n == 100000 {
				// Measure this server alone: close the smaller one, and
				// return freed seeding garbage to the OS, so the figure
				// is what serving 200,000 records needs.
				closeBenchServers(n)
				debug.FreeOSMemory()
				debug.FreeOSMemory() // what the first collection freed is returned by the second
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				b.ReportMetric(rssMiB(), "rss-MiB")
				b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
				// The part of it the collector scans (objects holding
				// pointers): a cycle's mark work grows with it.
				scan := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
				metrics.Read(scan)
				b.ReportMetric(float64(scan[0].Value.Uint64())/(1<<20), "scan-MiB")
			}
		})
	}
}

// tailCPUShare returns, for the slowest 1% of calls (at least one), the
// process's CPU time during them over their wall time: near 1 or above
// (two cores), the process was busy, with the call or beside it (a
// collection); near 0, it waited (a machine busy with other work). lat
// and cpu are per call, in the same order; they are not changed.
func tailCPUShare(lat, cpu []time.Duration) float64 {
	if len(lat) == 0 {
		return 0
	}
	idx := make([]int, len(lat))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int { return cmp.Compare(lat[y], lat[x]) })
	var wall, used time.Duration
	for _, i := range idx[:max(len(idx)/100, 1)] {
		wall += lat[i]
		used += cpu[i]
	}
	if wall <= 0 {
		return 0
	}
	return float64(used) / float64(wall)
}

// rssMiB returns the process's resident set size from /proc, in MiB, or
// the Go heap in use when /proc is not there.
func rssMiB() float64 {
	if raw, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
				if err == nil {
					return float64(kb) / 1024
				}
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapInuse) / (1 << 20)
}
