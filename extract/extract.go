package extract

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/stategraph/stategraph/lexical"
)

// Turn is one conversation turn to read.
type Turn struct {
	Text    string
	Speaker string    // "user", "assistant" or a person's name
	At      time.Time // the turn's time on the timeline; dates resolve against it, so set it (never the wall clock in a replay)
}

// Statement is one (entity, attribute, value) assertion found in a turn.
type Statement struct {
	Entity     string // normalised: lower-case, singular, no articles or possessives
	Attribute  string // normalised like Entity
	Key        string // "entity.attribute", e.g. "onboarding_deck.owner"
	Value      string // the new value only, as said, or a resolved date
	Said       string // for a resolved date, the phrase as said ("next Friday"), when it differs
	Kind       string // one of the Kind* constants
	Correction bool   // the sentence says the earlier value was wrong
	Rule       string // the Rule.Name that fired
	Cited      string // whom the speaker relays ("the COO" in "The COO says …"), or ""
	Sentence   string // the sentence it came from, as said
	Index      int    // the index of that sentence in Result.Sentences
	// Implied reports an Anchor reading whose sentence did not say the
	// fact's topic: the new value's category or shape named it ("Floor
	// 7", "MySQL"). It holds only when no other fact takes the value.
	Implied bool
}

// Kinds of statement.
const (
	KindOwnership = "ownership"
	KindLocation  = "location"
	KindAmount    = "amount"
	KindCount     = "count"
	KindDate      = "date"
	KindChoice    = "choice"
	KindStatus    = "status"
	KindContact   = "contact"
	KindBooking   = "booking"
	KindPerson    = "person" // someone the speaker has: user.manager, user.dentist
	KindCode      = "code"   // a password, PIN or door code: wifi.password
)

// Reasons a sentence yields no statement.
const (
	ReasonHeading      = "heading"
	ReasonListItem     = "list-item"
	ReasonQuestion     = "question"
	ReasonDraft        = "draft"
	ReasonHypothetical = "hypothetical"
	ReasonNegated      = "negated"
	ReasonProposal     = "proposal"
	ReasonDeclined     = "declined"
	ReasonPast         = "past"
	ReasonException    = "exception"
	ReasonOtherSubject = "other-subject"
	ReasonSuggestion   = "suggestion"
	ReasonHearsay      = "hearsay"
	ReasonRequest      = "request"
	ReasonNoRule       = "no-rule"
)

// Skip is a sentence (or clause) that yielded no statement, and why.
type Skip struct {
	Sentence string
	Reason   string
}

// Sentence is one sentence (or heading line) of a turn, in the order said.
type Sentence struct {
	Index int
	Text  string
	// Reason is why the sentence as a whole states nothing real: a
	// heading, question, draft, hypothetical, negated, proposal,
	// declined, past, exception (a one-off: "this week only"),
	// other-subject, suggestion, hearsay or request
	// sentence (the Reason* constants). It is "" when the sentence states
	// something, whether or not a rule structured it.
	Reason string
}

// Result is everything Analyze found in a turn.
type Result struct {
	Statements []Statement
	Skipped    []Skip
	Sentences  []Sentence
}

// maxClause bounds the clause the rules read: longer ones are run-ons or
// pasted text, and skipping them keeps the worst case linear and small.
const maxClause = 400

// maxTurn bounds the text read from one turn so cost stays linear and small.
const maxTurn = 16 << 10

// Extract returns the statements a turn asserts, in the order said.
func Extract(t Turn) []Statement {
	return Analyze(t).Statements
}

