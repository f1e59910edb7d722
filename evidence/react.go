package evidence

import (
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/store"
)

// Retirer is the write pipeline's reactor that retires evidence: when a
// written fact supersedes one that was extracted from a sentence
// (facts.Source names its turn and sentence), that sentence is retired as
// of the new fact's transaction time, so a superseded value is not
// offered again as something said.
type Retirer struct{}

var _ pipeline.Reactor = Retirer{}

// FactWritten implements pipeline.Reactor.
func (Retirer) FactWritten(tx *store.Txn, _ authority.Identity, f facts.Fact, _ []facts.Fact) error {
	if f.Supersedes == "" {
		return nil
	}
	sp, err := facts.SpaceOf(tx.Partition(), f.MemoryType)
	if err != nil {
		return nil // not a space of this caller: nothing of theirs to retire
	}
	old, ok, err := facts.LoadTx(tx, sp, f.Supersedes)
	if err != nil || !ok {
		return err
	}
	if old.Source.Turn == "" || old.Source.Sentence == nil {
		return nil
	}
	return RetireSentenceTx(tx, old.Source.Turn, *old.Source.Sentence, f.ID, f.RecordedAt)
}
