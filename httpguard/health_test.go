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

func TestReadiness(t *testing.T) {
	low := NewDiskGuard("/data/tenant-x", 100, func(string) (uint64, error) { return 1, nil })
	store := Check{Name: "store", Run: func(context.Context) error { return errors.New("store: open /data/tenant-x/MANIFEST: broken") }}
	disk := Check{Name: "disk", Run: low.Ready}
	pass := Check{Name: "pass", Run: func(context.Context) error { return nil }}
	operator := func(r *http.Request) bool { return r.Header.Get("X-Operator") == "yes" }
	tests := []struct {
		name       string
		checks     []Check
		operator   bool
		wantStatus int
		wantBody   string
	}{
		{"all pass", []Check{pass, pass}, false, 200, "ok\n"},
		{"store, public", []Check{pass, store, disk}, false, 503, "not ready: store\n"},
		{"store, operator", []Check{pass, store, disk}, true, 503, "not ready: store: store: open /data/tenant-x/MANIFEST: broken\n"},
		{"low disk, public", []Check{disk, store}, false, 503, "not ready: disk: low disk space\n"},
		{"low disk, operator", []Check{disk}, true, 503, "not ready: disk: httpguard: low disk space: /data/tenant-x has 1 bytes free, minimum 100\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodGet, "/readyz", nil)
			if tc.operator {
				req.Header.Set("X-Operator", "yes")
			}
			Readiness(operator, tc.checks...).ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus || rec.Body.String() != tc.wantBody {
				t.Errorf("got %d %q, want %d %q", rec.Code, rec.Body.String(), tc.wantStatus, tc.wantBody)
			}
		})
	}
}
