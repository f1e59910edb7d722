package search

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzPostingValue: every value decodes without panicking, and every
// posting's times and class come back from their encoding exactly.
func FuzzPostingValue(f *testing.F) {
	f.Add(int64(1_795_000_000_000_000_000), int64(0), false, int64(0), false, int64(0), "", []byte(nil))
	f.Add(int64(1_795_000_000_000_000_000), int64(-86_400e9), true, int64(5e9), true, int64(5e9), "r:ab12", []byte(`{"f":"2026-01-02T03:04:05Z"}`))
	f.Add(int64(-9_000_000_000_000_000_000), int64(1), true, int64(-3), true, int64(7), "x", []byte{postingBinary, pvValidTo | pvSupersededTo, 0x80})
	f.Add(int64(0), int64(0), false, int64(0), true, int64(1), "", []byte{postingBinary, pvClass, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, rec, from int64, hasTo bool, to int64, hasSup bool, sup int64, class string, raw []byte) {
		r := time.Unix(0, rec).UTC()
		_, _ = decodePostingValue(r, raw) // must not panic

		hv := histValue{ValidFrom: r.Add(time.Duration(from)), Class: class}
		if hasTo {
			t := r.Add(time.Duration(to))
			hv.ValidTo = &t
		}
		if hasSup {
			s := r.Add(time.Duration(sup))
			hv.SupersededAt = &s
		}
		b := appendPostingValue(nil, r, hv)
		got, err := decodePostingValue(r, b)
		if err != nil {
			t.Fatalf("decode(%x) of %+v: %v", b, hv, err)
		}
		if !sameHist(got, hv) {
			t.Fatalf("decode(encode(%+v)) = %+v", hv, got)
		}
	})
}

func sameHist(a, b histValue) bool {
	same := func(x, y *time.Time) bool { return (x == nil) == (y == nil) && (x == nil || x.Equal(*y)) }
	return a.ValidFrom.Equal(b.ValidFrom) && same(a.ValidTo, b.ValidTo) && same(a.SupersededAt, b.SupersededAt) && a.Class == b.Class
}

// TestPostingValue: the common live posting stores nothing, a retired one
// far less than its JSON, and values written as JSON by earlier versions
// read the same.
func TestPostingValue(t *testing.T) {
	rec := time.Date(2026, 11, 27, 1, 43, 0, 637_470_372, time.UTC)
	later := rec.Add(90 * time.Second)
	earlier := rec.Add(-48 * time.Hour)
	cases := []struct {
		name    string
		hv      histValue
		maxSize int
	}{
		{"live, valid from recorded", histValue{ValidFrom: rec}, 0},
		{"live, valid from earlier", histValue{ValidFrom: earlier}, 14},
		{"live, restricted", histValue{ValidFrom: rec, Class: "r:0123456789abcdef"}, 21},
		{"superseded (a change)", histValue{ValidFrom: rec, ValidTo: &later, SupersededAt: &later}, 14},
		{"superseded (a correction)", histValue{ValidFrom: earlier, ValidTo: &rec, SupersededAt: &later, Class: "r:x"}, 42},
		{"retracted, no end of validity", histValue{ValidFrom: rec, SupersededAt: &later}, 14},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := appendPostingValue(nil, rec, tc.hv)
			if len(b) > tc.maxSize {
				t.Errorf("encoded in %d bytes (%x), want at most %d", len(b), b, tc.maxSize)
			}
			got, err := decodePostingValue(rec, b)
			if err != nil || !sameHist(got, tc.hv) {
				t.Errorf("decode = %+v, %v; want %+v", got, err, tc.hv)
			}
			old, err := json.Marshal(tc.hv) // as versions before the binary encoding wrote it
			if err != nil {
				t.Fatal(err)
			}
			got, err = decodePostingValue(rec, old)
			if err != nil || !sameHist(got, tc.hv) {
				t.Errorf("decode(%s) = %+v, %v; want %+v", old, got, err, tc.hv)
			}
		})
	}
	for _, bad := range [][]byte{{0x02}, {postingBinary}, {postingBinary, 0}, {postingBinary, 0x40}, {postingBinary, pvValidFrom, 1, 2}, {'{'}} {
		if got, err := decodePostingValue(rec, bad); err == nil {
			t.Errorf("decode(%x) = %+v, want an error", bad, got)
		}
	}
}
