package contextasm

import (
	"sync"
	"time"

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
	terms map[string][]posting
}

// posting is what the fact source reads of a live posting.
type posting struct {
	id      string
	at      time.Time
	tf, len int
}

// maxLivePostings bounds the postings kept (about 80 bytes each); they are
// forgotten when full.
const maxLivePostings = 1 << 17

// get returns the live postings of term in sp as a snapshot under epoch
// holds them, remembered or read through ix.
func (lp *livePostings) get(tx *store.Txn, ix *search.Index, sp tenancy.Space, epoch, term string) ([]posting, error) {
	if epoch != "" {
		lp.mu.Lock()
		s := lp.spaces[sp]
		ps, ok := []posting(nil), false
		if s != nil && s.epoch == epoch {
			ps, ok = s.terms[term]
		}
		lp.mu.Unlock()
		if ok {
			return ps, nil
		}
	}
	var ps []posting
	err := ix.Live(tx, sp, term, func(p search.Posting) bool {
		ps = append(ps, posting{id: p.ID, at: p.RecordedAt, tf: p.TF, len: p.Len})
		return true
	})
	if err != nil || epoch == "" {
		// With no epoch (no card written since epochs exist) nothing is
		// remembered.
		return ps, err
	}
	lp.mu.Lock()
	defer lp.mu.Unlock()
	if lp.spaces == nil || lp.n+len(ps) > maxLivePostings {
		lp.spaces, lp.n = map[tenancy.Space]*spacePostings{}, 0
	}
	s := lp.spaces[sp]
	if s == nil || s.epoch != epoch {
		if s != nil {
			for _, old := range s.terms {
				lp.n -= len(old)
			}
		}
		s = &spacePostings{epoch: epoch, terms: map[string][]posting{}}
		lp.spaces[sp] = s
	}
	if _, ok := s.terms[term]; !ok && len(ps) <= maxLivePostings {
		s.terms[term] = ps
		lp.n += len(ps)
	}
	return ps, nil
}
