package contextasm

import (
	"encoding/json"
	"testing"

	"github.com/stategraph/stategraph/facts"
)

// FuzzObjectText checks objectText against facts.ValueText on any bytes.
func FuzzObjectText(f *testing.F) {
	for _, s := range []string{`"Room#4"`, `"a\"b"`, `"tab\there"`, `"ünï"`, `"\u00e9"`, `""`, `"`, `42`, ` {"a": 1} `, "\"\x7f\"", "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if got, want := objectText(json.RawMessage(raw)), facts.ValueText(json.RawMessage(raw)); got != want {
			t.Errorf("objectText(%q) = %q, facts.ValueText says %q", raw, got, want)
		}
	})
}
