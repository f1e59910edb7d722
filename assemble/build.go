package assemble

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Labels that keep hypothetical and draft content from reading as real.
const (
	labelHypothetical = "[HYPOTHETICAL — not a commitment]"
	labelDraft        = "[DRAFT — not final]"
)

// Sections in text order.
const (
	secIdentity = iota
	secEnvironment
	secConstraints
	secFacts
	secReview
	secDocuments
	secState
	secWorking
	secEvidence
	secTurns
	numSections
)

var sectionTitles = [numSections]string{
	"Identity",
	"Environment",
	"Constraints (must hold)",
	"Facts",
	"Needs recalculation (derived from a changed value; old result withheld)",
	"Documents",
	"Current state",
	"Working set",
	"Earlier in the conversation",
	"Recent conversation",
}

var sectionLayers = [numSections]int{
	LayerIdentity, LayerEnvironment, LayerFacts, LayerFacts, LayerFacts, LayerFacts,
	LayerWorking, LayerWorking, LayerWorking, LayerWorking,
}

// line is one candidate line of the text.
type line struct {
	sec  int
	ord  int    // position within its section
	text string // without the trailing newline; "" for a line in b.buf
	// fact, when set, is the fact whose line (factLine) this is.
	fact *Fact
	// inBuf: the line's text is not a string of its own but
	// b.buf[at:end], so that a line never placed costs no string (at
	// 100,000 facts a third of the fact lines made are over the budget)
	// and a placed one is copied once, into the rendered text. A fact's
	// line, a turn's and a sentence's are.
	inBuf   bool
	at, end int
	cost    int // Count(text + "\n")
	inc     Included
	// scored: inc.Reason is scoreReason(inc.Score) (and, for a fact's
	// line, its label), made when the line is rendered.
	scored bool
}

// builder packs lines into the budget. The cost of a text made of lines
// that each end in "\n" and start with a non-space character is, for
// cl100k, the sum of their costs (no pre-tokenizer piece crosses such a
// newline), so packing works on per-line costs; emit then re-counts the
// real text and backs off, so the budget holds for any Counter.
type builder struct {
	c      Counter
	budget int
	used   int
	heads  [numSections]int // heading costs, -1 until counted
	n      [numSections]int // placed lines per section
	idInc  Included         // provenance of the identity section
	*scratch
}

// scratch is a builder's working memory, reused from call to call: the
// lines are large (at 100,000 facts about 60 KB a call were made for
// them), and nothing in an Output refers to them.
type scratch struct {
	placed   []line // in priority (allocation) order
	deferred []line // fact and document lines left for what the others leave
	docs     []line // the documents' share of deferred, until then
	order    []*line
	out      []Exclusion
	// buf holds the texts of fact lines, each followed by its newline;
	// text the text being rendered, reasons the rendered lines' reasons.
	buf, text, reasons []byte
}

var scratchPool sync.Pool

// maxPlacedRoom bounds the lines Build makes room for at first, and
// maxPooledLines the lines a pooled scratch keeps room for.
const (
	maxPlacedRoom  = 1024
	maxPooledLines = 4 * maxPlacedRoom
	// maxPooledText bounds the rendered text a pooled scratch keeps room
	// for.
	maxPooledText = 1 << 20
)

// getScratch returns an empty scratch with room for about hint lines.
func getScratch(hint int) *scratch {
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	if cap(sc.placed) < hint {
		sc.placed = make([]line, 0, hint)
	}
	return sc
}

// release empties sc (its lines hold the caller's strings, not to be kept
// alive) and returns it to the pool, unless it grew too large.
func (sc *scratch) release() {
	if cap(sc.placed) > maxPooledLines || cap(sc.deferred) > maxPooledLines || cap(sc.out) > maxPooledLines || cap(sc.text) > maxPooledText || cap(sc.buf) > maxPooledText {
		return
	}
	clear(sc.placed[:cap(sc.placed)])
	clear(sc.deferred[:cap(sc.deferred)])
	clear(sc.docs[:cap(sc.docs)])
	clear(sc.order[:cap(sc.order)])
	clear(sc.out[:cap(sc.out)])
	sc.placed, sc.deferred, sc.docs, sc.order, sc.out = sc.placed[:0], sc.deferred[:0], sc.docs[:0], sc.order[:0], sc.out[:0]
	sc.buf, sc.text, sc.reasons = sc.buf[:0], sc.text[:0], sc.reasons[:0]
	scratchPool.Put(sc)
}

