// Package facts keeps persistent facts: durable, bi-temporal records that
// are superseded, never overwritten.
//
// A write may supersede the currently valid fact (named by id or by key).
// Supersession is atomic: the old fact's valid time ends (CHANGE) or
// collapses (CORRECTION), the chain gains an edge old -> new, and every fact
// derived from the old one, transitively, is flagged for review. Reads can
// see the state as of a valid time and as known at a transaction time.
package facts

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/temporal"
)

// MemoryType says which of the three memories a fact belongs to.
type MemoryType string

// The memory types.
const (
	MemoryUser           MemoryType = "USER"
	MemoryCapability     MemoryType = "CAPABILITY"
	MemoryOrganizational MemoryType = "ORGANIZATIONAL"
)

// Valid reports whether m is a known memory type.
func (m MemoryType) Valid() bool {
	return m == MemoryUser || m == MemoryCapability || m == MemoryOrganizational
}

// Scope says where a fact applies. HYPOTHETICAL and DRAFT facts are never
// the current value of a global read.
type Scope string

// The scopes.
const (
	ScopeGlobal       Scope = "GLOBAL"
	ScopeProject      Scope = "PROJECT"
	ScopeTask         Scope = "TASK"
	ScopeSession      Scope = "SESSION"
	ScopeHypothetical Scope = "HYPOTHETICAL"
	ScopeDraft        Scope = "DRAFT"
)

// Valid reports whether s is a known scope.
func (s Scope) Valid() bool {
	switch s {
	case ScopeGlobal, ScopeProject, ScopeTask, ScopeSession, ScopeHypothetical, ScopeDraft:
		return true
	}
	return false
}

// Real reports whether content in this scope may be presented as real.
func (s Scope) Real() bool { return s != ScopeHypothetical && s != ScopeDraft }

// SourceType is who a fact came from.
type SourceType string

// The source types.
const (
	SourceUser     SourceType = "USER"
	SourceSystem   SourceType = "SYSTEM"
	SourceTool     SourceType = "TOOL"
	SourceExternal SourceType = "EXTERNAL"
	SourcePolicy   SourceType = "POLICY"
)

// Valid reports whether t is a known source type.
func (t SourceType) Valid() bool {
	switch t {
	case SourceUser, SourceSystem, SourceTool, SourceExternal, SourcePolicy:
		return true
	}
	return false
}

// MemoryLevel is the abstraction level of capability memory. Writing a
// level needs an agent maturity: junior agents write events, senior agents
// heuristics too, master agents strategies too.
type MemoryLevel string

// The memory levels, lowest first.
const (
	LevelEvent     MemoryLevel = "EVENT"
	LevelHeuristic MemoryLevel = "HEURISTIC"
	LevelStrategy  MemoryLevel = "STRATEGY"
)

// Valid reports whether l is a known level.
func (l MemoryLevel) Valid() bool {
	return l == LevelEvent || l == LevelHeuristic || l == LevelStrategy
}

// AgentLevel returns the agent maturity that writing l needs.
func (l MemoryLevel) AgentLevel() authority.AgentLevel {
	switch l {
	case LevelHeuristic:
		return authority.AgentSenior
	case LevelStrategy:
		return authority.AgentMaster
	}
	return authority.AgentJunior
}

// Tombstone records that a fact was forgotten: its value (and its
// supersession's reason and cue) were erased; the record stays in history.
type Tombstone struct {
	By string    `json:"by"`
	At time.Time `json:"at"`
}

// SupersessionKind says how a new fact replaces an old one.
type SupersessionKind string

// The supersession kinds.
const (
	// Change: the world changed; the old value was true until the new
	// value's validFrom.
	Change SupersessionKind = "CHANGE"
	// Correction: the old value was never true; the new value takes over
	// its valid time.
	Correction SupersessionKind = "CORRECTION"
)

// Valid reports whether k is a known kind.
func (k SupersessionKind) Valid() bool { return k == Change || k == Correction }

// DetectionExplicitWrite is the detection kind of a supersession asked for
// by a write's supersedes field.
const DetectionExplicitWrite = "EXPLICIT_WRITE"

// DetectionAuthority is the detection kind of a supersession decided by
// rank: an instruction replacing one it outranks.
const DetectionAuthority = "AUTHORITY"

