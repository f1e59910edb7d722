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
