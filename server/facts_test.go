package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/server"
)

const factFields = `id key value text isValid needsReview memoryType scope scopeId isConstraint constraintType
	source { type authority identity } validFrom validTo recordedAt supersededAt
	supersedes { id } supersededBy { id } supersession { kind detection cue reason actor at }
	dependsOn { id } derivedFacts { id }`

type fact struct {
	ID             string          `json:"id"`
	Key            string          `json:"key"`
	Value          json.RawMessage `json:"value"`
	Text           string          `json:"text"`
	IsValid        bool            `json:"isValid"`
	NeedsReview    bool            `json:"needsReview"`
	MemoryType     string          `json:"memoryType"`
	Scope          string          `json:"scope"`
	IsConstraint   bool            `json:"isConstraint"`
	ConstraintType *string         `json:"constraintType"`
	Source         struct {
		Type, Authority, Identity string
	} `json:"source"`
	ValidFrom    time.Time            `json:"validFrom"`
	ValidTo      *time.Time           `json:"validTo"`
	RecordedAt   time.Time            `json:"recordedAt"`
	SupersededAt *time.Time           `json:"supersededAt"`
	Supersedes   *struct{ ID string } `json:"supersedes"`
	SupersededBy *struct{ ID string } `json:"supersededBy"`
	Supersession *struct {
		Kind, Detection, Actor, Reason string
	} `json:"supersession"`
	DependsOn    []struct{ ID string } `json:"dependsOn"`
	DerivedFacts []struct{ ID string } `json:"derivedFacts"`
}

func (f fact) value() string {
	var s string
	if json.Unmarshal(f.Value, &s) == nil {
		return s
	}
	return string(f.Value)
}

const writeFact = `mutation($in: FactInput!) { writeFact(input: $in) { ` + factFields + ` } }`

func write(t testing.TB, env *apitest.Env, tok string, in map[string]any) fact {
	t.Helper()
	var out struct{ WriteFact fact }
	env.MustDo(t, tok, writeFact, map[string]any{"in": in}, &out)
	return out.WriteFact
}

func current(t *testing.T, env *apitest.Env, tok, key string, vars map[string]any) *fact {
	t.Helper()
	if vars == nil {
		vars = map[string]any{}
	}
	vars["key"] = key
	var out struct{ CurrentValue *fact }
	env.MustDo(t, tok, `query($key: String!, $asOf: Time, $knownAt: Time) { currentValue(key: $key, asOf: $asOf, knownAt: $knownAt) { `+factFields+` } }`, vars, &out)
	return out.CurrentValue
}

func history(t *testing.T, env *apitest.Env, tok, key string, vars map[string]any) []fact {
	t.Helper()
	if vars == nil {
		vars = map[string]any{}
	}
	vars["key"] = key
	var out struct{ FactHistory []fact }
	env.MustDo(t, tok, `query($key: String!, $asOf: Time, $knownAt: Time) { factHistory(key: $key, asOf: $asOf, knownAt: $knownAt) { `+factFields+` } }`, vars, &out)
	return out.FactHistory
}

func listValid(t *testing.T, env *apitest.Env, tok string, filter map[string]any) []fact {
	t.Helper()
	var out struct {
		Facts struct {
			Edges []struct{ Node fact }
		}
	}
	env.MustDo(t, tok, `query($f: FactFilter) { facts(filter: $f, first: 200) { edges { node { id key value isValid needsReview } } } }`, map[string]any{"f": filter}, &out)
	var fs []fact
	for _, e := range out.Facts.Edges {
		fs = append(fs, e.Node)
	}
	return fs
}

func TestMe(t *testing.T) {
	env := apitest.New(t)
	id := apitest.Identity("acme", "alice")
	id.Department, id.Permissions = "Finance", []string{"read:finance"}
	var out struct {
		Me struct {
			UserID, UserName, Organization, Authority, Department, Kind string
			Permissions                                                 []string
		}
	}
	env.MustDo(t, apitest.Token(t, id), `{ me { userId userName organization authority department permissions kind } }`, nil, &out)
	if out.Me.UserID != "alice" || out.Me.Organization != "acme" || out.Me.Department != "Finance" || out.Me.Kind != "agent" ||
		len(out.Me.Permissions) != 1 || out.Me.Authority != "manager" {
		t.Errorf("me = %+v", out.Me)
	}
}

