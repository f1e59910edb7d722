package extract

import (
	"regexp"
	"strings"
)

// Retraction is a sentence that takes back something said earlier without
// giving a new value: "That was wrong", "Ignore what I said about the
// rollout", "The first diagnosis was wrong".
type Retraction struct {
	// Topic is what the sentence points to ("rollout", "diagnosis"),
	// normalised like an entity; "" when it points to what was just said
	// ("scratch that").
	Topic string
	// First: the sentence points to the earliest statement on the topic
	// ("the first diagnosis", "my original estimate"); otherwise the most
	// recent one is meant.
	First    bool
	Cue      string // the words that retract
	Sentence string
	Index    int // the sentence's index in Result.Sentences
}

// Retraction patterns, on the folded sentence. Each names the topic in
// group "topic" and the ordinal in group "ord" when it has them.
var (
	retractBare = regexp.MustCompile(`^(?:(?:actually|sorry|oops|wait|no|hmm)[,.!]?\s+)*(?:` +
		`(?:that|this|it|what i (?:just )?(?:said|wrote|told you))(?:'s| is| was) (?:wrong|incorrect|not right|not true|a mistake|mistaken|inaccurate|outdated|not correct)` +
		`|(?:please )?(?:scratch|strike|disregard|ignore|forget) (?:that|this|my last (?:message|point|comment|sentence)|what i (?:just )?(?:said|wrote))` +
		`|i was wrong(?: there| about that)?` +
		`|my (?:bad|mistake))\b[.!]*$`)
	retractAbout = regexp.MustCompile(`^(?:(?:actually|sorry|oops|wait|also|and|please|no)[,.!]?\s+)*(?:` +
		`(?:please )?(?:ignore|disregard|forget|scratch|strike|drop) (?:what|everything|anything) i (?:said|told you|mentioned|wrote|shared)(?: earlier| before| previously)? (?:about|regarding|on|re) (?P<topic>.+?)` +
		`|i was wrong about (?P<topic2>.+?)` +
		`|(?:please )?(?:ignore|disregard|forget) (?:the|my) (?P<ord>first|earlier|previous|last|original|initial|old|other) (?P<topic3>.+?)(?: i (?:gave|mentioned|sent|shared|told you))?` +
		`|(?:the|my) (?P<ord2>first|earlier|previous|original|initial|old|last)? ?(?P<topic4>[a-z][a-z0-9' -]{1,40}?)(?: (?:i|you|we) (?:gave|mentioned|said|told you|got|had))?(?: earlier| before)? (?:was|is) (?:wrong|incorrect|a mistake|mistaken|not right|inaccurate|bogus|a misdiagnosis)` +
		`)[.!]*$`)
)

// retractTopics are not topics: "the thing was wrong" points to nothing.
var retractNotTopics = map[string]bool{
	"thing": true, "part": true, "bit": true, "one": true, "answer": true, "message": true, "sentence": true,
	"weather": true, "timing": true, "vibe": true,
}

// Retractions returns the sentences of res that take something back
// without a new value (a sentence that states one is a correction). A
// sentence refused as a question, hypothetical, draft, past or reported
// one retracts nothing; neither does a negated one ("that wasn't wrong").
func Retractions(res Result) []Retraction {
	var out []Retraction
	stating := map[int]bool{}
	for _, st := range res.Statements {
		stating[st.Index] = true // it gives the new value: a correction, not a retraction
	}
	for _, s := range res.Sentences {
		switch s.Reason {
		case "", ReasonRequest, ReasonNoRule:
		default:
			continue
		}
		if stating[s.Index] {
			continue
		}
		low := strings.TrimSpace(fold(s.Text))
		if strings.Contains(low, "n't ") || strings.Contains(low, " not wrong") || strings.HasPrefix(low, "if ") {
			continue
		}
		if m := retractBare.FindString(low); m != "" {
			out = append(out, Retraction{Cue: strings.TrimRight(m, ".!"), Sentence: s.Text, Index: s.Index})
			continue
		}
		m := retractAbout.FindStringSubmatch(low)
		if m == nil {
			continue
		}
		var topic, ord string
		for i, name := range retractAbout.SubexpNames() {
			switch {
			case strings.HasPrefix(name, "topic") && m[i] != "":
				topic = m[i]
			case strings.HasPrefix(name, "ord") && m[i] != "":
				ord = m[i]
			}
		}
		np, ok := normNP(topic, "")
		if !ok || np.entity == "" || retractNotTopics[np.entity] {
			continue
		}
		out = append(out, Retraction{
			Topic: np.entity, First: ord == "first" || ord == "original" || ord == "initial",
			Cue: strings.TrimRight(m[0], ".!"), Sentence: s.Text, Index: s.Index,
		})
	}
	return out
}
