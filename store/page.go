package store

import (
	"encoding/base64"

	"github.com/stategraph/stategraph/fault"
)

// Page sizes of every Relay connection.
const (
	DefaultPageSize = 50
	MaxPageSize     = 500
)

// minCursor is the shortest cursor: a time and at least one id byte.
const minCursor = timeLen + 1

// ParsePage checks a Relay page request: first is the page size (0 means
// DefaultPageSize) and after an opaque cursor returned by Cursor, decoded
// back to the key tail it stands for (nil when after is empty).
func ParsePage(first int, after string) (int, []byte, error) {
	if first < 0 || first > MaxPageSize {
		return 0, nil, fault.BadInputf("first", "first must be between 0 and %d", MaxPageSize)
	}
	if first == 0 {
		first = DefaultPageSize
	}
	if after == "" {
		return first, nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(after)
	if err != nil || len(b) < minCursor {
		return 0, nil, fault.BadInputf("after", "after is not a cursor returned by this query")
	}
	return first, b, nil
}

// Cursor encodes a key tail (time, id) as an opaque cursor.
func Cursor(tail []byte) string { return base64.RawURLEncoding.EncodeToString(tail) }
