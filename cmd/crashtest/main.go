// Command crashtest kills a stategraph server at random moments under
// concurrent writes and checks that no acknowledged write was lost. See
// package internal/crashtest; 'make crashtest' runs it in full.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/stategraph/stategraph/internal/crashtest"
)

func main() {
	var c crashtest.Config
	flag.StringVar(&c.Bin, "bin", "bin/stategraph", "the stategraph binary to test")
	flag.StringVar(&c.Dir, "dir", "", "data directory (default: a new temporary one)")
	flag.IntVar(&c.Cycles, "cycles", 20, "kill-and-restart cycles")
	flag.IntVar(&c.Writers, "writers", 8, "concurrent writers")
	flag.IntVar(&c.Keys, "keys", 8, "supersession chains the writers share")
	flag.DurationVar(&c.MinRun, "min-run", 100*time.Millisecond, "shortest run before a kill")
	flag.DurationVar(&c.MaxRun, "max-run", 1500*time.Millisecond, "longest run before a kill")
	flag.Uint64Var(&c.Seed, "seed", uint64(time.Now().UnixNano()), "random seed (printed, to replay a run)")
	flag.Parse()
	c.Log = os.Stdout
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Printf("crashtest: %d cycles, %d writers on %d chains, seed %d\n", c.Cycles, c.Writers, c.Keys, c.Seed)
	res, err := crashtest.Run(ctx, c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crashtest:", err)
		os.Exit(2)
	}
	fmt.Printf("crashtest: %d kill cycles; writes acknowledged %d, verified %d, lost %d; cut off by a kill (either outcome allowed) %d\n",
		res.Cycles, res.Acknowledged, res.Verified, res.Lost, res.Unknown)
	for _, v := range res.Violations {
		fmt.Println("VIOLATION:", v)
	}
	if !res.OK() {
		fmt.Println("crashtest: FAILED")
		os.Exit(1)
	}
	fmt.Println("crashtest: OK")
}
