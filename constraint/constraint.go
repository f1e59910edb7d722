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
var rules = []rule{
	newRule(Prohibition, `\bnever\b`, `\bmust not\b`, `\bmustn't\b`, `\bcannot\b`, `\bcan't\b`, `\bdo not\b`, `\bdon't\b`, `\bnot allowed\b`, `\bnot permitted\b`, `\bprohibit\w*\b`, `\bforbid\w*\b`, `\bno \w+ without\b`, `\bfrozen\b`, `\bfreeze\b`),
	newRule(Deadline, `\bdeadline\b`, `\bdue (?:by|on|in)\b`, `\bno later than\b`, `\bmust (?:ship|be done|be completed|be submitted|be operational|be delivered|launch|start|finish)\b`, `\bexpires?\b`),
	newRule(Budget, `\bbudget (?:cap|limit|ceiling)\b`, `\bcapped at\b`, `\bspend(?:ing)? (?:cap|limit)\b`, `\bmaximum \$`, `\bmax(?:imum)? (?:\w+ )?spend\b`, `\bnot exceed \$`),
	newRule(Policy, `\bpolicy\b`, `\brequires? (?:\w+ ){0,3}approval\b`, `\bmust be approved\b`, `\bcomplian\w*\b`, `\bnon-negotiable\b`, `\bmandat\w*\b`, `\bregulation\b`),
	newRule(Limit, `\bat most\b`, `\bno more than\b`, `\bat least\b`, `\bmax\b`, `\bmaximum\b`, `\bminimum\b`, `\bup to\b`, `\bcap(?:ped)?\b`, `\bceiling\b`, `\blimit(?:ed to)?\b`, `\bexceed\b`),
	newRule(Requirement, `\bmust\b`, `\brequired\b`, `\brequires?\b`, `\bhas to\b`, `\bhave to\b`, `\bneeds? to\b`, `\bmandatory\b`, `\bshall\b`),
}

// rule is one type's phrases: a case-insensitive regular expression, and
// the literal lower-case words every match starts with, derived from the
// phrases, so that text holding none of them skips the expression (most
// facts state no constraint, and the expressions dominate a write's cost).
type rule struct {
	typ      Type
	re       *regexp.Regexp
	triggers []string
}

func newRule(t Type, phrases ...string) rule {
	r := rule{typ: t, re: regexp.MustCompile(`(?i)` + strings.Join(phrases, "|"))}
	for _, p := range phrases {
		r.triggers = append(r.triggers, literalPrefix(p))
	}
	return r
}

// literalPrefix returns the literal text a phrase's matches start with:
// the phrase after a leading \b, up to its first operator (a character
// made optional by ?, * or {} is left out).
func literalPrefix(phrase string) string {
	p := strings.TrimPrefix(phrase, `\b`)
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '?', '*', '{':
			return p[:max(i-1, 0)]
		case '\\', '(', '[', '|', '.', '+', '^', '$':
			return p[:i]
		}
	}
	return p
}

// find returns the leftmost cue of r in p (lower is p in lower case).
func (r rule) find(p, lower string) string {
	for _, t := range r.triggers {
		if strings.Contains(lower, t) {
			return r.re.FindString(p)
		}
	}
	return ""
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
	lower := make([]string, len(passages))
	for i, p := range passages {
		lower[i] = strings.ToLower(p)
	}
	for _, r := range rules {
		for i, p := range passages {
			if cue := r.find(p, lower[i]); cue != "" {
				return Match{Type: r.typ, Cue: strings.ToLower(cue), Text: p}, true
			}
		}
	}
	return Match{}, false
}
