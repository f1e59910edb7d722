package httpguard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeClock is a settable time source for Limiter and DiskGuard.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newTestLimiter(t testing.TB, rps float64, burst int) (*Limiter, *fakeClock) {
	t.Helper()
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := NewLimiter(rps, burst)
	l.now = clk.now
	return l, clk
}

// orgHeader takes the key from a test header, standing in for the verified
// identity's organization.
func orgHeader(r *http.Request) (string, bool) {
	org := r.Header.Get("Test-Org")
	return org, org != ""
}

func serveOrg(h http.Handler, org string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
	if org != "" {
		req.Header.Set("Test-Org", org)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestLimiterIsolatesOrganizations(t *testing.T) {
	l, clk := newTestLimiter(t, 1, 3)
	h := l.Middleware(orgHeader)(ok)

	for i := range 3 {
		if rec := serveOrg(h, "noisy"); rec.Code != 200 {
			t.Fatalf("noisy request %d within burst: status %d", i, rec.Code)
		}
	}
	rec := serveOrg(h, "noisy")
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("noisy request over burst: status %d, want 429", rec.Code)
	}
	if got := rec.Header().Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1", got)
	}
	if e := decodeError(t, rec); e.Extensions.Code != CodeRateLimited {
		t.Errorf("code = %q, want %q", e.Extensions.Code, CodeRateLimited)
	}
	if rec := serveOrg(h, "quiet"); rec.Code != 200 {
		t.Errorf("quiet organization: status %d, want 200", rec.Code)
	}
	if rec := serveOrg(h, ""); rec.Code != 200 {
		t.Errorf("request without key: status %d, want 200", rec.Code)
	}
	clk.advance(time.Second)
	if rec := serveOrg(h, "noisy"); rec.Code != 200 {
		t.Errorf("noisy after one token refilled: status %d, want 200", rec.Code)
	}
	if rec := serveOrg(h, "noisy"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("noisy again: status %d, want 429", rec.Code)
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		name  string
		rps   float64
		burst int
		want  int
	}{
		{"sub-second wait rounds up to 1", 10, 1, 1},
		{"two seconds", 0.5, 1, 2},
		{"fractional rounds up", 0.4, 2, 3}, // 2.5 s
		{"a minute", 1.0 / 60, 1, 60},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, _ := newTestLimiter(t, tc.rps, tc.burst)
			h := l.Middleware(orgHeader)(ok)
			var rec *httptest.ResponseRecorder
			for range tc.burst + 1 {
				rec = serveOrg(h, "org")
			}
			if rec.Code != http.StatusTooManyRequests {
				t.Fatalf("status = %d, want 429", rec.Code)
			}
			got, err := strconv.Atoi(rec.Header().Get("Retry-After"))
			if err != nil || got != tc.want {
				t.Errorf("Retry-After = %q, want %d", rec.Header().Get("Retry-After"), tc.want)
			}
		})
	}
}

func TestRetrySeconds(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want int
	}{
		{time.Nanosecond, 1},
		{time.Second, 1},
		{time.Second + time.Millisecond, 2},
		{90 * time.Second, 90},
	}
	for _, tc := range tests {
		t.Run(tc.d.String(), func(t *testing.T) {
			if got := retrySeconds(tc.d); got != tc.want {
				t.Errorf("retrySeconds(%v) = %d, want %d", tc.d, got, tc.want)
			}
		})
	}
}

func TestRejectionConsumesNothing(t *testing.T) {
	l, clk := newTestLimiter(t, 1, 1)
	l.Allow("org")
	for range 5 { // rejected attempts must not push the next token further away
		if ok, _ := l.Allow("org"); ok {
			t.Fatal("allowed over the limit")
		}
	}
	clk.advance(time.Second)
	if ok, wait := l.Allow("org"); !ok {
		t.Errorf("after 1 s: rejected, wait %v; rejections consumed tokens", wait)
	}
}

func TestLimiterDisabled(t *testing.T) {
	for _, rps := range []float64{0, -1} {
		l, _ := newTestLimiter(t, rps, 1)
		h := l.Middleware(orgHeader)(ok)
		for i := range 100 {
			if rec := serveOrg(h, "org"); rec.Code != 200 {
				t.Fatalf("rps %v, request %d: status %d, want 200", rps, i, rec.Code)
			}
		}
		if n := len(l.buckets); n != 0 {
			t.Errorf("rps %v: %d buckets, want none", rps, n)
		}
	}
}

func TestLimiterEvictsIdleBuckets(t *testing.T) {
	l, clk := newTestLimiter(t, 1, 5) // refills in 5 s
	for _, org := range []string{"a", "b", "c"} {
		l.Allow(org)
	}
	clk.advance(3 * time.Second)
	l.Allow("a")
	if n := len(l.buckets); n != 3 {
		t.Fatalf("before the refill period: %d buckets, want 3", n)
	}
	clk.advance(5 * time.Second) // b and c idle 8 s, a idle 5 s
	l.Allow("d")
	if n := len(l.buckets); n != 1 {
		t.Errorf("after the refill period: %d buckets (%v), want only d", n, l.buckets)
	}
}

func TestLimiterTinyRateNeverEvicts(t *testing.T) {
	l, clk := newTestLimiter(t, 1e-300, 1)
	l.Allow("org")
	clk.advance(24 * time.Hour)
	if ok, _ := l.Allow("org"); ok {
		t.Error("bucket was evicted and refilled after a day at 1e-300 rps")
	}
}

func BenchmarkLimiterAllow(b *testing.B) {
	l := NewLimiter(1e9, 1000)
	keys := []string{"org-a", "org-b", "org-c", "org-d"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		l.Allow(keys[i%len(keys)])
		i++
	}
}

func TestBatchWeight(t *testing.T) {
	tests := []struct{ n, want int }{{0, 1}, {1, 1}, {100, 1}, {101, 2}, {999, 10}, {1000, 10}}
	for _, tc := range tests {
		if got := BatchWeight(tc.n); got != tc.want {
			t.Errorf("BatchWeight(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

// TestChargeTakesABatchWeight: a request admitted by the middleware can be
// charged more tokens from its organization's bucket, all or none.
func TestChargeTakesABatchWeight(t *testing.T) {
	l, clk := newTestLimiter(t, 1, 12)
	var charged []error
	extra := 9
	h := l.Middleware(orgHeader)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		charged = append(charged, Charge(r.Context(), extra))
	}))
	serveOrg(h, "bulk") // 1 + 9 of 12
	serveOrg(h, "bulk") // 1 more: 1 left, 9 refused
	if len(charged) != 2 || charged[0] != nil || charged[1] == nil {
		t.Fatalf("charges = %v, want the first to pass and the second to fail", charged)
	}
	if !strings.Contains(charged[1].Error(), "retry in") {
		t.Errorf("error %q does not say when to retry", charged[1])
	}
	extra = 0
	if rec := serveOrg(h, "bulk"); rec.Code != 200 {
		t.Errorf("a plain request with the token the refused charge left: status %d", rec.Code)
	}
	if rec := serveOrg(h, "bulk"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("over the bucket: status %d, want 429", rec.Code)
	}
	if err := Charge(context.Background(), 5); err != nil {
		t.Errorf("Charge without a limiter: %v", err)
	}
	clk.advance(12 * time.Second)
	extra = 20 // above the burst: passes on a full bucket
	serveOrg(h, "bulk")
	if err := charged[len(charged)-1]; err != nil {
		t.Errorf("a weight above the burst on a full bucket: %v", err)
	}
}
