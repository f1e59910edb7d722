package extract

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// State is not a fact. A sentence states short-lived state when it says
// that something holds now and for a while only: "the build is red right
// now", "Alice is on call this week", "the API is down at the moment",
// "I'm in a meeting until 3". "Alice is the on-call lead for the payments
// team" and "our office is in Lisbon" are facts: nothing in them says the
// condition is passing.
//
// The rule set, applied to the opening sentence of a text, in order:
//
//  1. Refusals. A question, a hypothetical or conditional ("suppose",
//     "what if", "if", "might", "could"), a draft, hearsay ("I think", "it
//     looks like") or a past sentence ("used to", "yesterday", "was",
//     "were") states no present state.
//  2. The lease phrase, the first of these kinds found (the kind names how
//     Until is set; see the Lease* constants): "until <time, day or date>"
//     ("until 3", "until 3pm", "till noon", "until Monday", "until the end
//     of the week", "until Dec 3"; "until further notice" leases until
//     changed, "until the deploy finishes" until that event); "for <n>
//     minutes / hours / days / weeks" ("for the next two hours", "for half
//     an hour"); "for the rest of the day / week / month"; "today",
//     "tonight", "this morning / afternoon / evening", "all day"; "this
//     week", "this weekend", "all week"; "this month", "all month"; and the
//     present markers "right now", "at the moment", "at present", "as we
//     speak", "for now", "for the time being", "temporarily", which take
//     DefaultLease. "now" or "currently" alone are not lease phrases ("I'm
//     at 12 Elm Row now" is a change of address, "I currently live in
//     Berlin" a fact).
//  3. A future start outside the lease ("tomorrow", "next week", "on
//     Monday", "later", "soon", "starting …") makes the sentence a plan,
//     not state: "I'm off tomorrow" is not true now. "since …" is dropped
//     ("the API has been down since 9").
//  4. The sentence is read as subject + copula + complement: "is", "are",
//     "am", "'s", "'re", "'m", "has been", "remains", "stays", negated
//     forms ("isn't", "is not", "is no longer": Negated), and "will be" /
//     "'ll be" only with an "until" or "for <n> …" lease, which starts now.
//     A relayed claim ("Per the COO, …", "Ops says …") is read without its
//     frame, and Cited names whom it cites.
//     The subject is one to six words and does not open with a subordinator
//     ("when", "because", "there" …). Opening adverbs of the complement
//     ("currently", "still", "now", "temporarily", "back") are dropped.
//  5. The complement is a condition when it opens with one of the
//     transient conditions (see stateConditions): a system's outage or
//     health ("down", "offline", "degraded", "failing", "flaky",
//     "unreachable", "under maintenance", "back up"; not "down to 3" or
//     "up by 5%", which count; "red" / "green" /
//     "yellow" only when the subject is a build, pipeline, test run,
//     check, branch, job or dashboard); a person's presence or availability
//     ("in a meeting", "on a call", "busy", "away", "out of office", "on
//     leave", "off sick", "on vacation", "driving", "running late",
//     "working from home"); a rota ("on call", "on duty", "on pager"). A
//     condition must close the complement or be followed by a preposition
//     or a reason ("on call for payments", "down for maintenance", "red
//     because of a flaky test"), so "on-call lead" is not "on call".
//  6. The sentence is state when it has a lease phrase and a complement
//     that is not a date or time ("the launch is today" schedules an
//     event), not a choice ("we're going with Postgres for now", "the plan
//     is X for now") and, after "until <date>" or "until <event>", a
//     condition or a place ("submissions are accepted until Dec 3" and
//     "purchases are frozen until Q2" are dated rules, "I'm in Porto
//     until Dec 3" and "the build is red until the test is fixed" state); or when it has no lease phrase but its
//     complement is a condition: such state takes DefaultLease. Recurring
//     conditions ("every Sunday", "usually", "on Fridays") are facts.
//
// Until is computed in at's location: a day ends at midnight, "this
// morning" at noon, "this afternoon" at 18:00, a week at the start of
// Monday, a month at the start of its successor, "until <weekday>" or
// "until <date>" at the start of that day, and a bare hour ("until 3") is
// the first 3:00 or 15:00 after at. No lease is longer than MaxStateLease.
//
// Limits: English only; one sentence; pronoun subjects ("it's down right
// now") are returned as said, unresolved; "there is an outage" (no
// subject) and hedged state ("I think the API is down") are not claimed;
// an unlisted condition needs a lease phrase to count ("the API is slow"
// is not state, "the API is slow right now" is).

// DefaultLease is the lease of state whose sentence names no end: "the
// API is down at the moment", "the build is red".
const DefaultLease = 4 * time.Hour

// MaxStateLease caps every lease; it matches the assertions' default
// maximum lease, so a lease State computes is one assertState admits.
const MaxStateLease = 30 * 24 * time.Hour

