package detect

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/stategraph/stategraph/constraint"
)

// maxText bounds the analysed text so cost stays linear and small.
const maxText = 4096

// recentTurns is how many of the latest known turns count as "recent".
const recentTurns = 4

// sentence is one analysed sentence of the turn.
type sentence struct {
	text     string
	question bool
	recap    bool
	cues     []foundCue
	values   []value // typed values, with old-position marks
	choice   *value  // the value an assignment pattern captured, if any
}

type foundCue struct {
	class cueClass
	text  string
}

// turnView is the active part of a turn: its non-question, non-recap
// sentences, pooled.
type turnView struct {
	text      string
	low       folded // text, lowered once
	bareLow   folded // bare(text), lowered once
	terms     map[string]bool
	protected map[string]bool
	cues      []foundCue
	values    []value
	choices   []value
	copular   bool // the choice came from the plain copula pattern
}

func (v *turnView) has(class cueClass) bool {
	for _, c := range v.cues {
		if c.class == class {
			return true
		}
	}
	return false
}

// Analyze reports the scope and constraint of turn and which known records it
// supersedes. It never fails: text it cannot read yields no detections.
func Analyze(turn Turn, known []Record, opts Options) Result {
	return ReadTurn(turn, opts).Compare(known)
}

// Reading is a turn read on its own, before the records it may supersede:
// ReadTurn then Compare is Analyze. A caller that has the turn before it
// has read the records (from a store) reads the turn meanwhile. A Reading
// is not changed by Compare: it may be compared more than once, and from
// any goroutine once ReadTurn has returned.
type Reading struct {
	res           Result    // the scope and constraint
	v             *turnView // nil when nothing in the turn can change state
	auth, authCue string
	opts          Options
}

// ReadTurn reads turn's scope, constraint, active sentences and the
// authority it is said with.
func ReadTurn(turn Turn, opts Options) *Reading {
	text := turn.Text
	if len(text) > maxText {
		text = text[:maxText]
	}
	speaker, body := speakerPrefix(text)
	r := &Reading{res: Result{Scope: scopeOf(body), Constraint: constraintOf(body)}, opts: opts}
	// A hypothetical or draft turn does not change real state.
	if r.res.Scope == ScopeHypothetical || r.res.Scope == ScopeDraft {
		return r
	}
	if r.v = view(body); r.v == nil {
		return r
	}
	r.auth, r.authCue = statementAuthority(turn, speaker, body, opts)
	return r
}

// Compare reports which known records the turn read supersedes, with its
// scope and constraint: Analyze's result.
func (r *Reading) Compare(known []Record) Result {
	res := r.res
	if res.Constraint != nil {
		c := *res.Constraint // each result its own
		res.Constraint = &c
	}
	v, auth, authCue, opts := r.v, r.auth, r.authCue, r.opts
	if v == nil {
		return res
	}

	var facts []candidate
	recentTerms := recentSentenceTerms(known)
	recentTexts := recentTurnTexts(known)
	for _, r := range known {
		if r.Kind == RecordTurn {
			continue
		}
		if c, ok := matchRecord(r, v, recentTexts, recentTerms); ok {
			facts = append(facts, c)
		}
	}
	facts = best(facts)

	var dets []Detection
	var turns []folded // the known turns' texts, lowered once for every candidate
	if len(facts) > 0 {
		turns = make([]folded, len(known))
		for i, r := range known {
			if r.Kind == RecordTurn {
				turns[i] = foldText(r.Value)
			}
		}
	}
	for _, c := range facts {
		d := c.detection(v, auth, authCue, opts)
		// Turns that stated the replaced value are superseded with the fact.
		for i, r := range known {
			if r.Kind == RecordTurn && c.prev != "" && turns[i].contains(c.prev) && !turns[i].contains(d.Replacement) {
				d.Superseded = append(d.Superseded, Ref{r.ID, r.Kind})
			}
		}
		dets = append(dets, d)
	}
	if len(facts) == 0 {
		for _, d := range matchTurns(v, known, auth, authCue, opts) {
			// Other turns that stated the replaced value go with it.
			for _, r := range known {
				if r.Kind == RecordTurn && !hasRef(d.Superseded, r.ID) && containsFold(r.Value, d.Previous) && !containsFold(r.Value, d.Replacement) {
					d.Superseded = append(d.Superseded, Ref{r.ID, r.Kind})
				}
			}
			dets = append(dets, d)
		}
	}
	for _, d := range dets {
		if d.Confidence >= opts.MinConfidence {
			res.Detections = append(res.Detections, d)
		}
	}
	return res
}

