package assertions

import (
	"encoding/json"
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
	if err := jsoncache.CheckCopies(in, decodeAssertion); err != nil {
		t.Fatal(err)
	}
}
