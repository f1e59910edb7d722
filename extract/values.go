package extract

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/olebedev/when"
	"github.com/olebedev/when/rules"
	"github.com/olebedev/when/rules/common"
	"github.com/olebedev/when/rules/en"
)

// Typed value readers. Each reads a value from the start of the text after
// a rule's verb and returns it as said (a substring), or false.

const (
	numWords = `(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a hundred|hundred)(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))?`
	numPat   = `(?:\d[\d,]*(?:\.\d+)?|` + numWords + `)`
	moneyPat = `(?:\d+(?:\.\d+)?\s?%|[$€£¥]\s?\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?(?:k|K|m|M|bn|million|billion|thousand)\b)?|\d(?:[\d,]*\d)?(?:\.\d+)?\s?(?:k|K|m|M)?\s?(?:dollars|euros|eur|EUR|usd|USD|pounds|GBP|gbp|bucks|CHF|€|£)\b|\d(?:[\d,]*\d)?(?:\.\d+)?\s?(?:k|K)\b)`
	// word is one capitalised word (a closing "+" is its own: "Disney+");
	// particles may join two of them. A name may open in lower case
	// before its capital ("memoQ", "iPhone", "eBay"): its whole word is
	// the name, not the capital inside it.
	capWord  = `\p{Lu}[\p{L}\p{M}\p{N}'’.&-]*\+?`
	nameSeq  = `\p{Ll}*` + capWord + `(?:\s+(?:(?:de|da|do|del|della|der|den|van|von|la|le|du|des|am|upon|of|y|e|&)\s+)?(?:` + capWord + `|\d+\p{L}?))*` // "Paws & Claws Vet"
	emailPat = `[\p{L}\d._%+-]+@[\p{L}\d.-]+\.\p{L}{2,}`
	phonePat = `\+?\(?\d[\d ().-]{5,}\d`
)

var (
	reLeadFiller  = regexp.MustCompile(`(?i)^(?:about|around|roughly|approximately|approx\.?|only|just|exactly|up to|at most|at least|under|over|now|officially|finally|actually|also|still|to|the|a|an)\s+`)
	reMoney       = regexp.MustCompile(`^` + moneyPat)
	reNum         = regexp.MustCompile(`(?i)^` + numPat + `\b`)
	reNumWords    = regexp.MustCompile(`(?i)^` + numPat + `\s+(?:` + unitWords + `)\b(?:\s+(?:per|a|an|each)\s+(?:second|minute|hour|day|week|month|year|person|head|user|seat|night|request))?`)
	reNumUnit     = regexp.MustCompile(`^\d[\d,]*(?:\.\d+)?(?:%|[a-zA-Z]{1,3}\b|\s(?:GB|MB|TB|KB|GiB|MiB|TiB|ms|mg|kg|km|mph|rps|qps)\b)`)
	reName        = regexp.MustCompile(`^(?:[Tt]he\s+)?(` + nameSeq + `)`)
	reTeam        = regexp.MustCompile(`(?i)^(?:the\s+)?((?:[\p{L}-]+\s+){0,2}team)\b`)
	reAddress     = regexp.MustCompile(`^(\d+[A-Za-z]?(?:\s+(?:` + capWord + `|(?:de|la|du|des|del|der|van|von|rue|calle|via|avenida|rua)\b))+)`)
	reEmail       = regexp.MustCompile(emailPat)
	rePhone       = regexp.MustCompile(phonePat)
	reFlight      = regexp.MustCompile(`\b([A-Z]{2}|[A-Z]\d|\d[A-Z])\s?(\d{2,4})\b`)
	reChoiceStop  = regexp.MustCompile(`(?i)[,;:!?()"“”]|\.(?:\s|$)|\s(?:for|as|because|since|instead|now|from now on|going forward|this time|after all|then|again|too|which|who|so|on|at|in|by|next|this|starting|effective|over|rather|with|from|and then|until|if|when|though|anyway|here|today|tomorrow|lately|recently|these days|nowadays|down the road|up the road|down the street|up the street|around the corner|nearby|near here|near work|near home|near the)\b`)
	reStatus      = regexp.MustCompile(`(?i)^(?:officially |finally |fully |now |all |completely |totally |just )*(` + statusWords + `)\b`)
	reISODate     = regexp.MustCompile(`^(\d{4})-(\d\d)-(\d\d)\b`)
	reBareOrdinal = regexp.MustCompile(`(?i)^((?:(?:on|by|for|until|till)\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th))(?:,?\s+(?:now|same (?:time|hour|slot|place)|instead|again|of (?:each|every|the) month|every month|each month|(?:from|starting|as of)\s+(?:now on|now|next month|this month|next cycle|the next cycle|january|february|march|april|may|june|july|august|september|october|november|december)))?(?:,\s.*)?\s*[.!]?$`)
	reYearDate    = regexp.MustCompile(`(?i)^(?:(?:on|by|for|until|the)\s+)*(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?,?\s+)?(?:(` + monthNames + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(` + monthNames + `)\.?,?\s+(\d{4}))\b`)
	reTimeOfDay   = regexp.MustCompile(`(?i)\d\s?(?:am|pm)\b|\d:\d\d|\bnoon\b|\bmidnight\b|o'clock|\btonight\b`)
	reBackwards   = regexp.MustCompile(`(?i)\b(?:last|past|ago|yesterday|previous)\b`)
	reHasYear     = regexp.MustCompile(`\b(?:19|20)\d\d\b`)
	// reAmbiguousDate is a date-library match that is also a common word.
	reAmbiguousDate = regexp.MustCompile(`^(?:sat|sun|mon|wed|may|march|jan|dec|second|fri)$`)
)

