package contextasm_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/golden"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/tokens"
)

const writeFact = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`

const assembleQ = `query($in: ContextInput!) { assembleContext(input: $in) {
  text tokens budget withheld notes truncated
  sections { layer title text tokens }
  included { id kind layer reason score }
  excluded { id kind reason } } }`

type record struct{ ID, Kind, Reason string }

type assembled struct {
	Text      string
	Tokens    int
	Budget    int
	Withheld  int
	Notes     []string
	Truncated bool
	Sections  []struct {
		Layer  int
		Title  string
		Text   string
		Tokens int
	}
	Included []struct {
		ID     string
		Kind   string
		Layer  int
		Reason string
		Score  float64
	}
	Excluded []record
}

func (a assembled) excluded(id string) string {
	for _, e := range a.Excluded {
		if e.ID == id {
			return e.Reason
		}
	}
	return ""
}

func (a assembled) includes(id string) bool {
	for _, i := range a.Included {
		if i.ID == id {
			return true
		}
	}
	return false
}

func fact(t *testing.T, env *apitest.Env, tok string, in map[string]any) string {
	t.Helper()
	var w struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, writeFact, map[string]any{"in": in}, &w)
	return w.WriteFact.ID
}

func assemble(t *testing.T, env *apitest.Env, tok string, in map[string]any) assembled {
	t.Helper()
	var out struct{ AssembleContext assembled }
	env.MustDo(t, tok, assembleQ, map[string]any{"in": in}, &out)
	return out.AssembleContext
}

// TestVectors runs the specification's three test vectors through the API.
func TestVectors(t *testing.T) {
	t.Run("TV1 superseded approval is absent", func(t *testing.T) {
		env := apitest.New(t)
		tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
		fact(t, env, tok, map[string]any{"id": "F-approved", "key": "q3_budget_status", "value": "Q3 budget approved"})
		env.Clock.Advance(time.Hour)
		fact(t, env, tok, map[string]any{"id": "F-cancelled", "key": "q3_budget_status", "value": "Q3 budget cancelled", "supersedes": "q3_budget_status"})
		env.Clock.Advance(time.Hour)
		got := assemble(t, env, tok, map[string]any{"query": "Is the Q3 budget approved?", "budget": 400})
		if strings.Contains(got.Text, "approved") {
			t.Errorf("text mentions the superseded value:\n%s", got.Text)
		}
		if !strings.Contains(got.Text, "Q3 budget cancelled") || !got.includes("F-cancelled") {
			t.Errorf("text lacks the current value:\n%s", got.Text)
		}
		if r := got.excluded("F-approved"); r != "SUPERSEDED" {
			t.Errorf("F-approved excluded as %q, want SUPERSEDED", r)
		}
		golden.Check(t, "tv1.golden", got.Text)
	})
	t.Run("TV2 frequency of mention does not resurrect", func(t *testing.T) {
		env := apitest.New(t)
		tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
		fact(t, env, tok, map[string]any{"id": "F-old", "key": "launch_day", "value": "Tuesday"})
		for i := range 6 {
			env.Clock.Advance(time.Minute)
			recordTurn(t, env, tok, "s1", "USER", fmt.Sprintf("Remember, the launch is on Tuesday (%d).", i))
		}
		env.Clock.Advance(time.Minute)
		fact(t, env, tok, map[string]any{"id": "F-new", "key": "launch_day", "value": "Thursday", "supersedes": "launch_day"})
		env.Clock.Advance(time.Minute)
		recordTurn(t, env, tok, "s1", "USER", "Thanks, noted.")
		got := assemble(t, env, tok, map[string]any{"query": "When is the launch? Tuesday?", "budget": 600, "sessionId": "s1"})
		if strings.Contains(got.Text, "Tuesday") {
			t.Errorf("the superseded value came back:\n%s", got.Text)
		}
		if !strings.Contains(got.Text, "launch_day: Thursday") {
			t.Errorf("the current value is missing:\n%s", got.Text)
		}
		n := 0
		for _, e := range got.Excluded {
			if e.Kind == "TURN" && e.Reason == "SUPERSEDED" {
				n++
			}
		}
		if n != 6 {
			t.Errorf("%d turns excluded as SUPERSEDED, want 6: %+v", n, got.Excluded)
		}
		if !strings.Contains(got.Text, "Thanks, noted.") {
			t.Errorf("a current turn is missing:\n%s", got.Text)
		}
		golden.Check(t, "tv2.golden", got.Text)
	})
	t.Run("TV3 the intern does not override the policy", func(t *testing.T) {
		env := apitest.New(t)
		cfo := apitest.Identity("org-a", "cfo")
		cfo.Authority = "executive"
		intern := apitest.Identity("org-a", "intern")
		intern.Authority = "subordinate"
		fact(t, env, apitest.Token(t, cfo), map[string]any{"id": "F-policy", "key": "discount_policy", "value": "max 15% discount on any deal", "source": map[string]any{"type": "POLICY"}})
		env.Clock.Advance(time.Hour)
		fact(t, env, apitest.Token(t, intern), map[string]any{"id": "F-intern", "key": "discount_offer", "value": "Let's offer 25%"})
		env.Clock.Advance(time.Hour)
		got := assemble(t, env, apitest.Token(t, intern), map[string]any{"query": "What discount can we offer?", "budget": 400})
		cons := section(got, "Constraints (must hold)")
		if !strings.Contains(cons, "discount_policy: max 15% discount on any deal") {
			t.Errorf("the policy is not a constraint in the context:\n%s", got.Text)
		}
		if strings.Contains(cons, "25%") {
			t.Errorf("the intern's offer reads as a constraint:\n%s", got.Text)
		}
		golden.Check(t, "tv3.golden", got.Text)
	})
}

func section(a assembled, title string) string {
	for _, s := range a.Sections {
		if s.Title == title {
			return s.Text
		}
	}
	return ""
}

func recordTurn(t *testing.T, env *apitest.Env, tok, session, speaker, text string) string {
	t.Helper()
	var out struct {
		RecordTurn struct {
			Turn struct{ ID, Text, Speaker, At string }
		}
	}
	env.MustDo(t, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id text speaker at } } }`,
		map[string]any{"in": map[string]any{"sessionId": session, "speaker": speaker, "text": text}}, &out)
	if !strings.HasPrefix(out.RecordTurn.Turn.ID, "T-") || out.RecordTurn.Turn.Text != text || out.RecordTurn.Turn.Speaker != speaker {
		t.Fatalf("recordTurn returned %+v", out.RecordTurn.Turn)
	}
	return out.RecordTurn.Turn.ID
}

