package graphiql

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func TestAcceptsGzip(t *testing.T) {
	cases := []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"deflate, gzip;q=1.0, *;q=0.5", true},
		{"br, gzip; q=0.3", true},
		{"gzip;q=0", false},
		{"gzip;q=0.000", false},
		{"*", true},
		{"identity", false},
		{"x-gzip2", false},
	}
	for _, tc := range cases {
		t.Run(tc.header, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.Header.Set("Accept-Encoding", tc.header)
			if got := acceptsGzip(r); got != tc.want {
				t.Errorf("acceptsGzip(%q) = %v, want %v", tc.header, got, tc.want)
			}
		})
	}
}

// TestAssets checks that every embedded asset has a content type and
// answers If-None-Match with 304.
func TestAssets(t *testing.T) {
	files := loadAssets()
	if len(files) != 5 {
		t.Fatalf("%d assets, want 5", len(files))
	}
	h := Assets()
	for name, a := range files {
		t.Run(name, func(t *testing.T) {
			if a.contentType == "" {
				t.Fatalf("no content type")
			}
			r := httptest.NewRequest(http.MethodGet, AssetPath+name, nil)
			r.Header.Set("If-None-Match", a.etag)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusNotModified {
				t.Errorf("status %d, want 304", w.Code)
			}
		})
	}
}

// TestPageEscapes checks that headers cannot break out of the page's
// configuration script, and that without headers none are prefilled.
func TestPageEscapes(t *testing.T) {
	cases := []struct {
		name    string
		headers map[string]string
		want    string
	}{
		{"script end in a header", map[string]string{"Authorization": "Bearer </script><script>alert(1)</script>"}, `\u003c/script\u003e`},
		{"no headers", nil, `"endpoint":"/graphql","tabs"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			Page("/graphql", tc.headers).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
			body := w.Body.String()
			if n := strings.Count(body, "</script>"); n != 5 {
				t.Errorf("%d </script> in the page, want 5 (one per script element)", n)
			}
			if !strings.Contains(body, tc.want) {
				t.Errorf("the page does not hold %s:\n%s", tc.want, body)
			}
			if regexp.MustCompile(`(?:src|href)="(?:https?:)?//`).MatchString(body) {
				t.Errorf("the page loads a remote asset:\n%s", body)
			}
		})
	}
}
