// Package feed is the change feed behind GraphQL subscriptions: a broker
// that fans committed changes (facts written, conflicts opened, assertions
// expired, ...) out to subscribers of their organization, and the views
// that turn a change into what one subscriber may see of it.
//
// The domains never import feed: the wiring (package server) hands their
// post-commit hooks to Broker.Publish, so the flow is one-way, domain to
// feed. Publish never blocks a writer: each subscriber has a bounded
// buffer, and a subscriber whose buffer is full is dropped (its
// subscription ends with ErrDropped) rather than waited for.
package feed

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stategraph/stategraph/fault"
)

// Topic is what a change is about.
type Topic int

// The topics.
const (
	TopicFact Topic = iota + 1
	TopicConflict
	TopicAssertion
)

// Event is one committed change, as published. It names the record and
// carries nothing of its content beyond its keys (for the key filter):
// each subscriber reads the record itself, with its own permissions.
type Event struct {
	Topic Topic
	// Kind is the topic's change kind (FactKind, ConflictKind or
	// AssertionKind, as a string).
	Kind string
	// Org is the organization whose partition holds the record.
	Org string
	// ID names the record.
	ID string
	// Superseded names the fact a fact write retired, if any.
	Superseded string
	// Keys are the keys (and aliases) of a fact and of the fact it
	// retired.
	Keys []string
	// At is when the change happened, on the service's clock.
	At time.Time
}

// Errors of subscriptions.
var (
	// ErrDropped ends a subscription whose buffer filled up: the
	// subscriber fell behind the writers.
	ErrDropped = errors.New("feed: subscriber too slow, dropped")
	// ErrLimit refuses a subscription or connection over the
	// organization's limit.
	ErrLimit = errors.New("feed: too many subscriptions for the organization")
)

// DefaultBuffer is how many events a subscriber may lag behind before it
// is dropped.
const DefaultBuffer = 256

// DefaultMaxPerOrg is the default limit of subscriptions, and of
// connections, per organization.
const DefaultMaxPerOrg = 100

// Options configure a Broker.
type Options struct {
	// MaxPerOrg bounds the live subscriptions of one organization, and
	// separately its open connections; 0 means DefaultMaxPerOrg.
	MaxPerOrg int
	// Buffer is each subscriber's buffer; 0 means DefaultBuffer.
	Buffer int
}

// Broker fans events out to subscribers. It is safe for concurrent use.
type Broker struct {
	max, buffer int

	mu     sync.Mutex
	subs   map[string]map[*Subscription]struct{} // by organization
	conns  map[string]int                        // open connections by organization
	closed bool
	done   chan struct{} // closed by Close

	// live counts the live subscriptions of every organization (changed
	// under mu), so that a write with no subscriber anywhere publishes
	// without taking mu or building its event.
	live atomic.Int64
}

// New returns a Broker.
func New(o Options) (*Broker, error) {
	if o.MaxPerOrg < 0 || o.Buffer < 0 {
		return nil, fmt.Errorf("feed: negative limit or buffer (%d, %d)", o.MaxPerOrg, o.Buffer)
	}
	if o.MaxPerOrg == 0 {
		o.MaxPerOrg = DefaultMaxPerOrg
	}
	if o.Buffer == 0 {
		o.Buffer = DefaultBuffer
	}
	return &Broker{
		max: o.MaxPerOrg, buffer: o.Buffer,
		subs: map[string]map[*Subscription]struct{}{}, conns: map[string]int{},
		done: make(chan struct{}),
	}, nil
}

// MaxPerOrg returns the limit of subscriptions (and of connections) per
// organization.
func (b *Broker) MaxPerOrg() int { return b.max }

// Subscription receives the events of one topic of one organization that
// its filter accepts. Events arrive in publish order.
type Subscription struct {
	b      *Broker
	org    string
	topic  Topic
	accept func(Event) bool
	c      chan Event

	// err and closed are guarded by b.mu.
	err    error
	closed bool
}

