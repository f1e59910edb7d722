package contextasm

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

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
		case start < 0 && reAsideStart.MatchString(t):
			start = i
		case start >= 0 && reAsideEnd.MatchString(t):
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
// retired holds only values no current fact holds again (stillRetired).
func states(text string, retired []Retired, current []string) bool {
	if narrates(text, current) {
		return true
	}
	for _, r := range retired {
		v := strings.TrimSpace(r.Value)
		if len(v) >= minStaleValue && detect.Mentions(text, v) {
			return true
		}
		if distinctiveOld(text, v, r.New) {
			return true
		}
	}
	return false
}

// narrates reports whether text tells the history of a current value:
// the fact holds the final value; the turn its history.
func narrates(text string, current []string) bool {
	for _, c := range current {
		if detect.Narrates(text, c) {
			return true
		}
	}
	return false
}

// stillRetired returns the retired values that no current fact holds again,
// the same for every turn, so computed once per assembly.
func stillRetired(retired []Retired, current []string) []Retired {
	var out []Retired
	for _, r := range retired {
		v := strings.TrimSpace(r.Value)
		if !slices.ContainsFunc(current, func(c string) bool { return detect.Mentions(c, v) }) {
			out = append(out, r)
		}
	}
	return out
}

// distinctiveOld reports whether text carries a distinctive value of old
// that new lacks.
func distinctiveOld(text, old, new string) bool {
	for _, v := range only(detect.Distinctive(old), new) {
		if len(v) >= minStaleValue || strings.ContainsAny(v, "0123456789") {
			if detect.Mentions(text, v) {
				return true
			}
		}
	}
	return false
}

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
