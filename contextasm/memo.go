package contextasm

import (
	"sync"

	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/lexical"
)

// memo remembers the results of a pure function of a string (a text's
// statements, whether a query is about a hypothetical): every assembly
// judges the same turns, sentences and queries again, and the judging runs
// regular expressions. Since the function is pure, a remembered result is
// the one a call would return: the cache changes how fast, never what. It
// holds at most maxBytes of keys and is emptied when full; longer keys
// are not kept. It is safe for concurrent use.
type memo[V any] struct {
	mu       sync.Mutex
	m        map[string]V
	bytes    int
	maxBytes int
	maxKey   int
}

func newMemo[V any](maxBytes, maxKey int) *memo[V] {
	return &memo[V]{m: map[string]V{}, maxBytes: maxBytes, maxKey: maxKey}
}

// get returns f(key), remembered.
func (c *memo[V]) get(key string, f func(string) V) V {
	if len(key) > c.maxKey {
		return f(key)
	}
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = f(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok {
		if c.bytes+len(key) > c.maxBytes {
			clear(c.m)
			c.bytes = 0
		}
		c.m[key] = v
		c.bytes += len(key)
	}
	return v
}

// Remembered judgements of texts (package detect's pure functions).
var (
	statementsMemo   = newMemo[string](2<<20, 64<<10)
	hypotheticalMemo = newMemo[bool](1<<20, MaxQueryLen)
	distinctiveMemo  = newMemo[[]string](2<<20, 64<<10)
	// Whether a turn opens or closes an aside (Asides).
	asideStartMemo = newMemo[bool](2<<20, 64<<10)
	asideEndMemo   = newMemo[bool](2<<20, 64<<10)
	// The index terms of a text, as a set (contradicts).
	termSetMemo = newMemo[map[string]bool](1<<20, 64<<10)
)

// termSet returns the set of lexical.Terms(text), remembered; the map is
// shared: callers must not modify it.
func termSet(text string) map[string]bool {
	return termSetMemo.get(text, func(text string) map[string]bool {
		have := map[string]bool{}
		for _, t := range lexical.Terms(text) {
			have[t] = true
		}
		return have
	})
}

// statements is detect.Statements, remembered.
func statements(text string) string { return statementsMemo.get(text, detect.Statements) }

// aboutHypothetical is detect.AboutHypothetical, remembered.
func aboutHypothetical(query string) bool {
	return hypotheticalMemo.get(query, detect.AboutHypothetical)
}

// distinctive is detect.Distinctive, remembered; the slice is shared:
// callers must not modify it.
func distinctive(text string) []string { return distinctiveMemo.get(text, detect.Distinctive) }
