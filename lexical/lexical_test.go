package lexical_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stategraph/stategraph/lexical"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"The budget is $150,000", []string{"the", "budget", "is", "150000"}},
		{"150000 and 1.5x", []string{"150000", "and", "1.5x"}},
		{"available_budget", []string{"available", "budget"}},
		{"it's the CEO's call", []string{"it", "s", "the", "ceo", "s", "call"}},
		{"follow-up", []string{"follow", "up"}},
		{"Café au lait", []string{"café", "au", "lait"}},
		{"1,2.3,,4..5", []string{"12.3", "4", "5"}},
		{"end of sentence 42.", []string{"end", "of", "sentence", "42"}},
		{",5 and .5", []string{"5", "and", "5"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := lexical.Tokens(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"The budget is $150,000", []string{"budget", "150000"}},
		{"max 15% discount", []string{"max", "15", "discount"}},
		{"150000 and 1.5x", []string{"150000", "1.5x"}},
		{"available_budget", []string{"availabl", "budget"}},
		{"Deadlines, policies & classes", []string{"deadlin", "policy", "class"}},
		{"status of the analysis", []string{"status", "analysis"}},
		{"Does it matter? Yes!", []string{"matter", "yes"}},
		{"2025-01-15", []string{"2025", "01", "15"}},
		{"end of sentence 42.", []string{"end", "sentenc", "42"}},
		{"ÉTÉ Straße お誕生日", []string{"été", "straße", "お誕生日"}},
		{"Café", []string{"café"}},
		{"cafés", []string{"cafés"}},
		{"we don't ship", []string{"ship"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := lexical.Terms(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("Terms(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestStemMeets lists words that must share a term, and words that must not.
func TestStemMeets(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"budgets", "budget", true},
		{"policies", "policy", true},
		{"pricing", "price", true},
		{"priced", "prices", true},
		{"classes", "class", true},
		{"deadline", "deadlines", true},
		{"status", "statu", false},
		{"analysis", "analysi", false},
		{"budget", "budge", false},
	}
	for _, tc := range tests {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			if got := lexical.Stem(tc.a) == lexical.Stem(tc.b); got != tc.same {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q: same %v, want %v", tc.a, lexical.Stem(tc.a), tc.b, lexical.Stem(tc.b), got, tc.same)
			}
		})
	}
}

func TestIsStop(t *testing.T) {
	for _, w := range []string{"the", "and", "is", "s", "don"} {
		if !lexical.IsStop(w) {
			t.Errorf("IsStop(%q) = false, want true", w)
		}
	}
	for _, w := range []string{"budget", "ceo", "café", ""} {
		if lexical.IsStop(w) {
			t.Errorf("IsStop(%q) = true, want false", w)
		}
	}
}

func FuzzTerms(f *testing.F) {
	for _, s := range []string{
		"The budget is $150,000", "1,2.3,,4..5", "\xff\xfe ÉTÉ", "Café", "ǅemal ǈ", "İstanbul",
		"policies pricing classes", "it's the CEO's call", "0.5.5,5", "ß ẞ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := lexical.Tokens(s)
		for _, tok := range toks {
			if tok == "" || !utf8.ValidString(tok) {
				t.Fatalf("Tokens(%q) has an empty or invalid token %q", s, tok)
			}
			if strings.ToLower(tok) != tok {
				t.Fatalf("Tokens(%q) has %q, not lower case", s, tok)
			}
			if strings.IndexFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' }) >= 0 {
				t.Fatalf("Tokens(%q) has %q with a separator", s, tok)
			}
		}
		if again := lexical.Tokens(strings.Join(toks, " ")); !slices.Equal(again, toks) {
			t.Fatalf("Tokens not stable on %q: %q then %q", s, toks, again)
		}
		terms := lexical.Terms(s)
		for _, term := range terms {
			if term == "" || strings.ToLower(term) != term || lexical.IsStop(term) {
				t.Fatalf("Terms(%q) has %q", s, term)
			}
			if lexical.Stem(term) != term {
				t.Fatalf("Stem(%q) = %q: a stem must be stable", term, lexical.Stem(term))
			}
		}
		if again := lexical.Terms(strings.Join(terms, " ")); !slices.Equal(again, terms) {
			t.Fatalf("Terms not stable on %q: %q then %q", s, terms, again)
		}
		if !slices.Equal(lexical.Terms(s), lexical.Terms(s+" the")) {
			t.Fatalf("a trailing stop word changed Terms(%q)", s)
		}
	})
}

func BenchmarkTerms(b *testing.B) {
	doc := strings.Repeat("available_budget: $120,000 total budget for the Q3 marketing campaigns, approved by the CFO on 2025-01-15. ", 4)
	b.ReportAllocs()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		lexical.Terms(doc)
	}
}

// TestLowerASCII: only ASCII letters are lowered, so offsets are kept
// where strings.ToLower would move them.
func TestLowerASCII(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Marketing's Budget", "marketing's budget"},
		{"İstanbul Café ÉTÉ", "İstanbul café ÉtÉ"},
		{"", ""},
	} {
		got := lexical.LowerASCII(tc.in)
		if got != tc.want || len(got) != len(tc.in) {
			t.Errorf("LowerASCII(%q) = %q, want %q of the same length", tc.in, got, tc.want)
		}
	}
	if !lexical.IsASCIILetter('a') || !lexical.IsASCIILetter('Z') || lexical.IsASCIILetter('1') || lexical.IsASCIILetter(0xC3) {
		t.Error("IsASCIILetter reads letters outside A-Z and a-z")
	}
}

func TestWordIndexes(t *testing.T) {
	tests := []struct {
		s, w string
		want []int
	}{
		{"coach ramirez took the coaching job", "coach", []int{0}},
		{"the chen lab and chen's lab", "chen", []int{4, 17}},
		{"nothing here", "chen", nil},
		{"anything", "", nil},
	}
	for _, tc := range tests {
		if got := lexical.WordIndexes(tc.s, tc.w); !slices.Equal(got, tc.want) {
			t.Errorf("WordIndexes(%q, %q) = %v, want %v", tc.s, tc.w, got, tc.want)
		}
	}
}
