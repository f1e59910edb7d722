package store

import (
	"bytes"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/tenancy"
)

func TestSuffixRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		s    string
		at   time.Time
		rest string
	}{
		{"plain", "budget", time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), "F-1"},
		{"empty strings", "", time.Unix(0, 0).UTC(), ""},
		{"before 1970", "k\x00ey", time.Date(1901, 1, 1, 0, 0, 0, 0, time.UTC), "id\xff"},
		{"unicode", "clé ✓", time.Date(2200, 12, 31, 23, 59, 59, 999999999, time.UTC), "Ω"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := Suffix(nil).Str(tc.s).Time(tc.at).Raw(tc.rest)
			r := NewReader(b)
			gotS, gotAt, gotRest := r.Str(), r.Time(), r.Rest()
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if gotS != tc.s || !gotAt.Equal(tc.at) || gotRest != tc.rest {
				t.Errorf("got (%q, %v, %q), want (%q, %v, %q)", gotS, gotAt, gotRest, tc.s, tc.at, tc.rest)
			}
		})
	}
}

func TestTimeOrder(t *testing.T) {
	times := []time.Time{
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1677, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Unix(-1, 0),
		time.Unix(0, 0),
		time.Unix(0, 1),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
	}
	for i := 1; i < len(times); i++ {
		a, b := Suffix(nil).Time(times[i-1]), Suffix(nil).Time(times[i])
		if bytes.Compare(a, b) >= 0 {
			t.Errorf("encoding of %v does not sort before %v", times[i-1], times[i])
		}
	}
}

func TestReaderMalformed(t *testing.T) {
	for _, b := range [][]byte{{0}, {0, 5, 'a'}, {1, 2, 3}} {
		r := NewReader(b)
		r.Str()
		r.Time()
		if r.Err() == nil {
			t.Errorf("NewReader(%v): want ErrBadKey", b)
		}
	}
	if _, err := parseKey([]byte{0, 0, 'o', 0, 0, 'F'}); err == nil {
		t.Error("parseKey accepted a key with an empty organization")
	}
}

// FuzzKey round-trips the full key layout: any organization, space,
// owner, table and suffix decode back to themselves, and no organization's
// prefix is a prefix of another organization's keys.
func FuzzKey(f *testing.F) {
	f.Add("acme", byte('u'), "alice", byte('F'), "F-1", "acme2")
	f.Add("a", byte('o'), "", byte('K'), "", "a\x00")
	f.Add("x\xff", byte('c'), "cap", byte('T'), "\x00\x01", "x")
	f.Fuzz(func(t *testing.T, org string, kind byte, owner string, table byte, suffix, other string) {
		if org == "" || len(org) > maxSeg || len(owner) > maxSeg {
			return
		}
		k := append(Suffix(nil).Str(org), kind)
		k = append(Suffix(k).Str(owner), table)
		k = append(k, suffix...)
		pk, err := parseKey(k)
		if err != nil {
			t.Fatalf("parseKey: %v", err)
		}
		if pk.Org != org || byte(pk.Kind) != kind || pk.Owner != owner || byte(pk.Table) != table || string(pk.Suffix) != suffix {
			t.Fatalf("round trip: got %+v", pk)
		}
		if n := tableKeyLen(k); n != len(k)-len(suffix) {
			t.Fatalf("tableKeyLen = %d, want %d (the key without its suffix)", n, len(k)-len(suffix))
		}
		if other != org && other != "" && len(other) <= maxSeg {
			if bytes.HasPrefix(k, Suffix(nil).Str(other)) {
				t.Fatalf("org %q's key starts with org %q's prefix", org, other)
			}
		}
	})
}

// TestKeyMatchesPrefixes: the one-allocation key builder agrees with the
// prefix builders that scans use.
func TestKeyMatchesPrefixes(t *testing.T) {
	p := testPartition(t)
	for _, sp := range p.Spaces() {
		got := key(sp, TableFact, []byte("F-1"))
		want := append(tablePrefix(sp, TableFact), "F-1"...)
		if !bytes.Equal(got, want) {
			t.Errorf("key = %q, want %q", got, want)
		}
	}
}

func testPartition(t *testing.T) tenancy.Partition {
	t.Helper()
	secret := []byte("keys-test-secret-0123456789abcdef")
	tok, err := authority.Mint(secret, authority.Identity{Org: "acme", UserID: "alice", Capability: "billing", Kind: authority.KindAgent}, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	v, _ := authority.NewVerifier(authority.VerifierConfig{Secret: secret})
	id, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	p, err := tenancy.For(id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestKeyValue: keyValue's key is key's, its value a copy of the value
// (nil stays nil, empty stays empty), and neither grows into the other.
func TestKeyValue(t *testing.T) {
	sp := tenancy.Space{}
	for _, tc := range []struct {
		name string
		v    []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"bytes", []byte("value")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, v := keyValue(sp, TableFact, []byte("id"), tc.v)
			if want := key(sp, TableFact, []byte("id")); !bytes.Equal(k, want) {
				t.Fatalf("key %q, want %q", k, want)
			}
			if !bytes.Equal(v, tc.v) || (v == nil) != (tc.v == nil) {
				t.Fatalf("value %#v, want %#v", v, tc.v)
			}
			if cap(k) != len(k) || cap(v) != len(v) {
				t.Fatalf("caps %d/%d and %d/%d: one could grow into the other", len(k), cap(k), len(v), cap(v))
			}
			if len(tc.v) > 0 {
				tc.v[0] = 'X'
				if v[0] == 'X' {
					t.Fatal("the value is not a copy")
				}
			}
		})
	}
}
