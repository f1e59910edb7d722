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

// TestReplacementIsAValue: what detection read is a fact's new value only
// when it is one: not a word of the old value, not what someone does.
func TestReplacementIsAValue(t *testing.T) {
	tests := []struct {
		replacement, old string
		want             bool
	}{
		{"SanDisk Extreme", "Samsung T7", true},
		{"T7", "Samsung T7", false},        // "The T7 died, so …"
		{"samsung t7", "Samsung T7", true}, // the whole value, said again (restated, judged elsewhere)
		{"doing school pickup on weekdays", "Dad", false},
		{"Grandma", "Dad", true},
		{"Reading Terminal Market", "Ferry Building", true},           // a capitalised name may open on "-ing"
		{"Luis volunteered to water the office plants", "Kim", false}, // a clause with its verb
		{"This week", "Wednesday", false},                             // when, not what
		{"tomorrow", "Friday", false},
		{"week", "2026-12-15", false}, // "pushed the deadline back a week"
		{"Ordering Counter Culture", "Lavazza", false},
		{"Leo's", "Bounce House", false},
		{"the late shift, so I start at 11am", "7am", false},
		{"a high-deductible plan: $2,500", "$1,000", false},
		{"it's my favorite now.", "Succession", false},
		{"the 5th floor over the weekend", "3", false},
		{"Friday morning", "Thursday morning", true},
		{"Thursday", "Wednesday", true},
	}
	for _, tc := range tests {
		if got := wellFormed(tc.replacement) && !partOf(tc.replacement, tc.old); got != tc.want {
			t.Errorf("%q replacing %q: %v, want %v", tc.replacement, tc.old, got, tc.want)
		}
	}
	if !wellFormed("window seat") || wellFormed("Actually, put me down for a window seat") {
		t.Error("the speaker's words around a value were read as the value")
	}
	const moved = "We switched Biscuit to Paws & Claws Vet after the move."
	if !movedThing(moved, "Biscuit") || movedThing(moved, "Paws & Claws Vet") {
		t.Error("what was moved was read as where it went")
	}
}

// TestOpensOnTopic: a read that opens on the key's own word is a clause
// about the topic, not its value.
func TestOpensOnTopic(t *testing.T) {
	tests := []struct {
		replacement, key string
		want             bool
	}{
		{"Deploys go out on Tuesdays", "deploy_day", true},
		{"the Growth team", "team", false},
		{"Team Rocket", "team", false},
		{"Tuesday", "deploy_day", false},
	}
	for _, tc := range tests {
		if got := opensOnTopic(tc.replacement, tc.key); got != tc.want {
			t.Errorf("opensOnTopic(%q, %q) = %v, want %v", tc.replacement, tc.key, got, tc.want)
		}
	}
}
