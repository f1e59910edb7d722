package assemble

import "time"

// Counter counts tokens exactly as the consumer of the prompt will.
// tokens.Counter implements it for cl100k_base.
//
// Count must be deterministic and return 0 for "". Truncate should return
// a prefix of s whose Count is at most limit ("" when limit <= 0); Build
// re-counts whatever it emits, so a Truncate that overshoots costs text,
// never the budget.
type Counter interface {
	Count(s string) int
	Truncate(s string, limit int) string
}

// LineAdditive is implemented by a Counter that is additive over lines:
// for lines that each start with "- " or "## " and hold no newline and no
// trailing space, the count of the lines joined by "\n" equals the sum of
// Count(line+"\n") over all lines but the last, plus Count(last). Build
// then computes the count of its text (and of each section) from the
// per-line counts it already has, instead of counting the whole text
// again. cl100k_base is: no pre-tokenizer piece crosses such a newline.
type LineAdditive interface {
	LineAdditive() bool
}

// DefaultFactShare is the share of the budget left after identity and
// environment that facts may use when Input.FactShare is not in (0, 1].
const DefaultFactShare = 0.7

// Layers of the state-based context specification.
const (
	LayerIdentity    = 1
	LayerFacts       = 2
	LayerWorking     = 3
	LayerEnvironment = 4
)

// Scope is the scope of a fact or working-set item.
type Scope string

// Scopes. Hypothetical and draft content is always labelled as such.
const (
	ScopeGlobal       Scope = "GLOBAL"
	ScopeProject      Scope = "PROJECT"
	ScopeTask         Scope = "TASK"
	ScopeSession      Scope = "SESSION"
	ScopeHypothetical Scope = "HYPOTHETICAL"
	ScopeDraft        Scope = "DRAFT"
)

// ItemType is the type of a working-set item.
type ItemType string

// Working-set item types. Objectives are packed before other items.
const (
	ItemObjective     ItemType = "OBJECTIVE"
	ItemArtifact      ItemType = "ARTIFACT"
	ItemQuestion      ItemType = "QUESTION"
	ItemPendingAction ItemType = "PENDING_ACTION"
	ItemContext       ItemType = "CONTEXT"
)

// LeaseKind says how a state assertion's validity ends.
type LeaseKind string

// Lease kinds.
const (
	LeaseUntilChanged LeaseKind = "UNTIL_CHANGED"
	LeaseUntilTime    LeaseKind = "UNTIL_TIME"
	LeaseUntilEvent   LeaseKind = "UNTIL_EVENT"
)

// Kind names the kind of record in provenance.
type Kind string

// Record kinds.
const (
	KindIdentity    Kind = "IDENTITY"
	KindEnvironment Kind = "ENVIRONMENT"
	KindFact        Kind = "FACT"
	KindWorkItem    Kind = "WORK_ITEM"
	KindTurn        Kind = "TURN"
	KindAssertion   Kind = "ASSERTION"
	KindEvidence    Kind = "EVIDENCE"
	KindDocument    Kind = "DOCUMENT"
)

// Reason is why a record is not (or not fully) in the text.
type Reason string

// Exclusion reasons. The first three come from the caller and are passed
// through; Build adds OVER_BUDGET, and NEEDS_REVIEW for a fact whose key is
// included but whose stale value is withheld.
const (
	ReasonSuperseded  Reason = "SUPERSEDED"
	ReasonExpired     Reason = "EXPIRED"
	ReasonOutOfScope  Reason = "OUT_OF_SCOPE"
	ReasonOverBudget  Reason = "OVER_BUDGET"
	ReasonNeedsReview Reason = "NEEDS_REVIEW"
)

// Attr is a key-value pair: an environment signal or an identity attribute.
type Attr struct {
	Key, Value string
}

// Identity is the caller's identity and role (layer 1), from verified claims.
type Identity struct {
	UserID       string
	Name         string
	Organization string
	Authority    string
	Department   string
	Permissions  []string // rendered sorted
	Attributes   []Attr   // further claims, e.g. communication style; rendered in order
}

// Fact is a valid, visible, in-scope persistent fact (layer 2).
type Fact struct {
	ID             string
	Key, Value     string
	Scope          Scope
	IsConstraint   bool
	ConstraintType string // e.g. "policy", "budget"; optional
	NeedsReview    bool   // derived from a value that changed: must be recalculated
	Authority      int    // rank in the authority order, higher wins ties
	RecordedAt     time.Time
	ValidFrom      time.Time
	Score          float64 // relevance to the query (BM25), computed by the caller
}

