package detect

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusTexts are the texts of StateBench's timelines, whole and split
// into sentences, plus texts that test the edges of the case folding.
func corpusTexts(tb testing.TB) []string {
	tb.Helper()
	out := []string{
		"", "Actually, MOVE it to Friday.", "It's now K-12 (KELVIN K)", "ſcratch that", "ACTUALLY",
		"we’re going with Porto instead", "Per the CEO: no travel.", "What if we moved it?", "for now",
	}
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			add(v)
			for _, s := range splitSentences(v) {
				add(s)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, split := range []string{"train.jsonl", "dev.jsonl"} {
		f, err := os.Open(filepath.Join("../testdata/statebench", split))
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var v any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				tb.Fatal(err)
			}
			walk(v)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// TestPrefilterSkipsOnlyWhatCannotMatch: the cheap test in front of each
// expression never skips a text the expression matches, over every text
// of StateBench; and it does skip (an expression with no words would be
// run on everything, silently).
func TestPrefilterSkipsOnlyWhatCannotMatch(t *testing.T) {
	texts := corpusTexts(t)
	if len(texts) < 1000 {
		t.Fatalf("corpus of %d texts, want the StateBench timelines", len(texts))
	}
	for name, p := range prefiltered() {
		t.Run(name, func(t *testing.T) {
			for _, w := range p.words {
				if w == "" {
					t.Fatalf("an empty word: the test would pass everything")
				}
			}
			skipped := 0
			for _, s := range texts {
				if !p.may(s) {
					skipped++
					if p.Regexp.MatchString(s) {
						t.Fatalf("skipped %q, which %s matches", s, p)
					}
				}
			}
			if p.words != nil && skipped == 0 {
				t.Errorf("the test skipped none of %d texts", len(texts))
			}
		})
	}
}

// TestRequiredWords: what requiredWords reads from an expression.
func TestRequiredWords(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []string
	}{
		{`(?i)\bactually\b`, []string{"actually"}},
		{`(?i)\bmake (?:that|it)\b`, []string{"make "}},
		{`(?i)\b(?:go|going) with\b`, []string{" with"}},
		{`a|b*`, nil},          // a branch without a word
		{`(?i)\s*[.;!?]`, nil}, // a class is no word
		{`x{2,}y?`, []string{"x"}},
		{`z{0,3}`, nil},
		{`é`, nil}, // not ASCII: folding has exceptions
		{`(`, nil}, // does not parse: no test
	} {
		if got := requiredWords(tc.expr); strings.Join(got, "|") != strings.Join(tc.want, "|") || (got == nil) != (tc.want == nil) {
			t.Errorf("requiredWords(%q) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}

// FuzzPrefilter: no text the expressions match is skipped.
func FuzzPrefilter(f *testing.F) {
	for _, s := range []string{"Actually, move it to Friday.", "We're going with Porto instead.", "The rate is now $150.", "Per the CEO, no.", "KELVIN", "ſ"} {
		f.Add(s)
	}
	ps := prefiltered()
	f.Fuzz(func(t *testing.T, s string) {
		for name, p := range ps {
			if !p.may(s) && p.Regexp.MatchString(s) {
				t.Fatalf("%s: skipped %q, which it matches", name, s)
			}
		}
	})
}

// FuzzLoweredMatching: the prefilter's containsLowered and folded.index's
// lowering on the stack answer what lowering with strings.ToLower answers.
func FuzzLoweredMatching(f *testing.F) {
	f.Add("Dana Reyes OWNS project 12 now", "owns")
	f.Add("The budget is $45K", "$45k")
	f.Add("Actually, Jonas", "")
	f.Add("short", "longer than the text")
	f.Add("Zürich office moved", "zürich")
	f.Add("A phrase longer than thirty-two bytes, in Upper Case", "Upper Case")
	f.Fuzz(func(t *testing.T, s, w string) {
		if isASCII(s) {
			if got, want := containsLowered(s, w), strings.Contains(strings.ToLower(s), w); got != want {
				t.Errorf("containsLowered(%q, %q) = %v, want %v", s, w, got, want)
			}
		}
		// folded.index lowers the phrase as strings.ToLower does.
		ref := folded{text: s, low: strings.ToLower(s)}
		if got, want := ref.index(w), indexFoldReference(ref, w); got != want {
			t.Errorf("folded(%q).index(%q) = %d, want %d", s, w, got, want)
		}
	})
}

// indexFoldReference is folded.index as it was, lowering the phrase with
// strings.ToLower.
func indexFoldReference(f folded, phrase string) int {
	phrase = strings.TrimSpace(phrase)
	if phrase == "" {
		return -1
	}
	return folded{text: f.text, low: f.low}.indexLowered(strings.ToLower(phrase))
}
