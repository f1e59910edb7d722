package contextasm

import (
	"context"
	"testing"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// pipelineWorld is an in-memory Badger store with a write pipeline and a
// verified caller (org-a's alice, a master agent with manager authority),
// for the package's internal tests, which cannot start a server (the
// server imports this package).
type pipelineWorld struct {
	st     *store.Store
	clock  *temporal.Manual
	pl     *pipeline.Pipeline
	caller authority.Identity
	p      tenancy.Partition
}

func newPipelineWorld(t *testing.T, ix *search.Index) *pipelineWorld {
	t.Helper()
	st := storetest.Open(t)
	clock := temporal.NewManual(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	order := authority.MustDefaultOrder()
	pl := pipeline.New(pipeline.Options{Store: st, Clock: clock, Facts: facts.NewService(st, clock, order), Index: ix})
	id, p := storetest.Verified(t, authority.Identity{Org: "org-a", UserID: "alice", Authority: "manager", Kind: authority.KindAgent, AgentLevel: authority.AgentMaster})
	return &pipelineWorld{st: st, clock: clock, pl: pl, caller: id, p: p}
}

// write writes in through the pipeline, a second after the last write.
func (w *pipelineWorld) write(t *testing.T, in facts.WriteInput) {
	t.Helper()
	w.update(t, "write "+in.Key, func(tx *store.Txn) error { _, err := w.pl.WriteTx(tx, w.caller, in); return err })
}

// update runs fn in one transaction of the caller's partition, a second
// after the last one.
func (w *pipelineWorld) update(t *testing.T, what string, fn func(tx *store.Txn) error) {
	t.Helper()
	w.clock.Advance(time.Second)
	if err := w.st.Update(context.Background(), w.p, fn); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// gatherBoth gathers q with a remembering source and a fresh one in one
// view of the world's partition, at the world's clock.
func (w *pipelineWorld) gatherBoth(t *testing.T, remembering, fresh *FactSource, q Query) (got, want Candidates) {
	t.Helper()
	err := w.st.View(context.Background(), w.p, func(tx *store.Txn) error {
		q.Now = w.clock.Now()
		var err error
		if got, err = remembering.Gather(tx, q); err != nil {
			return err
		}
		want, err = fresh.Gather(tx, q)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, want
}
