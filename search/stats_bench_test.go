package search_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/lexical"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// BenchmarkStatsAfterWrite measures what a recorded turn pays for the
// statistics of its words in a space of 10,000 facts (2,000 projects with
// an owner, a budget, a deadline, a location and a status each) when the
// turn before it wrote a fact: each iteration supersedes one project's
// owner (Person n becomes Dana n), then reads the current statistics of a
// turn's words, common ones ("project", "owner") among them.
func BenchmarkStatsAfterWrite(b *testing.B) {
	st, ix, clock, p := pipelineWorld(b)
	ctx := caller(b)
	part, err := tenancy.FromContext(ctx)
	if err != nil {
		b.Fatal(err)
	}
	attrs := []struct{ key, value string }{
		{"owner", "Person %d"}, {"budget", "$%d000"}, {"deadline", "2027-0%d-15"},
		{"location", "Office %d"}, {"status", "phase %d"},
	}
	const n, batch = 10_000, 1_000
	for start := 0; start < n; start += batch {
		var ins []facts.WriteInput
		for i := start; i < start+batch; i++ {
			a, pr := attrs[i%len(attrs)], i/len(attrs)
			ins = append(ins, facts.WriteInput{
				Key: fmt.Sprintf("project_%d.%s", pr, a.key), Value: json.RawMessage(fmt.Sprintf("%q", fmt.Sprintf(a.value, 1+pr%9))),
				MemoryType: facts.MemoryOrganizational,
			})
		}
		if _, err := p.WriteBatch(ctx, ins); err != nil {
			b.Fatal(err)
		}
	}
	terms := lexical.Terms("Actually, Dana Reyes owns project 17 now and the budget is $45k")
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		clock.Advance(time.Second)
		key := fmt.Sprintf("project_%d.owner", (i*37)%(n/len(attrs)))
		if _, err := p.Write(ctx, facts.WriteInput{Key: key, Value: json.RawMessage(fmt.Sprintf(`"Dana %d"`, i)), Supersedes: key, MemoryType: facts.MemoryOrganizational}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		err := st.View(ctx, part, func(tx *store.Txn) error {
			_, err := ix.Stats(tx, part.Spaces(), terms, temporal.View{}, nil)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
