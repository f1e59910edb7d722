package extract

import "strings"

// Scopes a text can ask for.
const (
	ScopeHypothetical = "hypothetical"
	ScopeDraft        = "draft"
)

// Scope returns the scope a free text asks for by its own words, or "": a
// fact value that reads "Draft: …" is a draft, "Hypothetically, …",
// "Suppose …" or "What if …" a hypothetical. It reads the text's opening
// sentence only, with the same filters as Analyze, so a value that merely
// mentions "if" later on keeps the caller's scope.
func Scope(text string) string {
	first := strings.TrimSpace(text)
	if ss := splitSentences(first); len(ss) > 0 {
		first = ss[0]
	}
	n := withoutTakingOn(padded(fold(first)))
	switch {
	case draftStarts.startsWith(n), draftCues.in(n):
		return ScopeDraft
	case hypoSentence.in(n), hypoClause.startsWith(n):
		return ScopeHypothetical
	}
	return ""
}
