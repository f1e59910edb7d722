package detect

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/stategraph/stategraph/lexical"
)

// cueClass says what a cue signals.
type cueClass uint8

const (
	cueExplicit cueClass = iota + 1 // a correction or change word
	cueTemporal                     // a change tied to time: "as of today", "now", "going forward"
	cueDecision                     // a commitment to one named alternative: "let's go with"
)

// cue is one lexicon entry: a pattern and what it signals.
type cue struct {
	class cueClass
	re    *pre
}

// cues compiles the patterns of one class into a single alternation, so a
// sentence is scanned once per class.
func cues(class cueClass, patterns ...string) []cue {
	return []cue{{class, mustPre(`(?i)(?:` + strings.Join(patterns, `)|(?:`) + `)`)}}
}

// changeCues are the words that announce a new value, each explainable on
// its own: they say the old value is wrong, replaced, moved or ended.
var changeCues = concat(
	cues(cueExplicit,
		`\bactually\b`,                 // "actually, ..." corrects what was said
		`\bcorrect(?:ion|ed|ing)\b`,    // "correction:", "corrected to"
		`\bno wait\b|\bscratch that\b`, // retracting the last statement
		`\bchange[sd]?\b|\bchanging\b`, // "change that to", "changed"
		`\bmov(?:e|ed|ing)\b`,          // "moved to Thursday"
		`\breschedul(?:e|ed|ing)\b|\bpostpon(?:e|ed|ing)\b|\bprepon(?:e|ed|ing)\b|\bpushed\b|\bdelayed\b`, // schedule changes ("preponed": moved earlier, in Indian English)
		`\binstead\b|\brather than\b`,                  // "X instead", "rather than X"
		`\bno longer\b|\bnot anymore\b|\banymore\b`,    // the old value stopped holding
		`\bswitch(?:ed|ing)?\b|\breplac(?:e|ed|ing)\b`, // replacing one thing with another
		`\bmake (?:that|it)\b`,                         // "make that $150,000"
		`\b(?:go(?:ing)?|switch(?:ing)?|come|coming|move|moving) back to\b|\brevert(?:ed|ing)?\b`,  // returning to an earlier value
		`\bcancel(?:l?ed|l?ing|s)?\b|\bcalled off\b|\bscrapp?(?:ed)?\b|\bdrop(?:ped)?\b`,           // ending a plan
		`\bhold off\b|\bon hold\b|\bput on hold\b|\bpaused?\b`,                                     // suspending a plan
		`\boverrid(?:e|ing|den)\b|\boverrode\b|\brescind(?:ed)?\b|\brevok(?:e|ed)\b|\breversed?\b`, // undoing a decision
		`\brevised?\b|\bamend(?:ed)?\b|\bwrong\b|\bmistake\b|\bincorrect\b`,                        // the old value was an error
		`\bfinali[sz]ed\b|\bofficial(?:ly)?\b`,                                                     // a draft becomes definite
		`\bchange of plans?\b|\bnew plan\b|\bplans? changed\b`,                                     // announcing a new plan
		`\b(?:raised|lowered|increased|decreased|bumped|hiked|reduced|doubled|halved|upped|trimmed|cut)\b(?:\s+[\w'’-]+){0,5}?\s+to\b|\b(?:went|gone|goes|going) (?:up|down) to\b`, // an amount set anew
		`\btook over\b|\btak(?:e|es|ing|en) over\b|\bhand(?:ed|ing|s)? (?:[\w'’-]+\s+){0,3}?over to\b|\bstepp(?:ed|ing) in\b`,                                                      // a holder who follows another
	),
	cues(cueTemporal,
		`\bas of (?:today|now|this (?:week|month|morning)|yesterday|\w+day)\b`,                        // dated change
		`\b(?:is|are|'s|was|were) now\b|\bnow (?:is|are|at|requires?|costs?)\b|\bnow[.!]?$|\bnow[,;]`, // "the rate is now $150"
		`\bgoing forward\b|\bfrom now on\b|\bfrom here on\b|\beffective (?:immediately|today|now)\b|\b(?:starting|beginning|from) (?:today|tomorrow|tonight|this (?:week|month)|next (?:week|month)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b`, // from here on
		`\bupdated?\b|\bupdating\b`, // "update: ..."
		`\bcurrently\b`,             // the current value
	),
	cues(cueDecision,
		`\b(?:go|going|proceed|proceeding|went|stick|sticking) with\b`,     // choosing an alternative
		`\b(?:decided|settled|agreed) (?:on|to)\b|\bopted for\b|\bchose\b`, // a decision
		`\bwe(?:'ll| will) be doing\b|\blet's (?:try|do|use)\b`,            // adopting a course
	),
)

// reAddition marks a sentence that adds to the state ("add X too") rather
// than replacing anything; "actually" there only introduces the addition.
var reAddition = mustPre(`(?i)\b(?:add|adding|also|too|as well|in addition|additionally)\b`)

