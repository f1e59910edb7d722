package contextasm

import (
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/internal/memo"
	"github.com/stategraph/stategraph/lexical"
)

// Remembered judgements of texts (package detect's pure functions): every
// assembly judges the same turns, sentences and queries again. Each memo
// holds at most 1–2 MiB of keys; a text over 64 KiB is judged each time.
var (
	statementsMemo   = memo.New(detect.Statements, memo.Limits{Bytes: 2 << 20, Key: 64 << 10})
	hypotheticalMemo = memo.New(detect.AboutHypothetical, memo.Limits{Bytes: 1 << 20, Key: MaxQueryLen})
	distinctiveMemo  = memo.New(detect.Distinctive, memo.Limits{Bytes: 2 << 20, Key: 64 << 10})
	// Whether a turn opens or closes an aside (Asides).
	asideStartMemo = memo.New(reAsideStart.MatchString, memo.Limits{Bytes: 2 << 20, Key: 64 << 10})
	asideEndMemo   = memo.New(reAsideEnd.MatchString, memo.Limits{Bytes: 2 << 20, Key: 64 << 10})
	// The index terms of a text, as a set (contradicts); the map is shared.
	termSetMemo = memo.New(func(text string) map[string]bool {
		have := map[string]bool{}
		for _, t := range lexical.Terms(text) {
			have[t] = true
		}
		return have
	}, memo.Limits{Bytes: 1 << 20, Key: 64 << 10})
)

// termSet returns the set of lexical.Terms(text), remembered; the map is
// shared: callers must not modify it.
func termSet(text string) map[string]bool { return termSetMemo.Get(text) }

// statements is detect.Statements, remembered.
func statements(text string) string { return statementsMemo.Get(text) }

// aboutHypothetical is detect.AboutHypothetical, remembered.
func aboutHypothetical(query string) bool { return hypotheticalMemo.Get(query) }

// distinctive is detect.Distinctive, remembered; the slice is shared:
// callers must not modify it.
func distinctive(text string) []string { return distinctiveMemo.Get(text) }
