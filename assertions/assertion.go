// Package assertions keeps state assertions: short-term, leased
// hypotheses about the world (subject, predicate, object, in a context),
// never facts.
//
// An assertion is admitted only when it carries what makes it checkable
// (epistemic status, provenance, a lease that ends). Its lease ends by
// change (UNTIL_CHANGED: a newer assertion for the same context, subject
// and predicate revokes it), by time (UNTIL_TIME: evaluated at read time
// against the service clock, and recorded by a background sweep) or by
// event (UNTIL_EVENT: signalEvent). Competing active assertions form an
// explicit conflict (package conflicts) unless they share a hypothesis
// group or a deterministic policy decides. An assertion becomes a fact only
// through promotion, an explicit decision. Nothing is deleted: expired,
// revoked and promoted assertions stay readable in history and never count
// as current.
package assertions

import (
	"encoding/json"
	"time"

	"github.com/stategraph/stategraph/temporal"
)

// Status is an assertion's lifecycle state.
type Status string

// The statuses.
const (
	Active   Status = "ACTIVE"
	Revoked  Status = "REVOKED"
	Expired  Status = "EXPIRED"
	Promoted Status = "PROMOTED"
)

// Valid reports whether s is a known status.
func (s Status) Valid() bool { return s == Active || s == Revoked || s == Expired || s == Promoted }

// EpistemicStatus says how the asserter came to hold the assertion.
type EpistemicStatus string

// The epistemic statuses.
const (
	Perception EpistemicStatus = "PERCEPTION"
	Inference  EpistemicStatus = "INFERENCE"
	Assumption EpistemicStatus = "ASSUMPTION"
	Action     EpistemicStatus = "ACTION"
)

// Valid reports whether e is a known epistemic status.
func (e EpistemicStatus) Valid() bool {
	return e == Perception || e == Inference || e == Assumption || e == Action
}

// Mode is how an assertion's lease ends. There is no mode meaning forever.
type Mode string

// The lease modes.
const (
	UntilChanged Mode = "UNTIL_CHANGED"
	UntilTime    Mode = "UNTIL_TIME"
	UntilEvent   Mode = "UNTIL_EVENT"
)

// Valid reports whether m is a known mode.
func (m Mode) Valid() bool { return m == UntilChanged || m == UntilTime || m == UntilEvent }

// Validity is an assertion's lease.
type Validity struct {
	Mode       Mode       `json:"mode"`
	ExpiresAt  *time.Time `json:"expiresAt,omitempty"`
	UntilEvent string     `json:"untilEvent,omitempty"`
}

// Author is who made an assertion.
type Author struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// Origin is the channel and session an assertion came through.
type Origin struct {
	Channel   string `json:"channel,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}

// Provenance says where an assertion came from and how.
type Provenance struct {
	Author     Author   `json:"author"`
	Origin     Origin   `json:"origin"`
	Confidence *float64 `json:"confidence,omitempty"`
	// Method is how it was obtained: observed, inferred, told, ...
	Method string `json:"method,omitempty"`
}

// Ref points at the evidence of an assertion.
type Ref struct {
	Kind    string     `json:"kind"`
	Locator string     `json:"locator"`
	Quote   string     `json:"quote,omitempty"`
	TS      *time.Time `json:"ts,omitempty"`
}

// Assertion is a state assertion as stored. Status, EndedAt and the edge
// that ended it change once, when it leaves ACTIVE; EndedAt is the
// transaction time of that change, so In reconstructs any past state.
type Assertion struct {
	ID              string          `json:"id"`
	Subject         string          `json:"subject"`
	Predicate       string          `json:"predicate"`
	Object          json.RawMessage `json:"object"`
	Context         string          `json:"context"`
	EpistemicStatus EpistemicStatus `json:"epistemicStatus"`
	Validity        Validity        `json:"validity"`
	Provenance      Provenance      `json:"provenance"`
	Refs            []Ref           `json:"refs,omitempty"`
	Visibility      string          `json:"visibility,omitempty"`
	Tags            []string        `json:"tags,omitempty"`
	HypothesisGroup string          `json:"hypothesisGroup,omitempty"`
	// Authority is the writer's authority, for the highest_authority
	// policy; Actor names the writer.
	Authority string `json:"authority,omitempty"`
	Actor     string `json:"actor"`

	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
	Status    Status     `json:"status"`
	EndedAt   *time.Time `json:"endedAt,omitempty"`
	// RevokedBy is the newer assertion that revoked this one; DecisionID
	// the decision that revoked or promoted it; PromotedTo the fact a
	// promotion wrote.
	RevokedBy  string `json:"revokedBy,omitempty"`
	DecisionID string `json:"decisionId,omitempty"`
	PromotedTo string `json:"promotedTo,omitempty"`

	view temporal.View
}

// Slot is the (context, subject, predicate) an assertion is about.
func (a Assertion) Slot() (context, subject, predicate string) {
	return a.Context, a.Subject, a.Predicate
}

// expiry returns when the lease ends by time; ok is false for a lease
// that does not end by time. A lease whose end cannot be determined
// (UNTIL_TIME without a time, UNTIL_EVENT without an event, an unknown
// mode) ends at the zero time, so it always reads as expired.
func (a Assertion) expiry() (time.Time, bool) {
	switch a.Validity.Mode {
	case UntilChanged:
		return time.Time{}, false
	case UntilEvent:
		if a.Validity.UntilEvent != "" {
			return time.Time{}, false
		}
	case UntilTime:
		if a.Validity.ExpiresAt != nil {
			return *a.Validity.ExpiresAt, true
		}
	}
	return time.Time{}, true
}

// In returns the assertion as it stood in view v when the service clock
// reads now, or false when it did not exist then. Its creation and its end
// (revocation, promotion, recorded expiry) are events
// (temporal.View.Happened): an end recorded after v.KnownAt, or after
// v.AsOf, is undone. Its lease is its valid interval [CreatedAt, expiry)
// (Record): a lease that ended by the view's instant reads EXPIRED even
// before the sweep records it, and one ending exactly at it has ended.
func (a Assertion) In(v temporal.View, now time.Time) (Assertion, bool) {
	if !v.Happened(a.CreatedAt) || a.CreatedAt.After(v.Instant(now)) {
		return Assertion{}, false
	}
	if a.EndedAt != nil && !v.Happened(*a.EndedAt) {
		a.Status, a.EndedAt, a.RevokedBy, a.DecisionID, a.PromotedTo = Active, nil, "", "", ""
		a.UpdatedAt = a.CreatedAt
	}
	if a.Status == Active {
		if r := a.Record(); !v.Holds(r, now) {
			a.Status = Expired
			if r.Valid.To != nil && !r.Valid.To.IsZero() {
				end := *r.Valid.To
				a.EndedAt = &end
			}
		}
	}
	a.view = v
	return a, true
}

// Record returns the assertion's lease for the view rule: valid from its
// creation until its lease ends by time (an open interval for a lease that
// does not; an empty one, ending at the zero time, for a lease whose end
// cannot be determined), recorded at its creation. Its end by revocation
// or promotion is applied by In, as an event.
func (a Assertion) Record() temporal.Record {
	r := temporal.Record{Valid: temporal.Interval{From: a.CreatedAt}, RecordedAt: a.CreatedAt}
	if e, ok := a.expiry(); ok {
		end := e // allocated only for a lease that ends by time
		r.Valid.To = &end
	}
	return r
}

// View returns the view the assertion was read in.
func (a Assertion) View() temporal.View { return a.view }
