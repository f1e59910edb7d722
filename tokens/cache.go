package tokens

import (
	"container/list"
	"sync"
)

// Cache is a Counter that remembers the counts of the strings it counted
// most recently, up to a fixed number of entries (least recently used
// first out). Context lines repeat from call to call, and tokenizing is
// far slower than a map lookup. It is safe for concurrent use.
type Cache struct {
	c    *Counter
	size int

	mu  sync.Mutex
	m   map[string]*list.Element
	lru *list.List // front: most recently used; values are *entry
}

type entry struct {
	s string
	n int
}

// maxCached is the longest string Cache keeps; longer ones are counted
// every time (they are rare and would crowd out lines).
const maxCached = 4 << 10

// NewCache returns a Cache over c holding at most size counts.
func NewCache(c *Counter, size int) *Cache {
	return &Cache{c: c, size: max(size, 1), m: make(map[string]*list.Element, size), lru: list.New()}
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
	if e, ok := k.m[s]; ok {
		k.lru.MoveToFront(e)
		n := e.Value.(*entry).n
		k.mu.Unlock()
		return n
	}
	k.mu.Unlock()
	n := k.c.Count(s)
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.m[s]; ok {
		return n
	}
	k.m[s] = k.lru.PushFront(&entry{s: s, n: n})
	for k.lru.Len() > k.size {
		old := k.lru.Back()
		k.lru.Remove(old)
		delete(k.m, old.Value.(*entry).s)
	}
	return n
}

// Truncate is c.Truncate; truncation is rare and not cached.
func (k *Cache) Truncate(s string, limit int) string { return k.c.Truncate(s, limit) }

// LineAdditive is c.LineAdditive.
func (k *Cache) LineAdditive() bool { return k.c.LineAdditive() }

// Len returns the number of cached counts.
func (k *Cache) Len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.lru.Len()
}
