package revision

import (
	"regexp"
	"strings"

	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/extract"
)

// refused are the reasons a sentence (or clause) asserts no new state:
// supersession detection never reads it.
var refused = map[string]bool{
	extract.ReasonHeading: true, extract.ReasonQuestion: true, extract.ReasonDraft: true,
	extract.ReasonHypothetical: true, extract.ReasonNegated: true, extract.ReasonProposal: true,
	extract.ReasonDeclined: true, extract.ReasonPast: true, extract.ReasonException: true, extract.ReasonOtherSubject: true,
	extract.ReasonSuggestion: true, extract.ReasonHearsay: true,
	// A list item no rule structures names a topic or an option: it is not
	// a new value ("- **Keep a contingency**: …").
	extract.ReasonListItem: true,
}

// realText is the part of a turn that asserts state, judged sentence by
// sentence and clause by clause with extract's filters: refused sentences
// are left out, and so are refused clauses of the sentences kept ("We
// are not moving the launch, but the venue is now Hall B" keeps "the
// venue is now Hall B"). Supersession detection reads only this, so a
// negated, questioned, hypothetical, declined, past or other-subject
// sentence never supersedes, whatever else the turn says. A retraction
// ("that was wrong") is left out too: it retires, it states no value.
func realText(ar extract.Result, retracts map[int]bool) string {
	var b strings.Builder
	for _, s := range ar.Sentences {
		if refused[s.Reason] || retracts[s.Index] || reOtherPossessor.MatchString(s.Text) {
			continue
		}
		text := realSentence(s, ar.Skipped)
		if text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(text)
	}
	return b.String()
}

// realSentence is what sentence s asserts once the clauses skipped for a
// refusing reason are cut out of it, or "" when nothing is left.
func realSentence(s extract.Sentence, skipped []extract.Skip) string {
	text := s.Text
	for _, sk := range skipped {
		// A refused clause may be the whole sentence, when it carries no
		// closing stop ("my sister switched her accountant to Mark
		// Ellis, says he's great").
		if refused[sk.Reason] && sk.Sentence != "" {
			i := strings.Index(text, sk.Sentence)
			if i < 0 && !rePronounLed.MatchString(sk.Sentence) {
				// The clause as the rules read it: "my roommate is on
				// hockey" of "my roommate's on hockey". (Whose a "she"
				// is, the clause does not say: "Mom's hip is improving,
				// so she's down to 1 session a week" is the household's.)
				if u := extract.Uncontracted(text); u != text {
					if i = strings.Index(u, sk.Sentence); i >= 0 {
						text = u
					}
				}
			}
			if i < 0 {
				continue
			}
			end := i + len(sk.Sentence)
			if m := reOldTail.FindStringIndex(text[end:]); m != nil {
				// "thinking maybe we do the hand off at the shell
				// station instead of target um gotta ask her first":
				// the value a refused clause leaves is refused with it.
				end += m[1]
			}
			text = text[:i] + " " + text[end:]
		}
	}
	text = strings.TrimSpace(strings.Trim(strings.TrimSpace(text), ",;:—–-"))
	if !hasLetter(text) {
		return ""
	}
	return text
}

// rePronounLed opens a clause on a pronoun.
var rePronounLed = regexp.MustCompile(`(?i)^(?:he|she|they|it)\b`)

// reOldTail is the value a clause leaves, said after it up to the next
// clause: " instead of target um gotta ask her first".
var reOldTail = regexp.MustCompile(`^,?\s+(?:instead of|rather than|not)\s[^,;—–]*`)

// reOtherPossessor opens a sentence about someone else's thing ("The
// neighbour's roof quote was $6,000"): it states their value, not the
// speaker's.
var reOtherPossessor = regexp.MustCompile(`(?i)^(?:the\s+|my\s+|our\s+|a\s+)?(?:neighbou?r|sister|brother|friend|colleague|cousin|mum|mom|dad|father|mother|parents|boss|competitor|rival|other team|design team|sales team|marketing team|another team|old manager|previous tenant)s?['’]s?\s`)

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 {
			return true
		}
	}
	return false
}

// turnScope is the reach of a turn: HYPOTHETICAL or DRAFT when it asserts
// nothing real and frames itself so (its opening sentence, or every
// sentence refused as such), TASK when what it asserts holds for the task
// at hand only ("for now", "just this once"), GLOBAL otherwise. A "maybe"
// in one sentence does not make the turn hypothetical.
func turnScope(text, real string, ar extract.Result) detect.Scope {
	if real == "" {
		switch extract.Scope(text) {
		case extract.ScopeHypothetical:
			return detect.ScopeHypothetical
		case extract.ScopeDraft:
			return detect.ScopeDraft
		}
		hypo, draft := false, false
		for _, s := range ar.Sentences {
			hypo = hypo || s.Reason == extract.ReasonHypothetical
			draft = draft || s.Reason == extract.ReasonDraft
		}
		for _, sk := range ar.Skipped {
			hypo = hypo || sk.Reason == extract.ReasonHypothetical
		}
		switch {
		case draft:
			return detect.ScopeDraft
		case hypo:
			return detect.ScopeHypothetical
		}
		return detect.ScopeGlobal
	}
	if detect.ScopeOf(real) == detect.ScopeTask {
		return detect.ScopeTask
	}
	return detect.ScopeGlobal
}

// omitted are the sentences of a turn not to replay in the working set:
// those whose statement a fact now holds (written, superseding or already
// held) or a state assertion carries (stated), retractions, and those that assert nothing real. What is left is
// what the turn says beyond the state it changed.
func omitted(ar extract.Result, xs []Extraction, stated, retracts map[int]bool) []string {
	absorbed := map[int]bool{}
	for i := range stated {
		absorbed[i] = true // an assertion carries it, with its lease
	}
	for _, x := range xs {
		switch x.Outcome {
		case OutcomeWritten, OutcomeSuperseded, OutcomeUnchanged:
			absorbed[x.Index] = true
		}
	}
	for i := range retracts {
		absorbed[i] = true
	}
	listed := notListed(ar.Skipped)
	var out []string
	for _, s := range ar.Sentences {
		if s.Reason == extract.ReasonQuestion {
			continue // the context's own rule drops questions
		}
		if absorbed[s.Index] || refused[s.Reason] || reOtherPossessor.MatchString(s.Text) || realSentence(s, listed) == "" {
			out = append(out, s.Text)
		}
	}
	return out
}

// notListed are the skips other than list items: a list item is not a new
// value, but it is replayed as said.
func notListed(sk []extract.Skip) []extract.Skip {
	var out []extract.Skip
	for _, s := range sk {
		if s.Reason != extract.ReasonListItem {
			out = append(out, s)
		}
	}
	return out
}
