package explorer

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

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
