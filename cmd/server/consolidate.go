package main

import (
	"flag"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/consolidate"
)

// consolidateFlags configure the consolidation of capability memory and
// its background schedule.
type consolidateFlags struct {
	every, staleAfter time.Duration
	level, authority  string
	threshold         float64
	minCluster        int
}

func (c *consolidateFlags) register(fs *flag.FlagSet) {
	fs.DurationVar(&c.every, "consolidate-every", 0, "consolidate every capability of every organization this often, as a background agent (0, the default, disables the schedule; consolidateCapability still works)")
	fs.StringVar(&c.level, "consolidate-level", string(authority.AgentSenior), "agent level of the background consolidator: junior (proposals only), senior (writes HEURISTIC) or master (writes STRATEGY)")
	fs.StringVar(&c.authority, "consolidate-authority", "system", "authority of the background consolidator (an authority of the order); it prunes only events of its authority or below")
	fs.DurationVar(&c.staleAfter, "consolidate-stale-after", consolidate.DefaultStaleAfter, "an event memory older than this and never included in a context, or not included for this long, is pruned")
	fs.Float64Var(&c.threshold, "consolidate-threshold", consolidate.DefaultThreshold, "cosine similarity (0 to 1] at which two event memories join a cluster")
	fs.IntVar(&c.minCluster, "consolidate-min-cluster", consolidate.DefaultMinClusterSize, "fewest similar events that make a candidate heuristic (at least 2)")
}

// options returns the consolidation options; server.New validates them.
func (c *consolidateFlags) options() consolidate.Options {
	return consolidate.Options{
		Every: c.every, StaleAfter: c.staleAfter, Level: authority.AgentLevel(c.level), Authority: c.authority,
		Threshold: c.threshold, MinClusterSize: c.minCluster,
	}
}
