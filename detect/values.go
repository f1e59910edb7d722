package detect

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// valueType is the kind of a value found in text.
type valueType uint8

const (
	tMoney valueType = iota + 1
	tPercent
	tTime
	tDate
	tNumber
	tStatus
	tName   // proper names: people, vendors, places, products
	tChoice // a free-text choice captured by an assignment pattern, or a whole fact value
)

// value is one typed value found in text; norm is comparable across spellings.
type value struct {
	typ        valueType
	text, norm string
	start, end int  // byte offsets in the analysed text
	old        bool // in an "old" position (after "from", "instead of", "not", ...)
}

// monthStem is a month's first three letters, as a group: "(jan|…|dec)".
const monthStem = `(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)`

var (
	// Money: a currency sign or word, with optional k/m/b multipliers.
	reMoney = regexp.MustCompile(`(?i)(?:[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|mm|bn|b|thousand|million|billion)\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:k|m)?\s?(?:dollars|usd|eur|euros|gbp)\b)`)
	// Percentages: "15%", "15 percent".
	rePercent = regexp.MustCompile(`(?i)\b\d+(?:\.\d+)?\s?(?:%|percent\b)`)
	// Clock times: "3pm", "10:30 AM EST", "14:00".
	reTime = regexp.MustCompile(`(?i)\b(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s?(?:a\.?m\.?|p\.?m\.?)(?:\s?(?:[ecmp][sd]t|utc|gmt)\b)?|\b(?:[01]?\d|2[0-3]):[0-5]\d\b`)
	// Dates: month-day, day-month, ISO, weekdays, relative days, quarters.
	reMonthDay = regexp.MustCompile(`(?i)\b` + monthStem + `[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`)
	reDayMonth = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthStem + `[a-z]*\b`)
	reISODate  = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	reDayWord  = regexp.MustCompile(`(?i)\b(?:(?:next|this|last)\s+)?(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|week|month|quarter|year)\b|\b(?:today|tonight|tomorrow|yesterday|eod|eow|eom)\b|\bend of (?:the )?(?:day|week|month|quarter|year)\b|\b(?:q[1-4]|h[12])(?:\s?\d{4})?\b`)
	// Bare numbers, optionally with a unit; not part of an identifier
	// ("sharma@321", "#4", "v2.1").
	reNumber = regexp.MustCompile(`(?:^|[^\w#$€£./:@-])(\d[\d,]*(?:\.\d+)?)\b`)
	// Status words of tasks, orders, projects and approvals.
	reStatus = regexp.MustCompile(`(?i)\b(?:cancel+ed|delayed|postponed|on hold|paused|suspended|approved|rejected|denied|declined|completed|complete|done|finished|shipped|launched|live|in progress|on track|off track|at risk|blocked|in planning|under review|pending|active|inactive|closed|open|resolved|fixed|failed|passed|terminated|frozen|deprecated|expired|confirmed|tentative|scheduled|rescheduled|draft)\b`)
	// Proper-name runs: capitalised or camel-case words.
	reName = regexp.MustCompile(`\b[A-Z][\w&'-]*(?:\s+(?:[A-Z][\w&'-]*|\d+\b))*`)
)

// notNames are capitalised words that are not names of things.
var notNames = setOf("i", "i'm", "i'll", "i've", "i'd", "the", "a", "an", "we", "we're", "we've", "let's", "ok", "okay",
	"actually", "correction", "update", "note", "please", "so", "but", "and", "also", "just", "yes", "no",
	"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow",
	"ceo", "cfo", "cto", "coo", "cio", "vp", "svp", "evp", "board", "manager", "director", "policy", "team", "company",
	"done", "sure", "noted", "thanks", "great", "perfect", "alright", "hi", "hey")

