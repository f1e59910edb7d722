// Package jsoncache remembers JSON decodings under the exact bytes they
// were decoded from.
//
// Every recorded turn and every assembled context read the same stored
// records (a session's latest turns, an organization's recent
// assertions) as the time before. Their bytes are read from the store each
// time (they are the truth, and a transaction sees its own writes); only
// the decoding is saved, so a Cache never answers differently from the
// store.
package jsoncache

import (
	"encoding/json"
	"sync"
)

// Cache holds decoded values of T by their stored bytes, at most
// maxEntries of them and maxBytes of stored bytes (about half of what they
// take decoded); a full Cache is emptied and refilled. It is safe for
// concurrent use.
type Cache[T any] struct {
	maxEntries, maxBytes int
	mu                   sync.Mutex
	m                    map[string]T
	bytes                int
}

// New returns an empty Cache.
func New[T any](maxEntries, maxBytes int) *Cache[T] {
	return &Cache[T]{maxEntries: maxEntries, maxBytes: maxBytes, m: map[string]T{}}
}

// Decode returns raw decoded, from memory when these bytes were decoded
// before. The value shares its slices and pointers with the Cache: the
// caller copies what it hands on.
func (c *Cache[T]) Decode(raw []byte) (T, error) {
	c.mu.Lock()
	v, ok := c.m[string(raw)]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	return c.decode(raw)
}

// decode is Decode's miss: the value Unmarshal fills escapes to the
// heap, so it is declared here rather than on the path of every hit.
func (c *Cache[T]) decode(raw []byte) (T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		var zero T
		return zero, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.maxEntries || c.bytes+len(raw) > c.maxBytes {
		clear(c.m)
		c.bytes = 0
	}
	c.m[string(raw)] = v
	c.bytes += len(raw)
	return v, nil
}
