package revision

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/extract"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
)

// Outcome says what an extracted statement did.
type Outcome string

// The outcomes.
const (
	// OutcomeWritten: a new fact holds the statement.
	OutcomeWritten Outcome = "WRITTEN"
	// OutcomeSuperseded: a new fact holds the statement and replaced the
	// fact that held another value for the same (entity, attribute).
	OutcomeSuperseded Outcome = "SUPERSEDED"
	// OutcomeUnchanged: a valid fact already holds the value.
	OutcomeUnchanged Outcome = "UNCHANGED"
	// OutcomeBlocked: a fact the speaker may not replace holds another
	// value (higher authority, or the user's word against the assistant's).
	OutcomeBlocked Outcome = "BLOCKED"
	// OutcomeSkipped: nothing was written (see the reason).
	OutcomeSkipped Outcome = "SKIPPED"
)

// Extraction is one statement extracted from a turn and what became of it.
type Extraction struct {
	extract.Statement
	Outcome Outcome
	Reason  string
	// Fact is the fact written (WRITTEN, SUPERSEDED).
	Fact *facts.Fact
	// Previous is the fact replaced (SUPERSEDED), holding the value
	// already (UNCHANGED), or standing in the way (BLOCKED).
	Previous *facts.Fact
}

// Retired is a fact a turn superseded or retracted, as it now stands.
type Retired struct {
	Fact facts.Fact
	// By is the fact that replaced it; nil when it was retracted.
	By     *facts.Fact
	Reason string
}

// speaker is who said a turn, and the authority their word carries.
type speaker struct {
	name      string // "user", "assistant", or the person speakerId named
	id        string // the recorded identity: speakerId, or the caller's user id
	authority string
	assistant bool
	turn      session.Speaker
	done      bool // an assistant's turn with a sentence of its own that reports its action done ("Done.")
}

// acted reports whether a sentence of the speaker's turn reports a
// change the speaker made: its own words say so (extract.ReportsAction),
// or the assistant's turn has a sentence of its own that says "Done." or
// "All set!".
func (s speaker) acted(sentence string) bool {
	return s.done || extract.ReportsAction(sentence) || extract.ReportsOutcome(sentence)
}

// as is the identity a turn by s reads with, and writes with unless a
// relayed authority raises it: the caller's, at the speaker's authority. A
// person the turn names (speakerId) holds none of the caller's
// permissions or department either. The turn compares, replaces and
// retracts only what this identity may read: a speaker's word never
// reaches a fact the speaker cannot read.
func (s speaker) as(caller authority.Identity) authority.Identity {
	id := caller
	id.Authority = s.authority
	if !s.assistant && s.id != caller.UserID {
		id.Permissions, id.Department = nil, ""
	}
	return id
}

// turnKey keys the speaker's turns: their kind and who they are.
func (s speaker) turnKey() string { return string(s.turn) + "/" + s.id }

// MaxExtracted bounds the statements one turn writes.
const MaxExtracted = 50

// applyExtraction writes the statements of ar that a real sentence made,
// each as a new fact or as the successor of the valid fact holding
// another value for the same (entity, attribute), in tx.
//
// found are the detections of the turn by the facts they would supersede:
// a successor records the detection's kind and cue on its edge, or, when
// detection did not find it, the kind the statement shows (kindOf).
func (s *Service) applyExtraction(tx *store.Txn, caller authority.Identity, t session.Turn, spk speaker, ar extract.Result, k known, found map[string]detect.Detection, res *Result) error {
	written := map[string]bool{} // keys written by this turn: a later clause of it wins
	for i, st := range ar.Statements {
		if i >= MaxExtracted {
			break
		}
		x := Extraction{Statement: st}
		if err := s.extractOne(tx, caller, t, spk, st, k, written, found, &x, res); err != nil {
			return err
		}
		res.Extracted = append(res.Extracted, x)
	}
	return nil
}

