package revision_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

const (
	writeFact  = `mutation($in: FactInput!) { writeFact(input: $in) { id isValid stale { reason replacedBy at } } }`
	recordTurn = `mutation($in: TurnInput!) { recordTurn(input: $in) {
  turn { id text speaker at } scope
  detections { kind cue superseded { id kind } key previous replacement confidence blocked }
  constraint { type cue text } } }`
	currentValue = `query($k: String!) { currentValue(key: $k) { id value supersession { detection cue reason } } }`
	history      = `query($k: String!) { factHistory(key: $k) { id value isValid stale { reason replacedBy } } }`
	assembleQ    = `query($in: ContextInput!) { assembleContext(input: $in) { text excluded { id kind reason } } }`
	assertMut    = `mutation($in: StateAssertionInput!) { assertState(input: $in) { id status } }`
	assertionQ   = `query($id: ID!) { stateAssertion(id: $id) { id status } }`
)

type detection struct {
	Kind        string
	Cue         string
	Superseded  []struct{ ID, Kind string }
	Key         *string
	Previous    *string
	Replacement string
	Confidence  float64
	Blocked     bool
}

type turnResult struct {
	Turn struct {
		ID, Text, Speaker string
		At                time.Time
	}
	Scope      string
	Detections []detection
	Constraint *struct{ Type, Cue, Text string }
}

func (r turnResult) superseded(id string) bool {
	for _, d := range r.Detections {
		for _, s := range d.Superseded {
			if s.ID == id {
				return true
			}
		}
	}
	return false
}

func write(t *testing.T, env *apitest.Env, tok string, in map[string]any) string {
	t.Helper()
	var out struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, writeFact, map[string]any{"in": in}, &out)
	return out.WriteFact.ID
}

func turn(t *testing.T, env *apitest.Env, tok, session, text string) turnResult {
	t.Helper()
	var out struct{ RecordTurn turnResult }
	env.MustDo(t, tok, recordTurn, map[string]any{"in": map[string]any{"sessionId": session, "speaker": "USER", "text": text}}, &out)
	return out.RecordTurn
}

type current struct {
	ID           string
	Value        string
	Supersession *struct{ Detection, Cue, Reason string }
}

func currentOf(t *testing.T, env *apitest.Env, tok, key string) current {
	t.Helper()
	var out struct{ CurrentValue *current }
	env.MustDo(t, tok, currentValue, map[string]any{"k": key}, &out)
	if out.CurrentValue == nil {
		t.Fatalf("no current value for %q", key)
	}
	return *out.CurrentValue
}

