package permissions_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
)

// TestVector3 is the specification's test vector 3, end to end: an
// intern's "Let's offer 25%" never supersedes the CFO's "max 15%" policy,
// which stays the current value; the intern's statement is kept, beside
// it, and the refusal is audited.
func TestVector3(t *testing.T) {
	env := apitest.New(t)
	cfoID := apitest.Identity("acme", "cfo")
	cfoID.UserName, cfoID.Authority = "Dana (CFO)", "CFO"
	internID := apitest.Identity("acme", "intern")
	internID.UserName, internID.Authority, internID.AgentLevel = "Sam", "Intern", authority.AgentJunior
	cfo, intern := apitest.Token(t, cfoID), apitest.Token(t, internID)

	var policy written
	env.MustDo(t, cfo, writeQ, map[string]any{"in": map[string]any{
		"key": "discount.max", "value": "Discounts are capped at max 15%", "source": map[string]any{"type": "POLICY"}}}, &policy)
	var offer written
	env.MustDo(t, intern, writeQ, map[string]any{"in": map[string]any{
		"key": "discount.max", "value": "Let's offer 25%", "memoryType": "ORGANIZATIONAL",
		"supersedes": "discount.max", "reason": "customer asked"}}, &offer)
	if offer.WriteFact.Supersedes != nil {
		t.Fatalf("the intern's fact supersedes %v", offer.WriteFact.Supersedes)
	}

	for name, tok := range map[string]string{"cfo": cfo, "intern": intern} {
		var out struct {
			CurrentValue struct {
				ID, Value    string
				IsValid      bool
				IsConstraint bool
				Source       struct{ Type, Authority string }
			}
			FactHistory []struct {
				ID           string
				IsValid      bool
				Supersedes   *struct{ ID string }
				SupersededBy *struct{ ID string }
			}
			AuditTrail []struct{ Action, By, Detail string }
			Conflicts  struct {
				Edges []struct {
					Node struct {
						Status     string
						Candidates []struct{ ID string }
					}
				}
			}
		}
		env.MustDo(t, tok, `query($id: ID!) {
			currentValue(key: "discount.max") { id value isValid isConstraint source { type authority } }
			factHistory(key: "discount.max") { id isValid supersedes { id } supersededBy { id } }
			auditTrail(recordId: $id) { action by detail }
			conflicts(filter: {subject: "discount.max"}) { edges { node { status candidates { ... on Fact { id } } } } }
		}`, map[string]any{"id": offer.WriteFact.ID}, &out)
		if e := out.Conflicts.Edges; len(e) != 1 || e[0].Node.Status != "OPEN" || len(e[0].Node.Candidates) != 2 ||
			e[0].Node.Candidates[0].ID != policy.WriteFact.ID || e[0].Node.Candidates[1].ID != offer.WriteFact.ID {
			t.Errorf("%s: conflicts %+v, want one OPEN between the policy and the offer", name, e)
		}
		cv := out.CurrentValue
		if cv.ID != policy.WriteFact.ID || cv.Value != "Discounts are capped at max 15%" || !cv.IsValid || !cv.IsConstraint || cv.Source.Type != "POLICY" {
			t.Errorf("%s: current value %+v, want the CFO policy", name, cv)
		}
		if len(out.FactHistory) != 2 {
			t.Fatalf("%s: history has %d facts, want the policy and the offer", name, len(out.FactHistory))
		}
		for _, h := range out.FactHistory {
			if !h.IsValid || h.Supersedes != nil || h.SupersededBy != nil {
				t.Errorf("%s: history member %+v is linked or invalid; want two separate valid chains", name, h)
			}
		}
		// The offer's trail: its refusal (react stage), then its write
		// (observe stage), in that order within one instant.
		if len(out.AuditTrail) != 2 || out.AuditTrail[0].Action != "SUPERSESSION_REFUSED" || out.AuditTrail[0].By != policy.WriteFact.ID ||
			!strings.Contains(out.AuditTrail[0].Detail, "subordinate") || out.AuditTrail[1].Action != "WRITTEN" || out.AuditTrail[1].By != "" {
			t.Errorf("%s: audit trail %+v, want one SUPERSESSION_REFUSED by the policy, then WRITTEN", name, out.AuditTrail)
		}
	}
}

