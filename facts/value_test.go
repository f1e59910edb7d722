package facts_test

import (
	"encoding/json"
	"testing"

	"github.com/stategraph/stategraph/facts"
)

// FuzzStringValue: StringValue reads every value exactly as json.Unmarshal
// into a string does, its fast path included.
func FuzzStringValue(f *testing.F) {
	for _, s := range []string{
		`"plain words"`, `""`, `"tab\tescaped"`, `"quote \" inside"`, `"unicode \u00e9 escape"`,
		"\"caf\xc3\xa9\"", "\"bad \xff utf8\"", "\"raw\ttab\"", `"unterminated`, `"a" "b"`, ` "spaced" `,
		`42`, `null`, `{"a":1}`, `["x"]`, `"`, ``, "\"\u2028\"", "\"del \x7f\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		var want string
		err := json.Unmarshal(v, &want)
		got, ok := facts.StringValue(v)
		if ok != (err == nil) || got != want {
			t.Fatalf("StringValue(%q) = %q, %v; json.Unmarshal gives %q, %v", v, got, ok, want, err)
		}
	})
}

func TestValueText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"in a meeting until 3"`, "in a meeting until 3"},
		{`"line\nbreak"`, "line\nbreak"},
		{"\"bad \xff byte\"", "bad \ufffd byte"},
		{` {"a": 1} `, `{"a": 1}`},
		{`12.5`, "12.5"},
	} {
		if got := facts.ValueText(json.RawMessage(tc.in)); got != tc.want {
			t.Errorf("ValueText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
