package evidence

import (
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/store"
)

// Retirer keeps evidence in step with the facts extracted from it
// (facts.Source names their turn and sentence). As the write pipeline's
// reactor, when a written fact supersedes such a fact, it retires the
// sentence as of the new fact's transaction time, so a superseded value
// is not offered again as something said. As an eraser, when such a fact
// is forgotten, it erases the sentence.
type Retirer struct{}

var (
	_ pipeline.Reactor = Retirer{}
	_ pipeline.Eraser  = Retirer{}
)

// FactWritten implements pipeline.Reactor.
func (Retirer) FactWritten(tx *store.Txn, _ authority.Identity, f facts.Fact, _ []facts.Fact) error {
	if f.Supersedes == "" {
		return nil
	}
	sp, err := facts.SpaceOf(tx.Partition(), f.MemoryType)
	if err != nil {
		return nil // not a space of this caller: nothing of theirs to retire
	}
	src, ok, err := facts.SourceTx(tx, sp, f.Supersedes)
	if err != nil || !ok {
		return err
	}
	if src.Turn == "" || src.Sentence == nil {
		return nil
	}
	return RetireSentenceTx(tx, src.Turn, *src.Sentence, f.ID, f.RecordedAt)
}

// FactForgotten implements pipeline.Eraser.
func (Retirer) FactForgotten(tx *store.Txn, before facts.Fact) error {
	if before.Source.Turn == "" || before.Source.Sentence == nil {
		return nil
	}
	return EraseSentenceTx(tx, before.Source.Turn, *before.Source.Sentence)
}
