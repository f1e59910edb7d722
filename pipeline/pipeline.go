// Package pipeline is the one way a fact is written. Every write, whatever
// its origin (writeFact, a batch, a recorded turn, a promoted assertion, a
// conflict decision, a completed objective), runs through the same stages,
// in order, inside the caller's transaction:
//
//  1. admit: validate the input, infer memory type, scope and constraint,
//     apply the admission rules (state is not a fact: a value that reads as
//     short-lived state, or a key configured as volatile) and the
//     write gates (policy authority, memory levels), place the fact in its
//     space, check its id and its dependencies;
//  2. arbitrate: decide what the write replaces and how: an attributed
//     instruction it outranks or that outranks it, a value the conversation
//     already replaced (stale), the supersession target named by the write,
//     the authority rule, change versus correction, and the restriction the
//     successor inherits (never less restrictive than what it supersedes);
//  3. link: chain edges (the retired fact's end, the new fact's edge),
//     dependency edges, repair propagation (derived facts need review);
//  4. index: the key and time indexes and the search postings;
//  5. react: what other records make of the fact: conflicts between valid
//     facts that disagree, the audit entry of a refused supersession;
//  6. observe: the fact's audit entry, and after commit the observers
//     (metrics, change feed).
//
// The stores below (package facts, search) are plain: they never call back
// up. The stages that need other domains (the conversation's judgement of
// a write, conflict detection, the search index) use small interfaces
// declared here and set at wiring time.
package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Arbiter is the conversation's judgement of an explicit write (package
// revision implements it). Both methods run inside the write's transaction
// and must not write the fact themselves.
type Arbiter interface {
	// Directive is asked about an explicit write that supersedes nothing:
	// it may name a valid fact the write replaces (an instruction it
	// outranks; cue is recorded on the edge), or say that the write is
	// itself outranked, in which case it is stored invalid from birth.
	Directive(tx *store.Txn, caller authority.Identity, f facts.Fact) (replaces, cue string, outranked *facts.Staleness, err error)
	// Stale says whether an explicit write restates a value the
	// conversation already replaced; dated tells whether the write gave
	// its validFrom. A stale write is stored invalid from birth.
	Stale(tx *store.Txn, caller authority.Identity, f facts.Fact, dated bool) (*facts.Staleness, error)
}

// Indexer keeps a derived index of fact text (package search implements
// it) in the write's transaction.
type Indexer interface {
	// FactWritten indexes written and retires superseded (the fact the
	// write replaced, as it now stands), if any.
	FactWritten(tx *store.Txn, written facts.Fact, superseded *facts.Fact) error
	// FactForgotten erases what was derived from before's text.
	FactForgotten(tx *store.Txn, before facts.Fact) error
	// FactRetired retires a fact taken back without a successor.
	FactRetired(tx *store.Txn, retired facts.Fact) error
}

// Reactor reacts to a stored fact inside its transaction (package
// conflicts implements it). rivals are the other valid facts of f's key in
// f's space, f's own supersession already applied. An error aborts the
// write.
type Reactor interface {
	FactWritten(tx *store.Txn, caller authority.Identity, f facts.Fact, rivals []facts.Fact) error
}

// Eraser erases, inside the transaction that forgets a fact, what a
// package keeps of the fact's text outside the fact (package evidence
// erases the sentence it was extracted from). An error aborts the forget.
type Eraser interface {
	FactForgotten(tx *store.Txn, before facts.Fact) error
}

// Event is what an Observer is told after a write committed.
type Event struct {
	Kind Action
	// Fact is the fact written (or forgotten, as it now stands).
	Fact facts.Fact
	// Superseded is the fact the write retired, as it now stands.
	Superseded *facts.Fact
	Org        string
	Actor      string
	At         time.Time
}

