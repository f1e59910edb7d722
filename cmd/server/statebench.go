package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/statebench"
	"github.com/stategraph/stategraph/temporal"
)

func runStatebench(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	var (
		data, serverURL, out, track string
		budget, workers, scaling    int
		long, short                 int
		seed                        uint64
		j                           jwtFlags
	)
	fs := flag.NewFlagSet("statebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&data, "data", "", "StateBench JSONL file (required)")
	fs.StringVar(&serverURL, "server", "", "base URL of a running server (default: an in-memory server on loopback for each worker, whose clock follows the timeline). A running server records what a replay writes at its own time, and makes its own ids")
	fs.IntVar(&budget, "budget", 8000, "token budget of every assembleContext")
	fs.StringVar(&out, "out", "", "directory for queries.jsonl and summary.json")
	fs.StringVar(&track, "track", "", "replay only this track")
	fs.IntVar(&workers, "workers", 4, "timelines replayed at once")
	fs.IntVar(&scaling, "generate-scaling", 0, "write the scaling timeline of `N` fact writes (N/10 turns, 20 queries) to stdout and exit")
	fs.IntVar(&long, "generate-long", 0, "write `N` long conversations (about 250 turns, 100k tokens each) to stdout and exit")
	fs.IntVar(&short, "generate-short", 0, "write `N` short conversation timelines (5 to 20 turns) to stdout and exit")
	fs.Uint64Var(&seed, "seed", 1, "seed of --generate-scaling, --generate-long and --generate-short, and of the loopback servers' ids")
	j.register(fs)
	if err := parse(fs, args, env); err != nil {
		return err
	}
	switch {
	case scaling > 0:
		return statebench.Scaling(stdout, scaling, seed)
	case long > 0:
		return statebench.Long(stdout, long, seed)
	case short > 0:
		return statebench.Short(stdout, short, seed)
	}
	switch {
	case data == "":
		return errors.New("--data is required")
	case budget <= 0:
		return errors.New("--budget must be positive")
	case workers <= 0:
		return errors.New("--workers must be positive")
	case serverURL != "" && j.secret == "":
		return errors.New("--server needs --jwt-secret (or STATEGRAPH_JWT_SECRET) to mint a token for each timeline")
	}
	if err := checkSecret(secretSource, []byte(j.secret)); err != nil {
		return err
	}
	timelines, err := statebench.LoadFile(data)
	if err != nil {
		return err
	}
	// No more workers (and loopback servers) than
	// timelines to replay.
	n := 0
	for _, tl := range timelines {
		if track == "" || tl.Track == track {
			n++
		}
	}
	workers = max(1, min(workers, n))
	secret := []byte(j.secret)
	// A shared server needs organizations of their own for each run; the
	// loopback servers are this run's alone, and a fixed run id keeps the
	// output reproducible.
	runID := "sb-" + randomHex(4)
	servers := make([]statebench.Server, workers)
	if serverURL == "" {
		secret, runID = []byte(randomHex(32)), "sb"
		for i := range servers {
			stopServer, srv, err := startLoopback(ctx, secret)
			if err != nil {
				return err
			}
			defer stopServer()
			servers[i] = srv
		}
	} else {
		c := &statebench.Client{URL: strings.TrimSuffix(serverURL, "/") + "/graphql", HTTP: &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: workers * 2}}}
		for i := range servers {
			servers[i] = statebench.Server{Client: c}
		}
	}
	progress := progressBar(stderr)
	res, err := statebench.Run(ctx, servers, timelines, statebench.Options{
		Budget: budget, Track: track, Seed: seed, RunID: runID, Progress: progress,
		Mint: func(id authority.Identity) (string, error) {
			return authority.Mint(secret, id, 2*time.Hour, j.issuer, j.audience, time.Now())
		},
	})
	if err != nil {
		return err
	}
	printReport(stdout, res)
	if out != "" {
		return writeOutputs(out, budget, res)
	}
	return nil
}

