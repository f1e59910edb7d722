package permissions_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/server"
)

// roles are the callers of the authority matrix, all of one organization
// with the capability "pricing".
var roles = []struct {
	name string
	id   func() authority.Identity
}{
	{"board", who("Board", "Governance", authority.KindAgent, authority.AgentMaster)},
	{"cfo", who("CFO", "Finance", authority.KindAgent, authority.AgentMaster, "finance.read")},
	{"vp", who("VP Sales", "Sales", authority.KindAgent, authority.AgentSenior)},
	{"vmgr", who("Vendor Manager", "Procurement", authority.KindAgent, authority.AgentSenior)},
	{"rep", who("Sales Rep", "Sales", authority.KindAgent, authority.AgentJunior, "crm.read")},
	{"intern", who("Intern", "Sales", authority.KindAgent, authority.AgentJunior)},
	{"stranger", who("Wizard", "", authority.KindAgent, "")},
	{"human", who("Sales Rep", "Sales", authority.KindUser, "")},
	{"svc", who("system", "", authority.KindService, "")},
}

func who(auth, dept string, kind authority.Kind, level authority.AgentLevel, perms ...string) func() authority.Identity {
	return func() authority.Identity {
		id := apitest.Identity("org-m", "u-"+strings.ReplaceAll(strings.ToLower(auth), " ", "-")+"-"+string(kind))
		id.Authority, id.Department, id.Kind, id.AgentLevel, id.Permissions = auth, dept, kind, level, perms
		id.Capability = "pricing"
		return id
	}
}

func tokens(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range roles {
		out[r.name] = apitest.Token(t, r.id())
	}
	return out
}

// set is a set of role names written as one space-separated string.
func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

const writeQ = `mutation($in: FactInput!) { writeFact(input: $in) { id isValid level supersedes { id } source { authority } } }`

type written struct {
	WriteFact *struct {
		ID         string  `json:"id"`
		IsValid    bool    `json:"isValid"`
		Level      *string `json:"level"`
		Supersedes *struct {
			ID string `json:"id"`
		} `json:"supersedes"`
	} `json:"writeFact"`
}

// TestWriteGates runs every role against every write gate over HTTP.
func TestWriteGates(t *testing.T) {
	env := apitest.New(t)
	tok := tokens(t)
	gates := []struct {
		name    string
		in      map[string]any
		allowed map[string]bool // the rest get FORBIDDEN
	}{
		{"organizational fact (control)", map[string]any{"memoryType": "ORGANIZATIONAL"},
			set("board cfo vp vmgr rep intern stranger human svc")},
		{"policy source needs manager", map[string]any{"source": map[string]any{"type": "POLICY"}},
			set("board cfo vp vmgr")},
		{"constraint with authority policy", map[string]any{"memoryType": "ORGANIZATIONAL", "isConstraint": true, "source": map[string]any{"authority": "policy"}},
			set("board")},
		{"attributing executive authority", map[string]any{"memoryType": "ORGANIZATIONAL", "source": map[string]any{"authority": "executive"}},
			set("board cfo vp")},
		{"capability EVENT", map[string]any{"memoryType": "CAPABILITY", "level": "EVENT"},
			set("board cfo vp vmgr rep intern stranger svc")},
		{"capability default level", map[string]any{"memoryType": "CAPABILITY"},
			set("board cfo vp vmgr rep intern stranger svc")},
		{"capability HEURISTIC", map[string]any{"memoryType": "CAPABILITY", "level": "HEURISTIC"},
			set("board cfo vp vmgr svc")},
		{"capability STRATEGY", map[string]any{"memoryType": "CAPABILITY", "level": "STRATEGY"},
			set("board cfo svc")},
		{"user memory", map[string]any{"memoryType": "USER"},
			set("board cfo vp vmgr rep intern stranger svc")},
		{"user memory by inference", map[string]any{"source": map[string]any{"type": "USER"}},
			set("board cfo vp vmgr rep intern stranger svc")},
	}
	for gi, g := range gates {
		for _, r := range roles {
			t.Run(g.name+"/"+r.name, func(t *testing.T) {
				in := map[string]any{"key": fmt.Sprintf("gate.%d.%s", gi, r.name), "value": "v"}
				for k, v := range g.in {
					in[k] = v
				}
				res := env.Do(t, tok[r.name], writeQ, map[string]any{"in": in})
				want := ""
				if !g.allowed[r.name] {
					want = "FORBIDDEN"
				}
				if got := res.Code(); got != want {
					t.Fatalf("code %q, want %q: %s", got, want, res.Raw)
				}
				if want != "" {
					// Nothing was stored.
					var out struct{ Facts struct{ Edges []any } }
					env.MustDo(t, tok["svc"], `query($k: String) { facts(filter: {key: $k, validity: ALL}) { edges { cursor } } }`,
						map[string]any{"k": in["key"]}, &out)
					if len(out.Facts.Edges) != 0 {
						t.Fatalf("a forbidden write stored %d facts", len(out.Facts.Edges))
					}
					return
				}
				var out written
				res.Decode(t, &out)
				if lv, isCap := g.in["level"]; isCap && (out.WriteFact.Level == nil || *out.WriteFact.Level != lv) {
					t.Errorf("level %v, want %v", out.WriteFact.Level, lv)
				}
			})
		}
	}
}

