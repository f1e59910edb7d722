package store

import (
	"fmt"
	"slices"
	"testing"
)

// tkey builds a tenant key of org's shared space by hand (keys.go's
// layout), so that the test needs no verified identity.
func tkey(org string, t Table, suffix string) []byte {
	k := []byte{0, byte(len(org))}
	k = append(k, org...)
	k = append(k, 's', 0, 0, byte(t))
	return append(k, suffix...)
}

// TestPendingTablesSortOnlyWhenScanned: a table's writes stay unsorted
// until a scan reads that table; a scan that names a table reads only its
// writes, one that names less than a table reads every table's; the
// results are in key order either way.
func TestPendingTablesSortOnlyWhenScanned(t *testing.T) {
	p := newPendingWrites()
	var want []string
	for i := 299; i >= 0; i-- { // descending, so that order needs sorting
		for _, tb := range []Table{TableSearchLive, TableFactValid, TableAudit} {
			k := tkey("acme", tb, fmt.Sprintf("%03d", i))
			p.set(k, []byte("v"), false, 0)
			if tb == TableFactValid {
				want = append(want, string(k))
			}
		}
	}
	p.set(tkey("acme", TableFactValid, "150"), nil, true, 0) // a delete replaces the put
	if got := tableKeyLen(tkey("acme", TableAudit, "x")); got != 2+4+1+2+1 {
		t.Fatalf("tableKeyLen = %d, want %d", got, 2+4+1+2+1)
	}
	for _, short := range [][]byte{nil, {0}, {0, 4, 'a'}, tkey("acme", TableAudit, "")[:9]} {
		if n := tableKeyLen(short); n != 0 {
			t.Errorf("tableKeyLen(%q) = %d, want 0", short, n)
		}
	}
	sorted := func() (n int) {
		for _, tb := range p.tables {
			for _, r := range tb.runs {
				n += len(r)
			}
		}
		return n
	}
	if n := sorted(); n != 0 {
		t.Fatalf("%d writes sorted before any scan, want 0", n)
	}

	var got []string
	for _, e := range p.scan(tkey("acme", TableFactValid, ""), tkey("acme", TableFactValid, ""), false) {
		got = append(got, string(e.key))
	}
	slices.Reverse(want)
	if !slices.Equal(got, want) {
		t.Errorf("scan of one table: %d keys, want %d in order", len(got), len(want))
	}
	if e := p.scan(tkey("acme", TableFactValid, "150"), tkey("acme", TableFactValid, "150"), false); len(e) != 1 || !e[0].del {
		t.Errorf("scan of a deleted key = %v, want its delete", e)
	}
	if n := sorted(); n != 300 {
		t.Errorf("%d writes sorted after scanning one table of 300, want 300", n)
	}
	// More writes to a scanned table are sorted as they come.
	for i := 300; i < 300+2*pendingTail; i++ {
		p.set(tkey("acme", TableFactValid, fmt.Sprintf("%03d", i)), []byte("v"), false, 0)
	}
	if n := sorted(); n < 300+pendingTail {
		t.Errorf("%d writes sorted after writing %d more to a scanned table, want at least %d", n, 2*pendingTail, 300+pendingTail)
	}

	// Less than a table: every table's writes, in key order, reverse too.
	all := p.scan([]byte{0}, []byte{0, 0xff}, true)
	if len(all) != len(p.order) {
		t.Fatalf("scan of every table: %d writes, want %d", len(all), len(p.order))
	}
	if !slices.IsSortedFunc(all, func(a, b *pendingEntry) int { return byKey(b, a) }) {
		t.Error("scan of every table, reverse: not in reverse key order")
	}
}