// statusWords are the values a status takes.
const statusWords = `done|finished|complete|completed|live|shipped|delivered|arrived|dispatched|out for delivery|in transit|returned|refunded|merged|deployed|released|launched|blocked|on hold|cancell?ed|called off|paused|in progress|underway|under way|in review|approved|resolved|closed|fixed|ready|booked|confirmed|signed|submitted|paid|overdue|postponed|delayed|finali[sz]ed|wrapped up|sorted|up and running|broken|on track|behind schedule|at risk|sold out|reopened|rolled back|reverted|started|out of stock|in stock|available|sent|green|red|down|off|enabled|disabled|active|inactive|archived|deprecated|frozen|unfrozen`

const monthNames = `january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec`

var monthNumber = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
	"july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
	"sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

// dateParser is the maintained date-phrase library, English and common
// (dd/mm/yyyy) rules. Options are set explicitly: Parse writes the package
// default into a parser whose options are nil, which would race.
var dateParser = func() *when.Parser {
	p := when.New(&rules.Options{Distance: 5, MatchByOrder: true})
	p.Add(en.All...)
	p.Add(common.All...)
	return p
}()

// cleanValue trims spaces, quotes and trailing punctuation.
func cleanValue(v string) string {
	v = strings.TrimSpace(v)
	v = strings.TrimRight(v, " ,;:!?)\"”")
	if !reAbbrevEnd.MatchString(v) {
		v = strings.TrimRight(v, " .,;:!?)\"”")
	}
	v = strings.TrimLeft(v, " \"“(")
	if m := reTrailTime.FindStringIndex(v); m != nil && m[0] > 0 {
		// "Postgres 16 last night": when it changed is not the value.
		v = strings.TrimRight(v[:m[0]], " ,")
	}
	return strings.TrimSpace(v)
}

// reAbbrevEnd is a name ending in an abbreviation whose full stop is the
// name's: "Spotless Co.", "Acme Inc.".
var reAbbrevEnd = regexp.MustCompile(`\b\p{Lu}[\p{L}&'’-]*\s+(?:Co|Inc|Ltd|Corp|Bros|Jr|Sr|LLC|L\.L\.C|Pty|PLC)\.$`)