// How StateClaim.Until was set.
const (
	LeaseDefault  = "default"       // no end said: at + DefaultLease
	LeaseUntil    = "until"         // "until 3pm", "until Monday"
	LeaseDuration = "duration"      // "for two hours"
	LeaseDay      = "day"           // "today", "this afternoon", "for the rest of the day"
	LeaseWeek     = "week"          // "this week", "this weekend"
	LeaseMonth    = "month"         // "this month"
	LeaseChanged  = "until-changed" // "until further notice": Until is zero
	LeaseEvent    = "until-event"   // "until the deploy finishes": Until is zero, Event names it
)

// How a sentence was judged state.
const (
	StateRuleLease     = "lease-phrase" // a lease phrase and a state complement
	StateRuleCondition = "condition"    // a transient condition, no lease phrase
)

// StateClaim is a sentence read as short-lived state. Asserted with
// assertState, its lease is UNTIL_TIME with expiresAt Until, except
// LeaseChanged (UNTIL_CHANGED) and LeaseEvent (UNTIL_EVENT with Event);
// Negated says the condition does not hold ("the API isn't down").
type StateClaim struct {
	Subject   string    // as said, without an opening "the": "build", "Alice", "I"
	Predicate string    // the kind of state: status, availability, on_call, location, activity or state
	Object    string    // the complement as said, without its lease phrase: "red", "on call", "in a meeting"
	Negated   bool      // "the API is not down right now"
	Cue       string    // what made it state: the lease phrase as said, else the condition
	Lease     string    // how Until was set: one of the Lease* constants
	Until     time.Time // when the state lapses; zero for LeaseChanged and LeaseEvent
	Event     string    // the event that ends a LeaseEvent lease, as said
	Cited     string    // whom the speaker relays ("the COO" in "Per the COO, …", "Ops says …"), or ""
	Rule      string    // StateRuleLease or StateRuleCondition
}

// maxStateSentence bounds the sentence State reads.
const maxStateSentence = 400

// State reads the opening sentence of text as short-lived state, judged at
// at (the time the sentence was said, on the caller's clock). It returns
// false when the sentence states a fact, or nothing. See the rule set
// above. State is deterministic: the same text and at give the same claim.
func State(text string, at time.Time) (StateClaim, bool) {
	s := strings.TrimSpace(text)
	if ss := splitSentences(s); len(ss) > 0 {
		s = ss[0]
	}
	s = strings.TrimSpace(strings.TrimRight(s, ".! "))
	if s == "" || len(s) > maxStateSentence {
		return StateClaim{}, false
	}
	// "as of today" says when a change took effect, not how long it
	// lasts: "The project is at risk as of today" is a fact's new value.
	s = strings.TrimSpace(dropStartMarks(s))
	s = dropReportedWhen(s) // "Herr Müller wrote this morning, …": when the news came
	n := padded(fold(s))
	if strings.Contains(s, "?") || stateRefusals.in(n) || modalMay(n) || draftStarts.startsWith(n) {
		return StateClaim{}, false
	}
	hasLease := leaseGate.in(n)
	if !hasLease && !conditionGate(n) {
		return StateClaim{}, false
	}
	c := StateClaim{}
	dated := false
	rest := s
	if l, ok := findLeaseIf(hasLease, s, at); ok && !eventTime(s, l.start) {
		c.Lease, c.Until, c.Event, c.Cue = l.kind, l.until, l.event, strings.TrimSpace(s[l.start:l.end])
		dated = l.dated || l.kind == LeaseEvent
		rest = s[:l.start] + " " + s[l.end:]
	}
	if strings.Contains(n, " since ") {
		rest = reSince.ReplaceAllString(rest, " ")
	}
	if stateFuture.in(padded(fold(rest))) {
		return StateClaim{}, false
	}
	rest = strings.Trim(strings.Join(strings.Fields(rest), " "), " ,;:—–-")
	rest, _ = stripLead(rest)
	rest = strings.Trim(rest, " ,;:—–-")
	if m := reRelayPer.FindStringSubmatchIndex(rest); m != nil {
		c.Cited, rest = rest[m[2]:m[3]], rest[m[1]:]
	} else if containsAny(fold(rest), relayVerbs) {
		if m := reRelaySay.FindStringSubmatchIndex(rest); m != nil && citable(rest[m[2]:m[3]]) {
			c.Cited, rest = rest[m[2]:m[3]], rest[m[1]:]
		}
	}
	subj, obj, future, negated, ok := copula(rest)
	if !ok {
		return StateClaim{}, false
	}
	if future && c.Lease != LeaseUntil && c.Lease != LeaseDuration && c.Lease != LeaseChanged && c.Lease != LeaseEvent {
		return StateClaim{}, false
	}
	obj, neg2 := stripStateAdverbs(obj)
	negated = negated || neg2
	if obj == "" || reTimeObject.MatchString(obj) || scheduleWords[strings.ToLower(firstWord(obj))] {
		return StateClaim{}, false
	}
	subjFold := strings.Fields(fold(subj))
	if i := strings.IndexAny(obj, ",;—–"); i > 0 {
		// A comma ends the complement: "on a call, back in ten".
		obj = obj[:i]
	}
	cond, condOK := matchCondition(subjFold, obj)
	switch {
	case c.Lease != "":
		if !condOK && (choiceObject(subjFold, obj) || dated && !placeObject(obj)) {
			// A choice, or a deadline ("submissions are accepted until
			// Dec 3", "purchases are frozen until Q2"): a fact with a
			// date or an end, not state.
			return StateClaim{}, false
		}
		c.Rule = StateRuleLease
	case condOK:
		c.Rule, c.Lease, c.Cue = StateRuleCondition, LeaseDefault, cond.phrase
	default:
		return StateClaim{}, false
	}
	if c.Lease == LeaseDefault {
		c.Until = at.Add(DefaultLease)
	}
	if !c.Until.IsZero() && c.Until.Sub(at) > MaxStateLease {
		c.Until = at.Add(MaxStateLease)
	}
	if !c.Until.IsZero() && !c.Until.After(at) {
		return StateClaim{}, false // "for 0 minutes"
	}
	c.Subject, c.Object, c.Negated = subj, cleanValue(obj), negated
	if strings.Trim(c.Object, " !.,;:-—–") == "" {
		return StateClaim{}, false
	}
	c.Predicate = "state"
	switch {
	case condOK:
		c.Predicate = cond.predicate
	case placeObject(obj):
		c.Predicate = "location"
	case strings.HasSuffix(firstWord(fold(obj)), "ing"):
		c.Predicate = "activity"
	}
	return c, true
}

