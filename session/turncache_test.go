package session

import (
	"encoding/json"
	"reflect"
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
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var want Turn
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	a, err := decodeTurn(raw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := decodeTurn(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b, want) {
		t.Fatalf("cached decoding = %+v, want %+v", b, want)
	}
	if paths := jsoncache.Shared(a, b); len(paths) > 0 {
		t.Errorf("two callers share %v", paths)
	}
	if _, err := decodeTurn([]byte(`{"id": 1}`)); err == nil {
		t.Error("a turn that is not a turn decoded without an error")
	}
}
