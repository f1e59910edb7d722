// Package contextasm assembles the context of assembleContext: it gathers
// the caller's candidate records from the store in one read transaction,
// as of the requested view, scores them against the query with the BM25
// index, and hands them to assemble.Build, which packs them into the
// token budget with their provenance.
//
// Gathering is split into Sources, one per kind of record (facts, the
// session's working set and turns, environment entries). A new kind of
// record, such as state assertions, is one more Source; permission
// filtering is the facts source's Visibility.
package contextasm

import (
	"context"
	"slices"
	"time"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Input limits.
const (
	MaxBudget   = 1 << 20
	MaxQueryLen = 8 << 10
)

// Input is one assembleContext request.
type Input struct {
	Query     string
	Budget    int
	FactShare *float64 // default assemble.DefaultFactShare
	SessionID string   // optional: the session whose working set is layer 3
	View      temporal.View
}

// Query is what every Source sees of a request.
type Query struct {
	Caller    authority.Identity
	Text      string
	Terms     []string // distinct, sorted
	SessionID string
	Budget    int
	View      temporal.View
	// Now is the time the context is for: the view's asOf, else its
	// knownAt, else the clock.
	Now time.Time
	// Retired lists values that facts gathered for this query superseded;
	// the facts source fills it, the working-set source reads it.
	Retired []Retired

	// successor maps a superseded fact reported because a candidate
	// replaced it to that candidate.
	successor map[string]string
}

// Retired is a superseded fact's value, the value of the head that
// replaced it, and when it was superseded.
type Retired struct {
	ID    string
	Value string
	New   string
	At    time.Time
}

// Source contributes candidates to an assembly. Gather runs inside the
// request's read transaction, bound to the caller's partition; it adds to
// in (records, exclusions, the withheld count) and must not keep tx.
type Source interface {
	Gather(tx *store.Txn, q *Query, in *assemble.Input) error
}

// Service assembles contexts. It is safe for concurrent use.
type Service struct {
	store   *store.Store
	clock   temporal.Clock
	counter assemble.Counter
	fetcher *environment.Fetcher
	sources []Source
}

// Options configure a Service.
type Options struct {
	Store   *store.Store
	Clock   temporal.Clock
	Counter assemble.Counter
	// Fetcher calls the environment providers; nil calls none.
	Fetcher *environment.Fetcher
	// Sources gather candidates, in order.
	Sources []Source
}

// New returns a Service.
func New(o Options) *Service {
	return &Service{store: o.Store, clock: o.Clock, counter: o.Counter, fetcher: o.Fetcher, sources: o.Sources}
}

func (in Input) validate() error {
	switch {
	case in.Budget < 0 || in.Budget > MaxBudget:
		return fault.BadInputf("budget", "budget must be between 0 and %d tokens", MaxBudget)
	case len(in.Query) > MaxQueryLen:
		return fault.BadInputf("query", "query must be at most %d bytes", MaxQueryLen)
	case in.FactShare != nil && !(*in.FactShare > 0 && *in.FactShare <= 1):
		return fault.BadInputf("factShare", "factShare must be greater than 0 and at most 1")
	case in.SessionID != "" && !facts.ValidID(in.SessionID):
		return fault.BadInputf("sessionId", "sessionId %q is not valid", in.SessionID)
	}
	return nil
}

// Assemble builds the caller's context for in.
func (s *Service) Assemble(ctx context.Context, in Input) (assemble.Output, error) {
	if err := in.validate(); err != nil {
		return assemble.Output{}, err
	}
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return assemble.Output{}, err
	}
	// The instant the context is assembled for: asOf, else knownAt, else now.
	q := &Query{Caller: caller, Text: in.Query, Terms: QueryTerms(in.Query), SessionID: in.SessionID, Budget: in.Budget, View: in.View, Now: in.View.Instant(s.clock.Now())}

	// Providers answer about the present only: a view of the past cannot
	// call them, and says so.
	type fetched struct {
		sig    []environment.Signal
		issues []string
	}
	var provDone chan fetched
	if s.fetcher.Len() > 0 && in.View.Current() {
		provDone = make(chan fetched, 1)
		go func() {
			sig, issues := s.fetcher.Fetch(ctx)
			provDone <- fetched{sig, issues}
		}()
	}

	bi := assemble.Input{
		Budget:   in.Budget,
		Identity: identity(caller),
	}
	if in.FactShare != nil {
		bi.FactShare = *in.FactShare
	}
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		for _, src := range s.sources {
			if err := src.Gather(tx, q, &bi); err != nil {
				return err
			}
		}
		return nil
	})
	if provDone != nil {
		f := <-provDone
		bi.Environment = mergeSignals(bi.Environment, f.sig)
		bi.EnvIssues = append(bi.EnvIssues, f.issues...)
	} else if s.fetcher.Len() > 0 {
		bi.EnvIssues = append(bi.EnvIssues, "providers not called for a view of the past")
	}
	if err != nil {
		return assemble.Output{}, err
	}
	return dropUnrelated(assemble.Build(bi, s.counter), q.successor), nil
}

