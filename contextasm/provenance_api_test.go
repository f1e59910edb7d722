package contextasm_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	idgen "github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/golden"
	"github.com/stategraph/stategraph/server"
)

// TestProvenanceResponses pins the bytes of assembleContext responses
// whose included and excluded lists are asked for in every shape GraphQL
// allows (aliases, __typename, repeated fields, named and inline
// fragments, @skip and @include, the list field asked twice, empty lists),
// over a partition holding every kind of record and exclusion, and with
// the text: how they are marshalled may change, what a client reads may
// not.
// The golden file was written by gqlgen's generated marshalling.
func TestProvenanceResponses(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.IDs = idgen.Seeded(o.Clock, 7) })
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	t0 := env.Clock.Now()

	fact(t, env, tok, map[string]any{"id": "F-base", "key": "budget", "value": "$150,000 for the vendor"})
	fact(t, env, tok, map[string]any{"id": "F-derived", "key": "remaining", "value": "$50,000 remaining of the budget", "dependsOn": []string{"F-base"}})
	env.Clock.Advance(time.Minute)
	fact(t, env, tok, map[string]any{"id": "F-base2", "key": "budget", "value": "$120,000 for the vendor", "supersedes": "F-base"})
	fact(t, env, tok, map[string]any{"id": "F-s2", "key": "room", "value": "room 9 for the other session", "scope": "SESSION", "scopeId": "s2"})
	fact(t, env, tok, map[string]any{"id": "F-hyp", "key": "vendor", "value": "GlobalTech if we switch", "scope": "HYPOTHETICAL"})
	fact(t, env, tok, map[string]any{"id": "F-policy", "key": "spend_policy", "value": "never exceed the vendor budget", "isConstraint": true})
	env.MustDo(t, tok, `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id } }`, map[string]any{"in": []map[string]any{
		{"key": "location", "value": "Berlin office"},
		{"key": "status", "value": "in a meeting", "expiresAt": t0.Add(2 * time.Minute).Format(time.RFC3339)},
	}}, &struct{}{})
	putItem(t, env, tok, map[string]any{"sessionId": "s1", "key": "goal", "value": "choose the vendor within budget", "itemType": "OBJECTIVE", "priority": 1})
	putItem(t, env, tok, map[string]any{"sessionId": "s1", "key": "draft", "value": "draft: what if we pick GlobalTech", "itemType": "ARTIFACT"})
	assertState(t, env, tok, "vendor", "status", "shortlisted", "s1", "INFERENCE", map[string]any{"mode": "UNTIL_CHANGED"})
	assertState(t, env, tok, "vendor", "contact", "Dana", "s2", "INFERENCE", map[string]any{"mode": "UNTIL_CHANGED"})
	assertState(t, env, tok, "printer", "status", "jammed", "s1", "PERCEPTION", map[string]any{"mode": "UNTIL_TIME", "expiresAt": t0.Add(3 * time.Minute).Format(time.RFC3339)})
	recordTurn(t, env, tok, "s1", "USER", "The budget for the vendor is $150,000.")
	recordTurn(t, env, tok, "s1", "ASSISTANT", "Noted: the vendor budget is set, and Acme is on the shortlist.")
	recordTurn(t, env, tok, "s0", "USER", "Last week we said the vendor should be local.")
	env.Clock.Advance(5 * time.Minute)

	in := map[string]any{"query": "what is the vendor budget and the room?", "budget": 2000, "sessionId": "s1"}
	cases := []struct {
		name, query string
		vars        map[string]any
	}{
		{"every field", `query($in: ContextInput!) { assembleContext(input: $in) {
			included { id kind layer reason score } excluded { id kind reason } } }`, nil},
		{"the whole context", `query($in: ContextInput!) { assembleContext(input: $in) {
			text tokens budget withheld notes truncated sections { layer title text tokens }
			included { id kind layer reason score } excluded { id kind reason } } }`, nil},
		{"the text twice, after the lists", `query($in: ContextInput!) { assembleContext(input: $in) {
			excluded { id } t: text sections { title } included { id } text } }`, nil},
		{"aliases, __typename, repeats and order", `query($in: ContextInput!) { assembleContext(input: $in) {
			excluded { r: reason __typename reason kind id r: reason }
			tokens
			included { __typename score s: score id kind k: kind id layer } } }`, nil},
		{"fragments", `query Q($in: ContextInput!) { assembleContext(input: $in) {
			included { ...Inc ... on IncludedRecord { reason } ... { score id } }
			excluded { ... on ExcludedRecord { id } ...Exc } } }
			fragment Inc on IncludedRecord { id layer }
			fragment Exc on ExcludedRecord { kind __typename }`, nil},
		{"skip and include", `query Q($in: ContextInput!, $yes: Boolean!, $no: Boolean!) { assembleContext(input: $in) {
			included { id @include(if: $yes) kind @skip(if: $yes) score @include(if: $no) reason @skip(if: $no) }
			excluded @skip(if: $no) { id @skip(if: true) reason } } }`, map[string]any{"yes": true, "no": false}},
		{"a list asked twice", `query($in: ContextInput!) {
			a: assembleContext(input: $in) { i: included { id } e: excluded { id reason } }
			b: assembleContext(input: $in) { x: excluded { kind } included { score kind } } }`, nil},
		{"nothing asked of an element", `query($in: ContextInput!) { assembleContext(input: $in) {
			included { id @skip(if: true) } excluded { __typename @include(if: false) } } }`, nil},
		{"sections: aliases, __typename, repeats and order", `query($in: ContextInput!) { assembleContext(input: $in) {
			sections { tokens t: title __typename layer text title l: layer t: title } } }`, nil},
		{"sections: fragments, skip and include", `query Q($in: ContextInput!, $yes: Boolean!, $no: Boolean!) { assembleContext(input: $in) {
			s: sections { ...Sec ... on ContextSection { tokens } ... { layer @skip(if: $yes) text @include(if: $no) } }
			sections @include(if: $yes) { title @skip(if: $no) } } }
			fragment Sec on ContextSection { title __typename }`, map[string]any{"yes": true, "no": false}},
		{"sections: nothing asked of an element", `query($in: ContextInput!) { assembleContext(input: $in) {
			sections { title @skip(if: true) } } }`, nil},
	}
	var b strings.Builder
	for _, tc := range cases {
		vars := map[string]any{"in": in}
		for k, v := range tc.vars {
			vars[k] = v
		}
		r := env.Do(t, tok, tc.query, vars)
		if r.Status != http.StatusOK || len(r.Errors) > 0 {
			t.Fatalf("%s: %s", tc.name, r)
		}
		b.WriteString("## " + tc.name + "\n")
		b.Write(r.Raw)
		b.WriteString("\n")
	}
	// Empty lists, and records of every reason: a budget too small for
	// anything but the identity.
	for _, budget := range []int{0, 40} {
		vars := map[string]any{"in": map[string]any{"query": "vendor budget", "budget": budget, "sessionId": "s1"}}
		r := env.Do(t, tok, `query($in: ContextInput!) { assembleContext(input: $in) { truncated included { id kind layer reason score } excluded { id kind reason } } }`, vars)
		if r.Status != http.StatusOK || len(r.Errors) > 0 {
			t.Fatalf("budget %d: %s", budget, r)
		}
		b.WriteString("## budget " + strings.Repeat("I", budget/40+1) + "\n")
		b.Write(r.Raw)
		b.WriteString("\n")
	}
	got := b.String()
	// The seeded partition covers every kind and reason the lists carry.
	var full struct {
		Data struct {
			AssembleContext struct {
				Included, Excluded []struct{ Kind, Reason string }
			}
		}
	}
	first, _, _ := strings.Cut(strings.SplitN(got, "\n", 3)[1], "\n")
	if err := json.Unmarshal([]byte(first), &full); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range full.Data.AssembleContext.Included {
		seen["included "+r.Kind] = true
	}
	for _, r := range full.Data.AssembleContext.Excluded {
		seen["excluded "+r.Kind+" "+r.Reason] = true
	}
	for _, want := range []string{
		"included FACT", "included WORK_ITEM", "included ASSERTION", "included TURN", "included ENVIRONMENT", "included IDENTITY",
		"excluded FACT SUPERSEDED", "excluded FACT OUT_OF_SCOPE", "excluded FACT NEEDS_REVIEW", "excluded ENVIRONMENT EXPIRED", "excluded ASSERTION OUT_OF_SCOPE",
	} {
		if !seen[want] {
			t.Errorf("the seeded partition lacks %s: %v", want, seen)
		}
	}
	golden.Check(t, "provenance.golden", got)
}