var monthNum = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// scanValues finds the typed values of s (not choices), without overlaps;
// earlier types in the list win a contested span.
func scanValues(s string) []value {
	var out []value
	taken := func(a, b int) bool {
		for _, v := range out {
			if a < v.end && b > v.start {
				return true
			}
		}
		return false
	}
	add := func(t valueType, a, b int, norm string) {
		if a < b && !taken(a, b) {
			out = append(out, value{typ: t, text: s[a:b], norm: norm, start: a, end: b})
		}
	}
	for _, m := range reMoney.FindAllStringIndex(s, -1) {
		add(tMoney, m[0], m[1], "money:"+amount(s[m[0]:m[1]]))
	}
	for _, m := range rePercent.FindAllStringIndex(s, -1) {
		add(tPercent, m[0], m[1], "pct:"+amount(s[m[0]:m[1]]))
	}
	for _, m := range reTime.FindAllStringIndex(s, -1) {
		add(tTime, m[0], m[1], "time:"+clock(s[m[0]:m[1]]))
	}
	for _, m := range reMonthDay.FindAllStringSubmatchIndex(s, -1) {
		mon := monthNum[strings.ToLower(s[m[2]:m[3]])]
		add(tDate, m[0], m[1], "date:"+strconv.Itoa(mon)+"-"+strings.TrimLeft(s[m[4]:m[5]], "0"))
	}
	for _, m := range reDayMonth.FindAllStringSubmatchIndex(s, -1) {
		mon := monthNum[strings.ToLower(s[m[4]:m[5]])]
		add(tDate, m[0], m[1], "date:"+strconv.Itoa(mon)+"-"+strings.TrimLeft(s[m[2]:m[3]], "0"))
	}
	for _, m := range reISODate.FindAllStringSubmatchIndex(s, -1) {
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		add(tDate, m[0], m[1], "date:"+strconv.Itoa(mo)+"-"+strings.TrimLeft(s[m[6]:m[7]], "0"))
	}
	for _, m := range reDayWord.FindAllStringIndex(s, -1) {
		norm := strings.Join(strings.Fields(strings.ToLower(s[m[0]:m[1]])), " ")
		if strings.HasSuffix(norm, "days") {
			norm = norm[:len(norm)-1] // "Mondays" is the day Monday, said as recurring
		}
		add(tDate, m[0], m[1], "date:"+norm)
	}
	for _, m := range reStatus.FindAllStringIndex(s, -1) {
		add(tStatus, m[0], m[1], "status:"+statusCanon(s[m[0]:m[1]]))
	}
	for _, m := range reNumber.FindAllStringSubmatchIndex(s, -1) {
		add(tNumber, m[2], m[3], "num:"+amount(s[m[2]:m[3]]))
	}
	for _, m := range reName.FindAllStringIndex(s, -1) {
		a, b := trimNameRun(s, m[0], m[1])
		if a < b {
			add(tName, a, b, "name:"+strings.ToLower(s[a:b]))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// trimNameRun drops leading words that are not names (sentence starts,
// months, roles, shouting) and returns the remaining span.
func trimNameRun(s string, a, b int) (int, int) {
	for a < b {
		w, single := s[a:b], true
		if i := strings.IndexByte(w, ' '); i >= 0 {
			w, single = w[:i], false
		}
		// A sentence-initial word counts only inside a longer run ("Los
		// Angeles"); a capital "The" inside a sentence is the name's
		// ("watching The Bear").
		if nameWord(s, a, w) || (!single && !notNames[strings.ToLower(w)] && sentenceStart(s, a)) || w == "The" && !single && !sentenceStart(s, a) {
			break
		}
		a += len(w)
		for a < b && s[a] == ' ' {
			a++
		}
	}
	return a, b
}

// nameWord reports whether w at offset a looks like part of a name: not a
// stop word, not an all-capitals word of four or more letters, and not
// sentence-initial unless it has an inner capital or digit (TechStart, SOC2).
func nameWord(s string, a int, w string) bool {
	if w == "" || notNames[strings.ToLower(w)] {
		return false
	}
	upper, inner := 0, false
	for i, r := range w {
		if unicode.IsUpper(r) {
			upper++
			if i > 0 {
				inner = true
			}
		}
		if unicode.IsDigit(r) {
			inner = true
		}
	}
	if upper == len(w) && len(w) >= 4 {
		return false
	}
	if sentenceStart(s, a) && !inner {
		return false
	}
	return true
}

// sentenceStart reports whether offset a begins a sentence or a clause after
// a colon or bracket.
func sentenceStart(s string, a int) bool {
	i := a - 1
	for i >= 0 && s[i] == ' ' {
		i--
	}
	return i < 0 || strings.ContainsRune(".!?:-[]\"'\n", rune(s[i]))
}

// amount normalises a money, percent or number spelling to a plain number.
func amount(s string) string {
	l := strings.ToLower(s)
	mult := 1.0
	switch {
	case strings.Contains(l, "billion") || strings.HasSuffix(l, "bn") || strings.HasSuffix(l, "b"):
		mult = 1e9
	case strings.Contains(l, "million") || strings.HasSuffix(l, "mm") || strings.HasSuffix(l, "m"):
		mult = 1e6
	case strings.Contains(l, "thousand") || strings.HasSuffix(l, "k"):
		mult = 1e3
	}
	var digits strings.Builder
	for _, r := range l {
		if unicode.IsDigit(r) || r == '.' {
			digits.WriteRune(r)
		}
	}
	f, err := strconv.ParseFloat(digits.String(), 64)
	if err != nil {
		return l
	}
	return strconv.FormatFloat(f*mult, 'f', -1, 64)
}

// clock normalises a time of day to minutes after midnight.
func clock(s string) string {
	l := strings.ToLower(strings.ReplaceAll(s, ".", ""))
	var h, m int
	digits := strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsDigit(r) })
	if len(digits) > 0 {
		h, _ = strconv.Atoi(digits[0])
	}
	if len(digits) > 1 {
		m, _ = strconv.Atoi(digits[1])
	}
	if strings.Contains(l, "pm") && h < 12 {
		h += 12
	}
	if strings.Contains(l, "am") && h == 12 {
		h = 0
	}
	return strconv.Itoa(h*60 + m)
}

// statusCanon folds spelling variants of a status word.
func statusCanon(s string) string {
	l := strings.ToLower(s)
	switch l {
	case "canceled", "cancelled", "cancellled":
		return "cancelled"
	case "complete", "completed", "done", "finished":
		return "completed"
	case "on hold", "paused", "suspended":
		return "on hold"
	}
	return l
}

// strong reports whether t is a type whose values can be compared reliably.
func (t valueType) strong() bool { return t != tChoice }
