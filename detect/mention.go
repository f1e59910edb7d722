package detect

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/stategraph/stategraph/lexical"
)

// genericKeyWords say nothing about what a key is about.
var genericKeyWords = setOf("global", "shared", "current", "primary", "corrected", "final", "fact", "value", "data", "info",
	"restricted", "derived", "latest", "old", "new", "item", "note", "context", "detail", "details")

// Distinctive returns the values of s that identify what it says: amounts,
// percentages, dates, times, numbers, statuses and proper names, as they
// appear in s.
func Distinctive(s string) []string {
	var out []string
	for _, v := range extractValues(s) {
		if v.typ == tName && notTopic(lexical.LowerASCII(v.text)) {
			continue
		}
		out = append(out, v.text)
	}
	return out
}

// Mentions reports whether text contains phrase, case-insensitively on
// word boundaries.
func Mentions(text, phrase string) bool { return phrase != "" && containsFold(text, phrase) }

// Names reports whether text names the record with key and value: it uses
// one of the key's topic words (generic ones such as "current" aside) or
// one of the value's distinctive values.
//
// A key's word of five letters or more may be the start of the text's
// word ("rebal" of rebalThreshold in "I rebalance when …"), and a word of
// a name of several may stand for the name ("Sherry Fitz" for "Sherry
// FitzGerald", "Dutchman's" for "Dutchman's Locker"), when it is said
// with its capital and is no word of a place's or a business's kind.
func Names(text, key, value string) bool {
	tt := terms(text)
	for k := range keyTerms(key) {
		if genericKeyWords[k] {
			continue
		}
		if tt[k] {
			return true
		}
		if len(k) >= 5 {
			for t := range tt {
				if strings.HasPrefix(t, k) {
					return true
				}
			}
		}
	}
	for _, d := range Distinctive(value) {
		if containsFold(text, d) {
			return true
		}
	}
	return namesPart(text, value)
}

// namesPart reports whether text says, with its capital, a word of one of
// value's names of several words (namesKind words aside).
func namesPart(text, value string) bool {
	for _, v := range extractValues(value) {
		if v.typ != tName || !strings.Contains(v.text, " ") {
			continue
		}
		for _, w := range strings.Fields(v.text) {
			w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
			if len(w) >= 4 && unicode.IsUpper(rune(w[0])) && !nameKinds[strings.ToLower(w)] && len(lexical.WordIndexes(text, w)) > 0 {
				return true
			}
		}
	}
	return false
}

// nameKinds are the words a name says its kind with: "Lincoln Park",
// "Miller's Lab", "Rosa's Kitchen".
var nameKinds = setOf("park", "field", "street", "road", "lane", "avenue", "drive", "court", "place", "square", "lab", "labs",
	"center", "centre", "clinic", "kitchen", "auto", "shop", "store", "school", "hall", "house", "group", "services", "service",
	"company", "health", "care", "medical", "dental", "bank", "cafe", "café", "bakery", "market", "supply", "trucking", "hauling",
	"locker", "meats", "repair", "plumbing", "heating", "electric", "insurance", "pharmacy", "studio", "gym", "fitness", "salon",
	"north", "south", "east", "west", "city", "county", "state", "national", "first", "united")

// Substantive reports whether s states something: a distinctive value or
// a topic word, not only pronouns and function words ("This", "it").
func Substantive(s string) bool {
	return len(Distinctive(s)) > 0 || len(terms(s)) > 0
}

// Quoted reports whether phrase occurs inside a quoted span of text ('...'
// or "..." or “...”): a turn quoting a value is talking about it, not
// stating it.
func Quoted(text, phrase string) bool {
	for _, q := range reQuoted.FindAllString(text, -1) {
		if containsFold(q, phrase) {
			return true
		}
	}
	return false
}

var reQuoted = regexp.MustCompile(`(?:^|\W)'[^']{2,}'(?:\W|$)|"[^"]{2,}"|“[^”]{2,}”|‘[^’]{2,}’`)

// AboutHypothetical reports whether a query asks about hypothetical or
// draft content (a what-if, a scenario, a draft, an estimate); otherwise
// such content stays out of its context, labelled or not, since a small
// context should hold what is real.
func AboutHypothetical(query string) bool { return reAboutHypo.MatchString(query) }

// ScopeOf infers the scope of a turn's text alone: hypothetical and draft
// cues win over task cues; anything else is GLOBAL.
func ScopeOf(text string) Scope {
	_, body := speakerPrefix(text)
	return scopeOf(body)
}

// Typed reports whether s carries a value stronger than a bare number: an
// amount, a percentage, a date, a time, a status or a name.
func Typed(s string) bool {
	for _, v := range extractValues(s) {
		if v.typ != tNumber && !(v.typ == tName && notTopic(lexical.LowerASCII(v.text))) {
			return true
		}
	}
	return false
}

// reHistory marks a turn that tells how a value came to be: what it was
// first, what it moved to, what it is finally.
var reHistory = mustPre(`(?i)\b(?:originally|original|initially|at first|previously|used to|was|were|then|moved|changed|switched|pushed|final(?:ly)?|now|recap|considered|instead)\b`)

// Narrates reports whether text tells the history of current, a value
// that holds now: it states current's typed value together with other
// values of the same type (an earlier date beside the final one) and a
// word of history ("originally", "then moved", "final"). Such a turn is
// summarised by the fact holding current; replaying it would put the
// earlier values back in front of the reader.
func Narrates(text, current string) bool {
	return narratesHistory(text) && narratesValue(valuesMemo.Get(text), current)
}

// NarratesAny reports whether text tells the history of one of current
// (Narrates of each): text's word of history and its values are read once,
// not once per value.
func NarratesAny(text string, current []string) bool {
	if len(current) == 0 || !narratesHistory(text) {
		return false
	}
	vals := valuesMemo.Get(text)
	for _, c := range current {
		if narratesValue(vals, c) {
			return true
		}
	}
	return false
}

// narratesValue is Narrates of a text whose word of history was found,
// given its values (scanValues; shared, not modified).
func narratesValue(vals []value, current string) bool {
	cur := valuesMemo.Get(current)
	types := map[valueType]bool{}
	for _, v := range cur {
		if v.typ != tNumber && v.typ != tName && v.typ != tChoice {
			types[v.typ] = true
		}
	}
	if len(types) == 0 {
		return false
	}
	states, others := false, false
	for _, v := range vals {
		if !types[v.typ] {
			continue
		}
		if hasNorm(cur, v.norm) {
			states = true
		} else {
			others = true
		}
	}
	return states && others
}
