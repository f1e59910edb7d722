package httpguard

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestWriteError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		code   string
		msg    string
		wrap   bool // run inside RequestLog, which assigns a request id
	}{
		{"bare", http.StatusBadRequest, CodeBadUserInput, "bad", false},
		{"with request id", http.StatusTooManyRequests, CodeRateLimited, `quote " and <tag>`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				WriteError(w, r, tc.status, tc.code, tc.msg)
			})
			if tc.wrap {
				h = RequestLog(slog.New(slog.DiscardHandler), nil)(h)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/graphql", nil))

			if rec.Code != tc.status {
				t.Errorf("status = %d, want %d", rec.Code, tc.status)
			}
			e := decodeError(t, rec)
			if e.Message != tc.msg || e.Extensions.Code != tc.code {
				t.Errorf("error = %+v, want message %q code %q", e, tc.msg, tc.code)
			}
			wantID := rec.Header().Get(RequestIDHeader)
			if e.Extensions.RequestID != wantID {
				t.Errorf("requestId = %q, want %q", e.Extensions.RequestID, wantID)
			}
			if tc.wrap && wantID == "" {
				t.Error("no request id inside RequestLog")
			}
		})
	}
}