// applySwaps reads the real sentences that drop a valid fact's value by
// name and take up another ("I cancelled PureGym and joined The Climbing
// Hangar", extract.Swap): the fact's successor holds the new value. Facts
// extraction already settled are left alone.
func (s *Service) applySwaps(tx *store.Txn, caller authority.Identity, t session.Turn, spk speaker, ar extract.Result, k known, found map[string]detect.Detection, res *Result) error {
	ids := make([]string, 0, len(k.facts))
	for id, f := range k.facts {
		if f.Source.Turn != t.ID { // what this turn wrote, it settled
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	written := map[string]bool{}
	retired := map[string]bool{} // what this turn's statements replaced already
	for _, x := range res.Extracted {
		if x.Outcome == OutcomeSuperseded && x.Previous != nil {
			retired[x.Previous.ID] = true
		}
	}
	for i, sent := range ar.Sentences {
		if sent.Reason != "" || !extract.Drops(sent.Text) || spk.assistant && !spk.acted(sent.Text) {
			continue // (an assistant's swap is one it made: "I've moved your card processing over to Clover")
		}
		// "We traded in the Odyssey this weekend!! Got a Toyota Sienna":
		// the value taken up may follow in the next sentence.
		pair := ""
		if i+1 < len(ar.Sentences) && ar.Sentences[i+1].Reason == "" {
			pair = strings.TrimRight(sent.Text, ".!?") + "; " + ar.Sentences[i+1].Text
		}
		for _, id := range ids {
			f, ok := k.facts[id]
			if !ok || retired[id] {
				continue
			}
			text := sent.Text
			v, ok := extract.Swap(text, f.Key, k.valueText(f))
			if !ok && pair != "" {
				text = pair
				v, ok = extract.Swap(text, f.Key, k.valueText(f))
			}
			if !ok {
				continue
			}
			ent, attr := extract.NormalizeKey(f.Key)
			st := extract.Statement{
				Entity: cmp.Or(ent, attr), Attribute: attr, Key: f.Key, Value: v, Kind: extract.SwapKind(v),
				Rule: extract.RuleSwap, Sentence: text, Index: sent.Index,
			}
			x := Extraction{Statement: st}
			if err := s.extractOne(tx, caller, t, spk, st, k, written, found, &x, res); err != nil {
				return err
			}
			res.Extracted = append(res.Extracted, x)
		}
	}
	return nil
}

func (s *Service) extractOne(tx *store.Txn, caller authority.Identity, t session.Turn, spk speaker, st extract.Statement, k known, written map[string]bool, found map[string]detect.Detection, x *Extraction, res *Result) error {
	if len(st.Value) > MaxReplacement {
		x.Outcome, x.Reason = OutcomeSkipped, "the value is longer than a value"
		return nil
	}
	if s.write.Volatile(st.Key) {
		x.Outcome, x.Reason = OutcomeSkipped, "the key names volatile state, which is asserted, not stored as a fact"
		return nil
	}
	if reason := unfit(st); reason != "" {
		x.Outcome, x.Reason = OutcomeSkipped, reason
		return nil
	}
	auth, cited := s.relayed(spk, st)
	targets, err := s.targets(tx, spk.as(caller), st, k, t.At)
	if err != nil {
		return err
	}
	// A valid fact already holding the value: nothing to write.
	for _, f := range targets {
		if holds(f.ValueText(), st) || extract.SameDate(f.ValueText(), st.Value, st.Sentence, t.At) {
			x.Outcome, x.Previous, x.Reason = OutcomeUnchanged, ptr(f), "fact "+f.ID+" holds this value"
			return nil
		}
	}
	var old *facts.Fact
	for _, f := range targets {
		switch {
		case k.kept[f.ID] || extract.KeepsStored(st.Sentence, f.ValueText()):
			// "We're scoping the Postgres 16 upgrade, prod stays on 13":
			// the turn keeps the stored value.
			x.Outcome, x.Previous, x.Reason = OutcomeUnchanged, ptr(f), "the turn says fact "+f.ID+" is as it was"
			return nil
		case spk.assistant && f.Source.Speaker != "assistant" && st.Rule != extract.RuleActionSet && !spk.acted(st.Sentence):
			// The assistant's own completed action ("I've rebooked your
			// appointment for …") is the exception: it did the change.
			x.Outcome, x.Previous, x.Reason = OutcomeBlocked, ptr(f), "an assistant's statement does not replace what the user stated"
			return nil
		case s.rules != nil && !s.rules.Supersedes(auth, f.Source.Authority):
			x.Outcome, x.Previous = OutcomeBlocked, ptr(f)
			x.Reason = fmt.Sprintf("fact %s has authority %s, above the speaker's %s", f.ID, s.rules.Describe(f.Source.Authority), s.rules.Describe(auth))
			return nil
		}
		if old == nil || f.RecordedAt.After(old.RecordedAt) {
			old = ptr(f)
		}
	}
	if old == nil && st.Rule == extract.RuleSwap {
		// A swap replaces the fact it read; it never writes a second one.
		x.Outcome, x.Reason = OutcomeSkipped, "the value it replaces is not of the new value's kind"
		return nil
	}
	if old == nil && !spk.assistant {
		// "We are going with GlobalTech for the contract instead of
		// TechStart": the fact holding the value the sentence leaves is
		// the one it changes, under that fact's key and restrictions.
		if f := leftBy(k, st, t.ID); f != nil {
			st.Entity, st.Attribute = extract.NormalizeKey(f.Key)
			st.Entity = cmp.Or(st.Entity, st.Attribute)
			st.Key = f.Key
			x.Statement = st
			return s.extractOne(tx, caller, t, spk, st, k, written, found, x, res)
		}
	}
	if old == nil {
		if r, ok := heldElsewhere(k, st); ok {
			// Another record (an environment signal, an assertion, a
			// fact under another name) holds the value: a second copy
			// would compete with it.
			x.Outcome, x.Reason = OutcomeUnchanged, fmt.Sprintf("%s %s holds this value", strings.ToLower(string(r.Kind)), r.ID)
			if f, ok := k.facts[r.ID]; ok {
				x.Previous = ptr(*f)
			}
			return nil
		}
	}
	if old == nil && spk.assistant && st.Entity != "user" && st.Rule != extract.RuleActionSet {
		// An assistant's statement becomes state only when it is about
		// the user (a restatement); the rest stays evidence.
		x.Outcome, x.Reason = OutcomeSkipped, "an assistant's statement about something other than the user is not stored as a fact"
		return nil
	}
	text := valueOf(st)
	if old != nil {
		text = valueOfFor(old.ValueText(), st)
	}
	value, err := json.Marshal(text)
	if err != nil {
		return err
	}
	idx := st.Index
	in := facts.WriteInput{
		Key: st.Key, Value: value,
		Source: &facts.Source{
			Type: facts.SourceUser, Authority: auth, Identity: spk.id,
			Turn: t.ID, Sentence: &idx, Speaker: spk.name, Cited: cited, Rule: st.Rule,
		},
		Reason: fmt.Sprintf("turn %s: %s", t.ID, st.Sentence),
	}
	from := t.At
	in.ValidFrom = &from
	if old == nil {
		in.MemoryType = facts.MemoryUser
	} else {
		in.Key, in.Supersedes, in.Kind = old.Key, old.ID, facts.Change
		in.Detection, in.Cue = string(kindOf(st, auth != spk.authority)), st.Rule
		if d, ok := found[old.ID]; ok {
			in.Detection, in.Cue = string(d.Kind), d.Cue
		}
		in.MemoryType, in.Scope, in.ScopeID = old.MemoryType, old.Scope, old.ScopeID
		switch {
		case st.Correction || written[old.Key]:
			// The earlier value was never true (or was said a clause ago).
			in.Kind, in.ValidFrom = facts.Correction, nil
		case from.Before(old.ValidFrom):
			in.ValidFrom = &old.ValidFrom
		}
	}
	writer := caller
	writer.Authority = auth
	f, err := s.write.WriteTx(tx, writer, in)
	var fe *fault.Error
	if errors.As(err, &fe) {
		x.Outcome, x.Reason = OutcomeSkipped, fe.Msg
		return nil
	}
	if err != nil {
		return err
	}
	written[f.Key] = true
	x.Fact = &f
	// A later sentence of the turn may change it again ("Actually we're
	// going with Golden Wok. We reversed the decision — it's Mezze
	// Republic").
	k.facts[f.ID] = ptr(f)
	if old == nil {
		x.Outcome, x.Reason = OutcomeWritten, "rule "+st.Rule
		return nil
	}
	x.Outcome, x.Previous = OutcomeSuperseded, old
	x.Reason = fmt.Sprintf("%s: %q replaces %q", strings.ToLower(string(in.Kind)), text, old.ValueText())
	retired, err := asStored(tx, *old)
	if err != nil {
		return err
	}
	res.Superseded = append(res.Superseded, Retired{Fact: retired, By: &f, Reason: x.Reason})
	delete(k.facts, old.ID)
	// The same value under the client's other names for it ("homeAddress"
	// beside user.address) changes too: none of them may keep the old one.
	for _, other := range targets {
		if other.ID == old.ID {
			continue
		}
		in2 := in
		in2.Key, in2.Supersedes = other.Key, other.ID
		in2.MemoryType, in2.Scope, in2.ScopeID = other.MemoryType, other.Scope, other.ScopeID
		if in2.ValidFrom != nil && in2.ValidFrom.Before(other.ValidFrom) {
			in2.ValidFrom = &other.ValidFrom
		}
		g, err := s.write.WriteTx(tx, writer, in2)
		if errors.As(err, &fe) {
			continue
		}
		if err != nil {
			return err
		}
		was, err := asStored(tx, other)
		if err != nil {
			return err
		}
		res.Superseded = append(res.Superseded, Retired{Fact: was, By: &g, Reason: x.Reason})
		delete(k.facts, other.ID)
	}
	return nil
}

// asStored is f as tx now stores it (after its supersession).
func asStored(tx *store.Txn, f facts.Fact) (facts.Fact, error) {
	sp, err := facts.SpaceOf(tx.Partition(), f.MemoryType)
	if err != nil {
		return f, nil
	}
	got, found, err := facts.LoadTx(tx, sp, f.ID)
	if err != nil || !found {
		return f, err
	}
	return got, nil
}

// targets returns the valid, real facts the caller may read that hold the
// statement's (entity, attribute), whatever their keys are called.
func (s *Service) targets(tx *store.Txn, caller authority.Identity, st extract.Statement, k known, at time.Time) ([]facts.Fact, error) {
	var out []facts.Fact
	seen := map[string]bool{}
	for _, f := range k.facts {
		if !seen[f.ID] && st.About(f.Key) && !ownedByOther(st, f.Key) {
			seen[f.ID] = true
			out = append(out, *f)
		}
	}
	exact, err := s.facts.ValidByKey(tx, st.Key)
	if err != nil {
		return nil, err
	}
	for _, f := range exact {
		if !seen[f.ID] && f.Scope.Real() && (s.rules == nil || s.rules.CanRead(caller, f.RestrictedTo)) {
			seen[f.ID] = true
			out = append(out, f)
		}
	}
	// Only a value of the statement's kind can be its previous value.
	out = slices.DeleteFunc(out, func(f facts.Fact) bool { return !st.Fits(k.valueText(&f), at) })
	if len(out) == 0 {
		out = loosely(st, k, at)
	}
	// Facts named exactly as the statement names its subject win over
	// those whose names are only part of it.
	var named []facts.Fact
	for _, f := range out {
		if ent, _ := extract.NormalizeKey(f.Key); ent == st.Entity || f.Key == st.Key {
			named = append(named, f)
		}
	}
	if len(named) > 0 {
		out = named
	}
	slices.SortFunc(out, func(a, b facts.Fact) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// loosely finds the one fact a typed statement is about when no key
// matched: a fact keyed by the statement's thing and another word for its
// attribute, holding a value of the statement's kind ("The office
// relocated to 200 Queen Street" names office.location; the client keeps
// office_address = 14 King St; "Rent's going up to £1,525" beside
// monthly_rent). Two such facts name nothing.
func loosely(st extract.Statement, k known, at time.Time) []facts.Fact {
	switch st.Kind {
	case extract.KindLocation, extract.KindAmount, extract.KindCount, extract.KindDate, extract.KindContact:
	default:
		return nil
	}
	if st.Entity == "" || st.Entity == "user" {
		return nil
	}
	var out []facts.Fact
	for _, f := range k.facts {
		v := k.valueText(f)
		if !extract.KeyHas(f.Key, st.Entity) || ownedByOther(st, f.Key) || !st.Fits(v, at) || st.Kind == extract.KindLocation && !placeLike(v) {
			continue
		}
		if out = append(out, *f); len(out) > 1 {
			return nil
		}
	}
	return out
}

// placeLike reports a value that names a place: a name or an address,
// not a status ("closed").
func placeLike(v string) bool {
	return strings.ContainsFunc(v, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) })
}

// relayed is the authority a statement carries and whom it cites: the
// speaker's own, or, for a relayed claim ("the COO says …"), the cited
// role's when the speaker may relay (Options.RelayFrom) and it ranks
// higher, capped below policy, so that a relayed claim never outranks a
// policy fact.
func (s *Service) relayed(spk speaker, st extract.Statement) (auth, cited string) {
	auth = spk.authority
	if st.Cited == "" || s.detect.Order == nil {
		return auth, ""
	}
	o := s.detect.Order
	role := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(st.Cited), "the "), "our "))
	name, ok := o.Resolve(role)
	if !ok || spk.assistant || o.Rank(spk.authority) < o.Rank(s.relayFrom) {
		return auth, st.Cited
	}
	if top := o.Rank("policy"); top > 0 && o.Rank(name) >= top {
		name = o.Names()[top-1]
	}
	if o.Rank(name) > o.Rank(auth) {
		auth = name
	}
	return auth, st.Cited
}

