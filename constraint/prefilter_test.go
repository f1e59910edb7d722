package constraint

import (
	"strings"
	"testing"
)

// FuzzPrefilter: the trigger words never hide a match the expression
// finds (for ASCII text, where lower-casing maps letters one to one).
func FuzzPrefilter(f *testing.F) {
	for _, s := range []string{"Never exceed $500", "Budget cap is 10k", "requires CFO approval", "Due by Friday", "at least 3", "you MUST", "no travel without sign-off", "plain value"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range s {
			if c > 127 {
				return
			}
		}
		lower := strings.ToLower(s)
		for _, r := range rules {
			if got, want := r.find(s, lower), r.re.FindString(s); got != want {
				t.Fatalf("%s on %q: prefiltered %q, expression %q (triggers %q)", r.typ, s, got, want, r.triggers)
			}
		}
	})
}

func TestLiteralPrefix(t *testing.T) {
	for phrase, want := range map[string]string{
		`\bnever\b`: "never", `\brequires? (?:\w+ ){0,3}approval\b`: "require", `\bmaximum \$`: "maximum ",
		`\bno \w+ without\b`: "no ", `\bprohibit\w*\b`: "prohibit", `\bmax(?:imum)? (?:\w+ )?spend\b`: "max",
		`\bcan't\b`: "can't", `\bexpires?\b`: "expire",
	} {
		if got := literalPrefix(phrase); got != want {
			t.Errorf("literalPrefix(%q) = %q, want %q", phrase, got, want)
		}
	}
}
