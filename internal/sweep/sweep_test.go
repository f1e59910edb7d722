package sweep

// The isolation sweep.
//
// A victim (organization B, or a second user of one organization) is seeded
// with unique canary strings in every kind of record: facts of every memory
// type and level, supersession chains, derived facts, restricted facts,
// forgotten facts (tombstones), refused supersessions, audit entries. Then
// an attacker calls every Query and Mutation field of the schema with the
// victim's ids, keys and other references, one field per request, every
// case of a field in one request under aliases, and all fields of an
// operation type in one request. The sweep fails when
//
//   - a response contains a canary;
//   - a query answers differently for a victim's reference than for a
//     reference to nothing at all (not visible must look like absent);
//   - the victim's state, dumped as the victim before and after, changed;
//   - a root field of graph/*.graphqls has no case in the table below (so
//     a new field cannot skip the sweep), or a case names no field.
//
// ADDING A CASE. When you add a Query or Mutation field, add one line to
// cases: "Query.name" or "Mutation.name" mapped to the argument lists to
// call it with, written as GraphQL including the parentheses ("" for no
// arguments). Use these placeholders for the victim's references; each
// argument list is run once per value:
//
//	{id}    every record id the victim holds (facts, tombstones, state
//	        assertions, conflicts, decisions)
//	{key}   every fact key the victim holds
//	{name}  every other name the victim uses: entity subjects, predicates,
//	        contexts, event names
//	{slot}  every (subject, predicate, context) slot of the victim's state
//	        assertions, as "subject: ..., predicate: ..., context: ..."
//	{time}  a time inside the victim's history
//
// The selection set is generated from the schema (every field, records two
// levels deep, value objects and Relay plumbing in full, unions and
// interfaces by every member), so new fields on
// existing types are swept without a change here. If your feature creates
// a new kind of record, also seed one with a canary in seedOrg (and, if it
// can be private to a user, in seedUser) and add its references to the
// victim's ids or keys.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/graph"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// cases is the sweep's table: every root field and the argument lists it
// is called with. See ADDING A CASE above.
var cases = map[string][]string{
	"Query.me":           {""},
	"Query.fact":         {"(id: {id})", "(id: {id}, asOf: {time}, knownAt: {time})"},
	"Query.facts":        {"(filter: {validity: ALL}, first: 500)", "(filter: {validity: ALL}, last: 500)", "(filter: {key: {key}, validity: ALL})", "(filter: {key: {key}, validity: INVALID}, asOf: {time})"},
	"Query.currentValue": {"(key: {key})", "(key: {key}, asOf: {time}, knownAt: {time})"},
	"Query.factHistory":  {"(key: {key})", "(key: {key}, knownAt: {time})"},
	"Query.auditTrail":   {"(recordId: {id})", "(recordId: {id}, asOf: {time}, knownAt: {time})"},
	"Mutation.writeFact": {
		`(input: {key: "sweep.probe", value: "probe", memoryType: ORGANIZATIONAL, supersedes: {id}})`,
		`(input: {key: {key}, value: "probe", memoryType: ORGANIZATIONAL, supersedes: {key}, supersessionKind: CORRECTION})`,
		`(input: {key: "sweep.probe", value: "probe", memoryType: USER, supersedes: {key}})`,
		`(input: {key: "sweep.probe", value: "probe", memoryType: CAPABILITY, level: EVENT, supersedes: {id}})`,
		`(input: {key: "sweep.probe", value: "probe", memoryType: ORGANIZATIONAL, dependsOn: [{id}]})`,
		`(input: {id: {id}, key: "sweep.probe", value: "probe", memoryType: USER})`,
	},
	"Mutation.writeFacts": {
		`(input: [{key: "sweep.probe", value: "probe", memoryType: ORGANIZATIONAL, supersedes: {id}}])`,
		`(input: [{key: "sweep.probe", value: "probe", memoryType: ORGANIZATIONAL}, {key: {key}, value: "probe", memoryType: ORGANIZATIONAL, supersedes: {key}, supersessionKind: CORRECTION}])`,
		`(input: [{key: "sweep.probe", value: "probe", memoryType: ORGANIZATIONAL, dependsOn: [{id}]}, {id: {id}, key: "sweep.probe", value: "probe", memoryType: USER}])`,
	},
	"Mutation.forgetFact": {"(id: {id})"},

	"Query.stateAssertion":  {"(id: {id}, asOf: {time}, knownAt: {time})"},
	"Query.stateAssertions": {"(first: 500)", "(last: 500)", "(filter: {subject: {name}})", "(filter: {context: {name}}, first: 500)"},
	"Query.conflict":        {"(id: {id})", "(id: {id}, asOf: {time}, knownAt: {time})"},
	"Query.conflicts":       {"(first: 500)", "(last: 500, asOf: {time})", "(filter: {subject: {key}})", "(filter: {subject: {name}})", "(first: 500, asOf: {time}, knownAt: {time})"},
	"Query.decision":        {"(id: {id})", "(id: {id}, asOf: {time}, knownAt: {time})"},
	"Query.entity":          {"(id: {name})"},
	"Mutation.assertState": {
		`(input: {{slot}, object: "probe", epistemicStatus: INFERENCE, validity: {mode: UNTIL_CHANGED}, provenance: {author: {kind: "agent", id: "sweep"}}})`,
		`(input: {subject: "Entity#1", predicate: "probe", object: {name}, context: {name}, epistemicStatus: INFERENCE, validity: {mode: UNTIL_EVENT, untilEvent: {name}}, provenance: {author: {kind: "agent", id: "sweep"}}})`,
	},
	"Mutation.signalEvent":     {"(name: {name})", `(name: "b-event", context: {name})`},
	"Mutation.resolveConflict": {`(id: {id}, keep: "F-none", reason: "sweep")`, `(id: "CF-none", keep: {id}, reason: "sweep")`},
	"Mutation.promoteState":    {`(id: {id}, decision: {reason: "sweep"})`, `(id: "ST-none", decision: {reason: "sweep", key: {key}})`},

	"Query.assembleContext": {
		"(input: {query: {key}, budget: 100000})",
		"(input: {query: {name}, budget: 100000, sessionId: {name}})",
		`(input: {query: "policy discount home owner price lesson salary", budget: 100000, asOf: {time}, knownAt: {time}})`,
	},
	"Query.transcript":               {"(sessionId: {name})"},
	"Mutation.putWorkingItem":        {`(input: {sessionId: {name}, key: "sweep.item", value: "probe", itemType: CONTEXT})`, `(input: {sessionId: "sweep-s", key: {key}, value: "probe", itemType: OBJECTIVE})`},
	"Mutation.recordTurn":            {`(input: {sessionId: {name}, speaker: USER, text: "probe"})`, `(input: {sessionId: "sweep-s", speaker: USER, speakerId: {name}, text: "Scratch that."})`},
	"Query.previewTurn":              {`(input: {sessionId: {name}, speaker: USER, text: "probe"})`, `(input: {sessionId: "sweep-s", speaker: USER, speakerId: {name}, text: "Ignore what I said about the probe."})`},
	"Mutation.completeObjective":     {"(input: {sessionId: {name}})", `(input: {sessionId: "sweep-s", promote: [{key}]})`},
	"Query.consolidationRun":         {"(id: {id})"},
	"Query.consolidationRuns":        {`(capability: "pricing", first: 100)`, "(capability: {name})"},
	"Mutation.consolidateCapability": {`(capability: "pricing")`, "(capability: {name})"},
	"Mutation.setEnvironment":        {`(input: [{key: {key}, value: "probe", scope: ORGANIZATION}])`, `(input: [{key: {name}, value: "probe"}])`},

	"Query.profile":           {"", `(userId: "b-user")`, `(userId: "b-boss")`, `(userId: "alice")`},
	"Mutation.upsertProfile":  {`(input: {userId: "b-user", title: "probe", reportsTo: "b-boss"})`, `(input: {userId: "b-boss", reportsTo: "b-user"})`},
	"Query.searchDocuments":   {`(query: "canary rebate vendor deal", first: 100)`, `(query: "b-rebates u-rebates u-deals")`},
	"Mutation.ingestDocument": {`(input: {id: "b-rebates", title: "probe", text: "probe", acl: {users: ["b-user", "mallory"], groups: ["deal-room"]}})`},
}

