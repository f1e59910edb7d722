package contextasm

import (
	"encoding/json"
	"testing"

	"github.com/stategraph/stategraph/facts"
)

// FuzzObjectText checks objectTextOf and objectText (remembered) against
// facts.ValueText on any bytes.
func FuzzObjectText(f *testing.F) {
	for _, s := range []string{`"Room#4"`, `"a\"b"`, `"tab\there"`, `"ünï"`, `"\u00e9"`, `""`, `"`, `42`, ` {"a": 1} `, "\"\x7f\"", "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		want := facts.ValueText(json.RawMessage(raw))
		if got := objectTextOf(json.RawMessage(raw)); got != want {
			t.Errorf("objectTextOf(%q) = %q, facts.ValueText says %q", raw, got, want)
		}
		// Remembered: the same text the first time and the next, and
		// when the bytes asked with are then changed in place.
		buf := append([]byte(nil), raw...)
		for range 2 {
			if got := objectText(json.RawMessage(buf)); got != want {
				t.Errorf("objectText(%q) = %q, facts.ValueText says %q", raw, got, want)
			}
		}
		for i := range buf {
			buf[i] = 'x'
		}
		if got, want := objectText(json.RawMessage(buf)), facts.ValueText(json.RawMessage(buf)); got != want {
			t.Errorf("objectText(%q) after a change in place = %q, facts.ValueText says %q", buf, got, want)
		}
	})
}
