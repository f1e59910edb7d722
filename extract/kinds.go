package extract

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/stategraph/stategraph/lexical"
)

// OtherKind reports a new value that cannot stand for the stored one,
// whatever read it: no email address for an email address ("tom" of "my
// new brand manager is tom, send stuff to tom.r@…"), no digit for a phone
// number, and nothing that says when for a value that says only when
// ("Webster-paks" beside "Every second Monday").
func OtherKind(stored, v string) bool {
	stored = strings.TrimSpace(stored)
	if hasUpper(stored) && !OnlyWhen(stored) && reLeadPreposition.MatchString(v) {
		return true // "after that brake fiasco" names no shop
	}
	switch {
	case reWholeEmail.MatchString(stored):
		return !strings.Contains(v, "@")
	case reWholePhone.MatchString(stored) && !reISODate.MatchString(stored): // (2026-03-02 is a date)
		return !strings.ContainsAny(v, "0123456789")
	case OnlyWhen(stored):
		return !strings.ContainsAny(v, "0123456789") && !reWhenWord.MatchString(v) && !reTimeInWords.MatchString(v) || reClauseValue.MatchString(v)
	case rePersonName.MatchString(stored) && readsAsName(stored):
		// "leave through the spring" is no one's name ("rosa" may be).
		return !hasUpper(v) && len(strings.Fields(v)) > 2
	}
	return false
}

// rePersonName is a person's first and last name: "Janet Ruiz".
var rePersonName = regexp.MustCompile(`^\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+$`)

// SameWords reports a new value that says only words of the stored one,
// in any order, perhaps after a verb of dropping it: "Elm St Starbucks"
// beside "Starbucks on Elm St", "Conf B" beside "Conf Room B", "Let
// Brightline" beside "Brightline Media".
func SameWords(stored, v string) bool {
	content := func(s string) []string {
		var ws []string
		for _, w := range strings.Fields(fold(s)) {
			if w = strings.Trim(w, ".,;:!?()'’\""); w != "" && !linkingWords[w] {
				ws = append(ws, w)
			}
		}
		return ws
	}
	old, ws := content(stored), content(v)
	if len(ws) > 1 && droppingVerbs[ws[0]] {
		ws = ws[1:]
	}
	return len(old) > 0 && len(ws) > 0 && !slices.ContainsFunc(ws, func(w string) bool { return !slices.Contains(old, w) })
}

// linkingWords join the words of a name: "Starbucks on Elm St".
var linkingWords = map[string]bool{"the": true, "a": true, "an": true, "on": true, "at": true, "of": true, "in": true, "to": true, "and": true, "&": true}

// droppingVerbs open a phrase that names what is dropped: "let
// Brightline (go)".
var droppingVerbs = map[string]bool{"let": true, "drop": true, "dropped": true, "ditch": true, "ditched": true, "cancel": true,
	"cancelled": true, "canceled": true, "fire": true, "fired": true, "quit": true, "left": true, "leave": true}

// reLeadPreposition opens a phrase on a preposition of time or cause, in
// lower case (one of place may lead to a place: "at our new warehouse, 22
// Ikorodu Road").
var reLeadPreposition = regexp.MustCompile(`^(?:after|before|because|since|with|about|during|until)\s`)

// reClauseValue is a value that holds a clause, its subject and a verb:
// "Dana and I agreed to do Sunday handoffs at 6" is no time.
var reClauseValue = regexp.MustCompile(`(?i)\b(?:i|we|they|he|she)\s+(?:[a-z]+ed|agreed|said|told|decided|will|would|can|could|have|had|am|are|was|were)\b`)

// OnlyWhen reports a value that says only when ("Every second Monday",
// "Tue/Thu 6pm").
func OnlyWhen(v string) bool {
	low := strings.ToLower(v)
	rest := reWhenWord.ReplaceAllString(low, " ")
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if !whenFillers[w] {
			return false
		}
	}
	return strings.TrimSpace(rest) != strings.TrimSpace(low)
}

var (
	// reWhenWord is a word that says when: a weekday, a month, a time
	// of day, a period, a day of the month.
	reWhenWord = regexp.MustCompile(`(?i)\b(?:` + dayName + `|` + monthNames + `|daily|weekly|monthly|fortnightly|yearly|annually|noon|midnight|morning|afternoon|evening|night|weekdays?|weekends?|today|tomorrow|\d{1,2}(?::\d\d)?\s*(?:am|pm)|\d{1,2}:\d\d|\d{4}-\d\d-\d\d|\d{1,2}(?:st|nd|rd|th))\b`)
	// reTimeInWords is a time said in words: "half seven", "9 o'clock".
	reTimeInWords = regexp.MustCompile(`(?i)\b(?:half|quarter|o['’]clock|` + numWords + `)\b`)
	// whenFillers join the words of a value that says when.
	whenFillers = map[string]bool{"every": true, "each": true, "other": true, "second": true, "first": true, "third": true, "last": true,
		"and": true, "at": true, "on": true, "the": true, "of": true, "to": true, "from": true, "till": true, "until": true, "s": true}
)