var (
	// statePast marks a sentence about the past that pasts does not.
	statePast = phrases("yesterday|last night|last week|last month|earlier today|this past|was|were|wasn't|weren't|had been")
	// stateHabitual marks a recurring condition, which is a fact: "the
	// service is down for maintenance every Sunday".
	stateHabitual = phrases("every|each|usually|always|often|sometimes|typically|normally|generally|whenever|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends|weekdays|routinely|regularly")
	// stateRefusals holds every phrase that makes a sentence no state:
	// hypothetical, draft, hearsay, past or habitual. State reads a
	// fact's value on every write, so the sets are read in one pass.
	stateRefusals = union(hypoSentence, hypoClause, draftCues, hearsay, pasts, statePast, stateHabitual)
	// stateFuture marks a plan: state that starts later is not true now.
	stateFuture = phrases("tomorrow|next week|next month|next year|later|soon|starting|from monday|from tuesday|from wednesday|from thursday|from friday|from saturday|from sunday|on monday|on tuesday|on wednesday|on thursday|on friday|on saturday|on sunday|in two weeks|in a week|in a month|the day after")

	reSince = regexp.MustCompile(`(?i)\bsince\s+[^,;]+`)

	// reTimeObject is a complement that is a date or a time: an event's
	// schedule, not a state.
	reTimeObject = regexp.MustCompile(`(?i)^(?:(?:at|on|by|from|before|after|around|due|scheduled|set for|planned for)\s+\d|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m|p\.m|o'clock)|\d{1,2}:\d\d|\d{4}-\d\d|\d{1,2}/\d{1,2})|^(?:(?:at|on|by|from|before|after|around|due|scheduled|set for|planned for)\s+)?(?:noon\b|midnight\b|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|(?:` + monthNames + `)\b|today\b|tonight\b|tomorrow\b|this (?:week|month|year)\b|next\b)`)

	// rePlaceObject is a complement that places its subject.
	rePlaceObject = regexp.MustCompile(`(?i)^(?:(?:in|at)\b|on site|onsite|based in|staying (?:in|at)|working from|home\b|remote\b|abroad\b|away\b|out of town\b)`)
	// reNotPlace is "in"/"at" that places nothing: "in effect", "at risk".
	reNotPlace = regexp.MustCompile(`(?i)^(?:in|at)\s+(?:effect|force|place|progress|review|stock|use|charge|scope|draft|beta|production|preview|front|favou?r|line|time|least|most|full|general|principle|theory|risk|capacity|stake|odds|issue)\b`)

	// choiceStarts open a complement that chooses ("going with X").
	choiceStarts = phrases("going with|sticking with|going for|picking|choosing|switching to|moving to|taking over|handing|using|the plan|the pick|the choice|our pick|our choice")
)

// reStartMark says when a change took effect: "as of this week",
// "starting tomorrow", "effective Monday". ("As of now" and "from Monday
// to Wednesday" say how long something holds, and stay.)
var reStartMark = regexp.MustCompile(`(?i),?\s*\b(?:(?:as of|starting|effective|from)\s+(?:today|this morning|this afternoon|immediately)|(?:as of|starting|effective)\s+(?:tomorrow|yesterday|(?:this|next|last)\s+(?:week|month|year|quarter|term|season|sprint|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:` + monthNames + `)\s+\d{1,2}(?:st|nd|rd|th)?))\b`)

// startMarkCues are the words every match of reStartMark begins with.
var startMarkCues = []string{"as of", "starting", "effective", "from"}

