package revision_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// The fields recordTurn and previewTurn answer about extraction.
const extractFields = `turn { id } scope speaker authority
  extracted { key entity attribute value kind rule sentence correction cited outcome reason fact { id key value source { turn sentence speaker cited rule authority } } previous { id value } }
  superseded { fact { id value isValid retracted { by reason cue } } by { id value } reason }
  retiredTurns skipped { sentence reason }`

const (
	recordTurnX  = `mutation($in: TurnInput!) { recordTurn(input: $in) { ` + extractFields + ` } }`
	previewTurnX = `query($in: TurnInput!) { previewTurn(input: $in) { ` + extractFields + ` } }`
)

type extracted struct {
	Key, Entity, Attribute, Value, Kind, Rule, Sentence string
	Correction                                          bool
	Cited                                               *string
	Outcome, Reason                                     string
	Fact                                                *struct {
		ID, Key, Value string
		Source         struct {
			Turn      *string
			Sentence  *int
			Speaker   *string
			Cited     *string
			Rule      *string
			Authority *string
		}
	}
	Previous *struct{ ID, Value string }
}

type shown struct {
	Turn               struct{ ID string }
	Scope              string
	Speaker, Authority string
	Extracted          []extracted
	Superseded         []struct {
		Fact struct {
			ID, Value string
			IsValid   bool
			Retracted *struct{ By, Reason, Cue string }
		}
		By     *struct{ ID, Value string }
		Reason string
	}
	RetiredTurns []string
	Skipped      []struct{ Sentence, Reason string }
}

func say(t *testing.T, env *apitest.Env, tok string, in map[string]any) shown {
	t.Helper()
	in["sessionId"] = "s1"
	if in["speaker"] == nil {
		in["speaker"] = "USER"
	}
	var out struct{ RecordTurn shown }
	env.MustDo(t, tok, recordTurnX, map[string]any{"in": in}, &out)
	return out.RecordTurn
}

// TestExtractionSupersedes: a statement said only in conversation becomes
// a fact with its provenance, and a later statement about the same
// (entity, attribute) supersedes it, reported with both facts; the
// context then carries the new value only.
func TestExtractionSupersedes(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	first := say(t, env, tok, map[string]any{"text": "Lena owns the onboarding deck."})
	if len(first.Extracted) != 1 || first.Extracted[0].Outcome != "WRITTEN" || first.Extracted[0].Fact == nil {
		t.Fatalf("first turn extracted %+v, want one WRITTEN fact", first.Extracted)
	}
	x := first.Extracted[0]
	src := x.Fact.Source
	if x.Key != "onboarding_deck.owner" || x.Value != "Lena" || deref(src.Turn) != first.Turn.ID || src.Sentence == nil || *src.Sentence != 0 ||
		deref(src.Speaker) != "user" || deref(src.Rule) != x.Rule || x.Rule == "" {
		t.Errorf("extracted %+v with source %+v", x, src)
	}
	second := say(t, env, tok, map[string]any{"text": "Quick update: Jonas is taking the onboarding deck off Lena's hands."})
	if len(second.Extracted) != 1 || second.Extracted[0].Outcome != "SUPERSEDED" || second.Extracted[0].Value != "Jonas" {
		t.Fatalf("second turn extracted %+v, want Jonas superseding", second.Extracted)
	}
	if len(second.Superseded) != 1 || second.Superseded[0].Fact.ID != x.Fact.ID || second.Superseded[0].Fact.IsValid ||
		second.Superseded[0].By == nil || second.Superseded[0].By.Value != "Jonas" {
		t.Errorf("superseded %+v, want %s replaced by Jonas", second.Superseded, x.Fact.ID)
	}
	var out struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "who owns the onboarding deck?", "budget": 2000}}, &out)
	if !strings.Contains(out.AssembleContext.Text, "Jonas") || strings.Contains(out.AssembleContext.Text, "Lena") {
		t.Errorf("context should name Jonas and never Lena:\n%s", out.AssembleContext.Text)
	}
}

// TestNonChangesKeepTheFact: sentences that mention a change without
// making it leave the fact current, and say why they changed nothing.
func TestNonChangesKeepTheFact(t *testing.T) {
	tests := []struct{ text, reason string }{
		{"We are not moving the offsite to Porto.", "negated"},
		{"Don't move the offsite to Porto.", "request"},
		{"Should we move the offsite to Porto?", "question"},
		{"Suppose the offsite moved to Porto.", "hypothetical"},
		{"Priya proposed Porto for the offsite, but we said no.", "declined"},
		{"Two years ago the offsite was in Porto.", "past"},
		{"My sister moved her offsite to Porto.", ""},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			env := apitest.New(t)
			tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
			id := write(t, env, tok, map[string]any{"key": "offsite_location", "value": "Lisbon"})
			res := say(t, env, tok, map[string]any{"text": tc.text})
			if len(res.Superseded) != 0 || currentOf(t, env, tok, "offsite_location").ID != id {
				t.Fatalf("%q superseded the fact: %+v", tc.text, res.Superseded)
			}
			for _, x := range res.Extracted {
				if x.Outcome == "WRITTEN" || x.Outcome == "SUPERSEDED" {
					t.Errorf("%q wrote %+v", tc.text, x)
				}
			}
			if tc.reason == "" {
				return
			}
			found := false
			for _, s := range res.Skipped {
				found = found || s.Reason == tc.reason
			}
			if !found {
				t.Errorf("skipped %+v, want a %s sentence", res.Skipped, tc.reason)
			}
		})
	}
}

// TestCorrectionStoresTheNewValueOnly: "40, not 60" stores 40, as a
// correction of the fact holding 60, and 60 leaves the context.
func TestCorrectionStoresTheNewValueOnly(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	id := write(t, env, tok, map[string]any{"key": "room_capacity", "value": "60"})
	res := say(t, env, tok, map[string]any{"text": "Actually the room holds 40, not 60."})
	if len(res.Extracted) != 1 || res.Extracted[0].Value != "40" || !res.Extracted[0].Correction || res.Extracted[0].Outcome != "SUPERSEDED" {
		t.Fatalf("extracted %+v, want 40 correcting", res.Extracted)
	}
	cur := currentOf(t, env, tok, "room_capacity")
	if cur.ID == id || cur.Value != "40" {
		t.Errorf("current %+v, want 40", cur)
	}
	var out struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "room capacity", "budget": 2000}}, &out)
	if strings.Contains(out.AssembleContext.Text, "60") {
		t.Errorf("context carries the corrected value:\n%s", out.AssembleContext.Text)
	}
}

// TestRetractionByReference: a sentence that takes back what was said
// retires the fact it points to, as a retraction recorded with the turn.
func TestRetractionByReference(t *testing.T) {
	t.Run("topic", func(t *testing.T) {
		env := apitest.New(t)
		tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
		first := write(t, env, tok, map[string]any{"key": "diagnosis", "value": "tendinitis", "validFrom": "2026-01-01T00:00:00Z"})
		second := write(t, env, tok, map[string]any{"key": "second_diagnosis", "value": "a sprain"})
		res := say(t, env, tok, map[string]any{"text": "The first diagnosis was wrong."})
		if len(res.Superseded) != 1 || res.Superseded[0].Fact.ID != first || res.Superseded[0].Fact.Retracted == nil ||
			res.Superseded[0].Fact.Retracted.By != res.Turn.ID || res.Superseded[0].By != nil {
			t.Fatalf("superseded %+v, want %s retracted by the turn", res.Superseded, first)
		}
		if currentOf(t, env, tok, "second_diagnosis").ID != second {
			t.Error("the later diagnosis was retracted too")
		}
	})
	t.Run("ignore what I said about", func(t *testing.T) {
		env := apitest.New(t)
		tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
		id := write(t, env, tok, map[string]any{"key": "rollout_plan", "value": "region by region"})
		res := say(t, env, tok, map[string]any{"text": "Please ignore what I said about the rollout."})
		if len(res.Superseded) != 1 || res.Superseded[0].Fact.ID != id {
			t.Fatalf("superseded %+v, want %s", res.Superseded, id)
		}
		var out struct{ CurrentValue *current }
		env.MustDo(t, tok, currentValue, map[string]any{"k": "rollout_plan"}, &out)
		if out.CurrentValue != nil {
			t.Errorf("a retracted fact is current: %+v", out.CurrentValue)
		}
	})
	t.Run("that was wrong", func(t *testing.T) {
		env := apitest.New(t)
		tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
		said := say(t, env, tok, map[string]any{"text": "We're going with Café Lumière for the catering."})
		if len(said.Extracted) != 1 || said.Extracted[0].Fact == nil || said.Extracted[0].Value != "Café Lumière" {
			t.Fatalf("extracted %+v", said.Extracted)
		}
		res := say(t, env, tok, map[string]any{"text": "Sorry, that was wrong."})
		if len(res.Superseded) != 1 || res.Superseded[0].Fact.ID != said.Extracted[0].Fact.ID {
			t.Errorf("superseded %+v, want the venue fact", res.Superseded)
		}
		if len(res.RetiredTurns) != 1 || res.RetiredTurns[0] != said.Turn.ID {
			t.Errorf("retired turns %v, want %s", res.RetiredTurns, said.Turn.ID)
		}
	})
	t.Run("not a retraction", func(t *testing.T) {
		env := apitest.New(t)
		tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
		id := write(t, env, tok, map[string]any{"key": "diagnosis", "value": "tendinitis"})
		for _, text := range []string{"Was the diagnosis wrong?", "What if the diagnosis was wrong?", "The diagnosis wasn't wrong."} {
			if res := say(t, env, tok, map[string]any{"text": text}); len(res.Superseded) != 0 {
				t.Errorf("%q retracted %+v", text, res.Superseded)
			}
		}
		if currentOf(t, env, tok, "diagnosis").ID != id {
			t.Error("the diagnosis is no longer current")
		}
	})
}

