package contextasm

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
)

// DefaultWorkingTurns is how many of a session's latest turns are
// candidates for verbatim replay when WorkingSource.Turns is not set;
// older turns reach a context as evidence (EvidenceSource), sentence by
// sentence.
const DefaultWorkingTurns = 8

// minStaleValue is the shortest superseded value a turn is matched on;
// shorter ones ("no", "5") would match too much.
const minStaleValue = 3

// WorkingSource gathers the session's working set (layer 3): its live
// items, its expired ones (excluded as EXPIRED), and its recent turns with
// what the view knows of them. Relate decides which turns are replayed.
type WorkingSource struct {
	// Turns is how many of the latest turns are candidates;
	// DefaultWorkingTurns when not positive.
	Turns int
}

// Gather implements Source.
func (ws WorkingSource) Gather(tx *store.Txn, q Query) (Candidates, error) {
	var c Candidates
	if q.SessionID == "" {
		return c, nil
	}
	live, expired, err := session.ItemsTx(tx, q.SessionID, q.View, q.Now)
	if err != nil {
		return c, err
	}
	c.Items = make([]ItemCandidate, 0, len(live))
	for _, it := range live {
		c.Items = append(c.Items, ItemCandidate{Item: assemble.WorkItem{
			ID: it.ID, Key: it.Key, Value: it.Value, ItemType: assemble.ItemType(it.ItemType),
			Scope: assemble.Scope(it.Scope), Priority: it.Priority, At: it.RecordedAt,
		}})
	}
	for _, it := range expired {
		c.Excluded = append(c.Excluded, assemble.Exclusion{ID: it.ID, Kind: assemble.KindWorkItem, Reason: assemble.ReasonExpired})
	}
	turns, err := session.TurnsTx(tx, q.SessionID, q.View, cmp.Or(max(ws.Turns, 0), DefaultWorkingTurns))
	if err != nil {
		return c, err
	}
	c.Turns = make([]TurnCandidate, 0, len(turns))
	for _, t := range turns {
		c.Turns = append(c.Turns, TurnCandidate{
			Turn:    assemble.Turn{ID: t.ID, Speaker: string(t.Speaker), Text: t.Replay(), At: t.At},
			Said:    t.Text,
			Scope:   assemble.Scope(t.Scope),
			Expired: t.Expired(q.Now), Superseded: t.SupersededIn(q.View),
		})
	}
	return c, nil
}

// Conversation markers of an interruption and of the return from it.
var (
	reAsideStart = regexp.MustCompile(`(?i)\b(?:just exploratory|purely hypothetical|hypothetically speaking|for the sake of argument|thought experiment)\b|^\W*(?:hold on|hang on|wait a (?:sec|second|moment)|one (?:sec|second|moment)|quick (?:interruption|aside|detour)|sorry to interrupt|side ?note|sidebar|switching gears|before (?:we|i) (?:continue|forget)|urgent(?: interruption)?\s*[:-])\b`)
	reAsideEnd   = regexp.MustCompile(`(?i)\b(?:enough \w+(?: \w+){0,3} for now|let's talk about (?:the )?real|back to|returning to|return to|resuming|continuing (?:with|the|our)?|where were we|as i was saying)\b`)
)

// Asides marks the turns (their texts, oldest first) of closed
// interruptions and explorations: from a turn opening one ("Hold on - ...",
// "This is just exploratory") up to, not including, the turn returning
// from it ("Back to the PR review", "that's enough estimation for now").
// They belong to the interruption, not to the resumed topic, so they are
// not replayed; an interruption still open is the current topic and stays.
func Asides(turns []string) []bool {
	out := make([]bool, len(turns))
	start := -1
	for i, t := range turns {
		switch {
		case start < 0 && asideStartMemo.Get(t):
			start = i
		case start >= 0 && asideEndMemo.Get(t):
			for j := start; j < i; j++ {
				out[j] = true
			}
			start = -1
		}
	}
	return out
}

// states reports whether a turn's text states a retired value: it
// contains the whole value, or one of the value's distinctive values
// (amounts, percentages, dates, times, names) that the value replacing it
// does not carry. A turn stating old and new values together ("it was X,
// it is now Y") goes too: the fact carries the new value, and so does a
// turn telling the history of a current value (detect.Narrates). So does a
// turn repeating the old value after it was replaced (mentioning it again
// does not bring it back), unless a current fact holds that value again:
// stale holds only values no current fact holds again (staleValues).
func states(text string, stale staleSet, current []string) bool {
	if narrates(text, current) {
		return true
	}
	return stale.n > 0 && stale.phrases.in(strings.ToLower(text))
}

