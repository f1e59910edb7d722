package httpguard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHealthz(t *testing.T) {
	rec := httptest.NewRecorder()
	Healthz().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != 200 || rec.Body.String() != "ok\n" {
		t.Errorf("got %d %q, want 200 \"ok\\n\"", rec.Code, rec.Body.String())
	}
}

func TestReadyz(t *testing.T) {
	pass := func(context.Context) error { return nil }
	fail := func(msg string) func(context.Context) error {
		return func(context.Context) error { return errors.New(msg) }
	}
	low := NewDiskGuard("/data", 100, func(string) (uint64, error) { return 1, nil })

	tests := []struct {
		name       string
		checks     []func(context.Context) error
		wantStatus int
		wantBody   string
	}{
		{"no checks", nil, 200, "ok\n"},
		{"all pass", []func(context.Context) error{pass, pass}, 200, "ok\n"},
		{"first failure reported", []func(context.Context) error{pass, fail("store closed"), fail("second")}, 503, "store closed\n"},
		{"low disk", []func(context.Context) error{low.Ready}, 503, "httpguard: low disk space: /data has 1 bytes free, minimum 100\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			Readyz(tc.checks...).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
			if rec.Code != tc.wantStatus || rec.Body.String() != tc.wantBody {
				t.Errorf("got %d %q, want %d %q", rec.Code, rec.Body.String(), tc.wantStatus, tc.wantBody)
			}
		})
	}
}

func TestReadyzPassesRequestContext(t *testing.T) {
	type key struct{}
	var got any
	h := Readyz(func(ctx context.Context) error { got = ctx.Value(key{}); return nil })
	req := httptest.NewRequest(http.MethodGet, "/readyz", nil)
	req = req.WithContext(context.WithValue(req.Context(), key{}, "v"))
	h.ServeHTTP(httptest.NewRecorder(), req)
	if got != "v" {
		t.Errorf("check saw context value %v, want the request's", got)
	}
}