// dropStartMarks takes reStartMark's matches out of s. A fact's value is
// judged on every write and seldom holds a start mark, so an ASCII
// sentence holding none of startMarkCues is returned as it is, without
// running the expression; any other sentence goes through it (its case
// folding matches "ſ" to "s", which the cues' ASCII test would miss).
func dropStartMarks(s string) string {
	if asciiOnly(s) && !hasStartMarkCue(s) {
		return s
	}
	return reStartMark.ReplaceAllString(s, "")
}

// asciiOnly reports whether s holds only ASCII bytes.
func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// startMarkFirst marks the bytes a cue of startMarkCues begins with, in
// either case: a cue is looked for only where one of them stands.
var startMarkFirst = func() (t [256]bool) {
	for _, w := range startMarkCues {
		t[w[0]], t[w[0]-'a'+'A'] = true, true
	}
	return t
}()

// hasStartMarkCue reports whether s holds one of startMarkCues, ASCII
// letters compared without case, without lowering s.
func hasStartMarkCue(s string) bool {
	for i := 0; i < len(s); i++ {
		if !startMarkFirst[s[i]] {
			continue
		}
		for _, w := range startMarkCues {
			if len(s)-i >= len(w) && hasPrefixASCIIFold(s[i:], w) {
				return true
			}
		}
	}
	return false
}

// hasPrefixASCIIFold reports whether s begins with lower-case ASCII w,
// ASCII letters compared without case.
func hasPrefixASCIIFold(s, w string) bool {
	for j := 0; j < len(w); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

// leaseGate holds a word of every lease phrase: a sentence without one
// has none, and the lease expressions are not run on it.
var leaseGate = phrases("until|till|til|'til|minute|minutes|min|mins|hour|hours|hr|hrs|h|day|days|week|weeks|weekend|month|today|tonight|morning|afternoon|evening|right now|at the moment|at present|as we speak|for now|time being|at the minute|as of now|as of right now|temporarily|momentarily")

// conditionGate reports a sentence that may state a condition: it has a
// copula and a word that opens a condition.
func conditionGate(n string) bool {
	copula, cond := false, false
	for _, w := range strings.Fields(n) {
		switch {
		case w == "is" || w == "are" || w == "am" || w == "been" || w == "be" || w == "remains" || w == "remain" ||
			w == "stays" || w == "stay" || w == "isn't" || w == "aren't" || w == "ain't" ||
			strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "'re") || strings.HasSuffix(w, "'m"):
			copula = true
		case stateConditions[w] != nil:
			cond = true
		}
		if copula && cond {
			return true
		}
	}
	return false
}

// scheduleWords open a complement that schedules ("due this week",
// "scheduled for today"): a date, not a state.
var scheduleWords = map[string]bool{"due": true, "scheduled": true, "planned": true, "expected": true, "set": true, "booked": true, "slated": true}

// placeObject reports a complement that places its subject.
func placeObject(obj string) bool {
	return rePlaceObject.MatchString(obj) && !reNotPlace.MatchString(obj)
}

// lease is a lease phrase found in a sentence.
type lease struct {
	start, end int // the phrase's span in the sentence
	kind       string
	until      time.Time
	event      string
	dated      bool // "until <date>": a deadline unless the complement is a condition or a place
}

const numAlt = `\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a couple|couple of|a few|few|half an?`

var (
	reUntil     = regexp.MustCompile(`(?i)\b(?:up\s+)?(?:until|till|til|'til|’til)\s+([^,;]+)`)
	reFor       = regexp.MustCompile(`(?i)\bfor\s+(?:the\s+next\s+|another\s+|the\s+)?(` + numAlt + `)\s+(minutes?|mins?|hours?|hrs?|h|days?|weeks?)\b`)
	reRestOf    = regexp.MustCompile(`(?i)\b(?:for\s+)?the\s+rest\s+of\s+(?:the\s+|this\s+)?(day|today|morning|afternoon|evening|week|weekend|month)\b|\b(?:for\s+the|all)\s+(day|week|weekend|month|morning|afternoon|evening)\b`)
	reDayPart   = regexp.MustCompile(`(?i)\b(?:for\s+)?(?:today|tonight|this\s+(morning|afternoon|evening))\b`)
	reWeekMonth = regexp.MustCompile(`(?i)\bthis\s+(week|weekend|month)\b`)
	rePresent   = regexp.MustCompile(`(?i)\b(?:right\s+now|at\s+the\s+moment|at\s+present|as\s+we\s+speak|for\s+now|for\s+the\s+time\s+being|at\s+the\s+minute|as\s+of\s+(?:right\s+)?now|temporarily|momentarily)\b`)

	reClock    = regexp.MustCompile(`(?i)^(\d{1,2})(?:[:.h](\d\d))?\s*(am|pm|a\.m\.?|p\.m\.?|o'clock|h)?\b`)
	reWeekday  = regexp.MustCompile(`(?i)^(?:next\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b`)
	reEndOf    = regexp.MustCompile(`(?i)^(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(day|week|month)\b|^(eod|cob|close\s+of\s+business)\b`)
	reDayWords = regexp.MustCompile(`(?i)^(?:noon|midday|midnight|tonight|this\s+evening|tomorrow|the\s+weekend|next\s+week|next\s+month|lunch|lunchtime|further\s+notice)\b`)
)