// TestForgetFact: a human user reads and forgets their own user memory
// (written by their agent) and gets the tombstone; history keeps it, the
// current value never shows it, the trail records it; nothing else can be
// forgotten.
func TestForgetFact(t *testing.T) {
	env := apitest.New(t)
	agentID := apitest.Identity("acme", "nicole")
	agentID.UserName = "Nicole's agent"
	userID := agentID
	userID.Kind, userID.AgentLevel, userID.UserName = authority.KindUser, "", "Nicole"
	other := apitest.Identity("acme", "omar")
	agent, user, omar := apitest.Token(t, agentID), apitest.Token(t, userID), apitest.Token(t, other)

	var home, moved, base, derived written
	env.MustDo(t, agent, writeQ, map[string]any{"in": map[string]any{"key": "user.home", "value": "Paris", "memoryType": "USER"}}, &home)
	env.MustDo(t, agent, writeQ, map[string]any{"in": map[string]any{"key": "user.home", "value": "Berlin, Kastanienallee 3",
		"memoryType": "USER", "supersedes": "user.home", "reason": "moved to Kastanienallee"}}, &moved)
	env.MustDo(t, agent, writeQ, map[string]any{"in": map[string]any{"key": "org.fact", "value": "x", "memoryType": "ORGANIZATIONAL"}}, &base)
	env.MustDo(t, agent, writeQ, map[string]any{"in": map[string]any{"key": "user.commute", "value": "20 minutes",
		"memoryType": "USER", "dependsOn": []string{moved.WriteFact.ID}}}, &derived)

	const forgetQ = `mutation($id: ID!) { forgetFact(id: $id) { id key value isValid forgotten { by at } supersession { reason } } }`
	for _, tc := range []struct{ name, tok, id, code string }{
		{"another user's fact", omar, moved.WriteFact.ID, "NOT_FOUND"},
		{"no such fact", user, "F-NOPE", "NOT_FOUND"},
		{"organizational memory", user, base.WriteFact.ID, "FORBIDDEN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if res := env.Do(t, tc.tok, forgetQ, map[string]any{"id": tc.id}); res.Code() != tc.code {
				t.Fatalf("code %q, want %q: %s", res.Code(), tc.code, res.Raw)
			}
		})
	}

	var out struct {
		ForgetFact struct {
			ID, Key, Value string
			IsValid        bool
			Forgotten      *struct{ By, At string }
			Supersession   *struct{ Reason *string }
		}
	}
	env.MustDo(t, user, forgetQ, map[string]any{"id": moved.WriteFact.ID}, &out)
	ff := out.ForgetFact
	if ff.Value != "" || ff.IsValid || ff.Forgotten == nil || ff.Forgotten.By != "Nicole (nicole)" || ff.Forgotten.At != "2026-01-05T09:00:00Z" ||
		ff.Key != "user.home" || ff.Supersession == nil || deref(ff.Supersession.Reason) != "" {
		t.Fatalf("tombstone %+v forgotten %+v supersession %+v", ff, ff.Forgotten, ff.Supersession)
	}
	if res := env.Do(t, user, forgetQ, map[string]any{"id": moved.WriteFact.ID}); res.Code() != "CONFLICT" {
		t.Errorf("forgetting twice: %s, want CONFLICT", res.Raw)
	}

	for name, tok := range map[string]string{"user": user, "agent": agent} {
		res := env.Do(t, tok, `query($id: ID!, $d: ID!) {
			currentValue(key: "user.home") { id }
			factHistory(key: "user.home") { id value isValid forgotten { by } }
			auditTrail(recordId: $id) { action actor kind }
			facts(filter: {key: "user.home"}) { edges { node { id } } }
			derived: fact(id: $d) { needsReview }
		}`, map[string]any{"id": moved.WriteFact.ID, "d": derived.WriteFact.ID})
		if strings.Contains(string(res.Raw), "Berlin") || strings.Contains(string(res.Raw), "Kastanienallee") {
			t.Errorf("%s: the forgotten value is still readable: %s", name, res.Raw)
		}
		var got struct {
			CurrentValue *struct{ ID string }
			FactHistory  []struct {
				ID, Value string
				IsValid   bool
				Forgotten *struct{ By string }
			}
			AuditTrail []struct{ Action, Actor, Kind string }
			Facts      struct{ Edges []any }
			Derived    struct{ NeedsReview bool }
		}
		res.Decode(t, &got)
		if got.CurrentValue != nil || len(got.Facts.Edges) != 0 {
			t.Errorf("%s: the forgotten fact is still current: %s", name, res.Raw)
		}
		if len(got.FactHistory) != 2 || got.FactHistory[0].Value != "Paris" || got.FactHistory[1].Forgotten == nil || got.FactHistory[1].IsValid {
			t.Errorf("%s: history %+v, want Paris then the tombstone", name, got.FactHistory)
		}
		if len(got.AuditTrail) != 2 || got.AuditTrail[0] != (struct{ Action, Actor, Kind string }{"WRITTEN", "Nicole's agent (nicole)", "fact"}) ||
			got.AuditTrail[1] != (struct{ Action, Actor, Kind string }{"FORGOTTEN", "Nicole (nicole)", "fact"}) {
			t.Errorf("%s: audit trail %+v", name, got.AuditTrail)
		}
		if !got.Derived.NeedsReview {
			t.Errorf("%s: a fact derived from the forgotten one is not flagged for review", name)
		}
	}
	// A superseding write cannot revive it.
	res := env.Do(t, agent, writeQ, map[string]any{"in": map[string]any{"key": "user.home", "value": "Rome", "memoryType": "USER", "supersedes": moved.WriteFact.ID}})
	if res.Code() != "CONFLICT" {
		t.Errorf("superseding a forgotten fact: %s, want CONFLICT", res.Raw)
	}
}

