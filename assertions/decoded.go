package assertions

import (
	"fmt"
	"slices"

	"github.com/stategraph/stategraph/internal/jsoncache"
)

// decoded keeps assertions as decoded, under the exact bytes they were
// decoded from. Every recorded turn reads the organization's most recent
// assertions (RecentTx, up to 4×MaxAssertions of them), and every context
// assembly too, mostly the same records as the time before. At most 4,096
// assertions, 4 MiB of stored bytes.
var decoded = jsoncache.New[Assertion](1<<12, 4<<20)

// decodeAssertion decodes raw, a stored assertion. The Assertion is the
// caller's: it shares no slice or pointer with the cache or another caller.
func decodeAssertion(raw []byte) (Assertion, error) {
	a, err := decodeShared(raw)
	if err != nil {
		return Assertion{}, err
	}
	return a.clone(), nil
}

// decodeShared decodes raw, a stored assertion, sharing its slices and
// pointers with the cache: the caller copies (clone) what it keeps or
// hands on, and modifies nothing.
func decodeShared(raw []byte) (Assertion, error) {
	a, err := decoded.Decode(raw)
	if err != nil {
		return Assertion{}, fmt.Errorf("assertions: decode: %w", err)
	}
	return a, nil
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
