package documents

import (
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat("word ", ChunkWords+5))
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"one paragraph", "Hello there.", []string{"Hello there."}},
		{"paragraphs packed together", "One.\n\nTwo.\r\n\r\nThree.", []string{"One.\n\nTwo.\n\nThree."}},
		{"blank paragraphs skipped", "\n\n  \n\nOne.\n\n\n\n", []string{"One."}},
		{"a long paragraph cut between words", "Intro.\n\n" + long, []string{"Intro.", strings.TrimSpace(strings.Repeat("word ", ChunkWords)), "word word word word word"}},
		{"nothing", "  ", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(tc.text)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Errorf("Split = %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzPostingKey: every posting key of a chunk decodes back to its
// document, chunk, frequency and length.
func FuzzPostingKey(f *testing.F) {
	f.Add("handbook", 0, "Hotel stays are capped at 250 dollars a night.")
	f.Add("a", 65535, "")
	f.Add("doc#1", 7, "ünïcode wörds wörds")
	f.Fuzz(func(t *testing.T, id string, i int, text string) {
		if id == "" || len(id) > 128 || i < 0 || i > 1<<16-1 {
			return
		}
		for _, k := range postingKeys(id, i, text) {
			// Skip the term seg.
			n := int(k[0])<<8 | int(k[1])
			p, err := parsePosting(k[2+n:])
			if err != nil {
				t.Fatalf("parse %x: %v", k, err)
			}
			if p.doc != id || p.chunk != i {
				t.Fatalf("decoded %+v, want document %q chunk %d", p, id, i)
			}
		}
		if _, err := parsePosting([]byte(text)); err == nil && len(text) < 9 {
			t.Fatalf("parsed a posting from %q", text)
		}
	})
}
