// Package revision applies what a conversation turn changes: it records the
// turn, runs supersession detection (package detect) over the records the
// caller knows, and, in the turn's own transaction, supersedes facts,
// retires the turns that stated the replaced values and revokes state
// assertions, through the same machinery as explicit writes. It keeps the
// changes the conversation made, per organization, so that a later write
// restating a replaced value is recognised as stale.
package revision

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stategraph/stategraph/assertions"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/constraint"
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Bounds on what one turn is compared with; they keep recordTurn's cost
// independent of the partition's size.
const (
	// SmallPartition: with at most this many valid facts in a space, all
	// are compared with the turn.
	SmallPartition = 200
	// PerTermFacts: each word of the turn brings at most this many of the
	// most recent valid facts indexed under it.
	PerTermFacts = 50
	// MaxFacts bounds the facts compared with one turn.
	MaxFacts = 400
	// RecentTurns is how many of the session's latest turns are compared.
	RecentTurns = 10
	// MaxAssertions bounds the active assertions compared.
	MaxAssertions = 50
	// MaxChanges is how many of the latest recorded changes a write is
	// checked against for staleness.
	MaxChanges = 500
)

// RefKind is the kind of a superseded record.
type RefKind string

// The record kinds.
const (
	RefFact      RefKind = "FACT"
	RefTurn      RefKind = "TURN"
	RefAssertion RefKind = "ASSERTION"
	RefEnv       RefKind = "ENVIRONMENT"
)

// Ref names a record a detection superseded.
type Ref struct {
	ID   string
	Kind RefKind
}

// Detection is one supersession found in a turn, as applied.
type Detection struct {
	Kind        detect.Kind
	Cue         string
	Superseded  []Ref
	Key         string
	Previous    string
	Replacement string
	Confidence  float64
	// Blocked: the statement ranks below a record it would replace, so it
	// superseded nothing.
	Blocked bool
}

// Constraint is a rule the turn states.
type Constraint struct {
	Type string // a constraint.Type, lower case
	Cue  string
	Text string
}

// Result is what recording a turn did.
type Result struct {
	Turn       session.Turn
	Scope      detect.Scope
	Detections []Detection
	Constraint *Constraint
	// Extracted are the statements extracted from the turn's real
	// sentences and what each did.
	Extracted []Extraction
	// Superseded are the facts the turn superseded (by extraction or
	// detection) or retracted, as they now stand.
	Superseded []Retired
	// RetiredTurns are earlier turns the turn took back ("scratch that").
	RetiredTurns []string
	// Asserted are the state assertions the turn's short-lived statements
	// became ("the build is red right now"), each with its lease.
	Asserted []assertions.Assertion
	// Skipped are the sentences and clauses that changed nothing, and why.
	Skipped []extract.Skip
	// Speaker is who the turn is attributed to, and Authority the
	// authority their word carries.
	Speaker, Authority string
}

// Assertions is what revision needs of the state assertions.
type Assertions interface {
	// EachActiveTx calls fn with up to limit of the organization's
	// assertions active at now, newest first; fn reads them and keeps no
	// slice or pointer of theirs.
	EachActiveTx(tx *store.Txn, now time.Time, limit int, fn func(assertions.Assertion) bool) error
	AssertTx(tx *store.Txn, caller authority.Identity, in assertions.Input) (assertions.Assertion, error)
	RetractTx(tx *store.Txn, caller authority.Identity, id, by, detail string, now time.Time) (bool, error)
}

var _ Assertions = (*assertions.Service)(nil)

// Service records turns and applies what they change. It is safe for
// concurrent use.
type Service struct {
	store      *store.Store
	clock      temporal.Clock
	facts      *facts.Service
	write      *pipeline.Pipeline
	index      *search.Index
	sessions   *session.Service
	assertions Assertions
	rules      *permissions.Rules
	detect     detect.Options
	relayFrom  string
	title      func(tx *store.Txn, user string) (string, error)
	changes    changeCache
	decoded    factCache
	sizes      spaceSizes
	ids        *ids.Generator
}

// spaceSizes remembers which spaces relevantFacts last found large
// (above SmallPartition readable facts), so that it asks such a space's
// size and its words' frequencies in one read of the statistics, not two.
// It is only a hint: a space that grew or shrank since is read as before,
// and the facts a turn reads are the same either way.
type spaceSizes struct {
	mu    sync.Mutex
	large map[tenancy.Space]bool
}

func (z *spaceSizes) isLarge(sp tenancy.Space) bool {
	z.mu.Lock()
	defer z.mu.Unlock()
	return z.large[sp]
}

func (z *spaceSizes) note(sp tenancy.Space, large bool) {
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.large[sp] == large {
		return
	}
	if z.large == nil || len(z.large) >= 1<<12 {
		z.large = map[tenancy.Space]bool{}
	}
	z.large[sp] = large
}

// changeCache keeps, per organization, the latest recorded changes as
// decoded for staleness checks, under the version that TableRevisionMarker
// held when they were read. Every new change rewrites the version, so a
// cached list is used only while it is exactly what the store holds.
type changeCache struct {
	mu sync.Mutex
	m  map[string]cachedChanges
}

type cachedChanges struct {
	version string
	changes []change
}

func (c *changeCache) get(org, version string) ([]change, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[org]
	return e.changes, ok && e.version == version
}

func (c *changeCache) put(org, version string, cs []change) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]cachedChanges{}
	}
	c.m[org] = cachedChanges{version: version, changes: cs}
}

// Options configure a Service. Assertions and Rules may be nil.
type Options struct {
	Store *store.Store
	Clock temporal.Clock
	Facts *facts.Service
	// Pipeline writes the facts a turn supersedes, and is given the
	// service as its Arbiter of explicit writes.
	Pipeline   *pipeline.Pipeline
	Index      *search.Index
	Sessions   *session.Service
	Assertions Assertions
	Order      *authority.Order
	// Rules decide whether the speaker's authority may supersede a fact;
	// nil lets detection's own authority check decide alone.
	Rules *permissions.Rules
	// Detect tunes detection; its Order is replaced by Order.
	Detect detect.Options
	// RelayFrom is the lowest authority whose relayed claims ("the COO
	// says …") carry the cited role's authority; default "subordinate"
	// (anyone inside the organization). A relayed claim never carries
	// policy authority.
	RelayFrom string
	// IDs makes the ids of recorded changes; nil makes them with ulid.Make.
	IDs *ids.Generator
	// ProfileTitle returns the title of a person's identity profile in the
	// organization of tx ("" when none): a turn's speakerId takes the
	// authority of that title before profile facts are consulted. Nil
	// consults profile facts only.
	ProfileTitle func(tx *store.Txn, user string) (string, error)
}

// DefaultRelayFrom is Options.RelayFrom's default.
const DefaultRelayFrom = "subordinate"

// New returns a Service and installs it as the write pipeline's Arbiter
// (call it at wiring time, before serving).
func New(o Options) *Service {
	s := &Service{
		store: o.Store, clock: o.Clock, facts: o.Facts, write: o.Pipeline, index: o.Index,
		sessions: o.Sessions, assertions: o.Assertions, rules: o.Rules, detect: o.Detect, ids: o.IDs,
		relayFrom: cmp.Or(o.RelayFrom, DefaultRelayFrom), title: o.ProfileTitle,
	}
	s.detect.Order = o.Order
	o.Pipeline.SetArbiter(arbiter{s})
	return s
}

// change is the value of store.TableRevisionChange.
type change struct {
	Key    string    `json:"key,omitempty"`
	Old    string    `json:"old"`
	New    string    `json:"new"`
	At     time.Time `json:"at"`
	Turn   string    `json:"turn"`
	Kind   string    `json:"kind"`
	Cue    string    `json:"cue,omitempty"`
	Record time.Time `json:"recordedAt"`
	// By are the facts the change wrote (the replacements), and User the
	// user whose conversation made it: a later write is judged stale
	// against the change only for a caller who may read one of By (or,
	// when it wrote none, for User alone). Changes recorded before these
	// fields existed have neither and are judged for everyone.
	By   []string `json:"by,omitempty"`
	User string   `json:"user,omitempty"`
}

// RecordTurn records in's turn in the caller's session and applies what it
// states, all in one transaction: retractions, the facts extracted from
// its real sentences, and the supersessions detection finds in them.
func (s *Service) RecordTurn(ctx context.Context, in session.TurnInput) (Result, error) {
	return s.run(ctx, in, s.store.Update)
}

// PreviewTurn answers what RecordTurn would do with in, and changes
// nothing: the same transaction, discarded.
func (s *Service) PreviewTurn(ctx context.Context, in session.TurnInput) (Result, error) {
	return s.run(ctx, in, s.store.Preview)
}