// findLeaseIf is findLease when gate is true.
func findLeaseIf(gate bool, s string, at time.Time) (lease, bool) {
	if !gate {
		return lease{}, false
	}
	return findLease(s, at)
}

// findLease returns the lease phrase of s, the first kind found in the
// order of the rule set.
func findLease(s string, at time.Time) (lease, bool) {
	if m := reUntil.FindStringSubmatchIndex(s); m != nil {
		l := untilLease(s[m[2]:m[3]], at)
		l.start = m[0]
		l.end = m[2] + l.end
		return l, true
	}
	if m := reFor.FindStringSubmatchIndex(s); m != nil {
		d := unitDuration(fold(s[m[4]:m[5]]))
		n := countOf(fold(s[m[2]:m[3]]))
		span := n * float64(d)
		if span > float64(MaxStateLease) {
			span = float64(MaxStateLease)
		}
		return lease{start: m[0], end: m[1], kind: LeaseDuration, until: at.Add(time.Duration(span))}, true
	}
	if m := reRestOf.FindStringSubmatchIndex(s); m != nil {
		unit := ""
		if m[2] >= 0 {
			unit = fold(s[m[2]:m[3]])
		} else {
			unit = fold(s[m[4]:m[5]])
		}
		kind, until := periodEnd(unit, at)
		return lease{start: m[0], end: m[1], kind: kind, until: until}, true
	}
	if m := reDayPart.FindStringSubmatchIndex(s); m != nil {
		unit := "day"
		if m[2] >= 0 {
			unit = fold(s[m[2]:m[3]])
		}
		kind, until := periodEnd(unit, at)
		return lease{start: m[0], end: m[1], kind: kind, until: until}, true
	}
	if m := reWeekMonth.FindStringSubmatchIndex(s); m != nil {
		kind, until := periodEnd(fold(s[m[2]:m[3]]), at)
		return lease{start: m[0], end: m[1], kind: kind, until: until}, true
	}
	if m := rePresent.FindStringIndex(s); m != nil {
		return lease{start: m[0], end: m[1], kind: LeaseDefault}, true
	}
	return lease{}, false
}

// eventTime reports a lease phrase said in a later clause, after a verb
// in the past: "Q1 roadmap's approved, the VP signed off this morning"
// says when the sign-off was, not how long the approval lasts.
func eventTime(s string, start int) bool {
	i := strings.LastIndexAny(s[:start], ",;—–")
	if i < 0 {
		return false
	}
	return slices.ContainsFunc(strings.Fields(fold(s[i:start])), func(w string) bool { return pastVerb(strings.Trim(w, ",;—–")) })
}

// untilLease reads what follows "until"; end is how much of v it used.
func untilLease(v string, at time.Time) lease {
	v = strings.TrimSpace(v)
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location()) }
	switch {
	case reEndOf.MatchString(v):
		m := reEndOf.FindStringSubmatch(v)
		unit := fold(m[1])
		if unit == "" {
			unit = "day"
		}
		kind, until := periodEnd(unit, at)
		return lease{end: len(m[0]), kind: kind, until: until}
	case reDayWords.MatchString(v):
		w := fold(reDayWords.FindString(v))
		l := lease{end: len(w), kind: LeaseUntil}
		switch strings.Join(strings.Fields(w), " ") {
		case "noon", "midday", "lunch", "lunchtime":
			l.until = nextClock(at, 12, 0, false)
		case "midnight", "tonight", "this evening", "tomorrow":
			l.until = day(at).AddDate(0, 0, 1)
		case "the weekend":
			l.until = weekStart(at).AddDate(0, 0, 5)
		case "next week":
			l.until = weekStart(at).AddDate(0, 0, 7)
		case "next month":
			l.until = time.Date(at.Year(), at.Month()+1, 1, 0, 0, 0, 0, at.Location())
		case "further notice":
			l.kind = LeaseChanged
		}
		return l
	case reClock.MatchString(v) && !reDateLike.MatchString(v):
		m := reClock.FindStringSubmatch(v)
		h, _ := strconv.Atoi(m[1])
		mins := 0
		if m[2] != "" {
			mins, _ = strconv.Atoi(m[2])
		}
		suf := strings.TrimRight(strings.ReplaceAll(fold(m[3]), ".", ""), " ")
		switch {
		case h > 23 || mins > 59:
		case suf == "pm" && h < 12:
			return lease{end: len(m[0]), kind: LeaseUntil, until: nextClock(at, h+12, mins, true)}
		case suf == "am" && h == 12:
			return lease{end: len(m[0]), kind: LeaseUntil, until: nextClock(at, 0, mins, true)}
		case suf == "am" || suf == "pm" || h > 12 || m[2] != "" && (suf == "h"):
			return lease{end: len(m[0]), kind: LeaseUntil, until: nextClock(at, h, mins, true)}
		default:
			return lease{end: len(m[0]), kind: LeaseUntil, until: nextClock(at, h, mins, false)}
		}
	case reWeekday.MatchString(v):
		m := reWeekday.FindStringSubmatch(v)
		wd := weekdayOf(fold(m[1]))
		d := day(at).AddDate(0, 0, 1)
		for d.Weekday() != wd {
			d = d.AddDate(0, 0, 1)
		}
		return lease{end: len(m[0]), kind: LeaseUntil, until: d}
	}
	if hasDateCue(v) {
		if r, err := dateParser.Parse(v, at); err == nil && r != nil && r.Index == 0 {
			d := day(r.Time.In(at.Location()))
			for i := 0; i < 2 && !d.After(at); i++ {
				d = d.AddDate(1, 0, 0)
			}
			return lease{end: len(r.Text), kind: LeaseUntil, until: d, dated: true}
		}
	}
	return lease{end: len(v), kind: LeaseEvent, event: cleanValue(v)}
}

