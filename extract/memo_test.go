package extract

import (
	"slices"
	"testing"
)

// TestMemoizedKeyReadings: the memoized readings of keys and stored values
// are the computed ones, asked once or twice, and a caller appending to
// the words anchorWords returns does not change what the next caller gets.
func TestMemoizedKeyReadings(t *testing.T) {
	for _, key := range []string{"project_12.owner", "offsiteVenue", "user.current_address", "budget", "vetAppointment", "team offsite city"} {
		for range 2 {
			e, a := NormalizeKey(key)
			if we, wa := normalizeKey(key); e != we || a != wa {
				t.Errorf("NormalizeKey(%q) = %q, %q, want %q, %q", key, e, a, we, wa)
			}
			topic, attrs := anchorWords(key)
			wt, wa := scanAnchorWords(key)
			if !slices.Equal(topic, wt) || !slices.Equal(attrs, wa) {
				t.Errorf("anchorWords(%q) = %v, %v, want %v, %v", key, topic, attrs, wt, wa)
			}
			_ = append(topic, "changed")
			_ = append(attrs, "changed")
		}
	}
	for _, v := range []string{"Postgres", "$45k", "2 weeks", "ana@example.org", "v2.3", "Dana Reyes", "March 3", "2026-03-10 (March 10)", "phase 3", ""} {
		if got, want := storedKindMemo.Get(v), scanStoredKind(v); got != want {
			t.Errorf("storedKind(%q) = %+v, want %+v", v, got, want)
		}
	}
}
