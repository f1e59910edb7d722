package assembled

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/assemble"
)

// TestResponseBuffers: a buffer moved into a pooled one keeps what it
// held and gets the room asked for; one with room enough, or asked for
// nothing, is left as it is; Release empties the list lent.
func TestResponseBuffers(t *testing.T) {
	_, rb := WithResponseBuffers(context.Background())
	for round := range 3 { // the later rounds reuse what Release handed back
		var buf bytes.Buffer
		buf.WriteString(`{"data":{"assembleContext":{"text":`)
		before := buf.String()
		rb.reserve(&buf, 50_000)
		if buf.String() != before || buf.Available() < 50_000 {
			t.Fatalf("round %d: after reserve: %q, room %d", round, buf.String(), buf.Available())
		}
		buf.WriteString(strings.Repeat("x", 50_000))
		data := buf.Bytes()
		if !bytes.HasPrefix(data, []byte(before)) || len(data) != len(before)+50_000 {
			t.Fatalf("round %d: written %d bytes", round, len(data))
		}
		p := &buf.Bytes()[0]
		rb.reserve(&buf, 0)
		rb.reserve(&buf, buf.Available())
		if &buf.Bytes()[0] != p {
			t.Fatalf("round %d: a buffer with room was moved", round)
		}
		if len(rb.lent) != 1 {
			t.Fatalf("round %d: %d buffers lent, want 1", round, len(rb.lent))
		}
		rb.Release()
		if len(rb.lent) != 0 {
			t.Fatalf("round %d: %d buffers still lent after Release", round, len(rb.lent))
		}
	}
	var big bytes.Buffer
	rb.reserve(&big, maxPooledResponse+1)
	if len(rb.lent) != 0 {
		t.Fatal("a response over maxPooledResponse was lent a buffer")
	}
}

// TestNewForReleasesExclusions: a context made with NewFor under
// response buffers has its exclusion list handed back on Release, once;
// one made without them, or with no exclusions, has nothing to hand back.
func TestNewForReleasesExclusions(t *testing.T) {
	ex := []assemble.Exclusion{{ID: "F-1", Kind: assemble.KindFact, Reason: assemble.ReasonSuperseded}}
	NewFor(context.Background(), assemble.Output{Excluded: ex}) // no buffers: nothing registered, nothing panics
	ctx, rb := WithResponseBuffers(context.Background())
	c := NewFor(ctx, assemble.Output{Excluded: ex})
	if len(c.Excluded) != 1 || c.Excluded[0] != ex[0] {
		t.Fatalf("NewFor: excluded %v, want %v", c.Excluded, ex)
	}
	NewFor(ctx, assemble.Output{}) // an empty list is not registered
	if len(rb.excluded) != 1 {
		t.Fatalf("%d lists registered, want 1", len(rb.excluded))
	}
	rb.Release()
	if len(rb.excluded) != 0 {
		t.Fatalf("%d lists still registered after Release", len(rb.excluded))
	}
	if ex[0] != (assemble.Exclusion{}) {
		t.Fatalf("a released list still holds %v", ex[0])
	}
}
