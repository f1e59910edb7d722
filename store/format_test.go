package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// TestOpenRefusesOtherFormat: a data directory written in format 1 (Unix
// nanosecond time keys) is refused with a message saying so, and a fresh
// directory is stamped with the current format.
func TestOpenRefusesOtherFormat(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	var got string
	err = st.Badger().View(func(txn *badger.Txn) error {
		item, err := txn.Get(systemKey("format"))
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		got = string(v)
		return err
	})
	if err != nil || got != formatVersion {
		t.Fatalf("fresh directory format = %q, %v; want %q", got, err, formatVersion)
	}
	// Make it look like a directory written by format 1.
	if err := st.Badger().Update(func(txn *badger.Txn) error { return txn.Set(systemKey("format"), []byte("1")) }); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = Open(DefaultOptions(dir))
	if !errors.Is(err, ErrFormat) {
		t.Fatalf("Open of a format 1 directory = %v, want ErrFormat", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "format 1") || !strings.Contains(msg, "format 2") {
		t.Errorf("message %q does not name both formats", msg)
	}
}
