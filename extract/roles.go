package extract

import "regexp"

// Roles reads a role taken on in a formal register as the plain
// statement it makes: "Mr. Abernathy has graciously agreed to serve as
// our accompanist" and "Ana will act as treasurer" say who will be, "Ana
// serves as treasurer" who is. Agreeing to anything else ("agreed to
// consider", "agreed to serve on the committee") is left as said.
func Roles(s string) string {
	s = reAgreedToServe.ReplaceAllString(s, "will be")
	return reServesAs.ReplaceAllString(s, "is")
}

var (
	// reAgreedToServe agrees to, or will, take a role on.
	reAgreedToServe = regexp.MustCompile(`(?i)\b(?:(?:has|have)\s+(?:\p{L}+ly\s+)?agreed\s+to|(?:will|shall)(?:\s+\p{L}+ly)?)\s+(?:serve|act|stand in)\s+as\b`)
	// reServesAs holds a role now ("is acting as" stands in for someone:
	// the rule owner-stepped-in reads it as said).
	reServesAs = regexp.MustCompile(`(?i)\b(?:serves|is serving)\s+as\b`)
)
