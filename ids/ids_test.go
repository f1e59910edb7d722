package ids_test

import (
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/temporal"
)

func TestSeededIsReproducible(t *testing.T) {
	at := time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)
	run := func() []string {
		clock := temporal.NewManual(at)
		g := ids.Seeded(clock, 7)
		var out []string
		for i := range 5 {
			out = append(out, g.New("F-"))
			clock.Advance(time.Duration(i) * time.Second)
		}
		g.Reseed(7)
		clock.Set(at)
		return append(out, g.New("T-"))
	}
	a, b := run(), run()
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("two runs differ:\n%v\n%v", a, b)
	}
	if strings.TrimPrefix(a[5], "T-") != strings.TrimPrefix(a[0], "F-") {
		t.Errorf("after Reseed the sequence does not restart: %s vs %s", a[5], a[0])
	}
	for i := 1; i < 5; i++ {
		if a[i] <= a[i-1] {
			t.Errorf("ids do not increase: %s after %s", a[i], a[i-1])
		}
	}
}

func TestTimeIsTheClocks(t *testing.T) {
	tests := []struct {
		name string
		at   time.Time
		want uint64
	}{
		{"2025", time.Date(2025, 1, 2, 3, 4, 5, 6e6, time.UTC), ulid.Timestamp(time.Date(2025, 1, 2, 3, 4, 5, 6e6, time.UTC))},
		{"before 1970 clamps to 0", time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{"after the ULID range clamps to its end", time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), ulid.Timestamp(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, g := range []*ids.Generator{ids.New(temporal.NewManual(tc.at)), ids.Seeded(temporal.NewManual(tc.at), 1)} {
				if got := g.ULID().Time(); got != tc.want {
					t.Errorf("ULID time %d, want %d", got, tc.want)
				}
			}
		})
	}
}

func TestDistinctSeedsAndNil(t *testing.T) {
	clock := temporal.NewManual(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	a := ids.Seeded(clock, ids.SeedOf(1, "timeline-a")).New("")
	b := ids.Seeded(clock, ids.SeedOf(1, "timeline-b")).New("")
	if a == b {
		t.Errorf("different seeds gave the same id %s", a)
	}
	var none *ids.Generator
	if id := none.New("AU-"); !strings.HasPrefix(id, "AU-") || len(id) != 29 {
		t.Errorf("nil generator made %q", id)
	}
	seen := map[string]bool{}
	g := ids.New(clock)
	for range 1000 {
		id := g.New("")
		if seen[id] {
			t.Fatalf("duplicate id %s on a clock standing still", id)
		}
		seen[id] = true
	}
}
