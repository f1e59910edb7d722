package extract

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stategraph/stategraph/lexical"
)

// Spoken rewrites the numbers a sentence says in words the way dictation
// says them into digits, where the words can only be a number of one
// kind: a time of day ("two thirty" → "2:30", "at four fifteen"), a phone
// number said digit by digit ("five five five oh one nine two" →
// "555-0192"), a day of the month ("march tenth" → "march 10th", "the
// twenty second" → "the 22nd"), an amount said in hundreds ("nineteen
// fifty a month" → "$1,950 a month", "fifteen hundred dollars" → "$1,500
// dollars") and a count from thirteen ("fifteen" → "15"). Anything else
// it leaves as said: "the blue one", "one of them", "a couple".
//
// Voice-to-text writes numbers as words; the readers after it (Anchor,
// the rules, detection) read digits.
func Spoken(s string) string {
	if !reSpokenCue.MatchString(s) {
		return s
	}
	s = rewrite(rePhoneWords, s, func(m []string, _, _ string) (string, bool) {
		digits := ""
		for _, w := range strings.Fields(strings.ReplaceAll(m[0], "-", " ")) {
			digits += digitWords[strings.ToLower(w)]
		}
		switch len(digits) {
		case 7:
			return digits[:3] + "-" + digits[3:], true
		case 10:
			return digits[:3] + "-" + digits[3:6] + "-" + digits[6:], true
		}
		return "", false
	})
	s = rewrite(reSpokenMoney, s, func(m []string, _, _ string) (string, bool) {
		n := hundreds(m[1])
		return "$" + withCommas(strconv.Itoa(n)) + m[2], n >= 100
	})
	s = rewrite(reSpokenTime, s, func(m []string, before, _ string) (string, bool) {
		// Said after a word that says a time, at the sentence's start,
		// or before the part of the day: "at two thirty", "six thirty
		// in the morning".
		h, mm := wordNumber(m[2]), minutes(m[3])
		said := m[1] != "" || m[4] != "" || before == ""
		return m[1] + strconv.Itoa(h) + ":" + pad2(mm) + m[4], said && h >= 1 && h <= 12 && mm >= 0
	})
	s = rewrite(reClockPhrase, s, func(m []string, _, _ string) (string, bool) {
		// "half past six", "quarter to 7": the British clock.
		h := wordNumber(m[2])
		if n, err := strconv.Atoi(m[2]); err == nil {
			h = n
		}
		mm := map[string]int{"half past": 30, "quarter past": 15, "quarter after": 15, "quarter to": 45, "quarter of": 45}[strings.ToLower(strings.Join(strings.Fields(m[1]), " "))]
		if mm == 45 {
			h-- // quarter to seven is 6:45
			if h == 0 {
				h = 12
			}
		}
		return strconv.Itoa(h) + ":" + pad2(mm) + m[3], h >= 1 && h <= 12
	})
	s = rewrite(reSpokenDay, s, func(m []string, _, after string) (string, bool) {
		// After a month always ("march tenth"), after "the" only where
		// no noun follows ("the twenty second every month", not "the
		// first diagnosis").
		d := ordinalWord(m[2])
		afterThe := strings.EqualFold(strings.TrimSpace(m[1]), "the")
		return m[1] + strconv.Itoa(d) + ordinalSuffix(d), d >= 1 && d <= 31 && (!afterThe || dayEnds(after))
	})
	return rewrite(reSpokenCount, s, func(m []string, before, after string) (string, bool) {
		// A count said alone, not as a part of a bigger number ("three
		// eighty nine" stays as said).
		n := wordNumber(m[0])
		bs, as := strings.Fields(before), strings.Fields(after)
		alone := (len(bs) == 0 || !numberWord(bs[len(bs)-1])) && (len(as) == 0 || !numberWord(as[0]) && !strings.EqualFold(as[0], "hundred"))
		return strconv.Itoa(n), n >= 13 && alone
	})
}

