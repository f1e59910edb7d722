package extract

import (
	"regexp"
	"strings"
)

// Roles reads a role taken on in a formal register as the plain
// statement it makes: "Mr. Abernathy has graciously agreed to serve as
// our accompanist" and "Ana will act as treasurer" say who will be, "Ana
// serves as treasurer" who is. Agreeing to anything else ("agreed to
// consider", "agreed to serve on the committee") is left as said.
//
// So does a role given to someone: "I made Tom Becker the owner of the
// billing shared mailbox" says Tom Becker is now its owner, "Mr. Daniel
// Okoye was elected PTA treasurer" that he is now treasurer.
func Roles(s string) string {
	s = reAgreedToServe.ReplaceAllString(s, "will be")
	s = reMadeRole.ReplaceAllString(s, "${1} is now ${2}")
	s = reElectedRole.ReplaceAllString(s, "${1} is now ")
	return reServesAs.ReplaceAllString(s, "is")
}

// reElectedRole is someone, by name, elected or appointed to a role:
// "Mr. Daniel Okoye was elected PTA treasurer", "Harvest Table Catering
// has been selected as our new cafeteria vendor".
var reElectedRole = regexp.MustCompile(`(\p{Lu}[\p{L}.'’&-]*(?:\s+\p{Lu}[\p{L}.'’&-]*){0,3})\s+(?i:(?:was|has been|had been|have been|were)\s+(?:unanimously\s+|officially\s+|formally\s+)?(?:elected|appointed|voted in as|(?:named|chosen|selected|confirmed)\s+as)\s+(?:as\s+)?)`)

// reMadeRole is someone made, named or appointed to a role over a thing,
// by name: "made Tom Becker the owner of", "appointed Dana Pruitt as the
// new lead for".
var reMadeRole = regexp.MustCompile(`(?i:\b(?:i|we|they|he|she|hr|it|management|the board)\s+(?:have\s+|has\s+|had\s+|just\s+|officially\s+)*(?:made|named|appointed|assigned|designated)\s+)(\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){0,2})\s+(?i:as\s+)?((?i:the\s+(?:new\s+)?(?:owner|lead|head|manager|point person|dri|admin|administrator|contact|coordinator|chair)\s+(?:of|for|on))\b)`)

// arrows reads an arrow between a thing, or its old value, and its new
// value, as notes and changelogs write a change, as "is now": "CSAT
// target → 94%", "first response 4h → 2h", "billing bug -> resolved".
// (Swap reads "old -> new" beside the stored old value from the text as
// said.)
func arrows(s string) string {
	if !strings.Contains(s, "→") && !strings.Contains(s, "->") && !strings.Contains(s, "=>") && !strings.Contains(s, "⟶") {
		return s
	}
	return reArrowBetween.ReplaceAllString(s, "${1} is now ${2}")
}

// reArrowBetween is reArrow between two words.
var reArrowBetween = regexp.MustCompile(`([\p{L}\d%$€£)])` + reArrow.String() + `([\p{L}\d$€£(#@])`)

// Affixed reads an English verb that a Tagalog affix is joined to
// ("nag-request", "i-move", "na-cancel") as the verb: the affix says its
// aspect, which the sentence's other words tell as well ("Nag-request
// ako na i-move …, hinihintay ko pa reply nila" asks; nothing moved).
func Affixed(s string) string {
	if !strings.Contains(s, "-") {
		return s
	}
	return reTagalogAffix.ReplaceAllStringFunc(s, func(m string) string {
		verb := m[strings.IndexByte(m, '-')+1:]
		if strings.EqualFold(verb, "request") {
			return "requested" // "nag-request ako": asked for, whichever aspect
		}
		return verb
	})
}

var (
	// reTagalogAffix is a Tagalog verb affix on an English verb.
	reTagalogAffix = regexp.MustCompile(`(?i)\b(?:nag|mag|i|ipa|pina|pag|na|ma|naka|maka|nagpa|magpa)-(\p{L}{3,})`)
	// reAgreedToServe agrees to, or will, take a role on.
	reAgreedToServe = regexp.MustCompile(`(?i)\b(?:(?:has|have)\s+(?:\p{L}+ly\s+)?agreed\s+to|(?:will|shall)(?:\s+\p{L}+ly)?)\s+(?:serve|act|stand in)\s+as\b`)
	// reServesAs holds a role now ("is acting as" stands in for someone:
	// the rule owner-stepped-in reads it as said).
	reServesAs = regexp.MustCompile(`(?i)\b(?:serves|is serving)\s+as\b`)
)
