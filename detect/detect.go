// Package detect finds, deterministically and without a language model,
// which known facts, turns and assertions a new conversation turn
// supersedes, and why.
//
// Analyze reads one turn against the records the caller knows (currently
// valid facts, recent turns, active assertions) and reports detections of
// four kinds: explicit cues ("actually", "instead", "no longer"), implicit
// conflicts (the same key given a different value), authority cues ("per the
// CEO", "[VP]") and temporal updates of time-sensitive values ("as of today",
// "is now"). Questions, negated changes, recaps and hypothetical or draft
// turns supersede nothing. Stale recognises a later write that restates a
// value the conversation already replaced.
package detect

import (
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/constraint"
)

// Kind is why a detection was made.
type Kind string

// Detection kinds.
const (
	KindExplicit  Kind = "EXPLICIT"  // a correction or change word
	KindImplicit  Kind = "IMPLICIT"  // same key or slot, different value, no change word
	KindAuthority Kind = "AUTHORITY" // attributed to a role of manager rank or above
	KindTemporal  Kind = "TEMPORAL"  // a dated or "now" update of a time-sensitive value
)

// Scope is the reach a turn's content has.
type Scope string

// Scopes, from narrowest to global.
const (
	ScopeHypothetical Scope = "HYPOTHETICAL"
	ScopeDraft        Scope = "DRAFT"
	ScopeTask         Scope = "TASK"
	ScopeGlobal       Scope = "GLOBAL"
)

// RecordKind is what a known record is.
type RecordKind string

// Record kinds.
const (
	RecordFact      RecordKind = "fact"
	RecordTurn      RecordKind = "turn"
	RecordAssertion RecordKind = "assertion"
	// RecordEnvironment is an environment signal (key and value).
	RecordEnvironment RecordKind = "environment"
)

// Record is something the caller knows and a turn may supersede. For a turn,
// Value is its text and Key is empty; for an assertion, Key is its subject
// and predicate and Value its object.
type Record struct {
	ID        string
	Kind      RecordKind
	Key       string
	Value     string
	Authority string
	At        time.Time
}

// Ref names a superseded record.
type Ref struct {
	ID   string
	Kind RecordKind
}

// Turn is the new conversation turn. Authority is the speaker's verified
// authority, if the caller knows it.
type Turn struct {
	Text      string
	Speaker   string
	Authority string
	At        time.Time
}

// Detection is one supersession (or, when Blocked, one conflict) found in a
// turn, with enough detail for a person to see why.
type Detection struct {
	Kind        Kind
	Cue         string  // the words that triggered the detection
	Superseded  []Ref   // the records it replaces, facts first
	Key         string  // the key of the superseded fact ("" when only turns)
	Previous    string  // the value being replaced, as the record held it
	Replacement string  // the new value, or the turn's text when none can be isolated
	Authority   string  // the authority the statement carries
	Confidence  float64 // 0..1
	// Blocked is set when the statement's authority ranks below a superseded
	// record's: the caller records a conflict instead of superseding.
	Blocked bool
}

// Constraint is a rule stated in a turn, typed by the constraint
// taxonomy; its Text is the sentence that states it.
type Constraint = constraint.Match

// Result is everything Analyze found in one turn.
type Result struct {
	Scope      Scope
	Detections []Detection
	Constraint *Constraint
}

// Options tune Analyze. The zero value is usable: a nil Order means
// authority.MustDefaultOrder().
type Options struct {
	// Order ranks authorities and role phrases with its role table: record
	// authorities, the turn's authority and role phrases found in the text
	// ("CEO", "VP Sales", "Board of Directors") all rank through it, so a
	// role ranks the same in a token and in a turn. A phrase the order
	// cannot resolve is unknown, and unknown authorities never block.
	Order *authority.Order
	// CapTextAuthority keeps an authority claimed in the text ("per the
	// CEO") from raising the statement above the turn's own Authority. Set
	// it for callers whose words should not be trusted beyond their role.
	CapTextAuthority bool
	// MinConfidence drops weaker detections.
	MinConfidence float64
}

// DefaultOptions returns the options the service uses by default.
func DefaultOptions() Options {
	return Options{Order: defaultOrder, MinConfidence: 0.5}
}

var defaultOrder = authority.MustDefaultOrder()

// order returns the order o ranks by.
func (o Options) order() *authority.Order {
	if o.Order == nil {
		return defaultOrder
	}
	return o.Order
}

// Rank returns the rank of an authority or role phrase on o's order, or -1
// when the order cannot resolve it.
func (o Options) Rank(a string) int {
	r, _ := o.order().RankOf(a)
	return r
}
