package evidence

import (
	"fmt"

	"github.com/stategraph/stategraph/internal/jsoncache"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// sentences keeps stored sentences as decoded, under the exact bytes they
// were decoded from: every assembled context in a conversation reads its
// best sentences again, mostly the same ones as the time before. The
// bytes are read from the store each time, so the cache never answers
// differently from it. A Sentence holds no slice, map or pointer of its
// own (a time's location is shared and never changed), so a decoded one
// can be handed out as it is. At most 4,096 sentences and 1 MiB of stored
// bytes (a sentence is about 250).
var sentences = jsoncache.New[Sentence](1<<12, 1<<20)

// readSentence reads the sentence stored at key in sp, through sentences.
// It returns store.ErrNotFound when there is none.
func readSentence(tx *store.Txn, sp tenancy.Space, key []byte) (Sentence, error) {
	var s Sentence
	err := tx.ReadRaw(sp, store.TableEvidence, key, func(raw []byte) error {
		var err error
		if s, err = sentences.Decode(raw); err != nil {
			return fmt.Errorf("evidence: decode: %w", err)
		}
		return nil
	})
	return s, err
}
