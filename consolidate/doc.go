// Package consolidate turns capability memory's repeated events into
// higher abstractions and prunes what has no value, as the paper's
// nightly consolidation job does.
//
// A run reads the valid EVENT memories of one capability of one
// organization that the consolidating agent may read (restricted events
// stay out: their text must not reach an unrestricted abstraction),
// prunes the low-value ones (CONTRADICTED: a fact an event depends on was
// superseded; UNUSED: older than the stale-after period and never included
// in an assembled context; STALE: last included longer than that ago),
// clusters the rest by similarity (an Embedder; by default Lexical, TF-IDF
// over the project's lexical terms, compared by cosine), and makes one
// candidate per cluster of at least the minimum size: a key and a text
// built deterministically from the cluster's shared terms and its
// representative member, with the members as provenance (its dependsOn
// edges, and the run record).
//
// Candidates are written only at the level the consolidating agent may
// write: a junior agent writes nothing (the run records its candidates and
// prunes as proposals for review), a senior agent writes HEURISTIC
// memories, a master agent (or a service) STRATEGY memories. Every write
// goes through the write pipeline, in one transaction per run: the
// candidates, the prunes (each retired as a revocation naming the run,
// with a PRUNED audit entry) and the run record, all or nothing.
//
// Runs are recorded (inputs, clusters, outputs, pruned) and idempotent: a
// run whose inputs (the events left after pruning), level and parameters
// are those of the capability's latest run writes nothing and returns that
// run. A background loop (Options.Every) consolidates every capability of
// every organization that has written an event since the feature existed,
// as a background agent of configured level and authority, with no user
// and no private space.
package consolidate
