package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// storedFormat reads the format a store's directory is stamped with.
func storedFormat(st *Store) (string, error) {
	var got string
	err := st.Badger().View(func(txn *badger.Txn) error {
		item, err := txn.Get(systemKey("format"))
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		got = string(v)
		return err
	})
	return got, err
}

// TestOpenRefusesOtherFormat: a data directory written in format 1 (Unix
// nanosecond time keys) is refused with a message saying so, and a fresh
// directory is stamped with the current format.
func TestOpenRefusesOtherFormat(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	got, err := storedFormat(st)
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
	if msg := err.Error(); !strings.Contains(msg, "format 1") || !strings.Contains(msg, "formats 2 to "+formatVersion) {
		t.Errorf("message %q does not name the formats", msg)
	}
}

// TestOpenUpgradesOlderFormats: a format 2 directory (JSON postings and
// audit entries, which still read) and a format 3 directory (statistics
// counts that never go below zero, which this build adds to as they are)
// open and are stamped with the current format, so a build that reads
// only the older format refuses them afterwards.
func TestOpenUpgradesOlderFormats(t *testing.T) {
	for _, old := range []string{"2", "3"} {
		t.Run("format "+old, func(t *testing.T) {
			dir := t.TempDir()
			st, err := Open(DefaultOptions(dir))
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Badger().Update(func(txn *badger.Txn) error { return txn.Set(systemKey("format"), []byte(old)) }); err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			st, err = Open(DefaultOptions(dir))
			if err != nil {
				t.Fatalf("Open of a format %s directory: %v", old, err)
			}
			defer st.Close()
			got, err := storedFormat(st)
			if err != nil || got != formatVersion {
				t.Fatalf("format after opening a format %s directory = %q, %v; want %q", old, got, err, formatVersion)
			}
		})
	}
}
