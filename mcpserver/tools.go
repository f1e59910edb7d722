package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type tools struct {
	gql   *GraphQL
	token func(*mcp.CallToolRequest) string
}

// call runs one operation and answers its data: the JSON as text and as
// structured content, or a tool error with GraphQL's code and message.
func (t *tools) call(ctx context.Context, req *mcp.CallToolRequest, query string, vars map[string]any, field string) (*mcp.CallToolResult, any, error) {
	data, err := t.gql.Do(ctx, t.token(req), query, vars)
	if err != nil {
		return toolError(err), nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return toolError(err), nil, nil
	}
	return result(m[field], "")
}

// result answers raw as structured content (wrapped in an object when it
// is not one) and text: text when given, else the JSON.
func result(raw json.RawMessage, text string) (*mcp.CallToolResult, any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return toolError(err), nil, nil
	}
	if _, ok := v.(map[string]any); !ok {
		v = map[string]any{"result": v}
	}
	if text == "" {
		b, err := json.Marshal(v)
		if err != nil {
			return toolError(err), nil, nil
		}
		text = string(b)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: v}, nil, nil
}

// set puts v in m under k unless v is empty.
func set(m map[string]any, k string, v any) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return
		}
	case int:
		if x == 0 {
			return
		}
	case *float64:
		if x == nil {
			return
		}
	case []string:
		if len(x) == 0 {
			return
		}
	case nil:
		return
	}
	m[k] = v
}

const factFields = `id key value text isValid memoryType scope scopeId isConstraint validFrom validTo recordedAt supersededAt
  source { type authority identity }
  supersedes { id value }
  supersededBy { id value }
  supersession { kind detection reason cue actor at }
  retracted { reason actor at }
  forgotten { by at }
  restrictedTo { roles permissions minAuthority departments }`

// AssembleContextInput is the input of assemble_context.
type AssembleContextInput struct {
	Query     string `json:"query" jsonschema:"what the agent is about to answer or do; ranks the facts and evidence included"`
	Budget    int    `json:"budget,omitempty" jsonschema:"hard limit on tokens (cl100k_base) of the context, 0 to 1048576; default 2000"`
	AsOf      string `json:"as_of,omitempty" jsonschema:"RFC 3339 time: the context as it was valid at that time (omit for now)"`
	KnownAt   string `json:"known_at,omitempty" jsonschema:"RFC 3339 time: only what had been recorded by then (omit for everything)"`
	SessionID string `json:"session_id,omitempty" jsonschema:"the conversation session whose working set and recent turns to include"`
}

// WriteFactInput is the input of write_fact.
type WriteFactInput struct {
	Key              string `json:"key" jsonschema:"what the fact is about, e.g. project.deadline or alice.role"`
	Value            any    `json:"value" jsonschema:"the value: a string, number, boolean or JSON object"`
	Supersedes       string `json:"supersedes,omitempty" jsonschema:"a fact id, or a key meaning its current fact, that this fact replaces (atomically)"`
	SupersessionKind string `json:"supersession_kind,omitempty" jsonschema:"CHANGE (the world changed; default) or CORRECTION (the old value was never true)"`
	Reason           string `json:"reason,omitempty" jsonschema:"why the old fact is superseded"`
	SourceType       string `json:"source_type,omitempty" jsonschema:"USER, SYSTEM, TOOL, EXTERNAL or POLICY (an organization's rule; needs manager authority); default: the caller"`
	MemoryType       string `json:"memory_type,omitempty" jsonschema:"USER, CAPABILITY or ORGANIZATIONAL; inferred from the source when absent"`
	Scope            string `json:"scope,omitempty" jsonschema:"GLOBAL, PROJECT, TASK, SESSION, HYPOTHETICAL or DRAFT; inferred from the value when absent"`
	ScopeID          string `json:"scope_id,omitempty" jsonschema:"the project, task or session id of a scoped fact"`
	ValidFrom        string `json:"valid_from,omitempty" jsonschema:"RFC 3339 time the fact became true in the world; default now"`
	ID               string `json:"id,omitempty" jsonschema:"optional client id of the new fact; generated when absent"`
}

// RecordTurnInput is the input of record_turn.
type RecordTurnInput struct {
	SessionID string `json:"session_id" jsonschema:"the conversation session, any stable id you choose"`
	Speaker   string `json:"speaker,omitempty" jsonschema:"USER (default) or ASSISTANT"`
	Text      string `json:"text" jsonschema:"what was said, verbatim"`
	SpeakerID string `json:"speaker_id,omitempty" jsonschema:"who spoke when it was not the token's user: a person of the organization"`
	At        string `json:"at,omitempty" jsonschema:"RFC 3339 time the turn was spoken; default now"`
}