func hasRef(rs []Ref, id string) bool {
	for _, r := range rs {
		if r.ID == id {
			return true
		}
	}
	return false
}

// view analyses body sentence by sentence and pools the active ones; it
// returns nil when nothing in the turn can change state.
func view(body string) *turnView {
	v := &turnView{terms: map[string]bool{}, protected: map[string]bool{}}
	var active []string
	for _, raw := range splitSentences(body) {
		s := analyseSentence(raw)
		changes := false
		for _, c := range s.cues {
			changes = changes || c.class != cueDecision
		}
		// Questions ask; recaps look back. Neither changes state, unless a
		// recap also carries a change word of its own.
		if s.question || (s.recap && !changes) {
			continue
		}
		active = append(active, s.text)
		v.cues = append(v.cues, s.cues...)
		for _, val := range s.values {
			if selfCorrects(s.text, val.start) {
				// "$15k/mo now. sorry, $14.5k": the speaker's own slip
				// is the old value.
				for j := range v.values {
					v.values[j].old = v.values[j].old || v.values[j].typ == val.typ
				}
			}
			v.values = append(v.values, val)
		}
		if s.choice != nil {
			v.choices = append(v.choices, *s.choice)
			v.copular = v.copular || s.choice.start < 0
		}
		for t := range terms(s.text) {
			v.terms[t] = true
		}
		for _, m := range reKeep.FindAllStringSubmatch(s.text, -1) {
			for t := range terms(m[1]) {
				v.protected[t] = true
			}
		}
	}
	if len(active) == 0 {
		return nil
	}
	v.text = strings.Join(active, " ")
	v.low, v.bareLow = foldText(v.text), foldText(bare(v.text))
	return v
}

