package temporal_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/stategraph/stategraph/temporal"
)

// FuzzKey round-trips the time encoding and checks that byte order is
// time order. Seeds sit at the range's extremes and around the Unix epoch
// and the old nanosecond encoding's limits (1677, 2262).
func FuzzKey(f *testing.F) {
	seeds := []time.Time{
		temporal.Min, temporal.Max, time.Unix(0, 0), time.Unix(-1, 999_999_999),
		time.Date(1677, 9, 21, 0, 12, 43, 145224191, time.UTC),
		time.Date(2262, 4, 11, 23, 47, 16, 854775808, time.UTC),
		time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC),
	}
	for i, a := range seeds {
		b := seeds[(i+1)%len(seeds)]
		f.Add(a.Unix(), uint32(a.Nanosecond()), b.Unix(), uint32(b.Nanosecond()))
	}
	// Beyond the range, too: the encoding must stay total and ordered.
	f.Add(int64(-1)<<62, uint32(0), int64(1)<<62, uint32(999_999_999))
	f.Fuzz(func(t *testing.T, s1 int64, n1 uint32, s2 int64, n2 uint32) {
		a := time.Unix(s1, int64(n1%1e9)).UTC()
		b := time.Unix(s2, int64(n2%1e9)).UTC()
		ka, kb := temporal.AppendKey(nil, a), temporal.AppendKey(nil, b)
		if len(ka) != temporal.KeyLen || len(kb) != temporal.KeyLen {
			t.Fatalf("key lengths %d, %d, want %d", len(ka), len(kb), temporal.KeyLen)
		}
		for _, c := range []struct {
			t time.Time
			k []byte
		}{{a, ka}, {b, kb}} {
			got, err := temporal.DecodeKey(c.k)
			if err != nil || !got.Equal(c.t) || got.Location() != time.UTC {
				t.Fatalf("DecodeKey(AppendKey(%v)) = %v, %v", c.t, got, err)
			}
		}
		if got, want := bytes.Compare(ka, kb), a.Compare(b); got != want {
			t.Fatalf("order of %v and %v: bytes %d, times %d", a, b, got, want)
		}
	})
}

func TestDecodeKeyMalformed(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
	}{
		{"short", make([]byte, temporal.KeyLen-1)},
		{"nanoseconds overflow", append(temporal.AppendKey(nil, temporal.Min)[:8], 0x3b, 0x9a, 0xca, 0x00)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := temporal.DecodeKey(tc.b); !errors.Is(err, temporal.ErrBadKey) {
				t.Errorf("DecodeKey = %v, want ErrBadKey", err)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		t  time.Time
		ok bool
	}{
		{temporal.Min, true},
		{temporal.Max, true},
		{time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{temporal.Min.Add(-time.Nanosecond), false},
		{temporal.Max.Add(time.Nanosecond), false},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.FixedZone("+1", 3600)), false},
		{time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("-1", -3600)), false},
	}
	for _, tc := range tests {
		t.Run(tc.t.Format(time.RFC3339Nano), func(t *testing.T) {
			err := temporal.Check(tc.t)
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, temporal.ErrOutOfRange)) {
				t.Errorf("Check = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
