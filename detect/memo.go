package detect

import (
	"slices"
	"sync"
)

// Memoized analyses. Assembly asks about the same turn texts and fact
// values again and again (every turn against every retired value, at
// every query), and each answer runs a dozen regular expressions; the
// answers depend only on the text, so they are kept in bounded caches.

// memoLimit bounds each cache; a full cache is emptied and refilled. Only
// texts up to memoMaxLen bytes are kept, so a cache holds at most a few
// tens of MiB.
const (
	memoLimit  = 1 << 14
	memoMaxLen = 2048
)

// memo is a bounded, concurrency-safe cache of f by its string argument.
type memo[V any] struct {
	mu    sync.Mutex
	m     map[string]V
	f     func(string) V
	limit int
}

func newMemo[V any](f func(string) V) *memo[V] {
	return &memo[V]{m: map[string]V{}, f: f, limit: memoLimit}
}

func (c *memo[V]) get(s string) V {
	if len(s) > memoMaxLen {
		return c.f(s)
	}
	c.mu.Lock()
	v, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = c.f(s)
	c.mu.Lock()
	if len(c.m) >= c.limit {
		clear(c.m)
	}
	c.m[s] = v
	c.mu.Unlock()
	return v
}

var (
	valuesMemo  = newMemo(scanValues)
	historyMemo = newMemo(func(s string) bool { return reHistory.MatchString(s) })
	termsMemo   = newMemo(scanTerms)
	// pastViews are the views of earlier turns: every recorded turn that
	// supersedes no fact reads the session's latest turns again
	// (matchTurns), each through a dozen regular expressions per
	// sentence. Fewer of them are kept: a view holds its text's words.
	pastViews = &memo[*turnView]{m: map[string]*turnView{}, f: view, limit: memoLimit >> 2}
)

// pastView is view, memoized; the view is shared: callers never write
// into it.
func pastView(text string) *turnView { return pastViews.get(text) }

// extractValues is scanValues, memoized; the slice is the caller's to
// change.
func extractValues(s string) []value { return slices.Clone(valuesMemo.get(s)) }

// narratesHistory reports whether text matches reHistory, memoized.
func narratesHistory(text string) bool { return historyMemo.get(text) }
