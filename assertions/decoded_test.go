package assertions

import (
	"reflect"
	"testing"
	"time"
)

// TestCloneSharesNothing: a remembered assertion handed out by readTx is
// a deep copy, so a caller changing what it got cannot change what the
// next caller reads.
func TestCloneSharesNothing(t *testing.T) {
	at, conf := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), 0.5
	a := Assertion{
		ID: "ST-1", Object: []byte(`"Room#7"`), Validity: Validity{Mode: UntilTime, ExpiresAt: &at},
		Provenance: Provenance{Confidence: &conf}, Refs: []Ref{{Kind: "k", Locator: "l", TS: &at}},
		Tags: []string{"x"}, EndedAt: &at,
	}
	c := a.clone()
	if !reflect.DeepEqual(a, c) {
		t.Fatalf("clone = %+v, want %+v", c, a)
	}
	c.Object[0] = 'x'
	*c.Validity.ExpiresAt = at.Add(time.Hour)
	*c.Provenance.Confidence = 1
	c.Refs[0].Kind = "changed"
	*c.Refs[0].TS = at.Add(time.Hour)
	c.Tags[0] = "changed"
	*c.EndedAt = at.Add(time.Hour)
	if string(a.Object) != `"Room#7"` || !a.Validity.ExpiresAt.Equal(at) || *a.Provenance.Confidence != 0.5 ||
		a.Refs[0].Kind != "k" || !a.Refs[0].TS.Equal(at) || a.Tags[0] != "x" || !a.EndedAt.Equal(at) {
		t.Errorf("changing the clone changed the original: %+v", a)
	}
}