// reTrailTime is a time adverbial closing a value.
var reTrailTime = regexp.MustCompile(`(?i)\s+(?:last night|yesterday|this morning|this afternoon|this evening|earlier today|just now|recently|as of today|from now on|going forward|effective immediately|(?:starting|from|beginning|as of)\s+(?:next|this)\s+(?:sprint|week|month|cycle|quarter|year|term|season))$`)

// stripFiller removes leading fillers ("about", "the", "now").
func stripFiller(v string) string {
	for {
		loc := reLeadFiller.FindStringIndex(v)
		if loc == nil {
			return v
		}
		v = v[loc[1]:]
	}
}

func takeMoney(v string) (string, bool) {
	v = stripFiller(strings.TrimSpace(v))
	m := reMoney.FindString(v)
	return cleanValue(m), m != ""
}

func takeNum(v string) (string, bool) {
	v = stripFiller(strings.TrimSpace(v))
	if reCompoundModifier.MatchString(v) {
		return "", false // "the 4th-floor boardroom", "a 3-bedroom": a modifier of the noun, not a number of it
	}
	if m := reMoney.FindString(v); m != "" {
		return cleanValue(m), true
	}
	if m := reNumUnit.FindString(v); m != "" {
		return m, true
	}
	if m := reNumWords.FindString(v); m != "" {
		return m, true // "3 days", "300 requests per minute": the unit is part of the value
	}
	loc := reNum.FindStringIndex(v)
	if loc == nil {
		return "", false
	}
	if rest := v[loc[1]:]; len(rest) > 1 && (rest[0] == ':' || rest[0] == '-') && rest[1] >= '0' && rest[1] <= '9' {
		return "", false // "4:15" is a time and "8-6" a range, not 4 or 8
	}
	m := strings.TrimRight(v[loc[0]:loc[1]], ",.")
	return m, m != ""
}

// reCompoundModifier is a number that opens a modifier of the noun after
// it: "4th-floor", "3-bedroom".
var reCompoundModifier = regexp.MustCompile(`^\d[\d,]*(?:st|nd|rd|th)?-\p{L}`)

// tokenStart returns where the token holding s[at] starts when a symbol
// joins it to what comes before ("Grey!Falcon42", "#team-ops"), else at.
func tokenStart(s string, at int) int {
	i := strings.LastIndexAny(s[:at], " \t(\"'“‘") + 1
	if i < at && strings.ContainsAny(s[i:at], "!#$%*+=~^_") {
		return i
	}
	return at
}

// unitWords are units a count or amount is said in.
const unitWords = `seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|requests?|calls?|queries|messages?|events?|` +
	`people|persons?|guests?|attendees?|participants?|users?|seats?|places|spots?|rooms?|beds?|tables?|items?|units?|pieces?|pages?|copies|` +
	`servers?|nodes?|replicas?|instances?|pods?|cores?|laptops?|tickets?|licen[cs]es?|interviews?|candidates?|employees?|engineers?|` +
	`euros?|dollars?|pounds?|francs?|yen|percent|points?|miles?|kilomet(?:re|er)s?|metres?|meters?|km|kilos?|litres?|liters?|times`