// reFromTo finds "from X to Y": X is the old value.
var reFromTo = mustPre(`(?i)\bfrom\s+([^.;!?]{1,40}?)\s+to\s+`)

// negators cancel a cue that follows them closely in the same clause.
var negators = setOf("not", "never", "no", "didn't", "don't", "doesn't", "hasn't", "haven't", "won't", "isn't", "aren't", "wasn't", "weren't", "cannot", "can't", "without", "nothing", "neither", "nor",
	"doesnt", "hasnt", "havent", "isnt", "arent", "wasnt", "werent") // a state denied, typed without the apostrophe (extract's negations)

// reQuestion recognises a question that has no question mark.
var reQuestion = mustPre(`(?i)^(?:did|does|do|is|are|was|were|can|could|should|would|will|has|have|what|when|where|which|who|why|how)\b`)

// reRecap marks a sentence that looks back rather than changing anything.
var reRecap = mustPre(`(?i)\bas (?:i |we )?(?:mentioned|said|discussed|noted)\b|\bto recap\b|\brecap\b|\boriginal(?:ly)?\b|\bpreviously\b|\bused to\b|\bwe discussed\b|\bremember\b|\bjust to confirm\b|\bconfirming\b|\bto be (?:absolutely )?clear\b|\breminder\b|\bbased on\b|\bearlier\b`)

// hypotheticalCues name a situation as imagined rather than real. They are
// the one list of hypothetical phrases: turn detection adds the modal cues
// of a statement that is only possible (maybe, might, if we ...), and a
// query about hypothetical content (AboutHypothetical) adds drafts and
// estimates.
const hypotheticalCues = `what if|suppose|supposing|hypothetical(?:ly)?|let's say|imagine|in theory|theoretical(?:ly)?|scenario|brainstorm\w*|exploratory|sandbox`

// Scope cues: a hypothetical or draft turn never supersedes real state.
var (
	reHypothetical = mustPre(`(?i)\b(?:` + hypotheticalCues + `|maybe|perhaps|could potentially|we could|might|if (?:we|they|you|i))\b`)
	reAboutHypo    = mustPre(`(?i)\b(?:` + hypotheticalCues + `|draft|estimat\w*)\b`)
	reDraft        = mustPre(`(?i)\bdraft(?:s|ed|ing)?\b|\btentative(?:ly)?\b|\bpreliminary\b|\bproposed\b|\bwork in progress\b`)
	reTask         = mustPre(`(?i)\bfor (?:this|the current) (?:task|ticket|session|call|conversation)\b|\bfor now\b|\btemporar(?:y|ily)\b|\bjust this once\b|\bthis time only\b|\bone-off\b`)
)

// Authority cues: who a statement is attributed to.
var (
	// "[VP] ...", "[Mike (CFO)]: ...", "Carol (CEO): ...".
	reSpeakerBracket = regexp.MustCompile(`^\s*\[([^\]]{1,60})\]\s*:?\s*`)
	reSpeakerParen   = regexp.MustCompile(`^\s*([A-Z][\w.'-]*(?:\s+[A-Za-z][\w.'-]*){0,4})\s*\(([^)]{1,60})\)\s*:\s*`)
	// "per the CEO", "according to the board", "approved by the CFO".
	reCited = mustPre(`(?i)\b(?:per|according to|on behalf of|by order of|(?:directive|direction|instruction|decision) (?:from|of)|approved by|mandated by|signed off by)\s+(?:the\s+|our\s+|my\s+)?(?:[a-z]+\s+){0,2}?((?:ceo|cfo|cto|coo|cio|ciso|chief\s+\w+(?:\s+officer)?|president|board(?:\s+of\s+directors)?|vp(?:\s+\w+)?|vice\s+president|svp|evp|executive(?:\s+team)?|director|head\s+of\s+\w+|manager|lead|policy|leadership|management|legal|compliance|finance))\b`)
	// "the CFO says", "board policy", "company policy", "I'm overriding".
	reRoleSays   = mustPre(`(?i)\b(?:the\s+)?(ceo|cfo|cto|coo|cio|board|vp(?:\s+\w+)?|director|executive team|leadership)\s+(?:says?|said|wants?|decided|directed|mandated|approved|announced|set|changed|requires?|overr(?:ode|ides?)|rescinded|cancell?ed|delegated|cut|reduced)\b`)
	rePolicyWord = mustPre(`(?i)\b(?:board|company|corporate|org(?:anization)?)\s+policy\b|\bper policy\b`)
)

// keepCue protects what follows it: "keep the location, but ..." means the
// location is not being changed.
var reKeep = mustPre(`(?i)\b(?:keep|keeping|leave|retain|same)\s+(?:the\s+|our\s+)?([a-z][\w -]{0,30}?)(?:[,.;!?]|\s+but\b|\s+and\b|\s+as\b|$)`)

