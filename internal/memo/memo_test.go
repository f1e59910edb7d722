package memo

import (
	"strings"
	"sync"
	"testing"
)

func TestMemo(t *testing.T) {
	calls := 0
	var mu sync.Mutex
	upper := func(s string) string {
		mu.Lock()
		calls++
		mu.Unlock()
		return strings.ToUpper(s)
	}
	tests := []struct {
		name  string
		lim   Limits
		keys  []string
		calls int // calls of the function for keys, asked twice in a row each
	}{
		{"remembered", Limits{Entries: 10}, []string{"a", "b", "a"}, 2},
		{"a long key is never kept", Limits{Key: 3}, []string{"abcd", "abcd"}, 2},
		{"full by entries: emptied", Limits{Entries: 1}, []string{"a", "b", "a"}, 3},
		{"full by bytes: emptied", Limits{Bytes: 2}, []string{"ab", "c", "ab"}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls = 0
			m := New(upper, tc.lim)
			for _, k := range tc.keys {
				if got := m.Get(k); got != strings.ToUpper(k) {
					t.Fatalf("Get(%q) = %q", k, got)
				}
			}
			if calls != tc.calls {
				t.Errorf("the function ran %d times, want %d", calls, tc.calls)
			}
		})
	}
}

func TestMemoConcurrent(t *testing.T) {
	m := New(strings.ToUpper, Limits{Entries: 4})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 200 {
				k := string(rune('a' + (i+j)%10))
				if got := m.Get(k); got != strings.ToUpper(k) {
					t.Errorf("Get(%q) = %q", k, got)
				}
			}
		}()
	}
	wg.Wait()
}
