package assertions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Every assembled context reads the organization's most recent
// assertions (RecentTx), and decoding their JSON costs more than reading
// them. So decoded assertions are remembered with the bytes they were
// decoded from, and a record is decoded again only when its stored bytes
// differ: equal bytes decode to an equal assertion, so the cache never
// answers differently from the store, and the write path needs no hook
// (a revocation rewrites the record's bytes).

// maxDecoded bounds the decoded assertions kept, over every organization;
// the cache is emptied when full.
const maxDecoded = 4096

type decodedKey struct {
	sp tenancy.Space
	id string
}

type decodedEntry struct {
	raw []byte
	a   Assertion
}

var decoded = struct {
	sync.Mutex
	m map[decodedKey]decodedEntry
}{m: map[decodedKey]decodedEntry{}}

// readTx returns the stored assertion id of tx's organization, as getTx
// does, decoding it only when its bytes are not those of the decoded copy
// kept. The caller owns the result (a deep copy).
func readTx(tx *store.Txn, id string) (Assertion, error) {
	if !strings.HasPrefix(id, "ST-") || len(id) > 64 {
		return Assertion{}, store.ErrNotFound
	}
	sp := tx.Partition().Shared()
	raw, err := tx.GetRaw(sp, store.TableAssertion, store.Suffix(nil).Raw(id))
	if err != nil {
		return Assertion{}, err
	}
	k := decodedKey{sp, id}
	decoded.Lock()
	e, ok := decoded.m[k]
	decoded.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.a.clone(), nil
	}
	var a Assertion
	if err := json.Unmarshal(raw, &a); err != nil {
		return Assertion{}, fmt.Errorf("assertions: decode %s: %w", id, err)
	}
	decoded.Lock()
	if len(decoded.m) >= maxDecoded {
		clear(decoded.m)
	}
	decoded.m[k] = decodedEntry{raw: raw, a: a}
	decoded.Unlock()
	return a.clone(), nil
}

// clone returns a copy of a sharing nothing with it.
func (a Assertion) clone() Assertion {
	a.Object = bytes.Clone(a.Object)
	a.Validity.ExpiresAt = clonePtr(a.Validity.ExpiresAt)
	a.Provenance.Confidence = clonePtr(a.Provenance.Confidence)
	if a.Refs != nil {
		a.Refs = slices.Clone(a.Refs)
		for i := range a.Refs {
			a.Refs[i].TS = clonePtr(a.Refs[i].TS)
		}
	}
	a.Tags = slices.Clone(a.Tags)
	a.EndedAt = clonePtr(a.EndedAt)
	return a
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
