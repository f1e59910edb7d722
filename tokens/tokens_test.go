package tokens_test

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stategraph/stategraph/tokens"
)

func newCounter(tb testing.TB) *tokens.Counter {
	tb.Helper()
	c, err := tokens.New()
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	return c
}

// The counts below are cl100k_base reference counts published with OpenAI's
// tiktoken ("How to count tokens with tiktoken").
func TestCount(t *testing.T) {
	c := newCounter(t)
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"hello world", "hello world", 2},
		{"sentence", "tiktoken is great!", 6},
		{"long word", "antidisestablishmentarianism", 6},
		{"arithmetic", "2 + 2 = 4", 7},
		{"japanese", "お誕生日おめでとう", 9},
		// Special tokens are ordinary text: "<", "|", "endo", "ft", "ext", "|", ">".
		{"special token as text", "<|endoftext|>", 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.Count(tc.in); got != tc.want {
				t.Errorf("Count(%q) = %d, want %d", tc.in, got, tc.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	c := newCounter(t)
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)
	tests := []struct {
		name  string
		in    string
		limit int
		want  string // "" with check set means: only the properties are checked
		check bool
	}{
		{name: "zero limit", in: "hello world", limit: 0, check: true},
		{name: "negative limit", in: "hello world", limit: -3, check: true},
		{name: "fits exactly", in: "hello world", limit: 2, want: "hello world", check: true},
		{name: "fits with room", in: "hello world", limit: 100, want: "hello world", check: true},
		{name: "one token", in: "hello world", limit: 1, want: "hello", check: true},
		// t|ik|token| is| great|!
		{name: "token boundary", in: "tiktoken is great!", limit: 3, want: "tiktoken", check: true},
		{name: "long text", in: long, limit: 37},
		{name: "multibyte", in: "お誕生日おめでとう", limit: 4},
		{name: "emoji", in: "⚠️ CORRECTION: 🎉🎉🎉 budget", limit: 3},
		{name: "invalid utf8", in: "ab\xffcd\xfe\xfdef", limit: 2},
		{name: "empty", in: "", limit: 5, check: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := c.Truncate(tc.in, tc.limit)
			if tc.check && got != tc.want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
			}
			checkTruncate(t, c, tc.in, tc.limit, got)
		})
	}
}

func TestTruncateUsesWholeLimit(t *testing.T) {
	c := newCounter(t)
	// Every word of this text is a single token, so a cut on a token
	// boundary can always use the whole limit.
	s := strings.Repeat(" the quick brown fox jumps over the lazy dog", 30)
	for _, limit := range []int{1, 2, 7, 50, 199} {
		if got := c.Count(c.Truncate(s, limit)); got != limit {
			t.Errorf("Count(Truncate(s, %d)) = %d, want %d", limit, got, limit)
		}
	}
}

// checkTruncate verifies the promises of Truncate for one call: within the
// limit, valid UTF-8, a prefix of the input, and the whole input when it fits.
func checkTruncate(t *testing.T, c *tokens.Counter, in string, limit int, got string) {
	t.Helper()
	if limit <= 0 {
		if got != "" {
			t.Fatalf("Truncate(%q, %d) = %q, want empty", in, limit, got)
		}
		return
	}
	if n := c.Count(got); n > limit {
		t.Fatalf("Count(Truncate(%q, %d)) = %d, want <= %d", in, limit, n, limit)
	}
	if !utf8.ValidString(got) {
		t.Fatalf("Truncate(%q, %d) = %q, not valid UTF-8", in, limit, got)
	}
	full := string([]rune(in)) // the tokenizer's view of in
	if !strings.HasPrefix(full, got) {
		t.Fatalf("Truncate(%q, %d) = %q, not a prefix of %q", in, limit, got, full)
	}
	if c.Count(in) <= limit && got != full {
		t.Fatalf("Truncate(%q, %d) = %q, want the whole input (it fits)", in, limit, got)
	}
}

func TestCounterConcurrent(t *testing.T) {
	c := newCounter(t)
	texts := []string{"hello world", "tiktoken is great!", "お誕生日おめでとう", strings.Repeat("budget ", 50)}
	want := make([]int, len(texts))
	for i, s := range texts {
		want[i] = c.Count(s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Go(func() {
			other, err := tokens.New() // New is safe to call concurrently too
			if err != nil {
				errs <- err.Error()
				return
			}
			for i := range 20 {
				k := (g + i) % len(texts)
				if got := other.Count(texts[k]); got != want[k] {
					errs <- texts[k]
				}
				_ = c.Truncate(texts[k], 3)
			}
		})
	}
	wg.Wait()
	close(errs)
	for s := range errs {
		t.Errorf("concurrent Count: %q differs from the sequential counts %v", s, want)
	}
}

func FuzzTruncate(f *testing.F) {
	c := newCounter(f)
	f.Add("hello world", 1)
	f.Add("tiktoken is great!", 3)
	f.Add("お誕生日おめでとう", 2)
	f.Add("a.\n- b\n\n## c", 2)
	f.Add("   \n\n\t  x", 1)
	f.Add("\xff\xfe\xfd", 1)
	f.Add("$150,000 budget; 15% cap", 4)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit %= 64
		got := c.Truncate(s, limit)
		if n := c.Count(got); n > max(limit, 0) {
			t.Fatalf("Count(Truncate(%q, %d)) = %d", s, limit, n)
		}
		if full := string([]rune(s)); !strings.HasPrefix(full, got) {
			t.Fatalf("Truncate(%q, %d) = %q, not a prefix", s, limit, got)
		}
	})
}

func BenchmarkCount(b *testing.B) {
	c := newCounter(b)
	s := strings.Repeat("- budget_cap: max 15% discount (constraint: policy)\n", 100)
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		c.Count(s)
	}
}

func BenchmarkTruncate(b *testing.B) {
	c := newCounter(b)
	s := strings.Repeat("- budget_cap: max 15% discount (constraint: policy)\n", 100)
	b.ReportAllocs()
	for b.Loop() {
		c.Truncate(s, 500)
	}
}
