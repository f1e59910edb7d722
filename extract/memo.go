package extract

import (
	"encoding/binary"
	"strings"
	"time"

	"github.com/stategraph/stategraph/internal/memo"
)

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
	// foldedSentences: fold of a sentence Anchor reads against every fact
	// of the turn.
	foldedSentences = newMemo(fold)
)

// Readings that depend on the turn's time as well as on a text: Anchor
// reads every sentence of a turn against every fact compared with it, so
// it reads each stored value once per sentence, and each clause once per
// fact whose value is of the same kind, all at the turn's time. They are
// remembered under the time (its Unix nanoseconds, for times in UTC: keyedAt) and
// the text; a time in another zone is read each time.
var (
	// storedDateMemo: whether takeDate reads a stored value as a date.
	storedDateMemo = newMemo(func(k string) bool {
		at, v := splitAtKey(k)
		_, ok := takeDate(v, at)
		return ok
	})
	// candidatesMemo: the candidates of a kind in a clause.
	candidatesMemo = newMemo(func(k string) []span {
		at, rest := splitAtKey(k)
		kind, cl, _ := strings.Cut(rest, "\x00")
		c := candidates(cl, kind, at)
		return c[:len(c):len(c)] // a caller's append copies
	})
)

// atKey keys a reading of text at time at.
func atKey(at time.Time, text string) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(at.UnixNano()))
	return string(b[:]) + text
}

func splitAtKey(k string) (time.Time, string) {
	return time.Unix(0, int64(binary.BigEndian.Uint64([]byte(k[:8])))).UTC(), k[8:]
}

// keyedAt reports whether a time can key a reading: in UTC and within
// the years Unix nanoseconds hold.
func keyedAt(at time.Time) bool {
	return at.Location() == time.UTC && at.Year() > 1700 && at.Year() < 2200
}

// storedDate reports whether takeDate reads v, a stored value, at at.
func storedDate(v string, at time.Time) bool {
	if !keyedAt(at) {
		_, ok := takeDate(v, at)
		return ok
	}
	return storedDateMemo.Get(atKey(at, v))
}

// candidatesAt is candidates, remembered; the spans are shared.
func candidatesAt(cl, kind string, at time.Time) []span {
	if !keyedAt(at) || strings.Contains(kind, "\x00") {
		return candidates(cl, kind, at)
	}
	return candidatesMemo.Get(atKey(at, kind+"\x00"+cl))
}

// dropsMemo remembers Drops of a sentence.
var dropsMemo = newMemo(drops)

// Prepare reads sentences as Anchor reads them whatever the fact, and
// remembers the readings. A caller reads a turn's sentences against the
// facts it reads from a store: one that has the sentences first prepares
// them on another core meanwhile. Anchor answers the same whether or not
// a sentence was prepared.
func Prepare(sentences ...string) {
	for _, s := range sentences {
		if len(s) <= maxClause {
			anchorSentences.Get(s)
		}
	}
}
