package statebench

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Contains reports whether phrase occurs in text, case-insensitively, on word
// boundaries. A boundary is required only on a side where the phrase begins
// or ends with a word character (letter, digit or underscore), so "$150,000"
// matches in "cost:$150,000." and "15%" in "15%off" but "cap" does not match
// in "capped". An empty or blank phrase never matches.
func Contains(text, phrase string) bool {
	phrase = strings.TrimSpace(phrase)
	if phrase == "" {
		return false
	}
	t, p := strings.ToLower(text), strings.ToLower(phrase)
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	needLeft, needRight := isWord(first), isWord(last)
	for from := 0; from <= len(t)-len(p); {
		i := strings.Index(t[from:], p)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(p)
		if (!needLeft || !wordBefore(t, i)) && (!needRight || !wordAfter(t, end)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(t[i:])
		from = i + size
	}
	return false
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func wordBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return isWord(r)
}

func wordAfter(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isWord(r)
}

// QueryScore is how one assembled context fares against one query.
type QueryScore struct {
	Hits        []string // must_mention phrases present in the context
	Violations  []string // must_not_mention phrases present in the context
	MustMention int      // number of must_mention phrases (the cMMR denominator)
	// ClockOnly: every violation matches only in the environment's clock
	// lines ("- date: Friday, 2025-11-28", "- now: ..."), the timeline's
	// own time rather than a stored value (a superseded weekday matching
	// today's). Still counted as resurrected; reported apart.
	ClockOnly bool
}

// Resurrected reports whether the context contains a forbidden phrase.
func (s QueryScore) Resurrected() bool { return len(s.Violations) > 0 }

// Score matches the ground truth's phrases against context with Contains.
// Blank phrases are ignored, in both lists.
func Score(context string, gt GroundTruth) QueryScore {
	var s QueryScore
	for _, p := range gt.MustMention {
		if strings.TrimSpace(string(p)) == "" {
			continue
		}
		s.MustMention++
		if Contains(context, string(p)) {
			s.Hits = append(s.Hits, string(p))
		}
	}
	clockless := ""
	for _, p := range gt.MustNotMention {
		if Contains(context, string(p)) {
			if s.Violations == nil {
				clockless = clockLines.ReplaceAllString(context, "")
				s.ClockOnly = true
			}
			s.Violations = append(s.Violations, string(p))
			s.ClockOnly = s.ClockOnly && !Contains(clockless, string(p))
		}
	}
	return s
}

// clockLines are the environment lines an assembled context states the
// time in.
var clockLines = regexp.MustCompile(`(?m)^- (?:date|now): .*$`)

// Metrics summarises a set of queries.
type Metrics struct {
	Queries     int `json:"queries"`     // queries scored
	Resurrected int `json:"resurrected"` // queries whose context held a must_not_mention phrase
	// ClockOnly of Resurrected held it only in the date/now lines.
	ClockOnly   int     `json:"resurrectedInClockLinesOnly"`
	Hits        int     `json:"hits"`        // must_mention phrases found, pooled over queries
	MustMention int     `json:"mustMention"` // must_mention phrases, pooled over queries
	Tokens      int     `json:"tokens"`      // context tokens, summed
	CSFRR       float64 `json:"cSFRR"`       // Resurrected / Queries; lower is better
	CMMR        float64 `json:"cMMR"`        // Hits / MustMention; higher is better
	MeanTokens  float64 `json:"meanTokens"`  // Tokens / Queries
}

func (m *Metrics) add(s QueryScore, tokens int) {
	m.Queries++
	if s.Resurrected() {
		m.Resurrected++
		if s.ClockOnly {
			m.ClockOnly++
		}
	}
	m.Hits += len(s.Hits)
	m.MustMention += s.MustMention
	m.Tokens += tokens
}

func (m *Metrics) finish() {
	m.CSFRR = ratio(m.Resurrected, m.Queries)
	m.CMMR = ratio(m.Hits, m.MustMention)
	m.MeanTokens = ratio(m.Tokens, m.Queries)
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Tally accumulates query scores overall and per track. The zero value is
// ready to use; it is not safe for concurrent use.
type Tally struct {
	all    Metrics
	tracks map[string]*Metrics
}

// Add records the score of one query of the given track and the token count
// of the context it was scored on.
func (t *Tally) Add(track string, s QueryScore, tokens int) {
	t.all.add(s, tokens)
	if t.tracks == nil {
		t.tracks = make(map[string]*Metrics)
	}
	m := t.tracks[track]
	if m == nil {
		m = new(Metrics)
		t.tracks[track] = m
	}
	m.add(s, tokens)
}

// Report is the overall and per-track summary of a Tally.
type Report struct {
	Overall Metrics            `json:"overall"`
	Tracks  map[string]Metrics `json:"tracks"`
}

// TrackNames returns the report's tracks in lexical order.
func (r Report) TrackNames() []string {
	names := make([]string, 0, len(r.Tracks))
	for n := range r.Tracks {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Report computes the rates from the counts recorded so far.
func (t *Tally) Report() Report {
	r := Report{Overall: t.all, Tracks: make(map[string]Metrics, len(t.tracks))}
	r.Overall.finish()
	for name, m := range t.tracks {
		c := *m
		c.finish()
		r.Tracks[name] = c
	}
	return r
}