// Build assembles the context for in, counting with c. It is deterministic:
// the same input gives byte-identical output. Output.Tokens == c.Count(Output.Text)
// and Output.Tokens <= max(in.Budget, 0), whatever the input.
func Build(in Input, c Counter) Output {
	// Room for every candidate line, up to a bound (fewer are usually
	// placed): the lines are large, and growing the slice copies them.
	b := &builder{c: c, budget: max(in.Budget, 0), scratch: getScratch(min(16+len(in.Environment)+len(in.Facts)+len(in.Documents)+len(in.Assertions)+len(in.Working)+len(in.Turns)+len(in.Evidence), maxPlacedRoom))}
	defer b.release()
	b.idInc = Included{ID: clean(in.Identity.UserID), Kind: KindIdentity, Layer: LayerIdentity, Reason: "identity, always first"}
	for i := range b.heads {
		b.heads[i] = -1
	}
	out := Output{Budget: b.budget, Withheld: max(in.Withheld, 0)}
	for _, s := range in.EnvIssues {
		out.Notes = append(out.Notes, "environment: "+clean(s))
	}

	id := identityLines(in.Identity)
	if !b.placeAll(id) {
		return b.truncated(in, out, id)
	}
	for i, a := range sortedEnv(in.Environment) {
		b.tryOrExclude(b.newLineNL(secEnvironment, i, envLineNL(a), Included{ID: clean(a.Key), Kind: KindEnvironment, Layer: LayerEnvironment, Reason: "current environment"}))
	}

	cons, review, facts := splitFacts(in.Facts)
	for i, f := range cons {
		b.tryOrExclude(b.factLine(secConstraints, i, f))
	}
	if len(in.Documents) > 0 {
		docShare := in.DocumentShare
		if !(docShare > 0 && docShare <= 1) {
			docShare = DefaultDocumentShare
		}
		docLimit := b.used + int(math.Floor(float64(b.budget-b.used)*docShare))
		for i, d := range rankDocuments(in.Documents) {
			if l := b.newLine(secDocuments, i, documentLine(d), Included{ID: d.ID, Kind: KindDocument, Layer: LayerFacts, Reason: "document " + scoreReason(d.Score), Score: d.Score}); !b.try(l, docLimit) {
				b.docs = append(b.docs, l)
			}
		}
	}
	factLimit := b.used + share(b.budget-b.used, in.FactShare)
	for i, f := range review {
		if l := b.factLine(secReview, i, f); !b.try(l, factLimit) {
			b.deferred = append(b.deferred, l)
		}
	}
	for i, f := range facts {
		if l := b.factLine(secFacts, i, f); !b.try(l, factLimit) {
			b.deferred = append(b.deferred, l)
		}
	}
	for i, a := range rankAssertions(in.Assertions) {
		b.tryOrExclude(b.scoredLineNL(secState, i, assertionLineNL(a), Included{ID: a.ID, Kind: KindAssertion, Layer: LayerWorking, Score: a.Score}))
	}
	for i, w := range rankWork(in.Working) {
		b.tryOrExclude(b.scoredLineNL(secWorking, i, workLine(w)+"\n", Included{ID: w.ID, Kind: KindWorkItem, Layer: LayerWorking, Score: w.Score}))
	}
	turns, chrono := rankTurns(in.Turns)
	for i, t := range turns {
		at := len(b.buf)
		b.buf = appendTurnLine(b.buf, t)
		b.tryOrExclude(b.scoredBufLine(secTurns, chrono[i], at, Included{ID: t.ID, Kind: KindTurn, Layer: LayerWorking, Score: t.Score}))
	}
	// Whatever the fact share could not hold gets what the others left.
	b.deferred = append(b.deferred, b.docs...)
	for _, l := range b.deferred {
		b.tryOrExclude(l)
	}
	// Evidence of earlier turns fills what is left, best first.
	evidence, evChrono := rankEvidence(in.Evidence)
	for i, e := range evidence {
		at := len(b.buf)
		b.buf = appendEvidenceLine(b.buf, e)
		b.tryOrExclude(b.scoredBufLine(secEvidence, evChrono[i], at, Included{ID: e.ID, Kind: KindEvidence, Layer: LayerWorking, Score: e.Score}))
	}

	// Verify the real text and back off from the lowest priority if the
	// counter is not additive across lines. Identity lines are never dropped.
	// A LineAdditive counter is trusted: the count is the sum of the line
	// costs, with the last line counted without its newline.
	additive := false
	if la, ok := c.(LineAdditive); ok {
		additive = la.LineAdditive()
	}
	for {
		out.Text, out.Sections, out.Included = b.render(additive)
		if additive {
			out.Tokens = b.joinedCount()
		} else {
			out.Tokens = c.Count(out.Text)
		}
		if out.Tokens <= b.budget || len(b.placed) == len(id) {
			break
		}
		last := b.placed[len(b.placed)-1]
		b.placed = b.placed[:len(b.placed)-1]
		b.n[last.sec]--
		b.out = append(b.out, Exclusion{ID: last.inc.ID, Kind: last.inc.Kind, Reason: ReasonOverBudget})
	}
	if out.Tokens > b.budget {
		return b.truncated(in, out, id)
	}
	// A needs-review fact is included by key; its stale value is not.
	for _, l := range b.placed {
		if l.sec == secReview {
			b.out = append(b.out, Exclusion{ID: l.inc.ID, Kind: KindFact, Reason: ReasonNeedsReview})
		}
	}
	out.Excluded = b.excluded(in.Excluded)
	return out
}