// dropUnrelated removes from out the superseded facts reported only
// because a candidate replaced them, when that candidate is not in the
// text: provenance names what the text's facts replaced, not what every
// candidate did.
func dropUnrelated(out assemble.Output, successor map[string]string) assemble.Output {
	if len(successor) == 0 {
		return out
	}
	in := make(map[string]bool, len(out.Included))
	for _, i := range out.Included {
		if i.Kind == assemble.KindFact {
			in[i.ID] = true
		}
	}
	kept := out.Excluded[:0]
	for _, e := range out.Excluded {
		if succ, ok := successor[e.ID]; ok && e.Kind == assemble.KindFact && e.Reason == assemble.ReasonSuperseded && !in[succ] {
			continue
		}
		kept = append(kept, e)
	}
	out.Excluded = kept
	return out
}

// mergeSignals adds provider signals to the environment; a signal replaces
// a stored entry of the same key, being fresher.
func mergeSignals(env []assemble.Attr, sig []environment.Signal) []assemble.Attr {
	if len(sig) == 0 {
		return env
	}
	fresh := make(map[string]bool, len(sig))
	for _, s := range sig {
		fresh[s.Key] = true
	}
	out := env[:0:0]
	for _, a := range env {
		if !fresh[a.Key] {
			out = append(out, a)
		}
	}
	for _, s := range sig {
		out = append(out, assemble.Attr{Key: s.Key, Value: s.Value})
	}
	return out
}

func identity(c authority.Identity) assemble.Identity {
	id := assemble.Identity{
		UserID: c.UserID, Name: c.UserName, Organization: c.Org,
		Authority: c.Authority, Department: c.Department, Permissions: c.Permissions,
	}
	if c.Kind != "" {
		id.Attributes = append(id.Attributes, assemble.Attr{Key: "kind", Value: string(c.Kind)})
	}
	if c.Capability != "" {
		id.Attributes = append(id.Attributes, assemble.Attr{Key: "capability", Value: c.Capability})
	}
	return id
}

// QueryTerms returns the distinct index terms of a query, sorted.
func QueryTerms(q string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range lexical.Terms(q) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// EnvironmentSource gathers the stored environment entries and the
// current time, date and timezone.
type EnvironmentSource struct{}

// Gather implements Source.
func (EnvironmentSource) Gather(tx *store.Txn, q *Query, in *assemble.Input) error {
	live, expired, superseded, err := environment.CurrentTx(tx, q.View, q.Now)
	if err != nil {
		return err
	}
	tz := ""
	for _, e := range live {
		if e.Key == environment.KeyTimezone {
			tz = e.Value
			continue
		}
		in.Environment = append(in.Environment, assemble.Attr{Key: e.Key, Value: e.Value})
	}
	for k, v := range environment.Clock(q.Now, tz) {
		in.Environment = append(in.Environment, assemble.Attr{Key: k, Value: v})
	}
	for _, e := range expired {
		in.Excluded = append(in.Excluded, assemble.Exclusion{ID: e.Key, Kind: assemble.KindEnvironment, Reason: assemble.ReasonExpired})
	}
	for _, e := range superseded {
		in.Excluded = append(in.Excluded, assemble.Exclusion{ID: e.Key, Kind: assemble.KindEnvironment, Reason: assemble.ReasonSuperseded})
	}
	return nil
}
