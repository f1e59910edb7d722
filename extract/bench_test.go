package extract

import (
	"strings"
	"testing"
)

// benchTurn is a realistic 2,000-character assistant-and-user style turn.
func benchTurn() string {
	parts := []string{
		"Thanks for the update on the offsite planning.",
		"## Summary",
		"- The offsite is in Lisbon.",
		"- The room holds 40, not 60.",
		"Jonas is taking the onboarding deck off Lena's hands.",
		"I've finished 14 of the 20 interviews.",
		"The marketing budget was cut to $40k, but we might ask for more later.",
		"Priya proposed Bellini's, but we said no.",
		"We're going with Café Lumière for the team dinner.",
		"The launch got pushed to December 4th.",
		"Two years ago the launch slipped badly, which is why everyone is nervous.",
		"My sister moved her appointment to Friday, so I'll be around.",
		"Is the workshop still on Thursday at 3pm?",
		"My new email is ana.lima@example.org and my flight is LH 1234.",
		"What if we moved the retro to Porto instead?",
		"The migration is done and the API redesign is now blocked.",
	}
	var b strings.Builder
	for b.Len() < 2000 {
		for _, p := range parts {
			b.WriteString(p)
			b.WriteString("\n")
			if b.Len() >= 2000 {
				break
			}
		}
	}
	return b.String()[:2000]
}

func BenchmarkExtract2000(b *testing.B) {
	turn := Turn{Text: benchTurn(), Speaker: "user", At: turnTime}
	b.ReportAllocs()
	b.SetBytes(int64(len(turn.Text)))
	for b.Loop() {
		Extract(turn)
	}
}

// BenchmarkExtractAssistant2000 reads a 2,000-character markdown answer:
// headings, option lists, suggestions and a few restatements.
func BenchmarkExtractAssistant2000(b *testing.B) {
	parts := []string{
		"## Offsite options",
		"Here are a few venues you could consider for the team:",
		"1. **Café Lumière** – seats 40, costs about $2,000 for the evening.",
		"2. **The Grand Hotel** – holds 120 people and has parking.",
		"### Budget",
		"- Marketing budget: $40k",
		"- Travel budget",
		"If you go with Lisbon, the flights might cost $400 each, so I'd recommend booking early.",
		"Based on what you told me, the offsite is in Lisbon and the room holds 40.",
		"Would you like me to draft an email to the venue?",
	}
	var sb strings.Builder
	for sb.Len() < 2000 {
		for _, p := range parts {
			sb.WriteString(p)
			sb.WriteString("\n")
		}
	}
	turn := Turn{Text: sb.String()[:2000], Speaker: "assistant", At: turnTime}
	b.ReportAllocs()
	b.SetBytes(int64(len(turn.Text)))
	for b.Loop() {
		Extract(turn)
	}
}
