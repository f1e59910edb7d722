package contextasm

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// TestCardMissesFollowWrites: a fact the source did not find in a space is
// remembered as missing only while the space's card epoch is the one it
// was missed under; once a fact is written there, the space is read again.
// (The package's API tests cannot start a server here: it imports this
// package. The facts are written through the pipeline into Badger.)
func TestCardMissesFollowWrites(t *testing.T) {
	w := newPipelineWorld(t, search.New())
	st, p := w.st, w.p
	write := func(fid string, mt facts.MemoryType) {
		t.Helper()
		w.write(t, facts.WriteInput{ID: fid, Key: "k." + fid, Value: json.RawMessage(`"a value"`), MemoryType: mt})
	}
	write("first", facts.MemoryOrganizational)
	fs := &FactSource{Cards: facts.NewCards()}
	read := func(id string) (tenancy.Space, error) {
		t.Helper()
		var found tenancy.Space
		err := st.View(context.Background(), p, func(tx *store.Txn) error {
			cr, err := fs.cardReader(tx)
			if err != nil {
				return err
			}
			for _, sp := range p.Spaces() {
				if _, err := cr.read(sp, id); err == nil {
					found = sp
					return nil
				} else if !errors.Is(err, store.ErrNotFound) {
					return err
				}
			}
			return store.ErrNotFound
		})
		return found, err
	}
	sp, err := read("first")
	if err != nil || sp != p.Shared() {
		t.Fatalf("read the written fact: space %v, err %v", sp, err)
	}
	// "first" was missed in the private space, which has no epoch yet;
	// "later" and "mine" are missed in both spaces, and the second read
	// answers from the misses.
	for range 2 {
		for _, id := range []string{"later", "mine"} {
			if _, err := read(id); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("%s, not written yet: err = %v, want not found", id, err)
			}
		}
	}
	if fs.misses.n != 5 {
		t.Fatalf("%d misses remembered, want 5", fs.misses.n)
	}
	write("later", facts.MemoryOrganizational)
	write("mine", facts.MemoryUser)
	for id, want := range map[string]tenancy.Space{"later": p.Shared(), "mine": p.Private()} {
		if got, err := read(id); err != nil || got != want {
			t.Errorf("%s after its write: space %v, err %v; want %v", id, got, err, want)
		}
	}
}
