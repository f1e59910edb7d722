package extract

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A count or an amount said as a change of the stored one: "Hired two
// more part-timers", "the cap goes up by 50", "Rent goes up 250 a month",
// "they raised the fee by $15", "$16 more a month". withCountDeltas and
// withMoneyDeltas write it as the stored value moved by it, in the stored
// value's form ("$3,200/month" → "$3,450/month", "8 engineers" → "10
// engineers"); readDelta says which candidates are differences.

var (
	// reMoneyParts splits a stored amount: currency, number, multiplier,
	// the rest ("/month", " a month").
	reMoneyParts = regexp.MustCompile(`^([$€£¥]?)\s?(\d[\d,]*(?:\.\d+)?)\s?(k|K|m|M|bn)?(.*)$`)
	// reUpBefore and reDownBefore end a clause's text before a difference:
	// "went up", "raised it by", "a cut of".
	reUpBefore   = regexp.MustCompile(`(?i)\b(?:up|raised|raise|raising|increased|increase|increasing|hiked|hike|bumped|add|added|adding|an? (?:raise|increase|hike|bump) of)(?:\s+(?:it|them|us|me|(?:the|our|my)\s+\w+|\w+))?(?:\s+by)?\s+(?:another\s+|an?\s+extra\s+)?$`)
	reDownBefore = regexp.MustCompile(`(?i)\b(?:down|cut|cutting|reduced|reduce|reducing|lowered|lower|dropped|drop|decreased|decrease|knocked|slashed|trimmed|shrank|shrunk|fell|an? (?:cut|reduction|drop|discount) of)(?:\s+(?:it|them|us|me|(?:the|our|my)\s+\w+|\w+))?(?:\s+(?:by|off))?\s+$`)
	// reDeltaWord follows a difference, a word of rising (group 1) or of
	// falling: "two more", "$16 extra", "six fewer", "$20 off".
	reDeltaWord = regexp.MustCompile(`(?i)^\s+(?:(more|additional|extra|higher|on top)|less|fewer|lower|cheaper|off)\b`)
	// reBareAmountAfter is a bare number after a word of rising or
	// falling ("goes up 250"), which reAnyMoney does not read.
	reBareAmountAfter = regexp.MustCompile(`(?i)\b(?:up|down|by)\s+(\d[\d,]*(?:\.\d+)?)\b`)
	// reToEnd is the "to" before the amount a value becomes.
	reToEnd = regexp.MustCompile(`(?i)\b(?:to|at|is|are|now|of)\s+$`)
	// reByEnd is the "by" before a difference.
	reByEnd = regexp.MustCompile(`(?i)\bby\s+(?:another\s+|an?\s+extra\s+)?$`)
)

// moneyValue reads an amount ("$3,200/month", "40k", "250") as a number of
// units, with its parts.
func moneyValue(s string) (v float64, parts []string, ok bool) {
	m := reMoneyParts.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, nil, false
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
	if err != nil {
		return 0, nil, false
	}
	return n * multiplier(m[3]), m, true
}

func multiplier(s string) float64 {
	switch s {
	case "k", "K":
		return 1e3
	case "m", "M":
		return 1e6
	case "bn":
		return 1e9
	}
	return 1
}

// formatLike writes v (units) in the form of stored's parts.
func formatLike(v float64, parts []string) string {
	n := v / multiplier(parts[3])
	text := strconv.FormatFloat(n, 'f', -1, 64)
	if math.Abs(n-math.Round(n)) > 1e-9 {
		text = strconv.FormatFloat(n, 'f', 2, 64)
	}
	if strings.Contains(parts[2], ",") {
		text = withCommas(text)
	}
	return parts[1] + text + parts[3] + parts[4]
}

// withCommas groups the whole part of a number in thousands.
func withCommas(s string) string {
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}

