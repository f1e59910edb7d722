package extract

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// FuzzExtract checks that Extract never panics and that every value is said
// in the turn (after trimming), is a resolved date, or is the speaker.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"Jonas is taking the onboarding deck off Lena's hands.",
		"Actually the room holds 40, not 60.",
		"I'm at 12 Elm Row now. The offsite is in Lisbon; maybe Porto.",
		"## Budget\n- The marketing budget was cut to $40k.\n- Venue",
		"The launch got pushed to December 4th. Call me on 555-0142.",
		"Let's go with Café Lumière for the team dinner! My flight is LH 1234.",
		"I've finished 14 of the 20 interviews, and the migration is done.",
		"```\ncode\n``` the deadline is next Friday at 3pm",
		"", ".", "?!", "’’’", "not not not", "14 of of of 20",
	} {
		f.Add(s, "user")
	}
	f.Add("You could go with Bellini's.", "assistant")
	f.Add("I own the deck.", "Priya")
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text, speaker string) {
		for _, st := range Extract(Turn{Text: text, Speaker: speaker, At: at}) {
			v := strings.TrimSpace(st.Value)
			self, _ := selfKeys(speaker)
			if v == "" {
				t.Fatalf("empty value in %+v", st)
			}
			if !strings.Contains(text, v) && v != self && !(st.Kind == KindDate && reResolved.MatchString(v)) {
				t.Fatalf("value %q is neither in %q, nor a resolved date, nor the speaker", v, text)
			}
			if st.Key == "" || st.Rule == "" {
				t.Fatalf("statement without key or rule: %+v", st)
			}
		}
	})
}

// FuzzSwapAnchor reads any sentence against any stored fact with Swap and
// Anchor: neither panics, and each value it returns is said in the
// sentence (or, for Anchor, is a resolved date).
// reLength is a length Anchor writes from an adjective ("three-week" is
// "3 weeks").
var reLength = regexp.MustCompile(`^\d+ (?:minute|hour|day|week|month|quarter|year)s?$`)

func FuzzSwapAnchor(f *testing.F) {
	for _, c := range [][3]string{
		{"We've ditched Jenkins for GitHub Actions.", "ci_tool", "Jenkins"},
		{"Golden Wok cancelled on us, so Mezze Republic is doing the food.", "caterer_choice", "Golden Wok"},
		{"Sold the Golf and picked up a Corolla.", "car", "VW Golf"},
		{"We're going with CockroachDB for billing after all.", "db_choice", "Postgres"},
		{"The cluster is on 1.31 now after the upgrade.", "k8s_version", "1.29"},
		{"Sprints are three weeks long starting next cycle.", "sprint_length", "2 weeks"},
		{"Greta signs off on expenses now that Pavel has moved teams.", "approver", "Pavel"},
		{"I'm vegan now.", "diet", "vegetarian"},
		{"Go’s fine; we’re not switching.", "language", "Go"},
		{"Sold the Civic last month; I drive a Tesla Model 3 now.", "car", "Honda Civic"},
		{"I switched dentists — I see Dr. Okafor now.", "dentist", "Dr. Patel"},
		{"We let BuildRight go and brought in Hammer & Co.", "contractor", "BuildRight"},
		{"We're running Postgres 16 in production now.", "db", "Postgres 14"},
		{"İİ we're running Postgres v16 now", "db", "Postgres 14"},
		{"The weekly sync lives in 6B from now on.", "meeting_room", "3C"},
		{"They rebooked me onto BA175.", "flight", "BA117"},
		{"We moved the discussion to #launch-2026.", "slack_channel", "#launch"},
		{"I'm driving a Mazda CX-5 these days.", "car", "Honda Civic"},
		{"Package arrived this morning — it's delivered.", "order_status", "processing"},
		{"We're doing three-week sprints from now on.", "sprint_length", "2 weeks"},
		{"Work gave me a ThinkPad X1 to replace the MacBook Air.", "laptop", "MacBook Air"},
		{"We refinanced and locked in 5.9%.", "mortgage_rate", "6.5%"},
		{"", "", ""}, {"’’’ ;; — ", "a_b", "’"},
	} {
		f.Add(c[0], c[1], c[2])
	}
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, sentence, key, stored string) {
		if v, ok := Swap(sentence, key, stored); ok && (strings.TrimSpace(v) == "" || !strings.Contains(sentence, v)) {
			t.Fatalf("Swap(%q, %q, %q) = %q, not said in the sentence", sentence, key, stored, v)
		}
		if st, ok := Anchor(sentence, key, stored, at); ok {
			v := st.Value
			if strings.TrimSpace(v) == "" || !strings.Contains(sentence, v) && !reResolved.MatchString(v) && !reLength.MatchString(v) {
				t.Fatalf("Anchor(%q, %s=%q) = %q, neither said nor a resolved date or length", sentence, key, stored, v)
			}
		}
	})
}