// takeWho reads a person or team: a capitalised name, "the design team",
// or the first person (the speaker).
func takeWho(v, self string, lowerClause bool) (string, bool) {
	v = strings.TrimSpace(v)
	low := fold(v)
	if len(strings.Fields(v)) > 5 {
		return "", false // a clause, not someone: "we liked them so much we switched, they('re our vet)"
	}
	for _, p := range []string{"me", "myself", "us", "i", "we", "i'm", "we're", "i've", "we've", "i'll", "we'll", "i am", "we are"} {
		if low == p || strings.HasPrefix(low, p+" ") || strings.HasPrefix(low, p+",") || strings.HasPrefix(low, p+".") {
			return self, true
		}
	}
	if strings.HasSuffix(low, " to") {
		return "", false // "Ask Jonas to take over …"
	}
	if m := reTeam.FindStringSubmatch(v); m != nil {
		return cleanValue(m[1]), true
	}
	if fw := strings.TrimRight(fold(firstWord(v)), ",.;:"); determiners[fw] || fw == "my" || fw == "our" || fw == "your" || fw == "his" || fw == "her" || fw == "their" {
		return "", false
	}
	if m := reName.FindStringSubmatch(v); m != nil {
		n := cleanValue(m[1])
		if n == "" || pronouns[fold(n)] || isDatePhrase(n) || strings.HasSuffix(fold(n), "ing") && !strings.Contains(n, " ") {
			return "", false
		}
		return n, true
	}
	// In an all-lower-case clause a name is one plain word, said alone:
	// in "tasha quit so marco's running the cafe", "tasha" is not who
	// runs it.
	if lowerClause && v == strings.ToLower(v) && !strings.ContainsAny(strings.TrimSpace(v), " \t") && !adjectives[strings.Trim(firstWord(v), ".,!")] {
		if m := reLowerName.FindString(v); m != "" && !personal[m] && !pronouns[m] && !determiners[m] && !isDatePhrase(m) {
			return m, true
		}
	}
	return "", false
}

// StreetAddressAt returns the street address said at text[i:], with the
// unit after it ("48 Harbor Road, Suite 200"), or "".
func StreetAddressAt(text string, i int) string {
	if i < 0 || i >= len(text) {
		return ""
	}
	m := reAddress.FindStringSubmatch(text[i:])
	if m == nil {
		return ""
	}
	a := cleanValue(m[1])
	if u := reAddressUnit.FindString(text[i+len(m[1]):]); u != "" && len(a) == len(m[1]) {
		a += u
	}
	return a
}

// reAddressUnit is the unit after a street address: ", Suite 200", " Apt 3B".
var reAddressUnit = regexp.MustCompile(`^,?\s*(?:Suite|Ste\.?|Apt\.?|Apartment|Unit|Floor|Fl\.?|#)\s*[\p{L}\d-]+`)

var reLowerName = regexp.MustCompile(`^[\p{Ll}][\p{Ll}'’-]+`)

// takePlace reads a street address or a capitalised place name.
func takePlace(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if m := reAddress.FindStringSubmatch(v); m != nil {
		return cleanValue(m[1]), true
	}
	if m := reName.FindStringSubmatch(v); m != nil {
		n := cleanValue(m[1])
		if n == "" || isDatePhrase(n) || strings.HasSuffix(n, "'s") || strings.HasSuffix(n, "’s") {
			return "", false
		}
		return n, true
	}
	return "", false
}

// isDatePhrase reports a name that is really a date ("Friday", "March 3").
func isDatePhrase(n string) bool {
	w := fold(strings.Fields(n)[0])
	w = strings.TrimRight(w, ".,")
	if _, ok := monthNumber[w]; ok {
		return true
	}
	switch w {
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
		"today", "tomorrow", "tonight", "next", "this", "mon", "tue", "wed", "thu", "fri":
		return true
	}
	return false
}

// takeChoice reads a chosen thing, as said, cut at the first clause stop.
func takeChoice(v string) (string, bool) {
	v = strings.TrimSpace(v)
	name := ""
	if m := reName.FindStringSubmatch(v); m != nil {
		name = cleanValue(m[1])
	}
	if loc := reChoiceStop.FindStringIndex(v); loc != nil {
		if v[loc[0]] == '.' && reAbbrevEnd.MatchString(v[:loc[0]+1]) {
			loc[0]++ // "Spotless Co." keeps its full stop
		}
		v = v[:loc[0]]
	}
	v = beforeSecondClause(v)
	// A name runs through its own full stops ("Dr. Ortiz").
	if name != "" && len(name) > len(cleanValue(stripArticle(v))) && strings.Contains(name, ". ") {
		v = name
	}
	v = cleanValue(stripArticle(v))
	if v == "" || len(strings.Fields(v)) > 6 || pronouns[fold(v)] || possessivePronouns[fold(v)] {
		return "", false
	}
	fw := fold(firstWord(v))
	if prepositions[fw] || adjectives[fw] || degree[fw] {
		return "", false // "in the shop", "simple", "too expensive"
	}
	return v, true
}

