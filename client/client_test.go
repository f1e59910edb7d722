package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/client"
	"github.com/stategraph/stategraph/internal/apitest"
)

// newClient starts a real server and returns a client of it authenticated
// as user of org.
func newClient(t testing.TB, env *apitest.Env, org, user string) *client.Client {
	t.Helper()
	return client.New(env.URL+"/graphql", apitest.Token(t, apitest.Identity(org, user)), client.WithHTTPClient(env.HTTP.Client()))
}

func str(t testing.TB, v json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		t.Fatalf("value %s is not a string: %v", v, err)
	}
	return s
}

func TestWriteFactSupersedes(t *testing.T) {
	env := apitest.New(t)
	c := newClient(t, env, "org-a", "alice")
	ctx := context.Background()

	old, err := c.WriteFact(ctx, client.FactInput{Key: "onboarding_deck.owner", Value: client.Value("Lena")})
	if err != nil {
		t.Fatalf("write first fact: %v", err)
	}
	if !old.IsValid || old.Supersedes != nil || old.Scope != client.ScopeGlobal {
		t.Errorf("first fact = %+v; want valid, GLOBAL, superseding nothing", old)
	}
	env.Clock.Advance(time.Second)
	head, err := c.WriteFact(ctx, client.FactInput{
		Key: "onboarding_deck.owner", Value: client.Value("Jonas"),
		Supersedes: client.Ptr("onboarding_deck.owner"), Reason: client.Ptr("Jonas took it over"),
	})
	if err != nil {
		t.Fatalf("write superseding fact: %v", err)
	}
	if head.Supersedes == nil || head.Supersedes.Id != old.Id {
		t.Errorf("supersedes = %+v; want %s", head.Supersedes, old.Id)
	}
	if head.Supersession == nil || head.Supersession.Kind != client.SupersessionKindChange || head.Supersession.Reason == nil || *head.Supersession.Reason != "Jonas took it over" {
		t.Errorf("supersession = %+v; want CHANGE with the reason", head.Supersession)
	}

	cur, err := c.CurrentValue(ctx, "onboarding_deck.owner")
	if err != nil {
		t.Fatalf("currentValue: %v", err)
	}
	if cur == nil || cur.Id != head.Id || str(t, cur.Value) != "Jonas" {
		t.Fatalf("currentValue = %+v; want %s (Jonas)", cur, head.Id)
	}

	hist, err := c.FactHistory(ctx, "onboarding_deck.owner")
	if err != nil {
		t.Fatalf("factHistory: %v", err)
	}
	var got []string
	for _, f := range hist {
		got = append(got, str(t, f.Value))
	}
	if strings.Join(got, ",") != "Lena,Jonas" {
		t.Fatalf("history values = %v; want [Lena Jonas]", got)
	}
	if hist[0].IsValid || hist[0].SupersededBy == nil || hist[0].SupersededBy.Id != head.Id || hist[0].SupersededAt == nil {
		t.Errorf("history[0] = %+v; want superseded by %s", hist[0], head.Id)
	}

	byID, err := c.Fact(ctx, old.Id)
	if err != nil || byID == nil || byID.Key != "onboarding_deck.owner" || byID.IsValid {
		t.Errorf("fact(%s) = %+v, %v; want the superseded Lena fact", old.Id, byID, err)
	}
	if f, err := c.Fact(ctx, "F-01KE6P4YM0RQ5880QMQJPDA6XV"); err != nil || f != nil {
		t.Errorf("fact of an unknown id = %+v, %v; want nil, nil", f, err)
	}

	none, err := c.CurrentValue(ctx, "nobody.wrote.this")
	if err != nil || none != nil {
		t.Errorf("currentValue of an unknown key = %+v, %v; want nil, nil", none, err)
	}
}

func TestRecordTurnAndAssembleContext(t *testing.T) {
	env := apitest.New(t)
	c := newClient(t, env, "org-a", "alice")
	ctx := context.Background()
	const session = "s-1"

	turn := func(text string) *client.TurnResult {
		t.Helper()
		r, err := c.RecordTurn(ctx, client.TurnInput{SessionId: session, Speaker: client.SpeakerUser, Text: text})
		if err != nil {
			t.Fatalf("recordTurn %q: %v", text, err)
		}
		return r
	}
	facts := func(query string) string {
		t.Helper()
		ac, err := c.AssembleContext(ctx, client.ContextInput{Query: query, Budget: 1000, SessionId: client.Ptr(session)})
		if err != nil {
			t.Fatalf("assembleContext: %v", err)
		}
		if ac.Tokens > ac.Budget || ac.Budget != 1000 {
			t.Errorf("tokens %d, budget %d; want tokens <= budget = 1000", ac.Tokens, ac.Budget)
		}
		for _, s := range ac.Sections {
			if s.Title == "Facts" {
				return s.Text
			}
		}
		t.Fatalf("no Facts section in %q", ac.Text)
		return ""
	}

	if r := turn("Lena owns the onboarding deck."); r.Scope != client.TurnScopeGlobal || len(r.Detections) != 0 {
		t.Errorf("first turn = %+v; want GLOBAL, no detections", r)
	}
	if f := facts("Who owns the onboarding deck?"); !strings.Contains(f, "onboarding_deck.owner: Lena") {
		t.Errorf("facts before = %q; want Lena", f)
	}
	r := turn("Jonas is taking the onboarding deck off Lena's hands.")
	if len(r.Detections) != 1 {
		t.Fatalf("detections = %+v; want one", r.Detections)
	}
	d := r.Detections[0]
	if d.Blocked || d.Previous == nil || *d.Previous != "Lena" || d.Replacement != "Jonas" {
		t.Errorf("detection = %+v (previous %s); want Lena -> Jonas", d, deref(d.Previous))
	}
	if len(d.Superseded) == 0 || d.Superseded[0].Kind != client.SupersededKindFact {
		t.Errorf("superseded = %+v; want a fact first", d.Superseded)
	}
	f := facts("Who owns the onboarding deck now?")
	if !strings.Contains(f, "onboarding_deck.owner: Jonas") || strings.Contains(f, "Lena") {
		t.Errorf("facts after = %q; want Jonas and no Lena", f)
	}
}