func (s *Service) run(ctx context.Context, in session.TurnInput, txn func(context.Context, tenancy.Partition, func(*store.Txn) error) error) (Result, error) {
	caller, err := authority.FromContext(ctx)
	if err != nil {
		return Result{}, err
	}
	p, err := tenancy.For(caller)
	if err != nil {
		return Result{}, err
	}
	var res Result
	err = txn(ctx, p, func(tx *store.Txn) error {
		var err error
		res, err = s.recordTx(tx, caller, in)
		return err
	})
	return res, err
}

func (s *Service) recordTx(tx *store.Txn, caller authority.Identity, in session.TurnInput) (Result, error) {
	spk, err := s.speakerOf(tx, caller, in)
	if err != nil {
		return Result{}, err
	}
	at := s.clock.Now()
	if in.At != nil {
		at = in.At.UTC()
	}
	ar := extract.Analyze(extract.Turn{Text: in.Text, Speaker: spk.name, At: at})
	spk.done = spk.assistant && extract.ReportsDone(ar.Sentences)
	rs := extract.Retractions(ar)
	retracts := map[int]bool{}
	for _, r := range rs {
		retracts[r.Index] = true // it retires, it states no new value
	}
	real := realText(ar, retracts)
	scope := turnScope(in.Text, real, ar)
	if scope != detect.ScopeGlobal && in.Scope == "" {
		in.Scope = facts.Scope(scope)
	}
	t, err := s.sessions.RecordTurnTx(tx, in)
	if err != nil {
		return Result{}, err
	}
	// Every sentence stays retrievable as evidence, however old.
	if err := evidence.IndexTurnTx(tx, evidence.Turn{ID: t.ID, SessionID: t.SessionID, Speaker: spk.name, At: t.At, RecordedAt: t.RecordedAt, Scope: t.Scope}, ar.Sentences); err != nil {
		return Result{}, err
	}
	res := Result{Turn: t, Scope: scope, Skipped: ar.Skipped, Speaker: spk.name, Authority: spk.authority}
	if c, ok := constraint.Classify(constraintSentences(ar)...); ok {
		// The API spells the taxonomy's types in lower case.
		res.Constraint = &Constraint{Type: strings.ToLower(string(c.Type)), Cue: c.Cue, Text: c.Text}
	}
	if scope != detect.ScopeGlobal {
		// Hypothetical, draft and task talk changes no real state.
		return res, nil
	}
	now := s.clock.Now()
	rd := readAhead(detect.Turn{Text: real, Speaker: strings.ToLower(string(t.Speaker)), Authority: spk.authority, At: t.At}, s.detect, ar, !spk.assistant)
	k, err := s.known(tx, spk.as(caller), t, now)
	reading := rd.wait()
	if err != nil {
		return Result{}, err
	}
	named := factKeys(k)
	k.sentences = make([]string, len(ar.Sentences))
	for i, sent := range ar.Sentences {
		k.sentences[i] = sent.Text
	}
	k.kept = keptFacts(k)
	if err := s.retract(tx, caller, t, spk, rs, k, now, &res); err != nil {
		return Result{}, err
	}
	var dets []detect.Detection
	if real != "" {
		dr := reading.Compare(k.records)
		if dr.Scope == detect.ScopeGlobal {
			dets = dr.Detections
		}
	}
	found := map[string]detect.Detection{}
	for _, d := range dets {
		for _, r := range d.Superseded {
			if _, ok := found[r.ID]; !ok && r.Kind == detect.RecordFact && !d.Blocked {
				found[r.ID] = d
			}
		}
	}
	stated, err := s.assertStates(tx, caller, t, spk, ar, k, &res)
	if err != nil {
		return Result{}, err
	}
	if err := s.applyExtraction(tx, caller, t, spk, withoutSentences(ar, stated), k, found, &res); err != nil {
		return Result{}, err
	}
	if err := s.applySwaps(tx, caller, t, spk, ar, k, found, &res); err != nil {
		return Result{}, err
	}
	anchors := anchorsOf(ar, stated, k, t.ID, t.At)
	if err := s.applyAnchors(tx, caller, t, spk, anchors, k, found, &res); err != nil {
		return Result{}, err
	}
	var ids []string
	replaced := map[string]*Extraction{} // fact id -> the extraction that superseded it
	for i := range res.Extracted {
		x := &res.Extracted[i]
		if x.Fact != nil {
			ids = append(ids, x.Fact.ID)
		}
		if x.Previous == nil {
			continue
		}
		if x.Outcome == OutcomeSuperseded {
			replaced[x.Previous.ID] = x
		}
		// Extraction settled this fact: detection does not rewrite it.
		delete(k.facts, x.Previous.ID)
	}
	if err := session.NoteTx(tx, t, ids, omitted(ar, res.Extracted, stated, retracts)); err != nil {
		return Result{}, err
	}
	if spk.assistant {
		dets = assistantsOwn(dets, k, spk)
	}
	dets = gateFactDetections(dets, real, anchors, k, named)
	dets = reconcile(dets, replaced, res.Extracted, k)
	writer := spk.as(caller)
	for _, d := range dets {
		out := Detection{
			Kind: d.Kind, Cue: d.Cue, Key: d.Key, Previous: d.Previous, Replacement: d.Replacement,
			Confidence: d.Confidence, Blocked: d.Blocked,
		}
		if !d.Blocked {
			for _, r := range d.Superseded {
				if f, ok := k.facts[r.ID]; ok && f.Source.Rule != "" {
					d.Key = changeKey(f)
				}
			}
			before := len(res.Superseded)
			if out.Superseded, out.Blocked, err = s.apply(tx, writer, t, d, k, replaced, now, &res); err != nil {
				return Result{}, err
			}
			if len(out.Superseded) == 0 && !out.Blocked {
				continue
			}
			var by []string
			for _, r := range res.Superseded[before:] {
				if r.By != nil {
					by = append(by, r.By.ID)
				}
			}
			for _, r := range out.Superseded {
				// A fact extraction replaced: its successor made the
				// change, and who may know of it is who may read that.
				if x, ok := replaced[r.ID]; ok && x.Fact != nil {
					by = append(by, x.Fact.ID)
				}
			}
			if err := s.putChange(tx, caller, t, d, by, now); err != nil {
				return Result{}, err
			}
		}
		res.Detections = append(res.Detections, out)
	}
	return res, nil
}

// keptFacts are the facts of k that a sentence of the turn says are as
// they were, whatever the sentence's reason: "at least the unit door code
// didn't change", "my territory stays pnw", "Denise is still ours", "prod
// stays on 13". The same turn's change of another thing of the kind ("they
// changed the med room code to 1379") does not reach them.
func keptFacts(k known) map[string]bool {
	kept := map[string]bool{}
	var sents []string
	for i, sent := range k.sentences {
		if !extract.MayKeep(sent) {
			continue
		}
		sents = append(sents, sent)
		if i > 0 && reOursAlone.MatchString(sent) {
			// "Auxiliary dues went up to $55. Ours stayed put.": "ours"
			// is of the thing the sentence before named.
			sents = append(sents, k.sentences[i-1]+" "+sent)
		}
		if m := reOthersSame.FindStringSubmatch(sent); m != nil && i > 0 {
			// "Zayo sent out a new NOC number, 800-555-0142. Lumen's is
			// the same.": of two owners' things, one changed; a key that
			// names neither may be the one that stayed.
			for id, f := range k.facts {
				if prev := k.sentences[i-1]; extract.Names(prev, f.Key) && !extract.Names(m[1], f.Key) && !namesByName(prev, f.Key) {
					kept[id] = true
				}
			}
		}
	}
	if len(sents) == 0 {
		return kept
	}
	for id, f := range k.facts {
		for _, sent := range sents {
			if extract.KeepsTopic(sent, f.Key) || extract.KeepsStored(sent, k.valueText(f)) {
				kept[id] = true
				break
			}
		}
	}
	return kept
}

// namesByName reports text that names the fact keyed key by a
// capitalised word: "Harbor's inspection got moved up" names
// harbor_health_inspection by its owner.
func namesByName(text, key string) bool {
	for _, w := range strings.Fields(text) {
		w = strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(w, ".,;:!?"), "'s"), "’s")
		if w != "" && unicode.IsUpper([]rune(w)[0]) && strings.ToUpper(w) != w && extract.Names(w, key) { // ("NOC" is the thing's kind)
			return true
		}
	}
	return false
}

// reOthersSame is a sentence that says a named owner's thing is as it
// was: "Lumen's is the same."
var reOthersSame = regexp.MustCompile(`^(\p{Lu}[\p{L}\d&-]*)['’]s\s+(?:is|are|stays|stayed|remains|hasn['’]t changed)\s*(?:still\s+|unchanged|the same|put)`)

// reOursAlone opens a sentence on "ours" or "mine".
var reOursAlone = regexp.MustCompile(`(?i)^(?:but\s+|and\s+)?(?:ours|mine)\b`)

