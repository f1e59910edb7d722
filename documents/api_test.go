package documents_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/golden"
	"github.com/stategraph/stategraph/server"
)

const ingestQ = `mutation($in: DocumentInput!) { ingestDocument(input: $in) { id title sourceUri chunks acl { users groups } ingestedBy } }`

const searchQ = `query($q: String!, $first: Int) { searchDocuments(query: $q, first: $first) { id documentId title text chunk chunks sourceUri score } }`

type chunk struct {
	ID, DocumentID, Title, Text string
	Chunk, Chunks               int
	SourceURI                   *string
	Score                       float64
}

func service(t testing.TB, org string) string {
	t.Helper()
	id := apitest.Identity(org, "docs-sync")
	id.Kind, id.AgentLevel = authority.KindService, ""
	return apitest.Token(t, id)
}

// member is an agent acting for user, in groups.
func member(t testing.TB, org, user string, groups ...string) string {
	t.Helper()
	id := apitest.Identity(org, user)
	id.Groups = groups
	return apitest.Token(t, id)
}

func ingest(t *testing.T, env *apitest.Env, tok string, in map[string]any) {
	t.Helper()
	var out struct{ IngestDocument struct{ ID string } }
	env.MustDo(t, tok, ingestQ, map[string]any{"in": in}, &out)
	if out.IngestDocument.ID != in["id"] {
		t.Fatalf("ingest answered %+v", out)
	}
}

func searchIDs(t *testing.T, env *apitest.Env, tok, q string) []string {
	t.Helper()
	var out struct{ SearchDocuments []chunk }
	env.MustDo(t, tok, searchQ, map[string]any{"q": q}, &out)
	var ids []string
	for _, c := range out.SearchDocuments {
		if !slices.Contains(ids, c.DocumentID) {
			ids = append(ids, c.DocumentID)
		}
	}
	slices.Sort(ids)
	return ids
}

const handbook = `Travel policy

Employees book economy class for flights under six hours. Hotel stays are capped at 250 dollars a night.

Expense reports are due within thirty days of travel.`

const salaries = `Salary bands for 2026. Engineering band four pays between 150 and 180 thousand dollars. Travel allowances are not part of the band.`

// seed ingests a handbook for ana alone, salary bands for the finance
// group, and a roadmap for nobody.
func seed(t *testing.T, env *apitest.Env, org string) {
	t.Helper()
	tok := service(t, org)
	ingest(t, env, tok, map[string]any{"id": "handbook", "title": "Employee handbook", "text": handbook, "sourceUri": "https://wiki.example.com/handbook", "acl": map[string]any{"users": []string{"ana"}}})
	ingest(t, env, tok, map[string]any{"id": "salaries", "title": "Salary bands", "text": salaries, "sourceUri": "https://drive.example.com/salaries", "acl": map[string]any{"groups": []string{"finance"}}})
	ingest(t, env, tok, map[string]any{"id": "roadmap", "title": "Roadmap", "text": "The travel app ships in May.", "acl": map[string]any{}})
}

// TestACL: a document is visible to the users and groups of its ACL
// only; an empty ACL shows it to nobody; another organization sees
// nothing.
func TestACL(t *testing.T) {
	env := apitest.New(t)
	seed(t, env, "org-a")
	for _, tc := range []struct {
		name string
		tok  string
		want []string
	}{
		{"the listed user", member(t, "org-a", "ana"), []string{"handbook"}},
		{"a member of the listed group", member(t, "org-a", "ben", "finance"), []string{"salaries"}},
		{"both", member(t, "org-a", "ana", "finance", "sales"), []string{"handbook", "salaries"}},
		{"neither", member(t, "org-a", "ben", "sales"), nil},
		{"a service", service(t, "org-a"), nil},
		{"the same user in another organization", member(t, "org-b", "ana", "finance"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := searchIDs(t, env, tc.tok, "travel"); !slices.Equal(got, tc.want) {
				t.Errorf("visible %v, want %v", got, tc.want)
			}
		})
	}
	// Provenance of a chunk.
	var out struct{ SearchDocuments []chunk }
	env.MustDo(t, member(t, "org-a", "ana"), searchQ, map[string]any{"q": "hotel night", "first": 1}, &out)
	if len(out.SearchDocuments) != 1 {
		t.Fatalf("search answered %+v", out)
	}
	c := out.SearchDocuments[0]
	if c.ID != "handbook#0" || c.Title != "Employee handbook" || c.Chunk != 0 || c.Chunks != 1 || c.SourceURI == nil || *c.SourceURI != "https://wiki.example.com/handbook" || c.Score <= 0 || !strings.Contains(c.Text, "250 dollars") {
		t.Errorf("chunk %+v", c)
	}
}