// TestDetectionKinds records one fact, then one turn, and checks what the
// turn superseded: each kind with a sentence that triggers it, and
// sentences that must not (negation, quotes of the old value, questions,
// hypotheticals, drafts).
func TestDetectionKinds(t *testing.T) {
	tests := []struct {
		name, key, value, auth, turn string
		wantKind                     string // "" means nothing superseded
		wantValue                    string // a word of the new current value
		wantScope                    string
	}{
		{name: "explicit correction", key: "kickoff_date", value: "March 3", turn: "Correction: the kickoff moved to March 10.", wantKind: "EXPLICIT", wantValue: "March 10", wantScope: "GLOBAL"},
		{name: "explicit instead", key: "hotel", value: "Hilton Garden", turn: "Actually we are staying at the Marriott Downtown instead of the Hilton Garden.", wantKind: "EXPLICIT", wantValue: "Marriott", wantScope: "GLOBAL"},
		{name: "implicit amount", key: "marketing_budget", value: "$40,000", turn: "The marketing budget is $55,000.", wantKind: "IMPLICIT", wantValue: "$55,000", wantScope: "GLOBAL"},
		{name: "authority cue", key: "office_days", value: "2 days in office", auth: "manager", turn: "Per the CEO, the office days are 4 days in office from now on.", wantKind: "AUTHORITY", wantValue: "4 days", wantScope: "GLOBAL"},
		{name: "temporal update", key: "license_price", value: "$30 per seat", turn: "As of today the license price is $36 per seat.", wantKind: "TEMPORAL", wantValue: "$36", wantScope: "GLOBAL"},
		{name: "negation", key: "launch_date", value: "June 5", turn: "The launch date has not changed from June 5.", wantScope: "GLOBAL"},
		{name: "question", key: "launch_city", value: "Berlin", turn: "Did the launch city change to Paris?", wantScope: "GLOBAL"},
		{name: "recap quoting the old value", key: "vendor", value: "Northwind", turn: "As I mentioned, the original decision was Northwind.", wantScope: "GLOBAL"},
		{name: "hypothetical", key: "seat_price", value: "$20", turn: "What if the seat price were $25 instead?", wantScope: "HYPOTHETICAL"},
		{name: "draft", key: "renewal_terms", value: "12 months", turn: "Draft: renewal terms of 24 months, pending legal.", wantScope: "DRAFT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t)
			id := apitest.Identity("org-a", "alice")
			tok := apitest.Token(t, id)
			in := map[string]any{"key": tc.key, "value": tc.value}
			if tc.auth != "" {
				in["source"] = map[string]any{"authority": tc.auth}
			}
			old := write(t, env, tok, in)
			res := turn(t, env, tok, "s1", tc.turn)
			if res.Scope != tc.wantScope {
				t.Errorf("scope %q, want %q", res.Scope, tc.wantScope)
			}
			cur := currentOf(t, env, tok, tc.key)
			if tc.wantKind == "" {
				if res.superseded(old) || cur.ID != old {
					t.Fatalf("turn %q superseded %s: %+v; current %+v", tc.turn, old, res.Detections, cur)
				}
				return
			}
			if !res.superseded(old) {
				t.Fatalf("turn %q did not supersede the fact: %+v", tc.turn, res.Detections)
			}
			if res.Detections[0].Kind != tc.wantKind {
				t.Errorf("kind %s, want %s", res.Detections[0].Kind, tc.wantKind)
			}
			if cur.ID == old || !strings.Contains(cur.Value, tc.wantValue) {
				t.Errorf("current %+v, want a successor containing %q", cur, tc.wantValue)
			}
			if cur.Supersession == nil || cur.Supersession.Detection != tc.wantKind || cur.Supersession.Cue == "" || !strings.Contains(cur.Supersession.Reason, res.Turn.ID) {
				t.Errorf("edge %+v, want detection %s with its cue and the turn", cur.Supersession, tc.wantKind)
			}
		})
	}
}

// TestLowerAuthorityBlocked: a statement citing a lower authority than the
// fact's, or spoken by a caller whose own authority ranks below it (a role
// named in the text does not raise it), supersedes nothing and is reported
// blocked.
func TestLowerAuthorityBlocked(t *testing.T) {
	tests := []struct{ name, factAuth, text string }{
		{"plain correction over an executive fact", "executive", "Actually, the travel policy is now business class."},
		// A relayed claim carries the cited role's authority, capped below
		// policy: it never outranks a policy fact.
		{"manager citing the CEO over a policy fact", "policy", "Per the CEO, the travel policy is now business class."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t)
			boss := apitest.Identity("org-a", "boss")
			boss.Authority = tc.factAuth
			old := write(t, env, apitest.Token(t, boss), map[string]any{"key": "travel_policy", "value": "economy class only", "source": map[string]any{"authority": tc.factAuth}})
			tok := apitest.Token(t, apitest.Identity("org-a", "alice")) // a manager
			res := turn(t, env, tok, "s1", tc.text)
			if res.superseded(old) || currentOf(t, env, tok, "travel_policy").ID != old {
				t.Fatalf("a lower authority superseded the fact: %+v", res.Detections)
			}
			if len(res.Detections) == 0 || !res.Detections[0].Blocked {
				t.Errorf("detections %+v, want one blocked", res.Detections)
			}
		})
	}
}

