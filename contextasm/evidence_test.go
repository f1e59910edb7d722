package contextasm_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/golden"
	"github.com/stategraph/stategraph/server"
)

// fillerWords are the vocabulary of long filler turns: everyday topics,
// and two words of the value the tests look for, so that many sentences
// match a query a little.
var fillerWords = strings.Fields(`garden tomato basil watering compost sunlight recipe oven flour
yeast bread crust weekend hiking trail river bridge bicycle chain gear brake saddle novel chapter
author library shelf concert guitar chord rhythm melody painting canvas brush colour gallery
museum train station platform ticket coffee kettle teapot biscuit blanket window curtain lamp
sofa carpet puzzle chess opening endgame knight bishop rook castle harbour sailboat anchor
lighthouse seagull pebble beach sunset cloud thunder umbrella raincoat boots scarf mittens
study interview`)

// filler returns a long statement turn of about n characters, the same
// for the same seed.
func filler(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString("I spent some time on the ")
		for range 6 {
			b.WriteString(fillerWords[rng.Intn(len(fillerWords))])
			b.WriteByte(' ')
		}
		b.WriteString("and it went well. ")
	}
	return strings.TrimSpace(b.String())
}

// evidenceIDs returns the ids of the included EVIDENCE records.
func (a assembled) evidenceIDs() []string {
	var out []string
	for _, i := range a.Included {
		if i.Kind == "EVIDENCE" {
			out = append(out, i.ID)
		}
	}
	return out
}

// includesEvidenceOf reports whether a sentence of turn is included.
func (a assembled) includesEvidenceOf(turn string) bool {
	for _, id := range a.evidenceIDs() {
		if strings.HasPrefix(id, turn+"#") {
			return true
		}
	}
	return false
}

// TestEvidenceLongConversation records a conversation of more than 200
// turns through recordTurn: a value said at turn 10 and long filler after
// it still reaches the context, with its provenance, while hypothetical
// sentences and sentences of superseded turns never do, and views of the
// past see what was known then.
func TestEvidenceLongConversation(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	rng := rand.New(rand.NewSource(7))
	turn := func(speaker, text string) string {
		t.Helper()
		id := recordTurn(t, env, tok, "s1", speaker, text)
		env.Clock.Advance(time.Minute)
		return id
	}
	fact(t, env, tok, map[string]any{"key": "demo_time", "value": "3pm Thursday"})
	for i := range 9 {
		turn([]string{"USER", "ASSISTANT"}[i%2], filler(rng, 600))
	}
	beforeValue := env.Clock.Now().Add(-time.Second)
	// A statement no extraction rule structures: it stays evidence.
	value := turn("USER", "Quick update on the Meridian study: 14 of the 20 interviews went ahead.")
	hyp := turn("USER", "The venue is confirmed for the interviews. Suppose we hired Dana Whitfield as the interview lead.")
	stated := turn("USER", "The demo is at 3pm Thursday with the Acme team.")
	for i := range 10 {
		turn([]string{"USER", "ASSISTANT"}[i%2], filler(rng, 600))
	}
	beforeChange := env.Clock.Now().Add(-time.Second)
	turn("USER", "Actually the demo moved to 5pm Thursday.")
	for i := range 200 {
		turn([]string{"USER", "ASSISTANT"}[i%2], filler(rng, 600))
	}

	t.Run("a value said at turn 10 reaches the context with its provenance", func(t *testing.T) {
		got := assemble(t, env, tok, map[string]any{"query": "How many of the Meridian interviews went ahead?", "budget": 8000, "sessionId": "s1"})
		ev := section(got, "Earlier in the conversation")
		if !strings.Contains(ev, "- 2026-01-05 user: Quick update on the Meridian study: 14 of the 20 interviews went ahead.") {
			t.Errorf("the value said at turn 10 is not in the evidence section:\n%s", got.Text)
		}
		if !got.includesEvidenceOf(value) {
			t.Errorf("no EVIDENCE record of turn %s: %v", value, got.evidenceIDs())
		}
		if got.includesEvidenceOf(hyp) && strings.Contains(got.Text, "Dana Whitfield") {
			t.Errorf("a hypothetical sentence is in the context:\n%s", got.Text)
		}
		// The working set holds 8 turns of ~150 tokens (about 1,200 of
		// the budget); every earlier sentence that matches the query (one
		// in eight of the filler's) fills what is left, best first.
		if got.Tokens < got.Budget/2 || len(got.evidenceIDs()) < 100 {
			t.Errorf("the context uses %d of %d tokens (%d evidence)", got.Tokens, got.Budget, len(got.evidenceIDs()))
		}
		best, top := "", 0.0
		for _, i := range got.Included {
			if i.Kind == "EVIDENCE" && i.Score > top {
				best, top = i.ID, i.Score
			}
		}
		if !strings.HasPrefix(best, value+"#") {
			t.Errorf("the best evidence is %s, want a sentence of %s", best, value)
		}
	})
	t.Run("the same outside the session and two days later", func(t *testing.T) {
		env.Clock.Advance(48 * time.Hour) // every turn has expired
		defer env.Clock.Advance(-48 * time.Hour)
		got := assemble(t, env, tok, map[string]any{"query": "Meridian interviews went ahead", "budget": 2000})
		if !got.includesEvidenceOf(value) || !strings.Contains(got.Text, "14 of the 20 interviews") {
			t.Errorf("the value is lost once turns expire:\n%s", got.Text)
		}
	})
	t.Run("a hypothetical sentence is never included", func(t *testing.T) {
		for _, q := range []string{"Dana Whitfield interview lead", "who is the interview lead", "Suppose we hired Dana Whitfield"} {
			got := assemble(t, env, tok, map[string]any{"query": q, "budget": 4000, "sessionId": "s1"})
			if strings.Contains(got.Text, "Dana Whitfield") {
				t.Errorf("query %q: a hypothetical sentence is in the context:\n%s", q, got.Text)
			}
		}
		got := assemble(t, env, tok, map[string]any{"query": "venue confirmed", "budget": 4000, "sessionId": "s1"})
		if !strings.Contains(got.Text, "The venue is confirmed for the interviews.") && got.includesEvidenceOf(hyp) {
			t.Errorf("evidence of the turn without its real sentence:\n%s", got.Text)
		}
	})
	t.Run("a sentence of a superseded turn is not included", func(t *testing.T) {
		got := assemble(t, env, tok, map[string]any{"query": "When is the demo with the Acme team?", "budget": 4000, "sessionId": "s1"})
		if strings.Contains(got.Text, "3pm") || got.includesEvidenceOf(stated) {
			t.Errorf("the superseded turn's sentence is in the context:\n%s", got.Text)
		}
		if !strings.Contains(got.Text, "5pm Thursday") {
			t.Errorf("the current demo time is not in the context:\n%s", got.Text)
		}
	})
	t.Run("views of the past see what was known then", func(t *testing.T) {
		rfc := func(tm time.Time) string { return tm.Format(time.RFC3339Nano) }
		got := assemble(t, env, tok, map[string]any{"query": "demo with the Acme team", "budget": 4000, "sessionId": "s1", "knownAt": rfc(beforeChange)})
		if !got.includesEvidenceOf(stated) {
			t.Errorf("known before the change, the 3pm sentence is evidence: %v\n%s", got.evidenceIDs(), got.Text)
		}
		got = assemble(t, env, tok, map[string]any{"query": "demo with the Acme team", "budget": 4000, "sessionId": "s1", "asOf": rfc(beforeChange), "knownAt": rfc(beforeChange)})
		if !got.includesEvidenceOf(stated) {
			t.Errorf("as of before the change, the 3pm sentence is evidence: %v\n%s", got.evidenceIDs(), got.Text)
		}
		got = assemble(t, env, tok, map[string]any{"query": "Meridian interviews went ahead", "budget": 4000, "knownAt": rfc(beforeValue)})
		if got.includesEvidenceOf(value) || strings.Contains(got.Text, "14 of the 20") {
			t.Errorf("known before it was said, the value is in the context:\n%s", got.Text)
		}
	})
}