// newLine returns a candidate line with its cost.
func (b *builder) newLine(sec, ord int, text string, inc Included) line {
	return b.newLineNL(sec, ord, text+"\n", inc)
}

// newLineNL is newLine for the line's text with its newline: the line's
// text is a substring of it, so the line costs one string, not two.
func (b *builder) newLineNL(sec, ord int, textNL string, inc Included) line {
	return line{sec: sec, ord: ord, text: textNL[:len(textNL)-1], cost: b.c.Count(textNL), inc: inc}
}

// scoredLineNL is newLineNL for a line whose reason is its score's
// (scoreReason), made only if the line is rendered.
func (b *builder) scoredLineNL(sec, ord int, textNL string, inc Included) line {
	l := b.newLineNL(sec, ord, textNL, inc)
	l.scored = true
	return l
}

// scoredBufLine is scoredLineNL for a line whose text was just appended
// to b.buf, from at on (without its newline, which it appends): counted
// there, and copied only if it is rendered.
func (b *builder) scoredBufLine(sec, ord, at int, inc Included) line {
	l := line{sec: sec, ord: ord, inc: inc, inBuf: true, at: at, end: len(b.buf), scored: true}
	b.buf = append(b.buf, '\n')
	l.cost = b.countBytes(b.buf[l.at:])
	return l
}

// factLine is one fact's line for its section. A constraint's or a
// relevant fact's text is written in b.buf, and counted there.
func (b *builder) factLine(sec, ord int, f *Fact) line {
	inc := Included{ID: f.ID, Kind: KindFact, Layer: LayerFacts, Score: f.Score}
	if sec == secReview {
		inc.Reason = string(ReasonNeedsReview)
		return b.newLineNL(sec, ord, "- "+cmp.Or(clean(f.Key), clean(f.ID))+"\n", inc)
	}
	l := line{sec: sec, ord: ord, fact: f, inc: inc, inBuf: true}
	if sec == secConstraints {
		l.inc.Reason = "constraint"
	} else {
		l.scored = true
	}
	l.at = len(b.buf)
	b.buf = appendFactText(b.buf, sec, f)
	l.end = len(b.buf)
	b.buf = append(b.buf, '\n')
	l.cost = b.countBytes(b.buf[l.at:])
	return l
}

// appendFactText appends the text of f's line in section sec
// (secConstraints or secFacts), without its newline.
func appendFactText(dst []byte, sec int, f *Fact) []byte {
	if sec == secConstraints {
		dst = appendKeyValue(append(dst, "- "...), f.Key, f.Value)
		if t := clean(f.ConstraintType); t != "" {
			dst = append(append(append(dst, " (constraint: "...), t...), ')')
		}
		return dst
	}
	return appendKeyValue(append(append(dst, "- "...), label(f.Scope)...), f.Key, f.Value)
}

// appendLine appends l's text, without its newline, to dst.
func (b *builder) appendLine(dst []byte, l *line) []byte {
	if l.inBuf {
		return append(dst, b.buf[l.at:l.end]...)
	}
	return append(dst, l.text...)
}

// appendReason appends the provenance reason of l, a scored line, to dst.
func appendReason(dst []byte, l *line) []byte {
	dst = appendScoreReason(dst, l.inc.Score)
	if l.fact != nil && label(l.fact.Scope) != "" {
		dst = append(append(dst, ", labelled "...), l.fact.Scope...)
	}
	return dst
}

// countBytes is b.c.Count(string(p)), without making the string when
// the counter counts bytes (tokens.Cache).
func (b *builder) countBytes(p []byte) int {
	if bc, ok := b.c.(interface{ CountBytes([]byte) int }); ok {
		return bc.CountBytes(p)
	}
	return b.c.Count(string(p))
}

// head returns the cost of a section's heading line.
func (b *builder) head(sec int) int {
	if b.heads[sec] < 0 {
		b.heads[sec] = b.c.Count(heading(sec) + "\n")
	}
	return b.heads[sec]
}

// try places l if the text stays within limit tokens.
func (b *builder) try(l line, limit int) bool {
	cost := l.cost
	if b.n[l.sec] == 0 {
		cost += b.head(l.sec)
	}
	if cost > limit-b.used {
		return false
	}
	b.used += cost
	b.n[l.sec]++
	b.placed = append(b.placed, l)
	return true
}