// assistantsOwn keeps, of what detection found in an assistant's turn,
// only the supersession of what the assistant itself said, or of a fact
// the assistant reports it changed itself, with a word of change, in the
// sentence that says the new value ("I've moved your portfolio review
// with Greg to Thursday, January 22"): an assistant's restatement or
// suggestion never replaces what the user stated or what the
// organization recorded.
func assistantsOwn(dets []detect.Detection, k known, spk speaker) []detect.Detection {
	var out []detect.Detection
	for _, d := range dets {
		reported := d.Kind != detect.KindImplicit && slices.ContainsFunc(k.sentences, func(s string) bool {
			return containsFold(s, d.Replacement) && spk.acted(s)
		})
		var refs []detect.Ref
		for _, r := range d.Superseded {
			switch r.Kind {
			case detect.RecordFact:
				if f, ok := k.facts[r.ID]; ok && (f.Source.Speaker == "assistant" || reported) {
					refs = append(refs, r)
				}
			case detect.RecordTurn:
				if o, ok := k.turns[r.ID]; ok && o.Speaker == session.SpeakerAssistant {
					refs = append(refs, r)
				}
			}
		}
		if len(refs) > 0 {
			d.Superseded = refs
			out = append(out, d)
		}
	}
	return out
}

// reconcile merges the supersessions extraction made with detection's:
// a detection of a fact extraction replaced reports extraction's value
// (the new value only, as said); a replacement detection did not find is
// reported as a detection of its own (EXPLICIT when the sentence corrects
// or changes, IMPLICIT otherwise), so that every supersession a turn made
// is listed, with the earlier turns that stated the replaced value.
func reconcile(dets []detect.Detection, replaced map[string]*Extraction, xs []Extraction, k known) []detect.Detection {
	covered := map[string]bool{}
	for i, d := range dets {
		for _, r := range d.Superseded {
			if x, ok := replaced[r.ID]; ok && r.Kind == detect.RecordFact {
				dets[i].Replacement, dets[i].Key = x.Value, changeKey(x.Previous)
				dets[i].Previous = x.Previous.ValueText()
				covered[r.ID] = true
			}
		}
	}
	for _, x := range xs {
		if x.Outcome != OutcomeSuperseded || covered[x.Previous.ID] {
			continue
		}
		d := detect.Detection{
			Kind: detect.Kind(x.Fact.Supersession.Detection), Cue: x.Fact.Supersession.Cue, Key: changeKey(x.Previous),
			Previous: x.Previous.ValueText(), Replacement: x.Value, Confidence: 0.9,
			Superseded: []detect.Ref{{ID: x.Previous.ID, Kind: detect.RecordFact}},
		}
		prev := x.Previous.ValueText()
		for _, o := range k.turns {
			if prev != "" && containsFold(o.Text, prev) && !containsFold(o.Text, x.Value) {
				d.Superseded = append(d.Superseded, detect.Ref{ID: o.ID, Kind: detect.RecordTurn})
			}
		}
		slices.SortFunc(d.Superseded[1:], func(a, b detect.Ref) int { return strings.Compare(a.ID, b.ID) })
		dets = append(dets, d)
	}
	return dets
}

// changeKey is the key a change of fact f is recorded under, for
// staleness checks: its key, or none when extraction named it (the key is
// then ours, not a client's, and a later write of the replaced value is
// stale whatever it calls it).
func changeKey(f *facts.Fact) string {
	if f.Source.Rule != "" {
		return ""
	}
	return f.Key
}

// changeWords mark a sentence that says a value changed.
var changeWords = []string{
	"actually", "instead", "now", "no longer", "moved", "changed", "switched", "updated", "update", "correction",
	"taking over", "takes over", "taken over", "replaced", "rescheduled", "pushed", "cut", "raised", "increased",
	"decreased", "reduced", "bumped", "going with", "make that", "new ",
}