// TestACLUpdate: re-ingesting a document replaces its ACL and text,
// effective at the next query.
func TestACLUpdate(t *testing.T) {
	env := apitest.New(t)
	seed(t, env, "org-a")
	ben := member(t, "org-a", "ben")
	if got := searchIDs(t, env, ben, "hotel"); got != nil {
		t.Fatalf("ben sees %v before being added", got)
	}
	ingest(t, env, service(t, "org-a"), map[string]any{"id": "handbook", "title": "Employee handbook", "text": "Hotel stays are capped at 300 dollars a night.", "acl": map[string]any{"users": []string{"ben"}}})
	if got := searchIDs(t, env, ben, "hotel"); !slices.Equal(got, []string{"handbook"}) {
		t.Errorf("ben sees %v after the ACL update, want the handbook", got)
	}
	if got := searchIDs(t, env, member(t, "org-a", "ana"), "hotel"); got != nil {
		t.Errorf("ana sees %v after being removed", got)
	}
	// The old text is no longer indexed.
	if got := searchIDs(t, env, ben, "expense reports"); got != nil {
		t.Errorf("the replaced text still matches: %v", got)
	}
	var trail struct {
		AuditTrail []struct{ Action, Detail string }
	}
	env.MustDo(t, service(t, "org-a"), `{ auditTrail(recordId: "handbook") { action detail } }`, nil, &trail)
	if n := len(trail.AuditTrail); n != 2 || trail.AuditTrail[1].Action != "DOCUMENT_INGESTED" || !strings.HasPrefix(trail.AuditTrail[1].Detail, "replaced") {
		t.Errorf("audit trail %+v, want two DOCUMENT_INGESTED entries, the last a replacement", trail.AuditTrail)
	}
}

// TestIngestRefusals: only a service or administrator ingests; input is
// validated; a refused ingest changes nothing.
func TestIngestRefusals(t *testing.T) {
	env := apitest.New(t)
	seed(t, env, "org-a")
	svc := service(t, "org-a")
	admin := apitest.Identity("org-a", "it-admin")
	admin.Permissions = []string{"admin:documents"}
	ok := map[string]any{"id": "memo", "title": "Memo", "text": "A memo.", "acl": map[string]any{"users": []string{"ana"}}}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range ok {
			m[a] = b
		}
		m[k] = v
		return m
	}
	for _, tc := range []struct {
		name, tok, code, field string
		in                     map[string]any
	}{
		{"an agent", member(t, "org-a", "ana"), "FORBIDDEN", "admin:documents", ok},
		{"a bad id", svc, "BAD_USER_INPUT", "id", with("id", "two words")},
		{"an empty title", svc, "BAD_USER_INPUT", "title", with("title", " ")},
		{"an empty text", svc, "BAD_USER_INPUT", "text", with("text", "")},
		{"a relative source", svc, "BAD_USER_INPUT", "sourceUri", with("sourceUri", "wiki/page")},
		{"a bad user in the ACL", svc, "BAD_USER_INPUT", "acl.users", with("acl", map[string]any{"users": []string{"no spaces"}})},
		{"an empty group", svc, "BAD_USER_INPUT", "acl.groups", with("acl", map[string]any{"groups": []string{""}})},
		{"an empty query", svc, "BAD_USER_INPUT", "query", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r apitest.Response
			if tc.in == nil {
				r = env.Do(t, tc.tok, searchQ, map[string]any{"q": "  "})
			} else {
				r = env.Do(t, tc.tok, ingestQ, map[string]any{"in": tc.in})
			}
			if r.Code() != tc.code || !strings.Contains(r.Errors[0].Message, tc.field) {
				t.Errorf("answered %s, want %s naming %q", r, tc.code, tc.field)
			}
		})
	}
	if got := searchIDs(t, env, member(t, "org-a", "ana"), "memo"); got != nil {
		t.Errorf("a refused ingest stored %v", got)
	}
	ingest(t, env, apitest.Token(t, admin), ok)
	if got := searchIDs(t, env, member(t, "org-a", "ana"), "memo"); !slices.Equal(got, []string{"memo"}) {
		t.Errorf("an administrator's ingest: ana sees %v", got)
	}
}

