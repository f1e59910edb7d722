package extract

import (
	"regexp"
	"strings"
	"time"
)

// Swap reads a sentence that drops a stored value by name and takes up
// another: "I cancelled PureGym and joined The Climbing Hangar", "We sold
// the Golf and bought a Skoda Octavia", "Scratch the Trek — I ordered the
// Canyon Endurace", "We've ditched Jenkins for GitHub Actions", "Golden Wok
// cancelled on us, so Mezze Republic is doing the food". It returns the new
// value when the sentence drops old (said in full, or by a word of it of
// four letters or more) after a drop verb, or names old as the subject of
// a verb of falling away ("cancelled on us", "pulled out", "fell
// through"), and names a new value after a verb of taking up, after "for"
// or "with" right behind the dropped value, or before a verb of stepping in
// ("is doing", "stepped in"). The sentence is read as said; the caller
// passes only sentences that assert something (Analyze's Reason is "").
func Swap(sentence, old string) (string, bool) {
	old = strings.TrimSpace(old)
	if old == "" || len(sentence) > maxClause {
		return "", false
	}
	// asciiLower keeps byte offsets, so low's offsets are sentence's.
	low, lold := asciiLower(sentence), asciiLower(old)
	dropEnd := -1 // where the dropped value ends
	for _, m := range reDrop.FindAllStringIndex(low, -1) {
		if n := mentionsAt(low[m[1]:], lold); n > 0 {
			dropEnd = m[1] + n
			break
		}
	}
	if dropEnd < 0 {
		for _, m := range reFallAway.FindAllStringIndex(low, -1) {
			if mentionedBefore(low[:m[0]], lold) {
				dropEnd = m[1]
				break
			}
		}
	}
	if dropEnd < 0 {
		return "", false
	}
	ok := func(v string) bool {
		if v == "" || strings.Contains(fold(v), fold(firstWord(old))) || sameAs(old, v, anchorName, time.Time{}) {
			return false
		}
		r := []rune(v)
		return isUpperRune(r[0]) // a new value here is a name: "a bigger one" is not
	}
	// "ditched Jenkins for GitHub Actions", "swapped the Golf for a Corolla"
	if m := reForNew.FindStringIndex(sentence[dropEnd:]); m != nil && m[0] == 0 {
		if v, okv := takeChoice(sentence[dropEnd+m[1]:]); okv && ok(v) {
			return v, true
		}
	}
	for _, g := range reGain.FindAllStringIndex(sentence, -1) {
		after := sentence[g[1]:]
		v, okv := takeChoice(after)
		if okv && strings.HasPrefix(after, "The "+v) {
			v = "The " + v // part of the name: "The Climbing Hangar"
		}
		if okv && ok(v) {
			return v, true
		}
	}
	// "so Mezze Republic is doing the food"
	for _, g := range reStepIn.FindAllStringIndex(sentence, -1) {
		if g[0] < dropEnd {
			continue
		}
		names := reAnyName.FindAllStringIndex(sentence[:g[0]], -1)
		if len(names) == 0 {
			continue
		}
		n := names[len(names)-1]
		if n[1] != g[0] {
			continue
		}
		v, okv := nameCandidate(sentence, span{start: n[0], end: n[1], text: sentence[n[0]:n[1]]})
		if okv && ok(v.text) {
			return v.text, true
		}
	}
	return "", false
}

// Drops reports whether a sentence has a verb of dropping or of falling
// away, without which Swap finds nothing in it: a caller reading one
// sentence against many stored values asks once.
func Drops(sentence string) bool {
	low := asciiLower(sentence)
	return reDrop.MatchString(low) || reFallAway.MatchString(low)
}

// RuleSwap names statements Swap reads.
const RuleSwap = "swap"

// mentionsAt reports how many bytes of rest say old at its start: old in
// full, or one of old's words of four letters or more ("trek" for "Trek
// Domane", "golf" for "VW Golf"); 0 when rest does not open with it.
func mentionsAt(rest, old string) int {
	if strings.HasPrefix(rest, old) {
		return len(old)
	}
	for _, w := range strings.Fields(old) {
		w = strings.Trim(w, ".,'\"")
		if len(w) >= 4 && (rest == w || strings.HasPrefix(rest, w+" ") || strings.HasPrefix(rest, w+",") || strings.HasPrefix(rest, w+".")) {
			return len(w)
		}
	}
	return 0
}

// mentionedBefore reports whether before (the text ahead of a verb of
// falling away) ends with old, or one of its words of four letters or
// more, as its subject: "Golden Wok cancelled on us", "the barn fell
// through".
func mentionedBefore(before, old string) bool {
	before = strings.TrimRight(before, " ")
	if strings.HasSuffix(before, old) {
		return true
	}
	ws := words(before)
	if len(ws) == 0 {
		return false
	}
	last := ws[len(ws)-1]
	for _, w := range strings.Fields(old) {
		w = strings.Trim(w, ".,'\"")
		if len(w) >= 4 && w == last {
			return true
		}
	}
	return false
}

func isUpperRune(r rune) bool {
	return strings.ToUpper(string(r)) == string(r) && strings.ToLower(string(r)) != string(r)
}

var (
	reDrop     = regexp.MustCompile(`\b(?:dropped|cancelled|canceled|sold|left|quit|ditched|scrapped|scratch|scratched|replaced|swapped out|swapped|traded|got rid of|moved away from|switched away from|switched from|moved off|stopped using|gave up|dumped)\s+(?:the\s+|our\s+|my\s+|on\s+)?`)
	reGain     = regexp.MustCompile(`(?i)\b(?:bought|joined|ordered|booked|rebooked(?:\s+at|\s+with)?|signed up (?:for|with|at)|switched to|moved to|went with|going with|went for|picked up|picked|chose|hired|replaced (?:it|them|that|him|her) with|in favou?r of)\s+(?-i:the\s+|a\s+|an\s+)?`)
	reForNew   = regexp.MustCompile(`^\s*(?:,\s*)?(?:for|with|in favou?r of)\s+(?:the\s+|a\s+|an\s+)?`)
	reFallAway = regexp.MustCompile(`\s(?:cancelled on us|canceled on us|cancelled|canceled|pulled out|fell through|dropped out|backed out|let us down|went bust|shut down|closed down|is out|are out)\b`)
	reStepIn   = regexp.MustCompile(`\s+(?:is|are|will be|'s|’s)\s+(?:now\s+)?(?:doing|handling|covering|catering|running|taking over|taking it|stepping in)\b|\s+(?:stepped|steps|is stepping) in\b|\s+(?:took|takes) over\b`)
)
