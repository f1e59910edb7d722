package search_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

func BenchmarkPostingsNewest(b *testing.B) {
	st, ix, _, p := pipelineWorld(b)
	ctx := caller(b)
	part, _ := tenancy.FromContext(ctx)
	for s := 0; s < 4000; s += 1000 {
		var ins []facts.WriteInput
		for i := s; i < s+1000; i++ {
			ins = append(ins, facts.WriteInput{Key: fmt.Sprintf("project_%d.owner", i), Value: json.RawMessage(fmt.Sprintf(`"Person %d"`, i%9)), MemoryType: facts.MemoryOrganizational})
		}
		if _, err := p.WriteBatch(ctx, ins); err != nil {
			b.Fatal(err)
		}
	}
	sp := part.Shared()
	for _, hint := range []string{"on", "off"} {
		b.Run("hint="+hint, func(b *testing.B) {
			b.ReportAllocs()
			read := func() {
				if err := st.View(ctx, part, func(tx *store.Txn) error {
					n := 0
					return ix.Postings(tx, sp, "owner", temporal.View{}, 50, func(search.Posting) bool { n++; return true })
				}); err != nil {
					b.Fatal(err)
				}
			}
			for range b.N {
				if hint == "off" {
					search.WithoutNewest(read)
				} else {
					read()
				}
			}
		})
	}
}
