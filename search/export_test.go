package search

import (
	"encoding/json"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// ParsePosting exposes parsePosting to the external tests.
func ParsePosting(sp tenancy.Space, suffix []byte) (Posting, error) { return parsePosting(sp, suffix) }

// OldPostingValue is the value versions before the binary encoding wrote
// in a posting of f: live, or in the history.
func OldPostingValue(f facts.Fact, live bool) ([]byte, error) {
	cl, _ := classOf(f.RestrictedTo)
	hv := histValue{ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, Class: cl}
	if !live {
		hv.SupersededAt = f.SupersededAt
	}
	return json.Marshal(hv)
}

// WithoutNewest runs f with no remembered start of a term's newest
// postings, so that Postings scans in reverse, and then restores them.
func WithoutNewest(f func()) {
	newestStarts.mu.Lock()
	saved := newestStarts.m
	newestStarts.m = map[newestKey]newestStart{}
	newestStarts.mu.Unlock()
	defer func() {
		newestStarts.mu.Lock()
		newestStarts.m = saved
		newestStarts.mu.Unlock()
	}()
	f()
}

// NewestStart is where Postings remembers the newest limit postings of
// term in sp began: at the posting (at, id), or the whole list.
func NewestStart(sp tenancy.Space, term string, limit int) (at time.Time, id string, whole, ok bool) {
	newestStarts.mu.Lock()
	defer newestStarts.mu.Unlock()
	s, ok := newestStarts.m[newestKeyOf(sp, term, limit)]
	return s.at, s.id, s.whole, ok
}

// AddCorpus counts in sp, in tx, docs more documents of length words in
// all and of no word, as a change of the corpus statistics alone (no card
// written with it).
func AddCorpus(tx *store.Txn, sp tenancy.Space, docs, length int) {
	s := deltaOf(tx).of(sp)
	c := s.corpus[""]
	c[0], c[1] = c[0]+docs, c[1]+length
	s.corpus[""] = c
}

// AddDF counts in sp, in tx, n more unrestricted documents holding term,
// as a change of a document frequency alone (no corpus change, no card
// written with it).
func AddDF(tx *store.Txn, sp tenancy.Space, term string, n int) {
	deltaOf(tx).of(sp).df[classTerm("", term)] += n
}
