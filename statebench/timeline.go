// Package statebench reads StateBench timelines (JSON Lines) and computes the
// context-level metrics cSFRR and cMMR, which need no language model.
package statebench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// ErrTimestamp is returned (wrapped) for a timestamp in no known layout.
var ErrTimestamp = errors.New("statebench: malformed timestamp")

// EventKind is the "type" of an event.
type EventKind string

// Event kinds of StateBench v1.0.
const (
	KindTurn         EventKind = "conversation_turn"
	KindStateWrite   EventKind = "state_write"
	KindSupersession EventKind = "supersession"
	KindQuery        EventKind = "query"
)

// Layers a write can target.
const (
	LayerFacts       = "persistent_facts"
	LayerWorkingSet  = "working_set"
	LayerEnvironment = "environment"
)

// Timeline is one line of a StateBench file: an initial state, then events.
type Timeline struct {
	ID            string       `json:"id"`
	Version       Text         `json:"version"`
	Domain        string       `json:"domain"`
	Track         string       `json:"track"`
	Difficulty    string       `json:"difficulty"`
	DetectionMode string       `json:"detection_mode"`
	Actors        Actors       `json:"actors"`
	InitialState  InitialState `json:"initial_state"`
	Events        []Event      `json:"events"`
}

// Actors names the user and the assistant's role.
type Actors struct {
	User          Actor `json:"user"`
	AssistantRole Text  `json:"assistant_role"`
}

// Actor is the user a timeline is played for.
type Actor struct {
	ID   Text `json:"id"`
	Role Text `json:"role"`
	Org  Text `json:"org"`
}

// InitialState is the state before the first event.
type InitialState struct {
	IdentityRole    IdentityRole    `json:"identity_role"`
	PersistentFacts []Fact          `json:"persistent_facts"`
	WorkingSet      []WorkingItem   `json:"working_set"`
	Environment     map[string]Text `json:"environment"`
}

// IdentityRole is layer 1: who the user is.
type IdentityRole struct {
	UserName           Text `json:"user_name"`
	Authority          Text `json:"authority"`
	Department         Text `json:"department"`
	Organization       Text `json:"organization"`
	CommunicationStyle Text `json:"communication_style"`
}

// Source says where a fact or write came from.
type Source struct {
	Type      Text `json:"type"`
	Identity  Text `json:"identity"`
	Authority Text `json:"authority"`
}

// Fact is a persistent fact of the initial state.
type Fact struct {
	ID             string    `json:"id"`
	Key            string    `json:"key"`
	Value          Text      `json:"value"`
	Source         Source    `json:"source"`
	TS             time.Time `json:"-"`
	Supersedes     Text      `json:"supersedes"`
	SupersededBy   Text      `json:"superseded_by"`
	IsValid        *bool     `json:"is_valid"` // nil when absent: treat as valid
	Scope          Text      `json:"scope"`
	DependsOn      []Text    `json:"depends_on"`
	DerivedFacts   []Text    `json:"derived_facts"`
	IsConstraint   bool      `json:"is_constraint"`
	ConstraintType Text      `json:"constraint_type"`
}

// Start returns the time a timeline starts at: its initial environment's
// now, else its first event's timestamp, else its earliest initial fact's;
// zero when it gives none (or an environment now in no known layout and
// no other time).
func (tl Timeline) Start() time.Time {
	if t, err := ParseTime(string(tl.InitialState.Environment["now"])); err == nil && !t.IsZero() {
		return t
	}
	for _, e := range tl.Events {
		if !e.TS.IsZero() {
			return e.TS
		}
	}
	var first time.Time
	for _, f := range tl.InitialState.PersistentFacts {
		if !f.TS.IsZero() && (first.IsZero() || f.TS.Before(first)) {
			first = f.TS
		}
	}
	return first
}

// Valid reports whether the fact is valid (absent is_valid means valid).
func (f Fact) Valid() bool { return f.IsValid == nil || *f.IsValid }

