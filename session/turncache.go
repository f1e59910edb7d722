package session

import (
	"fmt"
	"slices"

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