// Analyze returns the statements a turn asserts and the sentences it
// refused, with the reason for each.
func Analyze(t Turn) Result {
	text := t.Text
	if len(text) > maxTurn {
		text = text[:maxTurn]
	}
	a := analyzer{turn: t}
	inFence := false
	for _, line := range strings.Split(Letter(text), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if trimmed == "" {
			continue
		}
		if inFence || isHeading(trimmed) {
			a.skip(trimmed, ReasonHeading)
			a.res.Sentences = append(a.res.Sentences, Sentence{Index: len(a.res.Sentences), Text: trimmed, Reason: ReasonHeading})
			continue
		}
		body, item := stripListMarker(trimmed)
		for _, s := range splitSentences(body) {
			main, said := asides(s)
			// "um" and an emoji are pauses; "at two thirty" is read "at
			// 2:30"; "nag-request" is "request"; "has agreed to serve as"
			// is "will be"; a value in inline code is the value; a
			// bracketed reference number is no value; "30.04." is 30
			// April; "tmrw" is tomorrow and "6:30a" 6:30am.
			a.sentence(Roles(Affixed(Spoken(Pauses(Emoji(InlineCode(RefCodes(DotDates(Shorthand(main))))))))), item)
			for _, aside := range said {
				a.sentence(Roles(Affixed(Spoken(Pauses(Emoji(InlineCode(RefCodes(DotDates(Shorthand(aside))))))))), false)
			}
		}
	}
	a.withdraw()
	return a.res
}

// withdraw takes back what a turn said before a closing "nevermind": "ok
// moving my scripts from walgreens to the Rite Aid on Maple, … the
// transfer takes like 2 weeks and I'm almost out. nevermind." changes
// nothing.
func (a *analyzer) withdraw() {
	n := len(a.res.Sentences)
	if n < 2 || !reNeverMind.MatchString(a.res.Sentences[n-1].Text) {
		return
	}
	for i := range a.res.Sentences[:n-1] {
		if s := &a.res.Sentences[i]; s.Reason == "" {
			s.Reason = ReasonNegated
			a.skip(s.Text, ReasonNegated)
		}
	}
	a.res.Statements = slices.DeleteFunc(a.res.Statements, func(st Statement) bool { return st.Index < n-1 })
}

// reNeverMind is a sentence that takes back the ones before it.
var reNeverMind = regexp.MustCompile(`(?i)^(?:(?:ugh|ok|okay|oh|wait|actually|lol|so)[,.]?\s+)*(?:never\s?mind|nvm|forget (?:it|that|all that|everything i just said)|scratch (?:all )?that|ignore (?:all )?(?:that|me|this)|disregard (?:all )?(?:that|this))(?:\s+(?:lol|haha|sorry))?\s*[.!]*$`)

type analyzer struct {
	turn Turn
	res  Result
}

func (a *analyzer) skip(s, reason string) {
	a.res.Skipped = append(a.res.Skipped, Skip{Sentence: s, Reason: reason})
}

// isHeading reports a markdown heading, a table row or a line that is only
// emphasis ("**Budget**").
func isHeading(s string) bool {
	if strings.HasPrefix(s, "#") || strings.HasPrefix(s, "|") || strings.HasPrefix(s, ">") {
		return true
	}
	if len(s) > 4 && (strings.HasPrefix(s, "**") && strings.HasSuffix(strings.TrimRight(s, ":"), "**")) {
		return true
	}
	return false
}

// stripListMarker removes a leading "-", "*", "+", "•" or "1." marker.
func stripListMarker(s string) (string, bool) {
	switch {
	case strings.HasPrefix(s, "- "), strings.HasPrefix(s, "* "), strings.HasPrefix(s, "+ "):
		return strings.TrimSpace(s[2:]), true
	case strings.HasPrefix(s, "• "):
		return strings.TrimSpace(s[len("• "):]), true
	}
	i := 0
	for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimSpace(s[i+2:]), true
	}
	return s, false
}

// reInitialism is letters said with stops, the last one's stop not
// included: "A.I", "U.S", and the times of day "a.m", "p.m" ("at 9:00
// a.m. that week only" goes on).
var reInitialism = regexp.MustCompile(`^(?:(?:[A-Z]\.)+[A-Z]|[aApP]\.[mM])$`)

// splitSentences cuts a line at ".", "!" or "?" followed by a space, unless
// the word before is an abbreviation or a single letter, or the mark is
// inside parentheses.
// namedAfter reports text that opens on a capitalised word no sentence
// opens with (a surname after initials: "Silva" of "M.A. Silva"), not
// "They", "The" or "Then".
func namedAfter(s string) bool {
	w := firstWord(s)
	w = strings.TrimRight(w, ".,;:!?")
	return len(w) > 1 && w[0] >= 'A' && w[0] <= 'Z' && !lexical.IsStop(strings.ToLower(w))
}