// valueOf is the value a statement stores: as said, and a resolved date
// with the phrase that said it ("2026-03-10 (March 10)").
func valueOf(st extract.Statement) string {
	if st.Said != "" && st.Said != st.Value {
		return st.Value + " (" + st.Said + ")"
	}
	return st.Value
}

var reISODay = regexp.MustCompile(`\b\d{4}-\d\d-\d\d(?: \d\d:\d\d)?\b`)

// qualifiers are entities that name an earlier or other version of a
// thing, not the thing ("the original date was …").
var qualifiers = map[string]bool{
	"original": true, "previous": true, "old": true, "initial": true, "former": true, "earlier": true,
	"first": true, "last": true, "other": true, "next": true, "same": true, "new": true, "current": true,
}

// derivedMarks open or join a conclusion drawn from other facts ("which
// means the launch slips to May"): it is kept as said, in the turn, and
// follows what it was drawn from rather than becoming a fact of its own.
var derivedMarks = []string{" means ", " meaning ", " therefore ", " thus ", " hence ", " which puts ", " so that ", ", so ", " consequently "}

// unfit says why a statement is not stored as a fact, or "": it names no
// topic (a bare "choice"), its entity is a qualifier or a run of words
// rather than a thing, or it is a conclusion drawn from other facts.
// maxEntityJoins is how many "_" make an entity a run of words rather
// than a thing: four words for most statements, five when the value is
// unmistakably typed (a contact, a date, an amount) or a choice, since "our
// account manager at the cloud vendor" is one person and "the paint colour
// for the living room" one choice.
func maxEntityJoins(kind string) int {
	switch kind {
	case extract.KindContact, extract.KindDate, extract.KindAmount, extract.KindChoice:
		return 4
	}
	return 3
}