// narrates reports whether text tells the history of a current value:
// the fact holds the final value; the turn its history.
func narrates(text string, current []string) bool {
	return detect.NarratesAny(text, current)
}

// staleValue is a retired value as states matches it, prepared once per
// assembly rather than once per turn and sentence: trimmed and lowered.
type staleValue struct {
	// whole is the value, when it is long enough to match on
	// (minStaleValue); else "".
	whole string
	// distinct are the value's distinctive values that the value
	// replacing it does not carry (and long enough, or numeric).
	distinct []string
}

// staleSet is what states matches a text against: the phrases of n
// stale values (whole values and distinctive values), indexed.
type staleSet struct {
	n       int
	phrases phrases
}

// staleValues returns the retired values that no current fact holds
// again, the same for every turn and sentence, prepared for states, which
// is asked only of texts (the request's turns and sentences; more texts
// are harmless, fewer are not): a value none of whose phrases can occur
// in any of them (one of its words is in none: wordSet) is left out first,
// as it changes no answer of states, and is not checked against the
// current values. The word filters are made of each text's and value's
// remembered word hashes (wordHashes).
func staleValues(retired []Retired, current, texts []string) staleSet {
	said := wordSetOf(texts)
	// The filter of the current values' words, made for the first value
	// a text can state, and the current values joined by a byte no value
	// to look for holds and no word contains: a value is in the joined
	// text, at word boundaries, exactly when it is in one of them
	// (mentionsLower); lowered only when a value passes the filter.
	var words wordSet
	filtered := false
	var joined string
	lowered := false
	join := func() string {
		if !lowered {
			joined, lowered = strings.ToLower(strings.Join(current, "\x00")), true
		}
		return joined
	}
	var out []staleValue
	for _, r := range retired {
		v := strings.TrimSpace(r.Value)
		var sv staleValue
		if len(v) >= minStaleValue {
			sv.whole = strings.ToLower(v)
		}
		for _, d := range only(distinctive(v), r.New) {
			if len(d) >= minStaleValue || strings.ContainsAny(d, "0123456789") {
				if p := strings.ToLower(strings.TrimSpace(d)); p != "" {
					sv.distinct = append(sv.distinct, p)
				}
			}
		}
		if (sv.whole == "" || said.lacks(sv.whole)) && !slices.ContainsFunc(sv.distinct, func(p string) bool { return !said.lacks(p) }) {
			continue // no text can state it
		}
		if !filtered {
			words, filtered = wordSetOf(current), true
		}
		if heldAgain(v, current, join, &words) {
			continue
		}
		out = append(out, sv)
	}
	var ps []string
	for _, sv := range out {
		if sv.whole != "" {
			ps = append(ps, sv.whole)
		}
		ps = append(ps, sv.distinct...)
	}
	return staleSet{n: len(out), phrases: newPhrases(ps)}
}

// heldAgain reports whether one of current mentions v (detect.Mentions);
// joined returns current lowered and joined by NUL bytes, words is its
// wordSet.
func heldAgain(v string, current []string, joined func() string, words *wordSet) bool {
	if v == "" {
		return false
	}
	if strings.IndexByte(v, 0) >= 0 {
		// It could match across two values joined: ask each.
		return slices.ContainsFunc(current, func(c string) bool { return detect.Mentions(c, v) })
	}
	lv := strings.ToLower(v)
	return !words.lacks(lv) && mentionsLower(joined(), lv)
}

// mentionsLower is detect.Mentions(text, phrase) for text lowered and
// phrase trimmed, lowered and not empty (strings.ToLower,
// strings.TrimSpace), so that a text matched against many phrases, or a
// phrase against many texts, is lowered once: phrase occurs in text where
// neither of its ends, if a letter, digit or underscore, continues a
// word. FuzzMentionsLower checks it against detect.Mentions.
func mentionsLower(text, phrase string) bool {
	first, _ := utf8.DecodeRuneInString(phrase)
	last, _ := utf8.DecodeLastRuneInString(phrase)
	for from := 0; from <= len(text)-len(phrase); {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+len(phrase):])
		if (!isWordRune(first) || i == 0 || !isWordRune(before)) &&
			(!isWordRune(last) || i+len(phrase) == len(text) || !isWordRune(after)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		from = i + size
	}
	return false
}

func isWordRune(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// asciiWord holds isWordRune of the ASCII runes: letters, digits and '_'.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for r := range t {
		t[r] = r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return t
}()

// only returns the values not mentioned in other.
func only(vals []string, other string) []string {
	var out []string
	for _, v := range vals {
		if !detect.Mentions(other, v) {
			out = append(out, v)
		}
	}
	return out
}
