package extract

import "github.com/stategraph/stategraph/internal/memo"

// Memoized readings of fact keys and stored values. A recorded turn is
// read against every fact it is compared with (each statement against
// every key, each sentence against every stored value), and mostly the
// same facts turn after turn; these readings depend only on their text, so
// they are kept in bounded caches (16,384 texts of up to 256 bytes each).
var memoLimits = memo.Limits{Entries: 1 << 14, Key: 256}

func newMemo[V any](f func(string) V) *memo.Memo[V] { return memo.New(f, memoLimits) }

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