func putItem(t *testing.T, env *apitest.Env, tok string, in map[string]any) string {
	t.Helper()
	var out struct{ PutWorkingItem struct{ ID string } }
	env.MustDo(t, tok, `mutation($in: WorkingItemInput!) { putWorkingItem(input: $in) { id } }`, map[string]any{"in": in}, &out)
	return out.PutWorkingItem.ID
}

// TestTokensWithinBudget is the property: whatever the facts and the
// budget, tokens <= budget and tokens is the exact count of the text.
func TestTokensWithinBudget(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	c, err := tokens.New()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(42))
	words := []string{"budget", "Q3", "vendor", "approved", "cancelled", "€120,000", "policy", "max", "日本", "🚀", "deadline", "Friday", "discount", "15%", "hypothetical", "owner", "Alice", "!!", "\t", "\n"}
	scopes := []string{"GLOBAL", "PROJECT", "HYPOTHETICAL", "DRAFT", "SESSION"}
	for i := range 60 {
		var v []string
		for range 1 + rng.Intn(25) {
			v = append(v, words[rng.Intn(len(words))])
		}
		fact(t, env, tok, map[string]any{"key": fmt.Sprintf("k%d_%s", i, words[rng.Intn(len(words))]), "value": strings.Join(v, " "),
			"scope": scopes[rng.Intn(len(scopes))], "scopeId": "s1"})
		env.Clock.Advance(time.Minute)
	}
	recordTurn(t, env, tok, "s1", "USER", "What is the Q3 budget for the vendor?")
	putItem(t, env, tok, map[string]any{"sessionId": "s1", "key": "goal", "value": "decide the vendor", "itemType": "OBJECTIVE"})
	for range 40 {
		budget := rng.Intn(400)
		in := map[string]any{"query": words[rng.Intn(len(words))] + " " + words[rng.Intn(len(words))], "budget": budget, "sessionId": "s1", "factShare": 0.05 + rng.Float64()*0.95}
		got := assemble(t, env, tok, in)
		if got.Tokens > budget || got.Budget != budget {
			t.Fatalf("budget %d: tokens %d (budget echoed %d)\n%s", budget, got.Tokens, got.Budget, got.Text)
		}
		if n := c.Count(got.Text); n != got.Tokens {
			t.Fatalf("budget %d: tokens %d, but the text counts %d", budget, got.Tokens, n)
		}
		for _, s := range got.Sections {
			if n := c.Count(s.Text); n != s.Tokens {
				t.Fatalf("section %q: tokens %d, count %d", s.Title, s.Tokens, n)
			}
		}
		if budget < 10 && !got.Truncated {
			t.Fatalf("budget %d: identity cannot fit, want truncated", budget)
		}
	}
}

