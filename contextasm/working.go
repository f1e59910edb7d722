package contextasm

import (
	"regexp"
	"slices"
	"strings"

	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
)

// RecentTurns is how many of a session's latest turns are candidates.
const RecentTurns = 50

// minStaleValue is the shortest superseded value a turn is matched on;
// shorter ones ("no", "5") would match too much.
const minStaleValue = 3

// WorkingSource gathers the session's working set (layer 3): its live
// items and its recent turns, scored against the query. Expired items and
// turns are excluded as EXPIRED; turns marked superseded, or recorded
// before a value they state was superseded, as SUPERSEDED: they are not
// replayed.
type WorkingSource struct {
	BM25 assemble.BM25
}

// Gather implements Source.
func (s WorkingSource) Gather(tx *store.Txn, q *Query, in *assemble.Input) error {
	if q.SessionID == "" {
		return nil
	}
	bm := s.BM25
	if bm.K1 == 0 {
		bm = assemble.DefaultBM25()
	}
	live, expired, err := session.ItemsTx(tx, q.SessionID, q.View, q.Now)
	if err != nil {
		return err
	}
	docs := make([]string, len(live))
	for i, it := range live {
		docs[i] = it.Key + " " + it.Value
	}
	scores := bm.ScoreDocs(q.Text, docs)
	real := !AboutHypothetical(q.Text)
	for i, it := range live {
		if real && !it.Scope.Real() {
			in.Excluded = append(in.Excluded, assemble.Exclusion{ID: it.ID, Kind: assemble.KindWorkItem, Reason: assemble.ReasonOutOfScope})
			continue
		}
		in.Working = append(in.Working, assemble.WorkItem{
			ID: it.ID, Key: it.Key, Value: it.Value, ItemType: assemble.ItemType(it.ItemType),
			Scope: assemble.Scope(it.Scope), Priority: it.Priority, At: it.RecordedAt, Score: scores[i],
		})
	}
	for _, it := range expired {
		in.Excluded = append(in.Excluded, assemble.Exclusion{ID: it.ID, Kind: assemble.KindWorkItem, Reason: assemble.ReasonExpired})
	}

	turns, err := session.TurnsTx(tx, q.SessionID, q.View, RecentTurns)
	if err != nil {
		return err
	}
	var keep []session.Turn
	aside := Asides(turns)
	var current []string // values that hold now (not ones flagged for recalculation)
	for _, f := range in.Facts {
		if !f.NeedsReview {
			current = append(current, f.Value)
		}
	}
	retired := stillRetired(q.Retired, current)
	for i, t := range turns {
		switch {
		case real && t.Scope != "" && !t.Scope.Real():
			in.Excluded = append(in.Excluded, assemble.Exclusion{ID: t.ID, Kind: assemble.KindTurn, Reason: assemble.ReasonOutOfScope})
		case aside[i]:
			in.Excluded = append(in.Excluded, assemble.Exclusion{ID: t.ID, Kind: assemble.KindTurn, Reason: assemble.ReasonOutOfScope})
		case t.Expired(q.Now):
			in.Excluded = append(in.Excluded, assemble.Exclusion{ID: t.ID, Kind: assemble.KindTurn, Reason: assemble.ReasonExpired})
		case t.SupersededIn(q.View) || states(t, retired, current):
			in.Excluded = append(in.Excluded, assemble.Exclusion{ID: t.ID, Kind: assemble.KindTurn, Reason: assemble.ReasonSuperseded})
		default:
			// Questions are not state: only what a turn states is replayed.
			if t.Text = detect.Statements(t.Text); t.Text == "" {
				in.Excluded = append(in.Excluded, assemble.Exclusion{ID: t.ID, Kind: assemble.KindTurn, Reason: assemble.ReasonOutOfScope})
				continue
			}
			keep = append(keep, t)
		}
	}
	docs = make([]string, len(keep))
	for i, t := range keep {
		docs[i] = t.Text
	}
	scores = bm.ScoreDocs(q.Text, docs)
	for i, t := range keep {
		in.Turns = append(in.Turns, assemble.Turn{ID: t.ID, Speaker: string(t.Speaker), Text: t.Text, At: t.At, Score: scores[i]})
	}
	return nil
}

// Conversation markers of an interruption and of the return from it.
var (
	reAsideStart = regexp.MustCompile(`(?i)\b(?:just exploratory|purely hypothetical|hypothetically speaking|for the sake of argument|thought experiment)\b|^\W*(?:hold on|hang on|wait a (?:sec|second|moment)|one (?:sec|second|moment)|quick (?:interruption|aside|detour)|sorry to interrupt|side ?note|sidebar|switching gears|before (?:we|i) (?:continue|forget)|urgent(?: interruption)?\s*[:-])\b`)
	reAsideEnd   = regexp.MustCompile(`(?i)\b(?:enough \w+(?: \w+){0,3} for now|let's talk about (?:the )?real|back to|returning to|return to|resuming|continuing (?:with|the|our)?|where were we|as i was saying)\b`)
)

// Asides marks the turns of closed interruptions and explorations: from a
// turn opening one ("Hold on - ...", "This is just exploratory") up to, not
// including, the turn returning from it ("Back to the PR review", "that's
// enough estimation for now"). They belong to the interruption, not to the
// resumed topic, so they are not replayed; an interruption still open is
// the current topic and stays.
func Asides(turns []session.Turn) []bool {
	out := make([]bool, len(turns))
	start := -1
	for i, t := range turns {
		switch {
		case start < 0 && reAsideStart.MatchString(t.Text):
			start = i
		case start >= 0 && reAsideEnd.MatchString(t.Text):
			for j := start; j < i; j++ {
				out[j] = true
			}
			start = -1
		}
	}
	return out
}

// reHypothetical finds a query about hypothetical or draft content.
var reHypothetical = regexp.MustCompile(`(?i)\b(?:hypothetical(?:ly)?|what if|suppose|supposing|scenario|imagine|draft|exploratory|estimat\w*|brainstorm\w*)\b`)

// AboutHypothetical reports whether a query asks about hypothetical or
// draft content; otherwise such content stays out of its context, labelled
// or not, since a small context should hold what is real.
func AboutHypothetical(query string) bool { return reHypothetical.MatchString(query) }

// states reports whether turn t states a retired value: it contains the
// whole value, or one of the value's distinctive values (amounts,
// percentages, dates, times, names) that the value replacing it does not
// carry. A turn stating old and new values together ("it was X, it is now
// Y") goes too: the fact carries the new value, and so does a turn telling
// the history of a current value (detect.Narrates). So does a turn repeating
// the old value after it was replaced (mentioning it again does not bring
// it back), unless a current fact holds that value again.
// retired holds only values no current fact holds again (stillRetired).
func states(t session.Turn, retired []Retired, current []string) bool {
	for _, c := range current {
		if detect.Narrates(t.Text, c) {
			return true // the fact holds the final value; the turn its history
		}
	}
	for _, r := range retired {
		v := strings.TrimSpace(r.Value)
		if len(v) >= minStaleValue && detect.Mentions(t.Text, v) {
			return true
		}
		if distinctiveOld(t.Text, v, r.New) {
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