// AssertStateInput is the input of assert_state.
type AssertStateInput struct {
	Subject         string   `json:"subject" jsonschema:"the entity the state is about, e.g. build or Entity#42"`
	Predicate       string   `json:"predicate" jsonschema:"the attribute, e.g. status"`
	Object          any      `json:"object" jsonschema:"the value: any JSON value, or an entity reference such as Entity#42"`
	Context         string   `json:"context" jsonschema:"the thread or context id the state holds in"`
	EpistemicStatus string   `json:"epistemic_status,omitempty" jsonschema:"PERCEPTION, INFERENCE (default), ASSUMPTION or ACTION"`
	Lease           string   `json:"lease,omitempty" jsonschema:"how the state ends: UNTIL_CHANGED (default; a newer assertion of the slot revokes it), UNTIL_TIME (needs expires_at) or UNTIL_EVENT (needs until_event)"`
	ExpiresAt       string   `json:"expires_at,omitempty" jsonschema:"RFC 3339 end of an UNTIL_TIME lease"`
	UntilEvent      string   `json:"until_event,omitempty" jsonschema:"the event name that ends an UNTIL_EVENT lease"`
	Confidence      *float64 `json:"confidence,omitempty" jsonschema:"between 0 and 1"`
	Method          string   `json:"method,omitempty" jsonschema:"how it was obtained, e.g. observed or reported"`
	Tags            []string `json:"tags,omitempty" jsonschema:"free labels"`
}

// FactHistoryInput is the input of fact_history.
type FactHistoryInput struct {
	Key     string `json:"key" jsonschema:"the fact key whose supersession chains to show, oldest first"`
	AsOf    string `json:"as_of,omitempty" jsonschema:"RFC 3339 valid time of the view"`
	KnownAt string `json:"known_at,omitempty" jsonschema:"RFC 3339 transaction time of the view"`
}

// ListConflictsInput is the input of list_conflicts.
type ListConflictsInput struct {
	Status  string `json:"status,omitempty" jsonschema:"OPEN (default) or RESOLVED; ALL for both"`
	Subject string `json:"subject,omitempty" jsonschema:"only conflicts of this subject (for facts: the fact key)"`
	First   int    `json:"first,omitempty" jsonschema:"at most this many, 1 to 500; default 20"`
}

// ResolveConflictInput is the input of resolve_conflict.
type ResolveConflictInput struct {
	ID     string `json:"id" jsonschema:"the conflict id (CF-...)"`
	Keep   string `json:"keep" jsonschema:"the id of the candidate to keep; the others are revoked"`
	Reason string `json:"reason" jsonschema:"why, recorded in the decision"`
}

// SearchFactsInput is the input of search_facts.
type SearchFactsInput struct {
	Query string `json:"query,omitempty" jsonschema:"words to rank the caller's valid facts by relevance"`
	Key   string `json:"key,omitempty" jsonschema:"an exact fact key instead of a query: the facts with that key"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many facts, 1 to 50; default 10"`
}

// ForgetFactInput is the input of forget_fact.
type ForgetFactInput struct {
	ID string `json:"id" jsonschema:"the id of one of your own USER-memory facts to erase"`
}

