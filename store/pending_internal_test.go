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

// TestPendingReset: pending writes reset for reuse are empty, drop every
// key and value they held, and serve the next transaction as fresh ones
// do; pending writes grown for a batch, or past maxPooledWrites, are not
// kept. (The test resets its own, never the pool's: what it writes after
// a reset must not reach a transaction.)
func TestPendingReset(t *testing.T) {
	fill := func(p *pendingWrites, n int, val string) {
		for i := range n {
			tb := []Table{TableFact, TableFactValid, TableAudit, TableSearchLive}[i%4]
			p.set(tkey("acme", tb, fmt.Sprintf("%03d", i)), []byte(val), i%5 == 0, 0)
		}
	}
	keys := func(p *pendingWrites) (out []string) {
		for _, e := range p.scan([]byte{0}, []byte{0}, false) {
			out = append(out, fmt.Sprintf("%s=%s/%v", e.key, e.val, e.del))
		}
		return out
	}

	used := newPendingWrites()
	fill(used, 2*pendingSlab, "old") // past the first slabs
	used.scan(tkey("acme", TableFactValid, ""), tkey("acme", TableFactValid, ""), false)
	if !used.reset() {
		t.Fatal("reset refused small pending writes")
	}
	if len(used.order) != 0 || len(used.byKey) != 0 || len(used.tables) != 0 || used.last != nil {
		t.Fatalf("reset: %d writes, %d keys, %d tables, last %v; want none", len(used.order), len(used.byKey), len(used.tables), used.last)
	}
	for i, e := range used.first {
		if e.key != nil || e.val != nil {
			t.Fatalf("reset: first slab entry %d still holds %q=%q", i, e.key, e.val)
		}
	}
	for _, tb := range used.firstTables {
		if tb.prefix != "" || tb.runs != nil || tb.tail != nil {
			t.Fatalf("reset: a table still holds %+v", tb)
		}
	}
	for _, e := range used.order[:cap(used.order)] {
		if e != nil {
			t.Fatal("reset: order still refers to a write")
		}
	}

	fresh := newPendingWrites()
	fill(used, 3*pendingSlab, "new")
	fill(fresh, 3*pendingSlab, "new")
	if got, want := keys(used), keys(fresh); !slices.Equal(got, want) {
		t.Errorf("reused pending writes scan %d writes, fresh ones %d (or in another order)", len(got), len(want))
	}
	if e, ok := used.get(tkey("acme", TableFactValid, "001")); !ok || string(e.val) != "new" {
		t.Errorf("reused pending writes: get = %v, %v", e, ok)
	}

	for name, p := range map[string]*pendingWrites{"grown": newPendingWrites(), "large": newPendingWrites()} {
		if name == "grown" {
			p.grow(10)
			fill(p, 3, "v")
		} else {
			fill(p, maxPooledWrites+1, "v")
		}
		n := len(p.order)
		if p.reset() || len(p.order) != n {
			t.Errorf("%s pending writes were emptied for reuse", name)
		}
	}
}