func unfit(st extract.Statement) string {
	low := " " + strings.ToLower(strings.TrimLeft(st.Sentence, "⚠️*_-–— ")) + " "
	switch {
	case strings.HasPrefix(low, " so:") || strings.HasPrefix(low, " so,") || strings.HasPrefix(low, " therefore") || strings.HasPrefix(low, " thus"):
		return "a conclusion drawn from other facts stays in the conversation"
	case st.Entity == "":
		return "the statement names no topic"
	case qualifiers[st.Entity] || strings.Count(st.Entity, "_") >= maxEntityJoins(st.Kind):
		return "the statement's subject is not a thing: " + st.Entity
	case reCountedMore.MatchString(strings.ReplaceAll(st.Entity, "_", " ")) || reCountedMore.MatchString(st.Value) || countChange(st):
		// "I picked up three more houseplants", "We hired two more
		// engineers for the team": a change of a count, which Anchor
		// reads against the count stored.
		return "the statement says a change of a count, read against the count stored, not a thing"
	}
	for _, m := range derivedMarks {
		// How to reach someone is never drawn from other facts ("I've
		// left OldCo, so reach me at bob@newco.io").
		// A swap names the value dropped and the one taken up in its
		// own words ("Golden Wok cancelled on us, so Mezze Republic is
		// doing the food"): a report of an act, not a conclusion.
		// A name is not computed: "Rosewood Manor double-booked us,
		// which means the wedding is now at The Glasshouse" reports
		// the new venue; "which means the launch slips to May" is
		// drawn from the dates before it.
		i := strings.Index(low, m)
		if i < 0 || st.Rule == extract.RuleAnchor && !st.Implied || saidBefore(low, st, i) {
			// The fact's own words linked to its new value ("so U12
			// practice is now Tuesdays at 6:15pm") say it, whatever it
			// was drawn from; a mark after the value ("the roster is
			// at 16 now, which means …") concludes something else.
			continue
		}
		if st.Rule != extract.RuleSwap && st.Kind != extract.KindContact && !(m == ", so " && actsOn(low, st)) && !(!computed[st.Kind] && reNowWord.MatchString(low)) {
			return "a conclusion drawn from other facts stays in the conversation"
		}
	}
	return ""
}