// Observer is told about every committed write, after commit, in commit
// order per transaction. It must not block: a slow observer delays the
// writer that committed.
type Observer interface {
	Observe(Event)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(Event)

// Observe calls fn(e).
func (fn ObserverFunc) Observe(e Event) { fn(e) }

// Options configure a Pipeline. Facts, Store and Clock are required.
type Options struct {
	Store *store.Store
	Clock temporal.Clock
	Facts *facts.Service
	// Volatile reports whether a key names volatile state, which is not
	// stored as a fact (admission rule volatile-predicate); nil admits
	// every key.
	Volatile func(key string) bool
	// Index is the search index kept with every write; nil keeps none.
	Index Indexer
	// IDs makes fact and audit ids; nil makes them with ulid.Make.
	IDs *ids.Generator
}

// Pipeline writes facts. Its Arbiter, Reactors and Observers are set at
// wiring time, before serving; then it is safe for concurrent use.
type Pipeline struct {
	store     *store.Store
	clock     temporal.Clock
	facts     *facts.Service
	rules     *permissions.Rules
	volatile  func(string) bool
	index     Indexer
	arbiter   Arbiter
	reactors  []Reactor
	erasers   []Eraser
	observers []Observer
	ids       *ids.Generator
}

// New returns a Pipeline.
func New(o Options) *Pipeline {
	return &Pipeline{
		store: o.Store, clock: o.Clock, facts: o.Facts, rules: o.Facts.Rules(),
		volatile: o.Volatile, index: o.Index, ids: o.IDs,
	}
}

// SetArbiter installs the conversation's judgement of explicit writes.
func (p *Pipeline) SetArbiter(a Arbiter) { p.arbiter = a }

// AddReactor adds a react-stage participant.
func (p *Pipeline) AddReactor(r Reactor) { p.reactors = append(p.reactors, r) }

// AddEraser adds a participant in forgetting.
func (p *Pipeline) AddEraser(e Eraser) { p.erasers = append(p.erasers, e) }

// AddObserver adds an observer of committed writes.
func (p *Pipeline) AddObserver(o Observer) { p.observers = append(p.observers, o) }

// Volatile reports whether key names volatile state, which the admit stage
// refuses for every write but a promotion.
func (p *Pipeline) Volatile(key string) bool { return p.volatile != nil && p.volatile(key) }

// IsState reports whether the admit stage would refuse a fact of key
// with value as state (admission rules volatile-predicate and
// state-content), so that a writer that derives facts (a recorded turn)
// can leave such a value to a state assertion instead of failing.
func (p *Pipeline) IsState(key string, value json.RawMessage) bool {
	if p.Volatile(key) {
		return true
	}
	_, ok := StateContent(key, value, p.clock.Now())
	return ok
}

// Write records one fact for the caller of ctx, in one transaction.
func (p *Pipeline) Write(ctx context.Context, in facts.WriteInput) (facts.Fact, error) {
	caller, part, err := tenancy.Caller(ctx)
	if err != nil {
		return facts.Fact{}, err
	}
	var out facts.Fact
	err = p.store.Update(ctx, part, func(tx *store.Txn) error {
		out, err = p.WriteTx(tx, caller, in)
		return err
	})
	return out, err
}

// WriteTx runs one write through every stage inside tx, so that other
// mutations (a recorded turn, a promotion, a decision) write facts in
// their own transaction. An error from any stage leaves tx to be
// discarded: the caller must not commit it.
func (p *Pipeline) WriteTx(tx *store.Txn, caller authority.Identity, in facts.WriteInput) (facts.Fact, error) {
	w, err := p.admit(tx, caller, in)
	if err != nil {
		return facts.Fact{}, err
	}
	if err := p.arbitrate(tx, w); err != nil {
		return facts.Fact{}, err
	}
	if err := p.reclaimID(tx, w); err != nil {
		return facts.Fact{}, err
	}
	if err := p.link(tx, w); err != nil {
		return facts.Fact{}, err
	}
	if err := p.indexFact(tx, w); err != nil {
		return facts.Fact{}, err
	}
	if err := p.react(tx, w); err != nil {
		return facts.Fact{}, err
	}
	if err := p.observe(tx, w); err != nil {
		return facts.Fact{}, err
	}
	f, _ := w.f.In(temporal.View{})
	return f, nil
}
