// Package tokens counts and truncates text in exact cl100k_base tokens, offline.
package tokens

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding is the name of the tokenizer this package implements.
const Encoding = "cl100k_base"

// ErrLoad is returned by New when the embedded cl100k_base ranks cannot be
// loaded; the underlying cause is wrapped.
var ErrLoad = errors.New("tokens: load " + Encoding)

var (
	loadOnce sync.Once
	shared   *tiktoken.Tiktoken
	loadErr  error
)

// Counter counts and truncates text in cl100k_base tokens. It is safe for
// concurrent use. Special tokens such as "<|endoftext|>" are treated as
// ordinary text, so any input can be counted.
//
// Text that is not valid UTF-8 is seen by the tokenizer with every invalid
// byte replaced by U+FFFD; Count and Truncate both work on that view.
type Counter struct {
	enc *tiktoken.Tiktoken
}

// New returns a Counter. The encoding is loaded from ranks embedded in the
// binary (no network) once per process and shared by every Counter.
func New() (*Counter, error) {
	loadOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		shared, loadErr = tiktoken.GetEncoding(Encoding)
	})
	if loadErr != nil {
		return nil, fmt.Errorf("%w: %w", ErrLoad, loadErr)
	}
	return &Counter{enc: shared}, nil
}

// Count returns the number of cl100k_base tokens in s.
func (c *Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	return len(c.enc.EncodeOrdinary(s))
}

// Truncate returns the longest prefix of s that ends on a token boundary of
// s's encoding and whose own count is at most limit. It returns s unchanged
// when s already fits, and "" when limit <= 0. BPE is not prefix-stable, so
// the prefix is re-counted and shortened until it really fits: Count of the
// result is always <= max. The cut never splits a UTF-8 sequence.
func (c *Counter) Truncate(s string, limit int) string {
	if limit <= 0 || s == "" {
		return ""
	}
	s = tokenizerView(s)
	toks := c.enc.EncodeOrdinary(s)
	if len(toks) <= limit {
		return s
	}
	for k := limit; k > 0; {
		// The tokens of a valid UTF-8 string decode to exactly its bytes, so
		// the decoded length of the first k tokens is a byte offset into s.
		n := len(c.enc.Decode(toks[:k]))
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		p := s[:n]
		got := c.Count(p)
		if got <= limit {
			return p
		}
		k -= max(got-limit, 1)
	}
	return ""
}

// tokenizerView returns s as the tokenizer sees it: valid UTF-8 unchanged,
// otherwise every invalid byte replaced by U+FFFD (as []rune(s) does).
func tokenizerView(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// LineAdditive reports that cl100k_base counts are additive over lines
// that start with "- " or "## " (see assemble.LineAdditive): the
// pre-tokenizer never joins a newline with the punctuation that opens the
// next line, so no token crosses it.
func (c *Counter) LineAdditive() bool { return true }