// echoes are fields whose answer repeats their arguments in free text (the
// assembled prompt), so they are checked for canaries and errors but not
// compared with the answer for a ghost reference.
var echoes = map[string]bool{"Query.assembleContext": true}

// minting are queries whose answers carry ids minted for the call (a
// preview's turn), which differ from call to call: ids that are not the
// victim's are masked before answers are compared, so a victim's id in an
// answer still shows.
var minting = map[string]bool{"Query.previewTurn": true}

var mintedID = regexp.MustCompile(`\b[A-Z]{1,3}-[0-9A-HJKMNP-TV-Z]{26}\b`)

func maskMinted(s string, v victim) string {
	return mintedID.ReplaceAllStringFunc(s, func(id string) string {
		if slices.Contains(v.ids, id) {
			return id
		}
		return "MINTED"
	})
}

// victim is what the attacker aims at.
type victim struct {
	ids, keys, names, slots []string
	canaries                []string
	times                   []string
	// dump is a query, run as each of tokens, whose answers must not
	// change during the sweep.
	dump   string
	tokens []string
}

// ghost references name nothing; a query must answer for a victim's
// reference exactly as for these.
const (
	ghostID   = "F-00000000000000000000GHOST"
	ghostKey  = "sweep.ghost.key"
	ghostName = "Entity#sweep-ghost"
)