func changeWord(sentence string) bool {
	low := " " + strings.ToLower(sentence) + " "
	for _, w := range changeWords {
		if strings.Contains(low, " "+w) {
			return true
		}
	}
	return false
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// constraintSentences are the sentences of a turn that may state a rule:
// all but questions, hypotheticals, drafts and headings (a negated
// sentence often is one: "do not share customer data").
func constraintSentences(ar extract.Result) []string {
	var out []string
	for _, s := range ar.Sentences {
		switch s.Reason {
		case extract.ReasonQuestion, extract.ReasonHypothetical, extract.ReasonDraft, extract.ReasonHeading, extract.ReasonPast, extract.ReasonOtherSubject:
			continue
		}
		out = append(out, s.Text)
	}
	return out
}

// speakerOf is who said the turn: the assistant; the caller's user; or
// the person speakerId names, with the authority of the title of their
// identity profile, else of their role in the organization's profile
// facts (a valid fact keyed like "<id>.role"), else the lowest authority:
// a named stranger's word replaces nothing.
func (s *Service) speakerOf(tx *store.Txn, caller authority.Identity, in session.TurnInput) (speaker, error) {
	switch {
	case in.Speaker == session.SpeakerAssistant:
		return speaker{name: "assistant", id: "assistant", authority: caller.Authority, assistant: true, turn: in.Speaker}, nil
	case in.SpeakerID == "" || in.SpeakerID == caller.UserID:
		return speaker{name: "user", id: caller.UserID, authority: caller.Authority, turn: in.Speaker}, nil
	}
	spk := speaker{name: in.SpeakerID, id: in.SpeakerID, turn: in.Speaker}
	if s.detect.Order != nil {
		spk.authority = s.detect.Order.Lowest()
	}
	auth, err := s.titleAuthority(tx, in.SpeakerID)
	if err != nil {
		return speaker{}, err
	}
	if auth == "" {
		if auth, err = s.profileAuthority(tx, caller, in.SpeakerID); err != nil {
			return speaker{}, err
		}
	}
	if auth != "" {
		spk.authority = auth
	}
	return spk, nil
}

// titleAuthority is the authority of the title of person id's identity
// profile, or "" when they have none or it names no authority.
func (s *Service) titleAuthority(tx *store.Txn, id string) (string, error) {
	if s.title == nil || s.detect.Order == nil || !facts.ValidID(id) {
		return "", nil
	}
	t, err := s.title(tx, id)
	if err != nil || t == "" {
		return "", err
	}
	name, _ := s.detect.Order.Resolve(t)
	return name, nil
}

// profileWords name the attribute of a person's role in a profile fact.
var profileWords = map[string]bool{"role": true, "title": true, "position": true, "authority": true, "job": true}

// profileAuthority is the authority of the role the organization's
// valid profile facts give person id, or "" when none does.
func (s *Service) profileAuthority(tx *store.Txn, caller authority.Identity, id string) (string, error) {
	if s.detect.Order == nil || !facts.ValidID(id) {
		return "", nil
	}
	fs, err := s.relevantFacts(tx, caller, id)
	if err != nil {
		return "", err
	}
	want := strings.ToLower(id)
	var best *decodedFact
	found := false
	for _, f := range fs {
		ws := strings.FieldsFunc(strings.ToLower(f.Key), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if !slices.Contains(ws, want) || !slices.ContainsFunc(ws, func(w string) bool { return profileWords[w] }) {
			continue
		}
		if !found || f.RecordedAt.After(best.RecordedAt) {
			best, found = f, true
		}
	}
	if !found {
		return "", nil
	}
	name, ok := s.detect.Order.Resolve(best.text)
	if !ok {
		return "", nil
	}
	return name, nil
}

// known is what a turn is compared with.
type known struct {
	records []detect.Record
	// facts are shared with the cache of decoded facts: read them, copy
	// one to change it.
	facts map[string]*facts.Fact
	// text is the value of each fact of facts as text, as decoded with
	// it (a fact's value never changes).
	text       map[string]string
	turns      map[string]session.Turn
	assertions map[string]bool
	env        map[string]environment.Entry
	// previous is each speaker's latest earlier live turn (speaker.turnKey).
	previous map[string]session.Turn
	// recent are the ids of the last three earlier turns: what "make that
	// …" can refer to.
	recent map[string]bool
	// sentences are the turn's sentences, as extract.Analyze cut them.
	sentences []string
	// kept are the facts a sentence of the turn, refused or not, says
	// are as they were (keptFacts): nothing in the turn changes them.
	kept map[string]bool
}

// known gathers the valid facts the turn's words index (all of them in a
// small partition), the session's recent live turns and the active
// assertions of the organization.
func (s *Service) known(tx *store.Txn, caller authority.Identity, t session.Turn, now time.Time) (known, error) {
	k := known{
		facts: map[string]*facts.Fact{}, text: map[string]string{}, turns: map[string]session.Turn{}, assertions: map[string]bool{},
		env: map[string]environment.Entry{}, previous: map[string]session.Turn{}, recent: map[string]bool{},
	}
	fs, err := s.relevantFacts(tx, caller, t.Text)
	if err != nil {
		return k, err
	}
	for _, f := range fs {
		k.facts[f.ID], k.text[f.ID] = &f.Fact, f.text
		auth := f.Source.Authority
		// An attributed instruction carries its speaker's rank.
		if d, ok := detect.ParseDirective(f.text, s.detect); ok && d.Rank > s.detect.Rank(auth) {
			auth = d.Authority
		}
		k.records = append(k.records, detect.Record{
			ID: f.ID, Kind: detect.RecordFact, Key: f.Key, Value: f.text, Authority: auth, At: f.ValidFrom,
		})
	}
	turns, err := session.TurnsTx(tx, t.SessionID, temporal.View{}, RecentTurns+1)
	if err != nil {
		return k, err
	}
	for _, o := range turns {
		if o.ID == t.ID || o.Superseded || o.Expired(now) {
			continue
		}
		k.turns[o.ID] = o
		k.previous[turnKeyOf(o, caller)] = o
		k.records = append(k.records, detect.Record{ID: o.ID, Kind: detect.RecordTurn, Value: o.Text, At: o.At})
	}
	for i := len(turns) - 1; i >= 0 && len(k.recent) < 3; i-- {
		if turns[i].ID != t.ID {
			k.recent[turns[i].ID] = true
		}
	}
	// Live environment signals: a turn announcing a newer value of a
	// signal ("Update: the renewal is tomorrow") replaces it.
	env, err := environment.CurrentTx(tx, temporal.View{}, now)
	if err != nil {
		return k, err
	}
	for _, e := range env.Live {
		if e.Key == environment.KeyTimezone {
			continue
		}
		k.env[e.ID] = e
		k.records = append(k.records, detect.Record{ID: e.ID, Kind: detect.RecordEnvironment, Key: e.Key, Value: e.Value, At: e.At})
	}
	if s.assertions == nil {
		return k, nil
	}
	// Strings and times are copied out of the shared assertion: a
	// record keeps no slice of it.
	err = s.assertions.EachActiveTx(tx, now, MaxAssertions, func(a assertions.Assertion) bool {
		k.assertions[a.ID] = true
		k.records = append(k.records, detect.Record{
			ID: a.ID, Kind: detect.RecordAssertion, Key: a.Subject + " " + a.Predicate,
			Value: facts.ValueText(a.Object), Authority: a.Authority, At: a.CreatedAt,
		})
		return true
	})
	return k, err
}

// readAhead reads a turn's text on its own while known reads the store
// (a third of recordTurn's time): detection's reading of the real text
// (detect.ReadTurn), and each sentence as Anchor reads it
// (extract.Prepare) and, when swaps reads the sentences (a user's turn,
// applySwaps), as Drops does; both are remembered. None of it reads the
// store, and what follows answers the same with it as without; on a
// machine with a core to spare it is ready when known returns. wait
// returns the reading, once the goroutine is done (a panic in it panics
// in wait's caller).
func readAhead(turn detect.Turn, opts detect.Options, ar extract.Result, swaps bool) *reader {
	r := &reader{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		defer func() { r.panicked = recover() }()
		r.reading = detect.ReadTurn(turn, opts)
		for _, sent := range ar.Sentences {
			if sent.Reason != "" { // anchorsOf and applySwaps read only these
				continue
			}
			extract.Prepare(sent.Text)
			if swaps {
				extract.Drops(sent.Text)
			}
		}
	}()
	return r
}

type reader struct {
	done     chan struct{}
	reading  *detect.Reading
	panicked any
}

func (r *reader) wait() *detect.Reading {
	<-r.done
	if r.panicked != nil {
		panic(r.panicked)
	}
	return r.reading
}

// valueText is f.ValueText(), without decoding it again when known
// decoded it.
func (k known) valueText(f *facts.Fact) string {
	if t, ok := k.text[f.ID]; ok {
		return t
	}
	return f.ValueText()
}

// turnKeyOf keys a recorded turn like speaker.turnKey.
func turnKeyOf(t session.Turn, caller authority.Identity) string {
	switch {
	case t.Speaker == session.SpeakerAssistant:
		return string(t.Speaker) + "/assistant"
	case t.SpeakerID == "":
		return string(t.Speaker) + "/" + caller.UserID
	}
	return string(t.Speaker) + "/" + t.SpeakerID
}

// relevantFacts returns the real, currently valid facts the caller may
// see indexed under the turn's words, newest first per word, or every such
// fact of a small space. A fact the caller may not see is never compared:
// a turn neither supersedes it nor reports its value.
func (s *Service) relevantFacts(tx *store.Txn, caller authority.Identity, text string) ([]*decodedFact, error) {
	terms := slices.Compact(slices.Sorted(slices.Values(lexical.Terms(text))))
	seen := map[string]bool{}
	var out []*decodedFact
	add := func(p search.Posting) (bool, error) {
		if seen[p.ID] {
			return true, nil
		}
		seen[p.ID] = true
		f, found, err := s.decoded.load(tx, p.Space, p.ID)
		if err != nil {
			return false, err
		}
		if !found {
			return true, nil
		}
		if f.IsValid() && f.Scope.Real() && (s.rules == nil || s.rules.CanRead(caller, f.RestrictedTo)) {
			out = append(out, f)
		}
		return len(out) < MaxFacts, nil
	}
	for _, sp := range tx.Partition().Spaces() {
		// Only what the caller may read decides whether the space is
		// small: hidden facts change nothing of a caller's candidates.
		// The words' frequencies are read only for a large space: a small
		// one is read whole.
		rd := s.readable(caller)
		large := s.sizes.isLarge(sp)
		var asked []string // with the size, when the space was large
		if large {
			asked = terms
		}
		st, err := s.index.Stats(tx, []tenancy.Space{sp}, asked, temporal.View{}, rd)
		if err != nil {
			return nil, err
		}
		var lists []string
		limit := PerTermFacts
		if st.Docs <= SmallPartition {
			lists, limit = []string{search.TermAll}, SmallPartition+1
		} else {
			if !large {
				if st, err = s.index.Stats(tx, []tenancy.Space{sp}, terms, temporal.View{}, rd); err != nil {
					return nil, err
				}
			}
			lists = informative(terms, st)
		}
		s.sizes.note(sp, st.Docs > SmallPartition)
		for _, term := range lists {
			var ierr error
			err := s.index.Postings(tx, sp, term, temporal.View{}, limit, func(p search.Posting) bool {
				more, err := add(p)
				ierr = err
				return more && err == nil
			})
			if err = errors.Join(err, ierr); err != nil {
				return nil, err
			}
			if len(out) >= MaxFacts {
				return out, nil
			}
		}
	}
	return out, nil
}

// informative orders a turn's terms for finding the facts it may be
// about in a large space: rarest first (a term that names few facts names
// them best), without the terms no readable fact holds (nothing to read)
// and without those most facts hold (a word in a quarter of the space
// singles nothing out), unless every term is such a word: then the rarest
// one stays.
func informative(terms []string, st search.Stats) []string {
	var out []string
	for _, t := range terms {
		if st.DF[t] > 0 {
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(st.DF[a], st.DF[b]) })
	common := max(PerTermFacts, st.Docs/4)
	for i, t := range out {
		if st.DF[t] > common {
			return out[:max(i, 1)]
		}
	}
	return out
}

// apply supersedes what detection d names: facts get a successor holding
// the replacement, turns are marked superseded, assertions revoked. It
// returns what was superseded.
func (s *Service) apply(tx *store.Txn, caller authority.Identity, t session.Turn, d detect.Detection, k known, replaced map[string]*Extraction, now time.Time, res *Result) (done []Ref, blocked bool, err error) {
	reason := fmt.Sprintf("turn %s: %s", t.ID, d.Cue)
	for _, r := range d.Superseded {
		switch r.Kind {
		case detect.RecordFact:
			if _, ok := replaced[r.ID]; ok {
				// Extraction wrote its successor already.
				done = append(done, Ref{ID: r.ID, Kind: RefFact})
				continue
			}
			if old, ok := k.facts[r.ID]; ok && (aboutOther(res.Extracted, *old) || readOtherwise(res.Extracted, *old, d.Replacement) || othersThing(res.Extracted, *old) || subjectOfOther(res.Extracted, *old, d.Replacement) || valueOfOther(res.Extracted, *old, d.Replacement)) {
				// The turn's statements are about another entity's value
				// ("the marketing budget was cut" beside a travel budget),
				// extraction read this fact's new value as another, or
				// the replacement is whom another statement is about.
				continue
			}
			held, ok := k.facts[r.ID]
			if !ok {
				continue
			}
			old := *held
			d := d // this fact's reading: the replacement's whole token beside its value
			d.Replacement = labelledNumber(streetAddress(codeToken(withoutLeft(wholeToken(d.Replacement, old.ValueText(), t.Text)), old.ValueText()), old.ValueText(), t.Text), old.ValueText(), t.Text)
			if !replaces(d, t.Text, k.sentences, old) && !restates(d, t.Text, k.sentences, old, k.recent) {
				continue
			}
			if s.rules != nil && !s.rules.Supersedes(caller.Authority, old.Source.Authority) {
				// The speaker's own authority ranks below the fact's: a
				// role cited in the text does not raise it.
				blocked = true
				continue
			}
			d.Replacement = inList(old.ValueText(), d.Previous, atDay(old.ValueText(), atHour(old.ValueText(), d.Replacement)))
			value, err := json.Marshal(d.Replacement)
			if err != nil {
				return nil, false, err
			}
			if len(value) > facts.MaxValueLen || s.write.IsState(old.Key, value) {
				// writeFact would refuse this successor (state is
				// asserted, not stored as a fact): the detection
				// supersedes the rest.
				continue
			}
			from := t.At
			if from.Before(old.ValidFrom) {
				from = old.ValidFrom
			}
			succ, err := s.write.WriteTx(tx, caller, facts.WriteInput{
				Key: old.Key, Value: value,
				// The successor comes from this turn; a key extraction
				// named stays extraction's.
				Source: &facts.Source{
					Type: facts.SourceUser, Authority: caller.Authority, Identity: caller.UserID,
					Turn: t.ID, Rule: old.Source.Rule,
				},
				MemoryType: old.MemoryType, Scope: old.Scope, ScopeID: old.ScopeID,
				ValidFrom: &from, Supersedes: old.ID, Reason: reason,
				Detection: string(d.Kind), Cue: d.Cue,
			})
			if err != nil {
				return nil, false, err
			}
			delete(k.facts, old.ID)
			retired, err := asStored(tx, old)
			if err != nil {
				return nil, false, err
			}
			res.Superseded = append(res.Superseded, Retired{Fact: retired, By: &succ, Reason: fmt.Sprintf("%s (%s): %q replaces %q", strings.ToLower(string(d.Kind)), d.Cue, d.Replacement, old.ValueText())})
			done = append(done, Ref{ID: r.ID, Kind: RefFact})
		case detect.RecordTurn:
			o, ok := k.turns[r.ID]
			if !ok {
				continue
			}
			if err := session.SupersedeTurnTx(tx, o, t.ID, now); err != nil {
				return nil, false, err
			}
			if err := evidence.RetireTurnTx(tx, o.ID, t.ID, now); err != nil {
				return nil, false, err
			}
			done = append(done, Ref{ID: r.ID, Kind: RefTurn})
		case detect.RecordEnvironment:
			e, ok := k.env[r.ID]
			if !ok {
				continue
			}
			if err := environment.SupersedeTx(tx, e, t.ID, now); err != nil {
				return nil, false, err
			}
			done = append(done, Ref{ID: r.ID, Kind: RefEnv})
		case detect.RecordAssertion:
			if !k.assertions[r.ID] || s.assertions == nil {
				continue
			}
			ok, err := s.assertions.RetractTx(tx, caller, r.ID, t.ID, "superseded by "+reason, now)
			if err != nil {
				return nil, false, err
			}
			if ok {
				done = append(done, Ref{ID: r.ID, Kind: RefAssertion})
			}
		}
	}
	return done, blocked, nil
}

// wholeToken gives a replacement the rest of the token the turn says it
// in when a mark cut it there: detection reads "Harbor" of "it's
// Harbor!2026 now" and "Sonne2025" of "it is Sonne2025! with 5 at the
// end" (the mark closes the token only when the stored value closes on
// one too: "Sonne2024!").
func wholeToken(rep, old, text string) string {
	i := strings.Index(text, rep)
	if rep == "" || i < 0 {
		return rep
	}
	rest := text[i+len(rep):]
	n := 0
	for n < len(rest) && strings.IndexByte("!?#*&@$%+", rest[n]) >= 0 {
		n++
	}
	if n == 0 {
		return rep
	}
	m := n
	for m < len(rest) && !unicode.IsSpace(rune(rest[m])) && strings.IndexByte(",;:)", rest[m]) < 0 {
		m++
	}
	switch {
	case m > n && strings.IndexByte(".!?", rest[m-1]) < 0:
		return rep + rest[:m] // "Harbor!2026"
	case m == n && old != "" && strings.HasSuffix(old, rest[n-1:n]):
		return rep + rest[n-1:n] // "Sonne2025!" beside "Sonne2024!"
	}
	return rep
}

// withoutLeft cuts from a replacement the value it leaves: "Frank at
// Sal's" of "Frank at Sal's, not Sal himself". The old value never lives
// on inside the new one.
func withoutLeft(rep string) string {
	for _, sep := range []string{", not ", ", instead of ", ", rather than ", " instead of ", " rather than "} {
		if i := strings.Index(rep, sep); i > 0 {
			rep = rep[:i]
		}
	}
	return rep
}

// codeToken is a replacement's first word when the stored value is one
// word of letters and digits (a code, a password) and that word holds a
// digit: "Falcons2025#" of "Falcons2025# with the hashtag at the end, not
// an exclamation point".
func codeToken(rep, old string) string {
	old = strings.TrimSpace(old)
	first, rest, ok := strings.Cut(strings.TrimSpace(rep), " ")
	if !ok || rest == "" || strings.ContainsAny(old, " /") || !strings.ContainsAny(old, "0123456789") || !strings.ContainsFunc(old, unicode.IsLetter) {
		return rep
	}
	if first = strings.TrimRight(first, ",;:"); strings.ContainsAny(first, "0123456789") {
		return first
	}
	return rep
}

// streetAddress widens a bare number to the street address it opens in
// text when the stored value is a street address: "48" of "…, 48 Harbor
// Road, Suite 200, so use that" is "48 Harbor Road, Suite 200".
func streetAddress(rep, old, text string) string {
	if !reStreetAddress.MatchString(strings.TrimSpace(old)) && !reStreetInside.MatchString(old) || !reHouseNumber.MatchString(rep) {
		return rep
	}
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], rep)
		if j < 0 {
			break
		}
		i += j
		if a := extract.StreetAddressAt(text, i); a != "" && (i == 0 || !unicode.IsLetter(rune(text[i-1])) && !unicode.IsDigit(rune(text[i-1]))) {
			return a
		}
		i += len(rep)
	}
	return rep
}