// beforeSecondClause cuts v where "and" or "but" opens a clause of its
// own: "Sonic fiber and cancelled Comcast" is "Sonic fiber".
func beforeSecondClause(v string) string {
	ws := strings.Fields(v)
	for i := 1; i+1 < len(ws); i++ {
		if c := fold(ws[i]); (c == "and" || c == "but") && pastVerb(fold(ws[i+1])) {
			return strings.Join(ws[:i], " ")
		}
	}
	return v
}

// adjectives are judgements, not chosen things ("the plan is simple").
var adjectives = map[string]bool{
	"simple": true, "easy": true, "hard": true, "good": true, "great": true, "fine": true,
	"bad": true, "big": true, "small": true, "nice": true, "important": true, "expensive": true,
	"cheap": true, "ready": true, "ok": true, "okay": true, "clear": true, "tight": true,
	"flexible": true, "open": true, "full": true, "empty": true, "same": true, "different": true,
	"better": true, "worse": true, "best": true, "worst": true, "perfect": true, "unclear": true,
	"happy": true, "sad": true, "busy": true, "free": true, "late": true, "early": true,
	"beautiful": true, "awful": true, "terrible": true, "amazing": true, "fun": true,
	"interesting": true, "boring": true, "sick": true, "tired": true, "fine-ish": true,
	"high": true, "low": true, "huge": true, "tiny": true, "new": true, "old": true,
	"great-looking": true, "messy": true, "whatever": true, "unknown": true, "pending": true,
	"strict": true, "lenient": true, "relaxed": true, "firm": true, "unchanged": true, "mandatory": true,
	"optional": true, "required": true, "critical": true, "urgent": true, "essential": true,
	"ambitious": true, "aggressive": true, "conservative": true, "risky": true, "safe": true,
}

// possessivePronouns say whose a thing is without naming anyone ("the
// decision is yours"): not a chosen thing.
var possessivePronouns = map[string]bool{
	"mine": true, "yours": true, "ours": true, "theirs": true, "his": true, "hers": true,
}

// degree words open a judgement ("too high", "very simple").
var degree = map[string]bool{
	"too": true, "very": true, "so": true, "quite": true, "really": true, "pretty": true,
	"kind": true, "sort": true, "a": true, "an": true, "not": true, "still": true, "super": true,
}

func stripArticle(v string) string {
	if r := []rune(v); len(r) > 5 && strings.HasPrefix(v, "The ") && isUpperRune(r[4]) {
		return v // part of a name: "The Salt Cellar"
	}
	low := fold(v)
	for _, a := range []string{"the ", "a ", "an "} {
		if strings.HasPrefix(low, a) {
			return v[len(a):]
		}
	}
	return v
}

