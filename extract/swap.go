package extract

import (
	"regexp"
	"strings"
)

// Swap reads a sentence that drops a stored value by name and takes up
// another: "I cancelled PureGym and joined The Climbing Hangar", "We sold
// the Golf and bought a Skoda Octavia", "Scratch the Trek — I ordered the
// Canyon Endurace". It returns the new value when the sentence drops old
// (said in full, or by its first word of four letters or more) after a
// drop verb and names a new value after a verb of taking up. The sentence
// is read as said; the caller passes only sentences that assert something
// (Analyze's Reason is "").
func Swap(sentence, old string) (string, bool) {
	old = strings.TrimSpace(old)
	if old == "" || len(sentence) > maxClause {
		return "", false
	}
	low := fold(sentence)
	d := reDrop.FindAllStringIndex(low, -1)
	if d == nil {
		return "", false
	}
	dropped := false
	for _, m := range d {
		rest := low[m[1]:]
		if mentionsAt(rest, fold(old)) {
			dropped = true
			break
		}
	}
	if !dropped {
		return "", false
	}
	for _, g := range reGain.FindAllStringIndex(sentence, -1) {
		after := sentence[g[1]:]
		v, ok := takeChoice(after)
		if ok && strings.HasPrefix(after, "The "+v) {
			v = "The " + v // part of the name: "The Climbing Hangar"
		}
		if !ok || strings.Contains(fold(v), fold(firstWord(old))) {
			continue
		}
		if r := []rune(v); len(r) == 0 || !isUpperRune(r[0]) {
			continue // a new value here is a name: "a bigger one" is not
		}
		return v, true
	}
	return "", false
}

// mentionsAt reports whether rest opens with old, or with old's first
// word when it has four letters or more ("trek" for "Trek Domane").
func mentionsAt(rest, old string) bool {
	if strings.HasPrefix(rest, old) {
		return true
	}
	w := firstWord(old)
	return len(w) >= 4 && (rest == w || strings.HasPrefix(rest, w+" ") || strings.HasPrefix(rest, w+",") || strings.HasPrefix(rest, w+"."))
}

func isUpperRune(r rune) bool {
	return strings.ToUpper(string(r)) == string(r) && strings.ToLower(string(r)) != string(r)
}

var (
	reDrop = regexp.MustCompile(`\b(?:dropped|cancelled|canceled|sold|left|quit|ditched|scrapped|scratch|scratched|replaced|swapped out|got rid of|moved away from|switched away from|stopped using|gave up)\s+(?:the\s+|our\s+|my\s+|on\s+)?`)
	reGain = regexp.MustCompile(`(?i)\b(?:bought|joined|ordered|booked|rebooked(?:\s+at|\s+with)?|signed up (?:for|with|at)|switched to|moved to|went with|going with|picked|chose|hired|replaced (?:it|them|that|him|her) with|in favou?r of)\s+(?-i:the\s+|a\s+|an\s+)?`)
)