// labelledNumber writes a bare number with the label the stored value
// gives its number when the text says it so: "22" of "into unit 22 at
// ridgeway" beside "Unit 14, Ridgeway Self Storage" is "Unit 22".
func labelledNumber(rep, old, text string) string {
	m := reLabelNumber.FindStringSubmatch(strings.TrimSpace(old))
	if m == nil || !reHouseNumber.MatchString(rep) {
		return rep
	}
	v := m[1] + " " + rep
	low, said := lexical.LowerASCII(text), lexical.LowerASCII(v)
	i := strings.Index(low, said)
	if end := i + len(said); i < 0 || end < len(low) && (lexical.IsASCIILetter(low[end]) || '0' <= low[end] && low[end] <= '9') {
		return rep // "unit 220" does not say "Unit 22"
	}
	return withStreetAfter(v, old, text)
}

// withStreetAfter extends a value by the street address said right after
// it, after a comma, when the stored value is written so: "Flat 2" of
// "New address is Flat 2, 9 Carlton Street" beside "Flat 4, 22 Elm Road"
// is "Flat 2, 9 Carlton Street".
func withStreetAfter(v, old, text string) string {
	if !strings.Contains(old, ", ") || !reStreetInside.MatchString(old) || reStreetInside.MatchString(v) {
		return v
	}
	i := strings.Index(strings.ToLower(text), strings.ToLower(v)+", ")
	if i < 0 {
		return v
	}
	if a := extract.StreetAddressAt(text, i+len(v)+2); a != "" {
		return v + ", " + a
	}
	return v
}

// reLabelNumber opens a stored value on a label and its number: "Unit 14",
// "Gate B12", "Room 4".
var reLabelNumber = regexp.MustCompile(`^(\p{Lu}\p{Ll}+)\s+\d+[A-Za-z]?\b`)

// reStreetInside is a street address inside a stored value: "St. Luke's
// basement, 212 Oak St".
var reStreetInside = regexp.MustCompile(`\b\d+[A-Za-z]?\s+\p{Lu}[\p{L}'’-]*\s+(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Lane|Ln|Dr|Drive|Way|Pl|Place|Ct|Court|Pkwy|Parkway|Terrace|Row|Close|Crescent)\b`)

var reHouseNumber = regexp.MustCompile(`^\d+[A-Za-z]?$`)

// difference reports a number the turn says as a difference, not a value:
// "4" of "added 4 more tables", "two" of "two fewer seats".
func difference(rep, text string) bool {
	if !reBareText.MatchString(rep) && !extract.CountWord(rep) {
		return false
	}
	for i := 0; ; {
		j := strings.Index(text[i:], rep)
		if j < 0 {
			return false
		}
		i += j + len(rep)
		if reDifferenceAfter.MatchString(text[i:]) {
			return true
		}
	}
}

var reDifferenceAfter = regexp.MustCompile(`(?i)^\s+(?:more|fewer|less|extra|additional|new|others?)\b`)