// rewrite replaces each match of re in s with what f makes of it (from
// its submatches and the text before and after it), or leaves it where f
// declines.
func rewrite(re *regexp.Regexp, s string, f func(m []string, before, after string) (string, bool)) string {
	var b strings.Builder
	last, changed := 0, false
	for _, ix := range re.FindAllStringSubmatchIndex(s, -1) {
		m := make([]string, len(ix)/2)
		for i := range m {
			if ix[2*i] >= 0 {
				m[i] = s[ix[2*i]:ix[2*i+1]]
			}
		}
		v, ok := f(m, s[:ix[0]], s[ix[1]:])
		if !ok {
			continue
		}
		b.WriteString(s[last:ix[0]])
		b.WriteString(v)
		last, changed = ix[1], true
	}
	if !changed {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// numberWord reports a word that says a number: "eighty", "three".
func numberWord(w string) bool {
	_, ok := numberWords[strings.ToLower(strings.Trim(w, ".,;:!?"))]
	return ok
}

// spokenMarks writes the punctuation dictation spells out as the marks:
// "… called this morning comma they had to push …" has a comma, and a
// "period" that ends the text is its full stop. A "period" inside the
// text is a word ("the trial period ends"), and stays.
func spokenMarks(s string) string {
	if !strings.Contains(s, "comma") && !strings.Contains(s, "period") {
		return s
	}
	s = reSpokenComma.ReplaceAllString(s, "$1,")
	return reSpokenStop.ReplaceAllString(s, ".")
}

var (
	// reSpokenComma is "comma" said where a comma goes: between two
	// words, not after "a" or "the" ("a comma splice").
	reSpokenComma = regexp.MustCompile(`(?i)(\b(?:[a-z]{2,}|[a-z]*\d[\w]*))\s+comma\b`)
	// reSpokenStop is "period" closing the text.
	reSpokenStop = regexp.MustCompile(`(?i)\s+period\s*$`)
)

// Pauses writes the fillers dictation leaves where a speaker pauses as
// the commas a writer would: "its the 22nd um so its the 22nd every
// month" is two clauses, "um so the dentist office called" one.
func Pauses(s string) string {
	s = spokenMarks(s)
	if !reFiller.MatchString(s) {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range reFiller.FindAllStringIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		before := strings.Fields(s[:m[0]])
		if len(before) > 0 && pauseJoiners[strings.ToLower(before[len(before)-1])] {
			// After a word that opens a clause or a phrase the pause is
			// inside it: "but um the landlord's cell".
			b.WriteString(" ")
		} else {
			b.WriteString(", ")
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return strings.TrimRight(strings.TrimLeft(b.String(), ", "), ", ")
}

// Emoji reads an emoji, as a picture or as a chat's shortcode (":lock:",
// ":taco:"), as the pause it marks: "rotated the wifi pw :lock: new one is
// Pelican#77" is read "rotated the wifi pw, new one is Pelican#77".
func Emoji(s string) string {
	if !reEmoji.MatchString(s) {
		return s
	}
	return strings.TrimRight(strings.TrimLeft(reEmoji.ReplaceAllString(s, ", "), ", "), ", ")
}

// InlineCode reads a value a chat writer set in inline code as the value:
// "prod lives in `eu-west-1` now" is read "prod lives in eu-west-1 now".
// What reads as code (a call, an assignment, a block) stays marked, and
// so does code named as code ("the variable `owner`", "the
// `room.capacity` field"), which is no user's thing.
func InlineCode(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	return rewriteMatches(s, reInlineValue, func(m []int) (string, bool) {
		before := strings.Fields(strings.ToLower(s[:m[0]]))
		after := strings.Fields(strings.ToLower(s[m[1]:]))
		if len(before) > 0 && codeNouns[strings.Trim(before[len(before)-1], ",:")] || len(after) > 0 && codeNouns[strings.Trim(after[0], ",.:;!?")] {
			return "", false
		}
		return s[m[2]:m[3]], true
	})
}

// rewriteMatches returns s with each match of re that rewrite accepts
// (given the match's submatch indexes) replaced by what it returns.
func rewriteMatches(s string, re *regexp.Regexp, rewrite func(m []int) (string, bool)) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		r, ok := rewrite(m)
		if !ok {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(r)
		last = m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// codeNouns name a piece of code.
var codeNouns = map[string]bool{"variable": true, "var": true, "field": true, "column": true, "flag": true, "param": true, "parameter": true,
	"argument": true, "arg": true, "property": true, "attribute": true, "function": true, "method": true, "class": true, "struct": true,
	"table": true, "file": true, "key": true, "setting": true, "option": true, "constant": true, "enum": true, "type": true, "module": true,
	"package": true, "command": true, "env": true}

// reInlineValue is a short span of inline code without a mark of code.
var reInlineValue = regexp.MustCompile("`([^`(){}\\[\\];=<>|\\\\\n]{1,40})`")

// DotDates writes a day and month given with full stops, as German and
// other writers do, in words: "Abgabe is now 30.04." reads "Abgabe is now
// 30 April", "my new Termin is 03.02. at 10:15" reads "… 3 February at
// 10:15", "14.01.2026" reads "14 January 2026". Only a day of 1 to 31 and
// a month of 1 to 12 closed by a full stop are read so (not a version,
// "1.2.3", nor an amount, "30.04").
func DotDates(s string) string {
	if !strings.Contains(s, ".") || !strings.ContainsAny(s, "0123456789") {
		return s // (takeDateAt reads every value through it)
	}
	return rewriteMatches(s, reDotDate, func(m []int) (string, bool) {
		if m[0] > 0 && (s[m[0]-1] == '.' || s[m[0]-1] >= '0' && s[m[0]-1] <= '9') || m[1] < len(s) && s[m[1]] >= '0' && s[m[1]] <= '9' {
			return "", false
		}
		d, _ := strconv.Atoi(s[m[2]:m[3]])
		mo, _ := strconv.Atoi(s[m[4]:m[5]])
		if d < 1 || d > 31 || mo < 1 || mo > 12 {
			return "", false
		}
		r := strconv.Itoa(d) + " " + time.Month(mo).String()
		if m[6] >= 0 {
			r += " " + s[m[6]:m[7]]
		}
		return r, true
	})
}

// reDotDate is a day and a month, each closed by a full stop, and perhaps
// a year: "30.04.", "14.01.2026".
var reDotDate = regexp.MustCompile(`\b(\d{1,2})\.(\d{1,2})\.(?:(\d{4})\b)?`)

// RefCodes drops a reference number given in brackets: "extended the
// R01 submission deadline (ref. NIH-PA-25-301) to March 2" reads
// "extended the R01 submission deadline to March 2".
func RefCodes(s string) string {
	if !strings.Contains(s, "(") {
		return s
	}
	return reRefCode.ReplaceAllString(s, "")
}

// reRefCode is a bracketed reference: "(ref. BK-55910)", "(booking ref
// CR-30451)", "(ticket #4471)", "(case no. 22-118)".
var reRefCode = regexp.MustCompile(`(?i)\s*\((?:[a-z]+\s+)?(?:ref|reference|ticket|case|order|invoice|booking|claim|po)\b\.?\s*(?:no\.?|number|#|:)?\s*#?[a-z0-9][\w./-]*\)`)

// reEmoji is an emoji with the spaces around it.
var reEmoji = regexp.MustCompile(`\s*(?:(?:^|\s):[a-z0-9_+-]{2,30}:(?:\s|$)|[\x{1F300}-\x{1FAFF}\x{2600}-\x{27BF}\x{1F000}-\x{1F2FF}]+\x{FE0F}?)\s*`)

// pauseJoiners are words a pause inside a clause or a phrase follows.
var pauseJoiners = map[string]bool{"but": true, "and": true, "so": true, "or": true, "because": true, "cause": true, "then": true,
	"that": true, "the": true, "a": true, "an": true, "to": true, "at": true, "with": true, "is": true, "its": true, "it's": true,
	"of": true, "for": true, "on": true, "in": true, "my": true, "our": true, "was": true, "are": true}

// reFiller is a filler word between spaces, with the commas around it.
var reFiller = regexp.MustCompile(`(?i)(?:^|,?\s+)(?:um+|uh+|erm+|uhm+|hmm+)(?:,?\s+|,?$)`)

// dayEnds reports text after a day of the month said after "the" that
// ends the date: the sentence's end, a mark, or a word that no noun is.
func dayEnds(rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	if rest == "" || !lexical.IsASCIILetter(rest[0]) {
		return true
	}
	w := strings.ToLower(firstWord(rest))
	return dayFollowers[strings.Trim(w, ".,;:!?")]
}

// dayFollowers are the words that may follow a day of the month said
// after "the": "the twenty second of march", "… every month now".
var dayFollowers = map[string]bool{"of": true, "now": true, "instead": true, "every": true, "each": true, "at": true,
	"and": true, "so": true, "not": true, "from": true, "this": true, "next": true, "then": true, "starting": true,
	"going": true, "lol": true, "um": true, "like": true, "which": true, "but": true, "for": true, "in": true, "on": true,
	"my": true, "our": true, "your": true, "i": true, "we": true, "you": true, "it": true, "he": true, "she": true, "they": true}

const (
	digitNames = `one|two|three|four|five|six|seven|eight|nine`
	teenWords  = `ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen`
	tensWords  = `twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety`
	upTo99     = `(?:(?:` + tensWords + `)(?:[\s-](?:` + digitNames + `))?|` + teenWords + `|` + digitNames + `)`
	ordinals   = `first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth`
)

var (
	// reSpokenCue is a number word: a cheap test before the rewrites.
	reSpokenCue = regexp.MustCompile(`(?i)\b(?:` + digitNames + `|` + teenWords + `|` + tensWords + `|oh|zero|hundred|half past|quarter|` + ordinals + `)\b`)
	// rePhoneWords is seven or ten digits said one by one.
	rePhoneWords = regexp.MustCompile(`(?i)\b(?:(?:zero|oh|o|` + digitNames + `)[\s-]+){6,9}(?:zero|oh|o|` + digitNames + `)\b`)
	// reSpokenTime is an hour and its minutes after a word that says a
	// time, or before the part of the day: "at two thirty", "to four
	// fifteen", "six thirty in the morning".
	reSpokenTime = regexp.MustCompile(`(?i)(\b(?:at|to|is|from|til|till|until|by|around|about|now)\s+)?\b(` + digitNames + `|ten|eleven|twelve)[\s-](oh[\s-](?:` + digitNames + `)|(?:fifteen|forty[\s-]five|fourty[\s-]five|thirty|twenty|ten|fifty|forty|twenty[\s-]five|thirty[\s-]five|fifty[\s-]five|oh[\s-]five))\b(\s*(?:am|pm|a\.m\.|p\.m\.)|\s+in\s+the\s+(?:morning|afternoon|evening)|\s+at\s+night)?`)
	// reSpokenDay is a day of the month said as an ordinal after a month
	// or "the": "march tenth", "the twenty second".
	// reClockPhrase is a time said by the half or the quarter hour.
	reClockPhrase = regexp.MustCompile(`(?i)\b(half\s+past|quarter\s+(?:past|after|to|of))\s+(` + digitNames + `|ten|eleven|twelve|1[0-2]|[1-9])\b(\s*(?:am|pm|a\.m\.|p\.m\.)|\s+in\s+the\s+(?:morning|afternoon|evening)|\s+at\s+night)?`)
	reSpokenDay   = regexp.MustCompile(`(?i)(\b(?:` + monthNames + `)\s+(?:the\s+)?|\bthe\s+)((?:twenty|thirty)[\s-](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|` + ordinals + `)\b`)
	// reSpokenMoney is an amount said in hundreds before what it is paid
	// by: "nineteen fifty a month", "fifteen hundred dollars", "three
	// forty two a month".
	reSpokenMoney = regexp.MustCompile(`(?i)\b((?:` + upTo99 + `)\s+(?:hundred(?:\s+(?:and\s+)?` + upTo99 + `)?|` + upTo99 + `))(\s+(?:a|per)\s+(?:month|week|year|visit|walk|session|hour|night)|\s+(?:dollars|bucks)|/mo)\b`)
	// reSpokenCount is a count from thirteen to ninety-nine said alone.
	reSpokenCount = regexp.MustCompile(`(?i)\b((?:` + tensWords + `)(?:[\s-](?:` + digitNames + `))?|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)\b`)
)

var digitWords = map[string]string{"zero": "0", "oh": "0", "o": "0", "one": "1", "two": "2", "three": "3", "four": "4",
	"five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}

var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

var ordinalWords = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
	"fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30}

// wordNumber reads a number from one to ninety-nine said in words, or -1.
func wordNumber(s string) int {
	n := 0
	for _, w := range strings.Fields(strings.ReplaceAll(strings.ToLower(s), "-", " ")) {
		v, ok := numberWords[w]
		if !ok {
			return -1
		}
		n += v
	}
	if n == 0 {
		return -1
	}
	return n
}

// minutes reads the minutes of a time said in words: "thirty", "oh five".
func minutes(s string) int {
	s = strings.ToLower(strings.ReplaceAll(s, "-", " "))
	if rest, ok := strings.CutPrefix(s, "oh "); ok {
		return wordNumber(rest)
	}
	return wordNumber(s)
}

// ordinalWord reads a day of the month said as an ordinal, or -1.
func ordinalWord(s string) int {
	ws := strings.Fields(strings.ReplaceAll(strings.ToLower(s), "-", " "))
	switch len(ws) {
	case 1:
		if d, ok := ordinalWords[ws[0]]; ok {
			return d
		}
	case 2:
		if d, ok := ordinalWords[ws[1]]; ok && d < 10 {
			return numberWords[ws[0]] + d
		}
	}
	return -1
}

// hundreds reads an amount said in hundreds: "nineteen fifty" is 1950,
// "fifteen hundred" 1500, "three forty two" 342, "fifteen hundred and
// fifty" 1550; one number alone ("fifty") is itself.
func hundreds(s string) int {
	s = strings.ToLower(s)
	if head, tail, ok := strings.Cut(s, "hundred"); ok {
		h := wordNumber(head)
		tail = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(tail), "and"))
		t := 0
		if tail != "" {
			t = wordNumber(tail)
		}
		if h < 1 || t < 0 {
			return -1
		}
		return h*100 + t
	}
	ws := strings.Fields(strings.ReplaceAll(s, "-", " "))
	// The first number says the hundreds when it is a unit or a teen
	// ("three forty two", "nineteen fifty").
	if len(ws) >= 2 {
		if h, ok := numberWords[ws[0]]; ok && h < 20 {
			if t := wordNumber(strings.Join(ws[1:], " ")); t >= 10 {
				return h*100 + t
			}
		}
	}
	return wordNumber(s)
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func ordinalSuffix(d int) string {
	switch {
	case d%100 >= 11 && d%100 <= 13:
		return "th"
	case d%10 == 1:
		return "st"
	case d%10 == 2:
		return "nd"
	case d%10 == 3:
		return "rd"
	}
	return "th"
}

// reShortDay is a day written as a text message writes it: "tmrw",
// "2nite", "2day".
var reShortDay = regexp.MustCompile(`(?i)\b(?:tmrw|tmrow|tmw|tmr|2moro|2morrow|2mrw|tomoz|2day|2nite|2night|tonite)\b`)

// shortDays are the days reShortDay finds, as written out.
var shortDays = map[string]string{
	"tmrw": "tomorrow", "tmrow": "tomorrow", "tmw": "tomorrow", "tmr": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow", "2mrw": "tomorrow", "tomoz": "tomorrow",
	"2day": "today", "2nite": "tonight", "2night": "tonight", "tonite": "tonight",
}

// reShortHalf is a time of day with its half of the day cut to one
// letter: "6:30a", "1p" after a word that introduces a time ("now 1p",
// "at 5a").
var reShortHalf = regexp.MustCompile(`\b(\d{1,2}:[0-5]\d)([ap])\b|\b((?:now|at|by|@|from|to|til|till|until|before|after)\s+\d{1,2})([ap])\b`)

// Shorthand writes out what a text message shortens: the days ("8:45
// tmrw only" is one day's exception, and "tmrw" a date) and the half of
// the day ("6:30a" is 6:30am).
func Shorthand(s string) string {
	s = reShortDay.ReplaceAllStringFunc(s, func(w string) string { return shortDays[strings.ToLower(w)] })
	return reShortHalf.ReplaceAllString(s, "${1}${3}${2}${4}m")
}
