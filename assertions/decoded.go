package assertions

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// decodedLimit and decodedBytes bound decoded (the stored bytes it
// holds, about half of what it takes); a full cache is emptied and
// refilled.
const (
	decodedLimit = 1 << 12
	decodedBytes = 4 << 20
)

// decoded keeps assertions as decoded, under the exact bytes they were
// decoded from. Every recorded turn reads the organization's most recent
// assertions (RecentTx, up to 4×MaxAssertions of them), and every context
// assembly too, mostly the same records as the time before: their bytes
// are read from the store each time (they are the truth, and a
// transaction sees its own writes), and only their JSON decoding is saved.
var decoded = struct {
	mu    sync.Mutex
	m     map[string]Assertion
	bytes int
}{m: map[string]Assertion{}}

// decodeAssertion decodes raw, a stored assertion. The Assertion is the
// caller's: it shares no slice or pointer with the cache or another caller.
func decodeAssertion(raw []byte) (Assertion, error) {
	decoded.mu.Lock()
	a, ok := decoded.m[string(raw)]
	decoded.mu.Unlock()
	if !ok {
		if err := json.Unmarshal(raw, &a); err != nil {
			return Assertion{}, fmt.Errorf("assertions: decode: %w", err)
		}
		decoded.mu.Lock()
		if len(decoded.m) >= decodedLimit || decoded.bytes+len(raw) > decodedBytes {
			clear(decoded.m)
			decoded.bytes = 0
		}
		decoded.m[string(raw)] = a
		decoded.bytes += len(raw)
		decoded.mu.Unlock()
	}
	return a.clone(), nil
}

// clone is a deep copy of a: every slice and pointer its own.
func (a Assertion) clone() Assertion {
	a.Object = slices.Clone(a.Object)
	a.Validity.ExpiresAt = clonePtr(a.Validity.ExpiresAt)
	a.Provenance.Confidence = clonePtr(a.Provenance.Confidence)
	a.Refs = slices.Clone(a.Refs)
	for i := range a.Refs {
		a.Refs[i].TS = clonePtr(a.Refs[i].TS)
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
