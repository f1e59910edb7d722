package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stategraph/stategraph/statebench"
)

// BenchmarkScalingReplay replays the scaling timeline (N fact writes, every
// tenth a supersession, N/10 turns, 20 queries; seed 1) end to end through
// `stategraph statebench`, loopback server included. One op is one replay:
// run with -benchtime 1x -count 5 and take the median.
func BenchmarkScalingReplay(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "scaling.jsonl")
			var buf bytes.Buffer
			if err := statebench.Scaling(&buf, n, 1); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				var stderr bytes.Buffer
				err := run(context.Background(), []string{"statebench", "--data", path}, func(string) string { return "" }, io.Discard, &stderr)
				if err != nil {
					b.Fatalf("%v\n%s", err, stderr.String())
				}
			}
		})
	}
}
