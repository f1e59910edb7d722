package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stategraph/stategraph/statebench"
)

// TestStatebenchGenerate runs the generator flags: each writes timelines
// the runner can load, and the same seed gives the same bytes.
func TestStatebenchGenerate(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		want  int
		track string
	}{
		{"long", []string{"--generate-long", "1", "--seed", "3"}, 1, statebench.TrackLongConversation},
		{"short", []string{"--generate-short", "4", "--seed", "3"}, 4, statebench.TrackShortConversation},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gen := func() []byte {
				var stdout, stderr bytes.Buffer
				if err := run(context.Background(), append([]string{"statebench"}, tc.args...), func(string) string { return "" }, &stdout, &stderr); err != nil {
					t.Fatalf("statebench %v: %v\n%s", tc.args, err, stderr.String())
				}
				return stdout.Bytes()
			}
			first := gen()
			tls, err := statebench.Load(bytes.NewReader(first))
			if err != nil {
				t.Fatal(err)
			}
			if len(tls) != tc.want {
				t.Fatalf("got %d timelines, want %d", len(tls), tc.want)
			}
			for _, tl := range tls {
				if tl.Track != tc.track {
					t.Errorf("%s: track %q, want %q", tl.ID, tl.Track, tc.track)
				}
			}
			if again := gen(); !bytes.Equal(first, again) {
				t.Error("the same seed gave different output")
			}
		})
	}
}
