package statebench

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/tokens"
)

var update = flag.Bool("update", false, "rewrite testdata/longconv/long.jsonl and short.jsonl from the generator")

// longConvDir holds our own conversations: generated, not from StateBench.
const longConvDir = "../testdata/longconv"

// Committed sizes: long.jsonl holds the first LongCommitted of the
// LongSet conversations (the rest would push the file past 10 MB; the
// harness generates them).
const (
	LongSet       = 20
	LongCommitted = 10
	ShortSet      = 30
	convSeed      = 1
)

// TestGeneratedFilesMatchGenerator regenerates the committed files: they
// are exactly the generator's output (run with -update to rewrite them).
func TestGeneratedFilesMatchGenerator(t *testing.T) {
	for _, tc := range []struct {
		file string
		gen  func(*bytes.Buffer) error
	}{
		{"long.jsonl", func(b *bytes.Buffer) error { return Long(b, LongCommitted, convSeed) }},
		{"short.jsonl", func(b *bytes.Buffer) error { return Short(b, ShortSet, convSeed) }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.gen(&b); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(longConvDir, tc.file)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from the generator's output (%d bytes, want %d): run go test ./statebench -run GeneratedFiles -update", tc.file, b.Len(), len(want))
			}
			if len(want) > 10<<20 {
				t.Errorf("%s is %d bytes, over 10 MB", tc.file, len(want))
			}
		})
	}
}

// TestLongIsAPrefix: more conversations of the same seed begin with the
// same conversations, so the committed file is the start of the full set.
func TestLongIsAPrefix(t *testing.T) {
	var few, more bytes.Buffer
	if err := Long(&few, 1, 7); err != nil {
		t.Fatal(err)
	}
	if err := Long(&more, 2, 7); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(more.Bytes(), few.Bytes()) {
		t.Error("Long(2) does not begin with Long(1)")
	}
}

// TestGeneratedConversationsShape checks what the harness relies on: the
// sizes the issue asks for, no two conversations alike, and ground truth
// that the conversation supports (every required phrase was said by the
// user, every forbidden one was said and later replaced).
func TestGeneratedConversationsShape(t *testing.T) {
	counter, err := tokens.New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file               string
		minTurns, maxTurns int
		minTok, maxTok     int
	}{
		{"long.jsonl", 240, 260, 85_000, 125_000},
		{"short.jsonl", 5, 20, 40, 2_000},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			tls, err := LoadFile(filepath.Join(longConvDir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]string{}
			for i, tl := range tls {
				// Tokenizing takes long under -race: count the first
				// three timelines there.
				countTokens := !RaceEnabled || i < 3
				var said []string // user turns and written values
				var all strings.Builder
				for _, f := range tl.InitialState.PersistentFacts {
					said = append(said, string(f.Value))
				}
				turns, toks, queries := 0, 0, 0
				for _, e := range tl.Events {
					switch e.Kind {
					case KindTurn:
						turns++
						if countTokens {
							toks += counter.Count(string(e.Text))
						}
						if e.Speaker == "user" {
							said = append(said, string(e.Text))
						}
						all.WriteString(string(e.Text) + "\n")
					case KindStateWrite, KindSupersession:
						for _, w := range e.Writes {
							said = append(said, string(w.Value))
						}
					case KindQuery:
						queries++
						said := strings.Join(said, "\n")
						for _, p := range e.GroundTruth.MustMention {
							if !Contains(said, string(p)) {
								t.Errorf("%s %q: required %q was never said", tl.ID, e.Prompt, p)
							}
						}
						for _, p := range e.GroundTruth.MustNotMention {
							if !Contains(said, string(p)) {
								t.Errorf("%s %q: forbidden %q was never said", tl.ID, e.Prompt, p)
							}
							for _, m := range e.GroundTruth.MustMention {
								if Contains(string(m), string(p)) {
									t.Errorf("%s: forbidden %q is inside required %q", tl.ID, p, m)
								}
							}
						}
					}
				}
				if other, dup := seen[all.String()]; dup {
					t.Errorf("%s says the same as %s", tl.ID, other)
				}
				seen[all.String()] = tl.ID
				if turns < tc.minTurns || turns > tc.maxTurns {
					t.Errorf("%s: %d turns, want %d..%d", tl.ID, turns, tc.minTurns, tc.maxTurns)
				}
				if countTokens && (toks < tc.minTok || toks > tc.maxTok) {
					t.Errorf("%s: %d tokens, want %d..%d", tl.ID, toks, tc.minTok, tc.maxTok)
				}
				if queries == 0 {
					t.Errorf("%s has no query", tl.ID)
				}
			}
		})
	}
}