// splitSentences splits after ., ! or ? followed by a space, and at line
// breaks; not after a title's stop ("Mrs. Brandt").
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		end := c == '\n' || ((c == '.' || c == '!' || c == '?') && (i+1 == len(s) || s[i+1] == ' ') && !(c == '.' && titleStopAt(s, i)))
		if end {
			if t := strings.TrimSpace(s[start : i+1]); t != "" {
				out = append(out, t)
			}
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// reOldBefore marks a value as the old one: "from X", "instead of X", "not X",
// "no longer X", "was X", "originally X", "canceled the one with X", also
// with a colon ("The value was: X").
var reOldBefore = mustPre(`(?i)(?:\binstead of|\brather than|\bnot|n't|\bno longer|\bwas|\bwere|\boriginally|\bpreviously|\bused to be|\bformerly|\bold|\b(?:cancell?ed|dropped|ditched|dumped|fired|quit)\s+(?:(?:the|our|my)\s+(?:one|order|account|contract|subscription|plan)\s+)?(?:with|from|at))\s*[:\-–]?\s+(?:(?:the|a|an|at|in|on|to|for|be)\s+)?$`)

// oldBefore reports whether the words just before offset i mark what
// follows as the old value.
func oldBefore(s string, i int) bool {
	return reOldBefore.MatchString(s[max(0, i-40):i])
}

// reSelfCorrect closes the words that take back what was just said:
// "sorry, ", "I mean ", "make that ".
var reSelfCorrect = regexp.MustCompile(`(?i)(?:^|[,;:—–-]\s*|\.\.\.\s*)(?:sorry|oops|whoops|i mean|i meant|correction|scratch that|make that|make it|no wait|wait)\s*[,:—–-]?\s*(?:(?:it['’]?s|that['’]?s|should be|i mean|i meant)\s+)?$`)

// selfCorrects reports whether the value at offset i of s is said in
// place of one the speaker just said.
func selfCorrects(s string, i int) bool {
	return i >= 0 && i <= len(s) && reSelfCorrect.MatchString(s[:i])
}

// SaidInstead reports whether s says value in place of one the speaker
// just said ("sorry, $14.5k"): the sentence before it is its topic.
func SaidInstead(s, value string) bool {
	i := indexFold(s, value)
	return i >= 0 && selfCorrects(s, i)
}

func analyseSentence(s string) sentence {
	out := sentence{text: s}
	trimmed := strings.TrimRight(s, " ")
	out.question = strings.HasSuffix(trimmed, "?") ||
		(reQuestion.MatchString(trimmed) && !strings.HasSuffix(trimmed, ".") && !strings.HasSuffix(trimmed, "!"))
	out.recap = reRecap.MatchString(s)
	// "for now" marks a temporary choice (TASK scope), not a "now" update.
	masked := reForNow.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat("_", len(m)) })
	masked = reDroppedOff.ReplaceAllStringFunc(masked, func(m string) string { return strings.Repeat("_", len(m)) })
	adds := reAddition.MatchString(s)
	for _, c := range changeCues {
		for _, m := range c.re.FindAllStringIndex(masked, -1) {
			w := strings.ToLower(s[m[0]:m[1]])
			if negated(s, m[0]) || (adds && w == "actually") {
				continue
			}
			out.cues = append(out.cues, foundCue{c.class, w})
		}
	}
	out.values = extractValues(s)
	fromTo := reFromTo.FindAllStringSubmatchIndex(s, -1)
	for i := range out.values {
		v := &out.values[i]
		v.old = oldBefore(s, v.start)
		for _, m := range fromTo {
			v.old = v.old || (v.start >= m[2] && v.end <= m[3])
		}
	}
	for i, p := range replacementPatterns {
		m := p.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		y := cutTail(s[m[2]:m[3]])
		if y == "" || len(y) > 80 || oldBefore(s, m[2]) || generic(y) {
			continue
		}
		start := m[2]
		if i == len(replacementPatterns)-1 {
			start = -1 // copula: weaker evidence
		}
		out.choice = &value{typ: tChoice, text: y, norm: normChoice(y), start: start}
		break
	}
	return out
}

// negated reports whether a negator precedes offset i within three words of
// the same clause ("did not move", "hasn't changed"; not "No wait, change").
func negated(s string, i int) bool {
	pre := s[:i]
	if j := strings.LastIndexAny(pre, ",;:"); j >= 0 {
		pre = pre[j+1:]
	}
	words := strings.Fields(strings.ToLower(pre))
	if len(words) > 3 {
		words = words[len(words)-3:]
	}
	for _, w := range words {
		w = strings.Trim(w, `"'()`)
		if negators[w] || strings.HasSuffix(w, "n't") {
			return true
		}
	}
	return false
}

// speakerPrefix splits "[Role]: text" or "Name (Role): text" into the stated
// speaker (name and role) and the rest.
func speakerPrefix(s string) (speaker, body string) {
	if m := reSpeakerBracket.FindStringSubmatch(s); m != nil {
		return m[1], s[len(m[0]):]
	}
	if m := reSpeakerParen.FindStringSubmatch(s); m != nil {
		return m[1] + " (" + m[2] + ")", s[len(m[0]):]
	}
	return "", s
}

// scopeOf infers the scope: hypothetical and draft cues win over task cues.
func scopeOf(s string) Scope {
	switch {
	case reHypothetical.MatchString(s):
		return ScopeHypothetical
	case reDraft.MatchString(s):
		return ScopeDraft
	case reTask.MatchString(s):
		return ScopeTask
	}
	return ScopeGlobal
}

