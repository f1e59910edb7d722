package assertions

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/jsoncache"
)

// TestDecodedAssertionsAreTheCallers: an assertion decoded from bytes the
// cache holds equals a fresh decoding, and shares no slice or pointer with
// another caller's copy, whatever field a later change adds (the walk
// covers every field by reflection).
func TestDecodedAssertionsAreTheCallers(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	conf := 0.8
	in := Assertion{
		ID: "ST-1", Subject: "build", Predicate: "status", Object: json.RawMessage(`"red"`),
		Validity:   Validity{Mode: "UNTIL_TIME", ExpiresAt: &at},
		Provenance: Provenance{Confidence: &conf},
		Refs:       []Ref{{Kind: "turn", Locator: "T-1", TS: &at}},
		Tags:       []string{"ci"}, EndedAt: &at, CreatedAt: at,
	}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var want Assertion
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	a, err := decodeAssertion(raw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := decodeAssertion(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b, want) {
		t.Fatalf("cached decoding = %+v, want %+v", b, want)
	}
	if paths := jsoncache.Shared(a, b); len(paths) > 0 {
		t.Errorf("two callers share %v", paths)
	}
}
