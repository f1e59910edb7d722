package extract

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/stategraph/stategraph/lexical"
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
//
// A sentence may also name the value it leaves (see namedOld); an amount
// or a number left that way counts only when the sentence names a word of
// key ("$1,800 per laptop instead of $1,500" for laptop_budget), since
// many facts may hold "40".
func Swap(sentence, key, old string) (string, bool) {
	v, ok := swap(sentence, key, old)
	if ok && (OnlyKeyWords(v, key) || swapRefused(sentence, old, v) || letterApartAt(sentence, key, v)) {
		// "Study" of "Study group meets in the library now instead of
		// Room 214"; "ward 4 insulin pens 12 → 18/wk" beside
		// ward6_insulin_pens is ward 4's.
		return "", false
	}
	return v, ok
}

// letterApartAt reports a clause saying value v that names the key's
// thing by another letter or number (LetterApart), whatever the clauses
// after it say: "ward 4 insulin pens 12 → 18/wk; ward 6 no change".
func letterApartAt(sentence, key, v string) bool {
	lv := fold(v)
	for _, cl := range splitClauses(sentence) {
		if strings.Contains(fold(cl), lv) && LetterApart(cl, key) {
			return true
		}
	}
	return false
}

// swapRefused reports a swap whose clauses say it of someone else, or
// deny, doubt or only propose it: "My parents dropped Netflix for
// Disney+". The clause that drops the old value may be past or negative
// ("We used Netflix, but now it's Disney+", "Taco Loco can't do the
// date"), and the new value's clause may deny the old one ("It's 46
// guests, not 40").
func swapRefused(sentence, old, v string) bool {
	lold, lv := fold(old), fold(v)
	if reAnotherThing.MatchString(fold(sentence)) {
		return true // "Omar took another deck over from Priya": not the one Priya had
	}
	if i := strings.Index(fold(sentence), lv); i >= 0 && reKeepsDoing.MatchString(fold(sentence)[i+len(lv):]) {
		return true // "Vendors keep sending invoices to the old street address instead of PO Box 118": what they do
	}
	for _, cl := range splitClauses(sentence) {
		clow := fold(cl)
		if !strings.Contains(clow, lv) {
			if r := clauseFilter(clow); strings.Contains(clow, lold) && r != "" && r != ReasonPast && r != ReasonNegated {
				return true
			}
			continue
		}
		for _, m := range reLeaves.FindAllStringIndex(clow, -1) {
			if n := mentionsAt(clow[m[1]:], strings.TrimPrefix(lold, "the ")); n > 0 {
				clow = clow[:m[0]] + clow[m[1]+n:] // "It's 46 guests, not 40" says 46
				break
			}
		}
		if clauseFilter(clow) != "" {
			return true
		}
	}
	return false
}

// reKeepsDoing follows a subject that keeps doing something: "keep
// sending", "are still using".
var reKeepsDoing = regexp.MustCompile(`^\s+(?:keep|keeps|kept|are still|is still|still)\s+[a-z]+ing\b`)