func TestUnauthenticated(t *testing.T) {
	env := apitest.New(t)
	expired := func() string {
		tok, err := mintExpired()
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}()
	tests := []struct {
		name   string
		header string
	}{
		{"no header", ""},
		{"not bearer", "Basic abc"},
		{"garbage token", "Bearer not-a-jwt"},
		{"expired token", "Bearer " + expired},
		{"other secret", "Bearer " + mintOther(t)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, env.URL+"/graphql", strings.NewReader(`{"query":"mutation { writeFact(input:{key:\"k\", value:1}) { id } }"}`))
			req.Header.Set("Content-Type", "application/json")
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct {
				Errors []struct {
					Message    string
					Extensions map[string]string
				}
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusUnauthorized || len(body.Errors) != 1 || body.Errors[0].Extensions["code"] != "UNAUTHENTICATED" || body.Errors[0].Message == "" {
				t.Errorf("got status %d, body %+v; want 401 UNAUTHENTICATED", resp.StatusCode, body)
			}
		})
	}
	// Nothing was written by the rejected requests.
	if fs := listValid(t, env, apitest.Token(t, apitest.Identity("acme", "alice")), nil); len(fs) != 0 {
		t.Errorf("rejected requests wrote %d facts", len(fs))
	}
}

// TestVector1 is the specification's first test vector: a superseded value
// is not the current value and is not among the valid facts; the chain
// keeps both.
func TestVector1(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	approved := write(t, env, tok, map[string]any{"key": "q3_budget_status", "value": "Q3 budget approved"})
	env.Clock.Advance(time.Hour)
	cancelled := write(t, env, tok, map[string]any{"key": "q3_budget_status", "value": "Q3 budget cancelled", "supersedes": "q3_budget_status", "reason": "board decision"})

	if cur := current(t, env, tok, "q3_budget_status", nil); cur == nil || cur.ID != cancelled.ID || cur.value() != "Q3 budget cancelled" {
		t.Fatalf("currentValue = %+v, want the cancelled fact", cur)
	}
	for _, f := range listValid(t, env, tok, nil) {
		if strings.Contains(f.value(), "approved") {
			t.Errorf("valid facts still contain the superseded value: %+v", f)
		}
	}
	h := history(t, env, tok, "q3_budget_status", nil)
	if len(h) != 2 || h[0].ID != approved.ID || h[1].ID != cancelled.ID {
		t.Fatalf("history = %v, want [approved, cancelled]", h)
	}
	old, nw := h[0], h[1]
	switch {
	case old.IsValid || old.SupersededBy == nil || old.SupersededBy.ID != nw.ID:
		t.Errorf("old fact = %+v, want invalid and superseded by the new one", old)
	case nw.Supersedes == nil || nw.Supersedes.ID != old.ID || !nw.IsValid:
		t.Errorf("new fact = %+v, want valid, superseding the old one", nw)
	case old.ValidTo == nil || !old.ValidTo.Equal(nw.ValidFrom):
		t.Errorf("CHANGE: old validTo = %v, want the new validFrom %v", old.ValidTo, nw.ValidFrom)
	case nw.Supersession == nil || nw.Supersession.Kind != "CHANGE" || nw.Supersession.Detection != "EXPLICIT_WRITE" || nw.Supersession.Reason != "board decision" || nw.Supersession.Actor == "":
		t.Errorf("supersession edge = %+v", nw.Supersession)
	}
}

