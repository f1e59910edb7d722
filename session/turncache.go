package session

import (
	"bytes"
	"fmt"
	"slices"
	"sync"

	"github.com/stategraph/stategraph/internal/jsoncache"
)

// decodedTurns keeps turns as decoded, under the exact bytes they were
// decoded from: every recorded turn reads the session's latest turns
// (TurnsTx), and every context assembly its working set's, mostly the same
// records as the time before. At most 4,096 turns, 4 MiB of stored bytes.
var decodedTurns = jsoncache.New[Turn](1<<12, 4<<20)

// decodeTurn decodes raw, a stored turn. The Turn is the caller's: its
// slices and pointers are its own.
func decodeTurn(raw []byte) (Turn, error) {
	t, err := decodedTurns.Decode(raw)
	if err != nil {
		return Turn{}, fmt.Errorf("session: decode turn: %w", err)
	}
	t.Facts, t.Omit = slices.Clone(t.Facts), slices.Clone(t.Omit)
	if t.SupersededAt != nil {
		at := *t.SupersededAt
		t.SupersededAt = &at
	}
	return t, nil
}

// turnStarts remembers, per session, the key of the oldest of the turns
// TurnsTx last returned, where its next forward scan starts. It is only a
// hint: any key at all gives the right answer or too few turns (then
// TurnsTx scans in reverse), so it needs no invalidation, and sessions of
// different stores of one process may share it. At most 4,096 sessions:
// past that it starts afresh.
var turnStarts = &startHints{m: map[turnStartKey][]byte{}}

type turnStartKey struct{ org, owner, session string }

type startHints struct {
	mu sync.Mutex
	m  map[turnStartKey][]byte
}

func (h *startHints) get(k turnStartKey) ([]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, ok := h.m[k]
	return b, ok
}

func (h *startHints) put(k turnStartKey, start []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.m) >= 1<<12 {
		clear(h.m)
	}
	h.m[k] = bytes.Clone(start)
}
