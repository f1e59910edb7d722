// Package memo remembers the results of pure functions of a string.
//
// Detection, extraction and assembly judge the same texts again and again
// (every turn against every stored value, at every query), and each
// judgement runs regular expressions. A function whose result depends only
// on its text can be remembered: a remembered result is the one a call
// would return, so a Memo changes how fast, never what.
package memo

import "sync"

// Limits bound a Memo. A full Memo is emptied and refilled; a key longer
// than Key is computed each time, never kept. Zero means no bound.
type Limits struct {
	Entries int // how many results
	Bytes   int // how many bytes of keys
	Key     int // the longest key kept
}

// Memo is a bounded, concurrency-safe cache of one pure function. The
// values it hands out are shared: callers never write into them.
type Memo[V any] struct {
	f     func(string) V
	lim   Limits
	mu    sync.Mutex
	m     map[string]V
	bytes int
}

// New returns a Memo of f within lim.
func New[V any](f func(string) V, lim Limits) *Memo[V] {
	return &Memo[V]{f: f, lim: lim, m: map[string]V{}}
}

// Get returns f(s), remembered.
func (c *Memo[V]) Get(s string) V {
	if c.lim.Key > 0 && len(s) > c.lim.Key {
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
	defer c.mu.Unlock()
	if _, ok := c.m[s]; ok {
		return v
	}
	if c.lim.Entries > 0 && len(c.m) >= c.lim.Entries || c.lim.Bytes > 0 && c.bytes+len(s) > c.lim.Bytes {
		clear(c.m)
		c.bytes = 0
	}
	c.m[s] = v
	c.bytes += len(s)
	return v
}
