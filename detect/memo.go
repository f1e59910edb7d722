package detect

import (
	"slices"

	"github.com/stategraph/stategraph/internal/memo"
)

// Memoized analyses. Assembly asks about the same turn texts and fact
// values again and again (every turn against every retired value, at
// every query), and each answer runs a dozen regular expressions; the
// answers depend only on the text, so they are kept in bounded caches
// (16,384 texts of up to 2,048 bytes each).
var memoLimits = memo.Limits{Entries: 1 << 14, Key: 2048}

func newMemo[V any](f func(string) V) *memo.Memo[V] { return memo.New(f, memoLimits) }

var (
	valuesMemo  = newMemo(scanValues)
	historyMemo = newMemo(func(s string) bool { return reHistory.MatchString(s) })
	termsMemo   = newMemo(scanTerms)
	// pastViews are the views of earlier turns: every recorded turn that
	// supersedes no fact reads the session's latest turns again
	// (matchTurns), each through a dozen regular expressions per
	// sentence. Fewer of them are kept: a view holds its text's words.
	pastViews = memo.New(view, memo.Limits{Entries: memoLimits.Entries >> 2, Key: memoLimits.Key})
	// recordValuesMemo and recordChoices read a record's value as
	// matchRecord does for every record on every turn: its values and its
	// normalized choice.
	recordValuesMemo = newMemo(func(val string) []value {
		vs := scanRecordValues(val)
		return vs[:len(vs):len(vs)] // a caller's append copies
	})
	recordChoices = newMemo(normChoice)
	// trimmedMemo is trimLead(trimTail(s)) of a replacement: every
	// candidate record of a turn takes its replacement from the same few
	// phrases of the turn (most often its whole active text).
	trimmedMemo = newMemo(func(s string) string { return trimLead(trimTail(s)) })
)

// trimmed is trimLead(trimTail(s)), memoized.
func trimmed(s string) string { return trimmedMemo.Get(s) }

// pastView is view, memoized; the view is shared: callers never write
// into it.
func pastView(text string) *turnView { return pastViews.Get(text) }

// extractValues is scanValues, memoized; the slice is the caller's to
// change.
func extractValues(s string) []value { return slices.Clone(valuesMemo.Get(s)) }

// narratesHistory reports whether text matches reHistory, memoized.
func narratesHistory(text string) bool { return historyMemo.Get(text) }