func TestSupersessionKindsAndRefs(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	t0 := apitest.Start
	a := write(t, env, tok, map[string]any{"id": "F-A", "key": "office", "value": "Berlin", "validFrom": t0.Add(-48 * time.Hour)})
	env.Clock.Advance(time.Hour)
	// Correction by id: the old value was never true.
	b := write(t, env, tok, map[string]any{"key": "office", "value": "Munich", "supersedes": "F-A", "supersessionKind": "CORRECTION"})
	if !b.ValidFrom.Equal(a.ValidFrom) {
		t.Errorf("CORRECTION: new validFrom = %v, want the old one's %v", b.ValidFrom, a.ValidFrom)
	}
	h := history(t, env, tok, "office", nil)
	if len(h) != 2 || h[0].ValidTo == nil || !h[0].ValidTo.Equal(h[0].ValidFrom) {
		t.Fatalf("CORRECTION: old fact should have an empty valid time, history = %+v", h)
	}
	// As of a time inside the old valid time, the corrected value answers.
	asOf := t0.Add(-24 * time.Hour)
	if cur := current(t, env, tok, "office", map[string]any{"asOf": asOf}); cur == nil || cur.ID != b.ID {
		t.Errorf("asOf %v after a correction = %+v, want the correction", asOf, cur)
	}
	// A change whose key differs: the chain follows it from either key.
	env.Clock.Advance(time.Hour)
	c := write(t, env, tok, map[string]any{"key": "office_location", "value": "Hamburg", "supersedes": "office"})
	if cur := current(t, env, tok, "office", nil); cur == nil || cur.ID != c.ID {
		t.Errorf("currentValue(office) = %+v, want the head under the new key", cur)
	}
	if h := history(t, env, tok, "office_location", nil); len(h) != 3 {
		t.Errorf("history by the new key has %d facts, want the whole chain of 3", len(h))
	}
}

func TestAsOfAndKnownAt(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	t1 := env.Clock.Now()
	write(t, env, tok, map[string]any{"key": "price", "value": 100})
	env.Clock.Advance(time.Hour)
	t2 := env.Clock.Now()
	write(t, env, tok, map[string]any{"key": "price", "value": 120, "supersedes": "price"})
	env.Clock.Advance(time.Hour)
	t3 := env.Clock.Now()
	write(t, env, tok, map[string]any{"key": "price", "value": 150, "supersedes": "price", "supersessionKind": "CORRECTION"})

	tests := []struct {
		name string
		vars map[string]any
		want string
	}{
		{"now", nil, "150"},
		{"known at t1", map[string]any{"knownAt": t1}, "100"},
		{"known at t2", map[string]any{"knownAt": t2}, "120"},
		{"known at t3", map[string]any{"knownAt": t3}, "150"},
		{"as of t1, known at t2", map[string]any{"asOf": t1, "knownAt": t2}, "100"},
		{"as of t1 (after the correction of 120)", map[string]any{"asOf": t1}, "100"},
		{"as of t2 + 1m: the correction took 120's valid time", map[string]any{"asOf": t2.Add(time.Minute)}, "150"},
		{"as of t2 + 1m, known before the correction", map[string]any{"asOf": t2.Add(time.Minute), "knownAt": t2}, "120"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cur := current(t, env, tok, "price", tc.vars)
			if cur == nil || cur.value() != tc.want {
				t.Errorf("currentValue = %+v, want value %s", cur, tc.want)
			}
		})
	}
	// knownAt before anything was written: nothing.
	if cur := current(t, env, tok, "price", map[string]any{"knownAt": t1.Add(-time.Second)}); cur != nil {
		t.Errorf("knownAt before the first write = %+v, want null", cur)
	}
	// History as known at t2 shows the first two, the first not yet retired... by t2 it was.
	h := history(t, env, tok, "price", map[string]any{"knownAt": t1})
	if len(h) != 1 || !h[0].IsValid || h[0].SupersededBy != nil {
		t.Errorf("history known at t1 = %+v, want the single valid fact", h)
	}
}

