package search

import (
	"sync"
	"time"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Reading a term's newest postings forward.
//
// Postings in the current view reads a term's live postings newest first,
// a reverse scan, and a reverse step is the dear direction of Badger's
// iterators (each one searches the memtable's skiplist again). recordTurn
// asks for the same terms' newest postings turn after turn, so Postings
// remembers, per space, term and limit, where the postings it last returned
// began (newestStarts), and reads forward from there: every live posting
// at or above that key, of which the last limit, when there are that
// many, are the newest limit. When the range holds fewer (postings retired
// since) or too many (many written since), it scans in reverse as before.
// The start is only a hint: whatever it says, the answer is the reverse
// scan's, so it needs no invalidation and may outlive a store.

// newestStart is where the newest postings of a term began: the posting
// at the limit-th place, or the whole list when it held fewer.
type newestStart struct {
	whole bool
	at    time.Time
	id    string
}

type newestKey struct {
	org, owner string
	kind       tenancy.SpaceKind
	term       string
	limit      int
}

// maxNewest bounds the remembered terms: past it the map starts afresh.
const maxNewest = 1 << 14

var newestStarts = struct {
	mu sync.Mutex
	m  map[newestKey]newestStart
}{m: map[newestKey]newestStart{}}

func newestKeyOf(sp tenancy.Space, term string, limit int) newestKey {
	return newestKey{org: sp.Org(), owner: sp.Owner(), kind: sp.Kind(), term: term, limit: limit}
}

func putNewest(k newestKey, s newestStart) {
	newestStarts.mu.Lock()
	defer newestStarts.mu.Unlock()
	if len(newestStarts.m) >= maxNewest {
		clear(newestStarts.m)
	}
	newestStarts.m[k] = s
}

// rememberNewest notes where a reverse scan that met n postings, the last
// of them last, ended: at the limit-th posting, or at the list's end.
func rememberNewest(sp tenancy.Space, term string, limit, n int, last Posting) {
	switch {
	case n == limit:
		putNewest(newestKeyOf(sp, term, limit), newestStart{at: last.RecordedAt, id: last.ID})
	case n < limit:
		putNewest(newestKeyOf(sp, term, limit), newestStart{whole: true})
	}
}

// newestForward calls fn, newest first, for the newest limit live
// postings of term in sp, read forward from the remembered start, and
// reports whether it did; false (and nothing called) when there is no
// start, or the range above it holds fewer than limit postings or more
// than a forward read is worth.
func newestForward(tx *store.Txn, sp tenancy.Space, term string, prefix []byte, limit int, fn func(Posting) bool) (bool, error) {
	k := newestKeyOf(sp, term, limit)
	newestStarts.mu.Lock()
	s, ok := newestStarts.m[k]
	newestStarts.mu.Unlock()
	if !ok {
		return false, nil
	}
	o := store.ScanOptions{KeysOnly: true}
	if !s.whole {
		o.Start = store.Suffix(nil).Str(term).Time(s.at).Str(s.id)
	}
	// The last limit postings met, in a ring: the n-th met is at n%limit.
	rp := newestRings.Get().(*[]Posting)
	defer func() {
		clear(*rp)
		newestRings.Put(rp)
	}()
	if cap(*rp) < limit {
		*rp = make([]Posting, limit)
	}
	ring := (*rp)[:limit]
	most := 4*limit + 16
	n := 0
	complete := true // every posting above the start was met
	err := tx.Scan(sp, store.TableSearchLive, prefix, o,
		func(suffix []byte, _ store.Item) (bool, error) {
			if n == most {
				complete = false
				return false, nil
			}
			p, err := parsePostingAfter(sp, suffix, len(prefix))
			if err != nil {
				return false, err
			}
			ring[n%limit] = p
			n++
			return true, nil
		})
	if err != nil || !complete || (!s.whole && n < limit) {
		return false, err
	}
	if n >= limit {
		oldest := ring[n%limit]
		putNewest(k, newestStart{at: oldest.RecordedAt, id: oldest.ID})
	} else {
		putNewest(k, newestStart{whole: true})
	}
	for i := range min(n, limit) {
		if !fn(ring[(n-1-i)%limit]) {
			break
		}
	}
	return true, nil
}

// newestRings are newestForward's rings, reused.
var newestRings = sync.Pool{New: func() any { return new([]Posting) }}
