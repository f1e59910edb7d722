package search

import (
	"hash/fnv"
	"testing"
)

// FuzzFNV32a: fnv32a is hash/fnv's FNV-1a, so term buckets (bucketOf)
// stay where earlier versions put them.
func FuzzFNV32a(f *testing.F) {
	for _, s := range []string{"", "a", "project_12.owner", "\x01abcdef0123456789\x00budget", "ünïcode"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := fnv.New32a()
		_, _ = h.Write([]byte(s))
		if got, want := fnv32a(s), h.Sum32(); got != want {
			t.Fatalf("fnv32a(%q) = %d, hash/fnv says %d", s, got, want)
		}
	})
}