// reDateLike is a number that is a date, not a time: "3/4", "3rd".
var reDateLike = regexp.MustCompile(`(?i)^\d{1,2}(?:/\d|st\b|nd\b|rd\b|th\b|\s+(?:` + monthNames + `)\b)`)

// nextClock is the first h:m after at; when exact is false an hour of 1
// to 11 may also be read in the afternoon (h+12), whichever comes first.
func nextClock(at time.Time, h, m int, exact bool) time.Time {
	base := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	cands := []time.Time{base.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)}
	if !exact && h >= 1 && h < 12 {
		cands = append(cands, base.Add(time.Duration(h+12)*time.Hour+time.Duration(m)*time.Minute))
	}
	for day := 0; day < 2; day++ {
		for _, c := range cands {
			if c = c.AddDate(0, 0, day); c.After(at) {
				return c
			}
		}
	}
	return cands[0].AddDate(0, 0, 1)
}

// weekStart is the start of at's ISO week (Monday 00:00).
func weekStart(at time.Time) time.Time {
	d := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	back := (int(d.Weekday()) + 6) % 7
	return d.AddDate(0, 0, -back)
}

// periodEnd is the end of the period unit that contains at.
func periodEnd(unit string, at time.Time) (string, time.Time) {
	day := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	endOfDay := day.AddDate(0, 0, 1)
	switch unit {
	case "morning":
		if noon := day.Add(12 * time.Hour); noon.After(at) {
			return LeaseDay, noon
		}
		return LeaseDay, endOfDay
	case "afternoon":
		if six := day.Add(18 * time.Hour); six.After(at) {
			return LeaseDay, six
		}
		return LeaseDay, endOfDay
	case "week", "weekend":
		return LeaseWeek, weekStart(at).AddDate(0, 0, 7)
	case "month":
		return LeaseMonth, time.Date(at.Year(), at.Month()+1, 1, 0, 0, 0, 0, at.Location())
	}
	return LeaseDay, endOfDay // day, today, evening, tonight
}

func unitDuration(u string) time.Duration {
	switch {
	case strings.HasPrefix(u, "m"):
		return time.Minute
	case strings.HasPrefix(u, "d"):
		return 24 * time.Hour
	case strings.HasPrefix(u, "w"):
		return 7 * 24 * time.Hour
	}
	return time.Hour
}

// CountWord reports a number said in words ("two", "a dozen").
func CountWord(w string) bool {
	_, ok := countWords[strings.ToLower(strings.TrimSpace(w))]
	return ok
}

var countWords = map[string]float64{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	"a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3, "few": 3, "half a": 0.5, "half an": 0.5,
}

func countOf(s string) float64 {
	s = strings.Join(strings.Fields(s), " ")
	if n, err := strconv.Atoi(s); err == nil {
		return float64(n)
	}
	return countWords[s]
}

func weekdayOf(w string) time.Weekday {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.HasPrefix(strings.ToLower(d.String()), w[:3]) {
			return d
		}
	}
	return time.Monday
}

// subordinators open a clause that is not a main subject.
var subordinators = map[string]bool{
	"if": true, "when": true, "while": true, "because": true, "after": true, "before": true,
	"since": true, "once": true, "although": true, "though": true, "whether": true,
	"unless": true, "where": true, "what": true, "who": true, "how": true, "there": true,
	"here": true, "which": true, "why": true,
}

// contractedSubjects take "'s" as "is".
var contractedSubjects = map[string]bool{"it": true, "he": true, "she": true, "everything": true, "everyone": true, "nobody": true, "someone": true, "who": true}