// UnmarshalJSON decodes a fact, accepting zone-less timestamps.
func (f *Fact) UnmarshalJSON(b []byte) error {
	type plain Fact
	aux := struct {
		*plain
		TS stamp `json:"ts"`
	}{plain: (*plain)(f)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	f.TS = time.Time(aux.TS)
	return nil
}

// WorkingItem is an item of the initial working set.
type WorkingItem struct {
	ItemType Text      `json:"item_type"`
	Content  Text      `json:"content"`
	TS       time.Time `json:"-"`
	Priority Text      `json:"priority"`
}

// UnmarshalJSON decodes a working-set item, accepting zone-less timestamps.
func (w *WorkingItem) UnmarshalJSON(b []byte) error {
	type plain WorkingItem
	aux := struct {
		*plain
		TS stamp `json:"ts"`
	}{plain: (*plain)(w)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	w.TS = time.Time(aux.TS)
	return nil
}

// Event is one event; which fields are set depends on Kind.
type Event struct {
	Kind EventKind `json:"type"`
	TS   time.Time `json:"-"`

	// KindTurn.
	Speaker              Text `json:"speaker"`
	Text                 Text `json:"text"`
	ImplicitSupersession Text `json:"implicit_supersession"` // always null in v1.0; kept raw

	// KindStateWrite and KindSupersession.
	Writes []Write `json:"writes"`

	// KindQuery.
	Prompt      Text        `json:"prompt"`
	GroundTruth GroundTruth `json:"ground_truth"`
}

// UnmarshalJSON decodes an event, accepting zone-less timestamps.
func (e *Event) UnmarshalJSON(b []byte) error {
	type plain Event
	aux := struct {
		*plain
		TS stamp `json:"ts"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.TS = time.Time(aux.TS)
	return nil
}

// Write is one record of a state_write or supersession event. Supersedes
// names a fact id or, more often, a fact key (the currently valid fact with
// that key). IDs are not unique (many are the placeholder "W-AUTO").
type Write struct {
	ID             string `json:"id"`
	Layer          string `json:"layer"`
	Key            string `json:"key"`
	Value          Text   `json:"value"`
	Source         Source `json:"source"`
	Scope          Text   `json:"scope"`
	Supersedes     Text   `json:"supersedes"`
	DependsOn      []Text `json:"depends_on"`
	IsConstraint   bool   `json:"is_constraint"`
	ConstraintType Text   `json:"constraint_type"`
}

// GroundTruth is what a query's answer must and must not contain.
type GroundTruth struct {
	Decision        Text   `json:"decision"`
	DecisionType    Text   `json:"decision_type"`
	MustMention     []Text `json:"must_mention"`
	MustNotMention  []Text `json:"must_not_mention"`
	AllowedSources  []Text `json:"allowed_sources"`
	Reasoning       Text   `json:"reasoning"`
	RequiredFacts   []Text `json:"required_facts"`
	ForbiddenFacts  []Text `json:"forbidden_facts"`
	FailureSeverity Text   `json:"failure_severity"`
}

// Text is a string that also decodes from null (empty), numbers and booleans
// (their JSON spelling) and objects or arrays (their compact JSON text).
type Text string

// UnmarshalJSON implements json.Unmarshaler.
func (t *Text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*t = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text(s)
	case b[0] == '{' || b[0] == '[':
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			return err
		}
		*t = Text(buf.String())
	default:
		*t = Text(b)
	}
	return nil
}

// String returns t as a plain string.
func (t Text) String() string { return string(t) }

// stamp decodes RFC 3339 timestamps, with or without zone (zone-less means UTC).
type stamp time.Time

var layouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02"}

func (s *stamp) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*s = stamp{}
		return nil
	}
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("%w: %s", ErrTimestamp, b)
	}
	t, err := ParseTime(v)
	if err != nil {
		return err
	}
	*s = stamp(t)
	return nil
}

// ParseTime parses a StateBench timestamp; one without a zone is UTC and the
// empty string is the zero time.
func ParseTime(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	for _, l := range layouts {
		if t, err := time.ParseInLocation(l, v, time.UTC); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%w: %s", ErrTimestamp, strconv.Quote(v))
}

// LineError reports the line of a file that failed to decode.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("statebench: line %d: %v", e.Line, e.Err) }

// Unwrap returns the decoding error.
func (e *LineError) Unwrap() error { return e.Err }

// Load decodes one timeline per non-blank line. A line that fails to decode
// stops the load with a *LineError.
func Load(r io.Reader) ([]Timeline, error) {
	br := bufio.NewReader(r)
	var out []Timeline
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return out, fmt.Errorf("statebench: read line %d: %w", n, err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var t Timeline
			if derr := json.Unmarshal(line, &t); derr != nil {
				return out, &LineError{Line: n, Err: derr}
			}
			out = append(out, t)
		}
		if err != nil { // io.EOF
			return out, nil
		}
	}
}

// LoadFile opens path and calls Load.
func LoadFile(path string) ([]Timeline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("statebench: %w", err)
	}
	defer f.Close()
	ts, err := Load(f)
	if err != nil {
		return ts, fmt.Errorf("%s: %w", path, err)
	}
	return ts, nil
}