func TestDerivedFactsNeedReview(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	base := write(t, env, tok, map[string]any{"id": "budget", "key": "available_budget", "value": "$200,000"})
	d1 := write(t, env, tok, map[string]any{"id": "spend", "key": "approved_spend", "value": "$150,000", "dependsOn": []string{"budget"}})
	d2 := write(t, env, tok, map[string]any{"id": "left", "key": "remaining", "value": "$50,000", "dependsOn": []string{"spend"}})
	other := write(t, env, tok, map[string]any{"key": "unrelated", "value": "x"})
	if len(d1.DependsOn) != 1 || d1.DependsOn[0].ID != base.ID {
		t.Fatalf("dependsOn edge = %+v", d1.DependsOn)
	}
	env.Clock.Advance(time.Minute)
	write(t, env, tok, map[string]any{"key": "available_budget", "value": "$120,000", "supersedes": "budget", "supersessionKind": "CORRECTION"})

	review := listValid(t, env, tok, map[string]any{"needsReview": true})
	got := map[string]bool{}
	for _, f := range review {
		got[f.ID] = true
	}
	if len(got) != 2 || !got[d1.ID] || !got[d2.ID] || got[other.ID] {
		t.Errorf("needsReview facts = %v, want exactly %s and %s (transitively)", got, d1.ID, d2.ID)
	}
	var out struct{ Fact fact }
	env.MustDo(t, tok, `{ fact(id: "budget") { `+factFields+` } }`, nil, &out)
	if len(out.Fact.DerivedFacts) != 1 || out.Fact.DerivedFacts[0].ID != d1.ID {
		t.Errorf("derivedFacts of the base = %+v", out.Fact.DerivedFacts)
	}
	// As known before the correction, nothing needed review.
	var before struct{ Fact fact }
	env.MustDo(t, tok, `query($k: Time) { fact(id: "spend", knownAt: $k) { needsReview } }`, map[string]any{"k": apitest.Start}, &before)
	if before.Fact.NeedsReview {
		t.Error("needsReview is visible before the supersession that caused it")
	}
}

func TestBadInput(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	write(t, env, tok, map[string]any{"id": "F-1", "key": "k", "value": "v1"})
	write(t, env, tok, map[string]any{"id": "F-2", "key": "k", "value": "v2", "supersedes": "F-1"})
	tests := []struct {
		name     string
		query    string
		vars     map[string]any
		wantCode string
	}{
		{"empty key", writeFact, map[string]any{"in": map[string]any{"key": " ", "value": 1}}, "BAD_USER_INPUT"},
		{"null value", writeFact, map[string]any{"in": map[string]any{"key": "k2", "value": nil}}, "BAD_USER_INPUT"},
		{"missing value", writeFact, map[string]any{"in": map[string]any{"key": "k2"}}, "BAD_USER_INPUT"},
		{"key too long", writeFact, map[string]any{"in": map[string]any{"key": strings.Repeat("k", 300), "value": 1}}, "BAD_USER_INPUT"},
		{"bad id", writeFact, map[string]any{"in": map[string]any{"id": "../etc", "key": "k2", "value": 1}}, "BAD_USER_INPUT"},
		{"duplicate id", writeFact, map[string]any{"in": map[string]any{"id": "F-1", "key": "k2", "value": 1}}, "CONFLICT"},
		{"unknown enum", writeFact, map[string]any{"in": map[string]any{"key": "k2", "value": 1, "scope": "PLANET"}}, "BAD_USER_INPUT"},
		{"bad time", writeFact, map[string]any{"in": map[string]any{"key": "k2", "value": 1, "validFrom": "yesterday"}}, "BAD_USER_INPUT"},
		{"supersede unknown", writeFact, map[string]any{"in": map[string]any{"key": "k2", "value": 1, "supersedes": "nope"}}, "NOT_FOUND"},
		{"supersede superseded", writeFact, map[string]any{"in": map[string]any{"key": "k", "value": 3, "supersedes": "F-1"}}, "CONFLICT"},
		{"change before old validFrom", writeFact, map[string]any{"in": map[string]any{"key": "k", "value": 3, "supersedes": "F-2", "validFrom": apitest.Start.Add(-time.Hour)}}, "BAD_USER_INPUT"},
		{"correction with validFrom", writeFact, map[string]any{"in": map[string]any{"key": "k", "value": 3, "supersedes": "F-2", "supersessionKind": "CORRECTION", "validFrom": apitest.Start.Add(time.Hour)}}, "BAD_USER_INPUT"},
		{"unknown dependency", writeFact, map[string]any{"in": map[string]any{"key": "k2", "value": 1, "dependsOn": []string{"ghost"}}}, "BAD_USER_INPUT"},
		{"capability without claim", writeFact, map[string]any{"in": map[string]any{"key": "k2", "value": 1, "memoryType": "CAPABILITY"}}, "BAD_USER_INPUT"},
		{"bad first", `{ facts(first: 100000) { pageInfo { hasNextPage } } }`, nil, "BAD_USER_INPUT"},
		{"bad cursor", `{ facts(after: "!!") { pageInfo { hasNextPage } } }`, nil, "BAD_USER_INPUT"},
		{"syntax error", `{ facts( }`, nil, "BAD_USER_INPUT"},
		{"unknown field", `{ nope }`, nil, "BAD_USER_INPUT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tok, tc.query, tc.vars)
			if r.Code() != tc.wantCode {
				t.Fatalf("code = %q, want %q; %s", r.Code(), tc.wantCode, r)
			}
			msg := r.Errors[0].Message
			if msg == "" || strings.Contains(msg, "badger") || strings.Contains(msg, "\x00") || strings.Contains(msg, "goroutine") {
				t.Errorf("message %q is empty or leaks internals", msg)
			}
		})
	}
	// Nothing the failures tried was stored: only the two facts exist, and
	// F-2 is still the head.
	all := listValid(t, env, tok, map[string]any{"validity": "ALL"})
	if len(all) != 2 {
		t.Errorf("after bad input, %d facts exist, want 2: %+v", len(all), all)
	}
	if cur := current(t, env, tok, "k", nil); cur == nil || cur.ID != "F-2" {
		t.Errorf("head after bad input = %+v, want F-2", cur)
	}
}

