package statebench

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Tracks of the generated conversations.
const (
	TrackLongConversation  = "long_conversation"
	TrackShortConversation = "short_conversation"
)

// Long writes n long conversations as StateBench JSON Lines: each about
// 250 turns (roughly 100k cl100k tokens) of a user and an assistant talking
// about technical and personal topics, with long markdown answers. Early
// on, the user states one value of each kind (a count, a choice, an owner,
// two dates, an address, a price, a location, a contact); later some of
// them change, in varied phrasing, among distractors that must not change
// anything (negations, questions, hypotheticals, drafts, declined
// proposals, past events, other people's lives, the assistant's own
// suggestions). The conversation ends with queries whose must_mention is a
// current value and whose must_not_mention are the values it replaced.
//
// Nothing is written by state_write: every value lives only in the turns.
// The same n and seed give the same bytes; no two conversations are alike.
func Long(w io.Writer, n int, seed uint64) error {
	if n < 1 {
		return fmt.Errorf("statebench: --generate-long needs at least 1 conversation, not %d", n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x10c0ffee))
	for i := range n {
		g := newConvGen(rng)
		tl := g.long(fmt.Sprintf("LONG-%d-%03d", seed, i+1), 0)
		if err := writeLine(w, tl); err != nil {
			return err
		}
	}
	return nil
}

// Short writes n short timelines (5 to 20 turns) as StateBench JSON Lines:
// two to four values, each written as a fact in the initial state (under a
// client key name in one of several styles), by a state_write, or said in
// a turn; then changed or merely mentioned by the conversation; then one
// to three queries. The same n and seed give the same bytes.
func Short(w io.Writer, n int, seed uint64) error {
	if n < 1 {
		return fmt.Errorf("statebench: --generate-short needs at least 1 timeline, not %d", n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5407c0de))
	for i := range n {
		g := newConvGen(rng)
		tl := g.short(fmt.Sprintf("SHORT-%d-%03d", seed, i+1))
		if err := writeLine(w, tl); err != nil {
			return err
		}
	}
	return nil
}

func writeLine(w io.Writer, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(raw, '\n'))
	return err
}

// kindNames name the kinds in a query's decision_type, so that results can
// be broken down by kind.
var kindNames = [numKinds]string{
	kindCount: "count", kindChoice: "choice", kindOwner: "owner", kindWorkDate: "work_date", kindPersonalDate: "personal_date",
	kindAddress: "address", kindPrice: "price", kindLocation: "location", kindContact: "contact",
}

// slot is one value the user talks about, and its history.
type slot struct {
	kind   slotKind
	th     theme
	values []string // values[0] is stated first; each later one replaces the one before
	alts   []string // values it never takes
	said   int      // how many of values have been said so far (during generation)
	cur    string   // a price's currency: one per slot
}

func (s *slot) subject() string { return s.th.det + " " + s.th.noun }

// phrase is what a context must contain to carry value v.
func (s *slot) phrase(v string) string {
	if s.kind == kindAddress {
		// "12 Elm Row, Leeds": the number and street identify it.
		if i := strings.IndexByte(v, ','); i > 0 {
			return v[:i]
		}
	}
	return v
}

// convGen generates one conversation.
type convGen struct {
	rng    *rand.Rand
	slots  []*slot
	digits map[string]bool // digit runs already in some value
	taken  map[string]bool // values already used by some slot
	start  time.Time
	at     time.Time
	events []map[string]any
}

func newConvGen(rng *rand.Rand) *convGen {
	return &convGen{rng: rng, digits: map[string]bool{}, taken: map[string]bool{}}
}

func (g *convGen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *convGen) chance(p float64) bool { return g.rng.Float64() < p }

// newSlot makes a slot of kind with nValues values (the first and its
// replacements) and nAlts values it never takes.
func (g *convGen) newSlot(kind slotKind, th theme, nValues, nAlts int) *slot {
	s := &slot{kind: kind, th: th, cur: g.pick([]string{"$", "€", "£"})}
	for len(s.values) < nValues {
		s.values = append(s.values, g.value(s))
	}
	for len(s.alts) < nAlts {
		s.alts = append(s.alts, g.value(s))
	}
	g.slots = append(g.slots, s)
	return s
}

