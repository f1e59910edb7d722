package contextasm_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

// longValue is something the user says once early in a long conversation
// and may update much later; a query at the end asks for it.
type longValue struct {
	said    string // the sentence stating it, said early
	update  string // a later sentence replacing it, or ""
	query   string
	want    string // a phrase of the current value
	retired string // a phrase only the replaced value carries
}

// longValues are technical and personal values, stated early; a third of
// them are updated later in the conversation.
var longValues = []longValue{
	{said: "I've finished 14 of the 20 interviews for the Meridian study.", update: "Quick status: I have now finished 18 of the 20 Meridian interviews.",
		query: "How many Meridian interviews have I finished?", want: "18 of the 20", retired: "14 of the 20"},
	{said: "My dentist is Dr. Okafor on Lindley Street.", query: "Who is my dentist?", want: "Dr. Okafor"},
	{said: "The staging database runs Postgres 14 on a db.r6g.large instance.", update: "We upgraded the staging database to Postgres 16 last night.",
		query: "Which Postgres version does the staging database run?", want: "Postgres 16", retired: "Postgres 14"},
	{said: "My daughter's school play is on the 14th of March.", query: "When is my daughter's school play?", want: "14th of March"},
	{said: "The API rate limit for the partner integration is 300 requests per minute.", query: "What is the partner integration's API rate limit?", want: "300 requests per minute"},
	{said: "I'm allergic to penicillin, so keep that in mind for the travel kit.", query: "Am I allergic to anything?", want: "penicillin"},
	{said: "Our Kafka cluster keeps messages for 7 days.", update: "We changed the Kafka retention to 3 days to save disk.",
		query: "How long does Kafka keep messages?", want: "3 days", retired: "7 days"},
	{said: "The wifi password at the cabin is larch-4417.", query: "What is the cabin wifi password?", want: "larch-4417"},
	{said: "I run the Thursday standup for the payments team.", query: "Which standup do I run?", want: "Thursday standup"},
	{said: "My landlord is called Beatrix Holm.", update: "The flat was sold, so my landlord is now Tomasz Wirth.",
		query: "Who is my landlord?", want: "Tomasz Wirth", retired: "Beatrix Holm"},
	{said: "The on-call escalation goes to Priya Raman after 15 minutes.", query: "Who does on-call escalate to?", want: "Priya Raman"},
	{said: "I bought a used Brompton folding bike for 900 euros.", query: "How much did I pay for the bike?", want: "900 euros"},
}

// longFiller is one turn of everyday technical and personal talk: it
// shares common words with the queries (interviews, database, school,
// cabin, bike) without stating any of the values.
func longFiller(rng *rand.Rand, speaker string) string {
	topics := []string{
		"the deploy pipeline", "the database migration", "the interviews we still need to schedule", "my running plan",
		"the school run", "the cabin trip", "the bike commute", "the payments dashboard", "the API client library",
		"the dentist appointment reminders", "the Kafka consumer lag", "the quarterly planning doc", "the on-call rotation",
		"dinner plans", "the garden", "the flat viewing notes",
	}
	verbs := []string{"looked at", "talked through", "sketched", "reviewed", "wrote notes on", "thought about", "cleaned up", "compared options for"}
	n := 3 + rng.Intn(4)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		t := topics[rng.Intn(len(topics))]
		if speaker == "ASSISTANT" {
			fmt.Fprintf(&b, "Here is a summary of %s: the main points are clear and the next step is small.", t)
		} else {
			fmt.Fprintf(&b, "Today I %s %s and it took longer than expected.", verbs[rng.Intn(len(verbs))], t)
		}
	}
	return b.String()
}

// TestLongConversationRecall records a long conversation (about 260 turns,
// values stated in the first 40 turns, a third of them updated after turn
// 150) and asks for every value at the end, budget 8000, reporting recall
// (the current value's phrase is in the context) and resurrection (a
// replaced value's phrase is). Every value stated once must be recalled.
// Updated values are reported, not required: a replaced value is retired
// from evidence when the fact extracted from it is superseded
// (evidence.Retirer), which needs extraction wired into recordTurn, and an
// update can itself be retired when supersession detection wrongly
// supersedes its turn (a later "my landlord is now ..." superseding the
// Kafka update); both are other parts of issue 12.
func TestLongConversationRecall(t *testing.T) {
	recalled, resurrected, updated, total, updRecalled := 0, 0, 0, 0, 0
	for seed := range int64(1) {
		env := apitest.New(t)
		tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
		rng := rand.New(rand.NewSource(seed + 11))
		say := func(speaker, text string) {
			t.Helper()
			recordTurn(t, env, tok, "conv", speaker, text)
			env.Clock.Advance(3 * time.Minute)
		}
		speakers := []string{"USER", "ASSISTANT"}
		turns := 0
		for i, v := range longValues {
			say("USER", v.said)
			turns++
			for range 2 + i%2 {
				say(speakers[turns%2], longFiller(rng, speakers[turns%2]))
				turns++
			}
		}
		for turns < 150 {
			say(speakers[turns%2], longFiller(rng, speakers[turns%2]))
			turns++
		}
		for _, v := range longValues {
			if v.update == "" {
				continue
			}
			say("USER", v.update)
			turns++
			for range 5 {
				say(speakers[turns%2], longFiller(rng, speakers[turns%2]))
				turns++
			}
		}
		for turns < 260 {
			say(speakers[turns%2], longFiller(rng, speakers[turns%2]))
			turns++
		}
		for _, v := range longValues {
			got := assemble(t, env, tok, map[string]any{"query": v.query, "budget": 8000, "sessionId": "conv"})
			total++
			ok := strings.Contains(got.Text, v.want)
			if ok {
				recalled++
			}
			switch {
			case v.retired != "":
				updated++
				if ok {
					updRecalled++
				}
				if strings.Contains(got.Text, v.retired) {
					resurrected++
				}
			case !ok:
				t.Errorf("seed %d: %q: %q is not in the context (%d tokens)\n%s", seed, v.query, v.want, got.Tokens, got.Text)
			}
			if got.Tokens > 8000 {
				t.Errorf("%d tokens over the budget", got.Tokens)
			}
		}
	}
	pct := func(n, d int) float64 { return 100 * float64(n) / float64(max(d, 1)) }
	t.Logf("long conversations: recall %d/%d (%.0f%%), of updated values %d/%d (%.0f%%); replaced values resurfacing %d/%d (%.0f%%)",
		recalled, total, pct(recalled, total), updRecalled, updated, pct(updRecalled, updated), resurrected, updated, pct(resurrected, updated))
}
