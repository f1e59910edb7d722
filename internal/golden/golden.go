// Package golden compares a test's text output with a file under the
// test package's testdata/ directory; `go test -update` rewrites the file.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag of every test binary that imports golden.
var Update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Check compares got with testdata/name, writing it first under -update.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *Update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file %s (run go test with -update to create it): %v", path, err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test with -update after checking it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
