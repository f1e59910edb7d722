package extract

import "sync"

// Memoized readings of fact keys and stored values. A recorded turn is
// read against every fact it is compared with (each statement against
// every key, each sentence against every stored value), and mostly the
// same facts turn after turn; these readings depend only on their text, so
// they are kept in bounded caches.

// memoLimit bounds each cache; a full cache is emptied and refilled. Only
// texts up to memoMaxLen bytes are kept.
const (
	memoLimit  = 1 << 14
	memoMaxLen = 256
)

// memo is a bounded, concurrency-safe cache of f by its string argument.
// The values it hands out are shared: callers never write into them.
type memo[V any] struct {
	mu sync.Mutex
	m  map[string]V
	f  func(string) V
}

func newMemo[V any](f func(string) V) *memo[V] { return &memo[V]{m: map[string]V{}, f: f} }

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
	if len(c.m) >= memoLimit {
		clear(c.m)
	}
	c.m[s] = v
	c.mu.Unlock()
	return v
}

type normalizedKey struct{ entity, attribute string }

type anchorKey struct{ topic, attrs []string }

var (
	normalizeMemo = newMemo(func(key string) normalizedKey {
		e, a := normalizeKey(key)
		return normalizedKey{e, a}
	})
	// joinedKeyMemo is joinKey(keyWords(key)).
	joinedKeyMemo   = newMemo(func(key string) string { return joinKey(keyWords(key)) })
	anchorWordsMemo = newMemo(func(key string) anchorKey {
		t, a := scanAnchorWords(key)
		// Clipped: a caller's append copies, never writes into the cache.
		return anchorKey{topic: t[:len(t):len(t)], attrs: a[:len(a):len(a)]}
	})
	storedKindMemo = newMemo(scanStoredKind)
)