func takeStatus(v string) (string, bool) {
	m := reStatus.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// takeDate resolves a date phrase at the start of v against at. It returns
// the date as 2006-01-02 (with " 15:04" when a time of day was said), or a
// bare time of day as said.
// SameDate reports a stored date phrase ("Jan 8") that reads, on the day
// at, as value, a date as statements write it ("2026-01-08"), or as that
// day when value says no time: "the clothes container exam is still
// Thursday" says the stored date again.
func SameDate(stored, value, sentence string, at time.Time) bool {
	if !reStatedDate.MatchString(value) {
		return false
	}
	d, ok := takeDate(stored, at)
	if !ok {
		return false
	}
	if d == value {
		return true
	}
	// "fasting bloodwork friday at 8" beside "Fri Jan 9 8am": the stored
	// day, its hour said loosely or not at all, is no new date (but
	// "bumped to Saturday at 9" beside "Saturday 10am" is).
	if len(value) != len("2006-01-02") || !strings.HasPrefix(d, value+" ") || len(d) < len(value)+3 {
		return false
	}
	hour, err := strconv.Atoi(d[len(value)+1 : len(value)+3])
	if err != nil {
		return false
	}
	for _, m := range reSaidHour.FindAllStringSubmatch(sentence, -1) {
		if h, _ := strconv.Atoi(m[1] + m[2]); h%12 != hour%12 {
			return false
		}
	}
	return true
}

// reSaidHour is an hour said: "at 8", "9:30", "10am".
var reSaidHour = regexp.MustCompile(`(?i)\bat\s+(\d{1,2})\b|\b(\d{1,2})(?::\d\d|\s*[ap]\.?m\b)`)

// reStatedDate is a date as statements write it, and nothing else.
var reStatedDate = regexp.MustCompile(`^\d{4}-\d\d-\d\d(?: \d\d:\d\d)?$`)

func takeDate(v string, at time.Time) (string, bool) {
	d, _, _, ok := takeDateAt(v, at)
	return d, ok
}

// date is takeDate that remembers the phrase as said in c.said.
func (c *clause) date(v string) (string, bool) {
	d, said, _, ok := takeDateAt(v, c.at)
	c.said = said
	return d, ok
}

// reWeekdayOrdinal opens a value with a weekday and a day of the month:
// "Wednesday the 14th", "Fri the 16th".
var reWeekdayOrdinal = regexp.MustCompile(`(?i)^(?:(?:on|by|for|until|till)\s+)?(mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day)?\.?,?\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b`)

// nextDayOfMonth is the next day numbered day (as said, "14") from at's
// day, in at's month or one of the two after it.
func nextDayOfMonth(day string, at time.Time) (time.Time, bool) {
	n, _ := strconv.Atoi(day)
	if n < 1 || n > 31 {
		return time.Time{}, false
	}
	y, mon, today := at.Date()
	for i := 0; i < 3; i++ {
		d := time.Date(y, mon+time.Month(i), n, 0, 0, 0, 0, time.UTC)
		if d.Day() == n && (i > 0 || n >= today) {
			return d, true
		}
	}
	return time.Time{}, false
}

// reOrdinalAt is a day of the month and its hour: "the 22nd at 9:40".
var reOrdinalAt = regexp.MustCompile(`(?i)^((?:(?:on|by|for|until|till)\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th))\s*,?\s*(?:at|@)\s*(\d.*)$`)

// weekdayOrdinal returns the next date from at's day that falls on the
// given day of the month and weekday (wd: its name as said), within a
// year; failing that, the next date on that day of the month.
func weekdayOrdinal(wd, day string, at time.Time) (time.Time, bool) {
	n, err := strconv.Atoi(day)
	if err != nil || n < 1 || n > 31 {
		return time.Time{}, false
	}
	w := weekdayOf(strings.ToLower(wd)) // reWeekdayOrdinal said one
	y, mon, today := at.Date()
	var first time.Time
	for i := 0; i < 12; i++ {
		d := time.Date(y, mon+time.Month(i), n, 0, 0, 0, 0, time.UTC)
		if d.Day() != n || i == 0 && n < today {
			continue
		}
		if d.Weekday() == w {
			return d, true
		}
		if first.IsZero() {
			first = d
		}
	}
	return first, !first.IsZero()
}

// takeDateAt is takeDate that also returns the date phrase as said and
// where in v it starts (0 when v opens with it).
// reNowAfter is "now" closing a date phrase.
var reNowAfter = regexp.MustCompile(`(?i)[,\s]+now\.?\s*$`)

func takeDateAt(v string, at time.Time) (string, string, int, bool) {
	v = strings.TrimSpace(DotDates(v))
	if v == "" || !hasDateCue(v) {
		return "", "", 0, false
	}
	if reDayRange.MatchString(v) {
		return "", "", 0, false // "Monday through Friday": days of a week, not a date
	}
	if m := reWeeklySlot.FindStringSubmatch(v); m != nil {
		// "tuesdays 5pm utc": a weekly slot, not one date nor a bare
		// time; kept as said.
		slot := strings.TrimSpace(m[0][strings.Index(m[0], m[1]):])
		return slot, slot, 0, true
	}
	if m := reISODate.FindStringSubmatch(v); m != nil {
		if d, err := time.Parse("2006-01-02", m[0]); err == nil {
			return d.Format("2006-01-02"), m[0], 0, true
		}
		return "", "", 0, false
	}
	if m := reYearDate.FindStringSubmatch(v); m != nil {
		mon, day, year := m[1], m[2], m[3]
		if mon == "" {
			mon, day, year = m[5], m[4], m[6]
		}
		if d, err := time.Parse("2006 1 2", year+" "+strconv.Itoa(int(monthNumber[strings.ToLower(mon)]))+" "+day); err == nil {
			return d.Format("2006-01-02"), strings.TrimSpace(m[0]), 0, true
		}
	}
	// "Wednesday the 14th", "Fri the 16th": the day of the month decides,
	// the next one on that weekday (or, if none in a year, the next one).
	if m := reWeekdayOrdinal.FindStringSubmatch(v); m != nil {
		if d, ok := weekdayOrdinal(m[1], m[2], at); ok {
			return d.Format("2006-01-02"), strings.TrimSpace(m[0]), 0, true
		}
	}
	// "on the 14th": the next 14th from the turn's day.
	if m := reBareOrdinal.FindStringSubmatch(v); m != nil {
		if d, ok := nextDayOfMonth(m[2], at); ok {
			return d.Format("2006-01-02"), strings.TrimSpace(m[1]), 0, true
		}
		return "", "", 0, false
	}
	// "the 22nd at 9:40": that day, at that hour.
	if m := reOrdinalAt.FindStringSubmatch(v); m != nil {
		if d, ok := nextDayOfMonth(m[2], at); ok {
			// Read as "January 22 at 9:40", on that day whatever year
			// the library gives it.
			prefix := d.Format("January 2") + " at "
			if t, said, _, ok := takeDateAt(prefix+m[3], at); ok && len(t) > len("2006-01-02") && strings.HasPrefix(said, prefix) && len(said) > len(prefix) {
				return d.Format("2006-01-02") + t[len("2006-01-02"):], strings.TrimSpace(m[1]) + " at " + said[len(prefix):], 0, true
			}
		}
	}
	// Date phrases are short: the library reads only the value's opening.
	if len(v) > 48 {
		cut := strings.LastIndexByte(v[:48], ' ')
		if cut < 0 {
			cut = 48
		}
		v = v[:cut]
	}
	r, err := dateParser.Parse(v, at)
	if err != nil || r == nil || r.Index > 12 {
		return "", "", 0, false
	}
	// "Saturday March 7 now", "9:30 now": the library reads "now" as part
	// of the phrase; when it holds is the fact's valid time, not its value.
	matched := strings.TrimSpace(reNowAfter.ReplaceAllString(r.Text, ""))
	if reAmbiguousDate.MatchString(matched) {
		return "", "", 0, false
	}
	// A bare time of day ("at 3pm") stays as said.
	if !reDateWord.MatchString(matched) {
		if reTimeOfDay.MatchString(matched) {
			return cleanValue(matched), "", r.Index, true
		}
		return "", "", 0, false
	}
	d := r.Time
	if reMonthOnly.MatchString(matched) {
		// "May" names no day (the library gives the turn's day of that
		// month): the month's first day, its fifteenth after "mid", its
		// last after "end of", and the phrase as said.
		day, at0 := 1, r.Index
		if p := reMonthPart.FindStringSubmatchIndex(v[:r.Index]); p != nil {
			switch part := strings.ToLower(v[p[2]:p[3]]); {
			case strings.Contains(part, "end"):
				day = 0 // the day before the next month's first
			case strings.HasPrefix(part, "mid"):
				day = 15
			}
			at0 = p[0]
			matched = strings.TrimSpace(v[p[0]:r.Index]) + " " + matched
			if strings.HasSuffix(v[:r.Index], "-") {
				matched = strings.TrimSpace(v[p[0] : r.Index+len(r.Text)])
			}
		}
		mon := d.Month()
		if day == 0 {
			mon++
		}
		d = time.Date(d.Year(), mon, day, 0, 0, 0, 0, time.UTC)
		for i := 0; i < 2 && d.Before(time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC)); i++ {
			d = d.AddDate(1, 0, 0)
		}
		return d.Format("2006-01-02"), strings.TrimSpace(matched), at0, true
	}
	dayOf := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	if !reHasYear.MatchString(matched) && !reBackwards.MatchString(matched) {
		for i := 0; i < 2 && dayOf(d).Before(dayOf(at)); i++ {
			d = d.AddDate(1, 0, 0)
		}
	}
	if reTimeOfDay.MatchString(matched) {
		return d.Format("2006-01-02 15:04"), matched, r.Index, true
	}
	return d.Format("2006-01-02"), matched, r.Index, true
}

