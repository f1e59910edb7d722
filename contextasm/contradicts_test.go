package contextasm

import (
	"testing"
	"time"

	"github.com/stategraph/stategraph/assemble"
)

// TestContradicts: an older sentence that gives a current fact's topic
// another value is dropped, whether the value is a distinctive word or a
// name the topic links to ("Tobias has the onboarding deck"); a sentence
// that restates the value, talks about the topic without a value, or was
// said after the fact, is kept; a fact whose key names no word is no
// topic.
func TestContradicts(t *testing.T) {
	recorded := time.Date(2026, 1, 7, 10, 0, 0, 0, time.UTC)
	before, after := recorded.Add(-48*time.Hour), recorded.Add(time.Hour)
	topics := factTopics([]assemble.Fact{
		{Key: "onboarding_deck.owner", Value: "Nadia", RecordedAt: recorded},
		{Key: "team_offsite.location", Value: "Seville", RecordedAt: recorded},
		// A key naming no word is no topic: it names nothing a
		// sentence could give another value.
		{Key: "the", Value: "Madrid", RecordedAt: recorded},
	})
	if terms := topicTerms("the"); len(terms) != 0 {
		t.Fatalf("topicTerms(%q) = %q, want none", "the", terms)
	}
	tests := []struct {
		text string
		at   time.Time
		want bool
	}{
		{"Tobias has the onboarding deck — it's theirs end to end.", before, true},
		{"The person on the hook for the onboarding deck is Tobias.", before, true},
		{"We're holding the team offsite in Valencia.", before, true},
		{"Nadia has the onboarding deck.", before, false},
		{"What belongs in an onboarding checklist?", before, false},
		{"The onboarding deck needs a new intro slide.", before, false},
		{"Tobias has the onboarding deck — it's theirs end to end.", after, false},
		{"We fly to Valencia on Friday.", before, false},
	}
	for _, tt := range tests {
		if got := contradicts(tt.text, tt.at, topics); got != tt.want {
			t.Errorf("contradicts(%q, %s) = %v, want %v", tt.text, tt.at.Format(time.RFC3339), got, tt.want)
		}
	}
}
