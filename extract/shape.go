package extract

import (
	"regexp"
	"strings"
)

// A value's shape can name its kind of thing as well as a key's words do:
// "Floor 7" beside a stored "Floor 2" is the same floor attribute, "6B"
// beside "3C" the same room, "#launch-2026" beside "#launch" the same
// channel, "Dr. Patel" beside "Dr. Lang" the same doctor. Anchor reads a
// sentence that says one new value of the stored value's shape, with a
// word of change, as the fact's new value even when the sentence does not
// say the key's words ("The weekly sync lives in 6B from now on" for
// meeting_room = 3C); revision takes such a reading only when no other
// fact the sentence reads takes it too.

// A shaped value: one of these, whole.
var (
	// A numbered place or thing: "Floor 2", "Room 2B", "Gate B12", "seat
	// 14C", "Suite 400", "Terminal 5", "Building C".
	reWholeNumbered = regexp.MustCompile(`^(\p{L}{2,12})\.?\s+(?:#?\d{1,5}[A-Za-z]?|[A-Za-z]\d{1,4}|[A-Z])$`) // and "Building C"
	// A seat-like code, digits then capitals: "14C", "3A".
	reWholeSeat = regexp.MustCompile(`^\d{1,4}[A-Z]{1,2}$`)
	// A channel: "#launch".
	reWholeChannel = regexp.MustCompile(`^#[\p{L}\d_-]+$`)
	// A handle: "@mira_codes".
	reWholeHandle = regexp.MustCompile(`^@[\p{L}\d_.-]+$`)
	reAnyHandle   = regexp.MustCompile(`\B@[\p{L}\d_.-]*[\p{L}\d_]`)
	// A code of capitals and digits around a hyphen: "P2-14", "A3-07".
	reWholeDashCode = regexp.MustCompile(`^[A-Z][A-Z\d]{0,3}-\d{1,4}$`)
	reAnyDashCode   = regexp.MustCompile(`\b[A-Z][A-Z\d]{0,3}-\d{1,4}\b`)
	// A titled name: "Dr. Lang", "Mrs. Hale".
	reWholeTitled = regexp.MustCompile(`^` + titlePat + `\s+` + capWord + `(?:\s+` + capWord + `)?$`)

	// A percentage: "6.5%".
	reWholePercent = regexp.MustCompile(`^\d{1,3}(?:\.\d+)?\s?%$`)
	reAnyPercent   = regexp.MustCompile(`\b\d{1,3}(?:\.\d+)?\s?%`)

	// A lower-case code ending in a number: "us-east-1", "prod-db-2".
	reWholeSlug = regexp.MustCompile(`^[a-z]{2,}(?:-[a-z0-9]+)*-\d+[a-z]?$`)
	reAnySlug   = regexp.MustCompile(`\b[a-z]{2,}(?:-[a-z0-9]+)*-\d+[a-z]?\b`)

	// A link or a web address: "discord.gg/glitchgang",
	// "https://cal.com/mira", "mirabuilds.com".
	reWholeLink = regexp.MustCompile(`^(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:/[\w./?=&%#+-]*)?$`)
	reAnyLink   = regexp.MustCompile(`\b(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:/[\w./?=&%#+-]*[\w/=#+-])?`)

	reAnySeat    = regexp.MustCompile(`\b\d{1,4}[A-Z]{1,2}\b`)
	reAnyChannel = regexp.MustCompile(`#[\p{L}\d_-]+`)
	reAnyTitled  = regexp.MustCompile(`\b` + titlePat + `\s+` + capWord + `(?:\s+` + capWord + `)?`)
)

// A measure: a number and its unit ("300 Mbps", "50 GB", "12 kg"); a
// new value may be said in another unit of the family ("1 Gbps").
var (
	reWholeMeasure = regexp.MustCompile(`^\d+(?:[.,]\d+)?\s?([A-Za-z/²]{1,6}(?:\.? [A-Za-z]{1,6}\.?)?)$`) // "750 sq ft"
	unitFamily     = func() map[string]string {
		m := map[string]string{}
		for fam, us := range units {
			for _, u := range us {
				m[u] = fam
			}
		}
		return m
	}()
	units = map[string][]string{
		"rate":   {"kbps", "mbps", "gbps", "kb/s", "mb/s", "gb/s"},
		"size":   {"kb", "mb", "gb", "tb", "pb"},
		"weight": {"g", "kg", "lb", "lbs", "oz", "st"},
		"length": {"mm", "cm", "km", "mi", "miles", "ft", "feet", "inches"},
		"speed":  {"mph", "kph", "km/h"},
		"power":  {"w", "kw", "kwh", "mw"},
		"dose":   {"mg", "mcg", "µg", "ml", "iu"},
		"area":   {"sq ft", "sqft", "sq. ft.", "square feet", "sqm", "m²", "m2", "square metres", "square meters"},
	}
	measureOf = func() map[string]*regexp.Regexp {
		m := map[string]*regexp.Regexp{}
		for fam, us := range units {
			alts := make([]string, len(us))
			for i, u := range us {
				alts[i] = regexp.QuoteMeta(u)
			}
			m[fam] = regexp.MustCompile(`(?i)\b\d+(?:[.,]\d+)?\s?(?:` + strings.Join(alts, "|") + `)\b`)
		}
		return m
	}()
)

