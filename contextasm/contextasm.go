// Package contextasm assembles the context of assembleContext in three
// steps:
//
//   - gather: each Source (facts, the session's working set and turns,
//     state assertions, environment entries; the environment providers
//     too) reads its kind of record, as of the requested view, in one
//     shared read transaction, and returns its own typed Candidates. Sources share no state: they
//     get a copy of the Query and return a result, so their order cannot
//     change anything;
//   - relate: Relate combines the candidate sets, pure and in a canonical
//     order: it removes what is superseded, expired, withheld or out of
//     scope, recording each exclusion with its reason (turns restating a
//     retired value, hypothetical content for a real query, a fact the
//     caller may not read, an expired assertion), and scores the working
//     set, the assertions and the turns;
//   - pack: assemble.Build packs the result into the token budget with its
//     provenance, and Related.Prune drops the supersessions of facts that
//     did not make it into the text.
//
// A new kind of record is one more Source and one more rule in Relate, as
// state assertions are (AssertionSource, assertionVerdict); permission
// filtering is the facts source's Visibility.
package contextasm

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/documents"
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
	// DocumentShare is the documents' share; default
	// assemble.DefaultDocumentShare.
	DocumentShare *float64
	SessionID     string // optional: the session whose working set is layer 3
	View          temporal.View
	// Now is the caller's clock reading; nil reads the service clock.
	Now *time.Time
}

// Query is what every Source sees of a request. Sources receive a copy
// and must not modify what its slices hold.
type Query struct {
	Caller    authority.Identity
	Text      string
	Terms     []string // distinct, sorted
	SessionID string
	Budget    int
	View      temporal.View
	// Now is the time the context is for: the view's asOf, else its
	// knownAt, else the caller's now, else the clock.
	Now time.Time
}

// Source gathers one kind of candidate for an assembly. Gather runs inside
// the request's read transaction, bound to the caller's partition, and
// returns what it found; it must not keep tx, and shares no state with
// other sources, so their order cannot change the result. Sources may run
// in any order.
type Source interface {
	Gather(tx *store.Txn, q Query) (Candidates, error)
}

// Documents finds the document chunks the caller of ctx may see that best
// match query, at most limit, checking permissions now (package
// documents); notes report a permission check that failed (its documents
// are left out). It does I/O, so it runs outside the read transaction.
type Documents interface {
	ForContext(ctx context.Context, query string, limit int) ([]documents.Chunk, []string, error)
}

// MaxDocumentChunks bounds the document chunks an assembly considers.
const MaxDocumentChunks = 20

// Service assembles contexts. It is safe for concurrent use.
type Service struct {
	store     *store.Store
	clock     temporal.Clock
	counter   assemble.Counter
	fetcher   *environment.Fetcher
	sources   []Source
	documents Documents
	usage     UsageRecorder
}

// UsageRecorder is told which facts a context of the present included
// (package consolidate notes it, to prune capability memory that no
// context uses). Used runs on the request's path after assembly: it must
// not block and must not keep ids.
type UsageRecorder interface {
	Used(p tenancy.Partition, at time.Time, ids []string)
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
	// Usage, when set, is told the facts each context of the present
	// included, for callers with a capability.
	Usage UsageRecorder
	// Documents finds document chunks for the current view; nil: none.
	Documents Documents
}

// New returns a Service.
func New(o Options) *Service {
	return &Service{store: o.Store, clock: o.Clock, counter: o.Counter, fetcher: o.Fetcher, sources: o.Sources, documents: o.Documents, usage: o.Usage}
}

func (in Input) validate() error {
	switch {
	case in.Budget < 0 || in.Budget > MaxBudget:
		return fault.BadInputf("budget", "budget must be between 0 and %d tokens", MaxBudget)
	case len(in.Query) > MaxQueryLen:
		return fault.BadInputf("query", "query must be at most %d bytes", MaxQueryLen)
	case in.FactShare != nil && !(*in.FactShare > 0 && *in.FactShare <= 1):
		return fault.BadInputf("factShare", "factShare must be greater than 0 and at most 1")
	case in.DocumentShare != nil && !(*in.DocumentShare > 0 && *in.DocumentShare <= 1):
		return fault.BadInputf("documentShare", "documentShare must be greater than 0 and at most 1")
	case in.SessionID != "" && !facts.ValidID(in.SessionID):
		return fault.BadInputf("sessionId", "sessionId %q is not valid", in.SessionID)
	case in.Now != nil && temporal.Check(*in.Now) != nil:
		return fault.BadInputf("now", "now must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z in UTC")
	}
	return nil
}