// Replacement patterns capture the new value a sentence assigns, in order of
// preference. Each names the verb shape it recognises.
var replacementPatterns = []*pre{
	// "change the quantity to 750", "moved it to Thursday", "send it to Miami"
	mustPre(`(?i)\b(?:chang|switch|mov|push|shift|updat|reschedul|set|revis|bump|reduc|increas|rais|lower|cut|extend|send|ship|deliver|rout|assign|allocat|transfer|reassign|delay|postpon)\w*\b[^.;!?]{0,40}?\b(?:to|until)\s+(.+)`),
	// "make that $150,000"
	mustPre(`(?i)\bmake (?:that|it)\s+(.+)`),
	// "go back to card-based UI", "revert to plan A"
	mustPre(`(?i)\b(?:back|revert(?:ed|ing)?)\s+to\s+(.+)`),
	// "go with GlobalTech", "proceed with the pilot"
	mustPre(`(?i)\b(?:go|going|proceed|proceeding|went|stick|sticking)\s+with\s+(.+)`),
	// "decided on X", "we'll be doing X", "let's try X", "use X instead"
	mustPre(`(?i)\b(?:decided on|settled on|agreed on|opted for|chose|picked|selected|be doing|let's try|let's do|let's use|try|use)\s+(.+)`),
	// "the rate is now $150", "the priority is market expansion now"
	mustPre(`(?i)\b(?:is|are|'s)\s+now\s+(.+)`),
	// "finalized the pricing at $50", "capped at 10"
	mustPre(`(?i)\b(?:finali[sz]ed|set|fixed|capped|priced)\b[^.;!?]{0,30}?\bat\s+(.+)`),
	// copula: "the budget is $80,000", "meeting is in Portland"
	mustPre(`(?i)\b(?:is|are|will be|'s)\s+(?:(?:in|at|on|for)\s+)?(.+)`),
}

// reTail cuts a captured replacement at words that end the value.
var reTail = mustPre(`(?i)\s*(?:[.;!?]|\s(?:instead|now|then|too|please|as well|because|due to|since|so that|but|and then|that works|for the \w+|for now)\b).*$`)

// cutTail cuts a captured replacement with reTail, but not at a title's
// stop (titleStopAt): "Mrs. Brandt from the Steuerkanzlei" is "Mrs.
// Brandt".
func cutTail(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '.' && titleStopAt(s, i) {
			b[i] = '\x00' // no mark reTail cuts at
		}
	}
	return strings.ReplaceAll(strings.TrimSpace(reTail.ReplaceAllString(string(b), "")), "\x00", ".")
}

// titleStopAt reports whether the full stop at s[i] closes a title before
// a name ("Mrs. Brandt", "Dr. Lee"): it ends neither the sentence nor the
// value.
func titleStopAt(s string, i int) bool {
	j := i
	for j > 0 && lexical.IsASCIILetter(s[j-1]) {
		j--
	}
	return titles[strings.ToLower(s[j:i])] && (j == 0 || !lexical.IsASCIILetter(s[j-1])) && i+2 < len(s) && s[i+1] == ' ' && 'A' <= s[i+2] && s[i+2] <= 'Z'
}

// titles are the abbreviated titles written before a name.
var titles = map[string]bool{"mr": true, "mrs": true, "ms": true, "mx": true, "dr": true, "prof": true}

// chatter are words that are not lexical stop words but name no topic in
// a turn: cue words ("actually", "instead", "update"), fillers and
// conversational verbs. Together with lexical's stop words they are what
// notTopic rejects.
var chatter = setOf("yes", "now", "new", "get", "got", "go", "going", "make", "need", "want", "please", "ok", "okay",
	"actually", "instead", "change", "changed", "update", "updated", "wait", "way", "per", "v2", "v3")

// notTopic reports whether the lower-case word w names no topic.
func notTopic(w string) bool { return lexical.IsStop(w) || chatter[w] }

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

func concat(lists ...[]cue) []cue {
	var out []cue
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// terms returns the topic words of s: lexical's terms of at least three
// letters, chatter dropped. The map is memoized (every turn asks again
// about the same keys and values): callers read it and never write to it.
func terms(s string) map[string]bool { return termsMemo.Get(s) }

// keyTerms are the terms of a key name, whose words may be joined in
// camel case ("laptopCount" is "laptop count") as well as by separators.
func keyTerms(key string) map[string]bool { return terms(splitCamel(key)) }

// splitCamel puts a space at each hump of a camel-case name: before an
// upper-case letter that follows a lower-case letter or a digit.
func splitCamel(s string) string {
	if !hasHump(s) {
		return s
	}
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// hasHump reports whether splitCamel would change s.
func hasHump(s string) bool {
	prev := rune(0)
	for _, r := range s {
		if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
			return true
		}
		prev = r
	}
	return false
}

func scanTerms(s string) map[string]bool {
	out := make(map[string]bool)
	for _, w := range lexical.Tokens(s) {
		if len(w) < 3 || chatter[w] {
			continue
		}
		if t, ok := lexical.Term(w); ok {
			out[t] = true
		}
	}
	return out
}
