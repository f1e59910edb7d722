// Package conflicts keeps conflicts as explicit objects: competing state
// assertions or disagreeing persistent facts, the decisions that resolve
// them, and the deterministic policies that may decide on their own.
//
// A Conflict belongs to a slot, (context, subject, predicate) for state
// assertions and ("", key, "value") for facts. A slot has at most one OPEN
// conflict; a later rival joins it as a candidate. Resolution keeps one
// candidate and revokes the others, recorded as a Decision; nothing is
// deleted.
package conflicts

import (
	"slices"
	"time"

	"github.com/stategraph/stategraph/temporal"
)

// Status is a conflict's state.
type Status string

// The statuses.
const (
	Open     Status = "OPEN"
	Resolved Status = "RESOLVED"
)

// Valid reports whether s is a known status.
func (s Status) Valid() bool { return s == Open || s == Resolved }

// CandidateKind says what a candidate is.
type CandidateKind string

// The candidate kinds.
const (
	KindAssertion CandidateKind = "ASSERTION"
	KindFact      CandidateKind = "FACT"
)

// Candidate is one side of a conflict.
type Candidate struct {
	Kind CandidateKind `json:"kind"`
	ID   string        `json:"id"`
	// At is when the candidate joined the conflict (transaction time).
	At time.Time `json:"at"`
}

// Slot is what competing candidates are about. Fact conflicts have an
// empty Context, the fact key as Subject and FactPredicate as Predicate.
type Slot struct {
	Context   string `json:"context"`
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
}

// FactPredicate is the predicate of every fact conflict's slot.
const FactPredicate = "value"

// Conflict is a conflict as stored. DecisionID and ResolvedAt change when
// it is resolved; Candidates grow while it is open. Each change carries its
// transaction time, so In reconstructs any past state.
type Conflict struct {
	ID string `json:"id"`
	Slot
	Status     Status      `json:"status"`
	Candidates []Candidate `json:"candidates"`
	// Reason says why the conflict was opened, when a caller said so.
	Reason     string     `json:"reason,omitempty"`
	OpenedAt   time.Time  `json:"openedAt"`
	LastSeenAt time.Time  `json:"lastSeenAt"`
	ResolvedAt *time.Time `json:"resolvedAt,omitempty"`
	DecisionID string     `json:"decisionId,omitempty"`

	view temporal.View
}

// In returns the conflict as it stood in view v, or false when v does not
// know it yet. A conflict's times are events (temporal.View.Happened): its
// opening, each candidate joining and its resolution count in v only when
// they happened by AsOf and were recorded by KnownAt, so a conflict
// resolved later reads OPEN.
func (c Conflict) In(v temporal.View) (Conflict, bool) {
	if !v.Happened(c.OpenedAt) {
		return Conflict{}, false
	}
	if !v.Current() {
		c.Candidates = slices.DeleteFunc(slices.Clone(c.Candidates), func(cd Candidate) bool { return !v.Happened(cd.At) })
		if c.ResolvedAt != nil && !v.Happened(*c.ResolvedAt) {
			c.Status, c.ResolvedAt, c.DecisionID = Open, nil, ""
		}
		if !v.Happened(c.LastSeenAt) && len(c.Candidates) > 0 {
			c.LastSeenAt = slices.MaxFunc(c.Candidates, func(a, b Candidate) int { return a.At.Compare(b.At) }).At
		}
	}
	c.view = v
	return c, true
}

// View returns the view the conflict was read in.
func (c Conflict) View() temporal.View { return c.view }

// Has reports whether id is one of the candidates.
func (c Conflict) Has(id string) bool {
	return slices.ContainsFunc(c.Candidates, func(cd Candidate) bool { return cd.ID == id })
}

// Decision records who decided what, when and why: the candidate kept, the
// candidates revoked, and, for a promotion, the fact it produced.
type Decision struct {
	ID         string      `json:"id"`
	ConflictID string      `json:"conflictId,omitempty"`
	Kept       *Candidate  `json:"kept,omitempty"`
	Revoked    []Candidate `json:"revoked"`
	// Promoted is the fact a promotion wrote.
	Promoted string `json:"promoted,omitempty"`
	// Policy names the deterministic policy that decided, when one did.
	Policy string    `json:"policy,omitempty"`
	Reason string    `json:"reason"`
	Actor  string    `json:"actor"`
	At     time.Time `json:"at"`

	view temporal.View
}

// In returns the decision as it stood in view v, or false when it was made
// after v (a decision is an event: temporal.View.Happened).
func (d Decision) In(v temporal.View) (Decision, bool) {
	if !v.Happened(d.At) {
		return Decision{}, false
	}
	d.view = v
	return d, true
}

// View returns the view the decision was read in.
func (d Decision) View() temporal.View { return d.view }

// Node is a candidate loaded for display: an *assertions.Assertion or a
// *facts.Fact. It is declared here, empty, because those packages cannot
// implement a method of this one.
type Node interface{}