// TestTurnsStatingTheOldValue: turns that stated a replaced value are not
// replayed, whether the value was replaced by a turn or by an explicit
// write; the turn carrying the new value is.
func TestTurnsStatingTheOldValue(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	write(t, env, tok, map[string]any{"key": "demo_time", "value": "3pm Thursday"})
	stated := turn(t, env, tok, "s1", "The demo is at 3pm Thursday with the Acme team.")
	changed := turn(t, env, tok, "s1", "Actually the demo moved to 5pm Thursday.")
	if !changed.superseded(stated.Turn.ID) {
		t.Errorf("the turn stating 3pm was not superseded: %+v", changed.Detections)
	}
	// An explicit write retires a value a turn stated, too.
	budget := write(t, env, tok, map[string]any{"key": "travel_budget", "value": "$8,000"})
	said := turn(t, env, tok, "s1", "Keep the offsite within $8,000 please.")
	write(t, env, tok, map[string]any{"key": "travel_budget", "value": "$6,500", "supersedes": budget})

	var out struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "demo time and travel budget", "budget": 2000, "sessionId": "s1"}}, &out)
	text := out.AssembleContext.Text
	for _, gone := range []string{"3pm", "$8,000"} {
		if strings.Contains(text, gone) {
			t.Errorf("context replays %q:\n%s", gone, text)
		}
	}
	for _, kept := range []string{"5pm", "$6,500"} {
		if !strings.Contains(text, kept) {
			t.Errorf("context lacks %q:\n%s", kept, text)
		}
	}
	if strings.Contains(text, said.Turn.Text) || strings.Contains(text, stated.Turn.Text) {
		t.Errorf("context replays a turn stating a replaced value:\n%s", text)
	}
}

// TestStaleWrite: a write restating a value the conversation replaced is
// stored invalid, with the reason, and never becomes current; a write of a
// new value, or one dated after the change, is not stale; once the
// conversation restores the value, it is current again.
func TestStaleWrite(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	turn(t, env, tok, "s1", "We picked TechStart for the contract.")
	res := turn(t, env, tok, "s1", "Correction: we are going with GlobalTech for the contract instead of TechStart.")
	if len(res.Detections) == 0 {
		t.Fatalf("no detection: %+v", res)
	}
	var w struct {
		WriteFact struct {
			ID      string
			IsValid bool
			Stale   *struct{ Reason, ReplacedBy string }
		}
	}
	env.MustDo(t, tok, writeFact, map[string]any{"in": map[string]any{"key": "selected_vendor", "value": "TechStart"}}, &w)
	if w.WriteFact.IsValid || w.WriteFact.Stale == nil || !strings.Contains(w.WriteFact.Stale.ReplacedBy, "GlobalTech") {
		t.Fatalf("stale write %+v, want invalid with stale.replacedBy GlobalTech", w.WriteFact)
	}
	var cv struct{ CurrentValue *current }
	env.MustDo(t, tok, currentValue, map[string]any{"k": "selected_vendor"}, &cv)
	if cv.CurrentValue != nil {
		t.Errorf("a stale write became current: %+v", cv.CurrentValue)
	}
	var h struct {
		FactHistory []struct {
			ID    string
			Stale *struct{ Reason string }
		}
	}
	env.MustDo(t, tok, history, map[string]any{"k": "selected_vendor"}, &h)
	if len(h.FactHistory) != 1 || h.FactHistory[0].Stale == nil || h.FactHistory[0].Stale.Reason == "" {
		t.Errorf("history %+v, want the stale fact with its reason", h.FactHistory)
	}
	var a struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "which vendor for the contract", "budget": 2000, "sessionId": "s1"}}, &a)
	if strings.Contains(a.AssembleContext.Text, "selected_vendor: TechStart") || strings.Contains(a.AssembleContext.Text, "picked TechStart") {
		t.Errorf("context resurrects TechStart:\n%s", a.AssembleContext.Text)
	}

	fresh := []map[string]any{
		{"key": "selected_vendor", "value": "GlobalTech"},
		{"key": "selected_vendor_note", "value": "TechStart", "validFrom": env.Clock.Now().Add(time.Hour).Format(time.RFC3339)},
	}
	for _, in := range fresh {
		env.MustDo(t, tok, writeFact, map[string]any{"in": in}, &w)
		if !w.WriteFact.IsValid || w.WriteFact.Stale != nil {
			t.Errorf("write %v flagged stale: %+v", in, w.WriteFact)
		}
	}
	turn(t, env, tok, "s1", "Let's go back to TechStart instead of GlobalTech for the contract.")
	env.MustDo(t, tok, writeFact, map[string]any{"in": map[string]any{"key": "backup_vendor", "value": "TechStart"}}, &w)
	if !w.WriteFact.IsValid {
		t.Errorf("a restored value was flagged stale: %+v", w.WriteFact)
	}
}