// copula cuts s into subject and complement at its copula.
func copula(s string) (subj, obj string, future, negated, ok bool) {
	toks := strings.Fields(s)
	lim := min(len(toks), 8)
	for i := 0; i < lim; i++ {
		w := strings.Trim(fold(toks[i]), ",;:\"()")
		next := ""
		if i+1 < len(toks) {
			next = strings.Trim(fold(toks[i+1]), ",;:\"()")
		}
		rest := func(k int) string { return strings.Join(toks[min(k, len(toks)):], " ") }
		subjBefore := func(k int, last string) (string, bool) {
			ws := append(append([]string{}, toks[:k]...), last)
			if last == "" {
				ws = ws[:len(ws)-1]
			}
			return stateSubject(ws)
		}
		switch {
		case w == "is" || w == "are" || w == "am" || w == "remains" || w == "remain" || w == "stays" || w == "stay":
			subj, ok = subjBefore(i, "")
			return subj, rest(i + 1), false, false, ok
		case w == "isn't" || w == "aren't" || w == "ain't":
			subj, ok = subjBefore(i, "")
			return subj, rest(i + 1), false, true, ok
		case (w == "has" || w == "have") && next == "been":
			subj, ok = subjBefore(i, "")
			return subj, rest(i + 2), false, false, ok
		case (w == "hasn't" || w == "haven't") && next == "been":
			subj, ok = subjBefore(i, "")
			return subj, rest(i + 2), false, true, ok
		case w == "will" && next == "be":
			subj, ok = subjBefore(i, "")
			return subj, rest(i + 2), true, false, ok
		case w == "won't" && next == "be":
			subj, ok = subjBefore(i, "")
			return subj, rest(i + 2), true, true, ok
		case w == "was" || w == "were":
			return "", "", false, false, false
		}
		root, suf, cut := cutContraction(toks[i])
		if !cut {
			continue
		}
		switch suf {
		case "m", "re":
			subj, ok = subjBefore(i, root)
			return subj, rest(i + 1), false, false, ok
		case "ve":
			if next == "been" {
				subj, ok = subjBefore(i, root)
				return subj, rest(i + 2), false, false, ok
			}
		case "ll":
			if next == "be" {
				subj, ok = subjBefore(i, root)
				return subj, rest(i + 2), true, false, ok
			}
		case "s":
			if next == "been" || contractedSubjects[fold(root)] || !laterCopula(toks[i+1:]) {
				k := i + 1
				if next == "been" {
					k++
				}
				subj, ok = subjBefore(i, root)
				return subj, rest(k), false, false, ok
			}
		}
	}
	return "", "", false, false, false
}

// cutContraction splits "I'm" into "I" and "m".
func cutContraction(tok string) (root, suf string, ok bool) {
	t := strings.Trim(tok, ",;:\"()")
	t = strings.ReplaceAll(t, "’", "'")
	i := strings.LastIndexByte(t, '\'')
	if i <= 0 {
		return "", "", false
	}
	suf = strings.ToLower(t[i+1:])
	switch suf {
	case "m", "re", "s", "ve", "ll":
		return t[:i], suf, true
	}
	return "", "", false
}

// laterCopula reports a plain copula in the next few words: "Alice's
// build is red" has one, so its "'s" is a possessive.
func laterCopula(toks []string) bool {
	for i, t := range toks {
		if i >= 6 {
			break
		}
		switch strings.Trim(fold(t), ",;:") {
		case "is", "are", "isn't", "aren't", "was", "were", "has", "have":
			return true
		}
	}
	return false
}

// stateSubject checks and cleans a subject: one to six words, no
// subordinator, no opening "the".
func stateSubject(ws []string) (string, bool) {
	if len(ws) == 0 || len(ws) > 6 {
		return "", false
	}
	first := strings.Trim(fold(ws[0]), ",;:\"()")
	if subordinators[first] {
		return "", false
	}
	if first == "the" && len(ws) > 1 {
		ws = ws[1:]
	}
	subj := strings.Trim(strings.Join(ws, " "), ",;:\"() ")
	if strings.EqualFold(subj, "i") {
		subj = "I"
	}
	return subj, subj != ""
}

// stateAdverbs open a complement without changing it.
var stateAdverbs = map[string]bool{
	"currently": true, "still": true, "now": true, "temporarily": true, "just": true,
	"all": true, "also": true, "officially": true, "already": true, "back": true,
	"again": true, "completely": true, "totally": true, "fully": true, "actually": true,
	"basically": true, "literally": true, "kinda": true, "pretty": true, "super": true,
}

// stripStateAdverbs drops opening adverbs and reads a negation.
func stripStateAdverbs(obj string) (string, bool) {
	neg := false
	toks := strings.Fields(obj)
	k := 0
	for k < len(toks) {
		w := strings.Trim(fold(toks[k]), ",;:")
		switch {
		case w == "back" && k+1 < len(toks) && strings.Trim(fold(toks[k+1]), ",;:.") == "up":
			// "back up" is a condition: keep it.
		case stateAdverbs[w]:
			k++
			continue
		case w == "not" || w == "never":
			neg = true
			k++
			continue
		case w == "no" && k+1 < len(toks) && fold(toks[k+1]) == "longer":
			neg = true
			k += 2
			continue
		}
		break
	}
	return strings.Join(toks[k:], " "), neg
}