// losesDigits reports a replacement without a digit for a stored value
// whose digits say what it is, not when (an address, a code, a password,
// an amount): "officially living with us" is no address.
func losesDigits(rep, old string) bool {
	old = strings.TrimSpace(old)
	if !strings.ContainsAny(old, "0123456789") || strings.ContainsAny(rep, "0123456789") || reDateish.MatchString(old) || reClockish.MatchString(old) {
		return false
	}
	return reStreetAddress.MatchString(old) || reMoneyLead.MatchString(old) || !strings.ContainsAny(old, " /") // "42 Elm St", "$1,850", "Summit#2025"; not "zoom.us/j/111"
}

var (
	reStreetAddress = regexp.MustCompile(`^\d+[A-Za-z]?\s+\p{L}`)
	reMoneyLead     = regexp.MustCompile(`^[$€£¥]\s?\d`)
)

// reClockish is a time of day.
var reClockish = regexp.MustCompile(`(?i)\d(?:am|pm|\s?a\.m|\s?p\.m)|\d:\d\d|\b(?:noon|midnight|morning|evening|night)\b`)

// MaxReplacement is the longest replacement a fact takes from a turn;
// longer ones are the turn's text, not a value isolated from it.
const MaxReplacement = 100

// replaces reports whether a turn's replacement may become fact f's new
// value: an implicit change carries a typed value, the turn names f (a word of its key or one of its values), and
// the replacement says something (not "This"), is a value rather than a
// paragraph, and is not quoted in the turn (a quoted value is being talked
// about, typically as the old one).
func replaces(d detect.Detection, text string, sentences []string, f facts.Fact) bool {
	replacement := d.Replacement
	if d.Kind == detect.KindImplicit && !detect.Typed(replacement) {
		// Without a change word, only a typed value (an amount, a date,
		// a name, ...) replaces a fact; a bare number is too ambiguous.
		return false
	}
	return detect.Substantive(replacement) && len(replacement) <= MaxReplacement && oneValue(replacement) && wellFormed(replacement) &&
		!wholeSentence(replacement, sentences, f.Key) && !detect.Quoted(text, replacement) && namedWith(sentences, replacement, f) &&
		!partOf(replacement, f.ValueText()) && !losesDigits(replacement, f.ValueText()) && !difference(replacement, text) && !movedThing(text, replacement) && !extract.OnlyKeyWords(replacement, f.Key) && !opensOnTopic(replacement, f.Key) &&
		!dateWithClause(replacement, f.ValueText()) && !reClauseInside.MatchString(replacement) && !keyNumber(replacement, f.Key) &&
		!extract.UnitName(text, replacement, f.ValueText())
}

// keyNumber reports a bare number that the key holds: "3" of "two more
// extinguishers on 3" names the floor fire_extinguisher_count_fl3 is of,
// not its count.
func keyNumber(replacement, key string) bool {
	r := strings.TrimSpace(replacement)
	if !reBareText.MatchString(r) {
		return false
	}
	for _, run := range reDigitRun.FindAllString(key, -1) {
		if run == r {
			return true
		}
	}
	return false
}

var reDigitRun = regexp.MustCompile(`\d+`)

// reClauseInside is a clause of its own inside a replacement, after a
// comma: "the Westgate property, Tom Keller owns badge administration
// here", "paternity leave …, Dana Pruitt's my asst coach", "88 Grove
// Ave #2, ship everything there" and "1480 Harbor Blvd this weekend so
// send supplier stuff there" are two statements, not a value.
var reClauseInside = regexp.MustCompile(`,\s+(?:(?:\p{Lu}[\p{L}'’-]*\s+){1,2}(?:owns|is|are|has|have|handles|runs|leads|does|takes|took|took over|manages|will)\b|(?:\p{Lu}[\p{L}'’-]*\s+){0,1}\p{Lu}[\p{L}-]*['’]s\s+(?:my|our|the|now|doing|handling|running)\b|(?:please\s+)?(?:ship|send|call|text|email|tell|use|mail|forward|update|put|let|reach)\s)|\s(?:so|and)\s+(?:please\s+)?(?:ship|send|call|text|email|tell|use|mail|forward|update|put|let|reach)\s`)

var (
	// reDateish is a value that says a date or a day.
	reDateish = regexp.MustCompile(`(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\b\d{4}-\d\d-\d\d\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day`)
	// reCommaYear is a comma before a year: "March 4, 2026".
	reCommaYear = regexp.MustCompile(`,\s*\d{4}\b`)
)

// dateWithClause reports a replacement for a date that carries a clause
// after a comma: "the 18th of March, same hour" is a date and a remark,
// not a value (a rule that reads the date writes it instead).
func dateWithClause(replacement, old string) bool {
	return reDateish.MatchString(old) && strings.Contains(replacement, ", ") && !strings.Contains(old, ", ") && !reCommaYear.MatchString(replacement)
}

// opensOnTopic reports a replacement of three words or more that opens on
// a word of the key, its subject: "Deploys go out on Tuesdays" is a
// clause about deploy_day, not its value ("the Growth team" for team
// closes on it).
func opensOnTopic(replacement, key string) bool {
	ws := strings.Fields(strings.Trim(replacement, " .!"))
	for len(ws) > 0 && (strings.EqualFold(ws[0], "the") || strings.EqualFold(ws[0], "our") || strings.EqualFold(ws[0], "my")) {
		ws = ws[1:]
	}
	return len(ws) >= 3 && extract.OnlyKeyWords(ws[0], key)
}

// movedThing reports a replacement that the text sends somewhere: in "We
// switched Biscuit to Paws & Claws Vet", Biscuit is what moved, and the
// new value is where.
func movedThing(text, replacement string) bool {
	i := strings.Index(text, replacement)
	if i < 0 || replacement == "" {
		return false
	}
	after := strings.ToLower(text[i+len(replacement):])
	return reSentOn.MatchString(after) && !detect.PurposeAfter(after)
}

var reSentOn = regexp.MustCompile(`^\s+(?:over\s+)?(?:to|into|onto)\s+\S`)

// partOf reports a replacement that is a word or two of the value it
// would replace: "T7" of "Samsung T7" ("The T7 died, so backups go to a
// SanDisk Extreme now") names the old value, not a new one.
func partOf(replacement, old string) bool {
	r := strings.ToLower(strings.Trim(replacement, " .,;:!?"))
	o := " " + strings.ToLower(old) + " "
	return r != "" && r != strings.TrimSpace(strings.ToLower(old)) && strings.Contains(o, " "+r+" ")
}

// wholeSentence reports a replacement of four words or more that is most
// of a sentence naming the fact: "Book club meets on Mondays now" is the
// sentence about book_club_day, not its value.
func wholeSentence(replacement string, sentences []string, key string) bool {
	r := strings.Trim(replacement, " .!")
	if len(strings.Fields(r)) < 4 {
		return false
	}
	for _, s := range sentences {
		if s = strings.Trim(s, " .!"); containsFold(s, r) && len(r)*5 >= len(s)*4 && extract.Names(s, key) {
			return true
		}
	}
	return false
}

// reWhenTail closes a read with when the change happened, said after the
// value: "over the weekend", "last week", "this morning", "yesterday".
var reWhenTail = regexp.MustCompile(`(?i)\S\s+(?:(?:over|during)\s+the\s+(?:weekend|holidays?|break|summer|winter)|(?:last|this)\s+(?:week|weekend|month|year|night|morning|afternoon|evening)|yesterday|earlier today|just now)[.!]?$`)

// wellFormed reports whether a replacement detection read could be a
// value: not a clause that opens with its subject, not a fragment that
// opens with a possessive or a preposition, or
// stops at a function word ("our main contact at the agency from", read
// out of "Tomas is our main contact at the agency from now on").
func wellFormed(s string) bool {
	ws := strings.Fields(strings.ToLower(strings.Trim(s, " .,;:!?")))
	if len(ws) == 0 || extract.RelativeTime(s) {
		return false // "This week" is when, not what
	}
	if len(ws) == 1 && (strings.HasSuffix(ws[0], "'s") || strings.HasSuffix(ws[0], "’s")) {
		return false // "Leo's" of "We moved Leo's party to Pizza Planet": whose, not what
	}
	if reWhenTail.MatchString(s) {
		return false // "the 5th floor over the weekend": the value with when it happened
	}
	if reJoinsClauses.MatchString(s) {
		return false // "the late shift, so I start at 11am", "a high-deductible plan: $2,500": two things said
	}
	switch strings.TrimRight(ws[0], ",") {
	case "our", "my", "your", "their", "his", "her", "its", "of", "from", "to", "at", "for", "with", "by", "and", "or", "but",
		// "Actually, put me down for a window seat": the speaker's
		// words around a value, not the value.
		"actually", "so", "ok", "okay", "well", "also", "please", "just", "sorry", "oh", "hey", "yes", "no", "put", "make", "set", "change", "move", "switch", "use",
		"changed", "moved", "switched", "updated", "rotated", "swapped", "replaced", "reset", "bumped", "pushed",
		// A clause with its subject ("We meet on Wednesdays now") is the
		// turn's text, not a value isolated from it.
		"i", "we", "you", "they", "he", "she", "i'm", "we're", "you're", "they're", "i've", "we've", "i'll", "we'll", "they've", "you've", "he's", "she's", "they'll",
		// "where we grab lunch" (of "Chipotle is where we grab lunch
		// now") says what the value is for, not the value.
		"where", "when", "what", "who", "whom", "how", "why", "which", "whose",
		// "it's my favorite now" says of a value said before it.
		"it", "it's", "it’s", "that's", "that’s", "there's", "this", "that":
		return false
	}
	switch ws[len(ws)-1] {
	case "from", "to", "at", "of", "for", "with", "on", "in", "by", "the", "a", "an", "and", "or", "our", "my", "is", "are", "was":
		return false
	}

	if t := strings.TrimLeft(s, " "); len(ws) >= 2 && strings.HasSuffix(ws[0], "ing") && t != "" && (t[0] >= 'a' && t[0] <= 'z' || gerunds[ws[0]]) {
		return false // "doing school pickup on weekdays", "Ordering Counter Culture": what someone does, not a value
	}
	if len(ws) >= 4 {
		// "Omar will host the monthly all-hands", "Luis volunteered to
		// water the office plants": a clause with its verb.
		for _, w := range ws[1 : len(ws)-1] {
			switch w {
			case "will", "is", "are", "was", "were", "has", "have", "had", "would", "should", "can":
				return false
			}
			if len(w) >= 6 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") {
				return false
			}
		}
	}
	return true
}

