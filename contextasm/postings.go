package contextasm

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// livePostings remembers the live postings of query terms (search.Index.Live)
// per space, under the space's card epoch (facts.Cards.Epoch). Every change
// of a space's live postings comes with a fact stored in that space, in
// the same transaction (the pipeline's link stage stores the written fact
// and the one it retires, a retraction or revocation the retired one, an
// erasure the tombstone), and every stored fact writes a new card epoch of
// its space: so postings remembered under the epoch a snapshot holds are
// the snapshot's (a restore, which writes records without that, loads a
// stopped server). At 100,000 facts a query's terms have about 1,600 live
// postings, read from the store on every call otherwise. It is safe for
// concurrent use; what it hands out is shared and never modified.
type livePostings struct {
	mu     sync.Mutex
	spaces map[tenancy.Space]*spacePostings
	n      int // postings kept over all spaces
}

type spacePostings struct {
	epoch string
	terms map[string]*termPostings
}

// termPostings is one term's live postings in a space, in the index's
// order: their IDs joined in one string and, for each, where its ID ends
// there, its time and counts, in a slice the collector does not scan (no
// pointers). Kept as a slice of postings with a string and a time each,
// the postings remembered at 100,000 facts (about 130,000) were a fifth
// of the heap every collection cycle scanned.
type termPostings struct {
	ids string
	ps  []livePosting
}

// livePosting is a posting of a termPostings.
type livePosting struct {
	end     uint32 // where its ID ends in ids; it starts where the one before ends
	nsec    int32
	sec     int64  // recorded at, in seconds since 1970 and nanoseconds
	tf, len uint16 // as the index stores them
	// est is 1 + the tokens of the fact's line in the fact source's
	// estimate ("key: value\n", counted by FactSource.Counter) once a
	// Gather counted it, else 0: a fact's key and value never change, and
	// the postings are the source's own, so the count is looked up here
	// rather than in the counter's cache (a lookup in a large map of
	// long keys, about 270 a call at 100,000 facts).
	est atomic.Int32
	// card remembers where the fact source's card cache keeps the
	// fact's card (facts.CardSlot): the cards of the same facts are read
	// call after call, each a lookup in a map of tens of thousands.
	card facts.CardSlot
}

// posting is what the fact source reads of a live posting.
type posting struct {
	id      string
	at      time.Time
	tf, len int
}

// len returns the number of postings.
func (tp *termPostings) len() int {
	if tp == nil {
		return 0
	}
	return len(tp.ps)
}

// at returns the i-th posting; its ID is a substring of tp.ids.
func (tp *termPostings) at(i int) posting {
	start := uint32(0)
	if i > 0 {
		start = tp.ps[i-1].end
	}
	p := &tp.ps[i]
	return posting{id: tp.ids[start:p.end], at: time.Unix(p.sec, int64(p.nsec)).UTC(), tf: int(p.tf), len: int(p.len)}
}

// est returns the i-th posting's remembered estimate count (livePosting.est).
func (tp *termPostings) est(i int) *atomic.Int32 { return &tp.ps[i].est }

// card returns the i-th posting's card slot (livePosting.card).
func (tp *termPostings) card(i int) *facts.CardSlot { return &tp.ps[i].card }

// add appends p, its ID to ids (a buffer becoming tp.ids).
func (tp *termPostings) add(ids []byte, p search.Posting) []byte {
	ids = append(ids, p.ID...)
	at := p.RecordedAt
	tp.ps = append(tp.ps, livePosting{end: uint32(len(ids)), sec: at.Unix(), nsec: int32(at.Nanosecond()), tf: uint16(p.TF), len: uint16(p.Len)})
	return ids
}

// maxLivePostings bounds the postings kept (24 bytes each and their IDs);
// they are forgotten when full.
const maxLivePostings = 1 << 17

// get returns the live postings of term in sp as a snapshot under epoch
// holds them, remembered or read through ix.
func (lp *livePostings) get(tx *store.Txn, ix *search.Index, sp tenancy.Space, epoch, term string) (*termPostings, error) {
	if epoch != "" {
		lp.mu.Lock()
		s := lp.spaces[sp]
		tp, ok := (*termPostings)(nil), false
		if s != nil && s.epoch == epoch {
			tp, ok = s.terms[term]
		}
		lp.mu.Unlock()
		if ok {
			return tp, nil
		}
	}
	tp := &termPostings{}
	var ids []byte
	err := ix.Live(tx, sp, term, func(p search.Posting) bool {
		ids = tp.add(ids, p)
		return true
	})
	tp.ids = string(ids)
	if err != nil || epoch == "" {
		// With no epoch (no card written since epochs exist) nothing is
		// remembered.
		return tp, err
	}
	lp.mu.Lock()
	defer lp.mu.Unlock()
	if lp.spaces == nil || lp.n+tp.len() > maxLivePostings {
		lp.spaces, lp.n = map[tenancy.Space]*spacePostings{}, 0
	}
	s := lp.spaces[sp]
	if s == nil || s.epoch != epoch {
		if s != nil {
			for _, old := range s.terms {
				lp.n -= old.len()
			}
		}
		s = &spacePostings{epoch: epoch, terms: map[string]*termPostings{}}
		lp.spaces[sp] = s
	}
	if _, ok := s.terms[term]; !ok && tp.len() <= maxLivePostings {
		s.terms[term] = tp
		lp.n += tp.len()
	}
	return tp, nil
}
