package detect

import (
	"strings"
	"sync"

	"github.com/stategraph/stategraph/authority"
)

// Directive is a statement attributed to a speaker, as records of
// instructions are written: "[VP] Vince (VP HR): All PTO over 3 days now
// requires VP approval". Tag is the bracketed level, Speaker the name and
// role, Rank the higher of the two on the authority order (-1 unknown) and
// Authority the phrase that ranks so.
type Directive struct {
	Tag, Speaker string
	Rank         int
	Authority    string
	Body         string

	roleWords map[string]bool // terms that name a rank on the order parsed with
}

// ParseDirective reads a directive from text, ranking its speaker with
// opts.Rank; ok is false when the text names no speaker.
//
// A speaker is named in brackets or before a parenthesis: text holding
// neither '[' nor '(' names none, and is not run through the expressions
// (recordTurn asks this of every fact it compares, on every turn).
func ParseDirective(text string, opts Options) (Directive, bool) {
	if !strings.ContainsAny(text, "[(") {
		return Directive{}, false
	}
	return parseDirective(text, opts)
}

// parseDirective is ParseDirective without its test for the characters
// every speaker needs.
func parseDirective(text string, opts Options) (Directive, bool) {
	rank := opts.Rank
	d := Directive{Rank: -1, roleWords: rankWords(opts.order())}
	rest := text
	if m := reSpeakerBracket.FindStringSubmatch(rest); m != nil {
		d.Tag, rest = m[1], rest[len(m[0]):]
	}
	if m := reSpeakerParen.FindStringSubmatch(rest); m != nil {
		d.Speaker, rest = m[1]+" ("+m[2]+")", rest[len(m[0]):]
		d.Rank, d.Authority = rank(m[2]), m[2]
	}
	if d.Tag == "" && d.Speaker == "" {
		return Directive{}, false
	}
	if tag := strings.ReplaceAll(d.Tag, "_", " "); rank(tag) > d.Rank {
		d.Rank, d.Authority = rank(tag), tag
	}
	d.Body = strings.TrimSpace(rest)
	return d, d.Body != ""
}

// Verdict is how two directives on a shared topic stand.
type Verdict int

// The verdicts of Prevails.
const (
	Unrelated     Verdict = iota // no shared topic, or nothing to decide
	NewerPrevails                // the newer directive replaces the older
	OlderPrevails                // the newer directive is outranked
	Contested                    // equal rank, different speakers: a conflict
)

// Prevails decides between two directives that share a topic (a content
// word of their bodies, speakers' names and roles aside): a higher-ranked
// speaker's directive prevails whichever came first; the same speaker's
// later word replaces their earlier one; equal ranks of different speakers
// are contested. A directive whose rank is unknown decides nothing.
func Prevails(newer, older Directive) Verdict {
	if newer.Rank < 0 || older.Rank < 0 || !sharesTopic(newer, older) {
		return Unrelated
	}
	switch {
	case newer.Rank > older.Rank:
		return NewerPrevails
	case newer.Rank < older.Rank:
		return OlderPrevails
	case strings.EqualFold(newer.Speaker, older.Speaker) && strings.EqualFold(newer.Tag, older.Tag):
		return NewerPrevails
	}
	return Contested
}

// sharesTopic reports whether two directives' bodies share a content word
// that is neither part of a speaker's name, role or tag nor a word of rank
// ("executive", "manager", "board"): who is speaking is not what about.
func sharesTopic(a, b Directive) bool {
	who := terms(a.Tag + " " + a.Speaker + " " + b.Tag + " " + b.Speaker)
	bt := terms(b.Body)
	for t := range terms(a.Body) {
		if bt[t] && !who[t] && !a.roleWords[t] && !b.roleWords[t] {
			return true
		}
	}
	return false
}

// rankWords returns the terms of the words that name a rank on o
// ("executive", "manager", "board"), computed once per order.
func rankWords(o *authority.Order) map[string]bool {
	if m, ok := rankWordsOf.Load(o); ok {
		return m.(map[string]bool)
	}
	out := map[string]bool{}
	for _, w := range o.RoleWords() {
		for t := range terms(w) {
			out[t] = true
		}
	}
	m, _ := rankWordsOf.LoadOrStore(o, out)
	return m.(map[string]bool)
}

// rankWordsOf caches rankWords by order; orders are immutable and few.
var rankWordsOf sync.Map