// reJoinsClauses is a clause boundary inside a replacement.
var reJoinsClauses = regexp.MustCompile(`(?i),\s+(?:so|and|but|which|because)\s|[;:]\s+\S`)

// gerunds are verbs that open what someone does, capitalised or not
// ("Ordering Counter Culture beans from now on"); a capitalised "-ing"
// word may otherwise open a name ("Reading Terminal Market").
var gerunds = map[string]bool{"ordering": true, "using": true, "buying": true, "getting": true, "switching": true,
	"moving": true, "going": true, "trying": true, "doing": true, "making": true, "taking": true, "having": true,
	"bringing": true, "sending": true, "booking": true, "paying": true, "drinking": true, "eating": true,
	"playing": true, "watching": true, "listening": true, "running": true, "starting": true, "joining": true}

// oneValue reports whether s could be one value: not two sentences.
func oneValue(s string) bool {
	return !strings.Contains(s, ". ") && !strings.Contains(s, "! ") && !strings.Contains(s, "? ")
}

// namedWith reports whether one of the turn's sentences both names fact
// f (a word of its key or one of its values) and says the replacement:
// "the dentist appointment reminders took long. The API client is done"
// names the dentist in one sentence and "API" in another, and replaces
// nothing.
func namedWith(sentences []string, replacement string, f facts.Fact) bool {
	for i, s := range sentences {
		if !containsFold(s, replacement) {
			continue
		}
		if detect.Names(s, f.Key, f.ValueText()) ||
			i > 0 && detect.SaidInstead(s, replacement) && detect.Names(sentences[i-1], f.Key, f.ValueText()) {
			// ("aws budget is $15k/mo now. sorry, $14.5k": the
			// correction's topic is the sentence it corrects.)
			return true
		}
	}
	return false
}

// aboutOther reports whether one of the turn's extracted statements gives
// the attribute of fact f to another named entity ("the marketing budget
// was cut" beside a travel budget, "the design team's sync moved" beside
// the weekly sync): detection then does not replace f on the strength of
// the shared word.
func aboutOther(xs []Extraction, f facts.Fact) bool {
	ent, attr := extract.NormalizeKey(f.Key)
	if ent == "" || attr == "" {
		return false
	}
	for _, x := range xs {
		if x.Matches(f.Key) {
			return false
		}
	}
	for _, x := range xs {
		if x.Attribute == attr || whenAttr(x.Attribute) && whenAttr(attr) {
			return true
		}
	}
	return false
}

// othersThing reports whether extraction read the turn as about another
// owner's thing of f's kind ("the plumber's number", "Marketing's
// budget"): detection does not replace f on the strength of the word.
func othersThing(xs []Extraction, f facts.Fact) bool {
	for _, x := range xs {
		if x.About(f.Key) && ownedByOther(x.Statement, f.Key) {
			return true
		}
	}
	return false
}

// reStoredClock is a time of day in a stored value: "3:30pm", "9 am".
var reStoredClock = regexp.MustCompile(`(?i)\b\d{1,2}(?::\d\d)?\s?[ap]\.?m\b\.?`)

// atHour puts an hour said bare ("practice is starting at 4 now") in
// place of the one time of day the stored value holds, in its half of
// the day: "Tue/Thu 3:30pm" becomes "Tue/Thu 4pm".
func atHour(stored, replacement string) string {
	times := reStoredClock.FindAllStringIndex(stored, -1)
	if len(times) != 1 {
		return replacement
	}
	t := times[0]
	if !extract.OnlyWhen(stored) {
		return replacement // "2 tickets for the 7pm show" says more than when
	}
	h, ok := extract.HourLike(stored[t[0]:t[1]], replacement)
	if !ok {
		return replacement
	}
	return stored[:t[0]] + h + stored[t[1]:]
}

var (
	// reOrdinalDay is a day of the month said alone: "21st", "the 3rd".
	reOrdinalDay = regexp.MustCompile(`(?i)^(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)$`)
	// reStoredMonthDay is the month and day of a stored date: "Jan 14",
	// "2026-01-14".
	reStoredMonthDay = regexp.MustCompile(`(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b|\b\d{4}-\d\d-(\d\d)\b`)
)

// atDay puts a day of the month said alone ("moved my checkup to the
// 21st same time") in place of the day of the one date the stored value
// holds: "Jan 14 at 9:30am" becomes "Jan 21 at 9:30am". (A number that
// is no day of a month leaves the replacement as it was.)
func atDay(stored, replacement string) string {
	m := reOrdinalDay.FindStringSubmatch(strings.TrimSpace(replacement))
	dates := reStoredMonthDay.FindAllStringSubmatchIndex(stored, -1)
	if m == nil || len(dates) != 1 {
		return replacement
	}
	day, _ := strconv.Atoi(m[1])
	if day < 1 || day > 31 {
		return replacement
	}
	g := dates[0]
	if g[2] < 0 { // an ISO date
		return stored[:g[4]] + fmt.Sprintf("%02d", day) + stored[g[5]:]
	}
	return stored[:g[2]] + strconv.Itoa(day) + stored[g[3]:]
}

// reListed is a stored value that lists several: "6am and 4pm",
// "Mon/Wed/Fri", "Ana, Ben".
var reListed = regexp.MustCompile(`\s(?:and|&)\s|,\s|\S/\S`)

// inList puts a change of one item of a stored list in its place: "from
// 4pm to 5pm" beside "6am and 4pm" makes "6am and 5pm". Only a short
// replacement of an item said once, between word boundaries, is put in.
func inList(stored, previous, replacement string) string {
	if previous == "" || replacement == "" || previous == stored || len(replacement) > 40 ||
		!reListed.MatchString(stored) || strings.Count(stored, previous) != 1 || containsFold(replacement, stored) {
		return replacement
	}
	i := strings.Index(stored, previous)
	j := i + len(previous)
	if i > 0 && isWordByte(stored[i-1]) || j < len(stored) && isWordByte(stored[j]) {
		return replacement
	}
	return stored[:i] + replacement + stored[j:]
}

func isWordByte(c byte) bool { return lexical.IsASCIILetter(c) || '0' <= c && c <= '9' }

// valueOfOther reports whether extraction gave the replacement, as its
// value, to an entity that shares no word with fact f's key: "Sales's
// budget got trimmed to $42,000" sets sales.budget, not
// budget.marketing; "Spotify family just went up to $19.99" is not
// netflix_cost.
func valueOfOther(xs []Extraction, f facts.Fact, replacement string) bool {
	for _, x := range xs {
		if x.Entity == "" || x.Entity == "user" || x.Matches(f.Key) || !sameValue(x.Value, replacement) {
			continue
		}
		if !slices.ContainsFunc(strings.Split(x.Entity, "_"), func(w string) bool { return extract.Names(w, f.Key) }) && ownedOrNamed(x.Sentence, x.Entity) {
			return true
		}
	}
	return false
}

// ownedOrNamed reports whether sentence says the entity as a name (with a
// capital) or as an owner ("Sales's", "Youth section's"); a common noun
// ("insurance went up to $214") may be the key's topic in other words.
func ownedOrNamed(sentence, entity string) bool {
	said := strings.ReplaceAll(entity, "_", " ")
	i := strings.Index(lexical.LowerASCII(sentence), said)
	if i < 0 || said == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(sentence[i:])
	rest := sentence[i+len(said):]
	return unicode.IsUpper(r) || strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") || strings.HasPrefix(rest, "s'")
}