// value draws a fresh value for s: unused in the conversation, and for
// numbers, sharing no digit run with any other value.
func (g *convGen) value(s *slot) string {
	for range 1000 {
		v := g.draw(s)
		if g.taken[strings.ToLower(v)] || g.clashes(v) {
			continue
		}
		g.taken[strings.ToLower(v)] = true
		for _, d := range digitRuns(v) {
			g.digits[d] = true
		}
		return v
	}
	panic("statebench: value pool exhausted")
}

// clashes reports whether v's digit runs meet another value's, which
// would make a bare number match where it should not.
func (g *convGen) clashes(v string) bool {
	for _, d := range digitRuns(v) {
		if g.digits[d] {
			return true
		}
	}
	return false
}

func digitRuns(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return !unicode.IsDigit(r) })
}

func (g *convGen) draw(s *slot) string {
	switch s.kind {
	case kindCount:
		// Above the minutes and days of timestamps, so that a bare count
		// never matches a clock time.
		if g.chance(0.5) {
			return strconv.Itoa(61 + g.rng.IntN(39))
		}
		return strconv.Itoa(110 + 10*g.rng.IntN(88))
	case kindOwner:
		return g.pick(owners)
	case kindWorkDate, kindPersonalDate:
		d := g.start.AddDate(0, 0, 20+g.rng.IntN(110))
		return months[d.Month()-1] + " " + strconv.Itoa(d.Day())
	case kindAddress:
		return strconv.Itoa(2+g.rng.IntN(180)) + " " + g.pick(streets) + ", " + g.pick(towns)
	case kindPrice:
		return s.cur + thousands(500+50*g.rng.IntN(900))
	case kindContact:
		if g.chance(0.5) {
			return fmt.Sprintf("+44 7700 900%03d", g.rng.IntN(1000))
		}
		return g.pick(contactFirst) + "." + g.pick(contactLast) + "@" + g.pick(emailDomains)
	}
	return g.pick(s.th.values)
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fill replaces the placeholders of tpl for slot s, in the user's voice.
func (g *convGen) fill(tpl string, s *slot, v, old, alt string) string {
	return g.fillAs(tpl, s.subject(), s, v, old, alt)
}

// fillAssistant is fill in the assistant's voice: "my dentist
// appointment" becomes "your dentist appointment".
func (g *convGen) fillAssistant(tpl string, s *slot, v, alt string) string {
	subj := s.subject()
	if s.th.det == "my" {
		subj = "your " + s.th.noun
	}
	return g.fillAs(tpl, subj, s, v, "", alt)
}

func (g *convGen) fillAs(tpl, subj string, s *slot, v, old, alt string) string {
	r := strings.NewReplacer("{S}", subj, "{N}", s.th.noun, "{V}", v, "{OLD}", old, "{ALT}", alt,
		"{P}", g.pick(colleagues), "{R}", g.pick(relatives))
	return capitalize(r.Replace(tpl))
}

// capitalize capitalizes the first letter of a sentence, unless the
// sentence opens with an e-mail address, which keeps its spelling.
func capitalize(s string) string {
	if first, _, _ := strings.Cut(s, " "); strings.Contains(first, "@") {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// statement is the sentence that states s's first value.
func (g *convGen) statement(s *slot) string {
	s.said = 1
	return g.fill(g.pick(stateTemplates[s.kind]), s, s.values[0], "", "")
}

// change is the sentence that moves s to its next value.
func (g *convGen) change(s *slot) string {
	old, v := s.values[s.said-1], s.values[s.said]
	s.said++
	return g.fill(g.pick(changeTemplates[s.kind]), s, v, old, "")
}

// current is s's value as of now.
func (s *slot) current() string { return s.values[max(s.said, 1)-1] }

// distract is a sentence that mentions s without changing it.
func (g *convGen) distract(s *slot) string {
	pool := distractorTemplates
	switch s.kind {
	case kindAddress:
		pool = addressDistractors
	case kindContact:
		pool = contactDistractors
	}
	d := pool[g.rng.IntN(len(pool))]
	return g.fill(d.text, s, s.current(), "", g.pick(s.alts))
}

// suggest is the assistant suggesting an alternative for s.
func (g *convGen) suggest(s *slot) string {
	return g.fillAssistant(g.pick(assistantSuggestions), s, s.current(), g.pick(s.alts))
}

// ack is the assistant restating s's current value.
func (g *convGen) ack(s *slot) string {
	return g.fillAssistant(g.pick(assistantAcks), s, s.current(), "")
}

// clean reports whether text mentions no value of any slot: filler must
// not carry state by accident.
func (g *convGen) clean(text string) bool {
	for _, s := range g.slots {
		for _, v := range append(slices.Clone(s.values), s.alts...) {
			if Contains(text, s.phrase(v)) {
				return false
			}
		}
	}
	return true
}

// pickClean picks from list until the pick is clean (or gives up and
// returns a generic sentence).
func (g *convGen) pickClean(list []string) string {
	for range 20 {
		if t := g.pick(list); g.clean(t) {
			return t
		}
	}
	return "Okay."
}

func (g *convGen) tick(minMinutes, maxMinutes int) string {
	g.at = g.at.Add(time.Duration(minMinutes+g.rng.IntN(maxMinutes-minMinutes+1)) * time.Minute)
	return g.at.Format("2006-01-02T15:04:05")
}

func (g *convGen) turn(speaker, text string) {
	g.events = append(g.events, map[string]any{"type": KindTurn, "ts": g.tick(1, 6), "speaker": speaker, "text": text, "implicit_supersession": nil})
}

// planned is a sentence scheduled for a turn.
type planned struct {
	turn int
	slot *slot
	what string // "state", "change", "distract", "suggest"
}

// newStart picks the conversation's first moment.
func (g *convGen) newStart() {
	g.start = time.Date(2025, 9, 1, 8, 0, 0, 0, time.UTC).AddDate(0, 0, g.rng.IntN(150)).Add(time.Duration(g.rng.IntN(10*60)) * time.Minute)
	g.at = g.start
}

// allSlots makes one slot of every kind (and, for a price with a sibling
// of similar name, the sibling too); nValues decides how often each changes.
func (g *convGen) allSlots(kinds []slotKind, nValues func() int) {
	for _, k := range kinds {
		th := themes[k][g.rng.IntN(len(themes[k]))]
		g.newSlot(k, th, nValues(), 3)
		if k == kindPrice {
			if sib, ok := sibling(th); ok {
				g.newSlot(k, sib, nValues(), 3)
			}
		}
	}
}

// sibling is the price theme whose name is close to th's ("travel budget"
// and "marketing budget"): a change to one must not touch the other.
func sibling(th theme) (theme, bool) {
	pairs := map[string]string{"travel budget": "marketing budget", "marketing budget": "travel budget", "widget price": "gadget price", "gadget price": "widget price"}
	name, ok := pairs[th.noun]
	if !ok {
		return theme{}, false
	}
	for _, t := range themes[kindPrice] {
		if t.noun == name {
			return t, true
		}
	}
	return theme{}, false
}

// long builds a long conversation of about 250 turns, or of turns turns
// when turns > 0.
func (g *convGen) long(id string, turns int) map[string]any {
	g.newStart()
	nTurns := 240 + 2*g.rng.IntN(11) // even: user and assistant alternate
	if turns > 0 {
		nTurns = turns &^ 1
	}
	users := nTurns / 2
	kinds := make([]slotKind, numKinds)
	for k := range numKinds {
		kinds[k] = k
	}
	g.allSlots(kinds, func() int {
		switch f := g.rng.Float64(); {
		case f < 0.4:
			return 1
		case f < 0.8:
			return 2
		}
		return 3
	})
	// Schedule, on user turns: statements early, changes later,
	// distractors after the statement; suggestions on assistant turns.
	var plan []planned
	early := users * 3 / 10
	for _, s := range g.slots {
		at := g.rng.IntN(early)
		plan = append(plan, planned{at, s, "state"})
		prev := at
		for c := 1; c < len(s.values); c++ {
			lo := max(prev+8, users*2/5*c/(len(s.values)-1))
			at := lo + g.rng.IntN(max(1, users*19/20-lo))
			if at >= users-3 {
				at = users - 4
			}
			plan = append(plan, planned{at, s, "change"})
			prev = at
		}
		for range 3 + g.rng.IntN(3) {
			plan = append(plan, planned{at + 1 + g.rng.IntN(users-at-2), s, "distract"})
		}
		for range 1 + g.rng.IntN(2) {
			plan = append(plan, planned{at + 1 + g.rng.IntN(users-at-2), s, "suggest"})
		}
	}
	slices.SortStableFunc(plan, func(a, b planned) int { return a.turn - b.turn })
	// A change and its slot's statement or earlier change must stay in
	// order even when they land on one turn: the stable sort keeps the
	// order they were planned in.

	order := g.rng.Perm(len(topics))
	topicAt := func(u int) topic { return topics[order[(u/8)%len(order)]] }
	p := 0
	for u := range users {
		tp := topicAt(u)
		var sents, suggestions []string
		var acks []*slot
		for ; p < len(plan) && plan[p].turn == u; p++ {
			pl := plan[p]
			switch {
			case pl.what == "state":
				sents = append(sents, g.statement(pl.slot))
				acks = append(acks, pl.slot)
			case pl.what == "change" && pl.slot.said < len(pl.slot.values):
				sents = append(sents, g.change(pl.slot))
				acks = append(acks, pl.slot)
			case pl.what == "distract" && pl.slot.said > 0:
				sents = append(sents, g.distract(pl.slot))
			case pl.what == "suggest" && pl.slot.said > 0:
				suggestions = append(suggestions, g.suggest(pl.slot))
			}
		}
		g.turn("user", g.userTurn(tp, sents))
		g.turn("assistant", g.answer(tp, acks, suggestions))
		if u%30 == 29 {
			// A new session another day, in working hours.
			day := g.at.AddDate(0, 0, 1+g.rng.IntN(3))
			g.at = time.Date(day.Year(), day.Month(), day.Day(), 8+g.rng.IntN(4), g.rng.IntN(60), 0, 0, time.UTC)
		}
	}
	g.queries(6 + g.rng.IntN(2))
	return g.timeline(id, TrackLongConversation, "personal_and_work", nil)
}

// userTurn wraps the planned sentences in what a user would say around
// them.
func (g *convGen) userTurn(tp topic, sents []string) string {
	var parts []string
	if g.chance(0.4) {
		parts = append(parts, g.pickClean(fillerAsides))
	}
	parts = append(parts, sents...)
	if len(sents) == 0 || g.chance(0.6) {
		if len(sents) > 0 {
			parts = append(parts, g.pick([]string{"Anyway.", "Separately:", "Different topic:", "Also,"}))
		}
		if g.chance(0.45) {
			parts = append(parts, g.pickClean(followUps))
		} else {
			parts = append(parts, g.pickClean(tp.asks))
		}
		if g.chance(0.5) {
			parts = append(parts, g.pickClean(tp.points))
		}
	}
	return strings.Join(parts, " ")
}

// answer is a long markdown answer about tp, opening with
// acknowledgements and carrying the assistant's suggestions.
func (g *convGen) answer(tp topic, acks []*slot, suggestions []string) string {
	var b strings.Builder
	for _, s := range acks {
		if g.chance(0.6) {
			b.WriteString(g.ack(s) + "\n\n")
		}
	}
	b.WriteString(g.pick(answerOpeners) + " " + g.sentences(tp.points, 2) + "\n\n")
	headings := slices.Clone(answerHeadings)
	g.rng.Shuffle(len(headings), func(i, j int) { headings[i], headings[j] = headings[j], headings[i] })
	sections := 6 + g.rng.IntN(4)
	for i := range sections {
		b.WriteString("## " + headings[i] + "\n\n")
		switch g.rng.IntN(3) {
		case 0:
			b.WriteString(g.sentences(append(slices.Clone(tp.points), answerGlue...), 4) + "\n\n")
		case 1:
			for range 4 + g.rng.IntN(3) {
				b.WriteString("- **" + capitalize(g.pickClean(tp.bullets)) + "**: " + g.pickClean(append(slices.Clone(tp.points), answerGlue...)) + "\n")
			}
			b.WriteString("\n")
		default:
			for n := range 3 + g.rng.IntN(3) {
				fmt.Fprintf(&b, "%d. %s: %s\n", n+1, capitalize(g.pickClean(tp.bullets)), g.pickClean(answerGlue))
			}
			b.WriteString("\n" + g.sentences(tp.points, 2) + "\n\n")
		}
	}
	if len(suggestions) > 0 {
		b.WriteString("## Other ideas\n\n")
		for _, s := range suggestions {
			b.WriteString("- " + s + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(g.pick(answerClosers))
	return b.String()
}

// sentences joins n clean sentences drawn from pool.
func (g *convGen) sentences(pool []string, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.pickClean(pool)
	}
	return strings.Join(out, " ")
}

// queries appends n queries (at most one per slot, about slots said at
// least once), changed slots first.
func (g *convGen) queries(n int) {
	var changed, kept []*slot
	for _, s := range g.slots {
		switch {
		case s.said == 0:
		case s.said > 1:
			changed = append(changed, s)
		default:
			kept = append(kept, s)
		}
	}
	g.rng.Shuffle(len(changed), func(i, j int) { changed[i], changed[j] = changed[j], changed[i] })
	g.rng.Shuffle(len(kept), func(i, j int) { kept[i], kept[j] = kept[j], kept[i] })
	for _, s := range append(changed, kept...)[:min(n, len(changed)+len(kept))] {
		g.query(s)
	}
}

// query asks for s's current value.
func (g *convGen) query(s *slot) {
	cur := s.current()
	var forbidden []string
	for _, v := range s.values[:max(s.said, 1)-1] {
		forbidden = append(forbidden, s.phrase(v))
	}
	g.events = append(g.events, map[string]any{
		"type": KindQuery, "ts": g.tick(1, 3),
		"prompt": g.fill(g.pick(askTemplates[s.kind]), s, cur, "", ""),
		"ground_truth": map[string]any{
			"decision": cur, "decision_type": kindNames[s.kind],
			"must_mention": []string{s.phrase(cur)}, "must_not_mention": nonNil(forbidden),
			"reasoning": fmt.Sprintf("%s is %s now; %d earlier value(s) were replaced", s.subject(), cur, len(forbidden)),
		},
	})
}

func (g *convGen) timeline(id, track, domain string, facts []map[string]any) map[string]any {
	name := g.pick([]string{"Alex", "Sam", "Robin", "Jordan", "Charlie", "Morgan", "Kit", "Ash"})
	return map[string]any{
		"id": id, "version": "1.0", "domain": domain, "track": track, "difficulty": "hard", "detection_mode": "implicit",
		"actors": map[string]any{"user": map[string]any{"id": "u1", "role": "Engineering Lead", "org": "acme"}, "assistant_role": "assistant"},
		"initial_state": map[string]any{
			"identity_role":    map[string]any{"user_name": name, "authority": "employee", "department": "Engineering", "organization": "Acme"},
			"persistent_facts": nonNilAny(facts), "working_set": []any{},
			"environment": map[string]any{"now": g.start.Format("2006-01-02T15:04:05")},
		},
		"events": g.events,
	}
}

func nonNilAny(s []map[string]any) []map[string]any {
	if s == nil {
		return []map[string]any{}
	}
	return s
}

// short builds a short timeline.
func (g *convGen) short(id string) map[string]any {
	g.newStart()
	kinds := g.rng.Perm(int(numKinds))[:2+g.rng.IntN(3)]
	ks := make([]slotKind, len(kinds))
	for i, k := range kinds {
		ks[i] = slotKind(k)
	}
	g.allSlots(ks, func() int { return 1 + g.rng.IntN(3) })
	if !slices.ContainsFunc(g.slots, func(s *slot) bool { return len(s.values) > 1 }) {
		s := g.slots[0]
		s.values = append(s.values, g.value(s))
	}
	// How each value comes to be: a fact of the initial state, a
	// state_write, or a turn.
	var facts []map[string]any
	var viaWrite []*slot
	var viaTurn []*slot
	for i, s := range g.slots {
		switch g.rng.IntN(3) {
		case 0:
			facts = append(facts, g.fact(fmt.Sprintf("F-%d", i+1), s))
			s.said = 1
		case 1:
			viaWrite = append(viaWrite, s)
		default:
			viaTurn = append(viaTurn, s)
		}
	}
	if len(viaWrite) > 0 {
		var writes []map[string]any
		for _, s := range viaWrite {
			f := g.fact("W-AUTO", s)
			f["layer"] = LayerFacts
			delete(f, "ts")
			writes = append(writes, f)
			s.said = 1
		}
		g.events = append(g.events, map[string]any{"type": KindStateWrite, "ts": g.tick(1, 3), "writes": writes})
	}
	// The turns: statements, changes, distractors, small talk.
	var steps []planned
	for _, s := range viaTurn {
		steps = append(steps, planned{0, s, "state"})
	}
	for _, s := range g.slots {
		for c := 1; c < len(s.values); c++ {
			steps = append(steps, planned{1 + c, s, "change"})
		}
		for range 1 + g.rng.IntN(3) {
			steps = append(steps, planned{1 + g.rng.IntN(len(s.values)+1), s, "distract"})
		}
		if g.chance(0.4) {
			steps = append(steps, planned{1 + g.rng.IntN(len(s.values)+1), s, "suggest"})
		}
	}
	g.rng.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	slices.SortStableFunc(steps, func(a, b planned) int { return a.turn - b.turn })
	tp := topics[g.rng.IntN(len(topics))]
	turns := 0
	for i := 0; i < len(steps); {
		// One or two sentences per user turn.
		var sents, suggestions []string
		var acks []*slot
		for n := 1 + g.rng.IntN(2); n > 0 && i < len(steps); i++ {
			st := steps[i]
			switch {
			case st.what == "state" && st.slot.said == 0:
				sents = append(sents, g.statement(st.slot))
				acks = append(acks, st.slot)
				n--
			case st.what == "change" && st.slot.said > 0 && st.slot.said < len(st.slot.values):
				sents = append(sents, g.change(st.slot))
				acks = append(acks, st.slot)
				n--
			case turns >= 14:
				// Long enough: only statements and changes from here.
			case st.what == "distract" && st.slot.said > 0:
				sents = append(sents, g.distract(st.slot))
				n--
			case st.what == "suggest" && st.slot.said > 0:
				suggestions = append(suggestions, g.suggest(st.slot))
			}
		}
		if len(sents) == 0 && len(suggestions) == 0 {
			continue
		}
		if len(sents) > 0 {
			text := strings.Join(sents, " ")
			if g.chance(0.3) {
				text = g.pickClean(fillerAsides) + " " + text
			}
			g.turn("user", text)
			turns++
		}
		g.turn("assistant", g.shortReply(tp, acks, suggestions))
		turns++
	}
	for turns < 5 {
		g.turn("user", g.pickClean(tp.asks))
		g.turn("assistant", g.shortReply(tp, nil, nil))
		turns += 2
	}
	g.queries(1 + g.rng.IntN(3))
	return g.timeline(id, TrackShortConversation, "personal_and_work", facts)
}

// fact is s's first value as a client would store it: a key in one of
// several naming styles and the bare value.
func (g *convGen) fact(id string, s *slot) map[string]any {
	return map[string]any{
		"id": id, "key": g.pick(s.th.keys), "value": s.values[0],
		"source": map[string]any{"type": "user", "identity": nil, "authority": "employee"},
		"ts":     g.at.Format("2006-01-02T15:04:05"), "scope": "global", "is_valid": true,
		"supersedes": nil, "superseded_by": nil, "depends_on": []any{}, "derived_facts": []any{},
		"is_constraint": false, "constraint_type": nil,
	}
}

// shortReply is a brief assistant answer.
func (g *convGen) shortReply(tp topic, acks []*slot, suggestions []string) string {
	var parts []string
	for _, s := range acks {
		if g.chance(0.5) {
			parts = append(parts, g.ack(s))
		}
	}
	parts = append(parts, suggestions...)
	if len(parts) == 0 || g.chance(0.5) {
		parts = append(parts, g.pickClean(append(slices.Clone(tp.points), answerGlue...)))
	}
	return strings.Join(parts, " ")
}
