package profile_test

import (
	"strings"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/golden"
)

const upsertQ = `mutation($in: ProfileInput!) { upsertProfile(input: $in) { userId displayName title reportsTo updatedAt updatedBy } }`

const profileQ = `query($u: ID) { profile(userId: $u) {
  userId displayName title department reportsTo communicationStyle
  disc { dominance influence steadiness conscientiousness }
  ocean { openness conscientiousness extraversion agreeableness neuroticism }
  reportingChain { userId displayName title updatedAt communicationStyle }
  directReports { userId }
} }`

type person struct {
	UserID             string
	DisplayName        *string
	Title              *string
	Department         *string
	ReportsTo          *string
	CommunicationStyle *string
	UpdatedAt          *string
	Disc               *struct{ Dominance, Influence, Steadiness, Conscientiousness int }
	Ocean              *struct{ Openness, Conscientiousness, Extraversion, Agreeableness, Neuroticism int }
	ReportingChain     []person
	DirectReports      []person
}

func service(t *testing.T, org string) string {
	t.Helper()
	id := apitest.Identity(org, "hr-sync")
	id.Kind, id.AgentLevel = authority.KindService, ""
	return apitest.Token(t, id)
}

func user(t *testing.T, org, sub string, perms ...string) string {
	t.Helper()
	id := apitest.Identity(org, sub)
	id.Kind, id.AgentLevel, id.Permissions = authority.KindUser, "", perms
	return apitest.Token(t, id)
}

func upsert(t *testing.T, env *apitest.Env, tok string, in map[string]any) {
	t.Helper()
	var out struct{ UpsertProfile person }
	env.MustDo(t, tok, upsertQ, map[string]any{"in": in}, &out)
	if out.UpsertProfile.UserID != in["userId"] || out.UpsertProfile.UpdatedAt == nil {
		t.Fatalf("upsert answered %+v", out.UpsertProfile)
	}
}

func get(t *testing.T, env *apitest.Env, tok string, u any) *person {
	t.Helper()
	var out struct{ Profile *person }
	env.MustDo(t, tok, profileQ, map[string]any{"u": u}, &out)
	return out.Profile
}

