package revision

import "testing"

// TestPossessed: an owner is read at a word's start, capitalised unless it
// opens an entity of several words, and a sentence whose letters change
// length when lowered (İ) cannot move the offsets it is read at.
func TestPossessed(t *testing.T) {
	tests := []struct {
		sentence, owner string
		anyCase, want   bool
	}{
		{"Marketing's budget was slashed to $8,000.", "marketing", false, true},
		{"The project's budget was slashed to $8,000.", "project", false, false},
		{"The sales team's offsite moved to Porto.", "sales team", true, true},
		{"The team's offsite moved to Porto.", "sales team", true, false},
		{"Telemarketing's budget was cut.", "marketing", false, false},
		{"İstanbul trip: Marketing’s budget was cut.", "marketing", false, true},
		{"İİİİ the plumber's number is 555-0188.", "plumber", true, true},
		{"İİİİİİİİ", "plumber", true, false},
	}
	for _, tc := range tests {
		if got := possessed(tc.sentence, tc.owner, tc.anyCase); got != tc.want {
			t.Errorf("possessed(%q, %q, %v) = %v, want %v", tc.sentence, tc.owner, tc.anyCase, got, tc.want)
		}
	}
}

// FuzzPossessed: any sentence and owner are read without panicking.
func FuzzPossessed(f *testing.F) {
	f.Add("Marketing's budget", "marketing", false)
	f.Add("İİ the sales team’s offsite", "sales team", true)
	f.Fuzz(func(t *testing.T, sentence, owner string, anyCase bool) {
		possessed(sentence, owner, anyCase)
	})
}