func swap(sentence, key, old string) (string, bool) {
	old = strings.TrimSpace(old)
	if old == "" || len(sentence) > maxClause {
		return "", false
	}
	// lexical.LowerASCII keeps byte offsets, so low's offsets are sentence's.
	low, lold := lexical.LowerASCII(sentence), lexical.LowerASCII(old)
	if v, ok := arrowed(sentence, old); ok {
		return v, true // "standup 9:30 -> 10 starting tomorrow"
	}
	// "Sara replaced Kim as PM on the migration"
	for _, m := range reReplacer.FindAllStringSubmatchIndex(sentence, -1) {
		if n := mentionsAt(low[m[1]:], lold); n > 0 && wordEnds(low[m[1]+n:]) {
			if v := cleanValue(sentence[m[2]:m[3]]); v != "" && !sameAs(old, v, anchorName, time.Time{}) && !dateWords[fold(v)] {
				return v, true
			}
		}
	}
	// "Work gave me a ThinkPad X1 to replace the MacBook Air"
	for _, m := range reInPlaceOf.FindAllStringSubmatchIndex(sentence, -1) {
		if n := mentionsAt(low[m[1]:], lold); n > 0 && wordEnds(low[m[1]+n:]) {
			if v, ok := nameCandidate(sentence, span{start: m[2], end: m[3], text: sentence[m[2]:m[3]]}); ok && !sameAs(old, v.text, anchorName, time.Time{}) && !dateWords[fold(v.text)] {
				return v.text, true
			}
		}
	}
	dropEnd := -1 // where the dropped value ends
	for _, m := range reDrop.FindAllStringIndex(low, -1) {
		if n := mentionsAt(low[m[1]:], lold); n > 0 {
			dropEnd = m[1] + n
			break
		}
		// "GreenScape skipped us three weeks running, so I fired them
		// and hired Miguel's Lawn Care": a pronoun after the drop verb
		// stands for the old value, named in the clause before.
		if p := rePronounObject.FindString(low[m[1]:]); p != "" && m[0] > 0 && mentionsAnywhere(low[:m[0]], lold) {
			dropEnd = m[1] + len(p)
			break
		}
	}
	for _, m := range reLetGo.FindAllStringIndex(low, -1) {
		// "We let BuildRight go and brought in Hammer & Co."
		if n := mentionsAt(low[m[1]:], lold); n > 0 && dropEnd < 0 && strings.HasPrefix(low[m[1]+n:], " go") && wordEnds(low[m[1]+n+3:]) {
			dropEnd = m[1] + n + 3
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
		// "I switched dentists — I see Dr. Okafor now": the key's
		// thing, changed for another of its kind.
		for _, m := range reSwitchKind.FindAllStringSubmatchIndex(low, -1) {
			if noun := low[m[2]:m[3]]; len(noun) > 3 && namesKey(singular(noun), key) {
				dropEnd = m[1]
				break
			}
		}
	}
	if dropEnd < 0 {
		if v, ok := namedOld(sentence, low, key, old, lold); ok {
			return v, true
		}
		return renumbered(sentence, low, old)
	}
	titled := reWholeTitled.MatchString(old)
	ok := func(v string) bool {
		if v == "" || restates(old, v) || sameAs(old, v, anchorName, time.Time{}) {
			return false
		}
		r := []rune(v)
		if !isUpperRune(r[0]) {
			return false // a new value here is a name: "a bigger one" is not
		}
		// A titled person ("Dr. Patel") is followed by one: "Seeing Dr.
		// Okafor at Riverside Dental" names the dentist, then the practice.
		return !titled || reWholeTitled.MatchString(v)
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
	// "moved out of the Hive — I'm at Foundry Works on 3rd St now": a
	// name right after, not "I'm at a meeting with Dan".
	for _, re := range []*regexp.Regexp{reNowAt, reOnNow} {
		// "… and all the payroll clients are on ADP now"
		for _, m := range re.FindAllStringSubmatchIndex(sentence, -1) {
			if v := sentence[m[2]:m[3]]; m[0] >= dropEnd && ok(v) && !othersBefore(low[:m[0]]) {
				return v, true
			}
		}
	}
	// "brought Northstar on board"
	for _, m := range reOnBoard.FindAllStringSubmatchIndex(sentence, -1) {
		if v := sentence[m[2]:m[3]]; m[0] >= dropEnd && ok(v) {
			return v, true
		}
	}
	// "so Mezze Republic is doing the food"
	for _, g := range reStepIn.FindAllStringIndex(sentence, -1) {
		if g[0] < dropEnd && !strings.ContainsAny(sentence[g[1]:max(g[1], dropEnd)], ";—") {
			continue // before the drop, only in a clause of its own: "Kemi started with us; Rosa's retiring"
		}
		names := reAnyName.FindAllStringIndex(sentence[:g[0]], -1)
		if len(names) == 0 {
			continue
		}
		n := names[len(names)-1]
		if n[1] != g[0] {
			continue
		}
		if k := len(names) - 2; k >= 0 && reAtOrg.MatchString(sentence[names[k][1]:n[0]]) {
			// "Marcus Lee at AssuredAv is handling my policy now": the
			// one who does it, not where they work.
			n = names[k]
		}
		v, okv := nameCandidate(sentence, span{start: n[0], end: n[1], text: sentence[n[0]:n[1]]})
		if okv && ok(v.text) {
			return v.text, true
		}
	}
	names := reAnyName
	if titled {
		names = reAnyTitled
	}
	return takenUp(sentence, low, lold, names, dropEnd-1, ok)
}

// restates reports a value that says the old one again, or only words
// of it: "Patel" or "Dr. Patel's" beside "Dr. Patel", "the Square
// subscription" beside "Square" ("Mom's Meals" is not "Meals on
// Wheels").
func restates(old, v string) bool {
	fo, fv := fold(old), fold(v)
	if strings.Contains(fv, fo) {
		return true
	}
	ow := strings.Fields(fo)
	for _, w := range strings.Fields(fv) {
		w = strings.TrimSuffix(w, "'s")
		if !slices.Contains(ow, w) && !titleWords[strings.TrimRight(w, ".")] {
			return false
		}
	}
	return true
}

// rePronounObject is a pronoun that stands for a thing dropped.
var rePronounObject = regexp.MustCompile(`^(?:them|it|him|her)\b`)

// mentionsAnywhere reports whether text (lower case) names old (lower
// case), whole or by a word of it of four letters or more.
func mentionsAnywhere(text, old string) bool {
	for i := 0; i < len(text); i++ {
		if (i == 0 || !isWordByte(text[i-1])) && mentionsAt(text[i:], old) > 0 {
			return true
		}
	}
	return false
}

// reInPlaceOf names a value, then the one it replaces: "a ThinkPad X1 to
// replace the MacBook Air", "Hilda, replacing Jo".
var reInPlaceOf = regexp.MustCompile(`(` + nameSeq + `),?\s+(?:to replace|replacing|in place of|as (?:a|the) replacement for)\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?`)

// reOnBoard takes a new value up around it: "brought Northstar on board".
var reOnBoard = regexp.MustCompile(`\b(?:brought|brings|took|takes|signed|got)\s+(` + nameSeq + `)\s+on(?:\s+board)?\b`)

// reSwitchKind changes a thing for another of its kind: "switched
// dentists", "changed banks".
var reSwitchKind = regexp.MustCompile(`\b(?:switched|changed|swapped|switching|changing)\s+([a-z]+s)\b`)

// titleWords open a person's name without naming them.
var titleWords = map[string]bool{"dr": true, "mr": true, "mrs": true, "ms": true, "mx": true, "prof": true, "professor": true, "the": true, "sir": true, "dame": true, "coach": true, "nurse": true, "officer": true, "judge": true, "rabbi": true, "father": true, "pastor": true}

// reAnyNameNumber finds a name with a number in a sentence.
var reAnyNameNumber = regexp.MustCompile(`(\p{Lu}[\p{L}.-]*)\s+v?\d`)

// namesNumbered reports a name with a number in a sentence that is not a
// date ("Postgres 16", not "March 17" or "Friday 3pm"): renumbered has
// something to read.
func namesNumbered(sentence string) bool {
	for _, m := range reAnyNameNumber.FindAllStringSubmatch(sentence, -1) {
		if !dateWords[fold(m[1])] {
			return true
		}
	}
	return false
}

// reNameNumber is a name with a number: "Postgres 14", "iPhone 15".
var reNameNumber = regexp.MustCompile(`^(\p{L}[\p{L}.-]*(?:\s+\p{L}[\p{L}.-]*)?)\s+v?(\d+(?:\.\d+)*)$`)

// renumbered reads a sentence that names a stored value's thing with
// another number, in a clause that says what the speaker has now: "We're
// running Postgres 16 in production now" beside "Postgres 14".
func renumbered(sentence, low, old string) (string, bool) {
	m := reNameNumber.FindStringSubmatch(old)
	if m == nil {
		return "", false
	}
	name := lexical.LowerASCII(m[1])
	for i := 0; ; {
		j := strings.Index(low[i:], name+" ")
		if j < 0 {
			return "", false
		}
		p := i + j
		rest := low[p+len(name)+1:]
		rest = strings.TrimPrefix(rest, "v")
		n := 0
		for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '.' && n+1 < len(rest) && rest[n+1] >= '0' && rest[n+1] <= '9') {
			n++
		}
		if n > 0 && rest[:n] != m[2] && (p == 0 || !lexical.IsASCIILetter(low[p-1])) && wordEnds(rest[n:]) {
			for _, c := range clauses(low) {
				if c[0] <= p && p < c[1] && takesUp(low[c[0]:c[1]]) {
					return sentence[p : len(sentence)-len(rest)+n], true
				}
			}
		}
		i = p + 1
	}
}

// clauses returns where each clause of a folded sentence starts and
// ends, cut at reClauseBreak; a clause after " and we" opens with its "we".
func clauses(low string) [][2]int {
	var out [][2]int
	start := 0
	for _, b := range reClauseBreak.FindAllStringSubmatchIndex(low, -1) {
		out = append(out, [2]int{start, b[0]})
		start = b[1]
		if b[2] >= 0 {
			start = b[2] // the I or we that opens the next clause
		}
	}
	return append(out, [2]int{start, len(low)})
}

// cutBeforeOld cuts the clauses cs of low once more at an " and " that
// the old value (lold) follows: "We're on AT&T now and Comcast is
// cancelled" takes up AT&T in one clause and drops Comcast in the next.
func cutBeforeOld(cs [][2]int, low, lold string) [][2]int {
	var out [][2]int
	for _, c := range cs {
		for {
			i := strings.Index(low[c[0]:c[1]], " and ")
			if i < 0 || mentionsAt(low[c[0]+i+len(" and "):c[1]], lold) == 0 {
				break
			}
			out = append(out, [2]int{c[0], c[0] + i})
			c[0] += i + len(" and ")
		}
		out = append(out, c)
	}
	return out
}

// takesUp reports a folded clause that asserts what the speaker has or
// does now (reTakesUp, and no refusal of clauseFilter).
func takesUp(cl string) bool {
	cl = strings.TrimSpace(cl)
	return reTakesUp.MatchString(cl) && clauseFilter(cl) == ""
}

// reClauseBreak separates a sentence's clauses (see clauses).
// " and " and a bare comma break only before I or we, which open the next
// clause.
var reClauseBreak = regexp.MustCompile(`\s*(?:;|—|–|,\s*(?:so|and|but|then)\s+|(?:\s+and|,)\s+(?:so\s+|then\s+)?(i|we)\b)\s*`)

// reTakesUp marks a clause that says what the speaker has or does now:
// it opens with I or we, or says "now" or "instead".
var reTakesUp = regexp.MustCompile(`^(?:i|we)(?:['’](?:m|re|ve|ll|d))?\s|\b(?:now|instead|these days|from now on|going forward)\b`)

// companion reports a name said as whom the speaker meets or talks to
// (before, folded in, is the text before the name): "a meeting with
// Dan", "talked to Priya"; "I hit with Leo now" and "Max goes to Bark
// Park now" take them up.
func companion(before string) bool {
	return reCompanion.MatchString(fold(strings.TrimRight(before, " ")))
}

var reCompanion = regexp.MustCompile(`\b(?:meeting|meetings|call|calls|lunch|dinner|breakfast|coffee|drinks|chat|talk|date|catch-up|catchup|1:1|one-on-one|interview)\s+with$|\b(?:talked|talking|spoke|speaking|chatted|chatting|met|meeting|texted|texting|emailed|emailing|wrote)\s+(?:with|to)$`)

// takenUp reads the value a sentence takes up in a clause other than the
// one that drops the old value, when nothing joins the two by a verb of
// taking up: "Sold the Civic last month; I drive a Tesla Model 3 now",
// "We rewrote the service in Go, so Python is out". The clause must say
// what the speaker has or does now (reTakesUp), assert it (clauseFilter)
// and name exactly one new thing: "Sold the Civic; Mark gave me a lift"
// takes up nothing. names finds the candidates: titled names when the
// old value is one.
func takenUp(sentence, low, lold string, names *regexp.Regexp, dropAt int, ok func(string) bool) (string, bool) {
	found, n := "", 0
	for _, c := range cutBeforeOld(clauses(low), low, lold) {
		if c[0] <= dropAt && dropAt < c[1] || !takesUp(low[c[0]:c[1]]) {
			continue
		}
		cl := sentence[c[0]:c[1]]
		for _, m := range names.FindAllStringIndex(cl, -1) {
			if companion(cl[:m[0]]) {
				continue // "I'm in a meeting with Dan now": whom, not what
			}
			v, okv := nameCandidate(cl, span{start: m[0], end: m[1], text: cl[m[0]:m[1]]})
			if okv && !dateWords[fold(v.text)] && ok(v.text) {
				found, n = v.text, n+1
			}
		}
	}
	return found, n == 1
}

// Drops reports whether a sentence has a verb of dropping or of falling
// away, or names a value it leaves ("from A to B", "B instead of A"),
// without which Swap finds nothing in it: a caller reading one sentence
// against many stored values asks once. It is remembered (memo.go).
func Drops(sentence string) bool { return dropsMemo.Get(sentence) }

// drops is Drops, computed.
func drops(sentence string) bool {
	low := lexical.LowerASCII(sentence)
	return reDrop.MatchString(low) || reFallAway.MatchString(low) || reInPlaceOf.MatchString(sentence) || reChangeFrom.MatchString(low) || reLeaves.MatchString(low) || reReplacer.MatchString(sentence) || reSwitchKind.MatchString(low) || strings.Contains(low, " go") && reLetGo.MatchString(low) || namesNumbered(sentence) || reArrow.MatchString(sentence)
}

// namedOld reads a sentence that names the stored value it leaves and the
// value it takes: "We upgraded from Pro to the Team plan" (a verb of
// change, then "from old to new"), "Finance approved $1,800 per laptop
// instead of $1,500" (the new value of old's shape closest before
// "instead of old", "rather than old", ", not old").
func namedOld(sentence, low, key, old, lold string) (string, bool) {
	shape := valueShape(old)
	if (shape == shapeMoney || shape == shapeNumber) && !namesKey(low, key) {
		return "", false
	}
	if m := reChangeFrom.FindStringIndex(low); m != nil && !(rePeopleMoved.MatchString(low[m[0]:]) && !reFirstPerson.MatchString(low[:m[0]]) && !namesKey(low, key)) {
		// (Someone else reassigned from EMEA to APAC moved; the
		// speaker's region did not.)
		rest := low[m[1]:]
		if n := mentionsAt(rest, lold); n > 0 && n == len(lold) && wordEnds(rest[n:]) {
			after := strings.TrimLeft(rest[n:], " ")
			if m := reOnTo.FindStringIndex(after); m != nil {
				// "from Pro to the Team plan", "from the PLAT project into CORE"
				at := len(low) - len(after) + m[1] // low keeps sentence's offsets
				if v, ok := shapedAt(sentence[at:], shape); ok && fold(v) != lold {
					return v, true
				}
			}
		}
	}
	bare := strings.TrimPrefix(lold, "the ") // reLeaves reads the article
	// "FlowRight Plumbing instead of Mike's" leaves Mike's Plumbing: the
	// old value without the kind of thing the new one shares.
	short, head := "", ""
	if i := strings.LastIndexByte(bare, ' '); i > 0 {
		short, head = bare[:i], bare[i:]
	}
	for _, m := range reLeaves.FindAllStringIndex(low, -1) {
		n := mentionsAt(low[m[1]:], bare)
		sameHead := short != "" && n == len(short)
		if n == 0 || n != len(bare) && !sameHead || !wordEnds(low[m[1]+n:]) {
			continue // "not Zuni's sister restaurant" leaves something else
		}
		fits := func(v string) bool { return fold(v) != lold && (!sameHead || strings.HasSuffix(fold(v), head)) }
		if strings.TrimSpace(low[:m[0]]) == "" {
			// "Instead of Zuni, let's meet at Nopa": the value after.
			if v, ok := shapedIn(sentence[m[1]+n:], shape, false); ok && fits(v) {
				return v, true
			}
			continue
		}
		if v, ok := shapedIn(sentence[:m[0]], shape, true); ok && fits(v) {
			return v, true
		}
		if v, ok := tokenBefore(sentence[:m[0]], old); ok && fits(v) {
			// "its pancake24 not pancake42": a code for a code.
			return v, true
		}
		if v, ok := thingBefore(sentence[:m[0]]); ok && shape == shapeNone && fits(v) {
			// "I'm getting a salad for lunch from now on instead of
			// the burrito bowl": a thing in lower case for another.
			return v, true
		}
	}
	return "", false
}

// arrowed reads "old -> new", the shorthand of a change: "sprint 42 end
// pushed Jan 16 -> Jan 23", "standup 9:30 -> 10 starting tomorrow",
// "renamed default branch master -> main". The words before the arrow
// are the stored value, whole or as its start ("9:30" of "9:30am"); the
// new value is as many words after it, in the stored value's half of the
// day when it is a bare hour.
func arrowed(sentence, old string) (string, bool) {
	m := reArrow.FindStringIndex(sentence)
	if m == nil {
		return "", false
	}
	left, right := strings.Fields(sentence[:m[0]]), strings.Fields(sentence[m[1]:])
	lold := fold(old)
	for k := 1; k <= len(left) && k <= len(strings.Fields(old))+1; k++ {
		said := fold(strings.Trim(strings.Join(left[len(left)-k:], " "), ",;:"))
		if said != lold && !(strings.HasPrefix(lold, said) && strings.ContainsAny(said, "0123456789") && len(strings.Fields(said)) == len(strings.Fields(lold))) {
			continue
		}
		if len(right) < k {
			return "", false
		}
		ws := slices.Clone(right[:k])
		for i, w := range ws {
			if j := markAt(w); j >= 0 {
				ws[i], ws = w[:j], ws[:i+1]
				break
			}
		}
		v := strings.TrimRight(strings.Join(ws, " "), ".")
		if v == "" || fold(v) == lold {
			return "", false
		}
		if h, ok := HourLike(old, v); ok {
			v = h
		}
		return v, true
	}
	return "", false
}

// markAt returns where a mark that ends a phrase opens in word w, or -1:
// a comma, a semicolon, a colon not between digits ("8:45" is one time)
// or a "!" or "?".
func markAt(w string) int {
	for j := 0; j < len(w); j++ {
		switch w[j] {
		case ',', ';', '!', '?':
			return j
		case ':':
			if j == 0 || j+1 >= len(w) || !lexical.IsASCIIDigit(w[j-1]) || !lexical.IsASCIIDigit(w[j+1]) {
				return j
			}
		}
	}
	return -1
}

// reWholeClock is a time of day and nothing else: "10am", "9:15".
var reWholeClock = regexp.MustCompile(`(?i)^\d{1,2}(?::\d\d)?\s*(?:am|pm)?$`)

// reArrow is the arrow of a change written in shorthand.
var reArrow = regexp.MustCompile(`\s*(?:-->|->|→|=>|⟶)\s*`)

// othersBefore reports a subject of other people among the last four
// words of s: "the neighbors" of "the neighbors are on Verizon now".
func othersBefore(s string) bool {
	ws := words(s)
	for _, w := range ws[max(0, len(ws)-4):] {
		w = singular(strings.TrimSuffix(w, "'s"))
		if relations[w] || otherPeople[w] || strings.HasPrefix(w, "neighbo") {
			return true
		}
	}
	return false
}

// otherPeople are words for people other than the speaker's household.
var otherPeople = map[string]bool{"he": true, "she": true, "they": true, "parent": true, "friend": true, "cousin": true, "aunt": true,
	"uncle": true, "grandma": true, "grandpa": true, "coworker": true, "colleague": true, "roommate": true, "everyone": true, "everybody": true}

// tokenBefore reads the word that ends s when it is written like old, a
// word of letters and digits or of digits and marks (a password, a code,
// a combination): "pancake24" beside "pancake42", "27-03-41" beside
// "12-34-08".
func tokenBefore(s, old string) (string, bool) {
	shape := tokenShape(old)
	if shape == "" {
		return "", false
	}
	fs := strings.Fields(s)
	if len(fs) == 0 {
		return "", false
	}
	v := strings.TrimRight(fs[len(fs)-1], ",;:")
	return v, tokenShape(v) == shape
}

// tokenShape writes a one-word value holding a digit as its runs of
// letters (a), digits (9) and other marks ("pancake42" → "a9",
// "12-34-08" → "9-9-9"), or "" for any other value.
func tokenShape(v string) string {
	if v == "" || strings.ContainsAny(v, " \t") || !strings.ContainsAny(v, "0123456789") {
		return ""
	}
	var b strings.Builder
	last := rune(0)
	for _, r := range v {
		c := r
		switch {
		case unicode.IsLetter(r):
			c = 'a'
		case unicode.IsDigit(r):
			c = '9'
		}
		if c != last || c != 'a' && c != '9' {
			b.WriteRune(c)
		}
		last = c
	}
	return b.String()
}

// reAnotherThing sets the thing swapped apart from the stored one.
var reAnotherThing = regexp.MustCompile(`\b(?:another|a different|a second|the other|some other)\s+[a-z]`)

// reThing is a lower-case thing said with its article: "a salad", "an
// oat latte".
var reThing = regexp.MustCompile(`\b(?:a|an|some)\s+([a-z][a-z-]+(?:\s+[a-z][a-z-]+)?)`)

// thingBefore reads the last lower-case thing said with its article in s,
// up to a word that ends a noun phrase ("a salad for lunch" is a salad).
func thingBefore(s string) (string, bool) {
	all := reThing.FindAllStringSubmatchIndex(s, -1)
	if len(all) == 0 {
		return "", false
	}
	m := all[len(all)-1]
	ws := strings.Fields(s[m[2]:m[3]])
	for i, w := range ws {
		if thingEnds[w] {
			ws = ws[:i]
			break
		}
	}
	if len(ws) == 0 || thingEnds[ws[0]] {
		return "", false
	}
	return strings.Join(ws, " "), true
}

var thingEnds = map[string]bool{"for": true, "from": true, "to": true, "at": true, "in": true, "on": true, "with": true,
	"instead": true, "now": true, "today": true, "every": true, "each": true, "and": true, "or": true, "but": true,
	"this": true, "that": true, "because": true, "since": true, "lot": true, "bit": true, "few": true, "little": true,
	"new": true, "different": true, "better": true}

// wordEnds reports whether rest, what follows a value, ends it: not more
// letters, not a possessive.
func wordEnds(rest string) bool {
	return rest == "" || !lexical.IsASCIILetter(rest[0]) && rest[0] != '\'' && !strings.HasPrefix(rest, "’") && (rest[0] < '0' || rest[0] > '9')
}

// SwapKind is the kind of a value Swap read: a name is a choice, "the
// 15th" a date, "$1,800" an amount, "46" a count.
func SwapKind(v string) string {
	switch valueShape(v) {
	case shapeDayOfMonth:
		return KindDate
	case shapeMoney:
		return KindAmount
	case shapeNumber:
		return KindCount
	}
	if reWholeClock.MatchString(v) || isDatePhrase(v) && len(strings.Fields(v)) <= 3 {
		return KindDate // "Jan 23", "10am" (of "Jan 16 -> Jan 23", "9:30 -> 10"); not "The Remains of the Day"
	}
	return KindChoice
}

// namesKey reports whether a folded sentence says a word of key (three
// letters or more, in its singular or as a word's start: "guests" for
// guest_count).
func namesKey(low, key string) bool {
	ent, attr := NormalizeKey(key)
	for _, w := range strings.FieldsFunc(lexical.LowerASCII(key)+"_"+ent+"_"+attr, func(r rune) bool { return r == '_' || r == '.' || r == ' ' || r == '-' }) {
		if len(w) < 3 {
			continue
		}
		for i := 0; ; {
			j := strings.Index(low[i:], w)
			if j < 0 {
				break
			}
			if p := i + j; p == 0 || !lexical.IsASCIILetter(low[p-1]) {
				return true
			}
			i += j + 1
		}
	}
	return false
}

// Value shapes namedOld matches a new value to; a date or a phrase has
// none (shapeNone): namedOld leaves those to the rules.
const (
	shapeNone = iota
	shapeName
	shapeMoney
	shapeNumber
	shapeDayOfMonth // "the 1st": a day of the month, said as an ordinal
)

func valueShape(v string) int {
	v = strings.TrimSpace(v)
	switch r := []rune(v); {
	case reDayOfMonth.FindString(v) == v:
		return shapeDayOfMonth
	case reMoney.MatchString(v):
		return shapeMoney
	case isNumber(v):
		return shapeNumber
	case len(r) > 0 && isUpperRune(r[0]):
		return shapeName
	}
	return shapeNone
}

// shapedAt reads a value of the given shape at the start of s.
func shapedAt(s string, shape int) (string, bool) {
	switch shape {
	case shapeName:
		v, ok := takeChoice(s)
		if !ok {
			return "", false
		}
		return v, isUpperRune([]rune(v)[0])
	case shapeMoney, shapeNumber, shapeDayOfMonth:
		m := shapeRe(shape).FindStringIndex(s)
		if m == nil || strings.TrimSpace(s[:m[0]]) != "" {
			return "", false
		}
		return cleanValue(s[m[0]:m[1]]), true
	}
	return "", false
}

// shapedIn reads the first value of the given shape in s, or the last;
// a weekday or a month is not a name chosen ("at Nopa on Friday").
func shapedIn(s string, shape int, last bool) (string, bool) {
	re := shapeRe(shape)
	if re == nil {
		return "", false
	}
	all := re.FindAllStringIndex(s, -1)
	if last {
		slices.Reverse(all)
	}
	for _, m := range all {
		if shape == shapeName {
			m[0] = tokenStart(s, m[0]) // "Grey!Falcon42", not "Falcon42"
		}
		v := cleanValue(s[m[0]:m[1]])
		if shape == shapeName && (dateWords[fold(v)] || v == "I" || strings.HasPrefix(v, "I'") || strings.HasPrefix(v, "Let")) {
			continue
		}
		return v, v != ""
	}
	return "", false
}

func shapeRe(shape int) *regexp.Regexp {
	switch shape {
	case shapeMoney:
		return reAnyMoney
	case shapeNumber:
		return reBareNumber
	case shapeName:
		return reAnyName
	case shapeDayOfMonth:
		return reDayOfMonth
	}
	return nil
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
	// "Sam and I split up", "Ms. Green's schedule filled up": the old
	// value with the speaker, or its thing.
	before = strings.TrimSuffix(strings.TrimSuffix(before, " and i"), " and we")
	if m := reOwnThing.FindStringIndex(before); m != nil {
		before = before[:m[0]]
	}
	if strings.HasSuffix(before, old) {
		return true
	}
	ws := words(before)
	if len(ws) == 0 {
		return false
	}
	last := ws[len(ws)-1]
	for i, w := range strings.Fields(old) {
		w = strings.Trim(w, ".,'\"")
		// "Ana had to cancel" for Ana Ruiz: a first name of three letters.
		if (len(w) >= 4 || i == 0 && len(w) == 3 && strings.Contains(old, " ")) && w == last {
			return true
		}
	}
	return false
}

func isUpperRune(r rune) bool {
	return strings.ToUpper(string(r)) == string(r) && strings.ToLower(string(r)) != string(r)
}

var (
	reDrop = regexp.MustCompile(`\b(?:closed|dropped|cancelled|canceled|sold|left|quit|ditched|scrapped|scratch|scratched|replaced|swapped out|swapped|traded(?: in)?|got rid of|moved away from|switched away from|switched from|moved off|stopped using|no longer use|no longer using|gave up|dumped|fired|let go of|parted ways with|parted company with|checked out of|moved out of|moving off|moving away from|migrated off|migrating off|(?:pulled|took|taken) (?:him |her |them |it |us |me )?out of|(?:pulled|took|taken) (?:[\p{L}\d'’-]+ ){1,3}(?:away )?from|(?:took|taken|takes|taking|came|come|went|gone|got|getting) (?:me |us |him |her |them )?off|finished|completed|wrapped up|done with|done w/|through with|(?:do|does|did|will)(?: not|n['’]t) (?:take|use|go to|see|order from|buy from|work with|shop at|bank with|fly)|(?:no longer|stopped) (?:take|taking|go to|going to|see|seeing|order from|ordering from|buy from|buying from|work with|working with|shop at|shopping at|bank with|banking with)|(?:i['’]m|we['’]re|i am|we are) (?:not|no longer) with|graduated from|ripped out|tore out|torn out|removed|decommissioned|sunset|sunsetted|phased out|retired|uninstalled|unsubscribed from|turned off|shut off)\s+(?:the\s+|our\s+|my\s+|on\s+)?(?:old\s+|current\s+|existing\s+|aging\s+|ageing\s+)?`)
	// reReplacer is a person or thing taking another's place, named
	// before the verb: "Sara replaced Kim as PM", "Kofi took over from
	// Dana".
	reReplacer = regexp.MustCompile(`(?:^|[\s,;:—–-])(` + nameSeq + `)\s+(?:has\s+|have\s+|just\s+|officially\s+|now\s+)*(?:replaced|is replacing|will replace|replaces|took over from|takes over from|is taking over from|(?:took|taken|takes|is taking)\s+(?:[\p{L}\d'’-]+\s+){1,4}?over\s+from|stepped in for|steps in for|is stepping in for|is covering for|covers for|subbed in for|succeeded|succeeds|relieved|dethroned|overtook|overtaken|displaced|unseated|supplanted|edged out|beat out)\s+(?:the\s+)?`)
	reLetGo    = regexp.MustCompile(`\blet\s+(?:the\s+|our\s+|my\s+)?`)
	reOnNow    = regexp.MustCompile(`(?i:\b(?:are|is|['’]re|['’]s)\s+(?:all\s+)?(?:now\s+)?(?:on|with|using))\s+(?:the\s+)?(\p{Lu}[\p{L}\d'’&.-]*(?:\s+\p{Lu}[\p{L}\d'’&.-]*)*)(?i:\s+now)\b`)
	reNowAt    = regexp.MustCompile(`(?i:\b(?:we|i)['’](?:re|m)(?:\s+now)?\s+(?:at|using|with))\s+(?:the\s+)?(\p{Lu}[\p{L}\d'’&.-]*(?:\s+\p{Lu}[\p{L}\d'’&.-]*)*)`)
	reGain     = regexp.MustCompile(`(?i)\b(?:set up|(?:moved|switched|transferred|shifted) (?:[\w'’-]+\s+){0,3}?over to|(?:you|we|i)(?:['’]ve got| have| now have|['’]re now with|['’]re with)|bought|joined|ordered|booked|checked into|checked in at|and into|moved into|brought in|brought on|took on|taken on|onboarded|got|purchased|leased|adopted|started|began|took up|enrolled in|rebooked(?:\s+at|\s+with)?|signed up (?:for|with|at)|signed with|starts at|started at|starting at|switched to|moved to|went with|going with|went for|picked up|picked|chose|hired|replaced (?:it|them|that|him|her) with|in favou?r of|(?:everything|it|all|our money|my money)(?:['’]s| is)\s+(?:now\s+)?(?:with|at|on|in)|(?:everything|it|all of it)\s+(?:now\s+)?(?:runs|lives|sits|is hosted|is running)\s+(?:on|at|with)|(?:running|doing|putting)\s+(?:everything|it all|all of it|it)\s+(?:now\s+)?(?:on|through|with|at)|banking with|(?:opened|open) (?:an? )?(?:account|one) (?:with|at)|(?:put|puts|putting|started|starting|switched|moved) (?:me|us|him|her|them) (?:on|onto|to)|(?:runs?|running|ran|lives?|living|sits?|is hosted|are hosted|are now|is now) (?:on|in|at|with)|opted for|opted into|opting for|settled on|landed on|went ahead with|(?:consolidated|moved|migrated|put|merged)\s+(?:everything|it all|all of it|all|it)\s+(?:over\s+)?(?:into|to|onto)|(?:i['’]m|we['’]re|i am|we are)\s+(?:now\s+)?(?:riding|driving|using|seeing|flying|taking|wearing|reading|playing)|(?:['’]s|has|have) been (?:at|with|in|on)|(?:pick|choice|selection)\s+(?:is|will be)|(?:we['’]re|we are|i['’]m|i am)\s+(?:now\s+)?(?:getting married|having it|holding it|celebrating|staying)\s+(?:at|in))\s+(?-i:the\s+|a\s+|an\s+)?`)
	reForNew   = regexp.MustCompile(`^\s*(?:,\s*)?(?:out\s+|over\s+)?(?:for|with|in favou?r of)\s+(?:the\s+|a\s+|an\s+)?`) // "swapped Dune out for Piranesi"
	reFallAway = regexp.MustCompile(`(?:'s|’s|\s(?:is|are)) (?:retiring|leaving|moving away|stepping down|closing(?: up shop| down| its doors)?|shutting down|going out of business)\b|(?:\s(?:finally|just|officially|suddenly|completely|totally))?\s(?:cancelled on us|canceled on us|cancelled|canceled|(?:had|has) to (?:cancel|pull out|drop out|step down|step back|leave)|moved away|pulled out|fell through|dropped out|backed out|let us down|went bust|shut down|closed down|is out|are out|retired|can['’]t do|cannot do|can no longer do|couldn['’]t do|can['’]t make|couldn['’]t make|went back to|moved back to|went home|split up|broke up|separated|divorced|filled up|booked up|is booked up|double-booked|double booked|double-booked us|overbooked|got too busy|is being shut off|is being retired|is being phased out|is going away|got stolen|was stolen|were stolen|died|broke down|gave out|is dead|left|closed|is closed|folded|went under|went out of business|is off to|are off to|moved on|quit|stepped down|stepped back|stepped away)\b|(?:'s|’s|\s(?:is|are|was|were|got|has been|have been))\s+(?:now\s+)?(?:officially\s+)?(?:cancelled|canceled|uninstalled|gone|history|read-only|decommissioned|deprecated|shut down|shut off|turned off|deleted|removed|discontinued)\b`)
	// reChangeFrom is a verb of change ahead of "from": "we upgraded from",
	// "the fee went up from"; "we drove from Leeds" changes nothing.
	reChangeFrom = regexp.MustCompile(`\b(?:upgrad|downgrad|switch|chang|mov|renam|migrat|went|gone|bump|rais|cut|increas|reduc|lower|rebrand|updat|swap|convert|transferr|relocat|push|postpon|reschedul|shift|slipp|jump|dropp|climb|fell|rose|grew|moved|trim|slash|hik|expand|shrank|shrunk|shrink|extend|shorten|lengthen|adjust|revis|knock|pared|scaled|upped|doubl|halv|tweak|amend|correct|reassign|transfer|promot|demot|rotat)\w*\s+(?:[\w'’-]+\s+){0,4}?from\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+)?`)
	// reOwnThing is a possessive and its noun closing a text: "'s
	// schedule".
	reOwnThing = regexp.MustCompile(`['’]s\s+[a-z]+$`)
	// reOnTo opens the new value after the old: "to", "into", "over to",
	// past a noun of the old one ("the PLAT project into CORE").
	reOnTo = regexp.MustCompile(`^(?:[a-z]+\s+)?(?:to|into|onto|over to)\s+(?:the\s+|a\s+|an\s+)?`)
	// rePeopleMoved are the verbs of change that move a person, and
	// reFirstPerson a clause about the speaker.
	rePeopleMoved = regexp.MustCompile(`^(?:reassign|transfer|promot|demot|rotat)`)
	reFirstPerson = regexp.MustCompile(`(?:^|\s)(?:i|i've|i’ve|i'm|i’m|i've been|we|we've|we’ve|we're|we’re|me|us|my|our)\s`)
	// reLeaves names the value a sentence leaves: "… instead of A".
	reLeaves     = regexp.MustCompile(`(?:\binstead of|\brather than|,\s*not|\(not|\snot)\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+)?`)
	reDayOfMonth = regexp.MustCompile(`(?i)(?:\bthe\s+)?\b\d{1,2}(?:st|nd|rd|th)\b`)
	reBareNumber = regexp.MustCompile(`\b\d[\d,]*(?:\.\d+)?\b`)
	// reAtOrg joins a holder to where they work: "Marcus Lee at
	// AssuredAv", "Jen from Acme".
	reAtOrg  = regexp.MustCompile(`^\s+(?:at|from)\s+(?:the\s+)?$`)
	reStepIn = regexp.MustCompile(`\s+(?:is|are|will be|'s|’s)\s+(?:now\s+)?(?:doing|handling|covering|catering|running|taking over|taking it|stepping in)\b|\s+(?:is|are|'s|’s)\s+(?:now\s+)?[a-z]+ing\s+(?:the|our|my|us|me)\b|\s+(?:stepped|steps|is stepping) in\b|\s+(?:started|starts|is starting|began) with us\b|\s+joined us\b|\s+(?:took|takes) over\b|\s+[a-z]+(?:es|s)\s+(?:(?:the|our|my)\s+)?\p{L}+\s+(?:now\b|from\s|starting\s)|\s+(?:has|have|got|gets|took|takes)\s+(?:the|our|my)\s+(?:team|class|group|kids|role|job|account|route|shift|slot)\b|\s+(?:is|['’]s)\s+(?:now\s+)?(?:our|my|the)\s+(?:new\s+)?(?:contact|rep|representative|person|lead|manager|owner|liaison)\b|\s+(?:has|have|['’]s got|['’]ve got)\s+(?:it|them)\s+now\b`)
)