// TestSupersessionAuthority runs every role's attempt to supersede a CFO
// policy, in both violation modes: at or above executive it supersedes;
// below, it is stored beside the policy (conflict) or FORBIDDEN (reject).
func TestSupersessionAuthority(t *testing.T) {
	supersedes := set("board cfo vp")
	for _, mode := range []permissions.Violation{permissions.ViolationConflict, permissions.ViolationReject} {
		t.Run(string(mode), func(t *testing.T) {
			env := apitest.New(t, func(o *server.Options) { o.Permissions.Violation = mode })
			tok := tokens(t)
			for _, r := range roles {
				t.Run(r.name, func(t *testing.T) {
					key := "discount.max." + r.name
					var policy written
					env.MustDo(t, tok["cfo"], writeQ, map[string]any{"in": map[string]any{
						"key": key, "value": "max 15%", "source": map[string]any{"type": "POLICY"}}}, &policy)
					res := env.Do(t, tok[r.name], writeQ, map[string]any{"in": map[string]any{
						"key": key, "value": "Let's offer 25%", "memoryType": "ORGANIZATIONAL", "supersedes": key}})
					var cur struct {
						CurrentValue struct {
							ID    string `json:"id"`
							Value string `json:"value"`
						} `json:"currentValue"`
					}
					switch {
					case supersedes[r.name]:
						var out written
						res.Decode(t, &out)
						if out.WriteFact.Supersedes == nil || out.WriteFact.Supersedes.ID != policy.WriteFact.ID {
							t.Fatalf("supersedes %+v, want the policy %s", out.WriteFact.Supersedes, policy.WriteFact.ID)
						}
						env.MustDo(t, tok["cfo"], `query($k: String!) { currentValue(key: $k) { id value } }`, map[string]any{"k": key}, &cur)
						if cur.CurrentValue.ID != out.WriteFact.ID {
							t.Errorf("current value %s, want the superseding fact %s", cur.CurrentValue.ID, out.WriteFact.ID)
						}
						return
					case mode == permissions.ViolationReject:
						if res.Code() != "FORBIDDEN" {
							t.Fatalf("code %q, want FORBIDDEN: %s", res.Code(), res.Raw)
						}
					default:
						var out written
						res.Decode(t, &out)
						if out.WriteFact.Supersedes != nil || !out.WriteFact.IsValid {
							t.Fatalf("a lower authority superseded the policy: %+v", out.WriteFact)
						}
					}
					env.MustDo(t, tok["cfo"], `query($k: String!) { currentValue(key: $k) { id value } }`, map[string]any{"k": key}, &cur)
					if cur.CurrentValue.ID != policy.WriteFact.ID || cur.CurrentValue.Value != "max 15%" {
						t.Errorf("current value %+v, want the CFO policy %s", cur.CurrentValue, policy.WriteFact.ID)
					}
				})
			}
		})
	}
}

