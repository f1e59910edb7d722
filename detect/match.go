package detect

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stategraph/stategraph/lexical"
)

// candidate is a record the turn may supersede, with the evidence.
type candidate struct {
	rec     Record
	score   int
	keyHits int    // key words the turn mentions
	typed   *value // a turn value of the record's type with a different value
	choice  *value // a turn choice that differs from the record's value
	old     bool   // the turn names the record's value as the old one
	exact   bool   // ... and names the whole value, not just a part of it
	recent  bool   // the record's value was mentioned in the latest turns
	recency int    // how late its words were last discussed (0: not recently)
	prev    string // the record's value being replaced
	cue     []foundCue
}

// matchRecord decides whether the turn supersedes fact or assertion r.
func matchRecord(r Record, v *turnView, recentTexts []folded, recentTerms []map[string]bool) (candidate, bool) {
	c := candidate{rec: r, cue: v.cues}
	keyT := keyTerms(r.Key)
	for t := range keyT {
		// "Keep the location, but ...": a protected key is not touched.
		if v.protected[t] {
			return c, false
		}
	}
	val := bare(r.Value)
	if val == "" {
		return c, false
	}
	rvals := recordValues(val)
	rchoice := recordChoices.Get(val)
	c.prev = val

	c.keyHits = overlap(keyT, v.terms)
	valHits := 0
	for t := range terms(val) {
		if v.terms[t] && !keyT[t] {
			valHits++
		}
	}

	// The turn names r's value in an old position: "from X", "instead of X".
	for _, tv := range v.values {
		if tv.old && hasNorm(rvals, tv.norm) {
			c.old, c.prev = true, tv.text
		}
	}
	if i := v.low.index(val); i >= 0 && oldBefore(v.text, i) {
		c.old, c.exact = true, true
	}
	// The turn restates r's value in a new position: nothing changes.
	restated := !c.old && (v.low.contains(val) || v.low.contains(strings.TrimSpace(r.Value)) ||
		v.bareLow.contains(val) || coveredBy(rvals, v.values))

	// A new value of the same type (money for money, date for date).
	for i, tv := range v.values {
		if tv.old || !tv.typ.strong() || !hasType(rvals, tv.typ) || hasNorm(rvals, tv.norm) || tv.typ == tName && containsFold(val, tv.text) {
			// ("Riverbend" of "Riverbend Credit Union" is the old one.)
			continue
		}
		// A turn that also repeats r's value of this type is elaborating
		// ("launch March 1, code freeze Feb 15"), not replacing it.
		if restatesType(rvals, v.values, tv.typ) {
			continue
		}
		c.typed = &v.values[i]
		if j := landedOn(v, i, func(n string) bool { return hasNorm(rvals, n) }, func(t string) bool { return containsFold(val, t) }); j != i {
			// "sold 5 mugs … so I'm down to 7 now": of two new amounts,
			// the one a change lands on ("down to 7").
			c.typed = &v.values[j]
		}
		// Keep a short value whole ("Los Angeles"); quote the typed part of a long one.
		for _, rv := range rvals {
			if rv.typ == tv.typ && len(val) > 40 {
				c.prev = rv.text
				break
			}
		}
		break
	}
	for i, ch := range v.choices {
		if ch.norm != rchoice && !containsFold(val, ch.text) && !containsFold(ch.text, val) {
			c.choice = &v.choices[i]
		}
	}
	if c.choice != nil && c.choice.start < 0 && onlyTermsOf(c.choice.text, keyT) {
		// "Dan is my emergency contact now": the copula's predicate is
		// the key; its subject is the value.
		if subj, ok := copulaSubject(v.text, c.choice.text); ok && !containsFold(val, subj.text) {
			c.typed, c.choice = &subj, nil
		}
	}
	c.recent = mentionedRecently(val, recentTexts)
	c.recency = recency(val, recentTerms)

	strongCue := v.has(cueExplicit) || v.has(cueTemporal)
	switch {
	case c.old:
		// Naming the old value as old is the clearest signal of all.
	case restated:
		return c, false
	case strongCue:
		// A change word needs some link to r: its key, its words, a value of
		// its type, or a recent mention of its value.
		if c.keyHits == 0 && valHits == 0 && c.typed == nil && !c.recent && c.recency == 0 {
			return c, false
		}
	case v.has(cueDecision):
		// Choosing a named alternative needs a rival value and a link.
		if (c.typed == nil && c.choice == nil) || (c.keyHits == 0 && valHits == 0 && !c.recent && c.recency == 0) {
			return c, false
		}
	default:
		// No cue: the turn must name r's key and give it a new typed value,
		// or assign a new value to it with a plain "is".
		if c.keyHits == 0 || (c.typed == nil && (c.choice == nil || !v.copular)) {
			return c, false
		}
	}
	c.score = 2*c.keyHits + valHits
	if c.typed != nil {
		c.score += 2
	}
	if c.choice != nil {
		c.score++
	}
	if c.recent {
		c.score++
	}
	c.score = c.score*1000 + c.recency // later discussion breaks ties
	if c.old {
		c.score += 3
	}
	return c, true
}