// Source is where a fact came from.
type Source struct {
	Type       SourceType `json:"type"`
	Authority  string     `json:"authority,omitempty"`
	Identity   string     `json:"identity,omitempty"`
	TurnIndex  *int       `json:"turnIndex,omitempty"`
	EventIndex *int       `json:"eventIndex,omitempty"`
	// Set on a fact extracted from a conversation turn (package extract):
	// the turn's id, the index of the sentence in it, who spoke it (as
	// named), whom they relayed ("the COO"), and the extraction rule.
	Turn     string `json:"turn,omitempty"`
	Sentence *int   `json:"sentence,omitempty"`
	Speaker  string `json:"speaker,omitempty"`
	Cited    string `json:"cited,omitempty"`
	Rule     string `json:"rule,omitempty"`
}

// Supersession is the edge from the fact a fact replaced: how, why, by whom
// and when. It is stored on the newer fact.
type Supersession struct {
	Kind SupersessionKind `json:"kind"`
	// Detection says what found the supersession: EXPLICIT_WRITE, or a
	// conversation detector's kind (EXPLICIT, IMPLICIT, AUTHORITY, TEMPORAL).
	Detection string    `json:"detection"`
	Cue       string    `json:"cue,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	Actor     string    `json:"actor"`
	At        time.Time `json:"at"`
	// Declassified is set when the newer fact was written less restricted
	// than the one it replaced, by an explicit declassification.
	Declassified bool `json:"declassified,omitempty"`
}

// Retraction says who took a fact back, why, and what said so (By: the
// conversation turn, when a turn retracted it).
type Retraction struct {
	By     string    `json:"by,omitempty"`
	Reason string    `json:"reason"`
	Cue    string    `json:"cue,omitempty"`
	Actor  string    `json:"actor"`
	At     time.Time `json:"at"`
}

// Revocation says which decision revoked a fact that lost a conflict: its
// valid time ended at the decision's time, with no successor; the kept
// candidate stays the one current record.
type Revocation struct {
	Decision string    `json:"decision"`
	Conflict string    `json:"conflict,omitempty"`
	Reason   string    `json:"reason"`
	Actor    string    `json:"actor"`
	At       time.Time `json:"at"`
}

// Staleness says why a write was recorded as stale: the value it restated
// had already been replaced, by ReplacedBy, in a change found at At.
type Staleness struct {
	Reason     string    `json:"reason"`
	ReplacedBy string    `json:"replacedBy"`
	At         time.Time `json:"at"`
}

// Fact is a persistent fact as stored. Fields that change after the write
// (SupersededBy, SupersededAt, ValidTo, NeedsReviewAt) carry the
// transaction time at which they changed, so any past state can be
// reconstructed with In.
type Fact struct {
	ID             string          `json:"id"`
	Key            string          `json:"key"`
	Value          json.RawMessage `json:"value"`
	MemoryType     MemoryType      `json:"memoryType"`
	Owner          string          `json:"owner,omitempty"` // user or capability of the space
	Scope          Scope           `json:"scope"`
	ScopeID        string          `json:"scopeId,omitempty"`
	IsConstraint   bool            `json:"isConstraint"`
	ConstraintType string          `json:"constraintType,omitempty"`
	Source         Source          `json:"source"`
	DependsOn      []string        `json:"dependsOn,omitempty"`

	ValidFrom  time.Time  `json:"validFrom"`
	ValidTo    *time.Time `json:"validTo,omitempty"`
	RecordedAt time.Time  `json:"recordedAt"`

	Supersedes   string        `json:"supersedes,omitempty"`
	Supersession *Supersession `json:"supersession,omitempty"`
	SupersededBy string        `json:"supersededBy,omitempty"`
	SupersededAt *time.Time    `json:"supersededAt,omitempty"`

	NeedsReviewAt *time.Time `json:"needsReviewAt,omitempty"`

	// Level is the abstraction level of capability memory; empty for the
	// other memory types.
	Level MemoryLevel `json:"level,omitempty"`
	// RestrictedTo limits who may read the fact; nil lets everyone who can
	// reach its space read it. A caller who does not satisfy it cannot
	// tell the fact from one that does not exist.
	RestrictedTo *permissions.Restriction `json:"restrictedTo,omitempty"`
	// Forgotten is set when the fact was forgotten; its value is erased.
	Forgotten *Tombstone `json:"forgotten,omitempty"`
	// Retracted is set when the fact was taken back without a successor
	// ("that was wrong"): a correction to nothing. Its valid time is then
	// empty, from SupersededAt on, like a corrected fact's.
	Retracted *Retraction `json:"retracted,omitempty"`
	// Revoked is set when a conflict's decision kept another candidate:
	// the fact's valid time ends at the decision's time (SupersededAt and
	// ValidTo), and the edge names the decision.
	Revoked *Revocation `json:"revoked,omitempty"`
	// PromotedFrom is the state assertion this fact was promoted from by
	// an explicit decision (promoteState), if any.
	PromotedFrom string `json:"promotedFrom,omitempty"`
	// Aliases are the other keys of earlier members of the fact's chain,
	// under which it is also listed as a valid head.
	Aliases []string `json:"aliases,omitempty"`

	// Stale is set when the write restated a value the conversation had
	// already replaced: the fact is kept for history but is invalid from
	// birth (its valid time is empty) and never current.
	Stale *Staleness `json:"stale,omitempty"`

	// view is the view the fact was read in; edges resolve in it too.
	view temporal.View
}

// In returns the fact as it stood in view v, or false if v does not know
// it yet (temporal.View.Knows). Changes recorded after v.KnownAt (a
// supersession, a review flag) are undone; IsValid then applies the rule.
func (f Fact) In(v temporal.View) (Fact, bool) {
	if !v.Known(f.RecordedAt) { // v.Knows(f.Record()), without making the record
		return Fact{}, false
	}
	if f.SupersededAt != nil && !v.Known(*f.SupersededAt) {
		f.SupersededBy, f.SupersededAt, f.ValidTo, f.Retracted, f.Revoked = "", nil, nil, nil, nil
	}
	if f.NeedsReviewAt != nil && !v.Known(*f.NeedsReviewAt) {
		f.NeedsReviewAt = nil
	}
	f.view = v
	return f, true
}

// Record returns the fact's times for the view rule: valid from ValidFrom,
// recorded at RecordedAt, retired by its supersession (a change ends its
// valid time at ValidTo, a correction empties it). A fact stored invalid
// from birth has an empty interval from the start.
func (f Fact) Record() temporal.Record {
	return FactRecord(f.ValidFrom, f.ValidTo, f.RecordedAt, f.SupersededAt)
}

// FactRecord is Fact.Record from the fields alone, for readers that hold
// only a fact's times (search postings).
func FactRecord(validFrom time.Time, validTo *time.Time, recordedAt time.Time, supersededAt *time.Time) temporal.Record {
	r := temporal.Record{Valid: temporal.Interval{From: validFrom}, RecordedAt: recordedAt}
	switch {
	case supersededAt == nil:
		r.Valid.To = validTo // stored invalid from birth, or nil
	case validTo == nil || !validTo.After(validFrom):
		r.Retirement = temporal.Corrected(*supersededAt)
	default:
		r.Retirement = temporal.Changed(*supersededAt, *validTo)
	}
	return r
}

// headKeys returns the keys under which the fact is listed as a valid
// head: its own and its chain's earlier keys.
func (f Fact) headKeys() []string { return append([]string{f.Key}, f.Aliases...) }

// View returns the view the fact was read in.
func (f Fact) View() temporal.View { return f.view }

// Interval returns the fact's valid time as known in its view.
func (f Fact) Interval() temporal.Interval {
	return temporal.Interval{From: f.ValidFrom, To: f.ValidTo}
}

// IsValid reports whether the fact holds in its view by the one rule
// (temporal.View.Holds): for a view with an as-of time, whether its valid
// time as known in the view contains that time; otherwise whether no
// supersession known in the view retired it. A stale or forgotten fact is
// never valid, in any view: erasure is not undone by looking back.
func (f Fact) IsValid() bool {
	if f.Stale != nil || f.Forgotten != nil {
		return false
	}
	// A fact has no end known from the start, so the clock is not needed.
	return f.view.Holds(f.Record(), time.Time{})
}

// NeedsReview reports whether a fact it depends on was superseded.
func (f Fact) NeedsReview() bool { return f.NeedsReviewAt != nil }

// ValueText returns the value as text: a JSON string unquoted, anything
// else as compact JSON.
func (f Fact) ValueText() string { return ValueText(f.Value) }

// Text returns the fact as one human-readable line, "key: value".
func (f Fact) Text() string { return f.Key + ": " + f.ValueText() }

// ValueText renders a JSON value as text: strings unquoted.
func ValueText(v json.RawMessage) string {
	if s, ok := StringValue(v); ok {
		return s
	}
	return strings.TrimSpace(string(v))
}

// StringValue returns the string a JSON value holds, as json.Unmarshal
// into a string decodes it, and whether v is a JSON string at all. A
// value is read on every stage of a write (and several times in some), so
// the common one, a quoted string with no escapes, is read without the
// reflection of json.Unmarshal; any other goes through it.
func StringValue(v json.RawMessage) (string, bool) {
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' {
		in := v[1 : n-1]
		plain := true
		for _, c := range in {
			if c < 0x20 || c == '"' || c == '\\' {
				plain = false
				break
			}
		}
		// json.Unmarshal replaces invalid UTF-8 with U+FFFD.
		if plain && utf8.Valid(in) {
			return string(in), true
		}
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}