// tryOrExclude places l within the budget or records it as over budget.
func (b *builder) tryOrExclude(l line) {
	if !b.try(l, b.budget) {
		b.out = append(b.out, Exclusion{ID: l.inc.ID, Kind: l.inc.Kind, Reason: ReasonOverBudget})
	}
}

// placeAll places every line or none.
func (b *builder) placeAll(ls []string) bool {
	if len(ls) == 0 {
		return true
	}
	cand := make([]line, len(ls))
	cost := b.head(secIdentity)
	for i, s := range ls {
		cand[i] = b.newLine(secIdentity, i, s, Included{Kind: KindIdentity, Layer: LayerIdentity})
		cost += cand[i].cost
	}
	if cost > b.budget {
		return false
	}
	b.used += cost
	b.n[secIdentity] = len(cand)
	b.placed = append(b.placed, cand...)
	return true
}

// joinedCount returns the count of the rendered text from the line costs:
// every placed line and heading ends in a newline except the text's last.
func (b *builder) joinedCount() int {
	if len(b.placed) == 0 {
		return 0
	}
	last := b.placed[0]
	for _, l := range b.placed[1:] {
		if l.sec > last.sec || (l.sec == last.sec && l.ord > last.ord) {
			last = l
		}
	}
	if last.inBuf {
		return b.used - last.cost + b.countBytes(b.buf[last.at:last.end])
	}
	return b.used - last.cost + b.c.Count(last.text)
}

// render joins the placed lines in text order, without a final newline.
// With additive set, section counts come from the line costs.
func (b *builder) render(additive bool) (string, []Section, []Included) {
	// The placed lines in text order, through pointers: a line is large,
	// and b.placed keeps its priority order.
	ls := b.order[:0]
	for i := range b.placed {
		ls = append(ls, &b.placed[i])
	}
	b.order = ls
	slices.SortFunc(ls, func(x, y *line) int {
		if c := cmp.Compare(x.sec, y.sec); c != 0 {
			return c
		}
		return cmp.Compare(x.ord, y.ord)
	})
	// The text is written in b.text and made a string once; each
	// section's text is the part of it after the section's heading. The
	// reasons made for scored lines are parts of one string too.
	type span struct {
		sec            int
		start, last    int // where the body and its last line start
		end            int
		cost, lastCost int // the lines' costs, the last line's
	}
	type made struct{ inc, end int } // a reason made: its record, where it ends in reasons
	var spans [numSections]span
	nsec := 0
	buf, reasons := b.text[:0], b.reasons[:0]
	madeFor := make([]made, 0, len(ls))
	incs := make([]Included, 0, len(ls)+1)
	for i := 0; i < len(ls); {
		j := i
		for j < len(ls) && ls[j].sec == ls[i].sec {
			j++
		}
		sec := ls[i].sec
		if len(buf) > 0 {
			buf = append(buf, '\n')
		}
		buf = append(append(buf, heading(sec)...), '\n')
		sp := span{sec: sec, start: len(buf)}
		for k, l := range ls[i:j] {
			if k > 0 {
				buf = append(buf, '\n')
			}
			sp.last, sp.lastCost = len(buf), l.cost
			buf = b.appendLine(buf, l)
			sp.cost += l.cost
			if sec != secIdentity {
				if l.scored {
					reasons = appendReason(reasons, l)
					madeFor = append(madeFor, made{len(incs), len(reasons)})
				}
				incs = append(incs, l.inc)
			}
		}
		sp.end = len(buf)
		spans[nsec] = sp
		nsec++
		if sec == secIdentity {
			incs = append(incs, b.idInc)
		}
		i = j
	}
	b.text, b.reasons = buf, reasons
	text := string(buf)
	if len(madeFor) > 0 {
		all, from := string(reasons), 0
		for _, m := range madeFor {
			incs[m.inc].Reason = all[from:m.end]
			from = m.end
		}
	}
	var secs []Section
	if nsec > 0 {
		secs = make([]Section, 0, nsec)
	}
	for _, sp := range spans[:nsec] {
		body := text[sp.start:sp.end]
		secTokens := 0
		if additive {
			secTokens = sp.cost - sp.lastCost + b.c.Count(text[sp.last:sp.end])
		} else {
			secTokens = b.c.Count(body)
		}
		secs = append(secs, Section{Layer: sectionLayers[sp.sec], Title: sectionTitles[sp.sec], Text: body, Tokens: secTokens})
	}
	return text, secs, incs
}