func (t *tools) register(s *mcp.Server) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "assemble_context", InputSchema: schema[AssembleContextInput](), Annotations: ro, Description: "Get the caller's current context for a request, within a token budget: identity, environment, active constraints, the relevant valid facts (superseded values left out), facts to recalculate, the session's working set and recent turns, each with provenance. Call it before answering. The text result is the context to put in your prompt."}, t.assembleContext)
	mcp.AddTool(s, &mcp.Tool{Name: "write_fact", InputSchema: schema[WriteFactInput](), Description: "Record a durable fact (key and value). Facts are never overwritten: to change one, give supersedes (its id or key) and the old value stays in history as superseded. Returns the new fact."}, t.writeFact)
	mcp.AddTool(s, &mcp.Tool{Name: "record_turn", InputSchema: schema[RecordTurnInput](), Description: "Record one conversation turn in a session. stategraph extracts the statements it makes and applies the supersessions it states (\"actually, the deadline is now Friday\"), in one transaction. Returns the turn and what it changed."}, t.recordTurn)
	mcp.AddTool(s, &mcp.Tool{Name: "assert_state", InputSchema: schema[AssertStateInput](), Description: "Assert short-lived state (\"the build is red\") as a leased hypothesis, not a fact: it ends when changed, at a time, or at an event. Competing assertions of one slot open a conflict. Returns the assertion."}, t.assertState)
	mcp.AddTool(s, &mcp.Tool{Name: "fact_history", InputSchema: schema[FactHistoryInput](), Annotations: ro, Description: "Every supersession chain of a fact key, oldest first: each value, when it held, and what replaced it and why."}, t.factHistory)
	mcp.AddTool(s, &mcp.Tool{Name: "list_conflicts", InputSchema: schema[ListConflictsInput](), Annotations: ro, Description: "List conflicts: competing candidates (state assertions or facts) for one slot, with their decision when resolved."}, t.listConflicts)
	mcp.AddTool(s, &mcp.Tool{Name: "resolve_conflict", InputSchema: schema[ResolveConflictInput](), Description: "Resolve an open conflict by keeping one candidate; the others are revoked. The decision records who, when and why."}, t.resolveConflict)
	mcp.AddTool(s, &mcp.Tool{Name: "search_facts", InputSchema: schema[SearchFactsInput](), Annotations: ro, Description: "Find the caller's valid facts: by relevance to a query, or every fact with an exact key. Returns the facts, most relevant first."}, t.searchFacts)
	mcp.AddTool(s, &mcp.Tool{Name: "forget_fact", InputSchema: schema[ForgetFactInput](), Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}, Description: "Forget one of your own USER-memory facts: its value is erased and only a tombstone (who, when) stays in history. Other memory types cannot be forgotten."}, t.forgetFact)
}

func ptr[T any](v T) *T { return &v }

// enums are the allowed values of the tools' enumerated arguments, GraphQL
// enums, put in the schemas so that a client sees them.
var enums = map[string][]any{
	"supersession_kind": {"CHANGE", "CORRECTION"},
	"source_type":       {"USER", "SYSTEM", "TOOL", "EXTERNAL", "POLICY"},
	"memory_type":       {"USER", "CAPABILITY", "ORGANIZATIONAL"},
	"scope":             {"GLOBAL", "PROJECT", "TASK", "SESSION", "HYPOTHETICAL", "DRAFT"},
	"speaker":           {"USER", "ASSISTANT"},
	"epistemic_status":  {"PERCEPTION", "INFERENCE", "ASSUMPTION", "ACTION"},
	"lease":             {"UNTIL_CHANGED", "UNTIL_TIME", "UNTIL_EVENT"},
	"status":            {"OPEN", "RESOLVED", "ALL"},
}

// schema is the input schema of T with its enumerated arguments.
func schema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err))
	}
	for name, p := range s.Properties {
		if vals, ok := enums[name]; ok {
			p.Enum = vals
		}
	}
	return s
}