// TestConcurrentSupersession: many writers supersede the same fact at
// once; exactly one wins, the others get CONFLICT naming the head, and the
// chain stays linear.
func TestConcurrentSupersession(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	write(t, env, tok, map[string]any{"id": "F-0", "key": "vendor", "value": "TechStart"})
	const n = 16
	var wg sync.WaitGroup
	results := make([]apitest.Response, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = env.Do(t, tok, writeFact, map[string]any{"in": map[string]any{
				"id": fmt.Sprintf("F-%d", i+1), "key": "vendor", "value": fmt.Sprintf("Vendor %d", i+1), "supersedes": "F-0"}})
		}()
	}
	wg.Wait()
	var winners, conflicts int
	for _, r := range results {
		switch {
		case len(r.Errors) == 0:
			winners++
		case r.Code() == "CONFLICT" && strings.Contains(r.Errors[0].Message, "current head"):
			conflicts++
		default:
			t.Errorf("unexpected response %s", r)
		}
	}
	if winners != 1 || conflicts != n-1 {
		t.Fatalf("winners = %d, conflicts = %d; want 1 and %d", winners, conflicts, n-1)
	}
	h := history(t, env, tok, "vendor", nil)
	if len(h) != 2 || h[0].ID != "F-0" || !h[1].IsValid {
		t.Errorf("chain = %+v, want F-0 then exactly one valid winner", h)
	}
	if all := listValid(t, env, tok, map[string]any{"validity": "ALL"}); len(all) != 2 {
		t.Errorf("%d facts stored, want 2 (losers must store nothing)", len(all))
	}
}

// TestCrossOrganization: a token of another organization sees nothing and
// changes nothing, even with the right ids and keys.
//
// It runs on both engines (subtests Badger and TiKV): the reduced isolation
// sweep of the TiKV engine, whose full sweep (internal/sweep) is too slow
// on the mock cluster.
func TestCrossOrganization(t *testing.T) {
	for _, e := range enginetest.All {
		t.Run(e.Name, func(t *testing.T) { testCrossOrganization(t, apitest.New(t, onEngine(t, e))) })
	}
}

