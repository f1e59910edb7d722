package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stategraph/stategraph/lexical"
)

var (
	// reLeadPunct is an opening word that must be followed by punctuation
	// ("No, …", "Wait — …"); group 1 marks a correction.
	reLeadPunct = regexp.MustCompile(`(?i)^(?:(actually|correction|sorry|no wait|wait no|oh wait|hold on|no no|wait|oops|no|nope|scratch that|i misspoke|my mistake|my bad|to correct myself|i was wrong|that was wrong|let me correct (?:that|myself)|i meant|i mean|quick correction|small correction|one correction|erratum|(?:oops\s+)?i (?:told you|had (?:it|that|this)|got (?:it|that|this)) wrong)|update|quick update|small update|status update|fyi|heads up|heads-up|btw|by the way|so|ok|okay|well|right|yes|yeah|yep|good news|bad news|news|anyway|oh|just so you know|for the record|note|ps|p\.s|great|alright|all right|as of today|starting today|from now on|as of now|change of plans?|plan change|small change|one change|confirmed|final answer|decision|noted|got it|understood|perfect|cool|sure|thanks|thank you|ah|hey|hi|hello|also|okay so|ok so)\s*[,:;!.—–-]+\s*`)
	// reLeadWord is an opening word that may be followed by a space only.
	reLeadWord     = regexp.MustCompile(`(?i)^(?:(actually|correction)|(?:it\s+)?turns out(?:\s+that)?|(?:just\s+)?(?:a\s+)?heads[- ]up(?:\s+that)?|(?:(?:please|kindly)\s+)?note(?:\s+that)?|(?:please\s+)?be advised(?:\s+that)?|(?:as a\s+)?reminder(?:\s+that)?|remember(?:\s+that)?|for context|to recap|long story short|in short|just so you know(?:\s+that)?|so far|going forward|so|also|and|but|now|then|finally|officially|update|today|plus|anyway|oh and|ok so|okay so|good news|fyi|btw|(?:i can |i['’]m |i am |just )?confirm(?:ing|ed)?(?:\s+that)?|(?:i\s+)?(?:just\s+)?(?:wanted|want) to (?:let you know|say|confirm|flag)(?:\s+that)?|(?:just\s+)?letting you know(?:\s+that)?)\s+`)
	midCorrections = []string{"actually", "correction", "i meant", "i mean ", "i misspoke", "my mistake", "scratch that", "to correct", "correcting"}
	// reHadWrong is the speaker owning a wrong value: "had the CFO's cell
	// wrong", "I had Maya's birthday wrong".
	reHadWrong = regexp.MustCompile(`\b(?:had|got|wrote|typed|put)\s+(?:down\s+)?(?:the|my|your|his|her|their|it|that|this|[\p{L}-]+['’]s)\s+(?:[\p{L}'’#-]+\s+){0,3}?(?:down\s+)?wrong\b`)

	// A correction that names the old value: ", not 60", "(not 60)",
	// "not Porto but Lisbon".
	reCommaNot = regexp.MustCompile(`(?i)(?:,|\s[—–-])\s*(?:and\s+|but\s+)?not\s+(?:[^,;!?()]|,\d)*`)
	reParenNot = regexp.MustCompile(`(?i)\s*\(\s*not\s+[^)]*\)`)
	reNotBut   = regexp.MustCompile(`(?i)\bnot\s+[^,;.!?]{1,40}?,?\s+but\s+(?:rather\s+|instead\s+)?`)
	reInstead  = regexp.MustCompile(`(?i),?\s*\b(?:instead of|rather than)\s+(?:[^,;!?]|,\d)*`)

	// A relayed claim: "Per the CEO, …", "The COO says (that) …".
	reRelayPer = regexp.MustCompile(`(?i)^(?:per|according to)\s+([^,]{1,40}),\s*`)
	reRelaySay = regexp.MustCompile(`(?i)^((?:the\s+)?[\p{L}'’.-]+(?:\s+[\p{L}'’.-]+){0,3}?)\s+(?:says|said|confirmed|confirms|told me|told us|announced|wrote|informed us)(?:\s+that)?[,:]?\s+`)

	reScratchEarlier = regexp.MustCompile(`(?i)^(?:please\s+)?(?:scratch|forget|ignore|disregard|drop|strike)\s+(?:the|my|our)\s+(?:earlier|previous|old|last|original|first|initial)\s+(?:number|figure|value|count|amount|date|estimate|one|answer|total)\s+(?:for|on|of)\s+([^—–;:,]+?)\s*(?:[—–;:,]|\s-)\s*(?:(?:we're|we are|it's|it is|that's|make it|it should be|the right (?:number|figure|value) is)\s+)?(?:(?:now|at)\s+)*(\S.*?)(?:\s+now)?[.!]*$`)
	reDecisionOn     = regexp.MustCompile(`(?i)^(?:(?:the|our|my)\s+)?(?:final answer|final decision|final call|decision|verdict|pick|choice|call)\s+(?:on|for|about|re|regarding)\s+([^:;—–]{1,80}?)\s*[:—–]\s*([^:;]{1,60}?)[.!]*$`)
	reChangeTopic    = regexp.MustCompile(`(?i)^(?:a\s+|one\s+|quick\s+|small\s+)?(?:change|update|changes|news)\s+(?:to|on|for|about|re|regarding)\s+([^:;]{1,60}?)\s*:\s*`)
	reAttrLabel      = regexp.MustCompile(`^((?:the\s+|our\s+|my\s+|new\s+|updated\s+)*[\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*)?\s+(?:for|of)\s+[^:;]{1,50}?)\s*:\s+`)
	reElliptic       = regexp.MustCompile(`(?i)^(?:(make (?:that|it)|it should be|correction)\s+|(?:it|that)(?:['’]s| is| will be| has been)\s+(?:now\s+)?|(?:now|it['’]s now)\s+)(.+?)(?:\s+now)?[.!]*$`)
	reAddedTotal     = regexp.MustCompile(`(?i)\b(?:added|bought|ordered|hired|got|booked|sold|removed|cut|lost|dropped|returned|onboarded|signed up|confirmed)\s+(?:another\s+)?(\d[\d,]*|` + numWords + `)\s+(?:more\s+|extra\s+|new\s+|additional\s+|fewer\s+)?([\p{L}-]+)[^.;!?]*?(?:(?:bringing|taking|making|putting)\s+(?:the|our|us|it|them)?\s*(?:total|count|number|headcount|tally)?\s*(?:up\s+|down\s+)?to\s+(\d[\d,]*)|,?\s*(?:so|for|that's|that is|which makes|making)\s+(?:a\s+total\s+of\s+)?(\d[\d,]*)\s+(?:in total|total|altogether|overall|all told)|for\s+a\s+total\s+of\s+(\d[\d,]*))`)
	reItIs           = regexp.MustCompile(`(?i)^it(?:['’]s| is| has been|['’]s been| was just)\s+(.+)$`)
	reEventSubject   = regexp.MustCompile(`(?i)^((?:(?:the|my|our)\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:has\s+|have\s+|just\s+|finally\s+)*(?:arrived|landed|came|shipped|got here|turned up|showed up|was delivered|went out)\b`)
	reIsContracted   = regexp.MustCompile(`([\p{L}])['’]s ((?:a|an|at|in|on|due|now|still|back|moving|going|getting|running|handling|taking|leading|doing|owning|covering|scheduled|set|booked|confirmed|planned|pencilled|penciled|locked|officially|finally|definitely|up to|down to)\s)`)
	// reIsDoing is "'s" before a verb of doing and its object, which a
	// noun ("Dad's driving record") would not take: "Megan's driving
	// dad down", "Rick's mowing the lawn".
	reIsDoing    = regexp.MustCompile(`([\p{L}])['’]s ((?:driving|picking|watching|coaching|hosting|teaching|bringing|walking|managing|cooking|mowing|helping|feeding|cleaning|collecting)\s+(?:the|a|an|my|our|his|her|their|your|dad|mom|mum|grandma|grandpa|it|them|him|us|me|up|over)\s)`)
	reHasBeen    = regexp.MustCompile(`([\p{L}])['’]s been ((?:trimmed|cut|moved|pushed|changed|raised|reduced|set|bumped|increased|lowered|rescheduled|postponed|updated|slashed|capped|extended|delayed|shifted|dropped|switched|reassigned|handed)\s)`)
	reSwitching  = regexp.MustCompile(`(?i)^(?:switching|switched|changing|changed|new)\s+([\p{L}]+?)\s*[—–:,-]+\s*(?:it['’]s|it is|now it['’]s|we['’]re with|i['’]m with|i['’]m seeing|i see)\s+(?:now\s+)?([\p{Lu}\d].*?)(?:\s+now)?[.!]*$`)
	reMeantCount = regexp.MustCompile(`(?i)^i\s+meant\s+(\d[\d,.]*\s+[\p{L}-]+)[.!]*$`)
	rePassedOn   = regexp.MustCompile(`(?i)^(?:[\p{L}.'’-]+\s+){1,3}(?:has\s+|have\s+)?asked\s+me\s+to\s+(?:let\s+you(?:\s+all)?\s+know|tell\s+you(?:\s+all)?|pass\s+(?:on|along))(?:\s+that)?,?\s+`)
	reAgreed     = regexp.MustCompile(`(?i)^(?:we|i|they|the team|everyone|we all|all of us)\s+(?:have\s+|just\s+|all\s+|finally\s+|now\s+)*(?:agreed|decided|confirmed|settled|established|concluded)(?:\s+that)?,?\s+`)

	reTopic = regexp.MustCompile(`(?i)^(?:for|re|regarding|about|as for|concerning|as to|on the topic of)\s+([^,:]{1,40}?)\s*[,:—–]\s*`)
	reLabel = regexp.MustCompile(`^([\p{L}][\p{L} '’-]{1,30}):\s+`)

	firstPersonStarts = phrases("i|we|i'm|we're|i've|we've|i'll|we'll|i am|we are|let's|lets")
)

