package evidence

import (
	"sync"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// touch writes a new evidence epoch of the caller's private space in tx
// (store.TableEvidenceEpoch): every change of the space's evidence
// (sentences, live postings, retirements, statistics) calls it in the
// transaction that makes the change, so that a current search may answer
// from what it remembers under the epoch its snapshot holds (liveMemo).
// The write is blind: concurrent writers do not conflict on it.
func touch(tx *store.Txn) error {
	return tx.TouchEpoch(tx.Partition().Private(), store.TableEvidenceEpoch)
}

// liveMemo remembers, per private space and under the evidence epoch it
// read them in, what a current search reads of the store: the statistics,
// the live postings of the terms searched and the sentences found. Every
// change of a space's evidence writes a new epoch in the same transaction
// (touch), so what is remembered under the epoch a snapshot holds is that
// snapshot's: a search answers as the store would. A space with no epoch
// (no evidence written since epochs exist) is not remembered, nor is
// anything read in a read-write transaction (whose own writes the store
// shows it, and for which reading the epoch would conflict with every
// concurrent writer). It holds at most maxLive postings and sentences over
// all spaces, and forgets them all when full. It is safe for concurrent
// use. It is the process's, shared by every store it opens: a space's
// epochs are random, so two stores hold the same epoch only where one
// holds a copy of the other's records (a restored backup).
type liveMemo struct {
	mu     sync.Mutex
	spaces map[tenancy.Space]*liveSpace
	n      int // postings and sentences remembered
}

// liveSpace is what liveMemo remembers of one space under one epoch. The
// slices and sentences are never changed once remembered.
type liveSpace struct {
	epoch        string
	stats        bool // docs and length are the statistics
	docs, length int
	terms        map[string][]posting
	sentences    map[sentenceRef]Sentence
}

// sentenceRef names a sentence: its turn and index.
type sentenceRef struct {
	turnID string
	index  int
}

// maxLive bounds the postings and sentences liveMemo holds: a posting
// is about 90 bytes and a sentence about 300, with pointers the collector
// follows (a turn ID, a text), so at most a few megabytes of them; a
// term with more than a quarter of that many postings is not remembered.
const maxLive = 1 << 14

// live is the memo of current searches.
var live liveMemo

// space returns what is remembered of sp under epoch for a put, making
// it empty when the epoch changed (what a put under another epoch drops
// is read again); nil when nothing may be remembered. The caller holds
// m.mu.
func (m *liveMemo) space(sp tenancy.Space, epoch string) *liveSpace {
	if epoch == "" {
		return nil
	}
	if m.spaces == nil {
		m.spaces = map[tenancy.Space]*liveSpace{}
	}
	s := m.spaces[sp]
	if s == nil || s.epoch != epoch {
		if s != nil {
			m.n -= len(s.sentences)
			for _, ps := range s.terms {
				m.n -= len(ps)
			}
		}
		s = &liveSpace{epoch: epoch, terms: map[string][]posting{}, sentences: map[sentenceRef]Sentence{}}
		m.spaces[sp] = s
	}
	return s
}

// lookup returns what is remembered of sp under epoch, or nil.
// The caller holds m.mu.
func (m *liveMemo) lookup(sp tenancy.Space, epoch string) *liveSpace {
	if s := m.spaces[sp]; s != nil && epoch != "" && s.epoch == epoch {
		return s
	}
	return nil
}

// room makes room for n more entries, forgetting everything when full.
// The caller holds m.mu.
func (m *liveMemo) room(n int) {
	if m.n+n > maxLive {
		clear(m.spaces)
		m.n = 0
	}
	m.n += n
}

// stats returns the statistics remembered for sp under epoch.
func (m *liveMemo) stats(sp tenancy.Space, epoch string) (docs, length int, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.lookup(sp, epoch); s != nil && s.stats {
		return s.docs, s.length, true
	}
	return 0, 0, false
}

// putStats remembers the statistics of sp under epoch.
func (m *liveMemo) putStats(sp tenancy.Space, epoch string, docs, length int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.space(sp, epoch); s != nil {
		s.stats, s.docs, s.length = true, docs, length
	}
}

// postings returns the live postings of term remembered for sp under
// epoch, in key order; the caller must not change them.
func (m *liveMemo) postings(sp tenancy.Space, epoch, term string) ([]posting, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.lookup(sp, epoch); s != nil {
		ps, ok := s.terms[term]
		return ps, ok
	}
	return nil, false
}

// putPostings remembers ps, the live postings of term in sp under epoch,
// in key order; ps is not changed afterwards.
func (m *liveMemo) putPostings(sp tenancy.Space, epoch, term string, ps []posting) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.space(sp, epoch); s != nil {
		if _, ok := s.terms[term]; !ok && len(ps) <= maxLive/4 {
			m.room(len(ps) + 1)
			if m.spaces[sp] == nil { // room forgot everything
				s = m.space(sp, epoch)
			}
			s.terms[term] = ps
		}
	}
}

// sentence returns the sentence ref names, remembered for sp under epoch.
func (m *liveMemo) sentence(sp tenancy.Space, epoch string, ref sentenceRef) (Sentence, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.lookup(sp, epoch); s != nil {
		st, ok := s.sentences[ref]
		return st, ok
	}
	return Sentence{}, false
}

// putSentence remembers st, the sentence ref names in sp under epoch.
func (m *liveMemo) putSentence(sp tenancy.Space, epoch string, ref sentenceRef, st Sentence) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.space(sp, epoch); s != nil {
		if _, ok := s.sentences[ref]; !ok {
			m.room(1)
			if m.spaces[sp] == nil {
				s = m.space(sp, epoch)
			}
			s.sentences[ref] = st
		}
	}
}
