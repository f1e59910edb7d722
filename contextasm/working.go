package contextasm

import (
	"strings"

	"github.com/stategraph/stategraph/assemble"
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
	for i, it := range live {
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
	for _, t := range turns {
		switch {
		case t.Expired(q.Now):
			in.Excluded = append(in.Excluded, assemble.Exclusion{ID: t.ID, Kind: assemble.KindTurn, Reason: assemble.ReasonExpired})
		case t.Superseded || states(t, q.Retired):
			in.Excluded = append(in.Excluded, assemble.Exclusion{ID: t.ID, Kind: assemble.KindTurn, Reason: assemble.ReasonSuperseded})
		default:
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

// states reports whether turn t, recorded before a value was superseded,
// states that value.
func states(t session.Turn, retired []Retired) bool {
	text := strings.ToLower(t.Text)
	for _, r := range retired {
		v := strings.ToLower(strings.TrimSpace(r.Value))
		if len(v) >= minStaleValue && t.RecordedAt.Before(r.At) && strings.Contains(text, v) {
			return true
		}
	}
	return false
}
