package session

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// turnCacheLimit and turnCacheBytes bound decodedTurns (the stored
// bytes it holds, about half of what it takes); a full cache is emptied
// and refilled.
const (
	turnCacheLimit = 1 << 12
	turnCacheBytes = 4 << 20
)

// decodedTurns keeps turns as decoded, under the exact bytes they were
// decoded from: every recorded turn reads the session's latest turns
// (TurnsTx), and every context assembly its working set's, mostly the same
// records as the time before. The bytes are always read from the store
// (they are the truth, and a transaction sees its own writes); only their
// JSON decoding is saved.
var decodedTurns = struct {
	mu    sync.Mutex
	m     map[string]Turn
	bytes int
}{m: map[string]Turn{}}

// decodeTurn decodes raw, a stored turn. The Turn is the caller's: its
// slices and pointers are its own.
func decodeTurn(raw []byte) (Turn, error) {
	decodedTurns.mu.Lock()
	t, ok := decodedTurns.m[string(raw)]
	decodedTurns.mu.Unlock()
	if !ok {
		if err := json.Unmarshal(raw, &t); err != nil {
			return Turn{}, fmt.Errorf("session: decode turn: %w", err)
		}
		decodedTurns.mu.Lock()
		if len(decodedTurns.m) >= turnCacheLimit || decodedTurns.bytes+len(raw) > turnCacheBytes {
			clear(decodedTurns.m)
			decodedTurns.bytes = 0
		}
		decodedTurns.m[string(raw)] = t
		decodedTurns.bytes += len(raw)
		decodedTurns.mu.Unlock()
	}
	t.Facts, t.Omit = slices.Clone(t.Facts), slices.Clone(t.Omit)
	if t.SupersededAt != nil {
		at := *t.SupersededAt
		t.SupersededAt = &at
	}
	return t, nil
}