// choiceObject reports a complement that chooses, or a subject that names
// a choice ("the plan is X for now").
func choiceObject(subj []string, obj string) bool {
	if len(subj) > 0 && choiceHeads[subj[len(subj)-1]] {
		return true
	}
	return choiceStarts.startsWith(padded(fold(obj)))
}

// condition is a transient condition of stateConditions.
type condition struct {
	phrase    string
	predicate string
}

// stateConditions are the complements that are short-lived by nature,
// with the predicate they state. Matched as whole words at the start of
// the complement (see matchCondition).
var stateConditions = func() map[string][]condition {
	table := []struct{ predicate, phrases string }{
		{"status", "down|offline|online|unreachable|unavailable|degraded|failing|flaky|broken|back up|up|up and running|up again|out|under maintenance|in maintenance|in maintenance mode|on fire|overloaded|having issues|having problems|acting up|restarting|rebooting|deploying|rolling back|being deployed|in an outage|experiencing an outage|experiencing issues|erroring|crashing|timing out|red|green|yellow|amber|passing"},
		{"availability", "busy|away|afk|ooo|out of office|out of the office|in a meeting|in meetings|in an interview|in a call|on a call|on the phone|on a flight|on a plane|on the train|in transit|on the road|on my way|on his way|on her way|on their way|on our way|on the way|en route|off sick|out sick|sick|ill|unwell|on leave|on sick leave|on parental leave|on vacation|on holiday|on holidays|on pto|on break|on a break|at lunch|out to lunch|on lunch|asleep|heads-down|heads down|running late|late|stuck in traffic|at the doctor|at the dentist|at the gym|at home|in the office|at the office|working from home|wfh|working remotely"},
		{"on_call", "on call|on-call|on duty|on pager|on pager duty|on the pager|holding the pager|on rota"},
		{"activity", "driving|commuting|travelling|traveling|flying|sleeping|presenting|debugging|investigating|firefighting"},
	}
	out := map[string][]condition{}
	for _, row := range table {
		for _, p := range strings.Split(row.phrases, "|") {
			first, _, _ := strings.Cut(p, " ")
			out[first] = append(out[first], condition{phrase: p, predicate: row.predicate})
		}
	}
	return out
}()

// exactConditions must be the whole complement: "up", "out",
// "late" and the places open many other complements ("up 5%", "out of
// stock", "in the office park").
var exactConditions = map[string]bool{
	"up": true, "out": true, "late": true, "at home": true, "in the office": true,
	"at the office": true, "ill": true, "sick": true, "passing": true, "broken": true,
}

// colourConditions are health only for a build-like subject.
var colourConditions = map[string]bool{"red": true, "green": true, "yellow": true, "amber": true, "passing": true}

// buildSubjects are the subjects a colour describes the health of.
var buildSubjects = map[string]bool{
	"build": true, "builds": true, "ci": true, "pipeline": true, "pipelines": true, "test": true,
	"tests": true, "suite": true, "check": true, "checks": true, "main": true, "master": true,
	"trunk": true, "branch": true, "job": true, "jobs": true, "dashboard": true, "deploy": true,
	"deployment": true, "release": true, "status": true, "monitor": true, "monitoring": true, "alert": true,
	"alerts": true, "health": true, "cluster": true, "nightly": true,
}

// conditionTail may follow a condition: a preposition, a reason, a
// conjunction.
var conditionTail = map[string]bool{
	"for": true, "at": true, "in": true, "on": true, "with": true, "from": true, "over": true,
	"during": true, "since": true, "until": true, "till": true, "due": true, "because": true,
	"after": true, "so": true, "and": true, "but": true, "again": true, "too": true, "as": true,
	"to": true, "across": true, "behind": true, "by": true, "near": true, "around": true,
	"while": true, "of": true, "everywhere": true, "now": true, "-": true, "—": true,
}

// countTail are conditions that "to" or "by" make a count: "down to 3
// candidates", "up by 5%".
var countTail = map[string]bool{"down": true, "up": true}

// matchCondition finds the longest transient condition opening obj.
func matchCondition(subj []string, obj string) (condition, bool) {
	ws := strings.Fields(padded(fold(obj)))
	if len(ws) == 0 {
		return condition{}, false
	}
	var best condition
	bestLen := 0
	for _, c := range stateConditions[ws[0]] {
		cw := strings.Fields(c.phrase)
		if len(cw) > len(ws) || len(cw) <= bestLen || strings.Join(ws[:len(cw)], " ") != c.phrase {
			continue
		}
		if exactConditions[c.phrase] && len(cw) != len(ws) {
			continue
		}
		if len(cw) < len(ws) && (!conditionTail[ws[len(cw)]] || countTail[c.phrase] && (ws[len(cw)] == "to" || ws[len(cw)] == "by")) {
			continue
		}
		if colourConditions[c.phrase] && !anyIn(subj, buildSubjects) {
			continue
		}
		best, bestLen = c, len(cw)
	}
	return best, bestLen > 0
}

func anyIn(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		w = strings.TrimSuffix(strings.Trim(w, ",;:"), "'s")
		if set[w] {
			return true
		}
	}
	return false
}
