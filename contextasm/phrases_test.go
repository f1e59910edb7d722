package contextasm

import (
	"strings"
	"testing"
)

// FuzzPhrases checks phrases.in and wordSet.lacks against mentionsLower
// phrase by phrase, on arbitrary (also invalid UTF-8) texts and phrases.
func FuzzPhrases(f *testing.F) {
	for _, c := range mentionCases {
		f.Add(c.text, c.phrase, "$150,000|lisbon|x")
	}
	f.Add("ab\xc3\xa9 cd", "ab\xc3", "cd|ab")
	f.Add("we fly to lisbon, then porto", "lisbon", "porto|fly to|to l")
	f.Add("ünïcode straße", "straße", "ünï|code")
	f.Fuzz(func(t *testing.T, text, phrase, more string) {
		var ps []string
		for _, p := range append([]string{phrase}, strings.Split(more, "|")...) {
			if p = strings.ToLower(strings.TrimSpace(p)); p != "" {
				ps = append(ps, p)
			}
		}
		lt := strings.ToLower(text)
		want := false
		ws := newWordSet(lt)
		for _, p := range ps {
			m := mentionsLower(lt, p)
			want = want || m
			if m && ws.lacks(p) {
				t.Errorf("wordSet(%q).lacks(%q), yet mentionsLower finds it", lt, p)
			}
		}
		if got := newPhrases(ps).in(lt); got != want {
			t.Errorf("phrases%q.in(%q) = %v, mentionsLower phrase by phrase says %v", ps, lt, got, want)
		}
	})
}