func TestSweepCoversSchema(t *testing.T) {
	schema := loadSchema(t)
	var missing, stale []string
	for _, f := range rootFields(schema) {
		if _, ok := cases[f]; !ok {
			missing = append(missing, f)
		}
	}
	for f := range cases {
		if !slices.Contains(rootFields(schema), f) {
			stale = append(stale, f)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	for _, f := range missing {
		t.Errorf("schema field %s has no case in the isolation sweep: add a line for it to cases in internal/sweep/sweep_test.go", f)
	}
	for _, f := range stale {
		t.Errorf("the isolation sweep has a case for %s, which the schema does not have: remove or rename it", f)
	}
}

// TestSweepOrganizations: organization A, with the same user id,
// capability and authority as B's users, reaches nothing of B.
func TestSweepOrganizations(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, unlimited)
	v := seedOrg(t, env)
	attacker := apitest.Identity("org-a", "b-user")
	attacker.Authority, attacker.Capability, attacker.Department = "CFO", "pricing", "Finance"
	attacker.Permissions = []string{"finance.read"}
	human := attacker
	human.Kind, human.AgentLevel = authority.KindUser, ""
	sweep(t, env, v, apitest.Token(t, attacker), apitest.Token(t, human))
}

// TestSweepUsers: a second user of the same organization, with the same
// capability, reaches none of the first user's memory and none of the
// organization's facts restricted away from them.
func TestSweepUsers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, unlimited)
	v := seedUser(t, env)
	attacker := apitest.Identity("org-u", "mallory")
	attacker.Authority, attacker.Department = "Sales Rep", "Sales"
	human := attacker
	human.Kind, human.AgentLevel = authority.KindUser, ""
	sweep(t, env, v, apitest.Token(t, attacker), apitest.Token(t, human))
}

// unlimited lifts the request limits: the sweep's batched requests are
// deliberately large, and the limits have their own tests.
func unlimited(o *server.Options) {
	o.Limits = graph.Limits{MaxComplexity: 1 << 30, MaxDepth: 64, MaxAliases: 1 << 20, MaxOperations: 64, ParserTokens: 1 << 24, MaxQueryBytes: 64 << 20, MaxSelections: 1 << 24}
	o.MaxBodyBytes = 64 << 20
	// Every mutation in one request runs hundreds of cases under the race
	// detector on a shared machine: it must not hit the request deadline.
	o.RequestTimeout = 10 * time.Minute
}

// sweep runs every case against v as the attacker, then as each of others
// (other kinds of caller, whose queries run in batches only): first every
// query (compared with the answer for a ghost reference, while the
// attackers have written nothing yet), then every mutation, then every
// query again (to catch leaks through what the mutations made, in batches
// only); each field also in one aliased request, and each operation type's
// fields all in one request.
func sweep(t *testing.T, env *apitest.Env, v victim, attacker string, others ...string) {
	t.Helper()
	schema := loadSchema(t)
	before := dump(t, env, v)
	for _, phase := range []struct {
		op           string
		ghost, alone bool
	}{{"Query", true, true}, {"Mutation", false, true}, {"Query", false, false}} {
		for i, attacker := range append([]string{attacker}, others...) {
			alone := phase.alone && (i == 0 || phase.op == "Mutation")
			var all []string
			for _, field := range rootFields(schema) {
				op, name, _ := strings.Cut(field, ".")
				if op != phase.op {
					continue
				}
				def := schema.Types[op].Fields.ForName(name)
				sel := selection(schema, def.Type.Name(), 2)
				var batch []string
				for _, args := range cases[field] {
					for _, c := range expand(args, v) {
						doc := name + c.args + sel
						batch = append(batch, fmt.Sprintf("a%d: %s", len(batch), doc))
						all = append(all, fmt.Sprintf("f%d: %s", len(all), doc))
						if !alone {
							continue
						}
						res := env.Do(t, attacker, strings.ToLower(op)+" { "+doc+" }", nil)
						check(t, v, field+c.args, res)
						if phase.ghost && c.ref != "" && !echoes[field] {
							ghost := env.Do(t, attacker, strings.ToLower(op)+" { "+name+c.ghost+sel+" }", nil)
							got, want := strings.ReplaceAll(string(res.Raw), jsonString(c.ref), jsonString(c.ghostRef)), string(ghost.Raw)
							if minting[field] {
								got, want = maskMinted(got, v), maskMinted(want, v)
							}
							if got != want {
								t.Errorf("%s%s answers differently for the victim's reference than for nothing:\n got  %s\n want %s", field, c.args, got, want)
							}
						}
					}
				}
				if len(batch) > 1 {
					check(t, v, field+" (aliased)", env.Do(t, attacker, strings.ToLower(op)+" { "+strings.Join(batch, "\n")+" }", nil))
				}
			}
			op := strings.ToLower(phase.op)
			check(t, v, phase.op+" (every field in one request)", env.Do(t, attacker, op+" { "+strings.Join(all, "\n")+" }", nil))
			// Several operations in one document, one selected by name.
			doc := "query One { me { organization } }\n" + op + " Two { " + strings.Join(all[:min(len(all), 12)], "\n") + " }"
			body, _ := json.Marshal(map[string]any{"query": doc, "operationName": "Two"})
			check(t, v, "named operations", env.Post(t, attacker, body))
		}
	}
	if after := dump(t, env, v); after != before {
		t.Errorf("the victim's state changed during the sweep:\nbefore %s\nafter  %s", before, after)
	}
}

func check(t *testing.T, v victim, what string, res apitest.Response) {
	t.Helper()
	for _, c := range v.canaries {
		if strings.Contains(string(res.Raw), c) {
			t.Errorf("%s leaks canary %q: %s", what, c, res.Raw)
		}
	}
	for _, e := range res.Errors {
		if e.Extensions["code"] == "INTERNAL" {
			t.Errorf("%s: internal error: %s", what, res.Raw)
		}
	}
}