// TestAsOfReplay records the contexts of a sequence of queries while
// writing, then re-assembles each as of its time: byte for byte equal.
func TestAsOfReplay(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	type shot struct {
		at    time.Time
		query string
		text  string
	}
	var shots []shot
	queries := []string{"budget", "vendor status", "launch day", "who owns the budget"}
	rng := rand.New(rand.NewSource(3))
	keys := []string{"budget", "vendor", "launch_day", "owner"}
	for step := range 24 {
		k := keys[rng.Intn(len(keys))]
		in := map[string]any{"key": k, "value": fmt.Sprintf("%s value %d", k, step)}
		if step > 3 && rng.Intn(2) == 0 {
			in["supersedes"] = k
			if rng.Intn(3) == 0 {
				in["supersessionKind"] = "CORRECTION"
			}
		}
		if r := env.Do(t, tok, writeFact, map[string]any{"in": in}); len(r.Errors) > 0 && r.Code() != "NOT_FOUND" {
			t.Fatalf("write: %s", r)
		}
		env.Clock.Advance(time.Minute)
		recordTurn(t, env, tok, "s1", "USER", fmt.Sprintf("step %d about the %s", step, k))
		env.Clock.Advance(time.Minute)
		q := queries[step%len(queries)]
		got := assemble(t, env, tok, map[string]any{"query": q, "budget": 300, "sessionId": "s1"})
		shots = append(shots, shot{at: env.Clock.Now(), query: q, text: got.Text})
		env.Clock.Advance(time.Minute)
	}
	for i, s := range shots {
		at := s.at.Format(time.RFC3339Nano)
		got := assemble(t, env, tok, map[string]any{"query": s.query, "budget": 300, "sessionId": "s1", "asOf": at, "knownAt": at})
		if got.Text != s.text {
			t.Errorf("replay %d at %s differs:\nthen:\n%s\nreplayed:\n%s", i, at, s.text, got.Text)
		}
	}
}

