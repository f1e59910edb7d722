package explorer

import (
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestPageGolden compares the page (its asset version blanked, so that an
// edit of app.js alone does not change it) with testdata/page.golden.
func TestPageGolden(t *testing.T) {
	w := httptest.NewRecorder()
	Handler(Options{Endpoint: "/graphql", DevToken: "demo-token"}).ServeHTTP(w, httptest.NewRequest(http.MethodGet, Path, nil))
	got := regexp.MustCompile(`\?v=[0-9a-f]+`).ReplaceAllString(w.Body.String(), "?v=VERSION")
	path := filepath.Join("testdata", "page.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./explorer -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("the page differs from %s (go test ./explorer -update rewrites it):\n%s", path, got)
	}
}

// TestHandler checks the page, its assets and what it refuses.
func TestHandler(t *testing.T) {
	h := Handler(Options{Endpoint: "/graphql", DevToken: "dev.</script>.tok"})
	cases := []struct {
		name, method, path string
		status             int
		contentType        string
		contains           []string
		absent             []string
	}{
		{"page", http.MethodGet, "/explorer/", 200, "text/html; charset=utf-8",
			[]string{`<script id="explorer-config" type="application/json">`, `"endpoint":"/graphql"`, `"devToken":"dev.\u003c/script\u003e.tok"`, `src="/explorer/app.js?v=`},
			[]string{"dev.</script>"}},
		{"script", http.MethodGet, "/explorer/app.js", 200, "text/javascript; charset=utf-8", []string{"graphql-transport-ws", "sessionStorage"}, nil},
		{"style", http.MethodGet, "/explorer/app.css", 200, "text/css; charset=utf-8", []string{"svg"}, nil},
		{"unknown", http.MethodGet, "/explorer/nope.js", 404, "", nil, nil},
		{"post", http.MethodPost, "/explorer/", 405, "", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(tc.method, tc.path, nil))
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d", w.Code, tc.status)
			}
			if tc.contentType != "" && w.Header().Get("Content-Type") != tc.contentType {
				t.Errorf("Content-Type %q, want %q", w.Header().Get("Content-Type"), tc.contentType)
			}
			body := w.Body.String()
			for _, s := range tc.contains {
				if !strings.Contains(body, s) {
					t.Errorf("body lacks %q", s)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(body, s) {
					t.Errorf("body contains %q", s)
				}
			}
		})
	}
}

// TestPageWithoutDevToken checks that a production page carries no token
// and forbids inline scripts and foreign origins.
func TestPageWithoutDevToken(t *testing.T) {
	w := httptest.NewRecorder()
	Handler(Options{}).ServeHTTP(w, httptest.NewRequest(http.MethodGet, Path, nil))
	if strings.Contains(w.Body.String(), "devToken") {
		t.Errorf("page without a dev token mentions devToken: %s", w.Body)
	}
	csp := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
}

// TestAssetETag checks that an asset answers its ETag with 304.
func TestAssetETag(t *testing.T) {
	h := Handler(Options{})
	for name, a := range loadAssets() {
		t.Run(name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, Path+name, nil)
			r.Header.Set("If-None-Match", a.etag)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusNotModified {
				t.Errorf("status %d, want 304", w.Code)
			}
		})
	}
}