// PlaceKey reports a key whose value is a place: `office_location`,
// `home_addr`, `hq`.
func PlaceKey(key string) bool {
	for _, w := range keyWords(key) {
		if isPlaceAttr(w) || placeKeyWords[w] {
			return true
		}
	}
	return false
}

// placeKeyWords are key words, besides the place attributes, that name a
// place.
var placeKeyWords = map[string]bool{"addr": true, "office": true, "home": true, "where": true, "room": true, "site": true,
	"place": true, "hq": true, "town": true, "country": true, "base": true}

// contrasts are groups of words that set things of one kind apart: the
// home kit and the away kit, the front door and the back door.
var contrasts = [][]string{
	{"home", "away"}, {"front", "back", "rear", "side"}, {"upstairs", "downstairs"}, {"primary", "secondary", "backup"},
	{"morning", "afternoon", "evening", "night"}, {"weekday", "weekend"}, {"summer", "winter", "spring", "fall", "autumn"},
	{"indoor", "outdoor"}, {"inbound", "outbound"}, {"breakfast", "lunch", "dinner"}, {"upper", "lower"},
	{"north", "south", "east", "west"}, {"junior", "senior"}, {"varsity", "jv"},
}

// Contrasted reports a sentence that names the thing key names only as
// its counterpart: "our home kits are switching to white" beside away_kit,
// "the back door code" beside front_door_code. The sentence says a word
// of the key's topic right after another word of the key's contrast
// group, and never the key's own word of that group. Under a key that
// names no word of the group, a sentence that sets two of its words apart
// names a counterpart too: "JV travel roster got cut to 18, varsity's
// untouched" beside travelRosterSize.
func Contrasted(sentence, key string) bool {
	kws := keyWords(key)
	ws := words(fold(sentence))
	for _, g := range contrasts {
		own := ""
		for _, k := range kws {
			if slices.Contains(g, k) {
				own = k
			}
		}
		if own == "" {
			if counterpartSaid(strings.Fields(fold(sentence)), g, kws) {
				return true
			}
			continue
		}
		if slices.Contains(ws, own) {
			continue
		}
		for i := 0; i+1 < len(ws); i++ {
			next := singular(ws[i+1])
			if ws[i] != own && slices.Contains(g, ws[i]) && slices.ContainsFunc(kws, func(k string) bool { return k != own && singular(k) == next }) {
				return true
			}
		}
	}
	return false
}

// counterpartSaid reports fields fs (a sentence's, with their marks) that
// say a word of contrast group g right before a word of the key (kws),
// and another word of g elsewhere ("last night, prod is …" modifies
// nothing).
func counterpartSaid(fs, g, kws []string) bool {
	for i := 0; i+1 < len(fs); i++ {
		w := fs[i]
		if !slices.Contains(g, w) || !slices.Contains(kws, singular(bareField(fs[i+1]))) {
			continue
		}
		if slices.ContainsFunc(fs, func(f string) bool { o := bareField(f); return o != w && slices.Contains(g, o) }) {
			return true
		}
	}
	return false
}

// reWordNumber is a key word with a number written onto it: "ward6".
var reWordNumber = regexp.MustCompile(`^([a-z]{3,})(\d{1,2})$`)

// LetterApart reports a sentence that names the key's thing by another
// letter or number than the key gives it, and never by the key's own:
// "yard A at 17 trailers after AM drops, B didn't move" beside
// yardB_trailer_count.
func LetterApart(sentence, key string) bool {
	var kws []string
	for _, w := range keyWords(key) {
		// "ward6" of ward6_insulin_pens is ward 6.
		if m := reWordNumber.FindStringSubmatch(w); m != nil {
			kws = append(kws, m[1], m[2])
			continue
		}
		kws = append(kws, w)
	}
	raw := strings.Fields(sentence)
	for i := 1; i < len(kws); i++ {
		mark := kws[i]
		if len(mark) > 2 || len(kws[i-1]) < 3 {
			continue
		}
		noun, other, own := kws[i-1], false, false
		for j := 0; j+1 < len(raw); j++ {
			if singular(fold(bareField(raw[j]))) != noun || strings.ContainsAny(raw[j][len(raw[j])-1:], ".,;:!?") {
				continue // ("account, I had": a mark ends the noun's phrase)
			}
			// A capital or a digit names one of several: "yard A",
			// "dock 6" (not "the yard is").
			next := bareField(raw[j+1])
			switch low := fold(next); {
			case low == mark:
				own = true
			case len(next) <= 2 && next != "" && next != "I" && (unicode.IsUpper(rune(next[0])) || unicode.IsDigit(rune(next[0]))):
				other = true
			}
		}
		if other && !own {
			return true
		}
	}
	return false
}