// TestWorkingTurns: the working set replays the last 8 turns by default,
// --working-turns (server.Options.WorkingTurns) changes that, and older
// turns reach the context as evidence only when the query asks for them.
func TestWorkingTurns(t *testing.T) {
	tests := []struct {
		name    string
		opt     int
		replays int
	}{
		{"default", 0, 8},
		{"three", 3, 3},
		{"twenty", 20, 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t, func(o *server.Options) {
				if tc.opt > 0 {
					o.WorkingTurns = tc.opt
				}
			})
			tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
			for i := range 12 {
				recordTurn(t, env, tok, "s1", "USER", fmt.Sprintf("Crate %d: I counted the lanterns in it twice, %d times in all.", i, 10+i))
				env.Clock.Advance(time.Minute)
			}
			got := assemble(t, env, tok, map[string]any{"query": "", "budget": 4000, "sessionId": "s1"})
			recent := section(got, "Recent conversation")
			if n := strings.Count(recent, "\n") + 1; recent == "" || n != tc.replays {
				t.Errorf("%d turns replayed, want %d:\n%s", n, tc.replays, got.Text)
			}
			if first := fmt.Sprintf("Crate %d:", 12-tc.replays); !strings.Contains(recent, first) {
				t.Errorf("the oldest replayed turn should be %q:\n%s", first, recent)
			}
			got = assemble(t, env, tok, map[string]any{"query": "lanterns crate", "budget": 4000, "sessionId": "s1"})
			if n := len(got.evidenceIDs()); n != 12-tc.replays {
				t.Errorf("%d evidence sentences, want the %d turns not replayed:\n%s", n, 12-tc.replays, got.Text)
			}
			if tc.name == "default" {
				golden.Check(t, "evidence.golden", got.Text)
			}
		})
	}
}
