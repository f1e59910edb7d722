package extract

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// An amount said as a change of the stored amount: "Rent goes up 250 a
// month starting January", "they raised the fee by $15", "$16 more a
// month". withMoneyDeltas writes it as the stored amount moved by it, in
// the stored amount's form ("$3,200/month" → "$3,450/month"), when the
// clause says no amount the value becomes ("raised dues by $25, to $275"
// keeps $275).

var (
	// reMoneyParts splits a stored amount: currency, number, multiplier,
	// the rest ("/month", " a month").
	reMoneyParts = regexp.MustCompile(`^([$€£¥]?)\s?(\d[\d,]*(?:\.\d+)?)\s?(k|K|m|M|bn)?(.*)$`)
	// reUpBefore and reDownBefore end a clause's text before a difference:
	// "went up", "raised it by", "a cut of".
	reUpBefore   = regexp.MustCompile(`(?i)\b(?:up|raised|raise|raising|increased|increase|increasing|hiked|hike|bumped|add|added|adding|an? (?:raise|increase|hike|bump) of)(?:\s+(?:it|them|us|me|(?:the|our|my)\s+\w+|\w+))?(?:\s+by)?\s+(?:another\s+|an?\s+extra\s+)?$`)
	reDownBefore = regexp.MustCompile(`(?i)\b(?:down|cut|cutting|reduced|reduce|reducing|lowered|lower|dropped|drop|decreased|decrease|knocked|slashed|trimmed|shrank|shrunk|fell|an? (?:cut|reduction|drop|discount) of)(?:\s+(?:it|them|us|me|(?:the|our|my)\s+\w+|\w+))?(?:\s+(?:by|off))?\s+$`)
	// reMoreAfter and reLessAfter follow a difference: "$16 more".
	reUpAfter   = regexp.MustCompile(`(?i)^\s*(?:more|higher|extra|on top)\b`)
	reDownAfter = regexp.MustCompile(`(?i)^\s*(?:less|lower|cheaper|off)\b`)
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
		sign := 0
		switch before, after := cl[:v.start], cl[v.end:]; {
		case reUpAfter.MatchString(after):
			sign = 1 // "$2 more"
		case reDownAfter.MatchString(after):
			sign = -1
		case reToEnd.MatchString(before):
			// "went up to $2,000": the amount the value becomes.
		case reUpBefore.MatchString(before):
			sign = 1
		case reDownBefore.MatchString(before):
			sign = -1
		}
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
		v.text = formatLike(nv, parts)
		if m := reByEnd.FindStringIndex(cl[:v.start]); m != nil {
			v.start = m[0] // "by" is the difference's word, not a link's
		}
		out = append(out, v)
	}
	return out
}