// WorkItem is a working-set item (layer 3).
type WorkItem struct {
	ID         string
	Key, Value string
	ItemType   ItemType
	Scope      Scope // HYPOTHETICAL and DRAFT are labelled
	Priority   int   // higher first among equal scores
	At         time.Time
	Score      float64
}

// Turn is a recent conversation turn whose content is not superseded.
type Turn struct {
	ID      string
	Speaker string
	Text    string
	At      time.Time
	Score   float64
}

// Evidence is a sentence said earlier in the conversation (package
// evidence), retrieved for its relevance to the query: it fills the budget
// that facts and the working set leave free.
type Evidence struct {
	ID      string // names the turn and the sentence
	Speaker string
	Text    string
	At      time.Time // when it was said
	Score   float64
}

// Document is a chunk of an organizational document the caller may see
// (package documents), retrieved for its relevance to the query. Documents
// fill their own share of the budget (Input.DocumentShare), each line with
// its provenance: document, chunk and source URI.
type Document struct {
	ID         string // "documentId#chunk"
	DocumentID string
	Chunk      int // 0-based
	Title      string
	SourceURI  string
	Text       string
	Score      float64
}

// DefaultDocumentShare is the share of the budget left after identity,
// environment and constraints that documents may use when
// Input.DocumentShare is not in (0, 1].
const DefaultDocumentShare = 0.2

// Lease is the validity lease of a state assertion.
type Lease struct {
	Kind  LeaseKind
	Until time.Time // for UNTIL_TIME
	Event string    // for UNTIL_EVENT
}

// Assertion is an active short-term state assertion for the caller's context.
type Assertion struct {
	ID                         string
	Subject, Predicate, Object string
	Status                     string // epistemic status, e.g. "OBSERVED"
	// Hypothesis names the hypothesis group of an assertion that may
	// coexist with rivals of its slot; it is labelled as a hypothesis.
	Hypothesis string
	Lease      Lease
	At         time.Time
	Score      float64
}

// Exclusion is a record left out of the text, with the reason.
type Exclusion struct {
	ID     string
	Kind   Kind
	Reason Reason
}

// Input is everything Build needs; the caller has already filtered it to
// what is current, in scope and visible, and scored it against the query.
type Input struct {
	Budget      int     // hard limit on Output.Tokens; negative means 0
	FactShare   float64 // share of the budget left after identity and environment for facts; DefaultFactShare when not in (0, 1]
	Identity    Identity
	Environment []Attr   // current time, date and timezone included by the caller; rendered sorted by key
	EnvIssues   []string // provider problems, reported in Output.Notes, never fatal
	Facts       []Fact
	Working     []WorkItem
	Turns       []Turn
	Assertions  []Assertion
	Evidence    []Evidence
	// Documents are visible document chunks; they fill DocumentShare of
	// the budget left after identity, environment and constraints, before
	// facts take their share, and may use what is left at the end.
	Documents     []Document
	DocumentShare float64     // DefaultDocumentShare when not in (0, 1]
	Excluded      []Exclusion // already excluded by the caller, passed through
	Withheld      int         // records the caller may not see: only the count is reported
}

// Section is one rendered section of Output.Text.
type Section struct {
	Layer  int
	Title  string
	Text   string // the section's lines as they appear in Output.Text, without the heading
	Tokens int    // Count(Text); sections do not add up to Output.Tokens exactly
}

// Included is the provenance of a record that is in the text.
type Included struct {
	ID     string
	Kind   Kind
	Layer  int
	Reason string // e.g. "constraint", "relevant (score 2.31)", "NEEDS_REVIEW"
	Score  float64
}

// Output is the assembled context and its provenance.
type Output struct {
	Text     string
	Tokens   int         // Count(Text), always <= Budget
	Budget   int         // the budget applied: Input.Budget, or 0 when negative
	Sections []Section   // in text order
	Included []Included  // in text order
	Excluded []Exclusion // sorted by kind, ID and reason
	Withheld int
	Notes    []string // environment issues, identity truncation
	// Truncated is set when the identity alone did not fit and was cut to
	// the budget; the text then holds nothing else.
	Truncated bool
}
