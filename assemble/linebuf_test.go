package assemble

import (
	"cmp"
	"strings"
	"testing"
	"time"
)

// TestAppendedLines holds the turn and sentence lines written into the
// builder's buffer to the strings they were made as before.
func TestAppendedLines(t *testing.T) {
	turnLine := func(t Turn) string {
		return "- " + cmp.Or(strings.ToLower(clean(t.Speaker)), "unknown") + ": " + clean(t.Text)
	}
	evidenceLine := func(e Evidence) string {
		return "- " + e.At.UTC().Format("2006-01-02") + " " + cmp.Or(strings.ToLower(clean(e.Speaker)), "unknown") + ": " + clean(e.Text)
	}
	at := time.Date(2026, 11, 28, 23, 30, 0, 0, time.FixedZone("x", -5*3600))
	for _, c := range []struct{ speaker, text string }{
		{"USER", "We talked about it."},
		{"", "  spaced \t out\n text "},
		{"Ünïcode  Speaker", "bad \xff utf8"},
		{"assistant", ""},
	} {
		prefix := []byte("kept|")
		if got, want := string(appendTurnLine(prefix, Turn{Speaker: c.speaker, Text: c.text})), "kept|"+turnLine(Turn{Speaker: c.speaker, Text: c.text}); got != want {
			t.Errorf("turn line %q, want %q", got, want)
		}
		e := Evidence{Speaker: c.speaker, Text: c.text, At: at}
		if got, want := string(appendEvidenceLine(prefix, e)), "kept|"+evidenceLine(e); got != want {
			t.Errorf("evidence line %q, want %q", got, want)
		}
	}
}