// startLoopback starts an in-memory server on a loopback port for one
// worker. Its clock is manual and its ids seeded: the replay moves the
// clock along the timeline and reseeds the ids for each timeline, so that
// no wall-clock time reaches the output, and the output is the same
// whenever it runs and however many workers run it.
func startLoopback(ctx context.Context, secret []byte) (stop func(), sb statebench.Server, err error) {
	o := server.DefaultOptions("")
	o.Store.InMemory, o.Store.SyncWrites = true, false
	// One server per worker: small memtables and caches keep four of them
	// near the memory of the one they replaced (dev split, --workers 4:
	// about 138 MB maximum RSS, 225 MB with the defaults; same output).
	o.Store.MemTableSize, o.Store.BlockCacheSize, o.Store.IndexCacheSize = 8<<20, 4<<20, 4<<20
	o.Verifier.Secret = secret
	// The runner is the server's only client: no rate limit.
	o.RateLimit = 0
	// The sweep would record expiries at wall-clock moments; reads judge
	// leases at the replay's time anyway.
	o.LeaseSweepInterval = 0
	clock := temporal.NewManual(statebench.ReplayTime)
	gen := ids.Seeded(clock, 0)
	o.Clock, o.IDs = clock, gen
	srv, err := server.New(o)
	if err != nil {
		return nil, statebench.Server{}, err
	}
	sctx, cancel := context.WithCancel(ctx)
	addrc := make(chan string, 1)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(sctx, "127.0.0.1:0", 5*time.Second, func(a string) { addrc <- a }) }()
	select {
	case a := <-addrc:
		stop = func() {
			cancel()
			<-errc
			_ = srv.Close()
		}
		c := &statebench.Client{URL: "http://" + a + "/graphql", HTTP: &http.Client{Timeout: time.Minute}}
		return stop, statebench.Server{Client: c, Clock: clock, Reseed: gen.Reseed}, nil
	case err := <-errc:
		cancel()
		_ = srv.Close()
		return nil, statebench.Server{}, err
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// progressBar draws progress on a terminal, and nothing otherwise.
func progressBar(w io.Writer) func(done, total int) {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(done, total int) {
		const width = 30
		n := done * width / max(total, 1)
		fmt.Fprintf(f, "\r[%s%s] %d/%d timelines", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
		if done == total {
			fmt.Fprintln(f)
		}
	}
}

func printReport(w io.Writer, res statebench.Result) {
	row := func(name string, m statebench.Metrics) {
		fmt.Fprintf(w, "%-28s %7d %8.1f%% %8.1f%% %9.1f\n", name, m.Queries, 100*m.CSFRR, 100*m.CMMR, m.MeanTokens)
	}
	fmt.Fprintf(w, "%-28s %7s %9s %9s %9s\n", "track", "queries", "cSFRR", "cMMR", "tokens")
	for _, name := range res.Report.TrackNames() {
		row(name, res.Report.Tracks[name])
	}
	row("overall", res.Report.Overall)
	if o := res.Report.Overall; o.ClockOnly > 0 {
		fmt.Fprintf(w, "\n%d of the %d contexts counted in cSFRR hold a forbidden phrase only in their date/now lines (the timeline's own time, such as its weekday); without them cSFRR is %.1f%%\n",
			o.ClockOnly, o.Resurrected, 100*float64(o.Resurrected-o.ClockOnly)/float64(max(o.Queries, 1)))
	}
	if res.Rejected > 0 {
		fmt.Fprintf(w, "\n%d warnings: writes the server refused or the runner adjusted, initial facts not loaded (listed in summary.json with --out)\n", res.Rejected)
	}
}

func writeOutputs(dir string, budget int, res statebench.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create --out: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, q := range res.Queries {
		if err := enc.Encode(q); err != nil {
			return errors.Join(err, f.Close())
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	tf, err := os.Create(filepath.Join(dir, "turns.jsonl"))
	if err != nil {
		return err
	}
	enc = json.NewEncoder(tf)
	for _, t := range res.Turns {
		if err := enc.Encode(t); err != nil {
			return errors.Join(err, tf.Close())
		}
	}
	if err := tf.Close(); err != nil {
		return err
	}
	sum, err := json.MarshalIndent(map[string]any{
		"budget": budget, "overall": res.Report.Overall, "tracks": res.Report.Tracks, "warnings": res.Warnings,
	}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "summary.json"), append(sum, '\n'), 0o644)
}