func TestConflictsResolve(t *testing.T) {
	env := apitest.New(t)
	c := newClient(t, env, "org-a", "alice")
	ctx := context.Background()

	a, err := c.WriteFact(ctx, client.FactInput{Key: "launch.date", Value: client.Value("March 3")})
	if err != nil {
		t.Fatalf("write a: %v", err)
	}
	b, err := c.WriteFact(ctx, client.FactInput{Key: "launch.date", Value: client.Value("March 10")})
	if err != nil {
		t.Fatalf("write b: %v", err)
	}
	open, err := c.Conflicts(ctx, &client.ConflictFilter{Status: client.Ptr(client.ConflictStatusOpen)})
	if err != nil {
		t.Fatalf("conflicts: %v", err)
	}
	if len(open) != 1 || open[0].Subject != "launch.date" || len(open[0].Candidates) != 2 {
		t.Fatalf("open conflicts = %+v; want one on launch.date with two candidates", open)
	}
	var ids []string
	for _, cand := range open[0].Candidates {
		f, ok := cand.(*client.ConflictCandidatesFact)
		if !ok {
			t.Fatalf("candidate %T; want a fact", cand)
		}
		ids = append(ids, f.Id)
	}
	if strings.Join(ids, " ") != a.Id+" "+b.Id && strings.Join(ids, " ") != b.Id+" "+a.Id {
		t.Errorf("candidates %v; want %s and %s", ids, a.Id, b.Id)
	}

	res, err := c.ResolveConflict(ctx, open[0].Id, b.Id, "the board moved the launch")
	if err != nil {
		t.Fatalf("resolveConflict: %v", err)
	}
	if res.Status != client.ConflictStatusResolved || res.Decision == nil || res.Decision.Reason != "the board moved the launch" || res.ResolvedAt == nil {
		t.Errorf("resolved = %+v; want RESOLVED with the decision", res)
	}
	if cur, err := c.CurrentValue(ctx, "launch.date"); err != nil || cur == nil || cur.Id != b.Id {
		t.Errorf("currentValue after resolution = %+v, %v; want %s", cur, err, b.Id)
	}
	left, err := c.Conflicts(ctx, &client.ConflictFilter{Status: client.Ptr(client.ConflictStatusOpen)})
	if err != nil || len(left) != 0 {
		t.Errorf("open conflicts after resolution = %+v, %v; want none", left, err)
	}
	// Another organization sees none of it.
	other := newClient(t, env, "org-b", "bob")
	if all, err := other.Conflicts(ctx, nil); err != nil || len(all) != 0 {
		t.Errorf("org-b conflicts = %+v, %v; want none", all, err)
	}
	if cur, err := other.CurrentValue(ctx, "launch.date"); err != nil || cur != nil {
		t.Errorf("org-b currentValue = %+v, %v; want nil", cur, err)
	}
}

