package pipeline

import (
	"cmp"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// write is one fact on its way through the stages. Each stage reads what
// the earlier ones decided and adds its own part.
type write struct {
	caller authority.Identity
	in     facts.WriteInput
	now    time.Time

	// admit
	f     facts.Fact
	space tenancy.Space
	deps  []dependency
	gate  error // the inferred memory's gate refused; see arbitrate

	// arbitrate
	stale    bool        // stored invalid from birth (f.Stale says why)
	old      *facts.Fact // the fact retired, as it now stands
	oldSpace tenancy.Space
	refused  *facts.Fact // a higher-authority fact the write asked to supersede
	directed bool        // the Arbiter, not the write, named what it supersedes
}

// dependency is a fact the write depends on, and the space it lives in.
type dependency struct {
	id    string
	space tenancy.Space
}

// admit validates in and builds the fact: source and attribution, memory
// type, scope, constraint, restriction, the write gates, its space, its id
// and its dependencies. It writes nothing.
func (p *Pipeline) admit(tx *store.Txn, caller authority.Identity, in facts.WriteInput) (*write, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if in.ID != "" {
		if err := checkClientID(in.ID); err != nil {
			return nil, err
		}
	}
	if in.RestrictedTo != nil {
		if err := p.rules.Validate(*in.RestrictedTo); err != nil {
			return nil, err
		}
	}
	if in.PromotedFrom == "" && p.Volatile(in.Key) {
		return nil, fault.BadInputf("key", "admission rule volatile-predicate: key %q names volatile state, which is not stored as a fact; record it with assertState (a state assertion with a lease) and promote it with promoteState if it must persist", in.Key)
	}
	w := &write{caller: caller, in: in, now: p.clock.Now()}
	scope := inferScope(in)
	if in.PromotedFrom == "" && scope.Real() {
		if c, ok := StateContent(in.Key, in.Value, w.now); ok {
			return nil, fault.BadInputf("value", "admission rule %s: the value reads as short-lived state (%s %s, %q), which is not stored as a fact; record it with assertState (a state assertion with a lease) and promote it with promoteState if it must persist", RuleStateContent, c.Subject, c.Object, c.Cue)
		}
	}
	src := facts.DefaultSource(caller)
	if in.Source != nil {
		given := *in.Source
		if given.Type == "" {
			given.Type = src.Type
		}
		if given.Authority == "" {
			given.Authority = src.Authority
		} else if err := p.rules.Attribute(caller, given.Authority); err != nil {
			return nil, err
		}
		src = given
	}
	mt := in.MemoryType
	if mt == "" {
		mt = facts.InferMemoryType(src.Type, caller)
	}
	f := facts.Fact{
		ID: in.ID, Key: in.Key, Value: facts.Compact(in.Value), MemoryType: mt,
		Scope: scope, ScopeID: in.ScopeID,
		Source: src, DependsOn: facts.Dedupe(in.DependsOn),
		ValidFrom: w.now, RecordedAt: w.now, PromotedFrom: in.PromotedFrom,
	}
	if in.ValidFrom != nil {
		f.ValidFrom = in.ValidFrom.UTC()
	}
	if in.RestrictedTo != nil && !in.RestrictedTo.Empty() {
		r := *in.RestrictedTo
		f.RestrictedTo = &r
	}
	f.IsConstraint, f.ConstraintType = constraint(in, f.Text(), src.Type)
	if err := p.gateMemory(caller, &f, in.Level); err != nil {
		if in.MemoryType != "" || in.Supersedes == "" {
			return nil, err
		}
		// A write that names no memory and supersedes a fact is written
		// in that fact's memory (stayInSpace), whose gates apply then:
		// this one holds only if it stays here.
		w.gate = err
	}
	sp, err := facts.SpaceOf(tx.Partition(), f.MemoryType)
	if err != nil {
		return nil, err
	}
	w.space, f.Owner = sp, sp.Owner()
	if p.rules.IsPolicy(src.Type == facts.SourcePolicy, f.IsConstraint, src.Authority) {
		if err := p.rules.WritePolicy(caller); err != nil {
			return nil, err
		}
	}
	// The id: fresh, or the client's, namespaced by the restriction (ids.go).
	w.f = f
	if err := p.claimID(tx, w); err != nil {
		return nil, err
	}
	f.ID = w.f.ID
	for _, dep := range f.DependsOn {
		if dep == f.ID {
			return nil, fault.BadInputf("dependsOn", "a fact cannot depend on itself")
		}
		_, depSpace, err := p.facts.FindVisible(tx, caller, dep)
		if errors.Is(err, store.ErrNotFound) {
			return nil, fault.BadInputf("dependsOn", "dependsOn names no fact with id %q", dep)
		}
		if err != nil {
			return nil, err
		}
		w.deps = append(w.deps, dependency{id: dep, space: depSpace})
	}
	w.f = f
	return w, nil
}

// constraint decides whether the fact is a constraint, and of which type:
// as the write says, else inferred from its text and source.
func constraint(in facts.WriteInput, text string, src facts.SourceType) (bool, string) {
	switch {
	case in.IsConstraint != nil && *in.IsConstraint && in.ConstraintType == "":
		_, t := facts.InferConstraint(text, src)
		return true, t
	case in.IsConstraint != nil:
		return *in.IsConstraint, in.ConstraintType
	case in.ConstraintType != "":
		return true, in.ConstraintType
	}
	return facts.InferConstraint(text, src)
}

// gateMemory applies the write gates of f's memory type: user memory is
// not created by users; capability memory carries a level (default EVENT)
// that the agent's maturity must reach.
func (p *Pipeline) gateMemory(caller authority.Identity, f *facts.Fact, level facts.MemoryLevel) error {
	switch f.MemoryType {
	case facts.MemoryUser:
		if err := p.rules.WriteUserMemory(caller); err != nil {
			return err
		}
	case facts.MemoryCapability:
		f.Level = cmp.Or(level, facts.LevelEvent)
		return p.rules.WriteCapability(caller, f.Level.AgentLevel(), string(f.Level))
	}
	if level != "" {
		return fault.BadInputf("level", "level applies to CAPABILITY memory only; this fact is %s memory", f.MemoryType)
	}
	return nil
}

// RuleStateContent names the admission rule that refuses a fact whose
// value reads as short-lived state.
const RuleStateContent = "state-content"

// StateContent judges a fact's value as extract.State does a sentence, at
// now: the value's opening sentence, else, for a bare value, "<key> is
// <value>" ("availability": "in a meeting until 3", "build_status":
// "red"). Only string values are judged; a key's name alone never makes
// state ("current_address": "12 Elm Row" is a fact).
func StateContent(key string, value json.RawMessage, now time.Time) (extract.StateClaim, bool) {
	text, ok := facts.StringValue(value)
	if !ok || strings.TrimSpace(text) == "" {
		return extract.StateClaim{}, false
	}
	if c, ok := extract.State(text, now); ok {
		return c, true
	}
	if !bare(text) {
		return extract.StateClaim{}, false
	}
	return extract.State(keyPhrase(key)+" is "+text, now)
}

// maxBare is the most words of a value read with its key.
const maxBare = 8

// bare reports a value that is a complement only: a few words without a
// copula or a label of their own ("in a meeting until 3", "red"), which
// the key completes into a sentence.
func bare(text string) bool {
	ws := strings.Fields(strings.ToLower(text))
	if len(ws) > maxBare || strings.ContainsAny(text, ":[]()") {
		return false
	}
	for _, w := range ws {
		switch strings.Trim(w, ",.;!") {
		case "is", "are", "am", "was", "were", "be", "been", "isn't", "aren't":
			return false
		}
		if strings.Contains(w, "'") || strings.Contains(w, "’") {
			return false
		}
	}
	return true
}

// keyPhrase renders a key's last segment as words: "Entity#42.build_status"
// → "build status".
func keyPhrase(key string) string {
	if i := strings.LastIndexAny(key, ".:/"); i >= 0 {
		key = key[i+1:]
	}
	return strings.TrimSpace(keySeparators.Replace(key))
}

// keySeparators turns a key's separators into spaces.
var keySeparators = strings.NewReplacer("_", " ", "-", " ")

// inferScope is the scope the write asks for, else the one its value's
// opening words ask for ("Hypothetically, …", "Suppose …", "What if …",
// "Draft: …", "[DRAFT] …"; see extract.Scope), else GLOBAL. Only the
// opening two words are read, and a conditional opener ("If …", "Unless
// …", "In case …") does not count: "If the budget exceeds $10k, ask the
// CFO" and "Refunds within 30 days, if the receipt is kept" are rules,
// stored as real facts.
func inferScope(in facts.WriteInput) facts.Scope {
	if in.Scope != "" {
		return in.Scope
	}
	if text, ok := facts.StringValue(in.Value); ok {
		switch extract.Scope(opening(text)) {
		case extract.ScopeHypothetical:
			return facts.ScopeHypothetical
		case extract.ScopeDraft:
			return facts.ScopeDraft
		}
	}
	return facts.ScopeGlobal
}

// conditionalOpeners open a rule, not a scenario.
var conditionalOpeners = map[string]bool{"if": true, "unless": true, "whether": true, "when": true, "in case": true}

// opening returns the first two words of text, or "" when they open a
// condition.
func opening(text string) string {
	ws := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	if len(ws) > 2 {
		ws = ws[:2]
	}
	if len(ws) > 0 && (conditionalOpeners[ws[0]] || conditionalOpeners[strings.Join(ws, " ")]) {
		return ""
	}
	return strings.Join(ws, " ")
}