// constraintOf returns the constraint s states, typed by the constraint
// taxonomy, with the sentence that carries it.
func constraintOf(s string) *Constraint {
	if m, ok := constraint.Classify(splitSentences(s)...); ok {
		return &m
	}
	return nil
}

// statementAuthority is the authority the statement carries: a stated
// speaker's role, else a cited one ("per the CEO"), else the turn's own; the
// cue says where it came from when it came from the text.
func statementAuthority(turn Turn, speaker, body string, opts Options) (string, string) {
	var text, cue string
	if speaker != "" {
		text, cue = speaker, speaker
		// "Name (Role)": rank the better of name and role ("Board (Committee)").
		if i := strings.IndexByte(speaker, '('); i > 0 {
			name, role := strings.TrimSpace(speaker[:i]), strings.Trim(speaker[i:], "() ")
			text = role
			if opts.Rank(name) > opts.Rank(role) {
				text = name
			}
		}
	} else if m := reCited.FindStringSubmatch(body); m != nil {
		text, cue = m[1], m[0]
	} else if m := reRoleSays.FindStringSubmatch(body); m != nil {
		text, cue = m[1], m[0]
	} else if m := rePolicyWord.FindString(body); m != "" {
		text, cue = "policy", m
	}
	if text == "" || opts.Rank(text) < 0 {
		return turn.Authority, ""
	}
	if opts.CapTextAuthority && opts.Rank(turn.Authority) >= 0 && opts.Rank(text) > opts.Rank(turn.Authority) {
		return turn.Authority, ""
	}
	return text, cue
}

// normChoice normalises a free-text value: lower case, parenthesised notes
// such as "(tentative)" removed, spaces folded.
func normChoice(s string) string {
	s = reParen.ReplaceAllString(s, " ")
	s = strings.Trim(strings.ToLower(s), " .,;:!?\"'")
	return "choice:" + strings.Join(strings.Fields(s), " ")
}

var reForNow = mustPre(`(?i)\bfor now\b`)

// reDroppedOff is bringing something by, not ending it: "dropped off
// samples", "dropping by".
var reDroppedOff = mustPre(`(?i)\bdrop(?:ped|ping|s)?\s+(?:off|by)\b`)

// generic reports whether a captured choice is a bare common noun phrase
// ("the order", "it", "that") that names no particular value.
func generic(y string) bool {
	f := strings.Fields(y)
	if len(f) > 0 && leavingVerbs[strings.ToLower(f[0])] {
		return true // "Larry's quit trimming on account of his back": the holder left; no value
	}
	if len(f) == 1 {
		return notTopic(strings.ToLower(f[0]))
	}
	return len(f) == 2 && reDeterminer.MatchString(f[0]) && strings.ToLower(f[1]) == f[1]
}

// leavingVerbs open what a holder did on leaving, after "X's": not a
// value of the thing.
var leavingVerbs = setOf("quit", "retired", "left", "gone", "moved", "stepped", "resigned", "leaving", "retiring", "quitting", "moving", "stepping")

var reDeterminer = regexp.MustCompile(`(?i)^(?:the|this|that|a|an|our|your|their|my|its)$`)

var reParen = mustPre(`\([^)]*\)|\[[^\]]*\]`)

// bare strips the parenthesised notes of a record value ("$75,000 (Manager
// approved)" → "$75,000").
func bare(s string) string {
	if !strings.ContainsAny(s, "([\t\n\r\v\f") && !strings.Contains(s, "  ") && !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 && unicode.IsSpace(r) }) {
		return strings.TrimSpace(s) // nothing to strip: the common case, without a regexp
	}
	return strings.TrimSpace(strings.Join(strings.Fields(reParen.ReplaceAllString(s, " ")), " "))
}

// Statements returns text without the sentences that ask rather than
// state: a question is not state, and replaying it repeats what was asked
// (a probe for someone else's data, say) as if it were context.
func Statements(text string) string {
	var keep []string
	for _, s := range splitSentences(text) {
		if !analyseSentence(s).question {
			keep = append(keep, s)
		}
	}
	return strings.Join(keep, " ")
}
