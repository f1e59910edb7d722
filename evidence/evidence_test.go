package evidence_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// world is a real in-memory store, a manual clock, and a write pipeline
// with the evidence Retirer as its reactor, for one caller.
type world struct {
	st     *store.Store
	clock  *temporal.Manual
	pl     *pipeline.Pipeline
	caller authority.Identity
	p      tenancy.Partition
}

func newWorld(t testing.TB) *world {
	t.Helper()
	st := storetest.Open(t)
	clock := temporal.NewManual(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	fs := facts.NewService(st, clock, authority.MustDefaultOrder())
	pl := pipeline.New(pipeline.Options{Store: st, Clock: clock, Facts: fs})
	pl.AddReactor(evidence.Retirer{})
	pl.AddEraser(evidence.Retirer{})
	caller := verified(t, authority.Identity{UserID: "alice", Org: "org-a", Authority: "manager", Kind: authority.KindAgent})
	p, err := tenancy.For(caller)
	if err != nil {
		t.Fatal(err)
	}
	return &world{st: st, clock: clock, pl: pl, caller: caller, p: p}
}

// turn indexes text as turn id of session s1, said and recorded now, and
// moves the clock on a minute.
func (w *world) turn(t testing.TB, id, text string, scope facts.Scope) {
	t.Helper()
	now := w.clock.Now()
	sentences := extract.Analyze(extract.Turn{Text: text, Speaker: "user", At: now}).Sentences
	err := w.st.Update(context.Background(), w.p, func(tx *store.Txn) error {
		return evidence.IndexTurnTx(tx, evidence.Turn{ID: id, SessionID: "s1", Speaker: "USER", At: now, RecordedAt: now, Scope: scope}, sentences)
	})
	if err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(time.Minute)
}

func (w *world) search(t testing.TB, q string, v temporal.View) []evidence.Hit {
	t.Helper()
	var hits []evidence.Hit
	err := w.st.View(context.Background(), w.p, func(tx *store.Txn) error {
		var err error
		hits, err = evidence.SearchTx(tx, q, v, 50)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func ids(hits []evidence.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID()
	}
	return out
}

func texts(hits []evidence.Hit) string {
	var b strings.Builder
	for _, h := range hits {
		b.WriteString(h.Text + "\n")
	}
	return b.String()
}

// TestIndexTurn: which sentences of a turn are evidence.
func TestIndexTurn(t *testing.T) {
	w := newWorld(t)
	w.turn(t, "T-1", "## Interview plan\nI've finished 14 of the 20 interviews. Suppose we hired Dana Whitfield for the interviews. Should we stop the interviews? We are not moving the interviews to March.", facts.ScopeGlobal)
	w.turn(t, "T-2", "Hypothetically, the interviews could end in April.", facts.ScopeHypothetical)
	w.turn(t, "T-3", "Draft: the interviews close on Friday.", facts.ScopeDraft)
	hits := w.search(t, "interviews", temporal.View{})
	got := texts(hits)
	for _, want := range []string{"I've finished 14 of the 20 interviews.", "Should we stop the interviews?", "We are not moving the interviews to March."} {
		if !strings.Contains(got, want) {
			t.Errorf("evidence lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"Interview plan", "Dana Whitfield", "April", "Friday"} {
		if strings.Contains(got, not) {
			t.Errorf("evidence holds %q (heading, hypothetical or draft):\n%s", not, got)
		}
	}
	for _, h := range hits {
		if h.TurnID != "T-1" || h.Speaker != "USER" || h.SessionID != "s1" || h.Score <= 0 || !strings.HasPrefix(h.ID(), "T-1#") {
			t.Errorf("hit %+v", h)
		}
	}
}

// TestSearchRanking: BM25 puts the sentence about the query first, and a
// query sharing no term finds nothing.
func TestSearchRanking(t *testing.T) {
	w := newWorld(t)
	for i := range 30 {
		w.turn(t, fmt.Sprintf("T-f%02d", i), fmt.Sprintf("We reviewed the quarterly roadmap again, item %d. The roadmap review went fine.", i), facts.ScopeGlobal)
	}
	w.turn(t, "T-x", "The Meridian study budget is 42,000 euros. The roadmap is unchanged.", facts.ScopeGlobal)
	tests := []struct {
		query, first string
		n            int
	}{
		{"Meridian budget", "T-x#0", 1},
		{"what is the budget of the meridian study", "T-x#0", 1},
		{"roadmap", "", 50},
		{"zebra", "", 0},
		{"", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			hits := w.search(t, tc.query, temporal.View{})
			if len(hits) != tc.n {
				t.Fatalf("%d hits, want %d: %v", len(hits), tc.n, ids(hits))
			}
			if tc.first != "" && hits[0].ID() != tc.first {
				t.Errorf("first hit %s, want %s", hits[0].ID(), tc.first)
			}
			if !slices.IsSortedFunc(hits, func(a, b evidence.Hit) int {
				switch {
				case a.Score > b.Score:
					return -1
				case a.Score < b.Score:
					return 1
				}
				return 0
			}) {
				t.Errorf("hits not ranked by score: %v", hits)
			}
		})
	}
}

// TestRetireThroughPipeline: a fact extracted from a sentence, then
// superseded through the write pipeline, retires that sentence as of the
// supersession; views of before still see it, bi-temporally.
func TestRetireThroughPipeline(t *testing.T) {
	w := newWorld(t)
	w.turn(t, "T-1", "Lena owns the onboarding deck. The onboarding deck has 40 slides.", facts.ScopeGlobal)
	said := w.clock.Now()
	ctx := authority.NewContext(context.Background(), w.caller)
	zero := 0
	old, err := w.pl.Write(ctx, facts.WriteInput{
		Key: "onboarding_deck.owner", Value: []byte(`"Lena"`), MemoryType: facts.MemoryUser,
		Source: &facts.Source{Type: facts.SourceUser, Turn: "T-1", Sentence: &zero, Rule: "ownership"},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(time.Hour)
	before := w.clock.Now()
	w.clock.Advance(time.Hour)
	// A write that supersedes nothing retires nothing.
	if _, err := w.pl.Write(ctx, facts.WriteInput{Key: "deck.color", Value: []byte(`"blue"`), MemoryType: facts.MemoryUser}); err != nil {
		t.Fatal(err)
	}
	if got := ids(w.search(t, "onboarding deck", temporal.View{})); !slices.Contains(got, "T-1#0") {
		t.Fatalf("sentence retired too early: %v", got)
	}
	newer, err := w.pl.Write(ctx, facts.WriteInput{Key: "onboarding_deck.owner", Value: []byte(`"Jonas"`), MemoryType: facts.MemoryUser, Supersedes: old.ID})
	if err != nil {
		t.Fatal(err)
	}
	at := newer.RecordedAt
	tests := []struct {
		name string
		v    temporal.View
		want []string
	}{
		{"current", temporal.View{}, []string{"T-1#1"}},
		{"known before the supersession", temporal.View{KnownAt: &before}, []string{"T-1#0", "T-1#1"}},
		{"known at the supersession", temporal.View{KnownAt: &at}, []string{"T-1#1"}},
		{"as of before, known now", temporal.View{AsOf: &before}, []string{"T-1#0", "T-1#1"}},
		{"as of the supersession", temporal.View{AsOf: &at}, []string{"T-1#1"}},
		{"known before it was said", temporal.View{KnownAt: ptr(said.Add(-2 * time.Minute))}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ids(w.search(t, "onboarding deck", tc.v))
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestForgetErasesSentence: forgetting a fact extracted from a sentence
// erases the sentence, in every view, retired or not; the other sentences
// of the turn stay.
func TestForgetErasesSentence(t *testing.T) {
	w := newWorld(t)
	w.turn(t, "T-1", "My therapist is Dr. Sauer in Kreuzberg. The sessions are on Mondays.", facts.ScopeGlobal)
	w.turn(t, "T-2", "My dentist is Dr. Sauer too, funnily enough.", facts.ScopeGlobal)
	before := w.clock.Now()
	ctx := authority.NewContext(context.Background(), w.caller)
	write := func(turn, value string, supersedes string) facts.Fact {
		t.Helper()
		zero := 0
		f, err := w.pl.Write(ctx, facts.WriteInput{
			Key: "user.care", Value: []byte(value), MemoryType: facts.MemoryUser, Supersedes: supersedes,
			Source: &facts.Source{Type: facts.SourceUser, Turn: turn, Sentence: &zero},
		})
		if err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(time.Minute)
		return f
	}
	first := write("T-1", `"Dr. Sauer"`, "")
	second := write("T-2", `"Dr. Sauer, dentist"`, first.ID) // retires T-1#0
	for _, id := range []string{first.ID, second.ID} {
		if _, err := w.pl.Forget(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []temporal.View{{}, {KnownAt: &before}, {AsOf: &before}} {
		got := ids(w.search(t, "Dr. Sauer therapist dentist sessions Mondays", v))
		if slices.Contains(got, "T-1#0") || slices.Contains(got, "T-2#0") || !slices.Contains(got, "T-1#1") {
			t.Errorf("view %+v: %v, want only T-1#1", v, got)
		}
	}
	// The statistics no longer count the erased sentences: the one left
	// scores as the only sentence of the corpus would.
	alone := newWorld(t)
	alone.turn(t, "T-1", "The sessions are on Mondays.", facts.ScopeGlobal)
	want := alone.search(t, "sessions Mondays", temporal.View{})
	got := w.search(t, "sessions Mondays", temporal.View{})
	if len(got) != 1 || len(want) != 1 || got[0].Score != want[0].Score {
		t.Errorf("score after erasure %v, want %v", got, want)
	}
}

// TestRetireTurn: a retired turn leaves search whole; retiring twice and
// retiring what was never stored change nothing.
func TestRetireTurn(t *testing.T) {
	w := newWorld(t)
	w.turn(t, "T-1", "The demo is at 3pm Thursday. The demo room is B2.", facts.ScopeGlobal)
	w.turn(t, "T-2", "The demo moved to 5pm Thursday.", facts.ScopeGlobal)
	retire := func(turn string, at time.Time) {
		t.Helper()
		err := w.st.Update(context.Background(), w.p, func(tx *store.Txn) error {
			if err := evidence.RetireTurnTx(tx, turn, "T-2", at); err != nil {
				return err
			}
			return evidence.RetireSentenceTx(tx, "T-404", 0, "T-2", at)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	first := w.clock.Now()
	retire("T-1", first)
	retire("T-1", first.Add(time.Hour)) // the first retirement stands
	if got := ids(w.search(t, "demo Thursday", temporal.View{})); !slices.Equal(got, []string{"T-2#0"}) {
		t.Errorf("current: %v, want only T-2#0", got)
	}
	v := temporal.View{KnownAt: ptr(first.Add(-time.Second))}
	if got := ids(w.search(t, "demo Thursday", v)); len(got) != 3 {
		t.Errorf("known before the retirement: %v, want all three sentences", got)
	}
}

// verified returns id as the server's Verifier would, from a real signed
// token.
func verified(t testing.TB, id authority.Identity) authority.Identity {
	t.Helper()
	v, err := authority.NewVerifier(authority.VerifierConfig{Secret: []byte("s")})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := authority.Mint([]byte("s"), id, time.Hour, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	vid, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	return vid
}

func ptr[T any](v T) *T { return &v }

// TestSearchReadsRewrittenSentence: a sentence stored again under the
// same turn and index is found as last stored, though an earlier search
// read (and decoded) it before.
func TestSearchReadsRewrittenSentence(t *testing.T) {
	w := newWorld(t)
	w.turn(t, "T-1", "The vendor budget is $150,000 for Acme.", facts.ScopeGlobal)
	if got := texts(w.search(t, "vendor budget", temporal.View{})); got != "The vendor budget is $150,000 for Acme.\n" {
		t.Fatalf("first search = %q", got)
	}
	w.turn(t, "T-1", "The vendor budget is $120,000 for Globex.", facts.ScopeGlobal)
	if got := texts(w.search(t, "vendor budget", temporal.View{})); got != "The vendor budget is $120,000 for Globex.\n" {
		t.Errorf("search after the rewrite = %q, want the sentence as stored last", got)
	}
}