// hook is a permission webhook for tests: it answers with the documents
// of allow the request asks about, after delay, or with status.
type hook struct {
	mu       sync.Mutex
	allow    []string
	delay    time.Duration
	status   int
	requests []map[string]any
}

func (h *hook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req map[string]any
	_ = json.NewDecoder(r.Body).Decode(&req)
	h.mu.Lock()
	h.requests = append(h.requests, req)
	allow, delay, status := h.allow, h.delay, h.status
	h.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if status != 0 {
		w.WriteHeader(status)
		return
	}
	visible := []string{}
	for _, d := range req["documents"].([]any) {
		if id := d.(map[string]any)["id"].(string); slices.Contains(allow, id) {
			visible = append(visible, id)
		}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"visible": visible})
}

func (h *hook) set(f func(h *hook)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f(h)
}

// TestWebhook: with --doc-permission-url the webhook is asked at every
// query, after the stored ACL; denying, timing out, failing and being
// down each leave the document out, in searchDocuments and in
// assembleContext.
func TestWebhook(t *testing.T) {
	h := &hook{allow: []string{"handbook", "salaries"}}
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close()

	urls := map[string]string{"up": hs.URL, "down": downURL}
	envs := map[string]*apitest.Env{}
	for name, u := range urls {
		envs[name] = apitest.New(t, func(o *server.Options) { o.DocPermissionURL, o.DocPermissionTimeout = u, 200*time.Millisecond })
		seed(t, envs[name], "org-a")
	}
	ana := member(t, "org-a", "ana", "finance")
	for _, tc := range []struct {
		name string
		env  string
		set  func(h *hook)
		want []string
	}{
		{"allowing", "up", func(h *hook) { h.allow = []string{"handbook", "salaries", "roadmap"} }, []string{"handbook", "salaries"}},
		{"denying one", "up", func(h *hook) { h.allow = []string{"salaries"} }, []string{"salaries"}},
		{"denying all", "up", func(h *hook) { h.allow = nil }, nil},
		{"timing out", "up", func(h *hook) { h.allow, h.delay = []string{"handbook", "salaries"}, 2*time.Second }, nil},
		{"failing", "up", func(h *hook) { h.delay, h.status = 0, http.StatusInternalServerError }, nil},
		{"down", "down", func(*hook) {}, nil},
		{"back", "up", func(h *hook) { h.status = 0 }, []string{"handbook", "salaries"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.set(tc.set)
			env := envs[tc.env]
			if got := searchIDs(t, env, ana, "travel"); !slices.Equal(got, tc.want) {
				t.Errorf("searchDocuments: visible %v, want %v", got, tc.want)
			}
			ctx := assemble(t, env, ana, "travel allowances hotel")
			var got []string
			for _, in := range ctx.Included {
				if in.Kind == "DOCUMENT" {
					doc, _, _ := strings.Cut(in.ID, "#")
					if !slices.Contains(got, doc) {
						got = append(got, doc)
					}
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("assembleContext: documents %v, want %v\n%s", got, tc.want, ctx.Text)
			}
			failed := tc.env == "down" || tc.name == "timing out" || tc.name == "failing"
			if noted := slices.ContainsFunc(ctx.Notes, func(n string) bool { return strings.Contains(n, "permission service") }); noted != failed {
				t.Errorf("notes %v, want a note about the permission service: %v", ctx.Notes, failed)
			}
		})
	}
	// What the webhook was asked: the caller and the documents the ACL
	// let through, never the others.
	h.mu.Lock()
	defer h.mu.Unlock()
	req := h.requests[0]
	docs, _ := json.Marshal(req["documents"])
	if req["organization"] != "org-a" || req["userId"] != "ana" || !strings.Contains(string(docs), `"sourceUri":"https://wiki.example.com/handbook"`) || strings.Contains(string(docs), "roadmap") {
		t.Errorf("webhook request %v", req)
	}
	if g, _ := json.Marshal(req["groups"]); string(g) != `["finance"]` {
		t.Errorf("webhook groups %s", g)
	}
}

type assembled struct {
	Text     string
	Notes    []string
	Sections []struct{ Title, Text string }
	Included []struct{ ID, Kind, Reason string }
}

func assemble(t *testing.T, env *apitest.Env, tok, q string) assembled {
	t.Helper()
	var out struct{ AssembleContext assembled }
	env.MustDo(t, tok, `query($in: ContextInput!) { assembleContext(input: $in) { text notes sections { title text } included { id kind reason } } }`,
		map[string]any{"in": map[string]any{"query": q, "budget": 2000}}, &out)
	return out.AssembleContext
}

// TestContextDocuments: documents fill their own share of the budget
// with provenance (document, chunk, source URI), after constraints and
// before facts; hidden ones never appear.
func TestContextDocuments(t *testing.T) {
	env := apitest.New(t)
	seed(t, env, "org-a")
	ana := member(t, "org-a", "ana")
	env.MustDo(t, ana, `mutation { writeFact(input: {key: "travel.class", value: "business for flights over six hours", memoryType: ORGANIZATIONAL}) { id } }`, nil, &struct{}{})
	ctx := assemble(t, env, ana, "travel hotel flights")
	var docs string
	for _, s := range ctx.Sections {
		if s.Title == "Documents" {
			docs = s.Text
		}
	}
	golden.Check(t, "context_documents.golden", docs)
	if strings.Contains(ctx.Text, "Salary") || strings.Contains(ctx.Text, "ships in May") {
		t.Errorf("a hidden document reached the context:\n%s", ctx.Text)
	}
	if !strings.Contains(ctx.Text, "travel.class") {
		t.Errorf("the fact is missing:\n%s", ctx.Text)
	}
	// A small share keeps documents out; the facts still fit.
	var out struct{ AssembleContext assembled }
	env.MustDo(t, ana, `query($in: ContextInput!) { assembleContext(input: $in) { text included { id kind } } }`,
		map[string]any{"in": map[string]any{"query": "travel hotel flights", "budget": 100, "documentShare": 0.05}}, &out)
	if strings.Contains(out.AssembleContext.Text, "## Documents") || !strings.Contains(out.AssembleContext.Text, "travel.class") {
		t.Errorf("with a 5%% share of 100 tokens:\n%s", out.AssembleContext.Text)
	}
	// A view of the past does not search documents: their permissions
	// are checked now only.
	env.MustDo(t, ana, `query($in: ContextInput!) { assembleContext(input: $in) { text included { id kind } } }`,
		map[string]any{"in": map[string]any{"query": "travel hotel flights", "budget": 2000, "knownAt": apitest.Start.Add(time.Hour).Format(time.RFC3339)}}, &out)
	if strings.Contains(out.AssembleContext.Text, "## Documents") {
		t.Errorf("a view of the past has documents:\n%s", out.AssembleContext.Text)
	}
	r := env.Do(t, ana, `query { assembleContext(input: {query: "travel", budget: 100, documentShare: 1.5}) { text } }`, nil)
	if r.Code() != "BAD_USER_INPUT" || !strings.Contains(r.String(), "documentShare") {
		t.Errorf("documentShare 1.5 answered %s", r)
	}
}