// withMoneyDeltas rewrites the differences among cands (amounts said in
// cl) as the stored amount moved by them, adding a bare number said after
// "up", "down" or "by" as one; an amount that is not a difference leaves
// the candidates as they are.
func withMoneyDeltas(cl, stored string, cands []span) []span {
	base, parts, ok := moneyValue(stored)
	if !ok {
		return cands
	}
	all := slices.Clone(cands)
	for _, m := range reBareAmountAfter.FindAllStringSubmatchIndex(cl, -1) {
		if !slices.ContainsFunc(all, func(v span) bool { return v.start <= m[2] && m[2] < v.end }) {
			all = append(all, span{start: m[2], end: m[3], text: cl[m[2]:m[3]], kind: KindAmount})
		}
	}
	out := make([]span, 0, len(all))
	for _, v := range all {
		sign, at := readDelta(cl, v)
		d, _, ok := moneyValue(v.text)
		if sign == 0 || !ok {
			if slices.Contains(cands, v) {
				return cands // an amount the value becomes: no difference is read
			}
			continue
		}
		if parts[1] == "" && strings.ContainsAny(v.text, "$€£¥") {
			return cands // a currency beside a stored count
		}
		nv := base + float64(sign)*d
		if nv < 0 {
			return cands
		}
		v.text, v.start, v.end = formatLike(nv, parts), at.start, at.end
		out = append(out, v)
	}
	return out
}

// readDelta reports whether the count or amount v of cl is said as a
// difference, +1 for a rise and -1 for a fall ("two more", "six fewer",
// "went up by 50", "cut the budget by 5k"), or 0: "two more than last
// year" compares, and "went up to $2,000" says the value it becomes. at
// is v with the difference's own words ("by", "more"), which are not
// words linking a topic to its value.
func readDelta(cl string, v span) (sign int, at span) {
	at = v
	before := cl[:v.start]
	if m := reDeltaWord.FindStringSubmatchIndex(cl[v.end:]); m != nil {
		if rest := strings.ToLower(strings.TrimLeft(cl[v.end+m[1]:], " ")); strings.HasPrefix(rest, "than") {
			return 0, v
		}
		at.end = v.end + m[1]
		if m[2] >= 0 {
			return 1, at
		}
		return -1, at
	}
	switch {
	case reToEnd.MatchString(before):
		return 0, v
	case reUpBefore.MatchString(before):
		sign = 1
	case reDownBefore.MatchString(before):
		sign = -1
	default:
		return 0, v
	}
	if m := reByEnd.FindStringIndex(before); m != nil {
		at.start = m[0]
	}
	return sign, at
}

// reCountedNoun is the noun a count counts, after it: " engineers".
var reCountedNoun = regexp.MustCompile(`^\s+\p{Ll}[\p{Ll}'’-]*s\b`)

// withCountDeltas rewrites the differences among cands (counts said in
// cl) as the stored count moved by them: two more beside 3 is 5; the
// noun counted after "more" is the value's, unless it is a word of the
// topic (topic: the clause's topic spans, "three more houseplants").
// Other counts are kept as they are.
func withCountDeltas(cl, stored string, cands, topic []span) []span {
	base, err := strconv.Atoi(strings.ReplaceAll(strings.Fields(stored)[0], ",", ""))
	if err != nil {
		return cands
	}
	out := slices.Clone(cands)
	for i, v := range out {
		sign, at := readDelta(cl, v)
		if sign == 0 {
			continue
		}
		n, err := strconv.Atoi(strings.ReplaceAll(v.text, ",", ""))
		if c, ok := countWords[strings.ToLower(v.text)]; ok && c == float64(int(c)) {
			n, err = int(c), nil
		}
		if err != nil || base+sign*n < 0 {
			continue
		}
		text := strconv.Itoa(base + sign*n)
		if noun := countNoun(stored); noun != "" {
			text += " " + noun
		}
		if at.end > v.end {
			if w := reCountedNoun.FindString(cl[at.end:]); w != "" && !slices.ContainsFunc(topic, func(t span) bool { return t.start < at.end+len(w) && at.end < t.end }) {
				at.end += len(w)
			}
		}
		out[i].text, out[i].start, out[i].end = text, at.start, at.end
	}
	return out
}