func (t *tools) assembleContext(ctx context.Context, req *mcp.CallToolRequest, in AssembleContextInput) (*mcp.CallToolResult, any, error) {
	budget := in.Budget
	if budget == 0 {
		budget = 2000
	}
	input := map[string]any{"query": in.Query, "budget": budget}
	set(input, "asOf", in.AsOf)
	set(input, "knownAt", in.KnownAt)
	set(input, "sessionId", in.SessionID)
	data, err := t.gql.Do(ctx, t.token(req), `query AssembleContext($input: ContextInput!) {
  assembleContext(input: $input) { text tokens budget withheld notes truncated included { id kind reason score } }
}`, map[string]any{"input": input})
	if err != nil {
		return toolError(err), nil, nil
	}
	var out struct {
		AssembleContext json.RawMessage `json:"assembleContext"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return toolError(err), nil, nil
	}
	var text struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(out.AssembleContext, &text)
	if text.Text == "" {
		text.Text = "(empty context)"
	}
	return result(out.AssembleContext, text.Text)
}

func (t *tools) writeFact(ctx context.Context, req *mcp.CallToolRequest, in WriteFactInput) (*mcp.CallToolResult, any, error) {
	input := map[string]any{"key": in.Key, "value": in.Value}
	set(input, "supersedes", in.Supersedes)
	set(input, "supersessionKind", in.SupersessionKind)
	set(input, "reason", in.Reason)
	if in.SourceType != "" {
		input["source"] = map[string]any{"type": in.SourceType}
	}
	set(input, "memoryType", in.MemoryType)
	set(input, "scope", in.Scope)
	set(input, "scopeId", in.ScopeID)
	set(input, "validFrom", in.ValidFrom)
	set(input, "id", in.ID)
	return t.call(ctx, req, `mutation WriteFact($input: FactInput!) { writeFact(input: $input) { `+factFields+` } }`,
		map[string]any{"input": input}, "writeFact")
}

func (t *tools) recordTurn(ctx context.Context, req *mcp.CallToolRequest, in RecordTurnInput) (*mcp.CallToolResult, any, error) {
	speaker := in.Speaker
	if speaker == "" {
		speaker = "USER"
	}
	input := map[string]any{"sessionId": in.SessionID, "speaker": speaker, "text": in.Text}
	set(input, "speakerId", in.SpeakerID)
	set(input, "at", in.At)
	return t.call(ctx, req, `mutation RecordTurn($input: TurnInput!) {
  recordTurn(input: $input) {
    turn { id text speaker at }
    detections { kind cue key previous replacement confidence blocked superseded { id kind } }
    constraint { type }
  }
}`, map[string]any{"input": input}, "recordTurn")
}

func (t *tools) assertState(ctx context.Context, req *mcp.CallToolRequest, in AssertStateInput) (*mcp.CallToolResult, any, error) {
	status := in.EpistemicStatus
	if status == "" {
		status = "INFERENCE"
	}
	lease := in.Lease
	if lease == "" {
		lease = "UNTIL_CHANGED"
	}
	validity := map[string]any{"mode": lease}
	set(validity, "expiresAt", in.ExpiresAt)
	set(validity, "untilEvent", in.UntilEvent)
	prov := map[string]any{}
	set(prov, "confidence", in.Confidence)
	set(prov, "method", in.Method)
	input := map[string]any{
		"subject": in.Subject, "predicate": in.Predicate, "object": in.Object, "context": in.Context,
		"epistemicStatus": status, "validity": validity, "provenance": prov,
	}
	set(input, "tags", in.Tags)
	return t.call(ctx, req, `mutation AssertState($input: StateAssertionInput!) {
  assertState(input: $input) {
    id subject predicate object context epistemicStatus status authority tags createdAt
    validity { mode expiresAt untilEvent }
    provenance { author { kind id } confidence method }
  }
}`, map[string]any{"input": input}, "assertState")
}

func (t *tools) factHistory(ctx context.Context, req *mcp.CallToolRequest, in FactHistoryInput) (*mcp.CallToolResult, any, error) {
	vars := map[string]any{"key": in.Key}
	set(vars, "asOf", in.AsOf)
	set(vars, "knownAt", in.KnownAt)
	return t.call(ctx, req, `query FactHistory($key: String!, $asOf: Time, $knownAt: Time) {
  factHistory(key: $key, asOf: $asOf, knownAt: $knownAt) { `+factFields+` }
}`, vars, "factHistory")
}

const conflictFields = `id status subject predicate context reason openedAt lastSeenAt resolvedAt
  candidates { __typename ... on Fact { id key value isValid } ... on StateAssertion { id object status authority } }
  decision { id reason actor at policy kept { __typename ... on Fact { id } ... on StateAssertion { id } } }`

func (t *tools) listConflicts(ctx context.Context, req *mcp.CallToolRequest, in ListConflictsInput) (*mcp.CallToolResult, any, error) {
	first := in.First
	if first == 0 {
		first = 20
	}
	filter := map[string]any{}
	switch in.Status {
	case "":
		filter["status"] = "OPEN"
	case "ALL":
	default:
		filter["status"] = in.Status
	}
	set(filter, "subject", in.Subject)
	data, err := t.gql.Do(ctx, t.token(req), `query ListConflicts($filter: ConflictFilter, $first: Int) {
  conflicts(filter: $filter, first: $first) { totalCount edges { node { `+conflictFields+` } } }
}`, map[string]any{"filter": filter, "first": first})
	if err != nil {
		return toolError(err), nil, nil
	}
	var out struct {
		Conflicts struct {
			TotalCount int `json:"totalCount"`
			Edges      []struct {
				Node json.RawMessage `json:"node"`
			} `json:"edges"`
		} `json:"conflicts"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return toolError(err), nil, nil
	}
	nodes := make([]json.RawMessage, 0, len(out.Conflicts.Edges))
	for _, e := range out.Conflicts.Edges {
		nodes = append(nodes, e.Node)
	}
	raw, err := json.Marshal(map[string]any{"totalCount": out.Conflicts.TotalCount, "conflicts": nodes})
	if err != nil {
		return toolError(err), nil, nil
	}
	return result(raw, "")
}

func (t *tools) resolveConflict(ctx context.Context, req *mcp.CallToolRequest, in ResolveConflictInput) (*mcp.CallToolResult, any, error) {
	return t.call(ctx, req, `mutation ResolveConflict($id: ID!, $keep: ID!, $reason: String!) {
  resolveConflict(id: $id, keep: $keep, reason: $reason) { `+conflictFields+` }
}`, map[string]any{"id": in.ID, "keep": in.Keep, "reason": in.Reason}, "resolveConflict")
}