// onlyTermsOf reports whether every term of s is one of keyT's, and s,
// a few words, holds no number.
func onlyTermsOf(s string, keyT map[string]bool) bool {
	if strings.ContainsAny(s, "0123456789") || len(strings.Fields(s)) > 4 {
		return false
	}
	ts := terms(s)
	for t := range ts {
		if !keyT[t] {
			return false
		}
	}
	return len(ts) > 0
}

// reCopulaSubject is a name that opens a clause before a copula: "Dan
// is …", "…, so Paddy Walsh's …".
var reCopulaSubject = regexp.MustCompile(`(?:^|[.!?;,:]\s+|\s(?:so|and|but|now)\s+)(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,2})(?:\s+is|['’]s)\s+(?:now\s+)?$`)

// reCopulaEnd is what may follow the predicate: its end, "now", a mark.
var reCopulaEnd = regexp.MustCompile(`^\s*(?:$|[.,;:!?]|now\b|(?:from now on|going forward|these days)\b)`)

// copulaSubject returns the name said as the subject of the copula whose
// predicate is pred ("Dan is my emergency contact now"), as a name value.
func copulaSubject(text, pred string) (value, bool) {
	i := indexFold(text, pred)
	if i <= 0 || !reCopulaEnd.MatchString(text[i+len(pred):]) {
		// ("Hana is the server admin for the Chen lab next door now":
		// the predicate goes on; the role is another's.)
		return value{}, false
	}
	m := reCopulaSubject.FindStringSubmatchIndex(text[:i])
	if m == nil || notTopic(strings.ToLower(text[m[2]:m[3]])) {
		return value{}, false
	}
	name := text[m[2]:m[3]]
	return value{typ: tName, text: name, norm: "name:" + strings.ToLower(name), start: m[2], end: m[3]}, true
}

