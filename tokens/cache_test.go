package tokens

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestCache: the cache counts what the Counter counts, holds at most its
// size, keeps what was used since the last turnover, and is safe for
// concurrent use.
func TestCache(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	const size = 64
	k := NewCache(c, size)
	line := func(i int) string { return fmt.Sprintf("- item.%d: the budget of %d is approved\n", i, i*37) }
	long := strings.Repeat("token ", maxCached)
	for _, s := range []string{"", "a", line(1), long, "ünïcode straße", "\xff\xfe"} {
		for range 2 { // counted, then remembered
			if got, want := k.Count(s), c.Count(s); got != want {
				t.Errorf("Count(%.20q) = %d, Counter says %d", s, got, want)
			}
			if got, want := k.CountBytes([]byte(s)), c.Count(s); got != want {
				t.Errorf("CountBytes(%.20q) = %d, Counter says %d", s, got, want)
			}
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				s := line((i * (g + 1)) % 300)
				if got, want := k.Count(s), c.Count(s); got != want {
					t.Errorf("Count(%q) = %d, Counter says %d", s, got, want)
				}
				if got, want := k.CountBytes([]byte(s)), c.Count(s); got != want {
					t.Errorf("CountBytes(%q) = %d, Counter says %d", s, got, want)
				}
			}
		}()
	}
	wg.Wait()
	if n := k.Len(); n > size {
		t.Errorf("Len() = %d, more than the size %d", n, size)
	}
	// A line used again and again stays while others come and go.
	hot := line(1000)
	k.Count(hot)
	for i := range 10 * size {
		k.Count(line(2000 + i))
		k.Count(hot)
		if _, ok := k.cur[hot]; !ok {
			t.Fatalf("the hot line left the current generation after %d other lines", i+1)
		}
	}
}

// TestCountBytesCached: a line counted before is counted from bytes
// without allocating.
func TestCountBytesCached(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	k := NewCache(c, 64)
	b := []byte("- item.7: the budget of 259 is approved\n")
	want := k.Count(string(b))
	if allocs := testing.AllocsPerRun(100, func() {
		if got := k.CountBytes(b); got != want {
			t.Fatalf("CountBytes = %d, want %d", got, want)
		}
	}); allocs != 0 {
		t.Errorf("CountBytes of a cached line allocates %.0f times", allocs)
	}
}