// TestPostMatchesGet: a POST's response (written by the POST transport,
// which copies the assembled context's text and lists, written in final
// form, as they are) holds the bytes of the same query's GET response
// (written by gqlgen's GET transport: gqlgen's marshalling, then
// json.Marshal), for texts and records holding every byte JSON or HTML
// escapes ('<', '>', '&', U+2028, U+2029, quotes, backslashes, control
// characters) and multi-byte characters, in the shapes of
// TestProvenanceResponses, and a request whose data an error made null.
func TestPostMatchesGet(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	fact(t, env, tok, map[string]any{"key": "budget", "value": "<b>$150,000</b> & \"more\" \\ for the vendor\u2028next\u2029line \u2027 é ✓"})
	fact(t, env, tok, map[string]any{"key": "budget", "value": "$120,000 & <nothing> else\ttabbed\x01", "supersedes": "budget"})
	fact(t, env, tok, map[string]any{"key": "spend_policy", "value": "never exceed the <vendor> budget & ask first", "isConstraint": true})
	putItem(t, env, tok, map[string]any{"sessionId": "s1", "key": "goal", "value": "choose the vendor <within> budget & fast", "itemType": "OBJECTIVE", "priority": 1})
	recordTurn(t, env, tok, "s1", "USER", "The budget for the vendor is <$150,000> & final\u2028really.")
	env.Clock.Advance(time.Minute)

	in := map[string]any{"query": "what is the vendor budget & <policy>?", "budget": 2000, "sessionId": "s1"}
	for _, q := range []string{
		`query($in: ContextInput!) { assembleContext(input: $in) {
			text tokens budget withheld notes truncated sections { layer title text tokens }
			included { id kind layer reason score } excluded { id kind reason } } }`,
		`query($in: ContextInput!) { assembleContext(input: $in) { excluded { id } t: text sections { title } included { id } text } }`,
		`query($in: ContextInput!) {
			a: assembleContext(input: $in) { i: included { __typename id reason } e: excluded { id reason } text }
			b: assembleContext(input: $in) { x: excluded { kind } included { score kind } sections { text } } }`,
		`query($in: ContextInput!) { assembleContext(input: $in) { text included { id } } me { organization userName } }`,
		`query($in: ContextInput!) { assembleContext(input: $in) { text } bad: assembleContext(input: {query: "x", budget: -1}) { text } }`,
	} {
		vars := map[string]any{"in": in}
		post := env.Do(t, tok, q, vars)
		v, err := json.Marshal(vars)
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequest(http.MethodGet, env.URL+"/graphql?"+url.Values{"query": {q}, "variables": {string(v)}}.Encode(), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := env.HTTP.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		get, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if post.Status != http.StatusOK || resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d (POST), %d (GET): %s", post.Status, resp.StatusCode, post.Raw)
		}
		if len(post.Errors) == 0 && (!bytes.Contains(post.Raw, []byte(`\u003c`)) || !bytes.Contains(post.Raw, []byte(`\u0026`))) {
			t.Errorf("the response escapes no '<' or '&': %s", post.Raw)
		}
		if string(post.Raw) != string(get) {
			t.Errorf("POST wrote\n%s\nGET (gqlgen) writes\n%s", post.Raw, get)
		}
	}
}