// Assemble builds the caller's context for in: gather (every Source, in
// one read transaction, plus the environment providers), relate (Relate),
// pack (assemble.Build).
func (s *Service) Assemble(ctx context.Context, in Input) (assemble.Output, error) {
	if err := in.validate(); err != nil {
		return assemble.Output{}, err
	}
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return assemble.Output{}, err
	}
	// The instant the context is assembled for: asOf, else knownAt, else
	// the caller's now, else the clock's.
	now := s.clock.Now()
	if in.Now != nil {
		now = in.Now.UTC()
	}
	q := Query{Caller: caller, Text: in.Query, Terms: QueryTerms(in.Query), SessionID: in.SessionID, Budget: in.Budget, View: in.View, Now: in.View.Instant(now)}

	// Providers answer about the present only: a view of the past cannot
	// call them, and says so.
	var provDone chan Candidates
	if s.fetcher.Len() > 0 && in.View.Current() {
		provDone = make(chan Candidates, 1)
		go func() {
			sig, issues := s.fetcher.Fetch(ctx)
			provDone <- providerCandidates(sig, issues)
		}()
	}

	// Documents are checked against their permissions now: a view of the
	// past does not search them.
	var docDone chan docResult
	if s.documents != nil && in.View.Current() {
		docDone = make(chan docResult, 1)
		go func() {
			cs, notes, err := s.documents.ForContext(ctx, in.Query, MaxDocumentChunks)
			docDone <- docResult{documentCandidates(cs, notes), err}
		}()
	}

	sets := make([]Candidates, len(s.sources), len(s.sources)+2)
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		for i, src := range s.sources {
			c, err := src.Gather(tx, q)
			if err != nil {
				return err
			}
			sets[i] = c
		}
		return nil
	})
	if provDone != nil {
		sets = append(sets, <-provDone)
	} else if s.fetcher.Len() > 0 {
		sets = append(sets, Candidates{Notes: []string{"providers not called for a view of the past"}})
	}
	if docDone != nil {
		d := <-docDone
		err = errors.Join(err, d.err)
		sets = append(sets, d.c)
	}
	if err != nil {
		return assemble.Output{}, err
	}
	r := Relate(q, sets...)
	for i := range sets {
		sets[i].release() // Relate copied what it keeps
	}
	share := 0.0
	if in.FactShare != nil {
		share = *in.FactShare
	}
	bi := r.Input(in.Budget, share, identity(caller))
	if in.DocumentShare != nil {
		bi.DocumentShare = *in.DocumentShare
	}
	out := r.Prune(assemble.Build(bi, s.counter))
	r.release() // Build rendered the facts and copied the exclusions
	if _, ok := p.Capability(); ok && s.usage != nil && in.View.Current() {
		var used []string
		for _, inc := range out.Included {
			if inc.Kind == assemble.KindFact {
				used = append(used, inc.ID)
			}
		}
		s.usage.Used(p, s.clock.Now(), used)
	}
	return out, nil
}

type docResult struct {
	c   Candidates
	err error
}

// documentCandidates returns document chunks as candidates, with notes.
func documentCandidates(cs []documents.Chunk, notes []string) Candidates {
	c := Candidates{Notes: notes}
	for _, d := range cs {
		c.Documents = append(c.Documents, assemble.Document{
			ID: d.ID(), DocumentID: d.DocumentID, Chunk: d.Index, Title: d.Title, SourceURI: d.SourceURI, Text: d.Text, Score: d.Score,
		})
	}
	return c
}

// providerCandidates returns provider signals as fresh environment
// entries, and their problems as notes.
func providerCandidates(sig []environment.Signal, issues []string) Candidates {
	c := Candidates{Notes: issues}
	for _, s := range sig {
		c.Environment = append(c.Environment, EnvCandidate{Attr: assemble.Attr{Key: s.Key, Value: s.Value}, Fresh: true})
	}
	return c
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
	out := lexical.Terms(q) // a slice of its own
	slices.Sort(out)
	return slices.Compact(out)
}

// EnvironmentSource gathers the stored environment entries and the
// current time, date and timezone.
type EnvironmentSource struct{}

// Gather implements Source.
func (EnvironmentSource) Gather(tx *store.Txn, q Query) (Candidates, error) {
	var c Candidates
	cur, err := environment.CurrentTx(tx, q.View, q.Now)
	if err != nil {
		return c, err
	}
	tz := ""
	liveValue := map[string]string{}
	for _, e := range cur.Live {
		liveValue[e.Key] = e.Value
		if e.Key == environment.KeyTimezone {
			tz = e.Value
			continue
		}
		c.Environment = append(c.Environment, EnvCandidate{Attr: assemble.Attr{Key: e.Key, Value: e.Value}})
	}
	for k, v := range environment.Clock(q.Now, tz) {
		c.Environment = append(c.Environment, EnvCandidate{Attr: assemble.Attr{Key: k, Value: v}})
	}
	for _, e := range cur.Expired {
		c.Excluded = append(c.Excluded, assemble.Exclusion{ID: e.Key, Kind: assemble.KindEnvironment, Reason: assemble.ReasonExpired})
	}
	for _, e := range cur.Superseded {
		c.Excluded = append(c.Excluded, assemble.Exclusion{ID: e.Key, Kind: assemble.KindEnvironment, Reason: assemble.ReasonSuperseded})
	}
	// A signal's past values are retired like a superseded fact's: a turn
	// or sentence still stating one is not replayed.
	for _, e := range slices.Concat(cur.Superseded, cur.Replaced) {
		if e.Key == environment.KeyTimezone {
			continue
		}
		c.Retired = append(c.Retired, Retired{ID: e.ID, Value: e.Value, New: liveValue[e.Key], At: e.At})
	}
	return c, nil
}