// reDayRange is a run of weekdays: "Monday through Friday", "Mon-Fri",
// "Tuesday to Thursday".
var reDayRange = regexp.MustCompile(`(?i)^(?:(?:on|from|every)\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*(?:-|–|—|to|through|thru|till|until)\s*(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b`)

// reWeeklySlot is a weekday said as recurring with a time of day, and
// perhaps its zone: "Tuesdays 5pm UTC", "on Fridays at 9:30am".
var reWeeklySlot = regexp.MustCompile(`(?i)^(?:on\s+)?((?:mon|tues|wednes|thurs|fri|satur|sun)days)(?:\s+at)?\s+(\d{1,2}(?::\d\d)?\s?(?:am|pm))(\s+(?:utc|gmt|[ecmp][sd]t|cet|cest|bst|aest|aedt))?\b`)

var (
	// reMonthOnly is a month said without a day: "May", "Sept.".
	reMonthOnly = regexp.MustCompile(`(?i)^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?$`)
	// reMonthPart says which part of the month follows: "end of",
	// "the middle of", "mid-".
	reMonthPart = regexp.MustCompile(`(?i)\b((?:the\s+)?(?:very\s+)?end\s+of|(?:the\s+)?middle\s+of|mid-?|(?:the\s+)?(?:beginning|start)\s+of)\s*$`)
)