// reCountedMore opens on a count said as a change: "two more engineers".
var reCountedMore = regexp.MustCompile(`(?i)^(?:\d+|a couple|a few|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:more|additional|extra|fewer|less)\b`)

// countChange reports a bare number the sentence says as a change ("is 6
// fewer after the cancellations"), not as the value.
func countChange(st extract.Statement) bool {
	if !reBareText.MatchString(st.Value) {
		return false
	}
	for rest := st.Sentence; ; {
		i := strings.Index(rest, st.Value)
		if i < 0 {
			return false
		}
		rest = rest[i+len(st.Value):]
		if strings.HasPrefix(rest, " ") && reCountedMore.MatchString("1"+rest) {
			return true
		}
	}
}

// saidBefore reports whether low (the sentence, lower case) says st's
// value before byte i.
func saidBefore(low string, st extract.Statement, i int) bool {
	for _, v := range []string{st.Value, st.Said} {
		if j := strings.Index(low, strings.ToLower(v)); v != "" && j >= 0 && j < i {
			return true
		}
	}
	return false
}

// computed are the kinds of value a conclusion may compute from others.
var computed = map[string]bool{extract.KindAmount: true, extract.KindCount: true, extract.KindDate: true}

// actsOn reports a ", so" that opens what the speaker did or now has
// ("six more RSVP'd, so we're at 46 guests", "the barn fell through, so
// we booked Millbrook Hall") or the new state of the statement's own
// topic ("three new hires joined, so the team is 11 people"), not an
// inference about something else ("…, so the total is").
func actsOn(low string, st extract.Statement) bool {
	i := strings.Index(low, ", so ")
	rest := extract.TrimTimeLead(low[i+len(", so "):]) // "so as of this week we're living at …"
	for _, p := range []string{"we ", "we're ", "we’re ", "we've ", "we’ve ", "i ", "i'm ", "i’m ", "i've ", "i’ve "} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	// The subject is the key's own words, the value follows its verb.
	// "…, so it's 3pm": "it" is the topic the clause before moved.
	for _, it := range []string{"it's ", "it’s ", "it is "} {
		if v, ok := strings.CutPrefix(rest, it); ok && st.Value != "" && strings.TrimRight(rePeriodTail.ReplaceAllString(strings.TrimRight(v, ".! "), ""), ".! ") == strings.ToLower(st.Value) {
			return true
		}
	}
	for _, det := range []string{"the ", "our ", "my ", ""} { // "so launch is now April 1"
		t, ok := strings.CutPrefix(rest, det)
		if !ok {
			continue
		}
		for _, be := range []string{" is ", " are ", " now "} {
			subj, after, ok := strings.Cut(t, be)
			subj = strings.TrimSuffix(strings.TrimSuffix(subj, " now"), " there") // "our contact there is …"
			if ok && subj != "" && saysValue(after, st) && allKeyWords(subj, st.Key) {
				return true
			}
		}
	}
	// "Hannah's moving to the infra team, so Marco will lead the
	// project": a name that opens the clause after ", so" is who acts
	// now, not a value computed from the clause before.
	if !computed[st.Kind] && st.Value != "" && strings.HasPrefix(rest, strings.ToLower(st.Value)+" ") {
		return true
	}
	// "We bought 15 more licences, so 40 in total": a tally, not a
	// conclusion.
	return rest != "" && rest[0] >= '0' && rest[0] <= '9' && (strings.Contains(rest, " total") || strings.Contains(rest, " altogether") || strings.Contains(rest, " in all"))
}

