package statebench

import (
	"strings"
)

// TranscriptReplay scores the baseline the service replaces: plain
// transcript replay. The context of a query is everything recorded before
// it, one line per record and newest last (the initial facts and working
// set, then every turn as "speaker: text" and every write as "key: value"),
// cut from the oldest end so that it fits in budget tokens as measured by
// count. It needs no server; the same timelines and budget give the same
// report.
func TranscriptReplay(timelines []Timeline, budget int, count func(string) int) Report {
	var tally Tally
	for _, tl := range timelines {
		var lines []string
		for _, f := range tl.InitialState.PersistentFacts {
			if f.Valid() {
				lines = append(lines, f.Key+": "+string(f.Value))
			}
		}
		for _, w := range tl.InitialState.WorkingSet {
			lines = append(lines, string(w.Content))
		}
		for _, e := range tl.Events {
			switch e.Kind {
			case KindTurn:
				lines = append(lines, string(e.Speaker)+": "+string(e.Text))
			case KindStateWrite, KindSupersession:
				for _, w := range e.Writes {
					lines = append(lines, w.Key+": "+string(w.Value))
				}
			case KindQuery:
				ctx, tokens := newestWithin(lines, budget, count)
				tally.Add(tl.Track, Score(ctx, e.GroundTruth), tokens)
			}
		}
	}
	return tally.Report()
}

// newestWithin joins the newest lines that fit in budget tokens, oldest
// first, and returns the text and its token count.
func newestWithin(lines []string, budget int, count func(string) int) (string, int) {
	used, from := 0, len(lines)
	for from > 0 {
		n := count(lines[from-1] + "\n")
		if used+n > budget {
			break
		}
		used += n
		from--
	}
	return strings.Join(lines[from:], "\n"), used
}