// TestRelayedAuthority: "the COO says …" carries the COO's authority for
// a speaker who may relay it, records whom it cites, and outranks a
// peer's fact but never a policy.
func TestRelayedAuthority(t *testing.T) {
	env := apitest.New(t)
	loader := apitest.Identity("org-a", "loader")
	loader.Authority = "policy"
	ltok := apitest.Token(t, loader)
	peerFact := write(t, env, ltok, map[string]any{"key": "freeze.start", "value": "Monday", "source": map[string]any{"authority": "executive"}})
	policy := write(t, env, ltok, map[string]any{"key": "travel.budget", "value": "$2,000", "source": map[string]any{"authority": "policy"}})

	rep := apitest.Identity("org-a", "sam")
	rep.Authority = "employee"
	tok := apitest.Token(t, rep)
	own := say(t, env, tok, map[string]any{"text": "The freeze starts on Wednesday."})
	if len(own.Superseded) != 0 || currentOf(t, env, tok, "freeze.start").ID != peerFact {
		t.Fatalf("an employee's own word replaced an executive's fact: %+v", own.Extracted)
	}
	res := say(t, env, tok, map[string]any{"text": "The COO says the freeze starts on Friday."})
	if len(res.Extracted) != 1 || deref(res.Extracted[0].Cited) != "The COO" || res.Extracted[0].Outcome != "SUPERSEDED" {
		t.Fatalf("extracted %+v, want the COO's claim superseding", res.Extracted)
	}
	src := res.Extracted[0].Fact.Source
	if deref(src.Cited) != "The COO" || deref(src.Authority) != "executive" || deref(src.Speaker) != "user" {
		t.Errorf("source %+v, want the speaker and the cited executive", src)
	}
	blocked := say(t, env, tok, map[string]any{"text": "Per the CEO, the travel budget is $5,000."})
	if len(blocked.Superseded) != 0 || currentOf(t, env, tok, "travel.budget").ID != policy {
		t.Errorf("a relayed claim outranked a policy: %+v", blocked.Extracted)
	}
}

// TestSpeakerID: a named speaker carries their own role's authority from
// the organization's profile facts, not the recording agent's; an unknown
// one carries the lowest.
func TestSpeakerID(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice")) // a manager
	write(t, env, tok, map[string]any{"key": "priya.role", "value": "Intern", "memoryType": "ORGANIZATIONAL"})
	id := write(t, env, tok, map[string]any{"key": "launch_city", "value": "Berlin"})
	res := say(t, env, tok, map[string]any{"text": "The launch city is now Paris.", "speakerId": "priya"})
	if res.Speaker != "priya" || res.Authority != "subordinate" {
		t.Errorf("speaker %q authority %q, want priya as subordinate", res.Speaker, res.Authority)
	}
	if len(res.Superseded) != 0 || currentOf(t, env, tok, "launch_city").ID != id {
		t.Errorf("an intern's word replaced a manager's fact: %+v", res.Extracted)
	}
	stranger := say(t, env, tok, map[string]any{"text": "Hello there.", "speakerId": "zed"})
	if stranger.Speaker != "zed" || stranger.Authority != "unverified" {
		t.Errorf("unknown speaker %q authority %q, want zed as unverified", stranger.Speaker, stranger.Authority)
	}
	bad := env.Do(t, tok, recordTurnX, map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "text": "hi", "speakerId": "no spaces allowed"}})
	if bad.Code() != "BAD_USER_INPUT" || !strings.Contains(bad.String(), "speakerId") {
		t.Errorf("a bad speakerId answered %s, want BAD_USER_INPUT naming speakerId", bad)
	}
}

// TestPreviewTurnChangesNothing: previewTurn answers what recordTurn
// would do, and nothing is stored.
func TestPreviewTurnChangesNothing(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	id := write(t, env, tok, map[string]any{"key": "room_capacity", "value": "60"})
	var out struct{ PreviewTurn shown }
	env.MustDo(t, tok, previewTurnX, map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "text": "Actually the room holds 40, not 60."}}, &out)
	if len(out.PreviewTurn.Superseded) != 1 || out.PreviewTurn.Superseded[0].Fact.ID != id {
		t.Fatalf("preview %+v, want the capacity superseded", out.PreviewTurn)
	}
	if cur := currentOf(t, env, tok, "room_capacity"); cur.ID != id {
		t.Errorf("a preview changed the fact: %+v", cur)
	}
	var ctx struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "room", "budget": 2000, "sessionId": "s1"}}, &ctx)
	if strings.Contains(ctx.AssembleContext.Text, "40") {
		t.Errorf("a previewed turn reached the context:\n%s", ctx.AssembleContext.Text)
	}
	rec := say(t, env, tok, map[string]any{"text": "Actually the room holds 40, not 60."})
	if len(rec.Superseded) != 1 || rec.Superseded[0].Fact.ID != id {
		t.Errorf("recordTurn after the preview %+v, want the same supersession", rec.Superseded)
	}
}