func TestErrors(t *testing.T) {
	env := apitest.New(t)
	ctx := context.Background()
	c := newClient(t, env, "org-a", "alice")
	if _, err := c.WriteFact(ctx, client.FactInput{Id: client.Ptr("fact-1"), Key: "k", Value: client.Value("v")}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	anonymous := client.New(env.URL, "", client.WithHTTPClient(env.HTTP.Client()))
	forged := client.New(env.URL, "not-a-jwt", client.WithHTTPClient(env.HTTP.Client()))

	tests := []struct {
		name   string
		call   func() error
		code   client.Code
		status int
	}{
		{"no token", func() error { _, err := anonymous.CurrentValue(ctx, "k"); return err }, client.CodeUnauthenticated, http.StatusUnauthorized},
		{"bad token", func() error { _, err := forged.CurrentValue(ctx, "k"); return err }, client.CodeUnauthenticated, http.StatusUnauthorized},
		{"negative budget", func() error {
			_, err := c.AssembleContext(ctx, client.ContextInput{Query: "q", Budget: -1})
			return err
		}, client.CodeBadUserInput, 0},
		{"supersedes an unknown key", func() error {
			_, err := c.WriteFact(ctx, client.FactInput{Key: "k2", Value: client.Value("v"), Supersedes: client.Ptr("no.such.key")})
			return err
		}, client.CodeNotFound, 0},
		{"duplicate id", func() error {
			_, err := c.WriteFact(ctx, client.FactInput{Id: client.Ptr("fact-1"), Key: "k", Value: client.Value("w")})
			return err
		}, client.CodeConflict, 0},
		{"resolve an unknown conflict", func() error {
			_, err := c.ResolveConflict(ctx, "CF-01KE6P4YM0RQ5880QMQJPDA6XV", "x", "why")
			return err
		}, client.CodeNotFound, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var e *client.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T); want *client.Error", err, err)
			}
			if e.Code != tc.code || client.CodeOf(err) != tc.code || e.StatusCode != tc.status {
				t.Errorf("code %s, status %d; want %s, %d (%v)", e.Code, e.StatusCode, tc.code, tc.status, err)
			}
			if e.Message == "" || len(e.Errors) == 0 || !strings.Contains(err.Error(), string(tc.code)) {
				t.Errorf("error %q (%d errors); want a message naming the code", err, len(e.Errors))
			}
		})
	}
}

func TestTransportError(t *testing.T) {
	hs := httptest.NewServer(http.NotFoundHandler())
	url := hs.URL
	hs.Close()
	_, err := client.New(url, "t").CurrentValue(context.Background(), "k")
	var e *client.Error
	if err == nil || errors.As(err, &e) || !strings.HasPrefix(err.Error(), "stategraph: ") {
		t.Errorf("error %v; want a wrapped transport error, not a server error", err)
	}
}

// TestInputsOmitUnset proves the generated inputs send only the fields set:
// an unset optional field is absent, not null, so the server's defaults
// (supersessionKind CHANGE, factShare 0.7, ...) apply.
func TestInputsOmitUnset(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"FactInput", client.FactInput{Key: "k", Value: client.Value(1)}, `{"key":"k","value":1}`},
		{"FactInput source", client.FactInput{Key: "k", Value: client.Value(1), Source: &client.SourceInput{}}, `{"key":"k","value":1,"source":{}}`},
		{"FactInput restriction", client.FactInput{Key: "k", Value: client.Value(1), RestrictedTo: &client.RestrictionInput{}}, `{"key":"k","value":1,"restrictedTo":{}}`},
		{"TurnInput", client.TurnInput{SessionId: "s", Speaker: client.SpeakerUser, Text: "t"}, `{"sessionId":"s","speaker":"USER","text":"t"}`},
		{"ContextInput", client.ContextInput{Query: "q", Budget: 10}, `{"query":"q","budget":10}`},
		{"ConflictFilter", client.ConflictFilter{}, `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("json = %s; want %s", b, tc.want)
			}
		})
	}
}

func TestBearerTransport(t *testing.T) {
	var got []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.Path+" "+r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"currentValue":null}}`))
	}))
	defer hs.Close()
	ctx := context.Background()
	for _, endpoint := range []string{hs.URL, hs.URL + "/", hs.URL + "/graphql"} {
		if _, err := client.New(endpoint, "tok").CurrentValue(ctx, "k"); err != nil {
			t.Fatalf("%s: %v", endpoint, err)
		}
	}
	if _, err := client.New(hs.URL, "").CurrentValue(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	want := []string{"/graphql Bearer tok", "/graphql Bearer tok", "/graphql Bearer tok", "/graphql "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q; want %q", got, want)
	}

	req, _ := http.NewRequest(http.MethodGet, hs.URL, nil)
	resp, err := (&client.BearerTransport{Token: "x"}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if h := req.Header.Get("Authorization"); h != "" {
		t.Errorf("caller's request changed: Authorization %q", h)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestConflictsPages follows the pages: more conflicts than one page holds.
func TestConflictsPages(t *testing.T) {
	env := apitest.New(t)
	c := newClient(t, env, "org-a", "alice")
	const n = 61
	var items []map[string]any
	for i := range n {
		key := fmt.Sprintf("slot.%02d", i)
		items = append(items, map[string]any{"key": key, "value": "a"}, map[string]any{"key": key, "value": "b"})
	}
	var out struct{ WriteFacts []struct{ ID string } }
	env.MustDo(t, apitest.Token(t, apitest.Identity("org-a", "alice")),
		`mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": items}, &out)

	all, err := c.Conflicts(context.Background(), nil)
	if err != nil {
		t.Fatalf("conflicts: %v", err)
	}
	seen := map[string]bool{}
	for _, cf := range all {
		seen[cf.Subject] = true
	}
	if len(all) != n || len(seen) != n {
		t.Errorf("got %d conflicts on %d keys; want %d on %d", len(all), len(seen), n, n)
	}
}
