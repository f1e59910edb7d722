package contextasm

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/detect"
)

// mentionCases are texts and phrases where word boundaries, case and
// non-ASCII letters matter.
var mentionCases = []struct{ text, phrase string }{
	{"The budget is $150,000 now", "$150,000"},
	{"The budget is $150,0001 now", "$150,000"},
	{"Lisbon", "lisbon"},
	{"in LISBON.", " Lisbon "},
	{"Lisbonne", "Lisbon"},
	{"pre_Lisbon", "Lisbon"},
	{"Ünïcode Straße", "straße"},
	{"İstanbul trip", "i̇stanbul"},
	{"", "x"},
	{"abc abc", "abc"},
	{"xabc abc", "abc"},
	{"50% off", "50%"},
	{"a\x00b", "a"},
	{"\xff\xfeLisbon", "lisbon"},
	{"K is the Kelvin sign", "k"},
}

// TestMentionsLower checks mentionsLower against detect.Mentions, and
// heldAgain (one search in the current values joined) against asking each
// value, on the cases above in every pairing.
func TestMentionsLower(t *testing.T) {
	for _, c := range mentionCases {
		checkMentions(t, c.text, c.phrase)
		for _, d := range mentionCases {
			checkHeldAgain(t, []string{c.text, d.text}, c.phrase)
			checkHeldAgain(t, []string{c.text, d.text}, d.phrase)
		}
	}
}

// FuzzMentionsLower checks mentionsLower and heldAgain against
// detect.Mentions on arbitrary text.
func FuzzMentionsLower(f *testing.F) {
	for _, c := range mentionCases {
		f.Add(c.text, "second value", c.phrase)
	}
	f.Fuzz(func(t *testing.T, a, b, phrase string) {
		checkMentions(t, a, phrase)
		checkHeldAgain(t, []string{a, b}, phrase)
	})
}

func checkMentions(t *testing.T, text, phrase string) {
	t.Helper()
	p := strings.ToLower(strings.TrimSpace(phrase))
	want := detect.Mentions(text, phrase)
	if got := p != "" && mentionsLower(strings.ToLower(text), p); got != want {
		t.Errorf("mentionsLower(%q, %q) = %v, detect.Mentions says %v", text, phrase, got, want)
	}
}

func checkHeldAgain(t *testing.T, current []string, phrase string) {
	t.Helper()
	v := strings.TrimSpace(phrase)
	want := slices.ContainsFunc(current, func(c string) bool { return detect.Mentions(c, v) })
	joined := strings.ToLower(strings.Join(current, "\x00"))
	ws := newWordSet(joined)
	if got := heldAgain(v, current, func() string { return joined }, &ws); got != want {
		t.Errorf("heldAgain(%q, %q) = %v, asking each says %v", v, current, got, want)
	}
}

// TestStaleValues checks states over prepared values against the rule
// stated value by value: a retired value no current one holds again is
// stated by a text that mentions it whole (when long enough) or mentions
// one of its distinctive values the new value lacks.
func TestStaleValues(t *testing.T) {
	retired := []Retired{
		{ID: "a", Value: "Lisbon", New: "Porto"},
		{ID: "b", Value: " budget $150,000 approved ", New: "budget $200,000 approved"},
		{ID: "c", Value: "Seville", New: "Madrid"},
		{ID: "d", Value: "ok", New: "no"},
		{ID: "e", Value: "", New: "x"},
	}
	current := []string{"Porto", "budget $200,000 approved", "Seville in May"}
	texts := []string{
		"We fly to Lisbon", "we fly to lisbonne", "The $150,000 budget", "Seville it is",
		"it is ok", "nothing here", "was Lisbon, now Porto", "BUDGET $150,000 APPROVED",
	}
	stale := staleValues(retired, current, texts)
	for _, text := range texts {
		if got, want := states(text, stale, current), statesByRule(text, retired, current); got != want {
			t.Errorf("states(%q) = %v, want %v", text, got, want)
		}
	}
}

// statesByRule is states stated value by value: a retired value no
// current one holds again is stated by a text that mentions it whole
// (when long enough) or mentions one of its distinctive values the new
// value lacks; so is the history of a current value.
func statesByRule(text string, retired []Retired, current []string) bool {
	for _, r := range retired {
		v := strings.TrimSpace(r.Value)
		if slices.ContainsFunc(current, func(c string) bool { return detect.Mentions(c, v) }) {
			continue
		}
		if len(v) >= minStaleValue && detect.Mentions(text, v) {
			return true
		}
		for _, d := range detect.Distinctive(v) {
			if !detect.Mentions(r.New, d) && (len(d) >= minStaleValue || strings.ContainsAny(d, "0123456789")) && detect.Mentions(text, d) {
				return true
			}
		}
	}
	return narrates(text, current)
}

// FuzzStaleValues: states over the values staleValues prepared for a set
// of texts answers for each of them as the rule stated value by value
// does (statesByRule); values no text can state are left out first.
func FuzzStaleValues(f *testing.F) {
	f.Add("Lisbon|budget $150,000 approved|Seville|ok|", "Porto|budget $200,000 approved|Madrid|no|x", "Porto|Seville in May", "We fly to Lisbon|The $150,000 budget|nothing here|it is ok")
	f.Add("lisbon porto", "porto", "Lisbon", "LISBON PORTO|porto")
	f.Add("\xff lisbon", "", "\xfe", "lisbon\x00porto|\xff lisbon")
	f.Add("$1,200 on May 3|Ana Silva", "$1,300 on May 3|Ana", "May 3", "it was $1,200 then|ana silva said so|was $1,200, now $1,300")
	f.Fuzz(func(t *testing.T, values, news, cur, txt string) {
		vs, ns := strings.Split(values, "|"), strings.Split(news, "|")
		var retired []Retired
		for i, v := range vs {
			r := Retired{ID: strconv.Itoa(i), Value: v}
			if i < len(ns) {
				r.New = ns[i]
			}
			retired = append(retired, r)
		}
		current, texts := strings.Split(cur, "|"), strings.Split(txt, "|")
		stale := staleValues(retired, current, texts)
		for _, text := range texts {
			if got, want := states(text, stale, current), statesByRule(text, retired, current); got != want {
				t.Errorf("states(%q) = %v, by the rule %v (retired %q, current %q)", text, got, want, vs, current)
			}
		}
	})
}