// seedLine writes ana → ben → cleo (ana reports to ben, who reports to
// cleo) with ana's private preferences.
func seedLine(t *testing.T, env *apitest.Env, org string) {
	t.Helper()
	tok := service(t, org)
	upsert(t, env, tok, map[string]any{"userId": "cleo", "displayName": "Cleo Park", "title": "Chief Executive Officer", "department": "Executive"})
	upsert(t, env, tok, map[string]any{"userId": "ben", "displayName": "Ben Ortiz", "title": "VP Sales", "department": "Sales", "reportsTo": "cleo"})
	upsert(t, env, tok, map[string]any{
		"userId": "ana", "displayName": "Ana Lima", "title": "Account Executive", "department": "Sales", "reportsTo": "ben",
		"communicationStyle": "brief, bullet points, no small talk",
		"disc":               map[string]any{"dominance": 80, "influence": 40, "steadiness": 30, "conscientiousness": 60},
		"ocean":              map[string]any{"openness": 70, "conscientiousness": 65, "extraversion": 45, "agreeableness": 55, "neuroticism": 20},
	})
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// TestReportingChain: the chain is queryable, nearest manager first, and
// a manager is listed with their direct reports.
func TestReportingChain(t *testing.T) {
	env := apitest.New(t)
	seedLine(t, env, "org-a")
	p := get(t, env, user(t, "org-a", "ana"), nil) // default: the caller
	if p == nil || p.UserID != "ana" || str(p.Title) != "Account Executive" || str(p.ReportsTo) != "ben" {
		t.Fatalf("own profile %+v", p)
	}
	var chain []string
	for _, m := range p.ReportingChain {
		chain = append(chain, m.UserID+"/"+str(m.Title))
	}
	if got, want := strings.Join(chain, ","), "ben/VP Sales,cleo/Chief Executive Officer"; got != want {
		t.Errorf("reporting chain %s, want %s", got, want)
	}
	c := get(t, env, user(t, "org-a", "ana"), "cleo")
	if c == nil || len(c.DirectReports) != 1 || c.DirectReports[0].UserID != "ben" || len(c.ReportingChain) != 0 {
		t.Errorf("cleo %+v, want ben as the one direct report and no chain", c)
	}
	// A manager without a profile ends the chain as a placeholder.
	upsert(t, env, service(t, "org-a"), map[string]any{"userId": "cleo", "title": "Chief Executive Officer", "reportsTo": "board"})
	p = get(t, env, user(t, "org-a", "ana"), nil)
	if n := len(p.ReportingChain); n != 3 || p.ReportingChain[2].UserID != "board" || p.ReportingChain[2].UpdatedAt != nil || str(p.ReportingChain[2].Title) != "" {
		t.Errorf("chain %+v, want ben, cleo and a placeholder for board", p.ReportingChain)
	}
	if get(t, env, user(t, "org-a", "ana"), "nobody") != nil {
		t.Error("a user without a profile has one")
	}
}

// TestPrivateFields: communication style and assessments are read by
// the user, agents acting for them, services and administrators; not by
// colleagues, directly or through a reporting chain.
func TestPrivateFields(t *testing.T) {
	env := apitest.New(t)
	seedLine(t, env, "org-a")
	agent := apitest.Token(t, apitest.Identity("org-a", "ana")) // an agent acting for ana
	for _, tc := range []struct {
		name    string
		tok     string
		private bool
	}{
		{"the user", user(t, "org-a", "ana"), true},
		{"an agent acting for the user", agent, true},
		{"a service", service(t, "org-a"), true},
		{"an administrator", user(t, "org-a", "hr", "admin:profiles"), true},
		{"a colleague", user(t, "org-a", "ben"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := get(t, env, tc.tok, "ana")
			got := p.Disc != nil && p.Ocean != nil && str(p.CommunicationStyle) != ""
			if got != tc.private || (!tc.private && (p.Disc != nil || p.Ocean != nil || str(p.CommunicationStyle) != "")) {
				t.Errorf("private fields shown %v (%+v), want %v", got, p, tc.private)
			}
			if str(p.Title) != "Account Executive" {
				t.Errorf("title %q, want it shown to everyone in the organization", str(p.Title))
			}
		})
	}
	// Nor through a manager's direct reports.
	var out struct{ Profile person }
	env.MustDo(t, user(t, "org-a", "cleo"), `{ profile(userId: "ben") { directReports { userId communicationStyle disc { dominance } } } }`, nil, &out)
	if len(out.Profile.DirectReports) != 1 || str(out.Profile.DirectReports[0].CommunicationStyle) != "" || out.Profile.DirectReports[0].Disc != nil {
		t.Errorf("direct reports %+v, want ana without her private fields", out.Profile.DirectReports)
	}
}

// TestUpsertRefusals: only a service or administrator writes; input is
// validated; a cycle in the reporting line is refused; a refused write
// changes nothing.
func TestUpsertRefusals(t *testing.T) {
	env := apitest.New(t)
	seedLine(t, env, "org-a")
	svc := service(t, "org-a")
	for _, tc := range []struct {
		name, tok, code, field string
		in                     map[string]any
	}{
		{"a user", user(t, "org-a", "ana"), "FORBIDDEN", "", map[string]any{"userId": "ana", "title": "CEO"}},
		{"an agent", apitest.Token(t, apitest.Identity("org-a", "ana")), "FORBIDDEN", "", map[string]any{"userId": "ana", "title": "CEO"}},
		{"a bad user id", svc, "BAD_USER_INPUT", "userId", map[string]any{"userId": "no spaces"}},
		{"a bad manager id", svc, "BAD_USER_INPUT", "reportsTo", map[string]any{"userId": "ana", "reportsTo": "x y"}},
		{"reporting to oneself", svc, "BAD_USER_INPUT", "reportsTo", map[string]any{"userId": "ana", "reportsTo": "ana"}},
		{"a two-step cycle", svc, "BAD_USER_INPUT", "reportsTo", map[string]any{"userId": "ben", "reportsTo": "ana"}},
		{"a three-step cycle", svc, "BAD_USER_INPUT", "reportsTo", map[string]any{"userId": "cleo", "reportsTo": "ana"}},
		{"a DISC score above 100", svc, "BAD_USER_INPUT", "disc.dominance", map[string]any{"userId": "ana", "disc": map[string]any{"dominance": 101, "influence": 0, "steadiness": 0, "conscientiousness": 0}}},
		{"a negative OCEAN score", svc, "BAD_USER_INPUT", "ocean.neuroticism", map[string]any{"userId": "ana", "ocean": map[string]any{"openness": 1, "conscientiousness": 1, "extraversion": 1, "agreeableness": 1, "neuroticism": -1}}},
		{"a long title", svc, "BAD_USER_INPUT", "title", map[string]any{"userId": "ana", "title": strings.Repeat("x", 257)}},
		{"a two-line name", svc, "BAD_USER_INPUT", "displayName", map[string]any{"userId": "ana", "displayName": "Ana\nLima"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := env.Do(t, tc.tok, upsertQ, map[string]any{"in": tc.in})
			if r.Code() != tc.code || !strings.Contains(r.Errors[0].Message, tc.field) {
				t.Errorf("answered %s, want %s naming %q", r, tc.code, tc.field)
			}
			if strings.Contains(string(r.Raw), "badger") || strings.Contains(string(r.Raw), "store:") {
				t.Errorf("the error shows internals: %s", r.Raw)
			}
		})
	}
	p := get(t, env, svc, "ana")
	if str(p.Title) != "Account Executive" || str(p.ReportsTo) != "ben" || p.Disc == nil || p.Disc.Dominance != 80 {
		t.Errorf("a refused write changed ana: %+v", p)
	}
	// An administrator (a token with admin:profiles) may write; moving
	// ana under cleo takes her off ben's direct reports.
	upsert(t, env, user(t, "org-a", "hr", "admin:profiles"), map[string]any{"userId": "ana", "title": "Senior Account Executive", "reportsTo": "cleo"})
	if b := get(t, env, svc, "ben"); len(b.DirectReports) != 0 {
		t.Errorf("ben's direct reports %+v, want none after ana moved", b.DirectReports)
	}
	if c := get(t, env, svc, "cleo"); len(c.DirectReports) != 2 {
		t.Errorf("cleo's direct reports %+v, want ana and ben", c.DirectReports)
	}
	// The write is audited.
	var trail struct {
		AuditTrail []struct{ Action, Actor, Kind string }
	}
	env.MustDo(t, svc, `{ auditTrail(recordId: "ana") { action actor kind } }`, nil, &trail)
	if n := len(trail.AuditTrail); n != 2 || trail.AuditTrail[1].Action != "PROFILE_WRITTEN" || trail.AuditTrail[1].Kind != "profile" || !strings.Contains(trail.AuditTrail[1].Actor, "hr") {
		t.Errorf("audit trail %+v, want two PROFILE_WRITTEN entries, the last by hr", trail.AuditTrail)
	}
}

// TestOtherOrganizations: profiles belong to one organization.
func TestOtherOrganizations(t *testing.T) {
	env := apitest.New(t)
	seedLine(t, env, "org-a")
	if p := get(t, env, service(t, "org-b"), "ana"); p != nil {
		t.Errorf("org-b reads org-a's profile: %+v", p)
	}
	// org-b's own line is its own: ana may report to ben there without
	// touching org-a's.
	upsert(t, env, service(t, "org-b"), map[string]any{"userId": "ben", "reportsTo": "ana"})
	if p := get(t, env, service(t, "org-a"), "ben"); str(p.ReportsTo) != "cleo" {
		t.Errorf("org-a's ben reports to %q after org-b's write", str(p.ReportsTo))
	}
}

const assembleQ = `query($in: ContextInput!) { assembleContext(input: $in) { text sections { title text } } }`

// TestContextIdentity: assembleContext's identity layer carries the
// profile and the reporting line, read fresh at every call; the token's
// claims win (authority, name, department).
func TestContextIdentity(t *testing.T) {
	env := apitest.New(t)
	seedLine(t, env, "org-a")
	id := apitest.Identity("org-a", "ana")
	id.UserName, id.Authority, id.Department = "", "employee", ""
	tok := apitest.Token(t, id)
	identity := func() string {
		t.Helper()
		var out struct {
			AssembleContext struct {
				Sections []struct{ Title, Text string }
			}
		}
		env.MustDo(t, tok, assembleQ, map[string]any{"in": map[string]any{"query": "next steps", "budget": 2000}}, &out)
		return out.AssembleContext.Sections[0].Text
	}
	golden.Check(t, "identity.golden", identity())

	// A change of the line shows at the next call.
	upsert(t, env, service(t, "org-a"), map[string]any{"userId": "ben", "displayName": "Ben Ortiz", "title": "VP Sales", "reportsTo": "dana"})
	if got := identity(); !strings.Contains(got, "reports to: Ben Ortiz (ben), VP Sales → dana") {
		t.Errorf("identity after the change:\n%s", got)
	}
	// The token's name, department and authority win over the profile.
	id.UserName, id.Department = "Ana L.", "Marketing"
	tok = apitest.Token(t, id)
	got := identity()
	if !strings.Contains(got, "user: Ana L. (ana)") || !strings.Contains(got, "department: Marketing") || strings.Contains(got, "Sales\n") || !strings.Contains(got, "authority: employee") {
		t.Errorf("identity with claims:\n%s", got)
	}
}

// TestSpeakerAuthorityFromProfile: a turn's speakerId takes the authority
// of the title in the speaker's profile; profile facts still work for a
// speaker without a profile.
func TestSpeakerAuthorityFromProfile(t *testing.T) {
	env := apitest.New(t)
	seedLine(t, env, "org-a")
	upsert(t, env, service(t, "org-a"), map[string]any{"userId": "ivy", "title": "Intern"})
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	env.MustDo(t, tok, `mutation { writeFact(input: {key: "priya.role", value: "Intern", memoryType: ORGANIZATIONAL}) { id } }`, nil, &struct{}{})
	for _, tc := range []struct{ speaker, want string }{
		{"cleo", "executive"},
		{"ivy", "subordinate"},
		{"priya", "subordinate"},
		{"zed", "unverified"},
	} {
		var out struct {
			RecordTurn struct{ Speaker, Authority string }
		}
		env.MustDo(t, tok, `mutation($in: TurnInput!) { recordTurn(input: $in) { speaker authority } }`,
			map[string]any{"in": map[string]any{"sessionId": "s1", "speaker": "USER", "speakerId": tc.speaker, "text": "Hello there."}}, &out)
		if out.RecordTurn.Speaker != tc.speaker || out.RecordTurn.Authority != tc.want {
			t.Errorf("speaker %s: %+v, want authority %s", tc.speaker, out.RecordTurn, tc.want)
		}
	}
}

// TestConcurrentCycle: two writes that would each close the same cycle,
// sent at once, never both succeed (the cycle check reads the line it
// depends on, so the store's conflict detection sees the other writer).
func TestConcurrentCycle(t *testing.T) {
	env := apitest.New(t)
	svc := service(t, "org-a")
	for i := range 10 {
		a, b := "a"+string(rune('0'+i)), "b"+string(rune('0'+i))
		codes := make(chan string, 2)
		for _, in := range []map[string]any{{"userId": a, "reportsTo": b}, {"userId": b, "reportsTo": a}} {
			go func() {
				r := env.Do(t, svc, upsertQ, map[string]any{"in": in})
				codes <- r.Code()
			}()
		}
		c1, c2 := <-codes, <-codes
		if c1 == "" && c2 == "" {
			t.Fatalf("round %d: both %s → %s and %s → %s were written: a cycle", i, a, b, b, a)
		}
		if c1 != "" && c2 != "" {
			t.Errorf("round %d: both refused (%s, %s), want one written", i, c1, c2)
		}
	}
}
