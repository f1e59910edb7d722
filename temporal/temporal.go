// Package temporal holds the two time axes of stategraph records: valid
// time (when something was true in the world) and transaction time (when
// the service learned it), and the clock both are read from.
package temporal

import (
	"sync"
	"time"
)

// Clock tells the service time. Implementations are safe for concurrent use.
type Clock interface {
	Now() time.Time
}

// System is the wall clock, in UTC.
type System struct{}

// Now returns the current UTC time.
func (System) Now() time.Time { return time.Now().UTC() }

// Manual is a clock that moves only when told to; for tests.
type Manual struct {
	mu sync.Mutex
	t  time.Time
}

// NewManual returns a Manual clock set to t.
func NewManual(t time.Time) *Manual { return &Manual{t: t.UTC()} }

// Now returns the clock's time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t
}

// Set moves the clock to t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	m.t = t.UTC()
	m.mu.Unlock()
}

// Advance moves the clock forward by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	m.t = m.t.Add(d)
	m.mu.Unlock()
}

// Interval is a half-open valid-time interval [From, To). A nil To is open.
type Interval struct {
	From time.Time
	To   *time.Time
}

// Contains reports whether t falls in the interval.
func (iv Interval) Contains(t time.Time) bool {
	return !t.Before(iv.From) && (iv.To == nil || t.Before(*iv.To))
}

// Empty reports whether the interval contains no instant.
func (iv Interval) Empty() bool { return iv.To != nil && !iv.To.After(iv.From) }

// View says which state a read sees: the world as of valid time AsOf, as
// the service knew it at transaction time KnownAt. A nil AsOf means "the
// current heads" (no valid-time filter); a nil KnownAt means "now".
type View struct {
	AsOf    *time.Time
	KnownAt *time.Time
}

// Known reports whether something recorded at tx time t is visible in v.
func (v View) Known(t time.Time) bool { return v.KnownAt == nil || !t.After(*v.KnownAt) }

// KnownPtr is Known for an optional time: nil (never happened) is unknown.
func (v View) KnownPtr(t *time.Time) bool { return t != nil && v.Known(*t) }

// Current reports whether v reads the present state.
func (v View) Current() bool { return v.AsOf == nil && v.KnownAt == nil }