func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == '.' || s[j] == '!' || s[j] == '?' || s[j] == '"' || s[j] == ')') {
			j++
		}
		if j < len(s) && s[j] != ' ' && s[j] != '\t' {
			i = j - 1
			continue
		}
		if j < len(s) && strings.Count(s[start:i], "(") > strings.Count(s[start:i], ")") {
			// "Rosa retired (good for her!) and …": an aside's mark
			// ends the aside, not the sentence.
			i = j - 1
			continue
		}
		if c == '!' && j == i+1 && j+1 < len(s) && s[j+1] >= 'a' && s[j+1] <= 'z' && codeLike(lastWord(s[start:i])) {
			// "it's hive2026! not hive2024!": the mark closes a password.
			i = j - 1
			continue
		}
		if c == '.' {
			w := lastWord(s[start:i])
			if lexical.Abbreviation(w) || (len(w) == 1 && w != "I" && (w[0] < '0' || w[0] > '9')) ||
				reInitialism.MatchString(w) && j+1 < len(s) && (s[j+1] >= 'a' && s[j+1] <= 'z' || !strings.EqualFold(w, "a.m") && !strings.EqualFold(w, "p.m") && namedAfter(s[j+1:])) {
				// ("your A.I. tech": an initialism before a word that
				// goes on; "M.A. Silva": a name's initials.)
				i = j - 1
				continue
			}
		}
		if seg := strings.TrimSpace(s[start:j]); seg != "" {
			out = append(out, seg)
		}
		start = j
		i = j - 1
	}
	if seg := strings.TrimSpace(s[start:]); seg != "" {
		out = append(out, seg)
	}
	return out
}

// asides cuts from a sentence what it says in parentheses when that is
// three words or more and would refuse the sentence (a denial, a past, a
// remark about others) without qualifying it: "the appliance budget is
// $14,500 now (the induction range alone, don't even)" states the budget,
// and the aside, read as a sentence of its own, does not deny it. A
// short parenthesis belongs to the value beside it ("48 Harbor Rd (Suite
// 200)"), and any other stays where it is said.
func asides(s string) (string, []string) {
	if !strings.Contains(s, "(") {
		return s, nil
	}
	var said []string
	var b strings.Builder
	rest := s
	for {
		i := strings.IndexByte(rest, '(')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], ')')
		if j < 0 {
			break
		}
		inner := strings.TrimSpace(rest[i+1 : i+j])
		if len(strings.Fields(inner)) < 3 || !refusesApart(inner) {
			b.WriteString(rest[:i+j+1])
		} else {
			b.WriteString(strings.TrimRight(rest[:i], " "))
			said = append(said, inner)
		}
		rest = rest[i+j+1:]
	}
	if said == nil {
		return s, nil
	}
	b.WriteString(rest)
	main := strings.Join(strings.Fields(b.String()), " ")
	main = reSpaceMark.ReplaceAllString(main, "$1")
	return main, said
}

// refusesApart reports an aside that a clause filter refuses without it
// saying how far the sentence holds. One that says so, a condition, a
// doubt or a denial ("(if finance approves)", "(not confirmed yet)",
// "(jk)"), stays in the sentence it qualifies, and so does one that
// refuses nothing.
func refusesApart(aside string) bool {
	low := fold(aside)
	r := clauseFilter(low)
	return r != "" && r != ReasonHypothetical && !reGoverningAside.MatchString(low) && !reDoubt.MatchString(low)
}

// reGoverningAside opens an aside that qualifies the whole sentence.
var reGoverningAside = regexp.MustCompile(`^(?:not|no|nope|if|unless|pending|tbd|tbc|jk|just kidding|kidding|maybe|probably|possibly|hopefully|fingers crossed|assuming|waiting|still waiting|until|for now|for this week|this week only|only|temporarily|tentative|tentatively|subject to)\b`)

// reSpaceMark is a space before a closing mark, left where an aside was.
var reSpaceMark = regexp.MustCompile(`\s+([.,;:!?])`)

// codeLike reports a word of letters and digits: a code or a password.
func codeLike(w string) bool {
	return strings.ContainsAny(w, "0123456789") && strings.ContainsFunc(w, unicode.IsLetter)
}

func lastWord(s string) string {
	i := strings.LastIndexAny(s, " \t(")
	return s[i+1:]
}