func dump(t *testing.T, env *apitest.Env, v victim) string {
	t.Helper()
	var b strings.Builder
	for _, tok := range v.tokens {
		res := env.Do(t, tok, v.dump, nil)
		if len(res.Errors) > 0 {
			t.Fatalf("dump: %s", res.Raw)
		}
		b.Write(res.Raw)
	}
	return b.String()
}

type call struct {
	args, ghost   string // the arguments with the victim's and a ghost reference
	ref, ghostRef string // the reference substituted, if any
}

// expand substitutes the placeholders of args, once per value.
func expand(args string, v victim) []call {
	if strings.Contains(args, "{slot}") {
		var out []call
		for _, sl := range v.slots {
			out = append(out, expand(strings.ReplaceAll(args, "{slot}", sl), v)...)
		}
		return out
	}
	for _, ph := range []string{"{id}", "{key}", "{name}"} {
		if !strings.Contains(args, ph) {
			continue
		}
		values, ghost := v.ids, ghostID
		switch ph {
		case "{key}":
			values, ghost = v.keys, ghostKey
		case "{name}":
			values, ghost = v.names, ghostName
		}
		var out []call
		for _, val := range values {
			for _, c := range expand(strings.ReplaceAll(args, ph, jsonString(val)), v) {
				c.ghost = strings.ReplaceAll(c.ghost, jsonString(val), jsonString(ghost))
				if c.ref == "" {
					c.ref, c.ghostRef = val, ghost
				}
				out = append(out, c)
			}
		}
		return out
	}
	if strings.Contains(args, "{time}") {
		var out []call
		for _, tm := range v.times {
			out = append(out, expand(strings.ReplaceAll(args, "{time}", jsonString(tm)), v)...)
		}
		return out
	}
	return []call{{args: args, ghost: args}}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func loadSchema(t *testing.T) *ast.Schema {
	t.Helper()
	files, err := filepath.Glob("../../graph/*.graphqls")
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema files: %v", err)
	}
	var srcs []*ast.Source
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, &ast.Source{Name: f, Input: string(b)})
	}
	s, gerr := gqlparser.LoadSchema(srcs...)
	if gerr != nil {
		t.Fatalf("load schema: %v", gerr)
	}
	return s
}

// rootFields lists every Query and Mutation field as "Query.name".
func rootFields(s *ast.Schema) []string {
	var out []string
	// Subscriptions are not requests over POST: their isolation across
	// organizations, users and restrictions is swept over a real websocket
	// by TestSubscriptionIsolation in package server.
	for _, root := range []*ast.Definition{s.Query, s.Mutation} {
		if root == nil {
			continue
		}
		for _, f := range root.Fields {
			if !strings.HasPrefix(f.Name, "__") {
				out = append(out, root.Name+"."+f.Name)
			}
		}
	}
	return out
}

// isRecord reports whether type name is a record (it has an id), or a
// union or interface of records; other object types are values or plumbing.
func isRecord(s *ast.Schema, name string) bool {
	def := s.Types[name]
	if def == nil {
		return false
	}
	if def.Kind == ast.Union || def.Kind == ast.Interface {
		return true
	}
	return def.Fields.ForName("id") != nil
}

func isLeaf(s *ast.Schema, name string) bool {
	def := s.Types[name]
	return def == nil || def.Kind == ast.Scalar || def.Kind == ast.Enum
}

// selection returns a selection set of every field of type name, records
// nested depth levels deep (1: no edge to another record; value objects,
// connections and edges do not count), skipping fields with required
// arguments; "" for leaf types. Two levels reach every record a root field
// returns and every record one of its edges points to, which is where a
// leak would show.
func selection(s *ast.Schema, name string, depth int) string {
	def := s.Types[name]
	if def == nil || def.Kind == ast.Scalar || def.Kind == ast.Enum {
		return ""
	}
	var parts []string
	switch def.Kind {
	case ast.Union, ast.Interface:
		parts = append(parts, "__typename")
		for _, p := range s.GetPossibleTypes(def) {
			if sub := selection(s, p.Name, depth-1); sub != "" {
				parts = append(parts, "... on "+p.Name+sub)
			}
		}
	default:
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") || slices.ContainsFunc(f.Arguments, func(a *ast.ArgumentDefinition) bool {
				return a.Type.NonNull && a.DefaultValue == nil
			}) {
				continue
			}
			sub := f.Type.Name()
			switch {
			case isLeaf(s, sub):
				parts = append(parts, f.Name)
			case !isRecord(s, sub) && sub != name:
				// Relay plumbing and value objects (a source, a
				// provenance) do not count as a level.
				parts = append(parts, f.Name+selection(s, sub, depth))
			case !isRecord(s, sub):
				// A value object that holds its own kind (a profile's
				// reporting chain) counts as a level, or it never ends.
				if depth > 1 {
					parts = append(parts, f.Name+selection(s, sub, depth-1))
				}
			case depth > 1:
				parts = append(parts, f.Name+selection(s, sub, depth-1))
			}
		}
	}
	if len(parts) == 0 {
		return " { __typename }"
	}
	return " { " + strings.Join(parts, " ") + " }"
}

// seeder writes a victim's records and remembers their references.
type seeder struct {
	t   *testing.T
	env *apitest.Env
	v   *victim
	n   int
}