// TestReadRules runs every role against every restriction, on every read
// path: fact, facts, currentValue, factHistory, and the dependsOn and
// derivedFacts edges of unrestricted facts. A fact a role may not read must
// look exactly like a fact that does not exist.
func TestReadRules(t *testing.T) {
	env := apitest.New(t)
	tok := tokens(t)
	rules := []struct {
		name     string
		restrict map[string]any
		readers  map[string]bool
	}{
		{"unrestricted", nil, set("board cfo vp vmgr rep intern stranger human svc")},
		{"roles executive", map[string]any{"roles": []string{"executive"}}, set("cfo vp")},
		{"roles as written", map[string]any{"roles": []string{"sales rep", "Board"}}, set("board rep human")},
		{"permissions", map[string]any{"permissions": []string{"finance.read", "audit.read"}}, set("cfo")},
		{"minAuthority manager", map[string]any{"minAuthority": "manager"}, set("board cfo vp vmgr")},
		{"departments", map[string]any{"departments": []string{"sales", "Governance"}}, set("board vp rep intern human")},
		{"all four", map[string]any{"roles": []string{"executive", "employee"}, "permissions": []string{"crm.read"},
			"minAuthority": "employee", "departments": []string{"Sales"}}, set("rep")},
	}
	type ids struct{ base, restricted, derived string }
	seeded := make([]ids, len(rules))
	for i, r := range rules {
		var b, x, d written
		key := fmt.Sprintf("rule.%d", i)
		env.MustDo(t, tok["board"], writeQ, map[string]any{"in": map[string]any{"key": key + ".base", "value": "base", "memoryType": "ORGANIZATIONAL"}}, &b)
		in := map[string]any{"key": key, "value": "secret " + r.name, "memoryType": "ORGANIZATIONAL", "dependsOn": []string{b.WriteFact.ID}}
		if r.restrict != nil {
			in["restrictedTo"] = r.restrict
		}
		env.MustDo(t, tok["board"], writeQ, map[string]any{"in": in}, &x)
		reader := ""
		for _, role := range roles {
			if r.readers[role.name] && role.name != "human" {
				reader = role.name
				break
			}
		}
		env.MustDo(t, tok[reader], writeQ, map[string]any{"in": map[string]any{"key": key + ".derived", "value": "derived",
			"memoryType": "ORGANIZATIONAL", "dependsOn": []string{x.WriteFact.ID}}}, &d)
		seeded[i] = ids{b.WriteFact.ID, x.WriteFact.ID, d.WriteFact.ID}
	}
	const readQ = `query($id: ID!, $key: String!, $base: ID!, $derived: ID!) {
		fact(id: $id) { id value }
		facts(filter: {key: $key, validity: ALL}) { edges { node { id } } }
		currentValue(key: $key) { id }
		factHistory(key: $key) { id }
		b: fact(id: $base) { derivedFacts { id } }
		d: fact(id: $derived) { dependsOn { id } }
	}`
	for i, r := range rules {
		for _, role := range roles {
			t.Run(r.name+"/"+role.name, func(t *testing.T) {
				s := seeded[i]
				key := fmt.Sprintf("rule.%d", i)
				res := env.Do(t, tok[role.name], readQ, map[string]any{"id": s.restricted, "key": key, "base": s.base, "derived": s.derived})
				var out struct {
					Fact  *struct{ ID, Value string }
					Facts struct {
						Edges []struct{ Node struct{ ID string } }
					}
					CurrentValue *struct{ ID string }
					FactHistory  []struct{ ID string }
					B            struct{ DerivedFacts []struct{ ID string } }
					D            struct{ DependsOn []struct{ ID string } }
				}
				res.Decode(t, &out)
				seen := map[string]bool{
					"fact":         out.Fact != nil,
					"facts":        len(out.Facts.Edges) == 1,
					"currentValue": out.CurrentValue != nil,
					"factHistory":  len(out.FactHistory) == 1,
					"derivedFacts": len(out.B.DerivedFacts) == 1,
					"dependsOn":    len(out.D.DependsOn) == 1,
				}
				want := r.readers[role.name]
				for path, got := range seen {
					if got != want {
						t.Errorf("%s: visible %v, want %v", path, got, want)
					}
				}
				if !want {
					// Exactly the shape of a fact that does not exist.
					if out.Fact != nil || len(out.Facts.Edges)+len(out.FactHistory)+len(out.B.DerivedFacts)+len(out.D.DependsOn) != 0 || out.CurrentValue != nil {
						t.Errorf("not-visible answer differs from does-not-exist: %s", res.Raw)
					}
					if strings.Contains(string(res.Raw), "secret") {
						t.Errorf("response leaks the restricted value: %s", res.Raw)
					}
					// Writes that name it find nothing either.
					for _, in := range []map[string]any{
						{"key": "probe", "value": 1, "memoryType": "ORGANIZATIONAL", "supersedes": s.restricted},
						{"key": "probe", "value": 1, "memoryType": "ORGANIZATIONAL", "supersedes": key},
						{"key": "probe", "value": 1, "memoryType": "ORGANIZATIONAL", "dependsOn": []string{s.restricted}},
					} {
						res := env.Do(t, tok[role.name], writeQ, map[string]any{"in": in})
						ghost := map[string]any{}
						for k, v := range in {
							ghost[k] = v
						}
						switch {
						case in["supersedes"] == s.restricted:
							ghost["supersedes"] = "F-GHOST"
						case in["supersedes"] == key:
							ghost["supersedes"] = "ghost.key"
						default:
							ghost["dependsOn"] = []string{"F-GHOST"}
						}
						gres := env.Do(t, tok[role.name], writeQ, map[string]any{"in": ghost})
						if res.Code() == "" || res.Code() != gres.Code() {
							t.Errorf("write naming it: code %q, naming nothing: %q (%s)", res.Code(), gres.Code(), res.Raw)
						}
					}
				}
			})
		}
	}
}