func testCrossOrganization(t *testing.T, env *apitest.Env) {
	bTok := apitest.Token(t, apitest.Identity("org-b", "bob"))
	aTok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	write(t, env, bTok, map[string]any{"id": "F-B1", "key": "secret_plan", "value": "CANARY-B-1"})
	write(t, env, bTok, map[string]any{"id": "F-B2", "key": "secret_plan", "value": "CANARY-B-2", "supersedes": "F-B1", "dependsOn": []string{}})

	reads := []string{
		`{ fact(id: "F-B1") { id value } }`,
		`{ fact(id: "F-B2") { id value supersedes { id value } } }`,
		`{ currentValue(key: "secret_plan") { id value } }`,
		`{ factHistory(key: "secret_plan") { id value } }`,
		`{ facts(filter: {validity: ALL}) { edges { node { id value } } } }`,
		`{ facts(filter: {key: "secret_plan", validity: ALL}) { edges { node { id value } } } }`,
		`{ auditTrail(recordId: "F-B1") { id detail } }`,
	}
	for _, q := range reads {
		r := env.Do(t, aTok, q, nil)
		if len(r.Errors) > 0 || strings.Contains(string(r.Raw), "CANARY") || strings.Contains(string(r.Raw), "F-B") {
			t.Errorf("org A read %s -> %s", q, r)
		}
	}
	// fact(id) answers exactly as for an unknown id.
	unknown := env.Do(t, aTok, `{ fact(id: "does-not-exist") { id } }`, nil)
	known := env.Do(t, aTok, `{ fact(id: "F-B1") { id } }`, nil)
	if string(unknown.Raw) != string(known.Raw) {
		t.Errorf("another org's id answers %s, an unknown id %s", known.Raw, unknown.Raw)
	}
	// Writes: superseding B's fact by id or key finds nothing; reusing B's
	// id creates A's own fact and leaves B's alone.
	for _, in := range []map[string]any{
		{"key": "secret_plan", "value": "hijack", "supersedes": "F-B2"},
		{"key": "secret_plan", "value": "hijack", "supersedes": "secret_plan"},
	} {
		if r := env.Do(t, aTok, writeFact, map[string]any{"in": in}); r.Code() != "NOT_FOUND" {
			t.Errorf("org A superseding B's fact: %s, want NOT_FOUND", r)
		}
	}
	write(t, env, aTok, map[string]any{"id": "F-B1", "key": "mine", "value": "A's own"})
	if cur := current(t, env, bTok, "secret_plan", nil); cur == nil || cur.ID != "F-B2" || cur.value() != "CANARY-B-2" {
		t.Errorf("B's current value changed: %+v", cur)
	}
	var bFact struct{ Fact fact }
	env.MustDo(t, bTok, `{ fact(id: "F-B1") { `+factFields+` } }`, nil, &bFact)
	if bFact.Fact.value() != "CANARY-B-1" || bFact.Fact.Key != "secret_plan" {
		t.Errorf("B's F-B1 changed: %+v", bFact.Fact)
	}
}

func TestUserMemoryIsPrivate(t *testing.T) {
	env := apitest.New(t)
	alice := apitest.Token(t, apitest.Identity("acme", "alice"))
	bob := apitest.Token(t, apitest.Identity("acme", "bob"))
	mine := write(t, env, alice, map[string]any{"key": "favourite_colour", "value": "green", "memoryType": "USER"})
	org := write(t, env, alice, map[string]any{"key": "office_hours", "value": "9-5", "memoryType": "ORGANIZATIONAL"})
	var out struct{ Fact *fact }
	env.MustDo(t, bob, `query($id: ID!) { fact(id: $id) { id } }`, map[string]any{"id": mine.ID}, &out)
	if out.Fact != nil {
		t.Errorf("bob reads alice's user memory: %+v", out.Fact)
	}
	env.MustDo(t, bob, `query($id: ID!) { fact(id: $id) { id } }`, map[string]any{"id": org.ID}, &out)
	if out.Fact == nil {
		t.Error("bob cannot read organizational knowledge")
	}
}

func TestInference(t *testing.T) {
	env := apitest.New(t)
	id := apitest.Identity("acme", "carol")
	id.Capability = "billing"
	tok := apitest.Token(t, id)
	tests := []struct {
		name           string
		in             map[string]any
		wantMemory     string
		wantConstraint bool
		wantType       string
	}{
		{"user said", map[string]any{"key": "pref", "value": "likes tea", "source": map[string]any{"type": "USER"}}, "USER", false, ""},
		{"tool learned with capability", map[string]any{"key": "pattern", "value": "invoices arrive Mondays", "source": map[string]any{"type": "TOOL"}}, "CAPABILITY", false, ""},
		{"policy", map[string]any{"key": "discount_policy", "value": "max 15% discount", "source": map[string]any{"type": "POLICY"}}, "ORGANIZATIONAL", true, "LIMIT"},
		{"prohibition", map[string]any{"key": "rule", "value": "never share salaries", "source": map[string]any{"type": "SYSTEM"}}, "ORGANIZATIONAL", true, "PROHIBITION"},
		{"explicit no", map[string]any{"key": "note", "value": "must be kind", "isConstraint": false}, "CAPABILITY", false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := write(t, env, tok, tc.in)
			gotType := ""
			if f.ConstraintType != nil {
				gotType = *f.ConstraintType
			}
			if f.MemoryType != tc.wantMemory || f.IsConstraint != tc.wantConstraint || gotType != tc.wantType {
				t.Errorf("memoryType=%s isConstraint=%v type=%q; want %s %v %q", f.MemoryType, f.IsConstraint, gotType, tc.wantMemory, tc.wantConstraint, tc.wantType)
			}
		})
	}
}