// dateWords are the words a date phrase is made of.
var dateWords = map[string]bool{}

// reRelativeTime is a time said relative to the turn: "this week",
// "tomorrow", "next month".
var reRelativeTime = regexp.MustCompile(`(?i)^(?:(?:this|next|last|that)\s+(?:week|weekend|month|year|time|morning|afternoon|evening|quarter|semester|term)|today|tonight|tomorrow|yesterday|(?:a\s+|an\s+|one\s+)?(?:day|week|weekend|month|year)s?)$`)

// RelativeTime reports whether s is only a time said relative to the
// turn, or a bare length of time: when or by how much something happens,
// never the value of a thing ("This week we'll go on Thursday instead",
// "pushed the deadline back a week").
func RelativeTime(s string) bool {
	return reRelativeTime.MatchString(strings.Trim(s, " .,;:!?"))
}

func init() {
	for _, w := range strings.Split("today|tonight|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|week|weeks|month|months|day|days|noon|midnight|weekend|year|years|"+monthNames, "|") {
		dateWords[w] = true
	}
}

// hasDateCue reports a digit or a date word in v, cheaply.
func hasDateCue(v string) bool {
	if strings.ContainsAny(v, "0123456789") {
		return true
	}
	for _, w := range strings.FieldsFunc(fold(v), func(r rune) bool { return r == ' ' || r == '-' }) { // "mid-June"
		if dateWords[strings.Trim(w, ".,;:!?()")] {
			return true
		}
	}
	return false
}

// reDateWord is a date (not only a time) in a library match.
var reDateWord = regexp.MustCompile(`(?i)\b(?:today|tonight|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|thur|fri|sat|sun|` + monthNames + `|week|weeks|month|months|day|days|year|years|\d{1,2}/\d{1,2}(?:/\d{2,4})?)\b`)
