package assertions

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stategraph/stategraph/fault"
)

// Input limits.
const (
	maxName  = 256
	maxText  = 1024
	maxList  = 32
	maxValue = 64 << 10
)

// Input is an assertion to admit. Pointers and empty strings stand for
// fields the caller left out.
type Input struct {
	Subject         string
	Predicate       string
	Object          json.RawMessage
	Context         string
	EpistemicStatus EpistemicStatus
	Validity        *Validity
	Provenance      *Provenance
	Refs            []Ref
	Visibility      string
	Tags            []string
	HypothesisGroup string
}

// The admission rules, as named in rejections.
const (
	RuleRequired   = "required-fields"
	RuleLease      = "lease-permanence"
	RulePerception = "perception-refs"
	RuleVolatile   = "volatile-predicate"
	ruleWellFormed = "well-formed"
	methodObserved = "observed"
)

// DefaultMaxLease is the default --max-lease: 30 days.
const DefaultMaxLease = 720 * time.Hour

// reject returns the BAD_USER_INPUT error of rule.
func reject(rule, field, format string, args ...any) error {
	return fault.BadInputf(field, "admission rule %s: %s", rule, fmt.Sprintf(format, args...))
}

// admit checks in against the admission rules at time now; it returns the
// first rule broken.
func admit(in *Input, now time.Time, maxLease time.Duration) error {
	switch {
	case strings.TrimSpace(in.Subject) == "":
		return reject(RuleRequired, "subject", "subject is required")
	case strings.TrimSpace(in.Predicate) == "":
		return reject(RuleRequired, "predicate", "predicate is required")
	case len(in.Object) == 0 || string(in.Object) == "null":
		return reject(RuleRequired, "object", "object is required (an entity reference such as \"Entity#42\", or a JSON value)")
	case strings.TrimSpace(in.Context) == "":
		return reject(RuleRequired, "context", "context is required (the thread or context the state holds in)")
	case in.EpistemicStatus == "":
		return reject(RuleRequired, "epistemicStatus", "epistemicStatus is required (PERCEPTION, INFERENCE, ASSUMPTION or ACTION)")
	case in.Validity == nil:
		return reject(RuleRequired, "validity", "validity is required: state has a lease (UNTIL_CHANGED, UNTIL_TIME or UNTIL_EVENT)")
	case in.Provenance == nil:
		return reject(RuleRequired, "provenance", "provenance is required")
	}
	if err := wellFormed(in); err != nil {
		return err
	}
	v := in.Validity
	switch v.Mode {
	case UntilChanged:
	case UntilTime:
		if v.ExpiresAt == nil {
			return reject(RuleLease, "validity.expiresAt", "UNTIL_TIME needs expiresAt; a lease without an end would make state permanent")
		}
		if !v.ExpiresAt.After(now) {
			return reject(RuleLease, "validity.expiresAt", "expiresAt %s is not in the future", v.ExpiresAt.Format(time.RFC3339))
		}
		if v.ExpiresAt.Sub(now) > maxLease {
			return reject(RuleLease, "validity.expiresAt", "expiresAt %s is beyond the maximum lease of %s; state that must last longer is promoted to a fact", v.ExpiresAt.Format(time.RFC3339), maxLease)
		}
	case UntilEvent:
		if strings.TrimSpace(v.UntilEvent) == "" {
			return reject(RuleLease, "validity.untilEvent", "UNTIL_EVENT needs untilEvent, the event that ends the lease")
		}
	case "":
		return reject(RuleRequired, "validity.mode", "validity.mode is required")
	default:
		return reject(RuleLease, "validity.mode", "unknown lease mode %q: a lease ends by change, time or event, never \"forever\"", v.Mode)
	}
	if v.Mode != UntilTime && v.ExpiresAt != nil {
		return reject(RuleLease, "validity.expiresAt", "expiresAt is only meaningful with UNTIL_TIME")
	}
	if v.Mode != UntilEvent && v.UntilEvent != "" {
		return reject(RuleLease, "validity.untilEvent", "untilEvent is only meaningful with UNTIL_EVENT")
	}
	if in.EpistemicStatus == Perception && strings.EqualFold(strings.TrimSpace(in.Provenance.Method), methodObserved) && len(in.Refs) == 0 {
		return reject(RulePerception, "refs", "a PERCEPTION whose provenance says a source was observed needs refs to that source")
	}
	return nil
}