// TestAssertionRevokedByTurn: a turn giving a new value for an active state
// assertion revokes it, in the audit trail.
func TestAssertionRevokedByTurn(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	var a struct{ AssertState struct{ ID, Status string } }
	env.MustDo(t, tok, assertMut, map[string]any{"in": map[string]any{
		"subject": "Shipment#12", "predicate": "eta", "object": "May 4", "context": "ops",
		"epistemicStatus": "INFERENCE", "validity": map[string]any{"mode": "UNTIL_CHANGED"},
		"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "method": "inferred"},
	}}, &a)
	res := turn(t, env, tok, "s1", "Update: the shipment eta moved to May 9.")
	if !res.superseded(a.AssertState.ID) {
		t.Fatalf("assertion not superseded: %+v", res.Detections)
	}
	var q struct{ StateAssertion struct{ Status string } }
	env.MustDo(t, tok, assertionQ, map[string]any{"id": a.AssertState.ID}, &q)
	if q.StateAssertion.Status != "REVOKED" {
		t.Errorf("status %s, want REVOKED", q.StateAssertion.Status)
	}
}

// TestIsolation: a turn in organization A never touches organization B's
// facts, turns or changes.
func TestIsolation(t *testing.T) {
	env := apitest.New(t)
	a := apitest.Token(t, apitest.Identity("org-a", "alice"))
	b := apitest.Token(t, apitest.Identity("org-b", "alice"))
	fb := write(t, env, b, map[string]any{"key": "kickoff_date", "value": "March 3"})
	write(t, env, a, map[string]any{"key": "kickoff_date", "value": "March 3"})
	res := turn(t, env, a, "s1", "Correction: the kickoff moved to March 10.")
	if len(res.Detections) == 0 || res.superseded(fb) {
		t.Fatalf("detections %+v", res.Detections)
	}
	if cur := currentOf(t, env, b, "kickoff_date"); cur.ID != fb {
		t.Errorf("org B's fact was superseded: %+v", cur)
	}
	var w struct{ WriteFact struct{ IsValid bool } }
	env.MustDo(t, b, writeFact, map[string]any{"in": map[string]any{"key": "kickoff_date_2", "value": "March 3"}}, &w)
	if !w.WriteFact.IsValid {
		t.Error("org A's change made org B's write stale")
	}
}

// TestBadTurnChangesNothing: a refused turn records nothing and supersedes
// nothing.
func TestBadTurnChangesNothing(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	old := write(t, env, tok, map[string]any{"key": "kickoff_date", "value": "March 3"})
	for _, in := range []map[string]any{
		{"sessionId": "bad session!", "speaker": "USER", "text": "Correction: the kickoff moved to March 10."},
		{"sessionId": "s1", "speaker": "USER", "text": "   "},
	} {
		r := env.Do(t, tok, recordTurn, map[string]any{"in": in})
		if r.Code() != "BAD_USER_INPUT" {
			t.Errorf("%v: code %q, want BAD_USER_INPUT", in, r.Code())
		}
	}
	if cur := currentOf(t, env, tok, "kickoff_date"); cur.ID != old {
		t.Errorf("a refused turn superseded the fact: %+v", cur)
	}
}