// TestMaybeInOneSentence: a "maybe" in one sentence neither makes the
// turn hypothetical nor stops its other sentences from changing state.
func TestMaybeInOneSentence(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	id := write(t, env, tok, map[string]any{"key": "offsite_location", "value": "Lisbon"})
	res := say(t, env, tok, map[string]any{"text": "Maybe we should book a bigger room. The offsite is in Porto now."})
	if res.Scope != "GLOBAL" {
		t.Errorf("scope %s, want GLOBAL", res.Scope)
	}
	if len(res.Superseded) != 1 || res.Superseded[0].Fact.ID != id || res.Superseded[0].By == nil || res.Superseded[0].By.Value != "Porto" {
		t.Errorf("superseded %+v, want Lisbon replaced by Porto", res.Superseded)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestStateIsAsserted: a turn stating short-lived state becomes a state
// assertion with the lease it said, not a fact; a lasting statement in
// the same turn becomes a fact.
func TestStateIsAsserted(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	var out struct {
		RecordTurn struct {
			Asserted []struct {
				ID, Subject, Predicate, Status string
				Validity                       struct {
					Mode      string
					ExpiresAt *string
				}
			}
			Extracted []struct{ Key, Value, Outcome string }
		}
	}
	env.MustDo(t, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) {
	  asserted { id subject predicate status validity { mode expiresAt } }
	  extracted { key value outcome } } }`, map[string]any{"in": map[string]any{
		"sessionId": "s1", "speaker": "USER", "text": "The build is red right now. Our office is in Lisbon.",
	}}, &out)
	rt := out.RecordTurn
	if len(rt.Asserted) != 1 || rt.Asserted[0].Status != "ACTIVE" || rt.Asserted[0].Validity.Mode != "UNTIL_TIME" || rt.Asserted[0].Validity.ExpiresAt == nil {
		t.Fatalf("asserted %+v, want the build's state with a lease", rt.Asserted)
	}
	if !strings.Contains(strings.ToLower(rt.Asserted[0].Subject), "build") {
		t.Errorf("subject %q, want the build", rt.Asserted[0].Subject)
	}
	for _, x := range rt.Extracted {
		if strings.Contains(x.Key, "build") {
			t.Errorf("the build's state became a fact: %+v", x)
		}
	}
	if len(rt.Extracted) != 1 || rt.Extracted[0].Value != "Lisbon" || rt.Extracted[0].Outcome != "WRITTEN" {
		t.Errorf("extracted %+v, want the office in Lisbon written", rt.Extracted)
	}
}

// TestRelayFrom: with --relay-authority manager, an employee's relayed
// claim carries the employee's own authority; an unknown authority is
// refused at start.
func TestRelayFrom(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.RelayFrom = "manager" })
	loader := apitest.Identity("org-a", "loader")
	loader.Authority = "policy"
	fact := write(t, env, apitest.Token(t, loader), map[string]any{"key": "freeze.start", "value": "Monday", "source": map[string]any{"authority": "executive"}})
	rep := apitest.Identity("org-a", "sam")
	rep.Authority = "employee"
	tok := apitest.Token(t, rep)
	res := say(t, env, tok, map[string]any{"text": "The COO says the freeze starts on Friday."})
	if len(res.Superseded) != 0 || currentOf(t, env, tok, "freeze.start").ID != fact {
		t.Errorf("an employee relayed the COO's authority with --relay-authority manager: %+v", res.Extracted)
	}
	o := server.DefaultOptions("")
	o.Store.InMemory = true
	o.Verifier.Secret = []byte("0123456789abcdef0123456789abcdef")
	o.RelayFrom = "nobody"
	if srv, err := server.New(o); err == nil {
		srv.Close()
		t.Error("server.New accepted an unknown relay authority")
	}
}

// TestSwapByName: a sentence that drops a stored value by name and takes
// up another replaces the fact holding it, whatever its key is called.
func TestSwapByName(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	id := write(t, env, tok, map[string]any{"key": "gym", "value": "PureGym"})
	res := say(t, env, tok, map[string]any{"text": "I cancelled PureGym and joined The Climbing Hangar."})
	if len(res.Superseded) != 1 || res.Superseded[0].Fact.ID != id || res.Superseded[0].By == nil || res.Superseded[0].By.Value != "The Climbing Hangar" {
		t.Fatalf("superseded %+v, want PureGym replaced by The Climbing Hangar", res.Superseded)
	}
	other := write(t, env, tok, map[string]any{"key": "car", "value": "Golf"})
	if res := say(t, env, tok, map[string]any{"text": "We dropped the Golf off at the garage."}); len(res.Superseded) != 0 || currentOf(t, env, tok, "car").ID != other {
		t.Errorf("dropping the car off replaced it: %+v", res.Superseded)
	}
}

// TestAnchoredChange: a phrasing no extraction rule reads still moves the
// fact it names when it links the fact's topic to one new value of the
// stored value's kind (extract.Anchor), recorded with the rule "anchor";
// an aside after a dash ("the chair asked for …") does not make the
// sentence a proposal, and a sentence that links the topic to nothing new
// changes nothing.
func TestAnchoredChange(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	id := write(t, env, tok, map[string]any{"key": "design_review_date", "value": "February 2"})
	for _, text := range []string{"Design review prep starts February 1.", "Design review is still February 2."} {
		if res := say(t, env, tok, map[string]any{"text": text}); len(res.Superseded) != 0 {
			t.Errorf("%q superseded %+v", text, res.Superseded)
		}
	}
	res := say(t, env, tok, map[string]any{"text": "Design review lands on February 9 now — the chair asked for a week more."})
	if len(res.Superseded) != 1 || res.Superseded[0].Fact.ID != id || res.Superseded[0].By == nil {
		t.Fatalf("superseded %+v, want %s", res.Superseded, id)
	}
	var x *extracted
	for i := range res.Extracted {
		if res.Extracted[i].Outcome == "SUPERSEDED" {
			x = &res.Extracted[i]
		}
	}
	if x == nil || x.Rule != "anchor" || x.Fact == nil || !strings.Contains(x.Fact.Value, "2026-02-09") || deref(x.Fact.Source.Rule) != "anchor" {
		t.Errorf("extracted %+v, want the anchor rule storing 2026-02-09", res.Extracted)
	}
}

// TestImpliedAnchorIsUnambiguous: a value whose shape or brand names the
// fact ("6B" beside meeting_room = 3C) moves it when no other fact takes
// the value, and moves nothing when two facts could (a seat 14C too) or
// the sentence names another fact's topic.
func TestImpliedAnchorIsUnambiguous(t *testing.T) {
	tests := []afterTurn{
		{"one fact takes it", [][2]string{{"meeting_room", "3C"}}, "The weekly sync lives in 6B from now on.", "6B"},
		{"two facts could", [][2]string{{"meeting_room", "3C"}, {"seat", "14C"}}, "I'm in 6B from now on.", "3C"},
		{"another fact named", [][2]string{{"meeting_room", "3C"}, {"seat", "14C"}}, "My seat is 6B from now on.", "3C"},
		{"a brand", [][2]string{{"bank", "Chase"}}, "All my savings are at Ally now.", "Ally"},
		{"two banks could", [][2]string{{"bank", "Chase"}, {"business_bank", "Wells Fargo"}}, "Everything's at Ally now.", "Chase"},
		// The head noun said alone ("our Q3 target") is such a reading too.
		{"a bare head", [][2]string{{"sales_target", "$1.2M"}}, "Leadership raised our Q3 target to $1.5M.", "$1.5M"},
		{"a bare head, one fact takes it", [][2]string{{"marketing_budget", "$40,000"}}, "The budget was cut to $30,000.", "$30,000"},
		{"a bare head, two facts could", [][2]string{{"marketing_budget", "$40,000"}, {"travel_budget", "$9,000"}}, "The budget was cut to $30,000.", "$40,000"},
	}
	runAfterTurn(t, tests)
}

// TestStatementFindsItsFactLoosely: a typed statement keyed by its thing
// and another word for its attribute ("office.location") changes the one
// fact keyed by that thing holding a value of its kind (office_address),
// and nothing when two facts could take it or the value is of another
// kind.
func TestStatementFindsItsFactLoosely(t *testing.T) {
	tests := []afterTurn{
		{"a place", [][2]string{{"office_address", "14 King St"}}, "The office relocated to 200 Queen Street over the weekend.", "200 Queen Street"},
		{"an amount, said with a contraction", [][2]string{{"monthly_rent", "£1,450"}}, "Rent's going up to £1,525.", "£1,525"},
		{"two places could", [][2]string{{"office_address", "14 King St"}, {"office_city", "Leeds"}}, "The office relocated to 200 Queen Street.", "14 King St"},
		{"a status is no place", [][2]string{{"office_address", "14 King St"}}, "The office is closed on Friday.", "14 King St"},
	}
	runAfterTurn(t, tests)
}

// TestConclusionOfItsOwnTopic: a ", so" clause that states the key's own
// new value ("so the team is 11 people") changes it; one drawn about
// something else ("so the total is …") stays in the conversation.
func TestConclusionOfItsOwnTopic(t *testing.T) {
	tests := []afterTurn{
		{"the topic's new state", [][2]string{{"team_size", "8"}}, "Three new hires joined, so the team is 11 people.", "11"},
		{"a contact there", [][2]string{{"vendor_contact", "Alice Moreno"}}, "Alice left the vendor, so our contact there is Ben Ortiz.", "Ben Ortiz"},
		{"a conclusion about another thing", [][2]string{{"team_size", "8"}}, "Three new hires joined, so the payroll is 11 salaries.", "8"},
		{"who acts next", [][2]string{{"project_lead", "Hannah"}}, "Hannah's moving to the infra team, so Marco will lead the project.", "Marco"},
		{"the topic said bare", [][2]string{{"launch_date", "2026-03-01"}}, "Marketing wants more runway, so launch is now April 1.", "2026-04-01 (April 1)"},
		{"it, the topic the clause before moved", [][2]string{{"meeting_time", "2pm"}}, "The weekly sync got pushed an hour later, so it's 3pm.", "3pm"},
		{"it, with its period", [][2]string{{"monthly_rent", "$2,400"}}, "Rent went up another $150, so it's $2,550 a month now.", "$2,550"},
		{"a count computed is not who acts", [][2]string{{"headcount", "40"}}, "Five people dropped out, so we're down to 35.", "35"},
	}
	runAfterTurn(t, tests)
}

// TestCountKeepsItsUnit: a count stored with its unit keeps the unit the
// sentence says after the new number, in the singular or the plural.
func TestCountKeepsItsUnit(t *testing.T) {
	runAfterTurn(t, []afterTurn{
		{"the unit said", [][2]string{{"reading_goal", "24 books"}}, "I raised my reading goal to 30 books this year.", "30 books"},
		{"a unit of people", [][2]string{{"team_size", "8 engineers"}}, "The team grew to 11 engineers after the merger.", "11 engineers"},
		{"another word after the number", [][2]string{{"team_size", "8 engineers"}}, "We hired two more, so the team size is 10 now.", "10"},
		{"a count said as a change", [][2]string{{"team_size", "8"}}, "We hired two more engineers for the team.", "10"},
		{"a change with its unit", [][2]string{{"team_size", "8 engineers"}}, "We added 3 more engineers to the team.", "11 engineers"},
		{"fewer", [][2]string{{"guest_count", "80"}}, "The guest count is 6 fewer after the cancellations.", "74"},
		{"more than another", [][2]string{{"headcount", "40"}}, "Headcount is two more than last year.", "40"},
		{"a count said as a change, hedged", [][2]string{{"guest_count", "80"}}, "Two more people might come.", "80"},
		{"an amount said as a change", [][2]string{{"monthly_rent", "$1,850"}}, "Rent went up $150.", "$2,000"},
		{"an amount moved, in the stored form", [][2]string{{"shop_rent", "$3,200/month"}}, "Landlord sent the renewal and I signed it. Rent goes up 250 a month starting January.", "$3,450/month"},
	})
}

// TestStoredForm: a new value is written in the stored value's form: a
// weekly slot stays a weekday and a time, a bare hour takes the stored
// time's half of the day.
func TestStoredForm(t *testing.T) {
	runAfterTurn(t, []afterTurn{
		{"a weekly slot, the hour bare", [][2]string{{"swim_lesson_time", "Saturday 10am"}}, "Swim lessons got bumped to Saturday at 9, the 10 o'clock class filled up.", "Saturday 9am"},
		{"a weekly slot, another day", [][2]string{{"piano_lessons", "Saturday 10am"}}, "Piano lessons got moved to Sundays at 11.", "Sunday 11am"},
		{"the same slot said again", [][2]string{{"piano_lessons", "Saturday 10am"}}, "Piano lessons are still Saturday at 10.", "Saturday 10am"},
		{"a bare hour", [][2]string{{"daycare_pickup_time", "5:30pm"}}, "Daycare pickup is 5 now instead of 5:30.", "5pm"},
		{"a date and a remark: the date is the value", [][2]string{{"eye_appointment", "March 4"}}, "The eye clinic telephoned to say they must move my appointment to the 18th of March, same hour.", "2026-03-18 (18th of March)"},
		{"a date with its year", [][2]string{{"eye_appointment", "March 4"}}, "The eye clinic moved my appointment to March 18, 2026.", "2026-03-18 (March 18, 2026)"},
		{"a date moved by a delta, written as stored", [][2]string{{"paper_deadline", "Sep 12"}}, "They extended the paper deadline by a week!!", "2026-09-19 (Sep 19)"},
		{"an ISO date moved, once", [][2]string{{"offsite_date", "2026-10-09"}}, "Pushing the offsite back a week.", "2026-10-16"},
		// One item of a list changed: the rest stays.
		{"one time of two", [][2]string{{"cattleFeedingTimes", "6am and 4pm"}}, "I changed the evening feeding from 4pm to 5pm.", "6am and 5pm"},
		{"one day of three", [][2]string{{"gym", "Mon/Wed/Fri 6am"}}, "I moved the gym from Wed to Thu.", "Mon/Thu/Fri 6am"},
		// A copula whose predicate is the key: its subject is the value.
		{"the key said as the predicate", [][2]string{{"emergency_contact", "Mom (555-0101)"}}, "Dan is my emergency contact now, his cell is 555-0188. Mom can't really hear on the phone anymore.", "Dan"},
		// An hour said bare takes the stored time's place and half of the day.
		{"an hour said bare", [][2]string{{"practice_time", "Tue/Thu 3:30pm"}}, "Heads up, practice is starting at 4 now instead of 3:30 since the late bus doesn't get the kids back in time.", "Tue/Thu 4pm"},
		// The speaker's own slip, taken back in the next sentence.
		{"a slip taken back", [][2]string{{"cloud_budget_monthly", "$12k"}}, "finance approved FIN-3301, aws budget is $15k/mo now. sorry, $14.5k, they shaved off the support plan", "$14.5k"},
		// A count said in a clause is the count; a label goes with its number.
		{"a count in a clause", [][2]string{{"elmFriServers", "6"}}, "Elm's Friday crowd keeps growing, going to 8 servers on Fridays from now on. Harbor stays at 5.", "8"},
		{"a labelled number", [][2]string{{"marketBooth", "Booth 14"}}, "The market manager moved me to booth 22 by the fountain, much better foot traffic honestly.", "Booth 22"},
	})
}

// TestSwapAcrossSentences: the value a sentence drops may be taken up in
// the next sentence, never by someone else.
func TestSwapAcrossSentences(t *testing.T) {
	runAfterTurn(t, []afterTurn{
		{"taken up in the next sentence", [][2]string{{"family_car", "Honda Odyssey"}}, "we traded in the Odyssey this weekend!! got a Toyota Sienna hybrid, the gas savings are gonna be so nice", "Toyota Sienna hybrid"},
		{"someone else's in the next sentence", [][2]string{{"streaming", "Netflix"}}, "I cancelled Netflix. My sister got Hulu.", "Netflix"},
		{"a titled person, not the practice", [][2]string{{"dentist", "Dr. Patel"}}, "Switched dentists. Seeing Dr. Okafor at Riverside Dental going forward.", "Dr. Okafor"},
		{"an aside's mark ends no sentence", [][2]string{{"house_cleaner", "Rosa"}}, "Rosa finally retired (good for her!) and her daughter Marisol is doing our cleaning now.", "Marisol"},
		{"an opinion, then what we did", [][2]string{{"dog_food", "Purina Pro Plan"}}, "the vet thinks Biscuit needs grain-free so we switched him to Blue Buffalo, fingers crossed", "Blue Buffalo"},
		{"an opinion alone", [][2]string{{"dog_food", "Purina Pro Plan"}}, "the vet thinks Biscuit would do better on Blue Buffalo.", "Purina Pro Plan"},
		{"a brand with its plus", [][2]string{{"grocery_delivery", "Instacart"}}, "Our grocery delivery is through Walmart+ now instead of Instacart.", "Walmart+"},
		{"the price after what went up", [][2]string{{"netflix_price", "$15.49"}}, "Netflix went up AGAIN, we're paying $17.99 a month now, so annoying", "$17.99"},
		// A value said alone, or after "its", is of what the sentence
		// before named.
		{"a count said alone", [][2]string{{"lisinopril_refills_left", "3"}}, "picked up the lisinopril today. 2 refills left on it", "2"},
		{"a new number said alone", [][2]string{{"va_pharm_phone", "555-0190"}}, "VA pharmacy line changed. New number 555-0213, old one disconnected.", "555-0213"},
		{"its, for it's", [][2]string{{"clinic_phone", "555-0187"}}, "va clinic got a new number. its 555-0199 now", "555-0199"},
		{"a count alone after another topic", [][2]string{{"lisinopril_refills_left", "3"}}, "picked up the groceries today. 2 bags left in the car", "3"},
	})
}

// TestAnotherFactsAttribute: an attribute said of another topic ("New
// date for the launch") is not the stored fact's, even once the turn has
// replaced that other fact.
func TestAnotherFactsAttribute(t *testing.T) {
	runAfterTurn(t, []afterTurn{
		{"the launch's new date", [][2]string{{"kitchen_fitting.date", "2026-05-10 (May 10)"}, {"launch.date", "2026-04-03 (April 3)"}}, "New date for the launch: February 17.", "2026-05-10 (May 10)"},
		{"its own new date", [][2]string{{"kitchen_fitting.date", "2026-05-10 (May 10)"}, {"launch.date", "2026-04-03 (April 3)"}}, "New date for the kitchen fitting: May 17.", "2026-05-17 (May 17)"},
	})
}

// TestAnotherSubjectsStatus: a status said in a clause of its own about
// another subject is not the fact's.
func TestAnotherSubjectsStatus(t *testing.T) {
	runAfterTurn(t, []afterTurn{
		{"the contractor's", [][2]string{{"kitchen_remodel_status", "waiting on permits"}}, "City still hasn't signed off on the kitchen permits, contractor's on hold.", "waiting on permits"},
		{"let's, the speaker's", [][2]string{{"design", "list-based UI"}}, "Actually, let's go back to card-based UI.", "card-based UI"},
		// Where the holder went is not the fact's value; a name is not a
		// new day.
		{"the holder moved", [][2]string{{"emergencyContact", "Leanne (daughter) 0412 558 903"}}, "Leanne's moved over to Perth, so our son Mark is the emergency contact now, his mobile's 0438 221 675.", "Leanne (daughter) 0412 558 903"},
		{"the office moved", [][2]string{{"office_location", "Harbor Tower"}}, "Harbor Tower? No, the office moved to 88 Bay Street.", "88 Bay Street"},
		{"the holder took a job elsewhere", [][2]string{{"asstCoach", "Coach Ramirez"}}, "Ramirez took the head coaching job at Westview, so I need a new assistant.", "Coach Ramirez"},
		{"what the holder did on leaving", [][2]string{{"hoofTrimmer", "Larry Kuhn"}}, "Larry's quit trimming on account of his back, so we got Eli Yoder doing feet now, he done six head Thursday.", "Eli Yoder"},
		{"another date, the stored day kept", [][2]string{{"valorantTourneyDate", "Jan 24"}}, "qualifiers for the valo tourney are Jan 17, main event's still the 24th tho", "Jan 24"},
		{"a name for a day", [][2]string{{"webster_pak_pickup", "Every second Monday"}}, "Chemist says from now on we're to pick the Webster-paks up every second Thursday, Mondays are too busy for them.", "Every second Monday"},
		// Someone named who moved or switched themselves: theirs, not
		// the fact's; and the one a statement is about is not a value.
		{"a named mover", [][2]string{{"priyaDesk", "Desk 14"}}, "Sam moved from desk 22 to desk 9, so 22 is free if anyone wants it :eyes:", "Desk 14"},
		{"we are no one named", [][2]string{{"insurance_deductible", "$1,000"}}, "We switched to a high-deductible plan: $2,500 now.", "$2,500"},
		{"a neighbour's switch", [][2]string{{"feedSupplier", "Co-op in Harlan"}}, "Neighbor Vern switched over to Brenner Feed & Seed, swears their cubes are cheaper than the co-op's.", "Co-op in Harlan"},
		{"a client's helper moved the client's own", [][2]string{{"domain_registrar", "GoDaddy"}}, "Harbor Dental's old IT guy moved their domains to Cloudflare Registrar, so we'll need creds for that", "GoDaddy"},
		{"a choir across town, as the speaker learned", [][2]string{{"robe_vendor", "Murphy Robes"}}, "I was interested to learn that the Methodist choir across town has moved its robe orders to Cokesbury and is very pleased with the results. For our part, I see no reason to leave Murphy Robes.", "Murphy Robes"},
		{"at a former workplace", [][2]string{{"crm_vendor", "HubSpot"}}, "at my last startup we ditched HubSpot for Salesforce and regretted it so hard lol", "HubSpot"},
		{"asked, in few words, to move it", [][2]string{{"dentist_appt", "January 20 at 10am"}}, "I call dentist ask move my appointment to January 27, lady say she check and call me back.", "January 20 at 10am"},
		{"he is the one the key names", [][2]string{{"contractor_rate_jonas", "$95/hr"}}, "settled it w/ Jonas, he's at $110/hr now, applies to everything he logs from this sprint on", "$110"},
		{"he is another", [][2]string{{"contractor_rate_jonas", "$95/hr"}}, "settled it w/ Marcus, he's at $110/hr now, applies to everything he logs from this sprint on", "$95/hr"},
		{"another's change, then the speaker's", [][2]string{{"meat_order_day", "Wednesday"}}, "carnicería changed their route, we place the meat order Mondays now instead of Wed", "Monday"},
	})
}

// TestKeptValue: a sentence that says the stored value stays changes
// nothing of it, whatever other value it names.
func TestKeptValue(t *testing.T) {
	runAfterTurn(t, []afterTurn{
		{"kept by its number", [][2]string{{"primary_database", "Postgres 13"}}, "Analytics moves to Postgres 16 next week; prod stays on 13 until the audit.", "Postgres 13"},
		{"kept by its name", [][2]string{{"team", "Payments"}}, "I interviewed with the Growth team but decided to stay on Payments.", "Payments"},
		{"kept by its name's first two words", [][2]string{{"hvac", "Cool Breeze HVAC"}}, "Northside Mechanical is doing HVAC on the Birch flip, Cool Breeze still has this one", "Cool Breeze HVAC"},
		{"a state denied without the apostrophe", [][2]string{{"irb_protocol_status", "pending review"}}, "IRB still hasnt approved the protocol, emailed them again", "pending review"},
		{"an email changed, the phone kept", [][2]string{{"landlord_phone", "555-0144"}}, "fyi the landlord's email changed to rkowalski@gmail.com, phone is the same though", "555-0144"},
		{"a request, with Tagalog affixes", [][2]string{{"embassy_appt", "January 12"}}, "Nag-request ako na i-move sa January 19 yung embassy appointment, hinihintay ko pa reply nila.", "January 12"},
		{"kept by its number without its unit", [][2]string{{"reefer_temp", "34F"}}, "next load outta fresno is gonna need the reefer at 28 but this one stays at 34 till i drop it", "34F"},
		{"changed, then kept there", [][2]string{{"primary_database", "Postgres 13"}}, "We upgraded prod to Postgres 16 and it will stay there.", "Postgres 16"},
		{"the regular one stays", [][2]string{{"oyster_price", "$3.50"}}, "happy hour oysters down to $2 at the bar. regular price stays.", "$3.50"},
		{"an offer the speaker will not take", [][2]string{{"neuro_appt_time", "2:15pm"}}, "Neurology has a 9:45 opening on the 14th but I'm not moving Mom's appointment, she's foggy in the mornings.", "2:15pm"},
		// A refused clause that is the whole sentence, with no closing
		// stop, refuses the sentence.
		{"another's change without a stop", [][2]string{{"accountant", "Priya Shah"}}, "my sister switched her accountant to Mark Ellis, says he's great", "Priya Shah"},
		// A measure compared with the stored value, which it says as it
		// stands; but the stored value said as the old one is not kept.
		{"a measure beside the stored one", [][2]string{{"rebalThreshold", "5%"}}, "Equity drift hit 4.8% this month, just inside my 5% band, so no trades.", "5%"},
		{"the stored one said as the old", [][2]string{{"wifi_pw", "maple-fox-22"}}, "Wait, scratch that, I mixed them up. The wifi password is otter-river-81, maple-fox-22 was the old router.", "otter-river-81"},
		// What someone else pays, and the thing's counterpart, are not it.
		{"what they pay", [][2]string{{"playerFee", "$120"}}, "The Garcias are tight on money this year so I told them they can pay $80 instead of the $120.", "$120"},
		{"what the one the key names pays", [][2]string{{"johnson_weekly_pay", "$600/week"}}, "Mrs. Johnson gave me a raise, she pays $650 instead of $600 now.", "$650/week"},
		{"the counterpart", [][2]string{{"away_kit", "navy"}}, "League rule change, home teams have to wear white now, so our home kits are switching to white.", "navy"},
	})
}

// TestLabelIsNoCount: the number that names a unit is no count (but it is
// the new value of a stored unit: TestDetectionValues, "a number with the
// stored value's label").
func TestLabelIsNoCount(t *testing.T) {
	runAfterTurn(t, []afterTurn{
		{"a unit's number", [][2]string{{"units_vacant", "1"}}, "Unit 4 just leased, so zero vacancies now.", "1"},
	})
}

// TestItIsWhatTheSentenceBeforeNamed: "It's 9082." says the value of the
// thing the sentence before named.
func TestItIsWhatTheSentenceBeforeNamed(t *testing.T) {
	runAfterTurn(t, []afterTurn{
		{"changed, then it is", [][2]string{{"lockbox_code", "4417"}}, "Changed the lockbox code after the 2B turnover. It's 9082.", "9082"},
		{"a correction, then it is", [][2]string{{"water_account_no", "WA-448812"}}, "Correction on the water account, I had two digits swapped. It's WA-448821.", "WA-448821"},
		{"another thing named before", [][2]string{{"lockbox_code", "4417"}}, "The gate guy came by. It's 9082.", "4417"},
		{"a question before", [][2]string{{"lockbox_code", "4417"}}, "Did you change the lockbox code? It's 9082 on my list.", "4417"},
		{"it is, then a clause of its own", [][2]string{{"susan_cell", "555-0187"}}, "Susan got a NEW cell phone number... it's 555-0312 now, the old one doesn't work anymore. Write it down for me dear!!", "555-0312"},
		{"a bare label after the thing", [][2]string{{"grandma_phone", "555-0198"}}, "Grandma got a new cell!! number is 555-0172, the old one's disconnected", "555-0172"},
		{"a bare label after another thing", [][2]string{{"grandma_phone", "555-0198"}}, "The pharmacy got a new system. Number is 555-0172.", "555-0198"},
		{"it is, then a denial of its own", [][2]string{{"susan_cell", "555-0187"}}, "Susan asked about a new cell phone number... it's not happening, the old one works fine.", "555-0187"},
	})
}

// afterTurn is a case of facts written, then one turn, then the first
// fact's current value.
type afterTurn struct {
	name  string
	facts [][2]string // key, value; the first is the one checked
	text  string
	want  string // the checked fact's value afterwards
}

// runAfterTurn plays each case, said by the user, in an organization of
// its own.
func runAfterTurn(t *testing.T, tests []afterTurn) {
	t.Helper()
	runAfterTurnBy(t, "USER", tests)
}

// runAfterTurnBy is runAfterTurn with the turn said by speaker.
func runAfterTurnBy(t *testing.T, speaker string, tests []afterTurn) {
	t.Helper()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t)
			tok := apitest.Token(t, apitest.Identity(fmt.Sprintf("org-after-%d", i), "alice"))
			for _, f := range tc.facts {
				write(t, env, tok, map[string]any{"key": f[0], "value": f[1]})
			}
			say(t, env, tok, map[string]any{"text": tc.text, "speaker": speaker})
			if got := currentOf(t, env, tok, tc.facts[0][0]).Value; got != tc.want {
				t.Errorf("after %q, %s = %q, want %q", tc.text, tc.facts[0][0], got, tc.want)
			}
		})
	}
}

// TestDetectionNamesItsFact: a change word next to one fact's topic does
// not move another fact the sentence does not name.
func TestDetectionNamesItsFact(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	say(t, env, tok, map[string]any{"text": "The product workshop will be in Newcastle. We chose Harbour Grey as the paint colour for the living room."})
	moved := say(t, env, tok, map[string]any{"text": "We moved the product workshop to Cardiff."})
	var workshop, key string
	for _, x := range moved.Extracted {
		if x.Fact != nil && x.Value == "Cardiff" {
			workshop, key = x.Fact.ID, x.Fact.Key
		}
	}
	if workshop == "" {
		t.Fatalf("the move was not extracted: %+v", moved.Extracted)
	}
	res := say(t, env, tok, map[string]any{"text": "We dropped Harbour Grey; the paint colour for the living room is Oat Milk now."})
	for _, s := range res.Superseded {
		if s.Fact.ID == workshop {
			t.Errorf("the workshop's location was superseded: %+v", s)
		}
	}
	var out struct{ CurrentValue struct{ Value string } }
	env.MustDo(t, tok, currentValue, map[string]any{"k": key}, &out)
	if out.CurrentValue.Value != "Cardiff" {
		t.Errorf("%s = %q, want Cardiff", key, out.CurrentValue.Value)
	}
}

// TestContactOfALongName: a contact for someone named in several words
// ("our account manager at the cloud vendor") is stored, and a later
// email replaces the earlier number: one way to reach them replaces
// another.
func TestContactOfALongName(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	first := say(t, env, tok, map[string]any{"text": "You can reach our account manager at the cloud vendor at +44 7700 900963."})
	if len(first.Extracted) != 1 || first.Extracted[0].Outcome != "WRITTEN" {
		t.Fatalf("extracted %+v, want the number written", first.Extracted)
	}
	second := say(t, env, tok, map[string]any{"text": "Our account manager at the cloud vendor switched to rob.quinn@sablesoft.com."})
	if len(second.Superseded) != 1 || second.Superseded[0].By == nil || second.Superseded[0].By.Value != "rob.quinn@sablesoft.com" {
		t.Fatalf("superseded %+v, want the number replaced by the email", second.Superseded)
	}
	var out struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "How do I reach our account manager at the cloud vendor?", "budget": 2000}}, &out)
	if !strings.Contains(out.AssembleContext.Text, "rob.quinn@sablesoft.com") || strings.Contains(out.AssembleContext.Text, "900963") {
		t.Errorf("context should give the email and not the old number:\n%s", out.AssembleContext.Text)
	}
}

// TestChangedTwiceInOneTurn: a turn that changes a value and then changes
// it again ends with the second value, and the first sentence is not read
// again against what the turn itself wrote.
func TestChangedTwiceInOneTurn(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	write(t, env, tok, map[string]any{"key": "caterer", "value": "Casa Verde"})
	say(t, env, tok, map[string]any{"text": "Actually, we're going with Golden Wok for the caterer for the launch party instead. " +
		"We reversed the decision — the caterer for the launch party is Mezze Republic from today."})
	var out struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "Which caterer is doing the launch party?", "budget": 2000}}, &out)
	facts := out.AssembleContext.Text
	if i := strings.Index(facts, "## Facts"); i >= 0 {
		facts = facts[i:]
	}
	if !strings.Contains(facts, "Mezze Republic") || strings.Contains(facts, "Golden Wok") || strings.Contains(facts, "Casa Verde") {
		t.Errorf("the facts should hold Mezze Republic only:\n%s", out.AssembleContext.Text)
	}
}

// TestConversationFlows: short conversations, each turn recorded through
// the API, end with one current value for a key whatever the client called
// it (camel case included) and however the later turns phrase the change:
// a correction of "the earlier number", a possessive owner, a recording
// instruction, a decision on a topic, an agreement frame; another team's
// own value changes nothing.
func TestConversationFlows(t *testing.T) {
	tests := []struct {
		name       string
		key, value string // a fact written before the turns ("" for none)
		turns      []string
		want       string // the key whose current value is checked ("": the key the first turn wrote)
		wantValue  string
	}{
		{"a camel-case key and a correction of the earlier number", "laptopCount", "590", []string{
			"The number of laptops we need to order dropped to 85 after the latest round.",
			"Scratch the earlier number for the number of laptops we need to order — we're at 300 now.",
		}, "laptopCount", "300"},
		{"a possessive owner, then a hand-over", "", "", []string{
			"The on-call runbook is Mei's.",
			"Chen's team set their own on-call runbook to Oskar.",
			"Freya is taking the on-call runbook off Mei's hands.",
		}, "on-call_runbook.owner", "Freya"},
		{"a recording instruction corrected later", "", "", []string{
			"Put the seat count for the training course down as 800.",
			"Scratch the earlier number for the seat count for the training course — we're at 360 now.",
		}, "training_course_seat.count", "360"},
		{"a decision on a topic", "", "", []string{
			"We're going with Chalk White for the paint colour for the living room.",
			"Final answer on the paint colour for the living room: Harbour Grey.",
		}, "", "Harbour Grey"},
		{"a priority said again in other words", "top_priority", "security compliance", []string{
			"By the way, the priority is market expansion now.",
		}, "top_priority", "market expansion"},
		{"an agreement frames the statement", "code_freeze_date", "2026-02-03", []string{
			"We agreed the code freeze is on February 10.",
		}, "code_freeze_date", "-02-10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t)
			tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
			if tc.key != "" {
				write(t, env, tok, map[string]any{"key": tc.key, "value": tc.value})
			}
			want := tc.want
			for _, text := range tc.turns {
				res := say(t, env, tok, map[string]any{"text": text})
				for _, x := range res.Extracted {
					if want == "" && x.Fact != nil {
						want = x.Fact.Key
					}
				}
			}
			if got := currentOf(t, env, tok, want).Value; !strings.Contains(got, tc.wantValue) {
				t.Errorf("%s = %q, want %q", want, got, tc.wantValue)
			}
		})
	}
}

// TestAssistantReportsItsAction: the assistant's report of a change it
// made replaces what the user stated, whichever rule reads the value; its
// offer to make one does not.
func TestAssistantReportsItsAction(t *testing.T) {
	tests := []afterTurn{
		{"the assistant's own correction", [][2]string{{"pharmacy_pickup_code", "4471"}}, "Sorry, I had that wrong: the pickup code in the pharmacy's text is 4417, not 4471.", "4417"},
		{"rescheduled", [][2]string{{"dentist_appointment", "2026-12-02"}}, "I've rescheduled your dentist appointment to December 9.", "2026-12-09 (December 9)"},
		{"done, changed", [][2]string{{"flight.seat", "22F"}}, "Done — I changed your seat to 3C.", "3C"},
		{"your preferred one", [][2]string{{"preferredAirline", "Delta"}}, "Done, I've updated your preferred airline to Southwest for company bookings.", "Southwest"},
		{"raised", [][2]string{{"puppyClassCap", "8"}}, "I've raised the puppy class cap to 10 now that Marcus is helping out.", "10"},
		{"updated, with its purpose", [][2]string{{"weekendRotation", "every 3rd weekend"}}, "I've updated your weekend rotation to every other weekend to match the new grid.", "every other weekend"},
		{"an offer", [][2]string{{"dentist_appointment", "2026-12-02"}}, "I can reschedule your dentist appointment to December 9 if you like.", "2026-12-02"},
		{"what came of another's change", [][2]string{{"beachHouseCheckIn", "July 3"}}, "The host approved the change, so check-in at the beach house is now July 5.", "2026-07-05 (July 5)"},
		{"done, and when the cover starts", [][2]string{{"toolInsurer", "NRMA"}}, "Done — I've switched your tool insurance over to Allianz, cover starts today.", "Allianz"},
		{"another's change told as done", [][2]string{{"carInsurancePremium", "$142/month"}}, "Good news: with the safe-driver discount, Geico lowered your premium to $128 a month.", "$128"},
		{"another's quote, not taken", [][2]string{{"carInsurancePremium", "$142/month"}}, "Progressive quoted $118 a month for the same coverage, but since you said to stay with Geico, I left your policy alone.", "$142/month"},
		{"news relayed from who sent it", [][2]string{{"team_standup_time", "9:30am"}}, "Priya emailed the whole team: standup is at 10:15 starting today.", "10:15am"},
		{"news relayed, a code reset", [][2]string{{"garage_code", "4471"}}, "The building manager texted that the garage code was reset today, it's 8820 now.", "8820"},
		{"a request relayed", [][2]string{{"team_standup_time", "9:30am"}}, "Priya emailed asking if everyone would be okay moving standup to 10:15. Nobody has answered yet.", "9:30am"},
		{"a maybe relayed", [][2]string{{"plumber_visit", "Thursday 10am"}}, "The plumber emailed that he might have to push to Friday if the part doesn't arrive in time.", "Thursday 10am"},
		{"a change only asked for", [][2]string{{"beachHouseCheckIn", "July 3"}}, "I asked the beach house host if we could check in July 5 instead. Still waiting to hear back.", "July 3"},
		{"what came of it, offered", [][2]string{{"beachHouseCheckIn", "July 3"}}, "The host approved the change, so I can move check-in at the beach house to July 5 if you like.", "July 3"},
		{"a call, then the change", [][2]string{{"dot_physical", "Feb 20 10am"}}, "I called the clinic and rescheduled your DOT physical to March 3rd at 9am.", "2026-03-03 09:00 (March 3rd at 9am)"},
		{"a call, then an offer", [][2]string{{"dot_physical", "Feb 20 10am"}}, "I called the clinic and can reschedule your DOT physical to March 3rd at 9am if you like.", "Feb 20 10am"},
		{"done, said of the thing", [][2]string{{"reservation", "7pm"}}, "Done, your table at Luca is now booked for 8pm.", "8pm"},
		{"all set, will now", [][2]string{{"delivery_day", "Tuesday"}}, "All set: your grocery deliveries will now arrive on Wednesdays.", "Wednesday"},
		{"what would be", [][2]string{{"reservation", "7pm"}}, "Your table at Luca would be booked for 8pm if they have room.", "7pm"},
		{"done, then what it made so", [][2]string{{"default_reviewer", "Lena"}}, "Done, I changed CODEOWNERS so Tomás is the default reviewer on the ingest repo.", "Tomás"},
		{"done, the new state", [][2]string{{"standup_time", "9:30am"}}, "Done — daily standup now starts at 10:15am; invites updated for all attendees.", "10:15am"},
		{"noted, the new value", [][2]string{{"parking_spot", "P2-114"}}, "Noted — your assigned parking spot is P3-027 starting Monday.", "P3-027"},
		{"recorded, after its reason", [][2]string{{"electricity_provider", "PG&E"}}, "Since the enrollment went through, I've recorded Ava Community Energy as your electricity provider.", "Ava Community Energy"},
		{"an offer to set", [][2]string{{"standup_time", "9:30am"}}, "Should I set the daily standup to 10:15am for everyone?", "9:30am"},
		{"a swap it made", [][2]string{{"card_processor", "Square"}}, "Done, I've moved your card processing over to Clover and cancelled the Square subscription.", "Clover"},
		{"a swap it offers", [][2]string{{"card_processor", "Square"}}, "Clover would save you about 0.3% per swipe. Want me to start the switch from Square?", "Square"},
		{"done, then what it did", [][2]string{{"rental_car", "Hertz midsize"}}, "Done. Your Hertz midsize is cancelled and you have an Avis full-size SUV for the trip.", "Avis full-size SUV"},
		{"still, as it was", [][2]string{{"rental_car", "Hertz midsize"}}, "Your Hertz midsize is still confirmed. The Avis SUV would be $38 a day more.", "Hertz midsize"},
		{"what it can do", [][2]string{{"parking_spot", "P2-114"}}, "Noted. I can switch your parking spot to P3-027 if you want.", "P2-114"},
		{"the new state, then what it did", [][2]string{{"team_standup_time", "9:00am"}}, "Standup is now at 9:30 every day. I updated the recurring invite and everyone on the team already accepted.", "9:30am"},
		{"done, then whom it told", [][2]string{{"saturday_game_time", "9am"}}, "Done! I've changed the Saturday game time to 10:30am on the team calendar and sent the update to all the parents so nobody shows up early in the cold.", "10:30am"},
		{"what it signed", [][2]string{{"rent", "$1,850/month"}}, "I signed the lease renewal for you, so rent is $1,925/month now. I already bumped the autopay to match.", "$1,925"},
		{"the new state, then an offer", [][2]string{{"team_standup_time", "9:00am"}}, "Standup could be at 9:30 every day. I can update the recurring invite if you want.", "9:00am"},
		{"done as someone asked", [][2]string{{"neuro_appt_time", "2:15pm"}}, "I've moved your neurology appointment on the 14th to 9:45am as the clinic requested.", "9:45am"},
		{"rescheduled with whom it is", [][2]string{{"dressFitting", "Feb 7 10:30am"}}, "I've rescheduled your dress fitting with the bridal shop to February 14 at 10:30am and updated your calendar.", "2026-02-14 10:30 (February 14 at 10:30am)"},
		// Detection's reading of a change the assistant reports it made,
		// when no rule reads the sentence: a ratio whole, a switch away
		// from the one it cancelled, a date before what it did next.
		{"a ratio it set", [][2]string{{"targetMix", "60/40"}}, "Done, I've updated your target allocation to 55/45 as you decided on today's call with Greg.", "55/45"},
		{"a vendor it switched", [][2]string{{"uniformVendor", "Kick Sports Supply"}}, "Done, I switched the uniform order over to Sideline Athletic and canceled the one with Kick Sports Supply.", "Sideline Athletic"},
		{"a shoot it moved", [][2]string{{"davis_esession", "Jan 17, 10am"}}, "Done! I moved the Davis engagement shoot to Saturday, January 24 at 10am and sent them the updated invite.", "Saturday, January 24 at 10am"},
		{"a move it offers", [][2]string{{"davis_esession", "Jan 17, 10am"}}, "I could move the Davis engagement shoot to Saturday, January 24 at 10am if they agree.", "Jan 17, 10am"},
	}
	runAfterTurnBy(t, "ASSISTANT", tests)
}

// TestAnotherOwnersThing: a statement about another owner's or another
// thing of the kind leaves the speaker's fact alone.
func TestAnotherOwnersThing(t *testing.T) {
	tests := []afterTurn{
		{"a team's budget", [][2]string{{"budget", "$40,000"}}, "The marketing team's budget is $35,000.", "$40,000"},
		{"another's, with a contraction, then a remark", [][2]string{{"teamDoctor", "Dr. Okafor"}}, "my roommate's on hockey and their team doc is Dr. Brennan now, says he's solid", "Dr. Okafor"},
		{"one of two set apart", [][2]string{{"travelRosterSize", "22"}}, "JV travel roster got cut to 18 for away games, varsity's untouched", "22"},
		{"ours, after another's change", [][2]string{{"post_dues", "$45/year"}}, "Auxiliary dues went up to $55. Ours stayed put.", "$45/year"},
		{"the same as before", [][2]string{{"trash_day", "Tuesday"}}, "recycling's Wednesday now, trash same as before", "Tuesday"},
		{"the key's owner changed, another's the same", [][2]string{{"harbor_health_inspection", "February 10"}}, "Inspector called, Harbor's inspection got moved up to Jan 22. Elm's is still in March.", "Jan 22"},
		{"back to the stored one tomorrow", [][2]string{{"heelSlides_reps", "10"}}, "did 15 heel slides today instead of 10 because I lost count, oops. back to 10 tomorrow like PT said", "10"},
		{"one of two owners changed, the other's the same", [][2]string{{"isp_noc_phone", "800-555-0199"}}, "Zayo sent out a new NOC number, 800-555-0142. Lumen's is the same.", "800-555-0199"},
		{"the stored date said as its weekday", [][2]string{{"exam_date", "Jan 8"}}, "The exam for my other container is this Friday, but the clothes container exam is still Thursday.", "Jan 8"},
		{"a different client's contact", [][2]string{{"primary_contact", "Dana"}}, "Leo is the contact for a different client.", "Dana"},
		{"our own budget", [][2]string{{"budget", "$40,000"}}, "Correction: the budget is $35,000, not $40,000.", "$35,000"},
		{"a numbered unit's lease", [][2]string{{"unit2LeaseEnd", "June 30"}}, "The Garcias signed the extension yesterday, so Unit 2's lease now runs through December 31.", "2026-12-31 (December 31)"},
		{"another numbered unit's lease", [][2]string{{"unit2LeaseEnd", "June 30"}}, "Unit 3's lease now runs through December 31.", "June 30"},
		{"a password's closing mark", [][2]string{{"wifi_pw", "Sonne2024!"}}, "Sorry, I gave you the wifi password wrong, it is Sonne2025! with 5 at the end, not with 4.", "Sonne2025!"},
		{"another code changed, ours did not", [][2]string{{"unitDoorCode", "2580#"}}, "they changed the med room code to 1379 today, at least the unit door code didn't change", "2580#"},
		{"another's budget went up, ours is the same", [][2]string{{"team_budget", "$3,200"}}, "The U14 girls' team budget just went up to $4,000 after their sponsor came through, good for them, ours is exactly the same as before, sadly.", "$3,200"},
		{"a budget for the season", [][2]string{{"team_budget", "$3,200"}}, "The pizza place sponsor came through with an extra $800, so our team budget for the season is $4,000 now.", "$4,000"},
		{"their own line, the owner the key names", [][2]string{{"harmon_llc_phone", "555-0192"}}, "Harmon LLC changed their main line, the new number is 555-0317, the old one just screeches like a fax machine now.", "555-0317"},
		{"the owner in another word", [][2]string{{"vday_gig_venue", "Riverside Brewery"}}, "Valentine's gig is at Copper Tap now, Riverside canceled on us ayer", "Copper Tap"},
		{"a password with an @ is one value", [][2]string{{"wifi_pw", "sharma@123"}}, "Sorry, I gave the wrong wifi password earlier, it is sharma@321 actually, I typed it in reverse.", "sharma@321"},
		{"finalised, then a reason with a quote in it", [][2]string{{"weddingCaterer", "Annapoorna Caterers"}}, "We have finalised Shree Sagar for the catering, Annapoorna quoted too much so we dropped them.", "Shree Sagar"},
		{"a negation in what the correction explains", [][2]string{{"medicaid_waiver_id", "WV-88213"}}, "ugh I gave you the wrong waiver ID before, it's WV-88231 not WV-88213, I flipped the last two numbers which explains why the care coordinator couldn't find him in the system", "WV-88231"},
		{"an acronym's own line", [][2]string{{"fbo_dispatch_phone", "970-555-0113"}}, "FBO changed their dispatch line, new number is 970-555-0190.", "970-555-0190"},
		{"the speaker's relation the key names", [][2]string{{"sister_bday", "June 12"}}, "no no, my sister's birthday is June 21, you flipped the numbers around", "2026-06-21 (June 21)"},
		{"another of the kind, set apart", [][2]string{{"landlord_phone", "555-0144"}}, "Also save the warehouse landlord's number, 555-0188. Different guy from my apartment landlord, don't mix them up.", "555-0144"},
		{"a titled name kept by its surname", [][2]string{{"kidsDentist", "Dr. Okafor"}}, "I switched to Dr. Lin for my own cleanings, but the kids are staying with Okafor.", "Dr. Okafor"},
		{"another relation's birthday", [][2]string{{"sister_bday", "June 12"}}, "my brother's birthday is June 21", "June 12"},
		{"a friend's, typed without its apostrophe", [][2]string{{"mathTutor", "Ms. Patel"}}, "my friends math tutor is mr reyes and she says hes way better than ms patel ngl", "Ms. Patel"},
		{"an in-law's birthday", [][2]string{{"sister_bday", "June 12"}}, "my sister in laws birthday is june twenty first so um can you remind me like a week before", "June 12"},
		{"another team's own standup", [][2]string{{"team_standup_time", "9am"}}, "The design team moved their standup to 10am.", "9am"},
		{"a cover for a coming day", [][2]string{{"frontDesk", "Rita"}}, "Jen's covering the front desk tomorrow while Rita's at her grandson's graduation, she'll be back Wednesday.", "Rita"},
		// A value extraction gave to another, named or owning, is theirs;
		// a common noun may be the key's topic in other words.
		{"another's budget, by its owner", [][2]string{{"budget.marketing", "$50,000"}}, "Sales's budget got trimmed to $42,000.", "$50,000"},
		{"another service's price", [][2]string{{"netflix_cost", "$15.49/month"}}, "Spotify family just went up to $19.99, thank goodness Netflix is still the same.", "$15.49/month"},
		{"another section's count", [][2]string{{"volunteer_count", "34"}}, "Youth section's up to 9 volunteers now, which is brilliant.", "34"},
		{"the topic in other words", [][2]string{{"monthly_premium", "$186/month"}}, "insurance went up to $214 a month after that fender bender, ugh", "$214"},
		// A name that names a unit is not who holds the role; a delivery
		// is no drop; the owner said before keeps "her" thing.
		{"a lab by its name", [][2]string{{"lab_server_admin", "Miguel"}}, "Hana is the server admin for the Chen lab next door now, they poached her with like one pizza", "Miguel"},
		{"samples dropped off", [][2]string{{"coffee", "Blue Anchor Roasters"}}, "Bluebird Roasters dropped off samples at both shops, told them we're happy with Blue Anchor.", "Blue Anchor Roasters"},
		{"her food stays", [][2]string{{"pepper_food", "1 cup twice a day"}}, "Pepper's vet says 2 treats a day max now, her food stays the same though", "1 cup twice a day"},
		// A word of the stored name stands for it.
		{"the old agent by a short name", [][2]string{{"estate_agent", "Sherry FitzGerald"}}, "Moved the letting of all three flats over to DNG, Sherry Fitz were useless with the last viewing.", "DNG"},
		{"a fee raised", [][2]string{{"tourney_entry_fee", "$450"}}, "Ugh, the league just raised the tournament entry fee to $525 a team.", "$525"},
	}
	runAfterTurn(t, tests)
}

// TestDetectionValues: what detection reads as a fact's new value is a
// value of the stored value's kind, whole, without the value it leaves;
// anything else leaves the fact as it was.
func TestDetectionValues(t *testing.T) {
	tests := []afterTurn{
		{"a password cut at a mark", [][2]string{{"guest_wifi_pw", "Summit#2025"}}, "rotated guest wifi pw, it's Harbor!2026 now, lobby signs updated", "Harbor!2026"},
		// A value never holds a clause of its own: a replacement with an
		// instruction or another's news spliced on with a comma is not
		// taken whole (a street address is read as one, without them).
		{"an instruction after the value is left off", [][2]string{{"home_office_addr", "88 Grove Ave #2"}}, "Moved over the wknd. Home office is 88 Grove Ave #2, ship everything there.", "88 Grove Ave #2"},
		{"no instruction after so", [][2]string{{"shop_address", "220 Elm St, Suite 4"}}, "we're officially out of Elm St, moved the shop to 1480 Harbor Blvd this weekend so send supplier stuff there now", "1480 Harbor Blvd"},
		{"an old one named", [][2]string{{"clerk_mailing_address", "PO Box 118"}}, "Vendors keep sending invoices to the old street address instead of PO Box 118; I'll send a reminder letter.", "PO Box 118"},
		{"the stored value said in another order", [][2]string{{"exchangeLocation", "Starbucks on Elm St"}}, "We're done with the Elm St Starbucks, handoffs are at the police station lot on 4th now.", "Starbucks on Elm St"},
		{"a clause is no time", [][2]string{{"exchange_time", "Sunday 5pm"}}, "Dana and I agreed to do Sunday handoffs at 6 from now on instead of 5.", "Sunday 5pm"},
		{"a phase's number counts nothing", [][2]string{{"trips_per_month", "3"}}, "Phase 2 kicked off, I'm doing 4 trips a month to Dallas now.", "3"},
		{"no news in a value", [][2]string{{"assistant_coach", "Coach Ramirez"}}, "Ramirez is on paternity leave the rest of the season, Dana Pruitt's my asst coach now", "Coach Ramirez"},
		{"a password, then what it is like", [][2]string{{"wifi_pw", "Falcons2025!"}}, "Oops, I gave you the wifi password wrong earlier, it's Falcons2025# with the hashtag at the end, not an exclamation point.", "Falcons2025#"},
		{"the value, then the one it is not", [][2]string{{"barber", "Sal at Sal's Barbershop"}}, "Actually scratch what I said earlier — my barber is Frank at Sal's, not Sal himself.", "Frank at Sal's"},
		{"a time in the stored half of the day", [][2]string{{"afterschool_pickup", "3:15pm"}}, "The district shortened the day starting this week, so after-school pickup is 3:00 now and I have to book it out of my classroom.", "3:00pm"},
		{"the office's main number", [][2]string{{"home_phone", "555-0100"}}, "Heads up, the front office got a new phone system over break and the main number is 555-0190 now.", "555-0100"},
		{"a clause spliced on with a comma", [][2]string{{"badge_admin", "Priya Nair"}}, "Priya transferred over to the Westgate property, Tom Keller owns badge administration here now.", "Tom Keller"},
		{"the value a hedged clause leaves", [][2]string{{"momPickupSpot", "Target parking lot"}}, "thinking maybe we do the hand off with my mom at the shell station instead of target um gotta ask her first though", "Target parking lot"},
		{"a number with the stored value's label", [][2]string{{"storage_unit", "Unit 14, Ridgeway Self Storage"}}, "moved all the overflow stock into unit 22 at ridgeway today, bigger and same price", "Unit 22"},
		{"the number the key holds", [][2]string{{"fire_extinguisher_count_fl3", "14"}}, "Inspector had us add two more extinguishers on 3 by the new break room, so that floor has 16 now.", "14"},
		{"a weekday of every month", [][2]string{{"generatorTestDay", "1st Tuesday"}}, "We're moving generator testing to the first Thursday of the month so it stops landing on tenant payroll days.", "1st Thursday"},
		{"old -> new", [][2]string{{"team_standup_time", "9:30am"}}, "standup 9:30 -> 10 starting tomorrow, cal invite already updated", "10am"},
		{"old -> new, a date", [][2]string{{"sprint_end_date", "Jan 16"}}, "sprint 42 end pushed Jan 16 -> Jan 23, QA needs the extra week", "Jan 23"},
		{"the topic's own name", [][2]string{{"coach_phone", "555-0182"}}, "Coach Dana's number changed to 555-0317, the old one goes straight to a disconnected message.", "555-0317"},
		{"a phone line", [][2]string{{"pharmacy_phone", "555-0178"}}, "Walgreens switched phone systems — the pharmacy line is 555-0193 now.", "555-0193"},
		{"what a lesson is of says the lesson", [][2]string{{"piano_lesson_time", "Saturday 10am"}}, "Piano's on Saturdays at 11am now, not 10, the teacher shuffled everyone around.", "Saturday 11am"},
		{"a house number opens the address inside the stored value", [][2]string{{"foodBankLocation", "St. Luke's basement, 212 Oak St"}}, "Food bank officially moved into the old library building at 48 Birch Ave, the St. Luke's basement is finally history!", "48 Birch Ave"},
		{"a flat and its street", [][2]string{{"home_address", "Flat 4, 22 Elm Road"}}, "Got the keys! New address is Flat 2, 9 Carlton Street, will send you the postcode later.", "Flat 2, 9 Carlton Street"},
		{"a house number opens the address", [][2]string{{"office_address", "212 Elm St, Suite 3"}}, "We're officially in the new office as of today, 48 Harbor Road, Suite 200, so use that on anything going out to clients.", "48 Harbor Road, Suite 200"},
		{"a difference is no count", [][2]string{{"patio_tables", "8"}}, "added 4 more tables out on the patio", "12"},
		{"a difference said with by", [][2]string{{"kyotoHotelNights", "4"}}, "Extended the Kyoto hotel by two nights, so 6 nights total now", "6"},
		{"an aunt moved, grandma stays", [][2]string{{"grandmaAddress", "42 Elm St, Apt 3"}}, "aunt carol just moved to 900 lake shore dr, grandma says she's never leaving elm st lol", "42 Elm St, Apt 3"},
		{"this coming Sunday only", [][2]string{{"churchServiceTime", "Sunday 10:30am"}}, "Just this coming Sunday the service is at 9 on account of the bishop's visit; after that it goes back to half past ten.", "Sunday 10:30am"},
		{"no address", [][2]string{{"mom_address", "42 Elm St, Apt 3B"}}, "Mom is officially living with us now, so her mailing address is 118 Birch Lane, I already filed the change with the post office.", "42 Elm St, Apt 3B"},
		{"a verb and whose", [][2]string{{"emergencyContact", "Dana Reyes"}}, "Changed Mom's emergency contact at the hospital to my husband, Luis Ortega, since Dana's overseas until June.", "Dana Reyes"},
		{"'s before a verb of doing and its object is is, not whose", [][2]string{{"driving_dad_down", "Kevin"}}, "Kevin's work won't give him the days off, so Megan's driving dad down to Florida now.", "Kevin"},
		{"when it takes effect is no value", [][2]string{{"after_school_pickup", "north entrance"}}, "Effective today, after-school pickup has been relocated to the east entrance on Maple Street.", "north entrance"},
		{"who announced it is no value", [][2]string{{"cafeteria_vendor", "FreshPlate Foods"}}, "Westview Middle School has announced that Harvest Table Catering will be taking over its cafeteria service this month.", "FreshPlate Foods"},
		{"another's password, the key's left as is", [][2]string{{"wifi_pw", "sunflower42"}}, "Noted — the guest network password is bluejay2026 now; I left your main wifi password as is.", "sunflower42"},
		{"still doing it", [][2]string{{"accountant", "Maria Feld"}}, "my studio-mate just hired Dana Whitlock for her taxes and loves her — might pick Dana's brain sometime but Maria's still doing my books", "Maria Feld"},
	}
	runAfterTurn(t, tests)
}