// wellFormed checks types and sizes.
func wellFormed(in *Input) error {
	for _, f := range []struct{ name, v string }{
		{"subject", in.Subject}, {"predicate", in.Predicate}, {"context", in.Context},
		{"hypothesisGroup", in.HypothesisGroup}, {"visibility", in.Visibility},
		{"validity.untilEvent", in.Validity.UntilEvent},
		{"provenance.author.kind", in.Provenance.Author.Kind}, {"provenance.author.id", in.Provenance.Author.ID},
		{"provenance.origin.channel", in.Provenance.Origin.Channel}, {"provenance.origin.sessionId", in.Provenance.Origin.SessionID},
		{"provenance.method", in.Provenance.Method},
	} {
		if len(f.v) > maxName || !utf8.ValidString(f.v) {
			return reject(ruleWellFormed, f.name, "%s must be valid UTF-8 of at most %d bytes", f.name, maxName)
		}
	}
	switch {
	case !in.EpistemicStatus.Valid():
		return reject(ruleWellFormed, "epistemicStatus", "unknown epistemic status %q", in.EpistemicStatus)
	case !json.Valid(in.Object) || len(in.Object) > maxValue:
		return reject(ruleWellFormed, "object", "object must be a JSON value of at most %d bytes", maxValue)
	case len(in.Refs) > maxList || len(in.Tags) > maxList:
		return reject(ruleWellFormed, "refs", "at most %d refs and %d tags", maxList, maxList)
	}
	if c := in.Provenance.Confidence; c != nil && (math.IsNaN(*c) || *c < 0 || *c > 1) {
		return reject(ruleWellFormed, "provenance.confidence", "confidence must be between 0 and 1")
	}
	for _, r := range in.Refs {
		if strings.TrimSpace(r.Kind) == "" || strings.TrimSpace(r.Locator) == "" {
			return reject(ruleWellFormed, "refs", "every ref needs a kind and a locator")
		}
		if len(r.Kind) > maxName || len(r.Locator) > maxText || len(r.Quote) > maxText {
			return reject(ruleWellFormed, "refs", "a ref's kind, locator or quote is too long")
		}
	}
	for _, t := range in.Tags {
		if t == "" || len(t) > maxName {
			return reject(ruleWellFormed, "tags", "tags must be 1 to %d bytes", maxName)
		}
	}
	return nil
}

// refPattern is an entity reference: a type, '#', an id.
var refPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}#[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$`)

// ParseRef parses an entity reference such as "Entity#42" into its type
// and id.
func ParseRef(s string) (typ, id string, ok bool) {
	if !refPattern.MatchString(s) {
		return "", "", false
	}
	typ, id, _ = strings.Cut(s, "#")
	return typ, id, true
}

// ObjectRef returns the entity an object names: a JSON string that is an
// entity reference.
func ObjectRef(object json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(object, &s) != nil {
		return "", false
	}
	_, _, ok := ParseRef(s)
	return s, ok
}

// DefaultVolatile is the default --volatile-predicates: none. A key's
// name alone does not make a value state ("current_address" is a natural
// name for a fact); the write pipeline's state-content rule judges the
// value. An operator may still list names to refuse outright.
var DefaultVolatile []string

// Volatile matches keys and predicates against volatile patterns: a name,
// or a prefix ending in '*'. A fact key matches when it, or its last
// segment after '.', ':' or '/', matches.
type Volatile struct{ exact, prefixes []string }

// NewVolatile returns the matcher of patterns (case-insensitive).
func NewVolatile(patterns []string) (*Volatile, error) {
	v := &Volatile{}
	for _, p := range patterns {
		p = strings.ToLower(strings.TrimSpace(p))
		switch {
		case p == "" || p == "*":
			return nil, fmt.Errorf("volatile predicate %q: want a name or a prefix ending in *", p)
		case strings.HasSuffix(p, "*"):
			if strings.Contains(p[:len(p)-1], "*") {
				return nil, fmt.Errorf("volatile predicate %q: only a trailing * is allowed", p)
			}
			v.prefixes = append(v.prefixes, p[:len(p)-1])
		case strings.Contains(p, "*"):
			return nil, fmt.Errorf("volatile predicate %q: only a trailing * is allowed", p)
		default:
			v.exact = append(v.exact, p)
		}
	}
	return v, nil
}

// Match reports whether key names volatile state.
func (v *Volatile) Match(key string) bool {
	key = strings.ToLower(strings.TrimSpace(key))
	if v.match(key) {
		return true
	}
	if i := strings.LastIndexAny(key, ".:/"); i >= 0 {
		return v.match(key[i+1:])
	}
	return false
}

func (v *Volatile) match(name string) bool {
	for _, e := range v.exact {
		if name == e {
			return true
		}
	}
	for _, p := range v.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