func TestPagination(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	want := map[string]bool{}
	for i := range 25 {
		mt := "ORGANIZATIONAL"
		if i%3 == 0 {
			mt = "USER"
		}
		f := write(t, env, tok, map[string]any{"key": fmt.Sprintf("k%02d", i), "value": i, "memoryType": mt})
		want[f.ID] = true
		env.Clock.Advance(time.Second)
	}
	seen := map[string]bool{}
	after := ""
	var last time.Time
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("pagination does not end")
		}
		var out struct {
			Facts struct {
				Edges    []struct{ Node fact }
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		vars := map[string]any{}
		if after != "" {
			vars["after"] = after
		}
		env.MustDo(t, tok, `query($after: String) { facts(first: 7, after: $after) { edges { node { id recordedAt } } pageInfo { hasNextPage endCursor } } }`, vars, &out)
		for _, e := range out.Facts.Edges {
			if seen[e.Node.ID] {
				t.Fatalf("fact %s listed twice", e.Node.ID)
			}
			if e.Node.RecordedAt.Before(last) {
				t.Fatalf("facts out of order")
			}
			last = e.Node.RecordedAt
			seen[e.Node.ID] = true
		}
		if !out.Facts.PageInfo.HasNextPage {
			break
		}
		after = *out.Facts.PageInfo.EndCursor
	}
	if len(seen) != len(want) {
		t.Errorf("listed %d facts, want %d", len(seen), len(want))
	}
}

// TestRestartPersistence: acknowledged writes survive closing and
// reopening an on-disk store.
func TestRestartPersistence(t *testing.T) {
	dir := t.TempDir()
	onDisk := func(o *server.Options) {
		o.Store.InMemory, o.Store.Dir, o.Store.SyncWrites = false, dir, true
	}
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	env := apitest.New(t, onDisk)
	write(t, env, tok, map[string]any{"id": "F-1", "key": "k", "value": "v1"})
	write(t, env, tok, map[string]any{"id": "F-2", "key": "k", "value": "v2", "supersedes": "k"})
	env.HTTP.Close()
	if err := env.Server.Close(); err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(func() server.Options {
		o := server.DefaultOptions(dir)
		o.Verifier.Secret = apitest.Secret
		o.MinFreeDisk = 0
		return o
	}())
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer srv.Close()
	env2 := &apitest.Env{}
	env2.HTTP = httptestServer(t, srv)
	env2.URL = env2.HTTP.URL
	h := history(t, env2, tok, "k", nil)
	if len(h) != 2 || h[0].ID != "F-1" || h[1].ID != "F-2" || h[0].IsValid || !h[1].IsValid {
		t.Errorf("after restart, history = %+v", h)
	}
}

// TestHypotheticalIsNeverCurrent: hypothetical and draft facts are never
// the current value of a global read, even when they are the newest.
func TestHypotheticalIsNeverCurrent(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	real := write(t, env, tok, map[string]any{"key": "vendor", "value": "Northwind"})
	for _, scope := range []string{"HYPOTHETICAL", "DRAFT"} {
		env.Clock.Advance(time.Minute)
		write(t, env, tok, map[string]any{"key": "vendor", "value": "What-if vendor " + scope, "scope": scope})
		if cur := current(t, env, tok, "vendor", nil); cur == nil || cur.ID != real.ID {
			t.Errorf("after a newer %s fact, currentValue = %+v, want the real one", scope, cur)
		}
	}
	only := write(t, env, tok, map[string]any{"key": "plan_b", "value": "move to Berlin", "scope": "HYPOTHETICAL"})
	if cur := current(t, env, tok, "plan_b", nil); cur != nil {
		t.Errorf("a key with only a hypothetical fact has current value %+v (%s), want null", cur, only.ID)
	}
}
