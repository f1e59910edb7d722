package contextasm_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/contextasm"
)

// TestAssembleConcurrent assembles contexts of several callers and queries
// from several goroutines at once, each many times, and compares each
// with the context assembled alone: an assembly reuses working memory of
// earlier ones (its sources' candidates, what Relate keeps, Build's
// lines), which no two assemblies may share and none may see the rest of.
func TestAssembleConcurrent(t *testing.T) {
	w := newOrderWorld(t)
	s := w.service(t, []string{"environment", "facts", "working", "assertions", "evidence"}, nil)
	type request struct {
		ctx context.Context
		in  contextasm.Input
	}
	var reqs []request
	for _, caller := range []string{"alice", "cfo", "intern"} {
		ctx := authority.NewContext(context.Background(), w.callers[caller])
		for _, in := range []contextasm.Input{
			{Query: "When is the launch? Tuesday?", Budget: 600, SessionID: "s1"},
			{Query: "Is the Q3 budget approved? remaining budget", Budget: 400, SessionID: "s1"},
			{Query: "room vendor launch", Budget: 150, SessionID: "s2"},
			{Query: "launch budget vendor salary", Budget: 5000, SessionID: "s1"},
		} {
			reqs = append(reqs, request{ctx, in})
		}
	}
	assemble := func(r request) (string, error) {
		out, err := s.Assemble(r.ctx, r.in)
		if err != nil {
			return "", err
		}
		b, err := json.Marshal(out)
		return string(b), err
	}
	want := make([]string, len(reqs))
	for i, r := range reqs {
		var err error
		if want[i], err = assemble(r); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(reqs))
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 5 * len(reqs) {
				i := (g + k) % len(reqs) // the goroutines ask different requests at once
				got, err := assemble(reqs[i])
				if err != nil || got != want[i] {
					errs <- got
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for got := range errs {
		t.Errorf("a concurrent assembly differs from the same one alone:\n%s", got)
	}
}