// clauseStarters may open a clause after a bare " and ".
var clauseStarters = map[string]bool{
	"the": true, "my": true, "our": true, "we": true, "i": true, "i'm": true,
	"we're": true, "i've": true, "we've": true, "it": true, "its": true,
	"i'll": true, "we'll": true, "let's": true, "there": true,
	// A new subject who is not the speaker: "… and sent the update so
	// nobody shows up early", "… and they confirmed".
	"they": true, "you": true, "he": true, "she": true, "nobody": true, "everyone": true, "everybody": true, "someone": true,
}

// roles may be cited in lower case ("the ceo says …").
var roles = map[string]bool{
	"ceo": true, "coo": true, "cto": true, "cfo": true, "boss": true, "manager": true,
	"team": true, "lead": true, "client": true, "customer": true, "landlord": true,
	"doctor": true, "vendor": true, "hr": true, "finance": true, "legal": true,
	"support": true, "board": true, "director": true, "founder": true, "owner": true,
	"chair": true, "president": true, "vp": true, "head": true, "of": true, "airline": true,
	"hotel": true, "venue": true, "school": true, "bank": true, "organizer": true, "organiser": true,
}

// citable reports a phrase that can name whom a claim is relayed from: a
// name or a role, with an optional "the", "my" or "our".
func citable(s string) bool {
	ws := strings.Fields(s)
	for i, w := range ws {
		lw := fold(w)
		if i == 0 && (lw == "the" || lw == "my" || lw == "our") {
			continue
		}
		if personal[lw] || !(roles[lw] || unicode.IsUpper([]rune(w)[0])) {
			return false
		}
	}
	return len(ws) > 0
}

// reBoldLabel is a leading emphasised label: "**Summary:** …".
var reBoldLabel = regexp.MustCompile(`^(?:\*\*|__)[^*_]{1,40}(?:\*\*|__)\s*:?\s*`)

// reLeadTime is an opening time phrase set off by a comma: "From Monday,",
// "Starting next week,".
var reLeadTime = regexp.MustCompile(`(?i)^(?:(?:from|starting|beginning|as of|effective|since|after|from now on|going forward|this|next)(?:\s+[^,\s]+){0,3},\s+|(?:from now on|going forward|as of (?:today|now|this (?:week|month))|starting (?:today|now|tomorrow|this week|next week))\s+)`)

// reAside is an aside between dashes: "the offsite — finally — is …".
var reAside = regexp.MustCompile(`\s[—–]\s[^—–]{1,30}\s[—–]\s`)

