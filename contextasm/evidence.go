package contextasm

import (
	"github.com/stategraph/stategraph/assemble"
	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/store"
)

// Evidence retrieval bounds: how many sentences a request reads, per
// budget token and at most.
const (
	evidencePerToken = 1.0 / 16 // a sentence line costs about 16 tokens or more
	minEvidence      = 8
	MaxEvidence      = 256
)

// EvidenceSource gathers sentences of the caller's earlier turns, in every
// session, ranked by BM25 relevance to the query, as they hold in the
// view (retired sentences are not found). Relate drops those of turns the
// working set replays and those stating a retired value.
type EvidenceSource struct{}

// Gather implements Source.
func (EvidenceSource) Gather(tx *store.Txn, q Query) (Candidates, error) {
	var c Candidates
	if len(q.Terms) == 0 || q.Budget <= 0 {
		return c, nil
	}
	limit := min(max(int(float64(q.Budget)*evidencePerToken), minEvidence), MaxEvidence)
	hits, err := evidence.SearchTx(tx, q.Text, q.View, limit)
	if err != nil {
		return c, err
	}
	c.Evidence = make([]EvidenceCandidate, 0, len(hits))
	for _, h := range hits {
		c.Evidence = append(c.Evidence, EvidenceCandidate{
			Evidence: assemble.Evidence{ID: h.ID(), Speaker: h.Speaker, Text: h.Text, At: h.At, Score: h.Score},
			TurnID:   h.TurnID,
		})
	}
	return c, nil
}