// TestCapabilityIsolation: an agent of one capability does not read
// another capability's memory, by any path, in the same organization.
func TestCapabilityIsolation(t *testing.T) {
	env := apitest.New(t)
	pricingID := apitest.Identity("acme", "agent-1")
	pricingID.Capability = "pricing"
	supportID := apitest.Identity("acme", "agent-1") // same user, other capability
	supportID.Capability = "support"
	noneID := apitest.Identity("acme", "agent-1")
	pricing, support, none := apitest.Token(t, pricingID), apitest.Token(t, supportID), apitest.Token(t, noneID)

	var learned written
	env.MustDo(t, pricing, writeQ, map[string]any{"in": map[string]any{"key": "cap.lesson", "value": "pricing-secret-lesson",
		"memoryType": "CAPABILITY", "level": "STRATEGY"}}, &learned)
	const q = `query($id: ID!) {
		fact(id: $id) { id value level }
		facts(filter: {validity: ALL}) { edges { node { id value } } }
		currentValue(key: "cap.lesson") { id }
		factHistory(key: "cap.lesson") { id }
		auditTrail(recordId: $id) { id }
	}`
	var mine struct {
		Fact struct{ Level string }
	}
	env.MustDo(t, pricing, q, map[string]any{"id": learned.WriteFact.ID}, &mine)
	if mine.Fact.Level != "STRATEGY" {
		t.Fatalf("the pricing agent reads level %q, want STRATEGY", mine.Fact.Level)
	}
	for name, tok := range map[string]string{"support": support, "no capability": none} {
		res := env.Do(t, tok, q, map[string]any{"id": learned.WriteFact.ID})
		if len(res.Errors) > 0 || strings.Contains(string(res.Raw), "pricing-secret") || strings.Contains(string(res.Raw), learned.WriteFact.ID) {
			t.Errorf("%s reads pricing memory: %s", name, res.Raw)
		}
		w := env.Do(t, tok, writeQ, map[string]any{"in": map[string]any{"key": "x", "value": 1, "memoryType": "ORGANIZATIONAL", "supersedes": learned.WriteFact.ID}})
		if w.Code() != "NOT_FOUND" {
			t.Errorf("%s supersedes pricing memory: %s", name, w.Raw)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestConflictVisibility: a conflict that involves a fact the caller may
// not read does not exist for them, by id, in lists, or to resolve.
func TestConflictVisibility(t *testing.T) {
	env := apitest.New(t)
	cfoID := apitest.Identity("acme", "cfo")
	cfoID.Authority = "CFO"
	repID := apitest.Identity("acme", "rep")
	repID.Authority = "Sales Rep"
	cfo, rep := apitest.Token(t, cfoID), apitest.Token(t, repID)
	env.MustDo(t, cfo, writeQ, map[string]any{"in": map[string]any{"key": "deal.floor", "value": "secret floor 40k",
		"memoryType": "ORGANIZATIONAL", "restrictedTo": map[string]any{"minAuthority": "executive"}}}, &written{})
	env.MustDo(t, rep, writeQ, map[string]any{"in": map[string]any{"key": "deal.floor", "value": "30k", "memoryType": "ORGANIZATIONAL"}}, &written{})
	const q = `{ conflicts(filter: {subject: "deal.floor"}) { edges { node { id candidates { ... on Fact { value } } } } } }`
	var seen struct {
		Conflicts struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	env.MustDo(t, cfo, q, nil, &seen)
	if len(seen.Conflicts.Edges) != 1 {
		t.Fatalf("the CFO sees %d conflicts, want 1", len(seen.Conflicts.Edges))
	}
	id := seen.Conflicts.Edges[0].Node.ID
	res := env.Do(t, rep, q+` `, nil)
	if strings.Contains(string(res.Raw), "secret") || strings.Contains(string(res.Raw), id) {
		t.Errorf("the rep sees the conflict: %s", res.Raw)
	}
	res = env.Do(t, rep, `query($id: ID!) { conflict(id: $id) { id } entity(id: "deal.floor") { conflicts { id } } }`, map[string]any{"id": id})
	if strings.Contains(string(res.Raw), id) {
		t.Errorf("the rep reads the conflict: %s", res.Raw)
	}
	res = env.Do(t, rep, `mutation($id: ID!) { resolveConflict(id: $id, keep: "x", reason: "mine") { id } }`, map[string]any{"id": id})
	if res.Code() != "NOT_FOUND" {
		t.Errorf("the rep resolves it: %s", res.Raw)
	}
}

// TestAssembledContextWithholds: assembled context never carries a fact
// the caller may not read, not even by id among the exclusions (here one
// superseded by a write that gave no restriction: the successor inherits
// its predecessor's, so it is withheld too); it reports only how many were
// withheld.
func TestAssembledContextWithholds(t *testing.T) {
	env := apitest.New(t)
	cfoID := apitest.Identity("acme", "cfo")
	cfoID.Authority = "CFO"
	repID := apitest.Identity("acme", "rep")
	repID.Authority = "Sales Rep"
	cfo, rep := apitest.Token(t, cfoID), apitest.Token(t, repID)
	var secret, old written
	env.MustDo(t, cfo, writeQ, map[string]any{"in": map[string]any{"key": "salary.band", "value": "E5 salary band is 180k zebra",
		"memoryType": "ORGANIZATIONAL", "restrictedTo": map[string]any{"minAuthority": "executive"}}}, &secret)
	env.MustDo(t, cfo, writeQ, map[string]any{"in": map[string]any{"key": "salary.review", "value": "salary review draft quokka",
		"memoryType": "ORGANIZATIONAL", "restrictedTo": map[string]any{"minAuthority": "executive"}}}, &old)
	var successor written
	env.MustDo(t, cfo, writeQ, map[string]any{"in": map[string]any{"key": "salary.review", "value": "salary reviews happen in March",
		"memoryType": "ORGANIZATIONAL", "supersedes": old.WriteFact.ID}}, &successor)
	const q = `{ assembleContext(input: {query: "salary band review zebra quokka", budget: 4000}) { text withheld excluded { id } included { id } } }`
	var out struct {
		AssembleContext struct {
			Text     string
			Withheld int
			Excluded []struct{ ID string }
			Included []struct{ ID string }
		}
	}
	env.MustDo(t, rep, q, nil, &out)
	ac := out.AssembleContext
	if strings.Contains(ac.Text, "zebra") || strings.Contains(ac.Text, "quokka") || strings.Contains(ac.Text, "March") {
		t.Errorf("the rep's context:\n%s", ac.Text)
	}
	for _, r := range append(ac.Excluded, ac.Included...) {
		if r.ID == secret.WriteFact.ID || r.ID == old.WriteFact.ID || r.ID == successor.WriteFact.ID {
			t.Errorf("the rep's provenance names withheld fact %s", r.ID)
		}
	}
	if ac.Withheld != 2 {
		t.Errorf("withheld %d, want 2", ac.Withheld)
	}
	env.MustDo(t, cfo, q, nil, &out)
	if !strings.Contains(out.AssembleContext.Text, "zebra") || !strings.Contains(out.AssembleContext.Text, "March") || out.AssembleContext.Withheld != 0 {
		t.Errorf("the CFO's context (withheld %d):\n%s", out.AssembleContext.Withheld, out.AssembleContext.Text)
	}
}

// TestForgetErasesText: after forgetFact no stored record holds the
// forgotten words (the value, the supersession reason, the search index's
// postings), and assembled context, now or as known before, never shows
// them.
func TestForgetErasesText(t *testing.T) {
	// It reads every byte Badger holds, so it runs on Badger (on disk)
	// whatever engine the rest of the suite runs on.
	env := apitest.New(t, apitest.OnBadger(t))
	agentID := apitest.Identity("acme", "nicole")
	userID := agentID
	userID.Kind, userID.AgentLevel = authority.KindUser, ""
	agent, user := apitest.Token(t, agentID), apitest.Token(t, userID)
	var f written
	env.MustDo(t, agent, writeQ, map[string]any{"in": map[string]any{"key": "user.allergy", "value": "allergic to xylophonic peanuts",
		"memoryType": "USER"}}, &f)
	before := apitest.Start.Format("2006-01-02T15:04:05Z")
	const q = `query($k: Time) { assembleContext(input: {query: "allergy xylophonic peanuts", budget: 4000, knownAt: $k}) { text } }`
	var out struct{ AssembleContext struct{ Text string } }
	env.MustDo(t, user, q, nil, &out)
	if !strings.Contains(out.AssembleContext.Text, "xylophonic") {
		t.Fatalf("the fact is not in context before forgetting:\n%s", out.AssembleContext.Text)
	}
	env.Clock.Advance(time.Minute)
	env.MustDo(t, user, `mutation($id: ID!) { forgetFact(id: $id) { id } }`, map[string]any{"id": f.WriteFact.ID}, &struct{}{})
	for _, k := range []any{nil, before} {
		env.MustDo(t, user, q, map[string]any{"k": k}, &out)
		if strings.Contains(out.AssembleContext.Text, "xylophonic") {
			t.Errorf("knownAt %v: forgotten words in context:\n%s", k, out.AssembleContext.Text)
		}
	}
	err := env.Server.Store().Badger().View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			if bytes.Contains(bytes.ToLower(it.Item().Key()), []byte("xylophonic")) || bytes.Contains(bytes.ToLower(v), []byte("xylophonic")) {
				t.Errorf("a stored record still holds the forgotten words: key %q", it.Item().Key())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