// truncated returns out with the identity cut to the budget and every other
// record excluded as over budget.
func (b *builder) truncated(in Input, out Output, id []string) Output {
	full := heading(secIdentity) + "\n" + strings.Join(id, "\n")
	out.Text = fitPrefix(b.c, full, b.budget)
	out.Tokens = b.c.Count(out.Text)
	out.Truncated = true
	out.Sections, out.Included = nil, nil
	if out.Text != "" {
		body, _ := strings.CutPrefix(out.Text, heading(secIdentity)+"\n")
		if body == out.Text {
			body = "" // the cut fell inside the heading
		}
		out.Sections = []Section{{Layer: LayerIdentity, Title: sectionTitles[secIdentity], Text: body, Tokens: b.c.Count(body)}}
		inc := b.idInc
		inc.Reason = "identity, truncated to budget"
		out.Included = []Included{inc}
	}
	out.Notes = append(out.Notes, fmt.Sprintf("identity truncated to the budget of %d tokens; nothing else included", b.budget))
	b.out = b.out[:0]
	over := func(id string, k Kind) { b.out = append(b.out, Exclusion{ID: id, Kind: k, Reason: ReasonOverBudget}) }
	for _, a := range in.Environment {
		over(clean(a.Key), KindEnvironment)
	}
	for _, f := range in.Facts {
		over(f.ID, KindFact)
	}
	for _, d := range in.Documents {
		over(d.ID, KindDocument)
	}
	for _, a := range in.Assertions {
		over(a.ID, KindAssertion)
	}
	for _, w := range in.Working {
		over(w.ID, KindWorkItem)
	}
	for _, t := range in.Turns {
		over(t.ID, KindTurn)
	}
	for _, e := range in.Evidence {
		over(e.ID, KindEvidence)
	}
	out.Excluded = b.excluded(in.Excluded)
	return out
}

// excluded merges the caller's exclusions with Build's, sorted.
func (b *builder) excluded(caller []Exclusion) []Exclusion {
	if len(caller)+len(b.out) == 0 {
		return nil
	}
	return mergeExclusions(caller, b.out)
}

// mergeExclusions returns a followed by b, stably sorted by
// CompareExclusions; neither is changed. When a is sorted already (a
// caller's usually is: contextasm sorts its exclusions), only b is sorted
// and the two are merged, a's first on a tie, which is what the stable
// sort of both gives.
func mergeExclusions(a, b []Exclusion) []Exclusion {
	all := exclusionList(len(a) + len(b))
	if !slices.IsSortedFunc(a, CompareExclusions) {
		all = append(append(all, a...), b...)
		slices.SortStableFunc(all, CompareExclusions)
		return all
	}
	b = slices.Clone(b)
	slices.SortStableFunc(b, CompareExclusions)
	for len(a) > 0 && len(b) > 0 {
		if CompareExclusions(b[0], a[0]) < 0 {
			all, b = append(all, b[0]), b[1:]
		} else {
			all, a = append(all, a[0]), a[1:]
		}
	}
	return append(append(all, a...), b...)
}

// exclusionLists holds Output.Excluded lists handed back
// (ReleaseExcluded), for mergeExclusions to make the next ones in: at
// 100,000 facts an assembly excludes about 450 records, about 22 KB.
var exclusionLists sync.Pool

// maxPooledExclusions bounds the lists kept in exclusionLists.
const maxPooledExclusions = 1 << 14

// exclusionList returns an empty list with room for n exclusions.
func exclusionList(n int) []Exclusion {
	if p, ok := exclusionLists.Get().(*[]Exclusion); ok && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]Exclusion, 0, n)
}

// ReleaseExcluded hands an Output's Excluded list back, for a later Build
// to make its list in; neither the list nor any slice of it may be used
// afterwards (the GraphQL transport releases an assembled context's list
// once its response is written). A list never released is left to the
// collector.
func ReleaseExcluded(x []Exclusion) {
	if cap(x) == 0 || cap(x) > maxPooledExclusions {
		return
	}
	x = x[:cap(x)]
	clear(x) // its IDs are the caller's strings, not to be kept alive
	x = x[:0]
	exclusionLists.Put(&x)
}

// CompareExclusions orders exclusions by kind, then ID, then reason (all
// of an Exclusion's fields, so the order is total).
func CompareExclusions(x, y Exclusion) int {
	if c := strings.Compare(string(x.Kind), string(y.Kind)); c != 0 {
		return c
	}
	if c := strings.Compare(x.ID, y.ID); c != 0 {
		return c
	}
	return strings.Compare(string(x.Reason), string(y.Reason))
}

// fitPrefix returns c.Truncate(s, limit), shortened further until its
// count really is within limit.
func fitPrefix(c Counter, s string, limit int) string {
	for lim := limit; lim > 0; {
		p := c.Truncate(s, lim)
		n := c.Count(p)
		if n <= limit {
			return p
		}
		lim -= max(n-limit, 1)
	}
	return ""
}