// maxSearch bounds search_facts: each fact is one aliased field.
const maxSearch = 50

func (t *tools) searchFacts(ctx context.Context, req *mcp.CallToolRequest, in SearchFactsInput) (*mcp.CallToolResult, any, error) {
	limit := in.Limit
	if limit == 0 {
		limit = 10
	}
	switch {
	case limit < 1 || limit > maxSearch:
		return toolError(&Error{Code: "BAD_USER_INPUT", Message: fmt.Sprintf("limit must be between 1 and %d", maxSearch)}), nil, nil
	case (in.Query == "") == (in.Key == ""):
		return toolError(&Error{Code: "BAD_USER_INPUT", Message: "give either query (words to rank facts by) or key (an exact fact key), not both or neither"}), nil, nil
	}
	if in.Key != "" {
		data, err := t.gql.Do(ctx, t.token(req), `query SearchFactsByKey($key: String!, $first: Int) {
  facts(filter: {key: $key}, first: $first) { edges { node { `+factFields+` } } }
}`, map[string]any{"key": in.Key, "first": limit})
		if err != nil {
			return toolError(err), nil, nil
		}
		var out struct {
			Facts struct {
				Edges []struct {
					Node json.RawMessage `json:"node"`
				} `json:"edges"`
			} `json:"facts"`
		}
		if err := json.Unmarshal(data, &out); err != nil {
			return toolError(err), nil, nil
		}
		facts := make([]json.RawMessage, 0, len(out.Facts.Edges))
		for _, e := range out.Facts.Edges {
			facts = append(facts, e.Node)
		}
		raw, err := json.Marshal(map[string]any{"facts": facts})
		if err != nil {
			return toolError(err), nil, nil
		}
		return result(raw, "")
	}
	// Relevance is assembleContext's: the facts it ranks for the query,
	// with the caller's read permissions, then each one read by id.
	data, err := t.gql.Do(ctx, t.token(req), `query SearchFactsRank($input: ContextInput!) {
  assembleContext(input: $input) { included { id kind score } }
}`, map[string]any{"input": map[string]any{"query": in.Query, "budget": 1 << 20, "factShare": 1}})
	if err != nil {
		return toolError(err), nil, nil
	}
	var ranked struct {
		AssembleContext struct {
			Included []struct {
				ID    string  `json:"id"`
				Kind  string  `json:"kind"`
				Score float64 `json:"score"`
			} `json:"included"`
		} `json:"assembleContext"`
	}
	if err := json.Unmarshal(data, &ranked); err != nil {
		return toolError(err), nil, nil
	}
	type hit struct {
		id    string
		score float64
	}
	var hits []hit
	for _, r := range ranked.AssembleContext.Included {
		if r.Kind == "FACT" && r.Score > 0 {
			hits = append(hits, hit{r.ID, r.Score})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	if len(hits) > limit {
		hits = hits[:limit]
	}
	facts := []any{}
	if len(hits) > 0 {
		q := "query SearchFacts("
		vars := map[string]any{}
		body := ""
		for i, h := range hits {
			if i > 0 {
				q += ", "
			}
			q += fmt.Sprintf("$id%d: ID!", i)
			vars[fmt.Sprintf("id%d", i)] = h.id
			body += fmt.Sprintf("  f%d: fact(id: $id%d) { %s }\n", i, i, factFields)
		}
		q += ") {\n" + body + "}"
		data, err := t.gql.Do(ctx, t.token(req), q, vars)
		if err != nil {
			return toolError(err), nil, nil
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(data, &got); err != nil {
			return toolError(err), nil, nil
		}
		for i, h := range hits {
			var f map[string]any
			if err := json.Unmarshal(got[fmt.Sprintf("f%d", i)], &f); err != nil || f == nil {
				continue
			}
			f["score"] = h.score
			facts = append(facts, f)
		}
	}
	raw, err := json.Marshal(map[string]any{"facts": facts})
	if err != nil {
		return toolError(err), nil, nil
	}
	return result(raw, "")
}

func (t *tools) forgetFact(ctx context.Context, req *mcp.CallToolRequest, in ForgetFactInput) (*mcp.CallToolResult, any, error) {
	return t.call(ctx, req, `mutation ForgetFact($id: ID!) { forgetFact(id: $id) { id key value memoryType forgotten { by at } } }`,
		map[string]any{"id": in.ID}, "forgetFact")
}
