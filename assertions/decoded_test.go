package assertions

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
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
	shared(t, "Assertion", reflect.ValueOf(a), reflect.ValueOf(b))
}

// shared fails when x and y hold the same non-nil slice or pointer.
func shared(t *testing.T, path string, x, y reflect.Value) {
	t.Helper()
	switch x.Kind() {
	case reflect.Pointer:
		if !x.IsNil() {
			if x.Pointer() == y.Pointer() {
				t.Errorf("%s: two callers share a pointer", path)
			}
			shared(t, path, x.Elem(), y.Elem())
		}
	case reflect.Slice:
		if x.Len() > 0 && x.Pointer() == y.Pointer() {
			t.Errorf("%s: two callers share a slice", path)
		}
		for i := 0; i < x.Len(); i++ {
			shared(t, path+"[]", x.Index(i), y.Index(i))
		}
	case reflect.Map:
		if !x.IsNil() && x.Pointer() == y.Pointer() {
			t.Errorf("%s: two callers share a map", path)
		}
	case reflect.Struct:
		for i := 0; i < x.NumField(); i++ {
			shared(t, path+"."+x.Type().Field(i).Name, x.Field(i), y.Field(i))
		}
	}
}