// share returns the part of left that facts may use.
func share(left int, fs float64) int {
	if !(fs > 0 && fs <= 1) { // also catches NaN
		fs = DefaultFactShare
	}
	if fs == 1 {
		return left
	}
	return min(max(int(float64(left)*fs), 0), left)
}

func heading(sec int) string { return "## " + sectionTitles[sec] }

// clean makes s fit on one line: valid UTF-8, whitespace runs collapsed to
// one space, no leading or trailing space.
func clean(s string) string {
	if isClean(s) {
		return s // the common case, without allocating
	}
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
}

// isClean reports whether clean(s) == s: s is valid UTF-8, and its only
// white space is single ASCII spaces between other characters.
func isClean(s string) bool {
	space := true // a leading space is not clean
	for i := 0; i < len(s); {
		c := s[i]
		if plainByte[c] {
			// A run of ASCII that is neither space nor white space, the
			// bulk of any text: one table lookup a byte.
			for i++; i < len(s) && plainByte[s[i]]; i++ {
			}
			space = false
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case ' ':
				if space {
					return false
				}
				space = true
			case '\t', '\n', '\v', '\f', '\r':
				return false
			default:
				space = false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unicode.IsSpace(r) {
			return false
		}
		space = false
		i += n
	}
	return !space || s == ""
}

// plainByte marks the ASCII bytes isClean passes over without a second
// look: all but the space and the ASCII white space.
var plainByte = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
		default:
			t[c] = true
		}
	}
	return t
}()

// keyValue renders "key: value", or whichever of the two is present.
func keyValue(k, v string) string {
	k, v = clean(k), clean(v)
	switch {
	case k == "":
		return v
	case v == "":
		return k
	}
	return k + ": " + v
}

// appendKeyValue appends keyValue(k, v) to dst.
func appendKeyValue(dst []byte, k, v string) []byte {
	k, v = clean(k), clean(v)
	switch {
	case k == "":
		return append(dst, v...)
	case v == "":
		return append(dst, k...)
	}
	return append(append(append(dst, k...), ": "...), v...)
}

// label returns the prefix that marks hypothetical and draft content.
func label(s Scope) string {
	switch s {
	case ScopeHypothetical:
		return labelHypothetical + " "
	case ScopeDraft:
		return labelDraft + " "
	}
	return ""
}

func scoreReason(score float64) string {
	var buf [48]byte
	return string(appendScoreReason(buf[:0], score))
}

// appendScoreReason appends scoreReason(score) to dst.
func appendScoreReason(dst []byte, score float64) []byte {
	if score > 0 {
		// strconv's 'f', 2 is what %.2f prints, without fmt's cost.
		dst = append(dst, "relevant (score "...)
		dst = strconv.AppendFloat(dst, score, 'f', 2, 64)
		return append(dst, ')')
	}
	return append(dst, "no query match, fits budget"...)
}

// finite maps NaN to 0 and infinities to the largest finite values, so
// scores order totally and serialize.
func finite(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case math.IsInf(x, 1):
		return math.MaxFloat64
	case math.IsInf(x, -1):
		return -math.MaxFloat64
	}
	return x
}

func identityLines(id Identity) []string {
	var ls []string
	add := func(k, v string) {
		if v = clean(v); v != "" {
			ls = append(ls, "- "+k+": "+v)
		}
	}
	user := clean(id.Name)
	if uid := clean(id.UserID); uid != "" {
		user = strings.TrimSpace(user + " (" + uid + ")")
	}
	add("user", user)
	add("organization", id.Organization)
	add("authority", id.Authority)
	add("department", id.Department)
	perms := make([]string, 0, len(id.Permissions))
	for _, p := range id.Permissions {
		if p = clean(p); p != "" {
			perms = append(perms, p)
		}
	}
	slices.Sort(perms)
	add("permissions", strings.Join(slices.Compact(perms), ", "))
	for _, a := range id.Attributes {
		if k := clean(a.Key); k != "" {
			add(k, a.Value)
		}
	}
	return ls
}

func sortedEnv(env []Attr) []Attr {
	env = slices.Clone(env)
	slices.SortStableFunc(env, func(x, y Attr) int {
		return cmp.Or(strings.Compare(clean(x.Key), clean(y.Key)), strings.Compare(clean(x.Value), clean(y.Value)))
	})
	return env
}

// envLineNL is an environment entry's line, with its newline (newLineNL).
func envLineNL(a Attr) string { return "- " + keyValue(a.Key, a.Value) + "\n" }

