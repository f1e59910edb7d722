package server_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

const writeFacts = `mutation($in: [FactInput!]!) { writeFacts(input: $in) { ` + factFields + ` } }`

// batchOf returns n plain fact inputs with ids b-0 ... and keys k-0 ....
func batchOf(n int) []map[string]any {
	in := make([]map[string]any, n)
	for i := range in {
		in[i] = map[string]any{"id": fmt.Sprintf("b-%d", i), "key": fmt.Sprintf("k-%d", i), "value": fmt.Sprintf("value %d of the batch", i)}
	}
	return in
}

// errorIndex returns the code and extensions.index of the response's only
// error.
func errorIndex(t *testing.T, r apitest.Response) (code string, index int, ok bool) {
	t.Helper()
	if len(r.Errors) != 1 {
		t.Fatalf("want one error, got %s", r)
	}
	code = r.Code()
	i, ok := r.Errors[0].Extensions["index"].(float64)
	return code, int(i), ok
}

// factCount counts the caller's facts, valid or not.
func factCount(t *testing.T, env *apitest.Env, tok string) int {
	t.Helper()
	n := 0
	var after *string
	for {
		var out struct {
			Facts struct {
				Edges    []json.RawMessage
				PageInfo struct {
					EndCursor   *string
					HasNextPage bool
				}
			}
		}
		env.MustDo(t, tok, `query($after: String) { facts(filter: {validity: ALL}, first: 500, after: $after) { edges { node { id } } pageInfo { endCursor hasNextPage } } }`,
			map[string]any{"after": after}, &out)
		n += len(out.Facts.Edges)
		if !out.Facts.PageInfo.HasNextPage {
			return n
		}
		after = out.Facts.PageInfo.EndCursor
	}
}

// TestWriteFactsAllOrNone: a bad item anywhere fails the batch with its
// code and index, and nothing of the batch is written.
func TestWriteFactsAllOrNone(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	employee := apitest.Identity("acme", "erin")
	employee.Authority = "employee"
	write(t, env, tok, map[string]any{"id": "taken", "key": "before", "value": "written before the batches"})
	tests := []struct {
		name  string
		n     int
		index int
		spoil func(in map[string]any)
		code  string
		msg   string
		as    *authority.Identity // the caller, when not alice (a manager)
	}{
		{"empty key", 600, 500, func(in map[string]any) { in["key"] = " " }, "BAD_USER_INPUT", "key must not be empty", nil},
		{"id already stored", 10, 7, func(in map[string]any) { in["id"] = "taken" }, "CONFLICT", `"taken" already exists`, nil},
		{"id of an earlier item", 10, 3, func(in map[string]any) { in["id"] = "b-1" }, "CONFLICT", `"b-1" already exists`, nil},
		{"supersedes nothing", 10, 0, func(in map[string]any) { in["supersedes"] = "no-such-key" }, "NOT_FOUND", "no-such-key", nil},
		{"authority above the caller's", 10, 9, func(in map[string]any) { in["source"] = map[string]any{"authority": "executive"} }, "FORBIDDEN", "ranks above your own authority", nil},
		{"policy by an employee", 10, 4, func(in map[string]any) { in["source"] = map[string]any{"type": "POLICY"} }, "FORBIDDEN", "writing a policy", &employee},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := batchOf(tc.n)
			tc.spoil(in[tc.index])
			caller := tok
			if tc.as != nil {
				caller = apitest.Token(t, *tc.as)
			}
			r := env.Do(t, caller, writeFacts, map[string]any{"in": in})
			code, index, ok := errorIndex(t, r)
			if code != tc.code || !ok || index != tc.index {
				t.Errorf("code %s index %d (present %v), want %s at %d: %s", code, index, ok, tc.code, tc.index, r)
			}
			if !strings.Contains(r.Errors[0].Message, tc.msg) {
				t.Errorf("message %q, want it to contain %q", r.Errors[0].Message, tc.msg)
			}
			if string(r.Data) != "null" {
				t.Errorf("data %s, want null", r.Data)
			}
			if n := factCount(t, env, tok); n != 1 {
				t.Errorf("%d facts stored after the failed batch, want only the 1 written before", n)
			}
		})
	}
}

// TestWriteFactsLimits: an empty batch and one over 1,000 facts are refused.
func TestWriteFactsLimits(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	tests := []struct {
		name string
		n    int
		code string
	}{
		{"empty", 0, "BAD_USER_INPUT"},
		{"1,001 facts", 1001, "BAD_USER_INPUT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tok, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": batchOf(tc.n)})
			if r.Code() != tc.code {
				t.Errorf("code %q, want %s: %s", r.Code(), tc.code, r)
			}
		})
	}
	var out struct{ WriteFacts []struct{ ID string } }
	env.MustDo(t, tok, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": batchOf(1000)}, &out)
	if len(out.WriteFacts) != 1000 || out.WriteFacts[999].ID != "b-999" {
		t.Errorf("a batch of 1,000 wrote %d facts", len(out.WriteFacts))
	}
	if n := factCount(t, env, tok); n != 1000 {
		t.Errorf("%d facts stored, want 1000", n)
	}
}

