package graph_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
)

// knownCodes are the codes a caller may legitimately get for bad input.
var knownCodes = map[string]bool{"BAD_USER_INPUT": true, "NOT_FOUND": true, "CONFLICT": true, "FORBIDDEN": true}

// FuzzInputDecoding sends arbitrary values, times and ids as variables to
// writeFact and fact through the real handler, and checks that every answer
// is well-formed GraphQL whose errors carry a known code, never INTERNAL.
func FuzzInputDecoding(f *testing.F) {
	env := apitest.New(f)
	tok := apitest.Token(f, apitest.Identity("org-a", "alice"))
	f.Add("budget", `100`, "2026-01-05T09:00:00Z", "F-1", "")
	f.Add("budget", `{"a":[1,2,{"b":null}]}`, "2026-01-05T09:00:00.123456789+02:00", "", "budget")
	f.Add("", `null`, "", "", "")
	f.Add("k", `"text"`, "yesterday", "bad id with spaces", "F-404")
	f.Add("k", `1e999`, "0000-01-01T00:00:00Z", "F-\x00", "k")
	f.Add("k\xff", `[`, "9999-12-31T23:59:59.999999999Z", "a", "a")
	f.Add("k", `true`, "2026-13-45T25:61:61Z", "id:#.-_", "")
	f.Add("k", `-0`, "-0001-01-01T00:00:00Z", "x", "x")
	f.Fuzz(func(t *testing.T, key, value, validFrom, id, supersedes string) {
		in := map[string]any{"key": key, "value": json.RawMessage(value)}
		if !json.Valid([]byte(value)) {
			in["value"] = value
		}
		for name, v := range map[string]string{"validFrom": validFrom, "id": id, "supersedes": supersedes} {
			if v != "" {
				in[name] = v
			}
		}
		check(t, env.Do(t, tok, `mutation W($in: FactInput!) { writeFact(input: $in) { id value validFrom } }`, map[string]any{"in": in}), "writeFact")
		check(t, env.Do(t, tok, `query F($id: ID!, $at: Time) { fact(id: $id, asOf: $at) { id value } currentValue(key: $id, knownAt: $at) { id } }`,
			map[string]any{"id": id, "at": validFrom}), "")
	})
}

func check(t *testing.T, r apitest.Response, field string) {
	t.Helper()
	if r.Status != http.StatusOK && r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %s", r)
	}
	for _, e := range r.Errors {
		code, _ := e.Extensions["code"].(string)
		if !knownCodes[code] || e.Message == "" {
			t.Fatalf("error with code %q: %s", code, r)
		}
	}
	if len(r.Errors) == 0 && field != "" {
		var data map[string]struct{ ID string }
		if err := json.Unmarshal(r.Data, &data); err != nil || data[field].ID == "" {
			t.Fatalf("success without an id: %s", r)
		}
	}
}