// splitFacts separates active constraints and needs-review facts from the
// rest and ranks each group: score, then recency, then authority, then ID.
// Hypothetical and draft constraints are not in force: they rank as facts.
// The groups point into fs, or, when a score is not finite, into one copy
// of fs with the scores made finite (fs is the caller's, never written),
// so that ranking moves pointers, not facts.
func splitFacts(fs []Fact) (cons, review, rest []*Fact) {
	all := fs
	if slices.ContainsFunc(fs, func(f Fact) bool { return finite(f.Score) != f.Score }) {
		all = slices.Clone(fs)
		for i := range all {
			all[i].Score = finite(all[i].Score)
		}
	}
	rest = make([]*Fact, 0, len(all)) // most facts are plain
	for i := range all {
		f := &all[i]
		switch {
		case f.NeedsReview:
			review = append(review, f)
		case f.IsConstraint && label(f.Scope) == "":
			cons = append(cons, f)
		default:
			rest = append(rest, f)
		}
	}
	for _, g := range [][]*Fact{cons, review, rest} {
		slices.SortStableFunc(g, compareFacts)
	}
	return cons, review, rest
}

// compareFacts ranks facts: score, then recency, then valid time, then
// authority, then ID, key and value, each compared only on a tie of the
// ones before.
func compareFacts(x, y *Fact) int {
	if c := cmp.Compare(y.Score, x.Score); c != 0 {
		return c
	}
	if c := y.RecordedAt.Compare(x.RecordedAt); c != 0 {
		return c
	}
	if c := y.ValidFrom.Compare(x.ValidFrom); c != 0 {
		return c
	}
	if c := cmp.Compare(y.Authority, x.Authority); c != 0 {
		return c
	}
	if c := strings.Compare(x.ID, y.ID); c != 0 {
		return c
	}
	if c := strings.Compare(x.Key, y.Key); c != 0 {
		return c
	}
	return strings.Compare(x.Value, y.Value)
}

func rankAssertions(as []Assertion) []Assertion {
	as = slices.Clone(as)
	for i := range as {
		as[i].Score = finite(as[i].Score)
	}
	slices.SortStableFunc(as, func(x, y Assertion) int {
		return cmp.Or(
			cmp.Compare(y.Score, x.Score),
			y.At.Compare(x.At),
			strings.Compare(x.ID, y.ID),
			strings.Compare(x.Subject, y.Subject),
			strings.Compare(x.Predicate, y.Predicate),
			strings.Compare(x.Object, y.Object),
		)
	})
	return as
}

// assertionLineNL is an assertion's line, with its newline as newLineNL
// takes it.
func assertionLineNL(a Assertion) string {
	// "- subject predicate object (status, hypothesis h, until …)\n": the
	// parts that are not empty once cleaned, written into one buffer
	// (FuzzAssertionLine holds it to the parts joined).
	var b strings.Builder
	b.Grow(len(a.Subject) + len(a.Predicate) + len(a.Object) + len(a.Status) + len(a.Hypothesis) + len(a.Lease.Event) + 48)
	b.WriteString("- ")
	sep := ""
	for _, s := range [...]string{a.Subject, a.Predicate, a.Object} {
		if s = clean(s); s != "" {
			b.WriteString(sep)
			b.WriteString(s)
			sep = " "
		}
	}
	sep = " ("
	meta := func() {
		b.WriteString(sep)
		sep = ", "
	}
	if s := clean(a.Status); s != "" {
		meta()
		writeLower(&b, s)
	}
	if h := clean(a.Hypothesis); h != "" {
		meta()
		b.WriteString("hypothesis ")
		b.WriteString(h)
	}
	switch a.Lease.Kind {
	case LeaseUntilChanged:
		meta()
		b.WriteString("until changed")
	case LeaseUntilTime:
		if !a.Lease.Until.IsZero() {
			meta()
			var t [64]byte
			b.WriteString("until ")
			b.Write(a.Lease.Until.AppendFormat(t[:0], time.RFC3339))
		}
	case LeaseUntilEvent:
		meta()
		b.WriteString("until ")
		b.WriteString(cmp.Or(clean(a.Lease.Event), "an event"))
	}
	if sep == ", " {
		b.WriteByte(')')
	}
	b.WriteByte('\n')
	return b.String()
}

// writeLower writes strings.ToLower(s) to b: ASCII byte by byte, without
// the string ToLower would make; anything else through ToLower.
func writeLower(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			b.WriteString(strings.ToLower(s))
			return
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
}

