// Package temporal owns stategraph's time model: the two time axes of
// every record, valid time (when something was true in the world) and
// transaction time (when the service learned it), the one rule that says
// what a read sees, the representable range of times and their encoding in
// keys, and the clock both axes are read from.
//
// # The rule
//
// A read is a View: "valid at time V (AsOf), as recorded by time K
// (KnownAt)". Each defaults to now when absent. A record has a valid
// Interval, half-open [From, To), a RecordedAt transaction time and at most
// one Retirement (a supersession, a revocation, a resolution, a recorded
// expiry), which has its own transaction time. Then:
//
//   - v knows a record when RecordedAt <= K (Knows); a record recorded
//     after K does not exist in v.
//   - a retirement counts in v only when its own transaction time is <= K
//     (Retired); a retirement recorded after K is undone, whatever its
//     valid-time effect.
//   - the record's valid interval as known in v (Interval) is its interval
//     as first recorded, ended by a counted retirement: a CHANGE ends it at
//     the successor's valid start; a CORRECTION collapses it to [From, From),
//     empty: the record was never true; a revocation, resolution or expiry
//     ends it at the retirement's own time.
//   - with an AsOf, the record holds in v when that interval contains V:
//     From <= V < To. Exactly at From it holds; exactly at To it no longer
//     does; an empty interval holds nowhere. A lease's end is its interval's
//     To, so a lease ending exactly at V has expired at V.
//   - without an AsOf, a read asks for the current heads: a record holds
//     when v knows it, no counted retirement ended it, its interval is not
//     empty and its end (a lease's expiry) is after the view's instant (K,
//     else now). A head whose valid time starts in the future is current.
//
// Records whose valid time is their transaction time (audit entries,
// decisions, a conflict's opening and resolution, a candidate joining a
// conflict) are events: v sees an event at t when t <= K and t <= V
// (Happened).
//
// Every time the service accepts lies in [Min, Max], the years 0001 to
// 9999 in UTC (Check); AppendKey and DecodeKey are the one encoding of a
// time in a key, fixed-width and ordered.
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

// Contains reports whether t falls in the interval: From <= t < To.
func (iv Interval) Contains(t time.Time) bool {
	return !t.Before(iv.From) && (iv.To == nil || t.Before(*iv.To))
}

// Ended reports whether the interval has ended by t: To <= t. A lease or
// an expiry ending exactly at t has ended.
func (iv Interval) Ended(t time.Time) bool { return iv.To != nil && !t.Before(*iv.To) }

// Empty reports whether the interval contains no instant.
func (iv Interval) Empty() bool { return iv.To != nil && !iv.To.After(iv.From) }

// endAt returns iv ended at t (the earlier of its end and t).
func (iv Interval) endAt(t time.Time) Interval {
	if iv.To == nil || t.Before(*iv.To) {
		iv.To = &t
	}
	return iv
}

// Record is what the rule needs to know of one stored record's times.
type Record struct {
	// Valid is the valid interval as first recorded. Its To, when set, is
	// an end known from the start: a lease's expiry, or From itself for a
	// record stored invalid from birth.
	Valid Interval
	// RecordedAt is the transaction time the record was written.
	RecordedAt time.Time
	// Retirement is what later ended it, if anything did.
	Retirement *Retirement
}

// Retirement is a later change that ended a record: a supersession (change
// or correction), a revocation, a resolution, a recorded expiry.
type Retirement struct {
	// At is the transaction time the retirement was recorded.
	At time.Time
	// Correction says the record was never true: its interval collapses
	// to [From, From).
	Correction bool
	// End is where a non-correction ends the valid interval: the
	// successor's valid start for a change; At for a revocation,
	// resolution or expiry.
	End time.Time
}

// Changed is the retirement of a change recorded at at: the world changed
// at end (the successor's valid start).
func Changed(at, end time.Time) *Retirement { return &Retirement{At: at, End: end} }

// Corrected is the retirement of a correction recorded at at.
func Corrected(at time.Time) *Retirement { return &Retirement{At: at, Correction: true} }

// Ended is a retirement taking effect when recorded, at at: a revocation,
// a resolution, an expiry.
func Ended(at time.Time) *Retirement { return &Retirement{At: at, End: at} }

// View says which state a read sees: the world as of valid time AsOf, as
// the service knew it at transaction time KnownAt. A nil AsOf means "the
// current heads" (no valid-time filter); a nil KnownAt means "now".
type View struct {
	AsOf    *time.Time
	KnownAt *time.Time
}

// Known reports whether something recorded at tx time t is visible in v:
// t <= KnownAt.
func (v View) Known(t time.Time) bool { return v.KnownAt == nil || !t.After(*v.KnownAt) }

// KnownPtr is Known for an optional time: nil (never happened) is unknown.
func (v View) KnownPtr(t *time.Time) bool { return t != nil && v.Known(*t) }

// Happened reports whether v sees an event at t, one whose valid time is
// its transaction time: t <= KnownAt and t <= AsOf (each when set).
func (v View) Happened(t time.Time) bool {
	return v.Known(t) && (v.AsOf == nil || !t.After(*v.AsOf))
}

// Current reports whether v reads the present state.
func (v View) Current() bool { return v.AsOf == nil && v.KnownAt == nil }

// Instant returns the instant v looks at: AsOf, else KnownAt, else now.
func (v View) Instant(now time.Time) time.Time {
	switch {
	case v.AsOf != nil:
		return *v.AsOf
	case v.KnownAt != nil:
		return *v.KnownAt
	}
	return now
}

// Knows reports whether v knows r: r.RecordedAt <= KnownAt.
func (v View) Knows(r Record) bool { return v.Known(r.RecordedAt) }

// Retired reports whether r's retirement counts in v: it was recorded by
// KnownAt.
func (v View) Retired(r Record) bool { return r.Retirement != nil && v.Known(r.Retirement.At) }

// Interval returns r's valid interval as known in v: as first recorded,
// ended by its retirement if that counts in v.
func (v View) Interval(r Record) Interval {
	iv := r.Valid
	if !v.Retired(r) {
		return iv
	}
	if r.Retirement.Correction {
		return iv.endAt(iv.From)
	}
	return iv.endAt(r.Retirement.End)
}

// Holds reports whether r is valid in v, the service clock reading now
// (see the package doc): v knows r and, with an AsOf, r's interval as
// known in v contains it; without one, r is a current head at the view's
// instant.
func (v View) Holds(r Record, now time.Time) bool {
	if !v.Knows(r) {
		return false
	}
	iv := v.Interval(r)
	if v.AsOf != nil {
		return iv.Contains(*v.AsOf)
	}
	if v.Retired(r) || iv.Empty() {
		return false
	}
	return iv.To == nil || v.Instant(now).Before(*iv.To)
}