// TestWriteFactsTooBig: a batch whose records cannot fit in one
// transaction is BAD_USER_INPUT asking to split it, and writes nothing.
func TestWriteFactsTooBig(t *testing.T) {
	env := apitest.New(t, apitest.OnBadger(t)) // Badger's transaction size limit
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	in := batchOf(1000)
	for i := range in {
		var words []string
		for w := range 60 {
			words = append(words, fmt.Sprintf("w%dx%d", i, w))
		}
		in[i]["value"] = strings.Join(words, " ")
	}
	r := env.Do(t, tok, `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`, map[string]any{"in": in})
	if r.Code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "split") {
		t.Errorf("want BAD_USER_INPUT asking to split the batch, got %s", r)
	}
	if n := factCount(t, env, tok); n != 0 {
		t.Errorf("%d facts stored after the refused batch, want 0", n)
	}
}

// TestWriteFactsSupersession: items supersede earlier items by key and by
// id, and the chains are those of the same writes one by one.
func TestWriteFactsSupersession(t *testing.T) {
	env := apitest.New(t)
	in := []map[string]any{
		{"id": "s-0", "key": "deadline", "value": "Friday"},
		{"id": "s-1", "key": "owner", "value": "Alice"},
		{"id": "s-2", "key": "budget", "value": "10k"},
		{"id": "s-3", "key": "deadline", "value": "Monday", "supersedes": "deadline"},
		{"id": "s-4", "key": "budget", "value": "12k", "supersedes": "s-2", "supersessionKind": "CORRECTION", "reason": "typo"},
		{"id": "s-5", "key": "plan", "value": "ship it", "dependsOn": []string{"s-3"}},
		{"id": "s-6", "key": "deadline", "value": "Tuesday", "supersedes": "s-3"},
		{"key": "owner", "value": "Bob", "supersedes": "owner"},
	}
	batch := apitest.Token(t, apitest.Identity("batch", "alice"))
	single := apitest.Token(t, apitest.Identity("single", "alice"))
	var out struct{ WriteFacts []fact }
	env.MustDo(t, batch, writeFacts, map[string]any{"in": in}, &out)
	if len(out.WriteFacts) != len(in) {
		t.Fatalf("%d facts back, want %d", len(out.WriteFacts), len(in))
	}
	got := out.WriteFacts
	if got[3].Supersedes == nil || got[3].Supersedes.ID != "s-0" || got[6].Supersedes == nil || got[6].Supersedes.ID != "s-3" {
		t.Errorf("deadline chain: s-3 supersedes %+v, s-6 supersedes %+v; want s-0 and s-3", got[3].Supersedes, got[6].Supersedes)
	}
	if got[4].Supersession == nil || got[4].Supersession.Kind != "CORRECTION" || got[7].Supersedes == nil || got[7].Supersedes.ID != "s-1" {
		t.Errorf("budget correction %+v, owner supersedes %+v", got[4].Supersession, got[7].Supersedes)
	}
	if c := current(t, env, batch, "deadline", nil); c == nil || c.ID != "s-6" || c.value() != "Tuesday" {
		t.Errorf("current deadline %+v, want s-6 Tuesday", c)
	}
	if c := current(t, env, batch, "plan", nil); c == nil || !c.NeedsReview {
		t.Errorf("plan %+v: want it flagged for review, since s-3 it depends on was superseded in the batch", c)
	}

	var one []fact
	for _, f := range in {
		one = append(one, write(t, env, single, f))
	}
	generated := regexp.MustCompile(`"F-[0-9A-Z]{26}"`)
	normalize := func(fs []fact) string {
		raw, err := json.MarshalIndent(fs, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return generated.ReplaceAllString(string(raw), `"generated"`)
	}
	// Compare the stored facts as they now stand (later items changed
	// earlier ones), not the results as they were returned.
	stored := func(tok string, ws []fact) string {
		var fs []fact
		for _, w := range ws {
			var out struct{ Fact fact }
			env.MustDo(t, tok, `query($id: ID!) { fact(id: $id) { `+factFields+` } }`, map[string]any{"id": w.ID}, &out)
			fs = append(fs, out.Fact)
		}
		return normalize(fs)
	}
	if b, s := stored(batch, got), stored(single, one); b != s {
		t.Errorf("batch and one-by-one writes differ:\nbatch  %s\nsingle %s", b, s)
	}
}

// TestWriteFactsRateWeight: with a rate limit, a batch weighs ceil(n/100)
// requests of its organization's bucket, so 1,000 facts cost 10 tokens (not
// 1,000); a batch the bucket cannot pay for is refused whole, FORBIDDEN, and
// another organization is not affected.
func TestWriteFactsRateWeight(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.RateLimit, o.RateBurst = 0.01, 12 })
	a := apitest.Token(t, apitest.Identity("org-a", "alice"))
	b := apitest.Token(t, apitest.Identity("org-b", "bob"))
	q := `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`
	var out struct{ WriteFacts []struct{ ID string } }
	env.MustDo(t, a, q, map[string]any{"in": batchOf(1000)}, &out) // 10 of 12
	second := batchOf(1000)
	for i := range second {
		second[i]["id"] = fmt.Sprintf("second-%d", i)
	}
	r := env.Do(t, a, q, map[string]any{"in": second}) // 1 more, 9 refused
	if r.Code() != "FORBIDDEN" || !strings.Contains(r.Errors[0].Message, "rate limit") {
		t.Errorf("second batch: %s, want FORBIDDEN rate limit", r)
	}
	var one struct{ Fact *struct{ ID string } }
	env.MustDo(t, a, `{ fact(id: "second-0") { id } }`, nil, &one) // the last token
	if one.Fact != nil {
		t.Error("the refused batch was written")
	}
	env.MustDo(t, b, q, map[string]any{"in": batchOf(1000)}, &out)
}
