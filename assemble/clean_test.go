package assemble

import (
	"strings"
	"testing"
)

// FuzzClean checks clean's fast path against its definition.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"", " ", "a b", "a  b", " a", "a ", "a\tb", "日本 語", "\u00a0x", "x\u2028y", "\xff", "\uFFFD ok", "k: v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
		if got := clean(s); got != want {
			t.Fatalf("clean(%q) = %q, want %q", s, got, want)
		}
	})
}
