package session

import (
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/jsoncache"
)

// TestDecodedTurnsAreTheCallers: a turn decoded from bytes the cache holds
// equals a fresh decoding, and shares no slice or pointer with another
// caller's copy, whatever field a later change adds (the walk covers
// every field by reflection).
func TestDecodedTurnsAreTheCallers(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	in := Turn{
		ID: "T-1", SessionID: "s", Speaker: SpeakerUser, Text: "The budget is $45k.", At: at, RecordedAt: at,
		ExpiresAt: at.Add(time.Hour), Facts: []string{"F-1"}, Omit: []string{"The budget is $45k."},
		Superseded: true, SupersededBy: "T-2", SupersededAt: &at,
	}
	if err := jsoncache.CheckCopies(in, decodeTurn); err != nil {
		t.Fatal(err)
	}
	if _, err := decodeTurn([]byte(`{"id": 1}`)); err == nil {
		t.Error("a turn that is not a turn decoded without an error")
	}
}
