package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/store"
)

// TestOwnWritesInScans: a transaction's scans and gets see its own puts and
// deletes merged with what was committed before, in key order both ways.
func TestOwnWritesInScans(t *testing.T) { enginetest.Each(t, testOwnWritesInScans) }

func testOwnWritesInScans(t *testing.T, st *store.Store) {
	ctx := context.Background()
	p := partition(t, "acme", "alice", "")
	sp := p.Shared()
	put := func(tx *store.Txn, ks ...string) {
		for _, k := range ks {
			if err := tx.Put(sp, store.TableFactByKey, []byte(k), k, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	err := st.Update(ctx, p, func(tx *store.Txn) error {
		put(tx, "a1", "a3", "a5", "b1")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	scan := func(tx *store.Txn, prefix, start string, reverse bool) []string {
		var got []string
		o := store.ScanOptions{Reverse: reverse}
		if start != "" {
			o.Start = []byte(start)
		}
		err := tx.Scan(sp, store.TableFactByKey, []byte(prefix), o, func(suffix []byte, it store.Item) (bool, error) {
			var v string
			if err := it.Decode(&v); err != nil {
				return false, err
			}
			if v != string(suffix) {
				return false, fmt.Errorf("value %q at %q", v, suffix)
			}
			got = append(got, v)
			return true, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	err = st.Update(ctx, p, func(tx *store.Txn) error {
		put(tx, "a2", "a5", "a0")
		for i := range 300 { // past the unsorted tail
			put(tx, fmt.Sprintf("c%03d", i))
		}
		put(tx, "a4")
		if err := tx.Delete(sp, store.TableFactByKey, []byte("a3")); err != nil {
			return err
		}
		tests := []struct {
			name, prefix, start string
			reverse             bool
			want                []string
		}{
			{"forward", "a", "", false, []string{"a0", "a1", "a2", "a4", "a5"}},
			{"reverse", "a", "", true, []string{"a5", "a4", "a2", "a1", "a0"}},
			{"from a2", "a", "a2", false, []string{"a2", "a4", "a5"}},
			{"reverse from a2", "a", "a2", true, []string{"a2", "a1", "a0"}},
			{"committed only", "b", "", false, []string{"b1"}},
			{"own only", "c29", "", false, []string{"c290", "c291", "c292", "c293", "c294", "c295", "c296", "c297", "c298", "c299"}},
		}
		for _, tc := range tests {
			if got := scan(tx, tc.prefix, tc.start, tc.reverse); !slices.Equal(got, tc.want) {
				t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
			}
		}
		if ok, err := tx.Exists(sp, store.TableFactByKey, []byte("a3")); ok || err != nil {
			t.Errorf("deleted a3 exists=%v err=%v", ok, err)
		}
		var v string
		if err := tx.Get(sp, store.TableFactByKey, []byte("c150"), &v); err != nil || v != "c150" {
			t.Errorf("own c150 = %q, %v", v, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(ctx, p, func(tx *store.Txn) error {
		if got, want := scan(tx, "a", "", false), []string{"a0", "a1", "a2", "a4", "a5"}; !slices.Equal(got, want) {
			t.Errorf("after commit: got %v, want %v", got, want)
		}
		if err := tx.Put(sp, store.TableFactByKey, []byte("x"), "x", 0); err == nil {
			t.Error("a put in a View succeeded")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// An aborted transaction leaves nothing.
	abort := errors.New("abort")
	if err := st.Update(ctx, p, func(tx *store.Txn) error { put(tx, "a9"); return abort }); !errors.Is(err, abort) {
		t.Fatal(err)
	}
	err = st.View(ctx, p, func(tx *store.Txn) error {
		if ok, _ := tx.Exists(sp, store.TableFactByKey, []byte("a9")); ok {
			t.Error("an aborted write is visible")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGrow: a transaction made ready for more writes keeps the ones it
// holds and takes any number more, in a View too (where Grow does nothing).
func TestGrow(t *testing.T) { enginetest.Each(t, testGrow) }

func testGrow(t *testing.T, st *store.Store) {
	p := partition(t, "acme", "alice", "")
	sp := p.Shared()
	err := st.Update(context.Background(), p, func(tx *store.Txn) error {
		if err := tx.PutRaw(sp, store.TableFact, []byte("a"), []byte("1")); err != nil {
			return err
		}
		tx.Grow(4)
		tx.Grow(0)
		for i := range 10 {
			if err := tx.PutRaw(sp, store.TableFact, []byte{'b', byte('0' + i)}, []byte("2")); err != nil {
				return err
			}
		}
		got, err := tx.GetRaw(sp, store.TableFact, []byte("a"))
		if err != nil || string(got) != "1" {
			t.Errorf("after Grow, a = %q, %v", got, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(context.Background(), p, func(tx *store.Txn) error {
		tx.Grow(100)
		tails, err := tx.Tails(sp, store.TableFact, nil)
		if len(tails) != 11 {
			t.Errorf("%d records committed, want 11: %q", len(tails), tails)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadRaw: ReadRaw sees what GetRaw sees (the transaction's own
// write, else the committed value) without a copy, and ErrNotFound for a
// missing or deleted record.
func TestReadRaw(t *testing.T) { enginetest.Each(t, testReadRaw) }

func testReadRaw(t *testing.T, st *store.Store) {
	ctx := context.Background()
	p := partition(t, "acme", "alice", "")
	sp := p.Shared()
	if err := st.Update(ctx, p, func(tx *store.Txn) error {
		return errors.Join(tx.PutRaw(sp, store.TableFact, []byte("old"), []byte("committed")), tx.PutRaw(sp, store.TableFact, []byte("gone"), []byte("x")))
	}); err != nil {
		t.Fatal(err)
	}
	err := st.Update(ctx, p, func(tx *store.Txn) error {
		if err := errors.Join(tx.PutRaw(sp, store.TableFact, []byte("new"), []byte("own")), tx.Delete(sp, store.TableFact, []byte("gone"))); err != nil {
			return err
		}
		for _, tc := range []struct{ key, want string }{{"old", "committed"}, {"new", "own"}, {"gone", ""}, {"none", ""}} {
			var got string
			err := tx.ReadRaw(sp, store.TableFact, []byte(tc.key), func(b []byte) error { got = string(b); return nil })
			switch {
			case tc.want == "" && !errors.Is(err, store.ErrNotFound):
				t.Errorf("%s: err %v, want ErrNotFound", tc.key, err)
			case tc.want != "" && (err != nil || got != tc.want):
				t.Errorf("%s: %q, %v; want %q", tc.key, got, err, tc.want)
			}
		}
		boom := errors.New("boom")
		if err := tx.ReadRaw(sp, store.TableFact, []byte("old"), func([]byte) error { return boom }); !errors.Is(err, boom) {
			t.Errorf("fn's error: got %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
