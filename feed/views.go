package feed

import (
	"context"
	"slices"
	"time"

	"github.com/stategraph/stategraph/assertions"
	"github.com/stategraph/stategraph/conflicts"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/temporal"
)

// FactKind says what happened to a fact.
type FactKind string

// The fact change kinds: the write pipeline's event kinds, with a
// supersession split into a change and a correction.
const (
	// FactWritten: a fact was written and retired nothing.
	FactWritten FactKind = "WRITTEN"
	// FactSuperseded: a fact was written and retired another as a change
	// in the world (the old value ends where the new begins).
	FactSuperseded FactKind = "SUPERSEDED"
	// FactCorrected: a fact was written and retired another as a
	// correction (the old value was never true).
	FactCorrected FactKind = "CORRECTED"
	// FactStale: a fact was written invalid from birth (stale or
	// outranked).
	FactStale FactKind = "STALE"
	// FactRetracted: a fact was taken back without a successor.
	FactRetracted FactKind = "RETRACTED"
	// FactRevoked: a conflict decision retired a fact candidate.
	FactRevoked FactKind = "REVOKED"
	// FactForgotten: a fact's value was erased.
	FactForgotten FactKind = "FORGOTTEN"
)

// factKind maps a pipeline event to its change kind.
func factKind(e pipeline.Event) FactKind {
	switch e.Kind {
	case pipeline.ActionSuperseded:
		if e.Fact.Supersession != nil && e.Fact.Supersession.Kind == facts.Correction {
			return FactCorrected
		}
		return FactSuperseded
	case pipeline.ActionStale:
		return FactStale
	case pipeline.ActionRetracted:
		return FactRetracted
	case pipeline.ActionRevoked:
		return FactRevoked
	case pipeline.ActionForgotten:
		return FactForgotten
	default:
		return FactWritten
	}
}

// Observe publishes a committed fact write; it makes the Broker a
// pipeline.Observer (the observe stage's change feed).
func (b *Broker) Observe(e pipeline.Event) {
	if !b.listened() {
		return // nobody to tell: build no event
	}
	ev := Event{Topic: TopicFact, Kind: string(factKind(e)), Org: e.Org, ID: e.Fact.ID, At: e.At, Keys: e.Fact.Keys()}
	if e.Superseded != nil {
		ev.Superseded = e.Superseded.ID
		ev.Keys = append(ev.Keys, e.Superseded.Keys()...)
	}
	b.Publish(ev)
}

var _ pipeline.Observer = (*Broker)(nil)

// ConflictChanged publishes a conflict opened or decided (for
// conflicts.Service.OnChange).
func (b *Broker) ConflictChanged(c conflicts.Change) {
	b.Publish(Event{Topic: TopicConflict, Kind: string(c.Kind), Org: c.Org, ID: c.ID, At: c.At})
}

// AssertionChanged publishes an assertion admitted or ended (for
// assertions.Service.OnChange).
func (b *Broker) AssertionChanged(c assertions.Change) {
	b.Publish(Event{Topic: TopicAssertion, Kind: string(c.Kind), Org: c.Org, ID: c.ID, At: c.At})
}

// HasKey returns a filter accepting the fact events that touch key (as the
// fact's or the retired fact's key or alias).
func HasKey(key string) func(Event) bool {
	return func(e Event) bool { return slices.Contains(e.Keys, key) }
}

// FactChange is a fact change as one subscriber sees it.
type FactChange struct {
	Kind FactKind
	// Fact is the fact written (or retracted, revoked, forgotten), as it
	// stands when the subscriber reads it.
	Fact facts.Fact
	// Superseded is the fact the write retired, when the subscriber may
	// read it.
	Superseded *facts.Fact
	At         time.Time
}

// ConflictChange is a conflict change as one subscriber sees it.
type ConflictChange struct {
	Kind     conflicts.ChangeKind
	Conflict conflicts.Conflict
	At       time.Time
}

// AssertionChange is an assertion change as one subscriber sees it.
type AssertionChange struct {
	Kind      assertions.ChangeKind
	Assertion assertions.Assertion
	At        time.Time
}

// Readers are the domain reads a subscriber's view goes through: the same
// calls, with the same permission checks, as the queries'. Each takes the
// subscriber's context (its identity and partition) and reports ok false
// for a record the subscriber may not see.
// *facts.Service, *conflicts.Service and *assertions.Service implement
// them.
type Readers struct {
	Facts      Getter[facts.Fact]
	Conflicts  Getter[conflicts.Conflict]
	Assertions Getter[assertions.Assertion]
}

// Getter reads one record by id, in view v, for the caller of ctx; ok is
// false when there is none the caller may see.
type Getter[T any] interface {
	Get(ctx context.Context, id string, v temporal.View) (rec T, ok bool, err error)
}

var (
	_ Getter[facts.Fact]           = (*facts.Service)(nil)
	_ Getter[conflicts.Conflict]   = (*conflicts.Service)(nil)
	_ Getter[assertions.Assertion] = (*assertions.Service)(nil)
)

// Fact reads fact event e as the caller of ctx may see it now; ok is false
// when the caller may not read the fact (another user's memory, a
// restriction, another organization): then nothing of it is shown.
func (r Readers) Fact(ctx context.Context, e Event) (FactChange, bool, error) {
	f, ok, err := r.Facts.Get(ctx, e.ID, temporal.View{})
	if err != nil || !ok {
		return FactChange{}, false, err
	}
	out := FactChange{Kind: FactKind(e.Kind), Fact: f, At: e.At}
	if e.Superseded != "" {
		old, ok, err := r.Facts.Get(ctx, e.Superseded, temporal.View{})
		if err != nil {
			return FactChange{}, false, err
		}
		if ok {
			out.Superseded = &old
		}
	}
	return out, true, nil
}

// Conflict reads conflict event e as the caller of ctx may see it now.
func (r Readers) Conflict(ctx context.Context, e Event) (ConflictChange, bool, error) {
	c, ok, err := r.Conflicts.Get(ctx, e.ID, temporal.View{})
	if err != nil || !ok {
		return ConflictChange{}, false, err
	}
	return ConflictChange{Kind: conflicts.ChangeKind(e.Kind), Conflict: c, At: e.At}, true, nil
}

// Assertion reads assertion event e as the caller of ctx may see it now.
func (r Readers) Assertion(ctx context.Context, e Event) (AssertionChange, bool, error) {
	a, ok, err := r.Assertions.Get(ctx, e.ID, temporal.View{})
	if err != nil || !ok {
		return AssertionChange{}, false, err
	}
	return AssertionChange{Kind: assertions.ChangeKind(e.Kind), Assertion: a, At: e.At}, true, nil
}

// Stream delivers the events of sub, each read by see as the caller of
// ctx may see it, on the returned channel, skipping those see withholds.
// It stops when ctx ends, when sub ends, or when see fails; then it closes
// sub, calls done with the reason (nil when ctx ended or sub was closed,
// ErrDropped when sub fell behind, see's error) and closes the channel.
func Stream[T any](ctx context.Context, sub *Subscription, see func(context.Context, Event) (T, bool, error), done func(error)) <-chan *T {
	out := make(chan *T)
	go func() {
		var err error
		defer func() {
			sub.Close()
			if done != nil {
				done(err)
			}
			close(out)
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case e, open := <-sub.Events():
				if !open {
					err = sub.Err()
					return
				}
				v, ok, serr := see(ctx, e)
				if serr != nil {
					if ctx.Err() == nil {
						err = serr
					}
					return
				}
				if !ok {
					continue
				}
				select {
				case out <- &v:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}