// best keeps the top-scoring candidates, plus any with direct evidence (its
// key and a new value of its type, or its old value named as old).
func best(cs []candidate) []candidate {
	// A turn that quotes a record's whole value as the old one ("the value
	// was: X") names its target: records that only share part of X are
	// not it.
	var exact []candidate
	for _, c := range cs {
		if c.exact {
			exact = append(exact, c)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	top := 0
	for _, c := range cs {
		top = max(top, c.score)
	}
	if top > 0 && top < 1000 {
		top = 1 // only recency: no candidate has real evidence
	}
	out := cs[:0] // kept in place: cs is the caller's to give up
	for _, c := range cs {
		if c.score == top || c.old || (c.keyHits > 0 && c.typed != nil) {
			out = append(out, c)
		}
	}
	return out
}

// landedOn picks, among the turn's new amounts, counts, times or names of
// the type of values[i] (the first), the one a change lands on: the only
// one said after "to" or "now" ("down to 7", "is now 7"), or for a name
// after "to", "with", "is" or "at" (reLandsOnName), that is not the
// stored value (stored reads a norm, storedText a name's text), else i.
func landedOn(v *turnView, i int, stored func(norm string) bool, storedText func(text string) bool) int {
	tv := v.values[i]
	var lands interface{ MatchString(string) bool } = reLandsOn
	switch tv.typ {
	case tNumber, tMoney, tPercent, tTime:
	case tName:
		// "the Patels switched venues, they're at Lakeview Pavilion":
		// of two new names, the one the change lands on, not its
		// owner.
		lands = landsOnName{}
	default:
		return i
	}
	landed := -1
	for j, o := range v.values {
		if o.old || o.typ != tv.typ || stored(o.norm) || j != i && o.norm == tv.norm || o.start > len(v.text) || !lands.MatchString(v.text[:o.start]) || o.typ == tName && storedText(o.text) {
			continue
		}
		if landed >= 0 {
			return i // two: which is it?
		}
		landed = j
	}
	if landed < 0 {
		return i
	}
	return landed
}

// reLandsOn closes the text before the value a change lands on.
var reLandsOn = regexp.MustCompile(`(?i)\b(?:to|now|is|are|['’]s)\s+$`)

// reLandsOnName closes the text before a name a change lands on: "over
// to DNG", "they're at Lakeview Pavilion", "went with Fisher".
// ("booked the team rooms at the Courtyard Marriott", but not where
// someone took a job: "took the head coaching job at Westview").
var reLandsOnName = regexp.MustCompile(`(?i)\b(?:to|is|are|['’]re|with|through|thru)\s+(?:the\s+)?$|(?:^|[^\p{L}])(?:[a-z]+)\s+at\s+(?:the\s+)?$`)

// landsOnName matches the text before a name a change lands on.
type landsOnName struct{}

func (landsOnName) MatchString(s string) bool {
	return reLandsOnName.MatchString(s) && !reJobAt.MatchString(s)
}

// reJobAt is where someone works: "job at", "works at".
var reJobAt = regexp.MustCompile(`(?i)\b(?:job|jobs|work|works|worked|working|position|role|gig|post|shift|internship)\s+at\s+(?:the\s+)?$`)

// detection turns a candidate into a Detection.
func (c candidate) detection(v *turnView, auth, authCue string, opts Options) Detection {
	d := Detection{
		Superseded: []Ref{{c.rec.ID, c.rec.Kind}},
		Key:        c.rec.Key,
		Previous:   c.prev,
		Authority:  auth,
	}
	choice := c.choice
	if c.typed != nil && onlyValue(c.prev, *c.typed, v.text) {
		// "6" beside "going to 8 servers on Fridays": a count's new
		// value is the count, not the clause around it.
		choice = nil
	}
	d.Replacement = withName(withUnit(replacement(v, c.typed, choice), c.prev, v.text), c.prev, v.text)
	d.Kind, d.Confidence, d.Cue = classify(v, c.rec, auth, authCue, opts)
	if d.Kind == KindImplicit && d.Cue == "" {
		d.Cue = strings.Join(keys(keyTerms(c.rec.Key), v.terms), " ") + " → " + d.Replacement
	}
	if c.keyHits == 0 && c.typed == nil && !c.old {
		d.Confidence -= 0.2 // linked only by words of the value or recency
	}
	if c.old {
		d.Confidence += 0.05
	}
	d.Confidence = min(1, max(0, d.Confidence))
	d.Blocked = blocked(auth, c.rec.Authority, opts)
	return d
}

// withUnit carries the unit of the previous value onto a bare number
// said with it: "3" of "3 liters of water" beside "2 liters" is "3 liters".
func withUnit(repl, prev, text string) string {
	num, unit, ok := strings.Cut(strings.TrimSpace(prev), " ")
	if !ok || !isNumeric(num) || !isNumeric(repl) || unit == "" || strings.ContainsAny(unit, " ") {
		return repl
	}
	if strings.Contains(strings.ToLower(text), strings.ToLower(repl+" "+unit)) {
		return repl + " " + unit
	}
	return repl
}

// withName carries the name a bare number is said with when the previous
// value is a name and a number too: "308" of "I'm in Maple Hall 308 now"
// beside "Hall B 214" is "Maple Hall 308".
func withName(repl, prev, text string) string {
	if !isNumeric(repl) || !reNamedNumber.MatchString(strings.TrimSpace(prev)) {
		return repl
	}
	i := strings.Index(text, " "+repl)
	if i < 0 {
		return repl
	}
	if m := reNameBefore.FindString(text[:i]); m != "" && m != "I" {
		return m + " " + repl
	}
	return repl
}

var (
	// reNamedNumber is a name and a number: "Hall B 214", "Room 12".
	reNamedNumber = regexp.MustCompile(`^\p{Lu}[\p{L}.]*(?:\s+[\p{L}.]+){0,3}\s+#?\d+[A-Za-z]?$`)
	// reNameBefore is one to three capitalised words ending a text.
	reNameBefore = regexp.MustCompile(`(?:\p{Lu}[\p{L}'’.-]*\s+){0,2}\p{Lu}[\p{L}'’.-]*$`)
)

// onlyValue reports whether prev is one amount, count, percentage or
// time of typed's type and at most a unit word ("6", "$1,850/month", "3
// liters"), or a label the text gives typed too ("Stall 14" beside "moved
// us to stall 22").
func onlyValue(prev string, typed value, text string) bool {
	t := typed.typ
	if t != tNumber && t != tMoney && t != tPercent && t != tTime {
		return false
	}
	vals := recordValues(prev)
	if len(vals) != 1 || vals[0].typ != t {
		return false
	}
	rest := strings.Fields(prev[:vals[0].start] + " " + prev[vals[0].end:])
	switch {
	case len(rest) == 0:
		return true
	case len(rest) > 1:
		return false
	case strings.ToLower(rest[0]) == rest[0]:
		return true
	}
	return containsFold(text, rest[0]+" "+typed.text)
}

func isNumeric(s string) bool {
	return s != "" && strings.TrimLeft(s, "0123456789.,") == ""
}

// replacement picks the new value: an assignment that contains the typed
// value, else the typed value, else the assignment, else the active text.
func replacement(v *turnView, typed, choice *value) string {
	switch {
	case choice != nil && (typed == nil || containsFold(choice.text, typed.text)):
		return trimmed(whole(v.text, *choice))
	case typed != nil:
		return trimmed(whole(v.text, *typed))
	}
	return trimmed(v.text)
}

// whole is a value's text, carried on to the end of the word it stops
// in: a choice read up to a full stop ("oncall@acme" of
// "oncall@acme.io") is the whole address.
func whole(text string, val value) string {
	end := val.end
	if val.start < 0 || end <= val.start || end > len(text) || text[val.start:end] != val.text {
		// A choice read from another view of the text: find it.
		i := strings.Index(text, val.text)
		if i < 0 || val.text == "" {
			return val.text
		}
		val.start, end = i, i+len(val.text)
	}
	for end < len(text) {
		c := text[end]
		switch {
		case c == '.' && end+1 < len(text) && isWordChar(text[end+1]) && isWordChar(text[end-1]):
		case c == '/' && end+1 < len(text) && lexical.IsASCIIDigit(text[end+1]) && lexical.IsASCIIDigit(text[end-1]):
			// ("55/45": a ratio is one value.)
		case c == '@' || c == '-' || c == '_' || c == '/' && strings.Contains(text[val.start:end], "."):
			// ("zoom.us/j/884412": a web address runs through its path.)
			if end+1 >= len(text) || !isWordChar(text[end+1]) {
				return text[val.start:end]
			}
		case !isWordChar(c):
			return text[val.start:end]
		}
		end++
	}
	return text[val.start:end]
}

func isWordChar(c byte) bool { return lexical.IsASCIILetter(c) || lexical.IsASCIIDigit(c) }

// reLeadSchedule opens a replacement with the verb that set it: "targeted
// for June 17" (of "Release is now targeted for June 17") is "June 17".
var reLeadSchedule = regexp.MustCompile(`(?i)^(?:now\s+)?(?:targeted|targetted|scheduled|set|planned|slated|pencill?ed in|expected|moved|pushed|pulled|bumped|rescheduled|starting|starts|beginning|begins|collected|held|happening)\s+(?:for|to|on|at|in|from)\s+(?:a\s+)?`)

// trimLead drops the verb a replacement opens with (reLeadSchedule).
func trimLead(s string) string {
	if m := reLeadSchedule.FindStringIndex(s); m != nil && m[1] < len(s) {
		return s[m[1]:]
	}
	if m := reLeadAdverb.FindStringIndex(s); m != nil && m[1] < len(s) {
		return s[m[1]:] // "officially closed" is "closed"
	}
	if m := reLeadOne.FindStringIndex(s); m != nil && m[1] < len(s) {
		return s[m[1]:] // "the one on Market Square" is "Market Square"
	}
	return s
}

// reLeadOne names a replacement by where it is: "my bank is now the one on
// Market Square".
var reLeadOne = regexp.MustCompile(`(?i)^(?:the|that|this) one (?:(?:over|down|up|out) )?(?:on|at|in|by|near|off)\s+`)

// reLeadAdverb opens a replacement with how or when it came to be.
var reLeadAdverb = regexp.MustCompile(`(?i)^(?:officially|finally|now|just|already|formally)\s+`)

// trimTail drops function words a cut left at the end of a phrase: "4
// days in office from" (of "… from now on") is "4 days in office".
// reTrailStart closes a replacement with when it takes effect, or with a
// clause of its own after a comma: "closed, we've got our cast", "the
// side gate, the one by the front door kept rusting"; or with its purpose:
// "every other weekend to match the new grid".
var reTrailStart = regexp.MustCompile(`(?i)\s+(?:starting|from|beginning|as of|effective)\s+(?:next|this|today|tomorrow|now on|now|immediately)\b.*$|\s+(?:from now on|from here on|going (?:forward|forwards|fwd)|moving (?:forward|forwards|fwd)|(?-i:onwards?))\b.*$|,\s+(?:we|i|they|he|she|you)(?:['’](?:ve|re|m|ll|d))?\s.*$|,\s+(?:which|because|since|cause|cuz|bc|as|the (?:old |other |previous |current )?one)\s.*$|\s+(?:so as |in order )?to\s+(?:` + purposeVerbs + `)\b.*$`)

// purposeVerbs say what a change is for, after "to": "every other weekend
// to match the new grid" is no move to a match.
const purposeVerbs = `match|fit|align|accommodate|reflect|keep|cover|avoid|save|free up|make room|line up|sync|meet|suit|comply`

var rePurposeAfter = regexp.MustCompile(`^\s+(?:so as |in order )?to\s+(?:` + purposeVerbs + `)\b`)

// PurposeAfter reports text that opens on a change's purpose ("to match
// the new grid"), not on where a thing went.
func PurposeAfter(text string) bool { return rePurposeAfter.MatchString(text) }

func trimTail(s string) string {
	if m := reItsValue.FindStringSubmatchIndex(s); m != nil {
		s = s[m[2]:] // "the new unit, it's #40 at Hwy 6 Self Storage": the value said after "it's"
	}
	if m := reTrailStart.FindStringIndex(s); m != nil && m[0] > 0 {
		s = s[:m[0]] // "three-week sprints starting next sprint": when, not what
	}
	s = beforeClause(s)
	if m := reNotDay.FindStringIndex(s); m != nil && m[0] > 0 {
		s = s[:m[0]] // "30 September 2026 not June": the date, not the one it replaces
	}
	if last := s[strings.LastIndexByte(s, ' ')+1:]; strings.Count(last, ".") == 1 && strings.HasSuffix(last, ".") && len(last) > 2 && !lexical.Abbreviation(last[:len(last)-1]) {
		s = s[:len(s)-1] // the sentence's full stop, not an abbreviation's ("p.m.", "Jr." stay)
	}
	for {
		t := strings.TrimRight(s, " ,;:—–-")
		i := strings.LastIndexByte(t, ' ')
		if t[i+1:] == "A" {
			return t // "Bldg A": a letter that names, not an article
		}
		switch strings.ToLower(t[i+1:]) {
		case "from", "to", "at", "on", "in", "of", "for", "with", "by", "the", "a", "an", "and", "or",
			"though", "tho", "anyway", "anyways", "lol", "btw", "too", "again", "already", "yet", "itself":
			// (and the fillers a chat ends a clause with: "on hold though";
			// Indian English's "Wednesday 11am itself")
			if i < 0 {
				return t
			}
			s = t[:i]
			continue
		}
		return t
	}
}

// beforeClause cuts s before a clause of its own: after a comma, a
// finite verb among the next three words, before any other mark
// ("Northgate Gas, Harper kept cancelling on us", "Wednesdays at 6,
// committee signed it off last night"); or after a bare "so" ("Leeds so
// first aid contact is Imran Shah") or a spaced dash. A list or an
// address has no verb ("48 Harbor Road, Suite 200").
// reItsValue is a value said again after "it's", later in a
// replacement: "wrong, it's Track2026!", "wrong, the correct one is
// panda8888".
var reItsValue = regexp.MustCompile(`(?i),\s*(?:it['’]s|it is|its|(?:(?:the|that)\s+)?(?:correct|right|actual|real|proper)\s+one\s+(?:is|['’]s))\s+(?:now\s+)?(\S.*)$`)

func beforeClause(s string) string {
	for _, sep := range []string{" so ", " — ", " – ", " - ", ", not ", " when i ", " when we ", " because ", " since i ", " since we ", " since the "} {
		if i := strings.Index(strings.ToLower(s), sep); i > 0 {
			s = s[:i] // "Thursday 29th January — her publicist double-booked her"
		}
	}
	if i := strings.Index(s, " and "); i > 0 && finiteVerb(firstField(s[i+5:])) {
		s = s[:i] // "January 24 at 10am and sent them the updated invite"
	}
	for i := 0; ; {
		j := strings.Index(s[i:], ", ")
		if j < 0 {
			return s
		}
		at := i + j
		for n, w := range strings.Fields(s[at+2:]) {
			bare := strings.TrimRight(w, ",;:.!?")
			if finiteVerb(bare) || n == 0 && (participle(bare) || relatives[strings.ToLower(bare)]) || comparatives[strings.ToLower(bare)] {
				return s[:at]
			}
			if n == 2 || bare != w {
				break
			}
		}
		i = at + 2
	}
}

// participle reports a verb in -ing that opens a clause of its own after
// a comma ("Jan 29, pushing the promo emails back a week"), not a noun in
// -ing ("Friday 3pm, meeting room 2").
func participle(w string) bool {
	return len(w) >= 6 && strings.HasSuffix(w, "ing") && w == strings.ToLower(w) && !ingNouns[w]
}

// reNotDay is "not" and the month or the day of the month a date
// replaces.
var reNotDay = regexp.MustCompile(`(?i)\s+not\s+(?:the\s+)?(?:` + monthStem + `[a-z]*|\d{1,2}(?:st|nd|rd|th))\b`)

// relatives open a clause about the value after its comma:
// "tacoTuesday88, which my roommate picked".
var relatives = setOf("which", "who", "whom", "whose")

// comparatives judge the value after its comma: "84 Lumber, way better
// pricing on LVLs".
var comparatives = setOf("better", "worse", "cheaper", "pricier", "faster", "slower", "closer", "nicer", "easier", "bigger", "smaller")

// ingNouns are nouns in -ing a value may go on with after a comma.
var ingNouns = setOf("morning", "evening", "building", "meeting", "parking", "wedding", "ceiling", "landing", "spring", "string",
	"nothing", "something", "anything", "everything", "sibling", "offering", "setting", "opening", "clothing", "housing",
	"seating", "catering", "training", "booking", "listing", "filling", "dressing", "serving", "pudding", "stuffing")

func firstField(s string) string {
	f, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return f
}

// finiteVerbs are verbs that open a statement of their own.
var finiteVerbs = setOf("is", "was", "were", "are", "has", "had", "kept", "keeps", "said", "says", "got", "gets", "went", "goes",
	"did", "does", "didn't", "doesn't", "wasn't", "isn't", "won't", "can't", "couldn't", "wouldn't", "will", "would", "can", "could",
	"should", "must", "made", "makes", "took", "takes", "gave", "gives", "came", "comes", "left", "told", "thinks", "thought",
	"wants", "wanted", "needs", "needed", "sent", "paid", "bought", "put", "found", "heard", "met")

// finiteVerb reports a finite verb: one of finiteVerbs, or a past tense
// in -ed ("signed", "cancelled"; not a name: "Alfred").
func finiteVerb(w string) bool {
	low := strings.ToLower(w)
	return finiteVerbs[low] || low == w && len(w) >= 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed")
}

// classify names the detection kind from the strongest cue: an authority of
// manager rank or above, then a correction word, then a temporal word (only
// for time-sensitive records), else implicit.
func classify(v *turnView, r Record, auth, authCue string, opts Options) (Kind, float64, string) {
	var words []string
	for _, c := range v.cues {
		words = append(words, c.text)
	}
	cue := strings.Join(dedupe(words), "; ")
	if authCue != "" && opts.Rank(auth) >= max(0, opts.Rank("manager")) {
		return KindAuthority, 0.85, strings.Trim(authCue+"; "+cue, "; ")
	}
	switch {
	case v.has(cueExplicit):
		return KindExplicit, 0.9, cue
	case v.has(cueTemporal) && timeSensitive(r):
		return KindTemporal, 0.85, cue
	case v.has(cueTemporal):
		return KindExplicit, 0.75, cue
	case v.has(cueDecision):
		return KindImplicit, 0.7, cue
	}
	return KindImplicit, 0.6, ""
}

// blocked reports whether the statement ranks below the record; unknown
// authorities never block.
func blocked(statement, record string, opts Options) bool {
	s, r := opts.Rank(statement), opts.Rank(record)
	return s >= 0 && r >= 0 && s < r
}

// timeSensitive reports whether r holds a price, date, time, amount or status,
// the values that "as of today" or "now" update.
func timeSensitive(r Record) bool {
	for _, v := range extractValues(r.Value) {
		if v.typ != tName && v.typ != tNumber {
			return true
		}
	}
	k := keyTerms(r.Key)
	for _, w := range []string{"price", "cost", "rate", "deadline", "due", "date", "status", "schedul", "time", "eta", "launch", "expir", "budget", "fee"} {
		if k[w] {
			return true
		}
	}
	return false
}

// matchTurns finds superseded turns when no fact is: an earlier turn that
// gave a different value of the same type, or a different choice, linked by
// shared words or by being the latest such turn.
func matchTurns(v *turnView, known []Record, auth, authCue string, opts Options) []Detection {
	strongCue := v.has(cueExplicit) || v.has(cueTemporal)
	if !strongCue && !v.has(cueDecision) && !v.copular {
		return nil
	}
	var out []Detection
	latest := true
	for i := len(known) - 1; i >= 0; i-- {
		r := known[i]
		if r.Kind != RecordTurn {
			continue
		}
		past := pastView(r.Value)
		if past == nil {
			continue
		}
		shared := overlap(past.terms, v.terms)
		var typed *value
		var prev string
		for j, tv := range v.values {
			if tv.old || !tv.typ.strong() {
				continue
			}
			for _, pv := range past.values {
				if pv.typ == tv.typ && pv.norm != tv.norm && !hasNorm(past.values, tv.norm) {
					typed, prev = &v.values[j], pv.text
					break
				}
			}
			if typed != nil {
				break
			}
		}
		var choice *value
		for j, ch := range v.choices {
			for _, pc := range past.choices {
				if pc.norm != ch.norm && !containsFold(pc.text, ch.text) && !containsFold(ch.text, pc.text) {
					choice, prev = &v.choices[j], pc.text
				}
			}
		}
		ok := false
		switch {
		case strongCue:
			// A change word reaches back to the latest turn that set a value,
			// or to any turn sharing words with it and a rival value.
			ok = (typed != nil || choice != nil) && (latest || shared > 0)
		case v.has(cueDecision):
			ok = (typed != nil || choice != nil) && shared > 0
		default:
			ok = typed != nil && shared >= 2
		}
		if typed != nil || choice != nil {
			latest = false
		}
		if !ok || prev == "" {
			continue
		}
		d := Detection{Superseded: []Ref{{r.ID, r.Kind}}, Previous: prev, Authority: auth}
		d.Replacement = replacement(v, typed, choice)
		d.Kind, d.Confidence, d.Cue = classify(v, r, auth, authCue, opts)
		if d.Cue == "" {
			d.Cue = d.Replacement
		}
		d.Confidence -= 0.1 // a turn is weaker evidence than a fact
		d.Blocked = blocked(auth, r.Authority, opts)
		out = append(out, d)
	}
	return mergeTurnDetections(out)
}

// recordValues extracts the values of a stored value, which is not a
// sentence: its first word may be a name ("Denver"), memoized; the slice
// is shared: callers never write into it.
func recordValues(val string) []value { return recordValuesMemo.Get(val) }

// scanRecordValues is recordValues, computed.
func scanRecordValues(val string) []value {
	const pad = "· "
	vs := extractValues(pad + val)
	for i := range vs {
		vs[i].start -= len(pad)
		vs[i].end -= len(pad)
	}
	return vs
}

// mergeTurnDetections joins detections that replace with the same value.
func mergeTurnDetections(ds []Detection) []Detection {
	var out []Detection
	for _, d := range ds {
		merged := false
		for i := range out {
			if out[i].Replacement == d.Replacement && out[i].Kind == d.Kind && out[i].Blocked == d.Blocked {
				out[i].Superseded = append(out[i].Superseded, d.Superseded...)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, d)
		}
	}
	return out
}

// recency rates how late the words of val were discussed in the latest
// turns: the position, counted over the latest turns' text, of the end of
// the last sentence sharing at least half of val's words (at least two).
// 0 means not recently; larger is later.
func recency(val string, sentences []map[string]bool) int {
	want := terms(val)
	need := max(2, (len(want)+1)/2)
	if len(want) < 2 {
		return 0
	}
	best := 0
	for i, s := range sentences {
		if overlap(want, s) >= need {
			best = i + 1
		}
	}
	return best
}

// recentSentenceTerms returns the words of each sentence of the latest
// turns, oldest first.
func recentSentenceTerms(known []Record) []map[string]bool {
	var recent []Record
	for i := len(known) - 1; i >= 0 && len(recent) < recentTurns; i-- {
		if known[i].Kind == RecordTurn {
			recent = append(recent, known[i])
		}
	}
	var out []map[string]bool
	for i := len(recent) - 1; i >= 0; i-- {
		for _, s := range splitSentences(recent[i].Value) {
			out = append(out, terms(s))
		}
	}
	return out
}

// restatesType reports whether tvals repeat (in a new position) one of
// rvals' values of type t.
func restatesType(rvals, tvals []value, t valueType) bool {
	for _, tv := range tvals {
		if tv.typ == t && !tv.old && hasNorm(rvals, tv.norm) {
			return true
		}
	}
	return false
}

// mentionedRecently reports whether val occurs in one of the latest turns
// (recentTexts).
func mentionedRecently(val string, recentTexts []folded) bool {
	for _, t := range recentTexts {
		if t.contains(val) {
			return true
		}
	}
	return false
}

// recentTurnTexts are the texts of the latest turns, latest first, as
// mentionedRecently reads them.
func recentTurnTexts(known []Record) []folded {
	var out []folded
	for i := len(known) - 1; i >= 0 && len(out) < recentTurns; i-- {
		if known[i].Kind == RecordTurn {
			out = append(out, foldText(known[i].Value))
		}
	}
	return out
}

func overlap(a, b map[string]bool) int {
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return n
}

// keys lists the words of a found in b, sorted.
func keys(a, b map[string]bool) []string {
	var out []string
	for t := range a {
		if b[t] {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

func hasType(vs []value, t valueType) bool {
	for _, v := range vs {
		if v.typ == t {
			return true
		}
	}
	return false
}

func hasNorm(vs []value, norm string) bool {
	for _, v := range vs {
		if v.norm == norm {
			return true
		}
	}
	return false
}

// coveredBy reports whether every strong value of rvals appears, in a new
// position, among tvals, and tvals offers no rival of those types.
func coveredBy(rvals, tvals []value) bool {
	n := 0
	for _, rv := range rvals {
		if !rv.typ.strong() || rv.typ == tName {
			continue
		}
		n++
		found := false
		for _, tv := range tvals {
			if tv.typ == rv.typ && !tv.old {
				if tv.norm != rv.norm {
					return false
				}
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return n > 0
}

func dedupe(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// containsFold reports whether phrase occurs in text, case-insensitively, on
// word boundaries where the phrase begins or ends with a word character.
func containsFold(text, phrase string) bool { return indexFold(text, phrase) >= 0 }

// indexFold is the byte offset of the first such occurrence in the lowered
// text, or -1.
func indexFold(text, phrase string) int { return foldText(text).index(phrase) }

// folded is a text with its lowered form, for the texts a turn is
// searched in once per known record: lowered once, not at every search.
type folded struct{ text, low string }

func foldText(text string) folded { return folded{text: text, low: strings.ToLower(text)} }

func (f folded) contains(phrase string) bool { return f.index(phrase) >= 0 }

// index is indexFold(f.text, phrase).
func (f folded) index(phrase string) int {
	phrase = strings.TrimSpace(phrase)
	if phrase == "" {
		return -1
	}
	if len(phrase) <= 32 && isASCII(phrase) {
		// Lowered on the stack, as strings.ToLower lowers ASCII: index
		// runs for every record on every turn, and most values are short.
		var b [32]byte
		for i := range len(phrase) {
			b[i] = lowerByte(phrase[i])
		}
		return f.indexLowered(string(b[:len(phrase)]))
	}
	return f.indexLowered(strings.ToLower(phrase))
}

// indexLowered is index of p, a lowered phrase.
func (f folded) indexLowered(p string) int {
	t := f.low
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	for from := 0; from <= len(t)-len(p); {
		i := strings.Index(t[from:], p)
		if i < 0 {
			return -1
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(t[:i])
		after, _ := utf8.DecodeRuneInString(t[i+len(p):])
		if (!isWordRune(first) || i == 0 || !isWordRune(before)) &&
			(!isWordRune(last) || i+len(p) == len(t) || !isWordRune(after)) {
			if len(t) == len(f.text) {
				return i
			}
			return 0 // lowering changed lengths; offsets are approximate
		}
		_, size := utf8.DecodeRuneInString(t[i:])
		from = i + size
	}
	return -1
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
