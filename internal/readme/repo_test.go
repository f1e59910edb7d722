package readme_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelfContained fails when a document or Go file refers to a path
// outside the repository, or a test skips instead of failing, and when a
// file a newcomer needs is missing.
func TestSelfContained(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// Spelled in pieces so that this file does not match itself.
	outside := []string{".." + "/shared", "/" + "work/"}
	skip := []string{"t." + "Skip(", "t." + "Skipf(", "t." + "SkipNow("}

	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case ".git", "bin", "data":
				return filepath.SkipDir
			}
			return nil
		}
		isGo, isDoc := strings.HasSuffix(rel, ".go"), strings.HasSuffix(rel, ".md")
		if !isGo && !isDoc {
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(raw)
		for _, s := range outside {
			if strings.Contains(text, s) {
				t.Errorf("%s refers to %q, a path outside the repository", rel, s)
			}
		}
		if strings.HasSuffix(rel, "_test.go") {
			for _, s := range skip {
				if strings.Contains(text, s) {
					t.Errorf("%s calls %s...): a test that cannot run must fail, not skip", rel, s)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk the repository: %v", err)
	}

	for _, name := range []string{
		"README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md",
		"docs/architecture.md", "docs/graphql.md",
		"testdata/statebench/LICENSE", "testdata/statebench/dev.jsonl", "testdata/statebench/train.jsonl",
	} {
		if _, err := os.Stat(filepath.Join(root, name)); err != nil {
			t.Errorf("the repository needs %s: %v", name, err)
		}
	}
}