// subjectOfOther reports whether the replacement is the entity another
// of the turn's statements is about: "Neighbor Vern switched over to
// Brenner Feed & Seed" says where Vern went; "Neighbor Vern" is not the
// new feed supplier.
func subjectOfOther(xs []Extraction, f facts.Fact, replacement string) bool {
	name := strings.Join(strings.Fields(strings.ToLower(replacement)), "_")
	for _, x := range xs {
		if x.Entity == name && !x.Matches(f.Key) {
			return true
		}
	}
	return false
}

// readOtherwise reports whether extraction read a value for fact f, kept
// or not, other than detection's replacement: in "the client gave us an
// extra week, so the deadline is March 17" detection's "week" is not the
// deadline; extraction's reading (kept or refused) stands.
func readOtherwise(xs []Extraction, f facts.Fact, replacement string) bool {
	for _, x := range xs {
		if !x.Matches(f.Key) {
			continue
		}
		if containsFold(replacement, x.Value) || containsFold(x.Value, replacement) || x.Said != "" && (containsFold(replacement, x.Said) || containsFold(x.Said, replacement)) {
			return false
		}
		return true
	}
	return false
}

func whenAttr(a string) bool { return a == "date" || a == "time" || a == "when" }

// restates reports whether a fact extracted from the conversation holds
// the value detection d replaces: "make that $150,000" after "the budget
// is $50,000" names no key, but the fact the earlier turn made is the one
// it changes. A change without a change word (IMPLICIT) does not: another
// "crate 2 holds 12" is about another crate.
func restates(d detect.Detection, text string, sentences []string, f facts.Fact, recent map[string]bool) bool {
	named := namedWith(sentences, d.Replacement, f) || recent[f.Source.Turn]
	return named && f.Source.Rule != "" && d.Kind != detect.KindImplicit && d.Previous != "" && sameValue(f.ValueText(), d.Previous) &&
		detect.Typed(d.Replacement) && oneValue(d.Replacement) &&
		detect.Substantive(d.Replacement) && len(d.Replacement) <= MaxReplacement && !detect.Quoted(text, d.Replacement)
}

// putChange records the change d made, for staleness checks of later
// writes.
func (s *Service) putChange(tx *store.Txn, caller authority.Identity, t session.Turn, d detect.Detection, by []string, now time.Time) error {
	c := change{Key: d.Key, Old: d.Previous, New: d.Replacement, At: t.At, Turn: t.ID, Kind: string(d.Kind), Cue: d.Cue, Record: now,
		By: by, User: caller.UserID}
	// A new version of the organization's changes: cached lists of the
	// old one are not used again.
	if err := tx.PutRaw(tx.Partition().Shared(), store.TableRevisionMarker, nil, []byte(s.ids.New(""))); err != nil {
		return err
	}
	return tx.Put(tx.Partition().Shared(), store.TableRevisionChange, store.Suffix(nil).Time(t.At).Raw(s.ids.New("")), c, 0)
}

// arbiter is the service as the write pipeline's Arbiter.
type arbiter struct{ s *Service }

var _ pipeline.Arbiter = arbiter{}

// Directive decides an attributed instruction (see Service.directives).
func (a arbiter) Directive(tx *store.Txn, caller authority.Identity, f facts.Fact) (string, string, *facts.Staleness, error) {
	return a.s.directives(tx, caller, f)
}

// Stale is the staleness of an explicit write (see Service.stale).
func (a arbiter) Stale(tx *store.Txn, caller authority.Identity, f facts.Fact, dated bool) (*facts.Staleness, error) {
	return a.s.stale(tx, caller, f, dated)
}

// directives decides an attributed instruction against the valid
// instructions on the same topic: a higher-ranked speaker's word prevails
// whichever came first, and a speaker's later word replaces their earlier
// one (detect.Prevails). It returns the fact the write replaces, or the
// staleness of a write that is outranked.
func (s *Service) directives(tx *store.Txn, caller authority.Identity, f facts.Fact) (string, string, *facts.Staleness, error) {
	d, ok := detect.ParseDirective(f.ValueText(), s.detect)
	if !ok {
		return "", "", nil, nil
	}
	others, err := s.relevantFacts(tx, caller, d.Body)
	if err != nil {
		return "", "", nil, err
	}
	var replaces, cue string
	var newest time.Time
	for _, g := range others {
		if g.ID == f.ID {
			continue
		}
		dg, ok := detect.ParseDirective(g.text, s.detect)
		if !ok {
			continue
		}
		switch detect.Prevails(d, dg) {
		case detect.OlderPrevails:
			return "", "", &facts.Staleness{
				Reason:     fmt.Sprintf("outranked: %s ranks above %s on this", dg.Speaker, d.Speaker),
				ReplacedBy: g.text, At: s.clock.Now(),
			}, nil
		case detect.NewerPrevails:
			if g.RecordedAt.After(newest) || replaces == "" {
				replaces, newest = g.ID, g.RecordedAt
				cue = "outranks " + dg.Speaker
				if strings.EqualFold(dg.Speaker, d.Speaker) {
					cue = "later word of " + d.Speaker
				}
			}
		}
	}
	return replaces, cue, nil, nil
}

// stale reports whether f restates a value that a recorded change
// replaced, and is not dated after that change (dated: the write gave its
// validFrom). A write without validFrom claims no date, so only a later
// change back to its value ("let's go back to X") makes it current again.
//
// Only changes caller may know are judged: one whose replacement the
// caller may not read (a restricted fact, another user's memory) is as if
// it had never been made, so the answer never names, nor betrays, it.
func (s *Service) stale(tx *store.Txn, caller authority.Identity, f facts.Fact, dated bool) (*facts.Staleness, error) {
	all, err := s.recentChanges(tx)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	w := detect.Record{Key: f.Key, Value: f.ValueText(), Kind: detect.RecordFact}
	if dated {
		w.At = f.ValidFrom
	}
	var cs []detect.Change
	public := map[detect.Change]bool{}
	for _, c := range all {
		dc := detect.Change{Key: c.Key, Old: c.Old, New: c.New, At: c.At}
		if !detect.Touches(w, dc) {
			continue
		}
		ok, pub, err := s.knows(tx, caller, c)
		if err != nil {
			return nil, err
		}
		if ok {
			cs = append(cs, dc)
			public[dc] = public[dc] || pub
		}
	}
	c, ok := detect.StaleBy(w, cs)
	if !ok {
		return nil, nil
	}
	st := &facts.Staleness{Reason: fmt.Sprintf("restates %q, which the conversation replaced", c.Old), At: c.At}
	// The stale fact is read by its own readers: it names a restricted
	// replacement only when it is the caller's private memory.
	if public[c] || f.MemoryType == facts.MemoryUser {
		st.ReplacedBy = c.New
	}
	return st, nil
}

// recentChanges returns the latest MaxChanges changes the organization's
// conversations made, oldest first; none until one has made a change.
// Decoded lists are cached under the organization's change version, which
// the transaction reads (so a concurrent change conflicts with it).
func (s *Service) recentChanges(tx *store.Txn) ([]change, error) {
	sp := tx.Partition().Shared()
	version, err := tx.GetRaw(sp, store.TableRevisionMarker, nil)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil // no conversation has changed anything yet
	}
	if err != nil {
		return nil, err
	}
	if cs, ok := s.changes.get(sp.Org(), string(version)); ok {
		return cs, nil
	}
	var cs []change
	err = tx.Scan(sp, store.TableRevisionChange, nil, store.ScanOptions{Reverse: true},
		func(_ []byte, it store.Item) (bool, error) {
			var c change
			if err := it.Decode(&c); err != nil {
				return false, err
			}
			cs = append(cs, c)
			return len(cs) < MaxChanges, nil
		})
	if err != nil {
		return nil, err
	}
	slices.Reverse(cs)
	s.changes.put(sp.Org(), string(version), cs)
	return cs, nil
}

// readable is what caller may read, for the search statistics.
func (s *Service) readable(caller authority.Identity) search.Readable {
	if s.rules == nil {
		return nil
	}
	return func(r *permissions.Restriction) bool { return s.rules.CanRead(caller, r) }
}

// knows reports whether caller may know of change c: it may read one of
// the facts c wrote, or, when c wrote none (a blocked change), it made c.
// public reports whether one of those facts is unrestricted (or c wrote
// none). A replacement in the caller's own private memory counts as
// public, so that the caller's answer names it; the other readers of a
// stale organization fact then read it too: the Staleness does not yet
// say who may read its replacement.
func (s *Service) knows(tx *store.Txn, caller authority.Identity, c change) (known, public bool, err error) {
	if len(c.By) == 0 {
		return c.User == "" || c.User == caller.UserID, true, nil
	}
	for _, id := range c.By {
		f, _, err := s.facts.FindVisible(tx, caller, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, false, err
		}
		known = true
		if f.RestrictedTo == nil || f.RestrictedTo.Empty() {
			public = true
		}
	}
	return known, public, nil
}