// namesAttribute reports whether a label names an attribute of
// something ("New address", "Contact for the landlord", "Budget"), whose
// value may follow it alone.
func namesAttribute(label string) bool {
	low := fold(label)
	if i := strings.Index(low, " for "); i > 0 {
		low = low[:i]
	} else if i := strings.Index(low, " of "); i > 0 {
		low = low[:i]
	}
	ws := strings.Fields(low)
	if len(ws) == 0 {
		return false
	}
	w := ws[len(ws)-1]
	_, syn := attributeSynonyms[w]
	return syn || choiceHeads[w] || placeAttrs[w] || dateAttrs[w] || moneyAttrs[w] || countAttrs[w]
}

// newLabel reports whether s opens with a label announcing a new value
// ("New address:", "Final number on the venue hire:").
func newLabel(s string) bool {
	return strings.Contains(s, ":") && reNewLabel.MatchString(fold(s))
}

// reNewLabel opens the labels the label-new-value and label-new-own rules
// read.
var reNewLabel = regexp.MustCompile(`^(?:(?:my|our)\s+)?(?:new|final|revised|updated|latest|changed)\s+(?:figure|number|count|total|value|price|date|estimate|amount|cost|quote|time|deadline|address|home|contact|owner|pick|choice|phone|mobile|e-?mail)\b`)

// ownLabel is a label naming a bare contact attribute as the speaker's:
// "Address: …" is "my address"; "Venue address: …" stays the venue's.
func ownLabel(label string) string {
	ws := strings.Fields(fold(label))
	for len(ws) > 0 && (ws[0] == "new" || ws[0] == "updated" || ws[0] == "current" || ws[0] == "latest") {
		ws = ws[1:]
	}
	if len(ws) == 1 || len(ws) == 2 && (ws[0] == "home" || ws[0] == "email" || ws[0] == "phone" || ws[0] == "mobile" || ws[0] == "postal" || ws[0] == "mailing") {
		switch attributeSynonyms[strings.Join(ws, "_")] {
		case "address", "email", "phone", "contact":
			return "my " + label
		}
	}
	return label
}

// verbless reports whether s is a value alone, no clause: short, and no
// verb a statement would need.
func verbless(s string) bool {
	low := " " + fold(s) + " "
	if len(strings.Fields(low)) > 8 {
		return false
	}
	for _, w := range strings.Fields(low) {
		if personal[strings.Trim(w, ",.;!")] {
			return false // "we're going with Acme": a clause
		}
	}
	for _, v := range []string{" is ", " are ", " was ", " were ", "'s ", "’s ", " be ", " has ", " have ", " will ", " moved ", " changed ", " goes ", " went "} {
		if strings.Contains(low, v) {
			return false
		}
	}
	return true
}

// nameOpens reports whether s opens like a name or a number: a capital or
// a digit ("Dr. Patel", "3 Elm Row"), not "a long story".
func nameOpens(s string) bool {
	r := []rune(s)
	return len(r) > 0 && (isUpperRune(r[0]) || unicode.IsDigit(r[0]))
}

// agreedStops open what follows an agreement verb when it is no
// statement of its own ("we decided on X", "we agreed to wait").
var agreedStops = map[string]bool{"on": true, "to": true, "upon": true, "with": true, "against": true, "not": true, "in": true, "about": true, "": true}

// relayVerbs occur in every reRelaySay match.
var relayVerbs = []string{" says", " said", "confirm", " told ", "announced", " wrote", "informed"}

// topicWords open a topic prefix (see reTopic).
var topicWords = map[string]bool{"for": true, "re": true, "regarding": true, "about": true, "as": true, "concerning": true, "on": true}

// leadWords are the first words of reLeadPunct and reLeadWord phrases.
var leadWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("going turns it heads heads-up a reminder remember note long in actually correction sorry wait oops no nope scratch let quick small one erratum update status fyi heads heads-up btw by so ok okay well right yes yeah yep good bad news anyway oh just for note ps p.s great alright all as starting from change plan confirmed final decision noted got understood perfect cool sure thanks thank ah hey hi hello also and but now then finally officially today plus") {
		leadWords[w] = true
	}
}

// leadPhrases are lead phrases whose first word is too common for
// leadWords.
var leadPhrases = []string{"please note", "kindly note", "please be advised", "be advised", "i told you wrong", "i had it wrong", "i had that wrong", "i got it wrong", "i got that wrong", "oops i ", "i misspoke", "i meant", "i mean", "i was wrong", "my mistake", "my bad", "to correct", "that was wrong", "just so you know", "for the record", "as of ", "from now on", "all right", "one change", "one correction", "small change", "good news", "bad news", "starting today", "i can confirm", "i'm confirming", "i am confirming", "just confirming", "confirming", "i wanted to", "i want to let", "i just wanted", "just letting you", "letting you know"}

