// Package constraint is the one taxonomy of constraints: the types a rule
// can have and the phrases that state each. Facts infer a written fact's
// constraint type with it, and detection reports the constraint a
// conversation turn states with it.
package constraint

import (
	"regexp"
	"strings"
)

// Type is the kind of a constraint. The values are stored with facts and
// returned by the API: never rename one.
type Type string

// The types, in the order Classify tries them: the most specific first.
const (
	Prohibition Type = "PROHIBITION" // something must not happen
	Deadline    Type = "DEADLINE"    // a time something must happen by
	Budget      Type = "BUDGET"      // a bound on money to spend
	Policy      Type = "POLICY"      // a standing rule, an approval required
	Limit       Type = "LIMIT"       // a bound on an amount
	Requirement Type = "REQUIREMENT" // an obligation
)

// Types returns every type, in the order Classify tries them.
func Types() []Type {
	out := make([]Type, len(rules))
	for i, r := range rules {
		out[i] = r.typ
	}
	return out
}

// rules are tried in order; each is a phrase family that states a
// constraint of its type.
var rules = []struct {
	typ Type
	re  *regexp.Regexp
}{
	{Prohibition, regexp.MustCompile(`(?i)\bnever\b|\bmust not\b|\bmustn't\b|\bcannot\b|\bcan't\b|\bdo not\b|\bdon't\b|\bnot allowed\b|\bnot permitted\b|\bprohibit\w*\b|\bforbid\w*\b|\bno \w+ without\b|\bfrozen\b|\bfreeze\b`)},
	{Deadline, regexp.MustCompile(`(?i)\bdeadline\b|\bdue (?:by|on|in)\b|\bno later than\b|\bmust (?:ship|be done|be completed|be submitted|be operational|be delivered|launch|start|finish)\b|\bexpires?\b`)},
	{Budget, regexp.MustCompile(`(?i)\bbudget (?:cap|limit|ceiling)\b|\bcapped at\b|\bspend(?:ing)? (?:cap|limit)\b|\bmaximum \$|\bmax(?:imum)? (?:\w+ )?spend\b|\bnot exceed \$`)},
	{Policy, regexp.MustCompile(`(?i)\bpolicy\b|\brequires? (?:\w+ ){0,3}approval\b|\bmust be approved\b|\bcomplian\w*\b|\bnon-negotiable\b|\bmandat\w*\b|\bregulation\b`)},
	{Limit, regexp.MustCompile(`(?i)\bat most\b|\bno more than\b|\bat least\b|\bmax\b|\bmaximum\b|\bminimum\b|\bup to\b|\bcap(?:ped)?\b|\bceiling\b|\blimit(?:ed to)?\b|\bexceed\b`)},
	{Requirement, regexp.MustCompile(`(?i)\bmust\b|\brequired\b|\brequires?\b|\bhas to\b|\bhave to\b|\bneeds? to\b|\bmandatory\b|\bshall\b`)},
}

// Match is a constraint found in text.
type Match struct {
	Type Type
	Cue  string // the words that state it, lower case
	Text string // the passage (one of Classify's arguments) that states it
}

// Classify returns the constraint the passages state: the first type, in
// the order of Types, whose phrases occur in any passage, with the first
// passage that has them and the leftmost phrase. ok is false when no
// passage states a constraint.
func Classify(passages ...string) (m Match, ok bool) {
	for _, r := range rules {
		for _, p := range passages {
			if cue := r.re.FindString(p); cue != "" {
				return Match{Type: r.typ, Cue: strings.ToLower(cue), Text: p}, true
			}
		}
	}
	return Match{}, false
}
