package evidence

import (
	"fmt"
	"testing"

	"github.com/stategraph/stategraph/tenancy"
)

// TestLiveMemoBounded: the memo holds at most maxLive postings and
// sentences, forgetting everything when full, and what it holds after is
// what was put last; a space's entries under an older epoch are dropped
// when a newer one is put; nothing is kept without an epoch.
func TestLiveMemoBounded(t *testing.T) {
	var m liveMemo
	sp := func(i int) tenancy.Space {
		p, err := tenancy.Background(fmt.Sprintf("org-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		return p.Shared()
	}
	ps := make([]posting, maxLive/8)
	for i := range 40 {
		m.putPostings(sp(i%5), "e1", fmt.Sprintf("t%d", i), ps)
		m.putSentence(sp(i%5), "e1", sentenceRef{"T", i}, Sentence{TurnID: "T", Index: i})
		if m.n > maxLive {
			t.Fatalf("after %d puts: %d entries, over %d", i+1, m.n, maxLive)
		}
		if got, ok := m.postings(sp(i%5), "e1", fmt.Sprintf("t%d", i)); !ok || len(got) != len(ps) {
			t.Fatalf("put %d: postings not kept (%d, %v)", i, len(got), ok)
		}
		if got, ok := m.sentence(sp(i%5), "e1", sentenceRef{"T", i}); !ok || got.Index != i {
			t.Fatalf("put %d: sentence not kept", i)
		}
	}
	m.putStats(sp(0), "e2", 3, 30)
	if _, ok := m.postings(sp(0), "e1", "t35"); ok {
		t.Error("postings of an older epoch answered after a newer one was put")
	}
	if d, l, ok := m.stats(sp(0), "e2"); !ok || d != 3 || l != 30 {
		t.Errorf("stats = %d, %d, %v", d, l, ok)
	}
	m.putPostings(sp(9), "", "x", ps[:1])
	m.putSentence(sp(9), "", sentenceRef{"T", 1}, Sentence{})
	m.putStats(sp(9), "", 1, 1)
	if _, ok := m.postings(sp(9), "", "x"); ok {
		t.Error("postings kept without an epoch")
	}
	if _, _, ok := m.stats(sp(9), ""); ok {
		t.Error("stats kept without an epoch")
	}
	if m.putPostings(sp(1), "e3", "big", make([]posting, maxLive/4+1)); m.n > maxLive {
		t.Errorf("%d entries after a term too large to keep", m.n)
	}
	if _, ok := m.postings(sp(1), "e3", "big"); ok {
		t.Error("a term with more than maxLive/4 postings was kept")
	}
}