// canary returns a fresh canary string.
func (s *seeder) canary(what string) string {
	s.n++
	c := fmt.Sprintf("CANARY-%s-%03d", what, s.n)
	s.v.canaries = append(s.v.canaries, c)
	return c
}

// profile writes the profile of user as tok (a service), every text a
// canary.
func (s *seeder) profile(tok, user, reportsTo string) {
	s.t.Helper()
	in := map[string]any{
		"userId": user, "displayName": s.canary("display"), "title": s.canary("title"), "department": s.canary("dept"),
		"communicationStyle": s.canary("style"), "ocean": map[string]any{"openness": 1, "conscientiousness": 2, "extraversion": 3, "agreeableness": 4, "neuroticism": 5},
	}
	if reportsTo != "" {
		in["reportsTo"] = reportsTo
	}
	s.env.MustDo(s.t, tok, `mutation($in: ProfileInput!) { upsertProfile(input: $in) { userId } }`, map[string]any{"in": in}, &struct{}{})
}

// document ingests a document with a canary in its title, text and
// source as tok (a service).
func (s *seeder) document(tok, id string, acl map[string]any) {
	s.t.Helper()
	in := map[string]any{
		"id": id, "title": s.canary("doctitle"), "text": "Vendor rebate deal terms: " + s.canary("doctext"),
		"sourceUri": "https://docs.example.com/" + s.canary("docsource"), "acl": acl,
	}
	s.env.MustDo(s.t, tok, `mutation($in: DocumentInput!) { ingestDocument(input: $in) { id } }`, map[string]any{"in": in}, &struct{}{})
}

// write writes a fact as tok and records its id and key.
func (s *seeder) write(tok string, in map[string]any) string {
	s.t.Helper()
	var out struct{ WriteFact struct{ ID, Key string } }
	s.env.MustDo(s.t, tok, `mutation($in: FactInput!) { writeFact(input: $in) { id key } }`, map[string]any{"in": in}, &out)
	s.v.ids = append(s.v.ids, out.WriteFact.ID)
	if !slices.Contains(s.v.keys, out.WriteFact.Key) {
		s.v.keys = append(s.v.keys, out.WriteFact.Key)
	}
	s.env.Clock.Advance(time.Minute)
	return out.WriteFact.ID
}

// assert asserts state in a slot as tok, with canaries in its object,
// provenance, refs and tags, and records its references.
func (s *seeder) assert(tok, subject, predicate, context string, validity map[string]any) string {
	s.t.Helper()
	in := map[string]any{
		"subject": subject, "predicate": predicate, "object": s.canary("object"), "context": context,
		"epistemicStatus": "INFERENCE", "validity": validity,
		"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": s.canary("author")},
			"origin": map[string]any{"channel": "chat", "sessionId": s.canary("session")}, "confidence": 0.5, "method": "inferred"},
		"refs": []map[string]any{{"kind": "turn", "locator": s.canary("locator"), "quote": s.canary("quote")}},
		"tags": []string{s.canary("tag")},
	}
	var out struct{ AssertState struct{ ID string } }
	s.env.MustDo(s.t, tok, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": in}, &out)
	s.v.ids = append(s.v.ids, out.AssertState.ID)
	for _, n := range []string{subject, predicate, context} {
		if !slices.Contains(s.v.names, n) {
			s.v.names = append(s.v.names, n)
		}
	}
	if ev, ok := validity["untilEvent"].(string); ok && !slices.Contains(s.v.names, ev) {
		s.v.names = append(s.v.names, ev)
	}
	if sl := fmt.Sprintf("subject: %s, predicate: %s, context: %s", jsonString(subject), jsonString(predicate), jsonString(context)); !slices.Contains(s.v.slots, sl) {
		s.v.slots = append(s.v.slots, sl)
	}
	s.env.Clock.Advance(time.Minute)
	return out.AssertState.ID
}

// conflictOf returns the id of the open conflict of assertion id.
func (s *seeder) conflictOf(tok, id string) string {
	s.t.Helper()
	var out struct {
		StateAssertion struct{ Conflicts []struct{ ID string } }
	}
	s.env.MustDo(s.t, tok, `query($id: ID!) { stateAssertion(id: $id) { conflicts { id } } }`, map[string]any{"id": id}, &out)
	if len(out.StateAssertion.Conflicts) == 0 {
		s.t.Fatalf("assertion %s is in no conflict", id)
	}
	return out.StateAssertion.Conflicts[0].ID
}

// item puts a working-set item with a canary value in session as tok.
func (s *seeder) item(tok, session, key string) {
	s.t.Helper()
	var out struct{ PutWorkingItem struct{ ID string } }
	s.env.MustDo(s.t, tok, `mutation($in: WorkingItemInput!) { putWorkingItem(input: $in) { id } }`, map[string]any{"in": map[string]any{
		"sessionId": session, "key": key, "value": s.canary("item"), "itemType": "ARTIFACT", "ttl": 86400}}, &out)
	s.v.ids = append(s.v.ids, out.PutWorkingItem.ID)
	s.name(session)
	s.name(key)
}