func hasPrefixAny(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Uncontracted writes out the "'s" the rules read as a verb: "Budget's
// been trimmed to $30k" has been, "Standup's at 9:45" and "Omar's
// running support" are. The clauses a turn's reading skips are said so.
func Uncontracted(s string) string {
	s = reHasBeen.ReplaceAllString(s, "$1 has been $2")
	s = reIsDoing.ReplaceAllString(s, "$1 is $2")
	return reIsContracted.ReplaceAllString(s, "$1 is $2")
}

// stripLead removes opening fillers and reports a correction marker.
func stripLead(s string) (string, bool) {
	corr := false
	head := s
	if len(head) > 24 {
		head = head[:24]
	}
	head = lexical.LowerASCII(head)
	if !leadWords[strings.TrimRight(firstWord(head), ",:;!.—–-")] && !hasPrefixAny(head, leadPhrases) {
		return strings.TrimSpace(s), false
	}
	for i := 0; i < 6; i++ {
		if m := reLeadPunct.FindStringSubmatchIndex(s); m != nil {
			corr = corr || m[2] >= 0
			s = s[m[1]:]
			continue
		}
		if m := reLeadWord.FindStringSubmatchIndex(s); m != nil && !imperativeUpdate(s) {
			corr = corr || m[2] >= 0
			s = s[m[1]:]
			continue
		}
		break
	}
	return strings.TrimSpace(s), corr
}

// imperativeUpdate reports whether s opens with "update" as a verb that
// sets a value ("Update the contact for the venue coordinator to …"),
// not as a label ("Update the launch is Friday" reads as "Update: …").
func imperativeUpdate(s string) bool {
	return len(s) > 7 && strings.EqualFold(s[:7], "update ") && reSetsValue.MatchString(fold(s))
}

// stripOldValue removes a quoted old value (", not 60") and reports it.
func stripOldValue(s string) (string, bool) {
	corr := false
	low := fold(s)
	if !strings.Contains(low, "not") && !strings.Contains(low, "instead of") && !strings.Contains(low, "rather than") {
		return s, false
	}
	if loc := reNotBut.FindStringIndex(s); loc != nil {
		s = s[:loc[0]] + s[loc[1]:]
		corr = true
	}
	if loc := reParenNot.FindStringIndex(s); loc != nil {
		s = s[:loc[0]] + s[loc[1]:]
		corr = true
	}
	if loc := reCommaNot.FindStringIndex(s); loc != nil {
		s = s[:loc[0]] + s[loc[1]:]
		corr = true
	}
	if loc := reInstead.FindStringIndex(s); loc != nil {
		s = s[:loc[0]] + s[insteadEnd(s, loc):]
	}
	if loc := reNowNot.FindStringIndex(s); loc != nil {
		// "we're at the hyatt regency downtown now not the marriott"
		s = s[:loc[0]] + "now" + s[loc[1]:]
		corr = true
	}
	if m := reNotItIs.FindStringSubmatchIndex(s); m != nil {
		// "the birthday of my sister is not March 3, it is March 13":
		// the thing, then the value it is.
		s = s[:m[3]] + " " + s[m[1]:]
		corr = true
	}
	if loc := reDateNot.FindStringSubmatchIndex(s); loc != nil {
		// "it's 30 September 2026 not June": the date, then the month
		// or the day it is not.
		s = s[:loc[3]] + s[loc[1]:]
		corr = true
	}
	if m := reBareNot.FindStringSubmatchIndex(s); m != nil && sameTokenKind(s[m[2]:m[3]], s[m[4]:m[5]]) {
		// "I'm TAing 340 not 101", "the paper goes to UIST not CSCW":
		// the value, then the one it is not.
		s = s[:m[3]] + s[m[5]:]
		corr = true
	}
	return s, corr
}

// reBareNot is a value, then "not" and the value it replaces, without a
// comma: "120 req/s not 100", "28 degrees not 34", "UIST not CSCW", "June 16 not the 14th",
// "hive2026! not hive2024!", "a 4070 Ti not a 3080".
var reBareNot = regexp.MustCompile(`(\d[\w/.%$,-]*(?:\s+\p{Lu}[\p{L}\d]*)?|\p{Lu}[\p{L}\d.&+-]*|\p{Ll}+\d[\w!#$%&*.-]*)\s+(?:[a-z]+/[a-z]+\s+|(?:degrees?|percent|pounds?|lbs|kgs?|miles?|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?|dollars?|bucks|people|guests|seats|copies|units?|feet|ft|inches|gallons?|liters?|litres?)\s+)?not\s+(?:the\s+|an?\s+)?([$€£]?\d[\w/.%$-]*|\p{Lu}[\p{L}\d.&+-]*|\p{Ll}+\d[\w!#$%&*.-]*)`)

// reDateNot is a date with its month, then "not" and the month or the
// day it replaces: "30 September 2026 not June", "June 21 not the 12th".
var reDateNot = regexp.MustCompile(`(?i)(\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:` + monthNames + `)(?:\s+\d{4})?|\b(?:` + monthNames + `)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)\s+not\s+(?:the\s+|in\s+)?(?:(?:` + monthNames + `)\b(?:\s+\d{1,2}(?:st|nd|rd|th)?\b)?|\d{1,2}(?:st|nd|rd|th)\b)`)

// reNowNot closes a sentence on the value it leaves, after "now": "… now
// not the marriott", "… now, not Tuesdays".
var reNowNot = regexp.MustCompile(`(?i)\bnow,?\s+not\s+(?:the\s+|my\s+|our\s+|on\s+|at\s+|in\s+)?[^,;.!?]{1,30}[.!]?$`)

// reNotItIs denies a value, then says the one it is: "is not March 3, it
// is March 13", "isn't Tuesday, it's Wednesday".
var reNotItIs = regexp.MustCompile(`(?i)\b(is|are|was|were)(?:\s+not|n['’]t)\s+[^,;]{1,40},\s+(?:it|that|she|he|they)(?:['’]s|\s+is|\s+are|\s+was|\s+were)\s+`)

// sameTokenKind reports two values of one kind: both with digits, or
// both names (a capital, no digit).
func sameTokenKind(a, b string) bool {
	da, db := strings.ContainsAny(a, "0123456789"), strings.ContainsAny(b, "0123456789")
	return da && db || !da && !db && a != "I" && b != "I"
}

// insteadEnd is where a dropped "instead of X" ends. Opening a sentence,
// it runs to the comma or the subject that follows ("Instead of Zoom we'll
// use Teams"); inside one, it stops before what the choice is for ("Teams
// instead of Zoom for the all-hands").
func insteadEnd(s string, loc []int) int {
	if strings.TrimSpace(s[:loc[0]]) == "" {
		if i := strings.IndexByte(s[loc[0]:], ','); i >= 0 {
			return loc[0] + i + 1
		}
		low := lexical.LowerASCII(s)
		for _, subj := range []string{" we ", " we'", " we’", " i ", " i'", " i’", " let's ", " let’s ", " they ", " you "} {
			if i := strings.Index(low[loc[0]:loc[1]], subj); i >= 0 {
				return loc[0] + i + 1
			}
		}
		return loc[1]
	}
	low := lexical.LowerASCII(s[loc[0]:loc[1]])
	for _, sep := range []string{" for ", " as "} {
		if i := strings.Index(low, sep); i >= 0 {
			return loc[0] + i
		}
	}
	return loc[1]
}

// reElidedI opens a clause on the speaker's own past change without its
// "I": "Switched the card reader over to Square", "Moved the key safe
// round to the side gate".
var reElidedI = regexp.MustCompile(`(?i)^(?:just\s+|finally\s+|also\s+)?(?:switched|swapped|moved|changed|rescheduled|pushed|bumped|rebooked|updated|raised|lowered|reset|transferred|migrated|upgraded)\s`)

// clauseSeps cut a sentence into clauses; a bare " and " cuts only when a
// new subject follows (see clauseStarters). ", now" opens the state a
// change left: "the owner raised the rent, now I pay $1,320".
var clauseSeps = []string{"; ", " — ", " – ", ", but ", " but ", ", and ", ", so ", ", while ", ", whereas ", ", plus ", " and ", " so ", ", now ", ", "}

// reSpliceSubject opens a clause spliced on with a comma: a name and a
// verb of holding ("…, Tom Keller owns badge administration here now",
// "…, Northline Carpentry's got framing now") or of the holder's leaving
// ("…, Jenna's moving to Denver"), or a remark on someone just named
// ("…, she's already been out once for the sick heifer", "…, he sorted
// the boiler", "…, his cell is 555-0188").
var reSpliceSubject = regexp.MustCompile(`^(?:\p{Lu}[\p{L}'’-]*\s+){0,2}\p{Lu}[\p{L}-]+(?:['’]s\s+got|['’]s\s+(?:now\s+)?(?:doing|handling|running|taking|covering|our|my|the|moving|leaving|retiring|off|out|gone|done)|\s+(?:is\s+)?(?:moving|leaving|retiring|moved|left|retired|quit|transferred)|\s+(?:now\s+)?(?:owns|handles|runs|leads|manages|has taken over|took over|takes over|is taking over|is now|is our|is my|is the|is doing|is handling|is running|has got|has the))\b|^(?:she|he|they)(?:['’]s|['’]re|['’]ve|\s+has|\s+have|\s+is|\s+are|\s+was|\s+were)\s+(?:already|been|always|never|just|done)\b|^(?:she|he|they)\s+(?:[a-z]+ed|did|got|went|came|took|said|told|had|was|were)\b|^(?:his|her|their|my|our)\s+(?:[a-z]+\s+){1,2}(?:is|are|was|['’]s)\b`)

// reImperativeAside opens a clause spliced on with a comma that tells the
// listener what to do ("…, it's 8823 now, don't write it on the
// whiteboard"): it is a clause of its own, not a denial of the rest.
var reImperativeAside = regexp.MustCompile(`^(?i:(?:please\s+)?(?:don['’]t|do not|never)|please)\s+(?i:write|share|use|give|tell|post|send|put|forget|call|text|email|lose|leave|dial|hand)\b`)

// splitClauses cuts a sentence at ";", dashes, "but", ", and", ", so",
// ", now" and a bare "and" that opens a new subject, then sets apart the
// asides between its commas (confineAsides).
func splitClauses(s string) []string {
	low := lexical.LowerASCII(s)
	var out []string
	start := 0
	for i := 0; i < len(low); i++ {
		c := low[i]
		if c != ';' && c != ' ' && c != ',' {
			continue
		}
		for _, sep := range clauseSeps {
			if !strings.HasPrefix(low[i:], sep) {
				continue
			}
			end := i + len(sep)
			if sep == " and " && !clauseStarters[fold(firstWord(s[end:]))] {
				break
			}
			if sep == " so " && !soOpensClause(s[end:]) {
				break
			}
			if sep == ", " && !reSpliceSubject.MatchString(s[end:]) && !reImperativeAside.MatchString(s[end:]) {
				break
			}
			if i > start {
				out = append(out, s[start:i])
			}
			start = end
			i = end - 1
			break
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return confineAsides(splitAsides(out))
}

// splitAsides cuts from each clause the remark that follows a complete
// statement (asideAt): "Priya Shah is our case manager now, she already
// emailed me …" is two clauses.
func splitAsides(clauses []string) []string {
	var out []string
	for _, cl := range clauses {
		if i := asideAt(lexical.LowerASCII(cl)); i > 0 {
			out = append(out, cl[:i], cl[i:])
			continue
		}
		out = append(out, cl)
	}
	return out
}

// reAsideOpen opens a remark on a subject of its own after a statement
// that said when it holds: "…, she seems sweet", "… and apparently Leo
// let him help". Its verb comes within a few words.
var reAsideOpen = regexp.MustCompile(`(?:, (?:and |but )?| and )((?:apparently |supposedly |reportedly |honestly |actually )?(?:she|he|they|i|we|which|\p{L}+['’]s)\s+(?:[a-z]+\s+){0,2}(?:[a-z]+(?:ed|s)|found|got|went|saw|had|made|took|came|left|kept|knew|felt|paid|sent|met|ran|sat|bought|brought)\b|apparently\s+\p{L}+\s+[a-z]+(?:ed|s)\b)`)

// reReportVerb reports or judges what was said: "…, they say", "…, she
// thinks it's final" doubts the statement.
var reReportVerb = regexp.MustCompile(`\b(?:says?|said|heard|hears|told|tells|claims?|claimed|reckons?|thinks?|thought|believes?|believed|guess|supposed?|hope|hoping|assume|expect|imagine|bet|wish)\b`)

// reNowSaid is a statement's closing word of time: it holds now.
var reNowSaid = regexp.MustCompile(`\b(?:now|from now on|going forward|from here on|as of today|starting (?:today|tomorrow|monday|this week|next week)|effective (?:today|immediately))\s*$`)

// asideAt returns where a remark begins that follows a complete
// statement of the present, or -1: the statement ends on its time
// ("… is his speech therapist from now on"), and the remark has a subject
// and a verb of its own and doubts nothing of it ("she seems sweet", not
// "I think"). A report or a past in the remark ("apparently", "last
// year") is the remark's, not the statement's.
func asideAt(low string) int {
	for _, m := range reAsideOpen.FindAllStringSubmatchIndex(low, -1) {
		head, rest := low[:m[0]], low[m[2]:]
		remark := rest
		if j := strings.IndexAny(rest, ",.;!?"); j >= 0 {
			remark = rest[:j]
		}
		if !reNowSaid.MatchString(head) || reDoubt.MatchString(remark) || reReportVerb.MatchString(remark) || strings.Count(rest, " ") < 2 {
			continue
		}
		return m[2]
	}
	return -1
}

// confineAsides cuts from a clause the pieces between its commas that
// deny something, when the rest states without them: "My landlord has a
// new number since the weekend, is 555-0198, the old one does not work
// more", "pipeline review moves to wed 10am going fwd, vp cant do tues
// anymore", "we don't take Rosa's Kitchen anymore, we booked Casa Lima
// now". The denial says why, or what is gone; it is a clause of its own
// (refused), and the pieces around it one clause. A piece that says the
// matter is not settled ("nothing signed off yet", "not confirmed")
// leaves the clause whole: it governs the rest.
//
// So do two hedged pieces: an aside after the statement, on a subject of
// its own ("…, which is a massive upgrade, I might actually cry"), and a
// reason before it ("Since half the group has church or family brunch on
// Sundays, we're switching the long run to Saturdays"). A doubt about the
// statement itself ("…, I might be wrong", "…, or Friday") governs it.
// reToldNo is the speaker's refusal said as a reply: "told them no".
var reToldNo = regexp.MustCompile(`\b(?:told|tell)\s+(?:them|him|her|you|everyone|product|the team)\s+no\b|\b(?:said|say)\s+no\b`)

func confineAsides(clauses []string) []string {
	var out []string
	for _, cl := range clauses {
		low := fold(cl)
		r := clauseFilter(low)
		if !strings.Contains(cl, ", ") || r != ReasonNegated && r != ReasonHypothetical && !(r == ReasonOtherSubject && ownAfterOthers(cl)) || reUnsettled.MatchString(low) {
			out = append(out, cl)
			continue
		}
		pieces := strings.Split(cl, ", ")
		apart := make([]bool, len(pieces))
		n := 0
		whole := false
		for i, p := range pieces {
			pl := fold(p)
			switch clauseFilter(pl) {
			case ReasonNegated:
				apart[i] = true
				// "…, told them no, …" refuses what the sentence
				// says was proposed.
				whole = whole || deniesOwnAct(pl) || reToldNo.MatchString(pl)
			case ReasonOtherSubject:
				// "carnicería changed their route, we place the meat
				// order Mondays now": their change is the reason for
				// the speaker's own.
				apart[i] = r == ReasonOtherSubject
			case ReasonHypothetical:
				aside := i > 0 && reAsideSubject.MatchString(pl) && !reDoubt.MatchString(pl)
				reason := i == 0 && len(pieces) > 1 && reReasonLead.MatchString(pl) && reAsideSubject.MatchString(fold(pieces[1]))
				apart[i] = aside || reason
				whole = whole || !apart[i]
			}
			if apart[i] {
				n++
			}
		}
		if n == 0 || n == len(pieces) || whole {
			out = append(out, cl)
			continue
		}
		var rest []string
		at := -1 // where the rest goes: at its first piece
		for i, p := range pieces {
			switch {
			case apart[i]:
				out = append(out, p)
			case at < 0:
				at = len(out)
				out = append(out, "")
				fallthrough
			default:
				rest = append(rest, p)
			}
		}
		out[at] = strings.Join(rest, ", ")
	}
	return out
}

var (
	// reAsideSubject opens a piece on a subject of its own.
	reAsideSubject = regexp.MustCompile(`^(?:and\s+|but\s+|honestly,?\s+|so\s+)?(?:i|i'm|i've|i'd|we|we're|we've|it|it's|that|that's|which|this|they|they're|he|she|everyone|the kids|(?:so\s+|really\s+|very\s+|just\s+)?(?:grateful|thankful|glad|relieved|lucky))\b`)
	// reDoubt doubts what the clause states.
	reDoubt = regexp.MustCompile(`\b(?:or|if|unless|maybe|perhaps|wrong|sure|mistaken|remember|think|guess|check|confirm|depends|tentative|tentatively|yet|not final|might change|could change|may change)\b`)
	// reReasonLead opens a piece on the reason for what follows.
	reReasonLead = regexp.MustCompile(`^(?:since|because|as|now that|with|after|given that)\s`)
)

// reOwnPiece opens a piece on the speaker as its subject: "we place …",
// "I moved …".
var reOwnPiece = regexp.MustCompile(`^(?:and\s+|so\s+|now\s+)?(?:i|we)(?:['’](?:m|ve|ll|re))?\s`)

// ownAfterOthers reports a clause whose later piece, after a comma, has
// the speaker as its subject: what someone else did before it is apart
// from what the speaker does.
func ownAfterOthers(cl string) bool {
	pieces := strings.Split(cl, ", ")
	for _, p := range pieces[1:] {
		if reOwnPiece.MatchString(fold(p)) {
			return true
		}
	}
	return false
}

// deniesOwnAct reports a piece that denies the speaker's own act ("just
// can't bring myself to click confirm", "I haven't booked it"), which
// governs the rest of the clause; one that drops an old state ("we don't
// take Rosa's Kitchen anymore") does not.
func deniesOwnAct(low string) bool {
	if strings.Contains(low, "anymore") || strings.Contains(low, "any more") || strings.Contains(low, "no longer") {
		return false
	}
	switch firstWord(strings.TrimSpace(low)) {
	case "i", "we", "i'm", "we're", "i've", "we've", "i'll", "we'll", "i'd", "we'd", "just", "still", "not", "never", "no",
		"can't", "cant", "couldn't", "didn't", "didnt", "don't", "dont", "won't", "wont", "haven't", "havent", "hasn't":
		return true
	}
	return false
}

// reUnsettled says a matter is not settled yet.
var reUnsettled = regexp.MustCompile(`\b(?:not|n't|nothing(?:'s| is| has been)?|never)\s+(?:yet\s+|been\s+|really\s+)?(?:sure|decided|confirmed|approved|signed|final|finali[sz]ed|official|settled|agreed|set in stone|locked in|booked yet|voted on|voted)\b|\bnot yet\b|\btbd\b`)

// soOpensClause reports whether a bare "so" before rest joins a clause of
// its own ("I changed CODEOWNERS so Tomás is the default reviewer"): a
// subject follows, a clause starter or a capitalised name. "So" as an
// adverb ("so much", "so far", "so good") or "so that" does not cut.
func soOpensClause(rest string) bool {
	w := firstWord(rest)
	if clauseStarters[fold(w)] {
		return true
	}
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && w != "I" && !strings.HasPrefix(rest, w+",")
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " ,;.!?"); i >= 0 {
		return s[:i]
	}
	return s
}

// selfKeys returns the speaker as a value and as an entity.
func selfKeys(speaker string) (string, string) {
	speaker = strings.TrimSpace(speaker)
	if normName(speaker) == "" {
		speaker = ""
	}
	switch speaker {
	case "", "user":
		return "user", "user"
	case "assistant":
		return "assistant", "assistant"
	}
	return speaker, normName(speaker)
}

// sentence reads one sentence; item marks a list item.
func (a *analyzer) sentence(raw string, item bool) {
	low := fold(raw)
	idx := len(a.res.Sentences)
	a.res.Sentences = append(a.res.Sentences, Sentence{Index: idx, Text: raw})
	if r := a.sentenceFilter(raw, low); r != "" {
		a.skip(raw, r)
		a.res.Sentences[idx].Reason = r
		return
	}
	body := raw
	if m := reBoldLabel.FindStringIndex(body); m != nil {
		body = body[m[1]:]
	}
	body, corr := stripLead(body)
	if m := reLeadTime.FindStringIndex(body); m != nil {
		body = body[m[1]:]
	}
	if strings.Count(body, "—")+strings.Count(body, "–") >= 2 {
		body = reAside.ReplaceAllString(body, " ")
	}
	if containsAny(low, midCorrections) || reHadWrong.MatchString(low) {
		corr = true
	}
	body, corr2 := stripOldValue(body)
	corr = corr || corr2

	// A relayed claim keeps whom it cites; the claim itself is read on.
	cited := ""
	if fw := fold(firstWord(body)); fw != "per" && fw != "according" && !containsAny(low, relayVerbs) {
		// No relay frame.
	} else if m := reRelayPer.FindStringSubmatchIndex(body); m != nil {
		cited, body = body[m[2]:m[3]], body[m[1]:]
	} else if m := reRelaySay.FindStringSubmatchIndex(body); m != nil && citable(body[m[2]:m[3]]) {
		cited, body = body[m[2]:m[3]], body[m[1]:]
	}

	// "Scratch the earlier number for the seat count — we're at 360 now"
	// corrects the topic's value: read as "the seat count is 360".
	if m := reScratchEarlier.FindStringSubmatch(body); m != nil {
		body, corr = m[1]+" is "+m[2], true
	}

	body = Uncontracted(body)

	// "Switching dentists — it's Dr. Patel now": the speaker's new one.
	if m := reSwitching.FindStringSubmatch(body); m != nil && nameOpens(m[2]) {
		body, corr = "my "+singular(fold(m[1]))+" is "+m[2], true
	}

	// "We added 30 seats, bringing the total to 150", "We bought 15 more
	// licences, so 40 in total": the total, counted in what was added.
	if m := reAddedTotal.FindStringSubmatch(body); m != nil {
		if n := m[3] + m[4] + m[5]; isNumber(n) && !countDeltas[fold(m[2])] {
			body = "we have " + n + " " + m[2]
		}
	}

	// "I meant 45 guests, not 54": a count corrected.
	if m := reMeantCount.FindStringSubmatch(body); m != nil {
		body, corr = "we have "+m[1], true
	}

	// "Final answer on the paint colour: Harbour Grey" is a decision.
	if m := reDecisionOn.FindStringSubmatch(body); m != nil {
		body = "we decided on " + m[2] + " for " + m[1]
	}

	// "We agreed the freeze is on February 10": the agreement frames a
	// statement, read on without the frame ("we decided on X" and "we
	// agreed to X" are rules of their own).
	if m := reAgreed.FindStringIndex(body); m != nil && !agreedStops[fold(firstWord(body[m[1]:]))] {
		body = body[m[1]:]
	}
	// "Mrs. Delgado has asked me to let you all know that rehearsal is at
	// 7pm now": the message, passed on.
	if m := rePassedOn.FindStringIndex(body); m != nil {
		body = body[m[1]:]
	}

	self, selfKey := selfKeys(a.turn.Speaker)
	topic, topicNP, labelled := "", "", false
	if !topicWords[fold(firstWord(body))] && !strings.Contains(body, ":") {
		// No topic prefix or label: skip both patterns.
	} else if m := reTopic.FindStringSubmatchIndex(body); m != nil {
		t := body[m[2]:m[3]]
		if s, ok := normNP(t, selfKey); ok && !hasDateCue(t) {
			topic, topicNP = s.entity, t
		}
		body = body[m[1]:]
	} else if m := reChangeTopic.FindStringSubmatchIndex(body); m != nil {
		// "Change to the vet appointment for Biscuit: it's April 10 now"
		// is a change; "Correction: …" was read as a correction above.
		t := body[m[2]:m[3]]
		if s, ok := normNP(t, selfKey); ok && !hasDateCue(t) {
			topic, topicNP = s.entity, t
			body = body[m[1]:]
		}
	} else if newLabel(body) {
		// "New address: …", "Revised date for the audit: …": the label
		// rules read these whole.
	} else if m := reLabel.FindStringSubmatchIndex(body); m != nil && len(strings.Fields(body[m[2]:m[3]])) <= 3 {
		t := body[m[2]:m[3]]
		if s, ok := normNP(t, selfKey); ok {
			topic = s.entity
			body = body[m[1]:]
			if namesAttribute(t) {
				topicNP, labelled = ownLabel(t), true // "New address: 180 Canal Walk"
			}
		}
	} else if m := reAttrLabel.FindStringSubmatchIndex(body); m != nil && namesAttribute(body[m[2]:m[3]]) {
		// "Contact for the landlord: tomasz@fernhill.net"
		t := body[m[2]:m[3]]
		if s, ok := normNP(t, selfKey); ok {
			topic, topicNP, labelled = s.entity, t, true
			body = body[m[1]:]
		}
	}
	// A topic said up front and a value alone after it ("About the
	// laptops: make that 71", "New address: 180 Canal Walk") state the
	// topic's value: read as "<topic> is <value>".
	if topicNP != "" && !statusTopics[topic] {
		if m := reElliptic.FindStringSubmatch(body); m != nil {
			body = topicNP + " is " + m[2]
			corr = corr || m[1] != ""
		} else if labelled && !item && verbless(body) {
			body = topicNP + " is " + body
		}
	}

	found, filtered := false, false
	clauses := splitClauses(body)
	if statusTopics[topic] {
		// "Status: API migration done, billing blocked": one item a comma.
		clauses = splitCommas(clauses)
	}
	prevSubject := ""
	for _, cl := range clauses {
		cl, c2 := stripLead(strings.TrimSpace(cl))
		// "Package arrived this morning — it's delivered": "it" is the
		// thing the clause before was about.
		if m := reItIs.FindStringSubmatch(cl); m != nil && prevSubject != "" {
			cl = prevSubject + " is " + m[1]
		}
		prevSubject = ""
		if m := reEventSubject.FindStringSubmatch(cl); m != nil && !pronouns[fold(firstWord(m[1]))] {
			prevSubject = m[1]
		}
		cl = strings.TrimRight(cl, " .!")
		if cl == "" {
			continue
		}
		if len(cl) > maxClause {
			a.skip(cl, ReasonNoRule) // no rule reads a clause this long
			continue
		}
		clow := fold(cl)
		if r := clauseFilter(clow); r != "" && !(r == ReasonHypothetical && fixesShould(low, clow, corr)) {
			a.skip(cl, r)
			filtered = true
			continue
		}
		c := clause{text: cl, low: clow, self: self, selfKey: selfKey, at: a.turn.At, topic: topic, sentence: raw}
		c.ascii = lexical.LowerASCII(cl)
		c.firstPerson = firstPersonStarts.startsWith(padded(clow))
		st, ok := a.apply(&c)
		if t := TrimTimeLead(cl); !ok && t != cl {
			// "As of this week we're living at 41 Harbor View": the
			// rules read what follows when it holds.
			c.text, c.low = t, fold(t)
			c.ascii = lexical.LowerASCII(c.text)
			c.firstPerson = firstPersonStarts.startsWith(padded(c.low))
			st, ok = a.apply(&c)
		}
		if !ok && reElidedI.MatchString(cl) {
			// "Switched the card reader over to Square": a chat drops
			// the "I" of the speaker's own change.
			t := "I " + strings.ToLower(cl[:1]) + cl[1:]
			c.text, c.low = t, fold(t)
			c.ascii = lexical.LowerASCII(c.text)
			c.firstPerson = true
			st, ok = a.apply(&c)
		}
		if !ok {
			reason := ReasonNoRule
			if item {
				reason = ReasonListItem
			}
			a.skip(cl, reason)
			continue
		}
		st.Correction = corr || c2
		st.Cited = cited
		st.Index = idx
		a.res.Statements = append(a.res.Statements, st)
		found = true
	}
	if !found && !filtered {
		// "I'm thinking of switching my number to …" stays a thought.
		if st, ok := a.mentionedContact(raw, low, selfKey); ok {
			st.Correction, st.Index = corr, idx
			a.res.Statements = append(a.res.Statements, st)
		}
	}
}

// TrimTimeLead drops what opens s with when it holds ("as of this week
// we're living at …" is "we're living at …").
func TrimTimeLead(s string) string {
	if m := reTimeLead.FindStringIndex(s); m != nil && m[1] < len(s) {
		return s[m[1]:]
	}
	return s
}

// reTimeLead opens a clause with when it holds: "as of this week",
// "starting Monday", "these days".
var reTimeLead = regexp.MustCompile(`(?i)^(?:(?:as of|starting|from|since|beginning|effective)\s+(?:this|next|last|today|tomorrow|now|monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:\s+(?:week|month|year|weekend|quarter))?|now|today|these days|nowadays|currently|from now on|going forward|lately)\s*,?\s+`)

// statusTopics label a line of status items.
var statusTopics = map[string]bool{"status": true, "status_update": true, "progress": true, "update": true}

func splitCommas(cls []string) []string {
	var out []string
	for _, c := range cls {
		out = append(out, strings.Split(c, ", ")...)
	}
	return out
}

// mentionedContact reads "my email changed — it's now kai@x.io": an email
// or phone number in a sentence that names the speaker's email or phone.
func (a *analyzer) mentionedContact(raw, low, selfKey string) (Statement, bool) {
	c := clause{self: selfKey, selfKey: selfKey, sentence: raw}
	switch {
	case strings.Contains(raw, "@") && containsAny(low, []string{"my email", "my new email", "my e-mail", "my work email", "my personal email", "my email address"}):
		if m := reEmail.FindString(raw); m != "" {
			st := c.statement(selfKey, "email", m, KindContact)
			st.Rule = "contact-mentioned"
			return st, true
		}
	case containsAny(low, []string{"my phone", "my number", "my cell", "my mobile", "my new number"}):
		if m := rePhone.FindString(raw); m != "" && len(strings.TrimSpace(m)) >= 7 {
			st := c.statement(selfKey, "phone", strings.TrimSpace(m), KindContact)
			st.Rule = "contact-mentioned"
			return st, true
		}
	}
	return Statement{}, false
}

// apply tries the rules in order on one clause.
func (a *analyzer) apply(c *clause) (Statement, bool) {
	for i := range Rules {
		r := &Rules[i]
		if len(r.triggers) > 0 && !containsWordStart(c.low, r.triggers) ||
			len(r.also) > 0 && !containsAny(c.low, r.also) ||
			r.fp && !c.firstPerson || r.list && !statusTopics[c.topic] {
			continue
		}
		c.said = ""
		re := r.re
		if v, ok := fromVariant[re]; ok && strings.Contains(c.low, " from ") {
			re = v
		}
		m := re.FindStringSubmatchIndex(c.ascii)
		if m == nil {
			continue
		}
		st, ok := r.build(c, match{re: re, idx: m, text: c.text})
		if !ok || strings.TrimSpace(st.Value) == "" || !a.grounded(st) {
			continue
		}
		st.Rule = r.Name
		if st.Kind == KindDate && reResolved.MatchString(st.Value) && c.said != st.Value {
			st.Said = c.said
		}
		return st, true
	}
	return Statement{}, false
}

// grounded enforces the value contract: a value is said in the turn, is a
// resolved date, or is the speaker.
func (a *analyzer) grounded(st Statement) bool {
	if strings.Contains(a.turn.Text, st.Value) {
		return true
	}
	self, _ := selfKeys(a.turn.Speaker)
	if st.Value == self {
		return true
	}
	return st.Kind == KindDate && reResolved.MatchString(st.Value)
}

var reResolved = regexp.MustCompile(`^\d{4}-\d\d-\d\d(?: \d\d:\d\d)?$`)

// containsWordStart reports whether one of subs occurs in s at the start
// of a word (subs that open with a space or an apostrophe match anywhere).
func containsWordStart(s string, subs []string) bool {
	for _, x := range subs {
		for i := 0; ; {
			j := strings.Index(s[i:], x)
			if j < 0 {
				break
			}
			p := i + j
			if p == 0 || !lexical.IsASCIILetter(s[p-1]) || !lexical.IsASCIILetter(x[0]) {
				return true
			}
			i = p + 1
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