func TestWorkingSetExpiryAndCompletion(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	short := putItem(t, env, tok, map[string]any{"sessionId": "s1", "key": "draft_email", "value": "Dear vendor, we accept", "itemType": "ARTIFACT", "ttl": 60, "scope": "DRAFT"})
	putItem(t, env, tok, map[string]any{"sessionId": "s1", "key": "goal", "value": "choose the vendor", "itemType": "OBJECTIVE"})
	putItem(t, env, tok, map[string]any{"sessionId": "s1", "key": "chosen_vendor", "value": "Acme", "itemType": "CONTEXT"})
	recordTurn(t, env, tok, "s1", "USER", "Which vendor did we choose?")

	got := assemble(t, env, tok, map[string]any{"query": "vendor", "budget": 500, "sessionId": "s1"})
	if strings.Contains(got.Text, "Dear vendor") || got.excluded(short) != "OUT_OF_SCOPE" {
		t.Errorf("draft item in the context of a real query, or not excluded as OUT_OF_SCOPE:\n%s", got.Text)
	}
	got = assemble(t, env, tok, map[string]any{"query": "vendor draft", "budget": 500, "sessionId": "s1"})
	if !strings.Contains(got.Text, "[DRAFT — not final] artifact draft_email: Dear vendor, we accept") {
		t.Errorf("draft item not labelled:\n%s", got.Text)
	}
	env.Clock.Advance(61 * time.Second)
	got = assemble(t, env, tok, map[string]any{"query": "vendor", "budget": 500, "sessionId": "s1"})
	if strings.Contains(got.Text, "Dear vendor") || got.excluded(short) != "EXPIRED" {
		t.Errorf("expired item still in context or not excluded as EXPIRED:\n%s\n%+v", got.Text, got.Excluded)
	}
	golden.Check(t, "working_set.golden", got.Text)

	// Bad input changes nothing.
	r := env.Do(t, tok, `mutation { completeObjective(input: {sessionId: "s1", promote: ["nope"]}) { archived } }`, nil)
	if r.Code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, `"nope"`) {
		t.Fatalf("promote of an unknown key: %s", r)
	}
	var done struct {
		CompleteObjective struct {
			Promoted []struct{ ID, Key, Text string }
			Archived int
		}
	}
	env.MustDo(t, tok, `mutation { completeObjective(input: {sessionId: "s1", promote: ["chosen_vendor"]}) { promoted { id key text } archived } }`, nil, &done)
	if len(done.CompleteObjective.Promoted) != 1 || done.CompleteObjective.Promoted[0].Text != "chosen_vendor: Acme" || done.CompleteObjective.Archived != 4 {
		t.Fatalf("completeObjective = %+v", done.CompleteObjective)
	}
	got = assemble(t, env, tok, map[string]any{"query": "vendor", "budget": 500, "sessionId": "s1"})
	if strings.Contains(got.Text, "Which vendor") || strings.Contains(got.Text, "choose the vendor") || section(got, "Working set") != "" {
		t.Errorf("archived session content in context:\n%s", got.Text)
	}
	if !strings.Contains(section(got, "Facts"), "chosen_vendor: Acme") {
		t.Errorf("promoted fact not in context:\n%s", got.Text)
	}
	var tr struct {
		Transcript []struct {
			Kind, Text, Key, PromotedTo string
		}
	}
	env.MustDo(t, tok, `{ transcript(sessionId: "s1") { kind text key promotedTo } }`, nil, &tr)
	if len(tr.Transcript) != 4 {
		t.Fatalf("transcript has %d entries, want 4: %+v", len(tr.Transcript), tr.Transcript)
	}
	promoted := 0
	for _, e := range tr.Transcript {
		if e.PromotedTo == done.CompleteObjective.Promoted[0].ID {
			promoted++
		}
	}
	if promoted != 1 {
		t.Errorf("transcript does not link the promoted item to its fact: %+v", tr.Transcript)
	}
	// Another user sees none of it.
	var other struct{ Transcript []struct{ Kind string } }
	env.MustDo(t, apitest.Token(t, apitest.Identity("org-a", "bob")), `{ transcript(sessionId: "s1") { kind } }`, nil, &other)
	if len(other.Transcript) != 0 {
		t.Errorf("bob sees alice's transcript: %+v", other.Transcript)
	}
	r = env.Do(t, tok, `mutation { completeObjective(input: {sessionId: "s1"}) { archived } }`, nil)
	if r.Code() != "NOT_FOUND" {
		t.Errorf("completing a completed session: %s", r)
	}
}

