// Package lexical is the one definition of words in stategraph: how text
// splits into tokens, which tokens are stop words, and how a word is
// stemmed. Search indexes documents and parses queries with Terms,
// detection compares topics with its tokens and terms, and budgeting ranks
// candidates with them, so a word means the same thing everywhere.
package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens splits s into lowercased runs of letters and digits, in order,
// without dropping or stemming anything. Letters keep their accents
// ("Café" is "café"). Numbers are kept whole: a comma between two digits
// is a thousands separator ("150,000" is "150000") and a period between two
// digits a decimal point ("1.5" stays "1.5"). Every other character,
// apostrophes and underscores included, separates tokens.
func Tokens(s string) []string {
	var out []string
	scan(s, func(tok string) { out = append(out, tok) })
	return out
}

// scan calls fn with each token of s, in order.
func scan(s string, fn func(tok string)) {
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			fn(string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur = append(cur, lower(r))
		case (r == ',' || r == '.') && len(cur) > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]):
			if r == '.' {
				cur = append(cur, r)
			}
		default:
			flush()
		}
	}
	flush()
}

// lower lowercases r. A letter whose simple lower-case mapping is still
// changed by strings.ToLower (rare: title-case digraphs and the like) is
// folded once more, so that a token always equals strings.ToLower of
// itself.
func lower(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	l := unicode.ToLower(r)
	if s := string(l); strings.ToLower(s) != s {
		l, _ = utf8.DecodeRuneInString(strings.ToLower(s))
	}
	return l
}

// Terms returns the index terms of s: its tokens, stop words dropped,
// stemmed. The same function indexes documents and parses queries; a term
// is never empty, is lower case, and Terms of the terms joined by spaces
// are the terms again.
func Terms(s string) []string {
	var out []string
	scan(s, func(tok string) {
		if t, ok := Term(tok); ok {
			out = append(out, t)
		}
	})
	return out
}

// Term returns the index term of one token, and false when the token is a
// stop word (before or after stemming).
func Term(token string) (string, bool) {
	if IsStop(token) {
		return "", false
	}
	t := Stem(token)
	if t == "" || IsStop(t) {
		return "", false
	}
	return t, true
}

// Stem folds the common English inflections of a word of letters, so
// that "budgets" meets "budget", "policies" "policy" and "pricing" "price":
// plural endings first, then -ing, -ed and a final -e. The rules are
// English: only words of ASCII letters are stemmed; words with a digit or
// any other letter ("straße", "été") and words of fewer than four letters
// are returned unchanged. Stemming a stem changes nothing.
func Stem(w string) string {
	if len(w) < 4 || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return w
	}
	// Fixed point: a stem is stable under Stem. Each pass only shortens,
	// so this ends.
	for {
		s := stemOnce(w)
		if s == w {
			return s
		}
		w = s
	}
}

func stemOnce(w string) string {
	if len(w) < 4 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	for _, suf := range []string{"ing", "ed", "e"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// LowerASCII lowers the ASCII letters of s and nothing else, so a byte
// offset into the result is the same offset into s (strings.ToLower may
// change a string's length: "İ" lowers to three bytes).
func LowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// IsASCIILetter reports whether c is an ASCII letter.
func IsASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// IsASCIIDigit reports whether c is one of 0 to 9.
func IsASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

// WordIndexes returns where w starts in s as a whole word: not inside a
// longer run of ASCII letters ("coach" is not in "coaching").
func WordIndexes(s, w string) []int {
	var out []int
	if w == "" {
		return nil
	}
	for i := 0; i+len(w) <= len(s); {
		j := strings.Index(s[i:], w)
		if j < 0 {
			break
		}
		a, b := i+j, i+j+len(w)
		if (a == 0 || !IsASCIILetter(s[a-1])) && (b == len(s) || !IsASCIILetter(s[b])) {
			out = append(out, a)
		}
		i = a + 1
	}
	return out
}