// QualifiedApart reports a sentence that names the key's thing with a
// qualifier of its own where the key's qualifier goes unsaid: "raised the
// loft cleaning fee to $95" beside cleaning_fee_cottage is the loft's fee.
func QualifiedApart(sentence, key string) bool {
	var kws []string
	for _, w := range keyWords(key) {
		if w = singular(w); !stopKeyWords[w] {
			kws = append(kws, w)
		}
	}
	// The key's qualifier is a word after its attribute: "cottage" of
	// cleaning_fee_cottage tells it from the other cleaning fees.
	isAttr := func(w string) bool {
		_, ok := anchorAttrs[w]
		_, syn := attributeSynonyms[w]
		return ok || syn
	}
	attr := slices.IndexFunc(kws, isAttr)
	if len(kws) < 3 || attr < 1 || attr == len(kws)-1 || slices.ContainsFunc(kws[attr+1:], isAttr) {
		return false
	}
	toks := clauseWords(sentence)
	missing := slices.ContainsFunc(kws[attr+1:], func(w string) bool {
		return !slices.ContainsFunc(toks, func(t span) bool {
			return t.text == w || len(w) >= 3 && strings.HasPrefix(t.text, w) || synonymous(w, t.text)
		})
	})
	if !missing {
		return false
	}
	for i := 1; i+1 < len(toks); i++ {
		if !slices.Contains(kws, toks[i].text) || !slices.Contains(kws, toks[i+1].text) {
			continue
		}
		q := toks[i-1].text
		if !slices.Contains(kws, q) && !lexical.IsStop(q) && !plainModifiers[q] && !strings.ContainsAny(q, "0123456789") {
			return true
		}
	}
	return false
}

// plainModifiers describe a thing without telling it from another of its
// kind: "the new cleaning fee" is the cleaning fee, "Dad's new aide" Dad's
// aide.
var plainModifiers = map[string]bool{"new": true, "current": true, "old": true, "usual": true, "regular": true, "standard": true,
	"normal": true, "same": true, "base": true, "total": true, "full": true, "flat": true, "monthly": true, "weekly": true, "annual": true,
	"yearly": true, "daily": true, "nightly": true, "hourly": true, "latest": true, "updated": true, "revised": true, "final": true,
	"main": true, "primary": true}

// bareField is a sentence's field without its marks and its possessive:
// "varsity's" of "varsity's,", "A" of "A,".
func bareField(f string) string {
	f = strings.Trim(f, ".,;:!?—–-()")
	return strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
}

// SharedOnly reports a text that names the thing key names only by words
// the other key has too: "The budget was cut to $30,000" beside
// marketing_budget and travel_budget says which of them nowhere.
func SharedOnly(text, key, other string) bool {
	theirs := keyWords(other)
	named := false
	for _, w := range keyWords(key) {
		if !Names(text, w) {
			continue
		}
		if !slices.ContainsFunc(theirs, func(o string) bool { return singular(o) == singular(w) }) {
			return false
		}
		named = true
	}
	return named
}

// reKeptAsIs says a thing stays as it was: "I left your main wifi
// password as is", "your wifi password stays the same", "UAT sign-off
// unaffected", "ward 6 no change".
var reKeptAsIs = regexp.MustCompile(`\b(?:left|leaving|leave|kept|keeping|keep)\s+((?:your|my|our|the|his|her|their)\s+[\p{L}\d\s'’-]{1,40}?)\s+(?:as is|as it is|as it was|as-is|alone|unchanged|untouched|the same|in place|where it was|where it is)\b|\b((?:your|my|our|the)\s+[\p{L}\d\s'’-]{1,40}?)\s+(?:stays|remains|is staying|is unchanged|hasn't changed|has not changed|didn't change|did not change|stays put|is still the same)\b|(?:^|[.;,:]\s*)([\p{L}\d][\p{L}\d\s'’-]{1,40}?)\s+(?:unaffected|unchanged|not affected|no change|not changing|stays the same|stays as is|stays put)\s*(?:[.;,!]|$)`)

// KeptAsIs reports a text that says the key's thing stays as it was, by
// every word of the key: "Noted — the guest network password is
// bluejay2026 now; I left your main wifi password as is" changes no
// wifi_pw.
func KeptAsIs(text, key string) bool {
	phrases := keptPhrases.Get(text)
	if len(phrases) == 0 {
		return false
	}
	topic, attrs := anchorWords(key)
	kws := append(slices.Clone(topic), attrs...)
	if len(kws) == 0 {
		return false
	}
	for _, np := range phrases {
		ws := map[string]bool{}
		for _, w := range words(np) {
			ws[singular(w)] = true
		}
		if !slices.ContainsFunc(kws, func(k string) bool { return !ws[k] && !saysSynonym(np, k) }) {
			return true
		}
	}
	return false
}

// keptPhrases are the things a text says stay as they were (reKeptAsIs),
// folded: read once per text, however many facts it is compared with.
var keptPhrases = newMemo(func(text string) []string {
	var nps []string
	for _, m := range reKeptAsIs.FindAllStringSubmatch(fold(text), -1) {
		nps = append(nps, m[1]+m[2]+m[3])
	}
	return nps
})
