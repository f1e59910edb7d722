package feed_test

import (
	"fmt"
	"testing"

	"github.com/stategraph/stategraph/feed"
)

// BenchmarkPublish measures what a committed write pays to publish its
// change (under the broker's lock, in the writer's goroutine) with n
// subscribers of its organization (buffers large enough that none is
// dropped: run it with -benchtime up to 30000x).
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{0, 10, 100} {
		b.Run(fmt.Sprintf("subscribers=%d", n), func(b *testing.B) {
			br, err := feed.New(feed.Options{MaxPerOrg: 100, Buffer: 1 << 15})
			if err != nil {
				b.Fatal(err)
			}
			defer br.Close()
			for range n {
				s, err := br.Subscribe("org", feed.TopicFact, feed.HasKey("k"))
				if err != nil {
					b.Fatal(err)
				}
				go func() {
					for range s.Events() {
					}
				}()
			}
			e := feed.Event{Topic: feed.TopicFact, Org: "org", ID: "F-1", Keys: []string{"k"}}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				br.Publish(e)
			}
			b.StopTimer()
			if got := br.Subscribers("org"); got != n {
				b.Fatalf("%d of %d subscribers left: some were dropped, use a smaller -benchtime", got, n)
			}
		})
	}
}
