package store

import (
	"errors"
	"testing"

	"github.com/stategraph/stategraph/fault"
)

func TestWindowSlice(t *testing.T) {
	tails := [][]byte{[]byte("a0000000000001"), []byte("a0000000000002"), []byte("a0000000000003"), []byte("a0000000000004"), []byte("a0000000000005")}
	w0 := Window{scope: "s"}
	cur := func(i int) string { return w0.Cursor(tails[i]) }
	n := func(v int) *int { return &v }
	cases := []struct {
		name   string
		args   PageArgs
		lo, hi int
	}{
		{"default", PageArgs{}, 0, 5},
		{"first 2", PageArgs{First: n(2)}, 0, 2},
		{"first 2 after 1", PageArgs{First: n(2), After: cur(1)}, 2, 4},
		{"first 0", PageArgs{First: n(0)}, 0, 0},
		{"after the last", PageArgs{First: n(2), After: cur(4)}, 5, 5},
		{"last 2", PageArgs{Last: n(2)}, 3, 5},
		{"last 2 before 3", PageArgs{Last: n(2), Before: cur(3)}, 1, 3},
		{"last 9 before 1", PageArgs{Last: n(9), Before: cur(1)}, 0, 1},
		{"after 1 before 3", PageArgs{First: n(9), After: cur(1), Before: cur(3)}, 2, 3},
		{"after past before", PageArgs{First: n(9), After: cur(3), Before: cur(1)}, 4, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := tc.args.Window("s")
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := w.Slice(len(tails), func(i int) []byte { return tails[i] })
			if lo != tc.lo || hi != tc.hi {
				t.Errorf("Slice = [%d, %d), want [%d, %d)", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}

func TestWindowRefuses(t *testing.T) {
	n := func(v int) *int { return &v }
	good := Window{scope: "s"}.Cursor([]byte("a0000000000001"))
	altered := good[:len(good)-1] + "A"
	if altered == good {
		altered = good[:len(good)-1] + "B"
	}
	cases := []struct {
		name string
		args PageArgs
	}{
		{"both sizes", PageArgs{First: n(1), Last: n(1)}},
		{"first too large", PageArgs{First: n(MaxPageSize + 1)}},
		{"negative last", PageArgs{Last: n(-1)}},
		{"garbage", PageArgs{After: "%%%"}},
		{"too short", PageArgs{After: "YQ"}},
		{"another scope", PageArgs{Before: Window{scope: "t"}.Cursor([]byte("a0000000000001"))}},
		{"altered", PageArgs{After: altered}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.args.Window("s")
			var f *fault.Error
			if !errors.As(err, &f) || f.Kind != fault.BadInput {
				t.Errorf("err = %v, want BAD_USER_INPUT", err)
			}
		})
	}
}