// Subscribe starts a subscription to topic in org; accept, when not nil,
// filters events before they are buffered (it runs under the broker's
// lock: keep it cheap). Over the organization's limit it returns a
// FORBIDDEN fault wrapping ErrLimit.
func (b *Broker) Subscribe(org string, topic Topic, accept func(Event) bool) (*Subscription, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errShutdown
	}
	if len(b.subs[org]) >= b.max {
		return nil, &fault.Error{Kind: fault.Forbidden, Err: ErrLimit, Msg: fmt.Sprintf(
			"your organization has %d live subscriptions, this server's limit (--max-subscriptions-per-org): end one before starting another", b.max)}
	}
	s := &Subscription{b: b, org: org, topic: topic, accept: accept, c: make(chan Event, b.buffer)}
	if b.subs[org] == nil {
		b.subs[org] = map[*Subscription]struct{}{}
	}
	b.subs[org][s] = struct{}{}
	b.live.Add(1)
	return s, nil
}

// Connect takes one of org's connection slots; release gives it back
// (once; later calls do nothing). Over the limit it returns ErrLimit.
func (b *Broker) Connect(org string) (release func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errShutdown
	}
	if b.conns[org] >= b.max {
		return nil, ErrLimit
	}
	b.conns[org]++
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.conns[org]--; b.conns[org] <= 0 {
				delete(b.conns, org)
			}
		})
	}, nil
}

// Publish hands e to every subscriber of its topic and organization whose
// filter accepts it. It never blocks: a subscriber whose buffer is full is
// dropped.
func (b *Broker) Publish(e Event) {
	if !b.listened() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs[e.Org] {
		if s.topic != e.Topic || s.accept != nil && !s.accept(e) {
			continue
		}
		select {
		case s.c <- e:
		default:
			s.endLocked(ErrDropped)
		}
	}
}

// listened reports whether any organization has a live subscription. A
// subscription counts from before Subscribe returns, so an event published
// after that is never skipped.
func (b *Broker) listened() bool { return b.live.Load() > 0 }

// Events returns the channel of the subscription's events; it is closed
// when the subscription ends (Close, or dropped: then Err says why).
func (s *Subscription) Events() <-chan Event { return s.c }

// Err returns, once a dropped subscription's channel is closed, a
// FORBIDDEN fault wrapping ErrDropped that tells the subscriber what to
// do; nil otherwise.
func (s *Subscription) Err() error {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if s.err == nil {
		return nil
	}
	return &fault.Error{Kind: fault.Forbidden, Err: s.err, Msg: fmt.Sprintf(
		"this subscription fell more than %d changes behind and was ended, so that writers never wait: read the current state again and resubscribe", s.b.buffer)}
}

// Close ends the subscription and frees its slot. It is safe to call more
// than once, and after the subscription was dropped.
func (s *Subscription) Close() {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	s.endLocked(nil)
}

// endLocked removes s from the broker and closes its channel; b.mu is held.
func (s *Subscription) endLocked(err error) {
	if s.closed {
		return
	}
	s.closed, s.err = true, err
	s.b.live.Add(-1)
	delete(s.b.subs[s.org], s)
	if len(s.b.subs[s.org]) == 0 {
		delete(s.b.subs, s.org)
	}
	close(s.c)
}

// errShutdown refuses subscriptions once the broker is closed.
var errShutdown = fault.New(fault.Internal, "the server is shutting down; reconnect in a moment")

// Close ends every subscription (their channels close, with no error) and
// refuses new subscriptions and connections; Done is closed, so that open
// connections end too. The server calls it when it shuts down, before the
// store closes. It is safe to call more than once.
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for _, subs := range b.subs {
		for s := range subs {
			s.endLocked(nil)
		}
	}
	close(b.done)
}

// Done is closed when the broker is closed.
func (b *Broker) Done() <-chan struct{} { return b.done }

// Totals returns how many live subscriptions and open connections every
// organization has together, for the metrics.
func (b *Broker) Totals() (subscriptions, connections int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		subscriptions += len(s)
	}
	for _, n := range b.conns {
		connections += n
	}
	return subscriptions, connections
}

// Subscribers returns how many subscriptions org has, for tests and
// metrics.
func (b *Broker) Subscribers(org string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs[org])
}
