package tokens

import (
	"sync"
)

// Cache is a Counter that remembers the counts of the strings it counted
// most recently, up to a fixed number of entries. Context lines repeat
// from call to call, and tokenizing is far slower than a map lookup. It is
// safe for concurrent use.
//
// The counts are kept in two generations of at most size/2 entries each:
// a count is looked up in the current generation, then in the previous
// one, whence a hit moves it to the current; when the current generation
// is full it becomes the previous one and the previous one is dropped. So
// what was used since the last turnover stays, as in an LRU list, but a
// hit touches one map entry instead of a list element and a boxed entry
// (a lookup is a few cache misses: it runs hundreds of times per
// assembled context).
type Cache struct {
	c    *Counter
	half int // the most entries a generation holds

	mu       sync.Mutex
	cur, old map[string]int
}

// maxCached is the longest string Cache keeps; longer ones are counted
// every time (they are rare and would crowd out lines).
const maxCached = 4 << 10

// NewCache returns a Cache over c holding at most size counts.
func NewCache(c *Counter, size int) *Cache {
	half := max(size/2, 1)
	return &Cache{c: c, half: half, cur: make(map[string]int, half), old: map[string]int{}}
}

// Count returns c.Count(s), from the cache when it can.
func (k *Cache) Count(s string) int {
	if s == "" {
		return 0
	}
	if len(s) > maxCached {
		return k.c.Count(s)
	}
	k.mu.Lock()
	if n, ok := k.cur[s]; ok {
		k.mu.Unlock()
		return n
	}
	if n, ok := k.old[s]; ok {
		delete(k.old, s)
		k.put(s, n)
		k.mu.Unlock()
		return n
	}
	k.mu.Unlock()
	n := k.c.Count(s)
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.cur[s]; !ok {
		k.put(s, n)
	}
	return n
}

// CountBytes is Count(string(b)), without making the string when the
// count is cached: a caller that assembles a line in a reused buffer
// pays no allocation for a line counted before.
func (k *Cache) CountBytes(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	if len(b) <= maxCached {
		k.mu.Lock()
		// Map lookups by string(b) do not copy b.
		if n, ok := k.cur[string(b)]; ok {
			k.mu.Unlock()
			return n
		}
		k.mu.Unlock()
	}
	return k.Count(string(b))
}

// put adds s to the current generation, turning generations over when it
// is full. k.mu is held.
func (k *Cache) put(s string, n int) {
	if len(k.cur) >= k.half {
		k.old, k.cur = k.cur, make(map[string]int, k.half)
	}
	k.cur[s] = n
}

// Truncate is c.Truncate; truncation is rare and not cached.
func (k *Cache) Truncate(s string, limit int) string { return k.c.Truncate(s, limit) }

// LineAdditive is c.LineAdditive.
func (k *Cache) LineAdditive() bool { return k.c.LineAdditive() }

// Len returns the number of cached counts.
func (k *Cache) Len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.cur) + len(k.old)
}