// TestEnvironmentUpdatedByTurn: a turn announcing a newer value of an
// environment signal replaces it (freshest wins across the conversation),
// the old signal leaves the context as SUPERSEDED and stays in views of
// the past; a turn that only restates the current signal changes nothing.
func TestEnvironmentUpdatedByTurn(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	var set struct{ SetEnvironment []struct{ ID, Key string } }
	env.MustDo(t, tok, `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id key } }`,
		map[string]any{"in": []map[string]any{{"key": "deadline", "value": "VendorX contract auto-renews in 30 days (Dec 1) unless cancelled"}}}, &set)
	old := set.SetEnvironment[0].ID
	before := env.Clock.Now()
	env.Clock.Advance(time.Minute)

	if r := turn(t, env, tok, "s1", "Note: the VendorX renewal is still on the calendar."); r.superseded(old) {
		t.Fatalf("a turn with no new value superseded the signal: %+v", r.Detections)
	}
	r := turn(t, env, tok, "s1", "Update: VendorX auto-renews TOMORROW. Must cancel by 5 PM TODAY.")
	if !r.superseded(old) {
		t.Fatalf("the update did not supersede the signal: %+v", r.Detections)
	}
	for _, d := range r.Detections {
		for _, s := range d.Superseded {
			if s.ID == old && s.Kind != "ENVIRONMENT" {
				t.Errorf("superseded kind = %s, want ENVIRONMENT", s.Kind)
			}
		}
	}
	var now struct {
		AssembleContext struct {
			Text     string
			Excluded []struct{ ID, Kind, Reason string }
		}
	}
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "VendorX deadline", "budget": 1000, "sessionId": "s1"}}, &now)
	if strings.Contains(now.AssembleContext.Text, "30 days") {
		t.Errorf("the replaced signal is still in context:\n%s", now.AssembleContext.Text)
	}
	found := false
	for _, e := range now.AssembleContext.Excluded {
		found = found || (e.ID == "deadline" && e.Kind == "ENVIRONMENT" && e.Reason == "SUPERSEDED")
	}
	if !found {
		t.Errorf("excluded = %+v, want deadline ENVIRONMENT SUPERSEDED", now.AssembleContext.Excluded)
	}
	var then struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "VendorX deadline", "budget": 1000, "knownAt": before, "asOf": before}}, &then)
	if !strings.Contains(then.AssembleContext.Text, "30 days") {
		t.Errorf("a view before the update lost the signal:\n%s", then.AssembleContext.Text)
	}
}

