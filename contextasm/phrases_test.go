package contextasm

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
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

// TestWordSetCollision: a word the text does not hold whose hash is the
// bit of one it holds is not ruled out by lacks (the filter cannot tell),
// and heldAgain, which then asks mentionsLower, still says it is not held.
func TestWordSetCollision(t *testing.T) {
	held := "lisbon"
	other := ""
	for i := 0; other == ""; i++ {
		if w := "w" + strconv.Itoa(i); wordHash(w) == wordHash(held) {
			other = w
		}
	}
	current := []string{"We fly to Lisbon"}
	joined := strings.ToLower(strings.Join(current, "\x00"))
	ws := newWordSet(joined)
	if ws.lacks(other) {
		t.Fatalf("lacks(%q) with the bit of %q set", other, held)
	}
	if !ws.lacks("porto") && wordHash("porto") != wordHash(held) {
		t.Errorf("lacks(%q) = false", "porto")
	}
	checkHeldAgain(t, current, other)
	checkHeldAgain(t, current, "lisbon")
	checkHeldAgain(t, current, "fly to "+other)
}

// TestIsWordRune: the ASCII table is unicode's letters and digits, and
// the underscore.
func TestIsWordRune(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		want := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		if got := isWordRune(r); got != want {
			t.Errorf("isWordRune(%q) = %v, want %v", r, got, want)
		}
	}
}