const titlePat = `(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor|Coach)\.?`

// notNumbered are words that open an amount or a place in a sentence, not
// a numbered thing ("USD 400", "at 5"); dateWords open a date ("March
// 10", "Tuesday 3").
var notNumbered = map[string]bool{"the": true, "a": true, "an": true, "no": true, "usd": true, "eur": true, "gbp": true,
	"at": true, "on": true, "by": true, "in": true, "to": true, "from": true, "about": true, "around": true, "under": true, "over": true}

// shapeOf returns the pattern that finds, in a clause, the values of the
// stored value's shape, or nil when it has none.
func shapeOf(stored string) *regexp.Regexp { return shapeMemo.Get(stored) }

var shapeMemo = newMemo(scanShape)

func scanShape(v string) *regexp.Regexp {
	switch {
	case reWholeChannel.MatchString(v):
		return reAnyChannel
	case reWholeHandle.MatchString(v):
		return reAnyHandle
	case reWholeDashCode.MatchString(v) && strings.ContainsAny(v[:strings.IndexByte(v, '-')], "0123456789"):
		return reAnyDashCode // "P2-14" (not "CX-5", a model)
	case reWholeSeat.MatchString(v) && !reMeridiem.MatchString(v):
		return reAnySeat
	case reWholeTitled.MatchString(v):
		return reAnyTitled
	case reWholePercent.MatchString(v):
		return reAnyPercent
	case reWholeSlug.MatchString(v):
		return reAnySlug
	case reWholeLink.MatchString(v) && strings.ContainsAny(v, "/"):
		return reAnyLink
	}
	if m := reWholeMeasure.FindStringSubmatch(v); m != nil {
		if fam := unitFamily[strings.ToLower(m[1])]; fam != "" {
			return measureOf[fam]
		}
	}
	if m := reWholeLetterCode.FindStringSubmatch(v); m != nil {
		// "BA117" and "BA175", "B12" and "C4": as many capitals.
		return reAnyLetterCode[len(m[1])-1]
	}
	if m := reWholeNumbered.FindStringSubmatch(v); m != nil && !notNumbered[strings.ToLower(m[1])] && !dateWords[strings.ToLower(m[1])] {
		// "the 7th floor" says Floor 7 (Ordinal writes it so).
		w := regexp.QuoteMeta(m[1])
		return regexp.MustCompile(`(?i:\b` + w + `)\.?\s+(?:#?\d{1,5}[A-Za-z]?|[A-Za-z]\d{1,4}|[A-Z])\b|\b\d{1,3}(?:st|nd|rd|th)[\s-]+(?i:` + w + `)\b`)
	}
	return nil
}

// reOrdinalPlace is a numbered place said by its ordinal: "7th floor".
var reOrdinalPlace = regexp.MustCompile(`^(\d{1,3})(?:st|nd|rd|th)[\s-]+(\p{L}+)$`)

// numbered writes a numbered place said by its ordinal as stored writes
// it: "7th floor" beside "Floor 3" is "Floor 7".
func numbered(v, stored string) string {
	m := reOrdinalPlace.FindStringSubmatch(v)
	s := reWholeNumbered.FindStringSubmatch(stored)
	if m == nil || s == nil || !strings.EqualFold(m[2], s[1]) {
		return v
	}
	return s[1] + " " + m[1]
}

// reMeridiem is a time's "AM" or "PM" ("10AM" is no seat).
var reMeridiem = regexp.MustCompile(`(?i)\d\s*[ap]m$`)

// reWholeLetterCode is a code, capitals then digits: "B12", "BA117";
// reAnyLetterCode[n-1] finds the codes of n capitals.
var (
	reWholeLetterCode = regexp.MustCompile(`^([A-Z]{1,3})-?\d{1,10}$`)
	reAnyLetterCode   = [3]*regexp.Regexp{
		regexp.MustCompile(`\b[A-Z]{1}-?\d{1,10}\b`),
		regexp.MustCompile(`\b[A-Z]{2}-?\d{1,10}\b`),
		regexp.MustCompile(`\b[A-Z]{3}-?\d{1,10}\b`),
	}
)

// shapeSpans finds the values of shape re in cl: a titled name is trimmed
// of a closing full stop and a possessive.
func shapeSpans(cl string, re *regexp.Regexp) []span {
	var out []span
	for _, m := range re.FindAllStringIndex(cl, -1) {
		text := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(cl[m[0]:m[1]], "'s"), "’s"), ".")
		if re == reAnySeat && reMeridiem.MatchString(text) {
			continue
		}
		kind := KindChoice
		if re == reAnyTitled {
			kind = KindPerson
		}
		out = append(out, span{start: m[0], end: m[0] + len(text), text: text, kind: kind})
	}
	return out
}