// saysValue reports whether low (lower case) says st's value: as stored,
// or a date as the sentence said it ("so the deadline is March 17" says
// 2026-03-17).
func saysValue(low string, st extract.Statement) bool {
	return strings.Contains(low, strings.ToLower(st.Value)) || st.Said != "" && strings.Contains(low, strings.ToLower(st.Said))
}

// rePeriodTail closes a value with its period and "now": "… a month now".
var rePeriodTail = regexp.MustCompile(`(?:\s+(?:a|per|each)\s+(?:month|week|year|day))?(?:\s+now)?$`)

// reNowWord is "now" as a word, before punctuation too ("… during the day now.").
var reNowWord = regexp.MustCompile(`\bnow\b`)

// allKeyWords reports whether every word of phrase is a word of key.
func allKeyWords(phrase, key string) bool {
	keyWords := strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '.' || r == '-' })
	for _, w := range strings.Fields(phrase) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s") // "unit 2's lease"
		if !slices.Contains(keyWords, w) && !slices.Contains(keyWords, strings.TrimSuffix(w, "s")) {
			return false
		}
	}
	return true
}

// ownedByOther reports a statement about another owner's thing beside a
// fact whose key does not name that owner: "Chen's contractor is on
// owen@…" (entity chen_contractor) is not the speaker's contractor.phone,
// "Marketing's budget was slashed" not the budget the speaker keeps, and
// "the plumber's number" not the speaker's phone (a contact keyed by no
// one's name is the speaker's own).
func ownedByOther(st extract.Statement, key string) bool {
	ent, attr := extract.NormalizeKey(key)
	if ent == "" && extract.ContactAttribute(attr) && st.Entity != "" && st.Entity != "user" && extract.ContactAttribute(st.Attribute) {
		return true
	}
	if st.Entity == "" || st.Entity == "user" {
		return false
	}
	if extract.SetApart(st.Entity, key) {
		return true
	}
	keyWords := strings.Split(ent, "_")
	ews := strings.Split(st.Entity, "_")
	if len(ews) == 1 {
		// "Marketing's budget", not "Rent's going up" (a contraction:
		// the word after it is no thing of the key's).
		return possessed(st.Sentence, ews[0], false) && !slices.Contains(keyWords, ews[0]) && !contracted(st.Sentence, ews[0], key)
	}
	// "Chen's contractor", "the sales team's offsite": the owner is the
	// entity's opening words, said with "'s"; "the marketing team's
	// budget" (marketing_team.budget): the whole entity owns the attribute.
	for i := 1; i < len(ews) || i == len(ews) && st.Attribute != ""; i++ {
		owner := ews[:i]
		if possessed(st.Sentence, strings.Join(owner, " "), true) {
			if strings.Contains(strings.ReplaceAll(ent, "_", ""), strings.Join(owner, "")) {
				return false // "Unit 2's lease" beside unit2LeaseEnd
			}
			if topicsName(st.Sentence, owner, keyWords) {
				return false // "Coach Dana's number" beside coach_phone
			}
			for _, w := range owner {
				// "Valentine's gig" beside vday_gig_venue: the key says
				// the owner in another word.
				if !slices.Contains(keyWords, w) && !extract.Names(w, key) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// topicsName reports an owner said as the key's words and then a name,
// capitalised in the sentence: "Coach Dana" is the coach of coach_phone.
func topicsName(sentence string, owner, keyWords []string) bool {
	n := 0
	for n < len(owner) && slices.Contains(keyWords, owner[n]) {
		n++
	}
	if n == 0 || n == len(owner) {
		return false
	}
	for _, w := range owner[n:] {
		if w == "" || !strings.Contains(sentence, strings.ToUpper(w[:1])+w[1:]) {
			return false
		}
	}
	return true
}

// contracted reports whether w's "'s" in sentence is "is" or "has":
// the word after it is a verb's form or an adverb ("Rent's going up",
// "Rent's now £1,525"), not a thing ("Marketing's budget").
func contracted(sentence, w, key string) bool {
	low := lexical.LowerASCII(sentence)
	for _, apo := range []string{"'s ", "’s "} {
		i := strings.Index(low, lexical.LowerASCII(w)+apo)
		if i < 0 {
			continue
		}
		next, _, _ := strings.Cut(low[i+len(w)+len(apo):], " ")
		next = strings.Trim(next, ".,;:!?")
		if extract.Names(next, key) {
			return false
		}
		return strings.HasSuffix(next, "ing") || strings.HasSuffix(next, "ed") || contractionNext[next]
	}
	return false
}

// contractionNext follow a contracted "is" or "has".
var contractionNext = map[string]bool{"now": true, "been": true, "up": true, "down": true, "due": true, "at": true, "in": true,
	"on": true, "gone": true, "risen": true, "fallen": true, "just": true, "officially": true, "finally": true, "still": true,
	"going": true, "set": true, "cut": true, "about": true, "over": true, "under": true, "back": true, "off": true}

// possessed reports whether sentence says "w's" (w one word or several,
// space-separated) at a word's start: in any case when anyCase (the owner
// opens an entity of more words: "the sales team's offsite"), else only
// capitalised (a name, a team: "Marketing's budget", not "the project's
// budget").
func possessed(sentence, w string, anyCase bool) bool {
	low := lexical.LowerASCII(sentence) // keeps sentence's byte offsets
	for _, apo := range []string{"'s", "’s"} {
		sub := lexical.LowerASCII(w) + apo
		for i := 0; ; {
			j := strings.Index(low[i:], sub)
			if j < 0 {
				break
			}
			p := i + j
			if (p == 0 || !lexical.IsASCIILetter(sentence[p-1])) && (anyCase || sentence[p] >= 'A' && sentence[p] <= 'Z') {
				return true
			}
			i = p + 1
		}
	}
	return false
}

// leftBy finds the valid fact, not written by turn, whose value st's
// sentence leaves for st's value (extract.Swap), if exactly one does.
func leftBy(k known, st extract.Statement, turn string) *facts.Fact {
	if !extract.Drops(st.Sentence) {
		return nil
	}
	var hit *facts.Fact
	for _, f := range k.facts {
		if f.Source.Turn == turn || f.Key == st.Key {
			continue
		}
		if v, ok := extract.Swap(st.Sentence, f.Key, k.valueText(f)); ok && holds(v, st) {
			if hit != nil && hit.Key != f.Key {
				return nil // two facts: which one is meant is not said
			}
			if hit == nil || f.ID < hit.ID {
				hit = f
			}
		}
	}
	return hit
}

// heldElsewhere finds a known record other than a turn that already
// states the statement's value.
func heldElsewhere(k known, st extract.Statement) (detect.Record, bool) {
	for _, r := range k.records {
		if r.Kind == detect.RecordTurn {
			continue
		}
		if holds(r.Value, st) {
			return r, true
		}
	}
	return detect.Record{}, false
}

// kindOf is the detection kind a statement shows by its own words:
// AUTHORITY when it relays a higher role, EXPLICIT when it corrects or
// names a change, TEMPORAL when it dates the value to now, else IMPLICIT.
func kindOf(st extract.Statement, relayed bool) detect.Kind {
	low := " " + strings.ToLower(st.Sentence) + " "
	switch {
	case relayed:
		return detect.KindAuthority
	case st.Correction || changeWord(st.Sentence):
		return detect.KindExplicit
	case strings.Contains(low, " as of ") || strings.Contains(low, " currently ") || strings.Contains(low, " today "):
		return detect.KindTemporal
	}
	return detect.KindImplicit
}

// holds reports whether a stored value already says what st says: the
// same value, or the same date phrase as said.
func holds(stored string, st extract.Statement) bool {
	v := valueOfFor(stored, st)
	if v != valueOf(st) {
		// Written in the stored value's form ("Saturday 9am" beside
		// "Saturday 10am"), it is compared in that form: the day
		// alone, as said, is not the slot.
		return sameValue(stored, v)
	}
	return sameValue(stored, v) || st.Said != "" && sameValue(stored, st.Said)
}

// valueOfFor is the value st stores in place of stored: valueOf, but a
// standing weekday stays a weekday ("Tuesday", not next Tuesday's date,
// replaces "Thursday").
func valueOfFor(stored string, st extract.Statement) string {
	if d, ok := extract.MonthDayLike(stored, cmp.Or(st.Said, st.Value)); ok {
		return d // "15th of the month" beside "1st of the month"
	}
	if d, ok := extract.NthWeekdayLike(stored, st.Sentence); ok && st.Kind == extract.KindDate {
		return d // "1st Thursday" beside "1st Tuesday", not the next first Thursday's date
	}
	if d, ok := extract.DayLike(stored, cmp.Or(st.Said, st.Value)); ok {
		return d
	}
	if reBareText.MatchString(st.Value) {
		if v, ok := extract.WithCountNoun(stored, st.Value, st.Sentence); ok {
			return v // "30 books" beside "24 books", not "30"
		}
	}
	if v := withStreetAfter(valueOf(st), stored, st.Sentence); v != valueOf(st) {
		return v // "Flat 2, 9 Carlton Street" beside "Flat 4, 22 Elm Road", not "Flat 2"
	}
	if d, ok := extract.SlotLike(stored, cmp.Or(st.Said, st.Value), st.Sentence); ok {
		return d // "Saturday 9am" beside "Saturday 10am", not next Saturday's date
	}
	if h, ok := extract.HourLike(stored, st.Value); ok && st.Kind == extract.KindDate {
		return h // "pickup is 5 now" beside "5:30pm"
	}
	return valueOf(st)
}

// reBareText is a number alone.
var reBareText = regexp.MustCompile(`^\d[\d,]*(?:\.\d+)?$`)

// sameValue reports whether a stored value says v: the same resolved
// date, or equal once case, spacing and punctuation are set aside, or
// containing v as words.
func sameValue(stored, v string) bool {
	if d := reISODay.FindString(v); d != "" && strings.HasPrefix(v, d) {
		if e := reISODay.FindString(stored); e != "" {
			return d == e
		}
	}
	a, b := foldValue(stored), foldValue(v)
	if b == "" {
		return false
	}
	return a == b || strings.Contains(" "+a+" ", " "+b+" ")
}

func foldValue(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space = false
		} else {
			space = true
		}
	}
	return b.String()
}

func ptr[T any](v T) *T { return &v }

// retract takes back what the turn's retractions point to: with a topic,
// the most recent (or, for "the first …", the earliest) valid fact on it;
// without one, what the speaker's previous turn said: the facts extracted
// from it, and the turn itself, which is no longer replayed. A fact whose
// authority ranks above the speaker's, or a user's fact retracted by the
// assistant, stays.
func (s *Service) retract(tx *store.Txn, caller authority.Identity, t session.Turn, spk speaker, rs []extract.Retraction, k known, now time.Time, res *Result) error {
	for _, r := range rs {
		var picked []facts.Fact
		if r.Topic != "" {
			if f, ok := pickTopic(k, r); ok {
				picked = append(picked, f)
			}
		} else if prev, ok := k.previous[spk.turnKey()]; ok {
			for _, id := range prev.Facts {
				f, _, err := s.facts.FindVisible(tx, spk.as(caller), id)
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				if f.IsValid() {
					picked = append(picked, f)
				}
			}
			if !prev.Superseded {
				if err := session.SupersedeTurnTx(tx, prev, t.ID, now); err != nil {
					return err
				}
				if err := evidence.RetireTurnTx(tx, prev.ID, t.ID, now); err != nil {
					return err
				}
				res.RetiredTurns = append(res.RetiredTurns, prev.ID)
			}
		}
		for _, f := range picked {
			if spk.assistant && f.Source.Speaker != "assistant" {
				continue
			}
			got, err := s.write.RetractTx(tx, spk.as(caller), f.ID, pipeline.Retraction{
				Reason: fmt.Sprintf("turn %s: %s", t.ID, r.Sentence), Cue: r.Cue, By: t.ID,
			})
			var fe *fault.Error
			if errors.Is(err, pipeline.ErrOutranked) || errors.As(err, &fe) {
				continue
			}
			if err != nil {
				return err
			}
			delete(k.facts, f.ID)
			res.Superseded = append(res.Superseded, Retired{Fact: got, Reason: "retracted: " + r.Cue})
		}
	}
	return nil
}

// pickTopic finds the fact a retraction names: its key or value speaks
// of the topic's words; the latest such, or the earliest for "the first".
func pickTopic(k known, r extract.Retraction) (facts.Fact, bool) {
	words := strings.Split(r.Topic, "_")
	var best facts.Fact
	found := false
	for _, f := range k.facts {
		if !aboutTopic(*f, words) {
			continue
		}
		if !found || before(*f, best) == r.First {
			best, found = *f, true
		}
	}
	return best, found
}

// before orders facts by valid time, then recorded time, then id.
func before(a, b facts.Fact) bool {
	switch {
	case !a.ValidFrom.Equal(b.ValidFrom):
		return a.ValidFrom.Before(b.ValidFrom)
	case !a.RecordedAt.Equal(b.RecordedAt):
		return a.RecordedAt.Before(b.RecordedAt)
	}
	return a.ID < b.ID
}

func aboutTopic(f facts.Fact, words []string) bool {
	ent, attr := extract.NormalizeKey(f.Key)
	key := " " + strings.ReplaceAll(ent+"_"+attr, "_", " ") + " "
	val := " " + foldValue(f.ValueText()) + " "
	for _, w := range words {
		w = strings.TrimSuffix(w, "s")
		if !strings.Contains(key, " "+w) && !strings.Contains(val, " "+w) {
			return false
		}
	}
	return len(words) > 0
}