// TestDirectivesByRank: attributed instructions on one topic are decided by
// the speakers' rank whichever came first; a speaker's later word replaces
// their earlier one; equal ranks of different speakers both stand.
func TestDirectivesByRank(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	factQ := `query($id: ID!) { fact(id: $id) { isValid supersededBy { id } stale { reason } } }`
	type factOut struct {
		Fact struct {
			IsValid      bool
			SupersededBy *struct{ ID string }
			Stale        *struct{ Reason string }
		}
	}
	get := func(id string) factOut {
		var out factOut
		env.MustDo(t, tok, factQ, map[string]any{"id": id}, &out)
		return out
	}

	ceo := write(t, env, tok, map[string]any{"key": "instruction_a", "value": "[C_LEVEL] Charles (CEO): Give the new CFO a $2M signing bonus"})
	board := write(t, env, tok, map[string]any{"key": "instruction_b", "value": "[BOARD] Board of Directors (Compensation Committee): Executive signing bonuses capped at $500k per policy"})
	if got := get(ceo).Fact; got.IsValid || got.SupersededBy == nil || got.SupersededBy.ID != board {
		t.Errorf("the CEO's instruction after the board's cap: %+v, want superseded by %s", got, board)
	}

	vp := write(t, env, tok, map[string]any{"key": "discount_rule", "value": "[VP] Victoria (VP Sales): Maximum discount is 15% without executive approval"})
	mgr := write(t, env, tok, map[string]any{"key": "discount_ask", "value": "[MANAGER] Mark (Sales Manager): Give this customer a 25% discount"})
	if got := get(mgr).Fact; got.IsValid || got.Stale == nil || !strings.Contains(got.Stale.Reason, "outranked") {
		t.Errorf("a manager's discount after the VP's limit: %+v, want stored but outranked", got)
	}
	if got := get(vp).Fact; !got.IsValid {
		t.Errorf("the VP's limit lost to a manager: %+v", got)
	}

	first := write(t, env, tok, map[string]any{"key": "pto_a", "value": "[VP] Vince (VP HR): Manager Mia can approve PTO up to 2 weeks"})
	second := write(t, env, tok, map[string]any{"key": "pto_b", "value": "[VP] Vince (VP HR): All PTO over 3 days now requires VP approval"})
	if got := get(first).Fact; got.IsValid || got.SupersededBy == nil || got.SupersededBy.ID != second {
		t.Errorf("a speaker's later word: %+v, want the earlier superseded by %s", got, second)
	}

	a := write(t, env, tok, map[string]any{"key": "priority_a", "value": "[DIRECTOR] David (Product Director): Prioritize the mobile app launch"})
	b := write(t, env, tok, map[string]any{"key": "priority_b", "value": "[DIRECTOR] Diane (Engineering Director): Prioritize technical debt reduction"})
	if !get(a).Fact.IsValid || !get(b).Fact.IsValid {
		t.Error("two directors of equal rank: both instructions must stand")
	}

	// Repeating the outranked instruction later does not bring it back
	// into context.
	turn(t, env, tok, "s1", "Mark (Sales Manager): Give this customer a 25% discount")
	var ctx struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "What discount can we give?", "budget": 2000, "sessionId": "s1"}}, &ctx)
	if strings.Contains(ctx.AssembleContext.Text, "25%") || !strings.Contains(ctx.AssembleContext.Text, "15%") {
		t.Errorf("context should hold the VP's 15%% and not the outranked 25%%:\n%s", ctx.AssembleContext.Text)
	}
}

// TestStaleAfterLaterChange: the changes a staleness check reads are
// cached per organization; a change recorded after a check is seen by the
// next one (the cache never answers with an older list).
func TestStaleAfterLaterChange(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	type stale struct {
		WriteFact struct {
			IsValid bool
			Stale   *struct{ ReplacedBy string }
		}
	}
	write := func(key, value string) stale {
		t.Helper()
		var w stale
		env.MustDo(t, tok, writeFact, map[string]any{"in": map[string]any{"key": key, "value": value}}, &w)
		return w
	}
	turn(t, env, tok, "s1", "We picked TechStart for the contract.")
	turn(t, env, tok, "s1", "Correction: we are going with GlobalTech for the contract instead of TechStart.")
	if w := write("selected_vendor", "TechStart"); w.WriteFact.Stale == nil {
		t.Fatalf("first stale write not recognised: %+v", w.WriteFact)
	}
	turn(t, env, tok, "s2", "The offsite venue is the Harbour Hall.")
	turn(t, env, tok, "s2", "Correction: the offsite venue is the Riverside Loft, not the Harbour Hall.")
	if w := write("offsite_venue", "Harbour Hall"); w.WriteFact.IsValid || w.WriteFact.Stale == nil || !strings.Contains(w.WriteFact.Stale.ReplacedBy, "Riverside") {
		t.Fatalf("a write restating a value replaced after the last check: %+v, want stale, replaced by the Riverside Loft", w.WriteFact)
	}
}
