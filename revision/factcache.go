package revision

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// maxCachedFacts and maxCachedBytes (of stored facts; the decoded ones
// take about as much again) bound factCache; past either the cache starts
// afresh.
const (
	maxCachedFacts = 1 << 14
	maxCachedBytes = 16 << 20
)

// factCache keeps the facts relevantFacts decoded, under the bytes they
// were decoded from: a fact is read from the store on every turn (its
// bytes are the truth, and a transaction sees its own writes), and
// decoded again only when those bytes changed. Each turn compares up to
// MaxFacts facts, most of them the same as the turn before; decoding
// their JSON was the largest single cost of recordTurn.
//
// A fact handed out is the cache's own (known.facts holds it as it is):
// callers read it and never write into it; one that must change a fact
// changes a copy.
type factCache struct {
	mu    sync.Mutex
	m     map[factCacheKey]cachedFact
	bytes int
}

type factCacheKey struct {
	org, owner string
	kind       tenancy.SpaceKind
	id         string
}

type cachedFact struct {
	raw []byte
	f   *decodedFact
}

// decodedFact is a fact as decoded, with its value as text
// (facts.Fact.ValueText, which decodes the JSON value again on every
// call): each turn reads the text of every fact it compares, several
// times.
type decodedFact struct {
	facts.Fact
	text string
}

// load reads fact id of space sp in tx, like facts.LoadTx. The fact is
// shared: read it, never write into it.
func (c *factCache) load(tx *store.Txn, sp tenancy.Space, id string) (*decodedFact, bool, error) {
	k := factCacheKey{org: sp.Org(), owner: sp.Owner(), kind: sp.Kind(), id: id}
	c.mu.Lock()
	got, ok := c.m[k]
	c.mu.Unlock()
	// The stored bytes are compared where they lie, and copied only when
	// they must be decoded and kept.
	r := factReaders.Get().(*factReader)
	r.id = append(r.id[:0], id...)
	r.has, r.cached, r.same, r.raw = ok, got.raw, false, nil
	err := tx.ReadRaw(sp, store.TableFact, r.id, r.fn)
	same, raw := r.same, r.raw
	r.cached, r.raw = nil, nil
	factReaders.Put(r)
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if same {
		return got.f, true, nil
	}
	var f facts.Fact
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, false, fmt.Errorf("revision: decode fact %s: %w", id, err)
	}
	d := &decodedFact{Fact: f, text: f.ValueText()}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedFacts || c.bytes+len(raw) > maxCachedBytes {
		c.m, c.bytes = make(map[factCacheKey]cachedFact, 256), 0
	}
	c.m[k] = cachedFact{raw: raw, f: d}
	c.bytes += len(raw)
	c.mu.Unlock()
	return d, true, nil
}

// factReader is load's reading of one stored fact, reused (factReaders)
// so that a load allocates nothing when the fact did not change: about 40
// loads a turn.
type factReader struct {
	id     []byte // the fact id, the key's suffix
	has    bool   // the cache holds the fact
	cached []byte // as these bytes
	same   bool   // the stored bytes are those
	raw    []byte // else a copy of them
	fn     func([]byte) error
}

var factReaders = sync.Pool{New: func() any {
	r := &factReader{}
	r.fn = func(b []byte) error {
		if r.has && bytes.Equal(r.cached, b) {
			r.same = true
			return nil
		}
		r.raw = bytes.Clone(b)
		return nil
	}
	return r
}}