// turn records a conversation turn with a canary text in session as tok.
func (s *seeder) turn(tok, session string) {
	s.t.Helper()
	var out struct {
		RecordTurn struct{ Turn struct{ ID string } }
	}
	s.env.MustDo(s.t, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } } }`, map[string]any{"in": map[string]any{
		"sessionId": session, "speaker": "USER", "text": "we settled on " + s.canary("turn")}}, &out)
	s.v.ids = append(s.v.ids, out.RecordTurn.Turn.ID)
	s.name(session)
}

// environment sets an environment entry with a canary value as tok.
func (s *seeder) environment(tok, scope, key string) {
	s.t.Helper()
	var out struct{ SetEnvironment []struct{ ID string } }
	s.env.MustDo(s.t, tok, `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { id } }`, map[string]any{"in": []map[string]any{{
		"key": key, "value": s.canary("env"), "scope": scope}}}, &out)
	for _, e := range out.SetEnvironment {
		s.v.ids = append(s.v.ids, e.ID)
	}
	s.name(key)
}

func (s *seeder) name(n string) {
	if !slices.Contains(s.v.names, n) {
		s.v.names = append(s.v.names, n)
	}
}

func (s *seeder) forget(tok, id string) {
	s.t.Helper()
	var out struct{ ForgetFact struct{ ID string } }
	s.env.MustDo(s.t, tok, `mutation($id: ID!) { forgetFact(id: $id) { id } }`, map[string]any{"id": id}, &out)
}

// seedOrg seeds organization B with canaries in every kind of record.
func seedOrg(t *testing.T, env *apitest.Env) victim {
	v := &victim{times: []string{apitest.Start.Add(3 * time.Minute).Format(time.RFC3339)}}
	s := &seeder{t: t, env: env, v: v}
	cfoID := apitest.Identity("org-b", "b-user")
	cfoID.Authority, cfoID.Capability, cfoID.Department = "CFO", "pricing", "Finance"
	cfoID.UserName = s.canary("username")
	cfoID.Permissions = []string{"finance.read", s.canary("permission")}
	internID := cfoID
	internID.UserID, internID.Authority, internID.AgentLevel, internID.UserName = "b-intern", "Intern", authority.AgentJunior, s.canary("username")
	humanID := cfoID
	humanID.Kind, humanID.AgentLevel = authority.KindUser, ""
	cfo, intern, human := apitest.Token(t, cfoID), apitest.Token(t, internID), apitest.Token(t, humanID)

	// Organizational knowledge: a policy, a chain with a correction, a
	// derived fact flagged for review, a hypothetical, a restricted fact,
	// a refused lower-authority supersession.
	policy := s.write(cfo, map[string]any{"key": "discount.max", "value": s.canary("policy"), "source": map[string]any{"type": "POLICY", "identity": s.canary("source")},
		"constraintType": s.canary("ctype")})
	s.write(intern, map[string]any{"key": "discount.max", "value": s.canary("offer"), "memoryType": "ORGANIZATIONAL", "supersedes": policy, "reason": s.canary("reason")})
	v1 := s.write(cfo, map[string]any{"key": "hq.city", "value": s.canary("v1"), "memoryType": "ORGANIZATIONAL", "scope": "PROJECT", "scopeId": s.canary("scope")})
	v2 := s.write(cfo, map[string]any{"key": "hq.city", "value": s.canary("v2"), "memoryType": "ORGANIZATIONAL", "supersedes": v1, "supersessionKind": "CORRECTION", "reason": s.canary("reason")})
	s.write(cfo, map[string]any{"key": "hq.distance", "value": map[string]any{"km": s.canary("derived")}, "memoryType": "ORGANIZATIONAL", "dependsOn": []string{v2}})
	s.write(cfo, map[string]any{"key": "hq.city", "value": s.canary("v3"), "memoryType": "ORGANIZATIONAL", "supersedes": "hq.city"})
	s.write(cfo, map[string]any{"key": "plan.b", "value": s.canary("hypo"), "memoryType": "ORGANIZATIONAL", "scope": "HYPOTHETICAL"})
	s.write(cfo, map[string]any{"key": "salary.band", "value": s.canary("restricted"), "memoryType": "ORGANIZATIONAL",
		"restrictedTo": map[string]any{"roles": []string{"executive"}, "permissions": []string{"finance.read"}, "minAuthority": "executive", "departments": []string{"Finance"}}})
	// Capability memory at every level.
	for _, lvl := range []string{"EVENT", "HEURISTIC", "STRATEGY"} {
		s.write(cfo, map[string]any{"key": "lesson." + strings.ToLower(lvl), "value": s.canary("cap"), "memoryType": "CAPABILITY", "level": lvl})
	}
	// A consolidation run: three alike events make a strategy.
	lesson := s.canary("consolidation")
	for range 3 {
		s.write(cfo, map[string]any{"key": "lesson.repeat", "value": "bundle the seats before discounting " + lesson, "memoryType": "CAPABILITY", "level": "EVENT"})
	}
	var run struct {
		ConsolidateCapability struct {
			ID       string
			Clusters []struct{ FactID string }
		}
	}
	env.MustDo(t, cfo, `mutation { consolidateCapability(capability: "pricing") { id clusters { factId } } }`, nil, &run)
	if len(run.ConsolidateCapability.Clusters) != 1 {
		t.Fatalf("seeding consolidated %+v, want one cluster", run.ConsolidateCapability)
	}
	v.ids = append(v.ids, run.ConsolidateCapability.ID, run.ConsolidateCapability.Clusters[0].FactID)
	// User memory: a chain, then a forgotten fact (a tombstone and an
	// audit entry).
	u1 := s.write(cfo, map[string]any{"key": "user.home", "value": s.canary("home"), "memoryType": "USER"})
	u2 := s.write(cfo, map[string]any{"key": "user.home", "value": s.canary("home"), "memoryType": "USER", "supersedes": u1, "reason": s.canary("reason")})
	s.write(cfo, map[string]any{"key": "user.diet", "value": s.canary("diet"), "memoryType": "USER", "source": map[string]any{"type": "USER", "turnIndex": 3}})
	s.forget(human, u2)

	// State assertions: a revocation (UNTIL_CHANGED), a conflict between
	// leases and its resolution (a decision), an assertion waiting for an
	// event, a promotion to a fact; and the conflict opened by the refused
	// supersession above.
	a1 := s.assert(cfo, "Entity#b1", "owner", "ctx-b", map[string]any{"mode": "UNTIL_CHANGED"})
	s.assert(cfo, "Entity#b1", "owner", "ctx-b", map[string]any{"mode": "UNTIL_CHANGED"})
	until := apitest.Start.Add(5 * time.Hour).Format(time.RFC3339)
	s.assert(cfo, "Entity#b2", "price", "ctx-b", map[string]any{"mode": "UNTIL_TIME", "expiresAt": until})
	t2 := s.assert(cfo, "Entity#b2", "price", "ctx-b", map[string]any{"mode": "UNTIL_TIME", "expiresAt": until})
	s.assert(cfo, "Entity#b3", "phase", "ctx-b2", map[string]any{"mode": "UNTIL_EVENT", "untilEvent": "b-event"})
	p := s.assert(cfo, "Entity#b4", "preferred_language", "ctx-b", map[string]any{"mode": "UNTIL_CHANGED"})
	var conf struct {
		Conflicts struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, cfo, `{ conflicts(first: 500) { edges { node { id } } } }`, nil, &conf)
	if len(conf.Conflicts.Edges) < 2 {
		t.Fatalf("seeding opened %d conflicts, want the lease conflict and the authority conflict", len(conf.Conflicts.Edges))
	}
	for _, e := range conf.Conflicts.Edges {
		v.ids = append(v.ids, e.Node.ID)
	}
	var res struct {
		ResolveConflict struct{ Decision struct{ ID string } }
	}
	env.MustDo(t, cfo, `mutation($id: ID!, $keep: ID!, $r: String!) { resolveConflict(id: $id, keep: $keep, reason: $r) { decision { id } } }`,
		map[string]any{"id": s.conflictOf(cfo, t2), "keep": t2, "r": s.canary("decision")}, &res)
	v.ids = append(v.ids, res.ResolveConflict.Decision.ID)
	var prom struct{ PromoteState struct{ ID, Key string } }
	env.MustDo(t, cfo, `mutation($id: ID!, $r: String!) { promoteState(id: $id, decision: {reason: $r}) { id key } }`,
		map[string]any{"id": p, "r": s.canary("decision")}, &prom)
	v.ids = append(v.ids, prom.PromoteState.ID)
	v.keys = append(v.keys, prom.PromoteState.Key)
	_ = a1

	// Working set, turns and environment; a completed objective (an
	// archived transcript, an item promoted to a fact).
	s.item(cfo, "sess-b", "draft.offer")
	s.turn(cfo, "sess-b")
	s.item(cfo, "sess-b-done", "chosen_vendor")
	s.turn(cfo, "sess-b-done")
	var done struct {
		CompleteObjective struct{ Promoted []struct{ ID, Key string } }
	}
	env.MustDo(t, cfo, `mutation { completeObjective(input: {sessionId: "sess-b-done", promote: ["chosen_vendor"]}) { promoted { id key } } }`, nil, &done)
	for _, f := range done.CompleteObjective.Promoted {
		v.ids, v.keys = append(v.ids, f.ID), append(v.keys, f.Key)
	}
	s.environment(cfo, "ORGANIZATION", "b.office.weather")
	s.environment(cfo, "USER", "b.user.location")

	// Identity profiles: b-user reports to b-boss; every field a canary.
	svc := cfoID
	svc.UserID, svc.Kind, svc.AgentLevel = "b-hr", authority.KindService, ""
	s.profile(apitest.Token(t, svc), "b-boss", "")
	s.profile(apitest.Token(t, svc), "b-user", "b-boss")
	// A document for b-user and the deal-room group.
	s.document(apitest.Token(t, svc), "b-rebates", map[string]any{"users": []string{"b-user"}, "groups": []string{"deal-room"}})

	v.tokens = []string{cfo, intern}
	v.dump = dumpQuery(v, "")
	return *v
}

// seedUser seeds one user's memory, and organization facts restricted
// away from everyone but them, in organization org-u.
func seedUser(t *testing.T, env *apitest.Env) victim {
	v := &victim{times: []string{apitest.Start.Add(3 * time.Minute).Format(time.RFC3339)}}
	s := &seeder{t: t, env: env, v: v}
	aliceID := apitest.Identity("org-u", "alice")
	aliceID.Authority, aliceID.Department, aliceID.UserName = "Sales Rep", "Sales", s.canary("username")
	perm := s.canary("permission")
	aliceID.Permissions = []string{perm}
	humanID := aliceID
	humanID.Kind, humanID.AgentLevel = authority.KindUser, ""
	agent, human := apitest.Token(t, aliceID), apitest.Token(t, humanID)

	u1 := s.write(agent, map[string]any{"key": "user.home", "value": s.canary("home"), "memoryType": "USER", "source": map[string]any{"identity": s.canary("source")}})
	u2 := s.write(agent, map[string]any{"key": "user.home", "value": s.canary("home"), "memoryType": "USER", "supersedes": u1, "reason": s.canary("reason")})
	s.write(agent, map[string]any{"key": "user.commute", "value": s.canary("derived"), "memoryType": "USER", "dependsOn": []string{u2}})
	u3 := s.write(agent, map[string]any{"key": "user.health", "value": s.canary("health"), "memoryType": "USER"})
	s.forget(human, u3)
	s.item(agent, "sess-alice", "draft.note")
	s.turn(agent, "sess-alice")
	s.environment(agent, "USER", "alice.location")
	s.write(agent, map[string]any{"key": "deal.secret", "value": s.canary("restricted"), "memoryType": "ORGANIZATIONAL",
		"restrictedTo": map[string]any{"permissions": []string{perm}}})
	// alice's profile: what is hers alone (communication style and
	// assessments) is a canary; the rest the organization may read.
	svc := aliceID
	svc.UserID, svc.UserName, svc.Kind, svc.AgentLevel = "u-hr", "HR sync", authority.KindService, ""
	env.MustDo(t, apitest.Token(t, svc), `mutation($in: ProfileInput!) { upsertProfile(input: $in) { userId } }`, map[string]any{"in": map[string]any{
		"userId": "alice", "title": "Sales Rep", "communicationStyle": s.canary("style"),
		"disc": map[string]any{"dominance": 17, "influence": 17, "steadiness": 17, "conscientiousness": 17},
	}}, &struct{}{})
	// A document for alice alone, and one for a group mallory is not in.
	s.document(apitest.Token(t, svc), "u-rebates", map[string]any{"users": []string{"alice"}})
	s.document(apitest.Token(t, svc), "u-deals", map[string]any{"groups": []string{s.canary("group")}})
	v.tokens = []string{agent}
	// Only what is alice's alone: the organization's shared facts may
	// legitimately change when a colleague writes.
	v.dump = dumpQuery(v, "USER")
	return *v
}

// dumpQuery reads everything of the victim: the facts (of memory type mt
// when set) with every edge, and each id's fact and audit trail.
func dumpQuery(v *victim, mt string) string {
	filter := "{validity: ALL}"
	if mt != "" {
		filter = "{validity: ALL, memoryType: " + mt + "}"
	}
	q := []string{"facts(filter: " + filter + ", first: 500) { edges { node { id key value isValid needsReview validFrom validTo recordedAt supersededAt level forgotten { by at } supersession { reason actor } supersedes { id } supersededBy { id } dependsOn { id } derivedFacts { id } restrictedTo { roles permissions minAuthority departments } } } }"}
	for i, id := range v.ids {
		q = append(q, fmt.Sprintf("f%d: fact(id: %s) { id value isValid } t%d: auditTrail(recordId: %s) { id action actor by detail }", i, jsonString(id), i, jsonString(id)))
	}
	if mt == "" {
		q = append(q, "stateAssertions(first: 500) { edges { node { id status endedAt updatedAt revokedBy { id } decision { id } promotedTo { id } conflicts { id } history { id status } } } }",
			"conflicts(first: 500) { edges { node { id status lastSeenAt resolvedAt candidates { __typename ... on Fact { id isValid } ... on StateAssertion { id status } } decision { id kept { __typename } } } } }")
		for i, id := range v.ids {
			q = append(q, fmt.Sprintf("sa%d: stateAssertion(id: %s) { id status } cf%d: conflict(id: %s) { id status }", i, jsonString(id), i, jsonString(id)))
		}
		for i, n := range []string{"b-user", "b-boss"} {
			q = append(q, fmt.Sprintf("pr%d: profile(userId: %s) { userId displayName title department reportsTo communicationStyle updatedAt reportingChain { userId } directReports { userId } }", i, jsonString(n)))
		}
		q = append(q, `sd: searchDocuments(query: "canary rebate vendor deal", first: 100) { id title text score }`)
		q = append(q, `ac: assembleContext(input: {query: "policy discount home owner price lesson salary vendor draft", budget: 100000, sessionId: "sess-b"}) { text withheld included { id } excluded { id reason } }`)
		for i, n := range v.names {
			q = append(q, fmt.Sprintf("tr%d: transcript(sessionId: %s) { id kind text value archivedAt promotedTo }", i, jsonString(n)))
		}
		for i, n := range v.names {
			q = append(q, fmt.Sprintf("e%d: entity(id: %s) { id assertionsAsSubject { id status } facts { id } conflicts { id status } }", i, jsonString(n)))
		}
		for i, k := range v.keys {
			q = append(q, fmt.Sprintf("c%d: currentValue(key: %s) { id } h%d: factHistory(key: %s) { id isValid }", i, jsonString(k), i, jsonString(k)))
		}
	}
	return "query { " + strings.Join(q, "\n") + " }"
}
