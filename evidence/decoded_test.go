package evidence

import (
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/jsoncache"
)

// TestSentencesDecodeCopies: a sentence decoded through the cache is what
// encoding/json decodes, and two readers share nothing.
func TestSentencesDecodeCopies(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	in := Sentence{TurnID: "T-1", SessionID: "s1", Index: 2, Text: "We chose Acme for the \"vendor\".", Speaker: "USER", At: at, RecordedAt: at.Add(time.Second), Len: 5}
	if err := jsoncache.CheckCopies(in, sentences.Decode); err != nil {
		t.Fatal(err)
	}
}
