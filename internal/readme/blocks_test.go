package readme_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReadBlocks pins how the harness reads a markdown file: fences with
// their language and first line, in order, bodies verbatim.
func TestReadBlocks(t *testing.T) {
	tests := []struct {
		name  string
		md    string
		want  []block
		serve []string
	}{
		{
			name: "languages in order",
			md: "# t\n\n```console\nmake build\nstategraph serve --dev --operator-org ops   # second terminal\n```\n" +
				"text\n```sh\nexport TOKEN=x\n```\n\n```graphql\nquery Me { me { userId } }\n```\n",
			want: []block{
				{file: "README.md", lang: "console", line: 3, body: "make build\nstategraph serve --dev --operator-org ops   # second terminal\n"},
				{file: "README.md", lang: "sh", line: 8, body: "export TOKEN=x\n"},
				{file: "README.md", lang: "graphql", line: 12, body: "query Me { me { userId } }\n"},
			},
			serve: []string{"--dev", "--operator-org", "ops"},
		},
		{
			name:  "indented fence and empty block",
			md:    "```console\nstategraph serve\n```\n  ```json\n  {}\n  ```\n```sh\n```\n",
			want:  []block{{file: "README.md", lang: "console", line: 1, body: "stategraph serve\n"}, {file: "README.md", lang: "json", line: 4, body: "  {}\n"}, {file: "README.md", lang: "sh", line: 7, body: ""}},
			serve: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "README.md")
			if err := os.WriteFile(path, []byte(tt.md), 0o644); err != nil {
				t.Fatal(err)
			}
			got := readBlocks(t, path)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("blocks:\n got %#v\nwant %#v", got, tt.want)
			}
			if args := serveArgs(t, got); !reflect.DeepEqual(args, tt.serve) {
				t.Errorf("serve args: got %q, want %q", args, tt.serve)
			}
		})
	}
}
