package extract

import (
	"regexp"
	"strings"
)

// A message written like a letter opens with a greeting and closes with a
// sign-off: "Dear Phone, my daughter Susan has moved house … Love, Edna".
// Neither says anything about the state, and read as part of a sentence
// they become its subject ("Dear Phone" is no new value).
var (
	// reSalutation is a greeting that opens a message, with the comma or
	// mark that ends it: "Dear Phone,", "Hello dear,", "Good afternoon,",
	// "Dear Sir or Madam,", "Hi Tom!".
	reSalutation = regexp.MustCompile(`^\s*(?i:dear|hello|hi|hey|hiya|greetings|good (?:morning|afternoon|evening|day))(?:\s+(?i:there|dear|all|everyone|everybody|sir or madam|sir|madam|love|darling|friend|phone)|(?:\s+\p{Lu}[\p{L}'’.-]*){1,3})?\s*[,!:—–]+\s*`)

	// reSignOff is a closing that ends a message, with the name after
	// it: "Yours, Edna", "Kind regards, Edna", "Love from Gran (Edna)",
	// "God bless, Edna", "Thanks, Tom x".
	reSignOff = regexp.MustCompile(`(?:^|[.!?]\s+|\n\s*)(?i:yours(?: sincerely| truly| faithfully| ever)?|sincerely|(?:kind|best|warm|warmest|many|with kind)\s+regards|regards|best wishes|all the best|(?:lots of |all my |with )?love(?: from)?|cheers|(?:many )?thanks|thank you|god bless|bless you|take care|hugs|xoxo)[,!]?\s+` + signedName)

	// reSignedName is a message's last sentence that is only its
	// writer's name, read as a sign-off after a greeting: "… Edna".
	reSignedName = regexp.MustCompile(`(?:^|[.!?]\s+|\n\s*)` + signedName)
)

// signedName is a name of one to three capitalised words, a name in
// brackets after it and kisses, to the end of the message.
const signedName = `\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,2}(?:\s*\([^)\n]{1,30}\))?\s*[.!]*(?:\s+[xX]+)?\s*$`

// Letter returns a message without the greeting that opens it and the
// sign-off that closes it. A bare name at the end is a signature only in
// a message that opened with a greeting: "… moved to Thursday. Edna".
func Letter(text string) string {
	greeted := false
	if m := reSalutation.FindStringIndex(text); m != nil && m[1] < len(text) {
		text, greeted = text[m[1]:], true
	}
	if m := reSignOff.FindStringIndex(text); m != nil && m[0] > 0 {
		return strings.TrimSpace(text[:m[0]+markLen(text[m[0]:])])
	}
	if m := reSignedName.FindStringIndex(text); greeted && m != nil && m[0] > 0 {
		return strings.TrimSpace(text[:m[0]+markLen(text[m[0]:])])
	}
	return text
}

// markLen is the length of the sentence's closing mark at the start of s,
// which stays with the sentence before the sign-off.
func markLen(s string) int {
	if s != "" && strings.ContainsRune(".!?", rune(s[0])) {
		return 1
	}
	return 0
}