func TestEnvironment(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	set := `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id key scope } }`
	now := env.Clock.Now()
	var out struct {
		SetEnvironment []struct{ ID, Key, Scope string }
	}
	env.MustDo(t, tok, set, map[string]any{"in": []map[string]any{
		{"key": "location", "value": "Berlin office", "scope": "ORGANIZATION", "at": now.Add(-time.Hour).Format(time.RFC3339)},
		{"key": "location", "value": "Paris office", "at": now.Add(-time.Minute).Format(time.RFC3339)},
		{"key": "timezone", "value": "Europe/Paris"},
		{"key": "status", "value": "in a meeting", "expiresAt": now.Add(10 * time.Minute).Format(time.RFC3339)},
	}}, &out)
	if len(out.SetEnvironment) != 4 || out.SetEnvironment[0].Scope != "ORGANIZATION" || out.SetEnvironment[1].Scope != "USER" {
		t.Fatalf("setEnvironment = %+v", out.SetEnvironment)
	}
	got := assemble(t, env, tok, map[string]any{"query": "", "budget": 300})
	envText := section(got, "Environment")
	for _, want := range []string{"location: Paris office", "status: in a meeting", "timezone: Europe/Paris", "now: 2026-01-05T10:00:00+01:00", "date: 2026-01-05 (Mon)"} {
		if !strings.Contains(envText, want) {
			t.Errorf("environment lacks %q:\n%s", want, envText)
		}
	}
	if strings.Contains(envText, "Berlin") {
		t.Errorf("a staler value won:\n%s", envText)
	}
	env.Clock.Advance(11 * time.Minute)
	got = assemble(t, env, tok, map[string]any{"query": "", "budget": 300})
	if strings.Contains(got.Text, "in a meeting") || got.excluded("status") != "EXPIRED" {
		t.Errorf("expired entry kept:\n%s\n%+v", got.Text, got.Excluded)
	}
	// Another organization sees none of it, and UTC by default.
	other := assemble(t, env, apitest.Token(t, apitest.Identity("org-b", "alice")), map[string]any{"query": "", "budget": 300})
	if strings.Contains(other.Text, "office") || !strings.Contains(other.Text, "timezone: UTC") {
		t.Errorf("org-b context:\n%s", other.Text)
	}
	golden.Check(t, "environment.golden", got.Text)
}

func TestProviders(t *testing.T) {
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"temp": "12C", "rain": true})
	}))
	defer good.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer failing.Close()
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	calls := 0
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls++
		fmt.Fprintf(w, `{"n": %d}`, calls)
	}))
	defer counting.Close()
	env := apitest.New(t, func(o *server.Options) {
		o.EnvironmentProviders = []environment.Provider{
			{Name: "weather", URL: good.URL}, {Name: "crm", URL: failing.URL},
			{Name: "calendar", URL: slow.URL}, {Name: "counter", URL: counting.URL},
		}
		o.EnvironmentTimeout = 50 * time.Millisecond
	})
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	got := assemble(t, env, tok, map[string]any{"query": "weather", "budget": 300})
	envText := section(got, "Environment")
	for _, want := range []string{"weather.temp: 12C", "weather.rain: true", "counter.n: 1"} {
		if !strings.Contains(envText, want) {
			t.Errorf("environment lacks %q:\n%s", want, envText)
		}
	}
	notes := strings.Join(got.Notes, "\n")
	if !strings.Contains(notes, "environment: crm: answered with an error status (500)") || !strings.Contains(notes, "environment: calendar: no answer within the timeout") {
		t.Errorf("notes = %q", got.Notes)
	}
	again := assemble(t, env, tok, map[string]any{"query": "weather", "budget": 300})
	if !strings.Contains(again.Text, "counter.n: 2") {
		t.Errorf("provider answer cached:\n%s", again.Text)
	}
}