// TestBadInput checks that gate inputs that break a rule are rejected with
// BAD_USER_INPUT naming the field, and store nothing.
func TestBadInput(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-b", "writer"))
	cases := []struct {
		name, field string
		in          map[string]any
	}{
		{"level on organizational memory", "level", map[string]any{"memoryType": "ORGANIZATIONAL", "level": "EVENT"}},
		{"unknown minAuthority", "restrictedTo.minAuthority", map[string]any{"restrictedTo": map[string]any{"minAuthority": "overlord"}}},
		{"empty role", "restrictedTo.roles", map[string]any{"restrictedTo": map[string]any{"roles": []string{" "}}}},
		{"too many departments", "restrictedTo.departments", map[string]any{"restrictedTo": map[string]any{"departments": slices.Repeat([]string{"d"}, 33)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := map[string]any{"key": "bad." + tc.name, "value": "v", "memoryType": "ORGANIZATIONAL"}
			for k, v := range tc.in {
				in[k] = v
			}
			res := env.Do(t, tok, writeQ, map[string]any{"in": in})
			if res.Code() != "BAD_USER_INPUT" || res.Errors[0].Extensions["field"] != tc.field {
				t.Fatalf("got %s, want BAD_USER_INPUT on %s", res.Raw, tc.field)
			}
			var out struct{ Facts struct{ Edges []any } }
			env.MustDo(t, tok, `query($k: String) { facts(filter: {key: $k, validity: ALL}) { edges { cursor } } }`, map[string]any{"k": in["key"]}, &out)
			if len(out.Facts.Edges) != 0 {
				t.Fatalf("a rejected write stored a fact")
			}
		})
	}
}