// rankWork ranks working-set items: objectives first, then score,
// priority, recency and ID.
func rankWork(ws []WorkItem) []WorkItem {
	ws = slices.Clone(ws)
	for i := range ws {
		ws[i].Score = finite(ws[i].Score)
	}
	isObj := func(w WorkItem) int {
		if w.ItemType == ItemObjective {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(ws, func(x, y WorkItem) int {
		return cmp.Or(
			cmp.Compare(isObj(x), isObj(y)),
			cmp.Compare(y.Score, x.Score),
			cmp.Compare(y.Priority, x.Priority),
			y.At.Compare(x.At),
			strings.Compare(x.ID, y.ID),
			strings.Compare(x.Key, y.Key),
			strings.Compare(x.Value, y.Value),
		)
	})
	return ws
}

func workLine(w WorkItem) string {
	head := cmp.Or(strings.ToLower(strings.ReplaceAll(clean(string(w.ItemType)), "_", " ")), "item")
	if k := clean(w.Key); k != "" {
		head += " " + k
	}
	text := "- " + label(w.Scope) + head
	if v := clean(w.Value); v != "" {
		text += ": " + v
	}
	return text
}

// rankTurns ranks turns for packing (score, recency, ID) and returns, for
// each ranked turn, its position in chronological order, the order in
// which turns are rendered.
func rankTurns(ts []Turn) (ranked []Turn, chrono []int) {
	ranked = slices.Clone(ts)
	for i := range ranked {
		ranked[i].Score = finite(ranked[i].Score)
	}
	return rankChrono(ranked, func(t Turn) rankKey { return rankKey{t.Score, t.At, t.ID, t.Text} }, strings.Compare)
}

// rankKey is what packing ranks a record by.
type rankKey struct {
	score    float64
	at       time.Time
	id, text string
}

// rankChrono sorts items best first (score, then recency, then ID and
// text) and returns, for each, its position in chronological order (time,
// then ID as compareID orders IDs).
func rankChrono[T any](items []T, key func(T) rankKey, compareID func(a, b string) int) ([]T, []int) {
	slices.SortStableFunc(items, func(a, b T) int {
		x, y := key(a), key(b)
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		if c := y.at.Compare(x.at); c != 0 {
			return c
		}
		if c := strings.Compare(x.id, y.id); c != 0 {
			return c
		}
		return strings.Compare(x.text, y.text)
	})
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		x, y := key(items[i]), key(items[j])
		return cmp.Or(x.at.Compare(y.at), compareID(x.id, y.id), cmp.Compare(i, j))
	})
	chrono := make([]int, len(items))
	for pos, i := range idx {
		chrono[i] = pos
	}
	return items, chrono
}

// appendTurnLine appends a turn's line, without its newline, to dst:
// "- speaker: text", the speaker in lower case ("unknown" when empty),
// both cleaned.
func appendTurnLine(dst []byte, t Turn) []byte {
	dst = append(append(dst, "- "...), cmp.Or(strings.ToLower(clean(t.Speaker)), "unknown")...)
	return append(append(dst, ": "...), clean(t.Text)...)
}

// rankEvidence ranks evidence for packing (score, recency, ID) and returns,
// for each ranked sentence, its position in chronological order, the
// order in which they are rendered.
func rankEvidence(es []Evidence) (ranked []Evidence, chrono []int) {
	ranked = slices.Clone(es)
	for i := range ranked {
		ranked[i].Score = finite(ranked[i].Score)
	}
	// Sentence numbers grow in length: a shorter ID of the same turn comes
	// first.
	byID := func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b)) }
	return rankChrono(ranked, func(e Evidence) rankKey { return rankKey{e.Score, e.At, e.ID, e.Text} }, byID)
}

// rankDocuments orders chunks best first: score, then document and chunk.
func rankDocuments(ds []Document) []Document {
	ds = slices.Clone(ds)
	for i := range ds {
		ds[i].Score = finite(ds[i].Score)
	}
	slices.SortStableFunc(ds, func(x, y Document) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), strings.Compare(x.DocumentID, y.DocumentID), cmp.Compare(x.Chunk, y.Chunk), strings.Compare(x.Text, y.Text))
	})
	return ds
}

// documentLine renders a chunk with its provenance:
// "- [Title — doc-id chunk 2, https://…] text".
func documentLine(d Document) string {
	src := clean(d.DocumentID) + " chunk " + strconv.Itoa(d.Chunk+1)
	if u := clean(d.SourceURI); u != "" {
		src += ", " + u
	}
	if t := clean(d.Title); t != "" {
		src = t + " — " + src
	}
	return "- [" + src + "] " + clean(d.Text)
}

// appendEvidenceLine appends a sentence's line, without its newline, to
// dst: its provenance, the day it was said (UTC) and who said it, "-
// 2006-01-02 speaker: text", cleaned as a turn's line is.
func appendEvidenceLine(dst []byte, e Evidence) []byte {
	dst = e.At.UTC().AppendFormat(append(dst, "- "...), "2006-01-02")
	dst = append(append(dst, ' '), cmp.Or(strings.ToLower(clean(e.Speaker)), "unknown")...)
	return append(append(dst, ": "...), clean(e.Text)...)
}