func TestScopeAndExclusions(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	fact(t, env, tok, map[string]any{"id": "F-s1", "key": "room", "value": "room 4 for this session", "scope": "SESSION", "scopeId": "s1"})
	fact(t, env, tok, map[string]any{"id": "F-s2", "key": "room", "value": "room 9 for the other session", "scope": "SESSION", "scopeId": "s2"})
	fact(t, env, tok, map[string]any{"id": "F-hyp", "key": "vendor", "value": "GlobalTech if we switch", "scope": "HYPOTHETICAL"})
	fact(t, env, tok, map[string]any{"id": "F-base", "key": "budget", "value": "$150,000"})
	fact(t, env, tok, map[string]any{"id": "F-derived", "key": "remaining", "value": "$50,000 remaining", "dependsOn": []string{"F-base"}})
	fact(t, env, tok, map[string]any{"id": "F-base2", "key": "budget", "value": "$120,000", "supersedes": "F-base"})
	got := assemble(t, env, tok, map[string]any{"query": "room vendor budget remaining", "budget": 500, "sessionId": "s1"})
	cases := []struct{ id, want string }{
		{"F-s2", "OUT_OF_SCOPE"}, {"F-base", "SUPERSEDED"}, {"F-derived", "NEEDS_REVIEW"}, {"F-s1", ""}, {"F-hyp", "OUT_OF_SCOPE"},
	}
	for _, c := range cases {
		if r := got.excluded(c.id); r != c.want {
			t.Errorf("%s excluded as %q, want %q", c.id, r, c.want)
		}
	}
	// Hypothetical content answers only a query about a hypothetical.
	hyp := assemble(t, env, tok, map[string]any{"query": "what if we switch vendor", "budget": 500, "sessionId": "s1"})
	if !strings.Contains(hyp.Text, "[HYPOTHETICAL — not a commitment] vendor: GlobalTech") || strings.Contains(got.Text, "GlobalTech") {
		t.Errorf("hypothetical not labelled for a hypothetical query, or shown for a real one:\n%s\n%s", hyp.Text, got.Text)
	}
	if !strings.Contains(section(got, "Needs recalculation (derived from a changed value; old result withheld)"), "- remaining") || strings.Contains(got.Text, "$50,000") {
		t.Errorf("needs-review fact shown as a plain fact:\n%s", got.Text)
	}
	golden.Check(t, "exclusions.golden", got.Text)
}

func TestBadInputChangesNothing(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	tests := []struct {
		name, query string
		vars        map[string]any
		field       string
	}{
		{"negative budget", assembleQ, map[string]any{"in": map[string]any{"query": "x", "budget": -1}}, "budget"},
		{"fact share", assembleQ, map[string]any{"in": map[string]any{"query": "x", "budget": 10, "factShare": 1.5}}, "factShare"},
		{"bad session", assembleQ, map[string]any{"in": map[string]any{"query": "x", "budget": 10, "sessionId": "has space"}}, "sessionId"},
		{"item ttl", `mutation($in: WorkingItemInput!) { putWorkingItem(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"sessionId": "s1", "key": "k", "value": "v", "itemType": "CONTEXT", "ttl": 0}}, "ttl"},
		{"empty turn", `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } } }`,
			map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "text": "  "}}, "text"},
		{"reserved env key", `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id } }`,
			map[string]any{"in": []map[string]any{{"key": "ok", "value": "v"}, {"key": "now", "value": "v"}}}, "input[1].key"},
		{"bad timezone", `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id } }`,
			map[string]any{"in": []map[string]any{{"key": "timezone", "value": "Mars/Olympus"}}}, "input[0].value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tok, tc.query, tc.vars)
			if r.Code() != "BAD_USER_INPUT" {
				t.Fatalf("code %q, want BAD_USER_INPUT: %s", r.Code(), r)
			}
			if f, _ := r.Errors[0].Extensions["field"].(string); f != tc.field {
				t.Errorf("field %q, want %q (%s)", f, tc.field, r)
			}
		})
	}
	got := assemble(t, env, tok, map[string]any{"query": "x", "budget": 300, "sessionId": "s1"})
	if strings.Contains(got.Text, "ok: v") || section(got, "Working set") != "" || section(got, "Recent conversation") != "" {
		t.Errorf("bad input changed something:\n%s", got.Text)
	}
}
