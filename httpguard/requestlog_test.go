package httpguard

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func TestRequestID(t *testing.T) {
	tests := []struct {
		name     string
		incoming string
		keep     bool
	}{
		{"none", "", false},
		{"sane", "abc-DEF_123", true},
		{"64 chars", strings.Repeat("a", 64), true},
		{"65 chars", strings.Repeat("a", 65), false},
		{"space", "abc def", false},
		{"newline injection", "abc\nlevel=ERROR", false},
		{"non ascii", "idé", false},
		{"dot", "a.b", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var seen string
			h := RequestLog(slog.New(slog.DiscardHandler), nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
				seen = RequestID(r.Context())
			}))
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			if tc.incoming != "" {
				req.Header.Set(RequestIDHeader, tc.incoming)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)

			got := rec.Header().Get(RequestIDHeader)
			if got != seen {
				t.Errorf("header %q, context %q: want the same id", got, seen)
			}
			if !validRequestID(got) {
				t.Errorf("id %q is not a valid request id", got)
			}
			if (got == tc.incoming) != tc.keep {
				t.Errorf("id = %q for incoming %q, want kept = %v", got, tc.incoming, tc.keep)
			}
		})
	}
}

func TestRequestIDGeneratedIsUnique(t *testing.T) {
	h := RequestLog(slog.New(slog.DiscardHandler), nil)(ok)
	seen := map[string]bool{}
	for range 100 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		id := rec.Header().Get(RequestIDHeader)
		if seen[id] {
			t.Fatalf("id %q generated twice", id)
		}
		seen[id] = true
	}
}

func TestRequestIDOutsideMiddleware(t *testing.T) {
	if got := RequestID(t.Context()); got != "" {
		t.Errorf("RequestID = %q, want empty", got)
	}
	Annotate(t.Context(), slog.String("k", "v")) // must not panic
}

func TestAccessLogOneLine(t *testing.T) {
	logger, lines := logBuffer(t)
	var sums []Summary
	h := RequestLog(logger, func(s Summary) { sums = append(sums, s) })(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Annotate(r.Context(), slog.String("operation", "GetContext"))
		Annotate(r.Context(), slog.String("code", "NOT_FOUND"))
		w.WriteHeader(http.StatusTeapot)
		_, _ = io.WriteString(w, "12345")
	}))
	req := httptest.NewRequest(http.MethodPost, "/graphql?secret=1", nil)
	req.Header.Set(RequestIDHeader, "req-1")
	h.ServeHTTP(httptest.NewRecorder(), req)

	got := lines()
	if len(got) != 1 {
		t.Fatalf("got %d log lines, want 1: %v", len(got), got)
	}
	l := got[0]
	want := map[string]any{
		"msg": "request", "level": "INFO", "request_id": "req-1", "method": "POST",
		"path": "/graphql", "status": float64(418), "bytes": float64(5),
		"operation": "GetContext", "code": "NOT_FOUND",
	}
	for k, v := range want {
		if l[k] != v {
			t.Errorf("%s = %v, want %v", k, l[k], v)
		}
	}
	if _, ok := l["duration"]; !ok {
		t.Error("no duration attribute")
	}
	if len(sums) != 1 {
		t.Fatalf("observe called %d times, want 1", len(sums))
	}
	if s := sums[0]; s.Status != 418 || s.Bytes != 5 || s.RequestID != "req-1" || s.Code() != "NOT_FOUND" {
		t.Errorf("summary = %+v, code %q", s, s.Code())
	}
}

func TestAccessLogDefaultStatus(t *testing.T) {
	logger, lines := logBuffer(t)
	h := RequestLog(logger, nil)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/healthz", nil))
	got := lines()
	if len(got) != 1 || got[0]["status"] != float64(200) || got[0]["bytes"] != float64(0) {
		t.Errorf("lines = %v, want one with status 200 and bytes 0", got)
	}
}

func TestPanicRecovery(t *testing.T) {
	const secret = "secret panic text org-42"
	logger, lines := logBuffer(t)
	var sum Summary
	h := RequestLog(logger, func(s Summary) { sum = s })(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic(secret)
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/graphql", nil))

	if rec.Code != http.StatusInternalServerError {
		t.Errorf("status = %d, want 500", rec.Code)
	}
	if strings.Contains(rec.Body.String(), secret) {
		t.Errorf("response leaks the panic text: %s", rec.Body.String())
	}
	e := decodeError(t, rec)
	if e.Message != "internal error" || e.Extensions.Code != CodeInternal || e.Extensions.RequestID != rec.Header().Get(RequestIDHeader) {
		t.Errorf("error = %+v", e)
	}
	got := lines()
	if len(got) != 1 {
		t.Fatalf("got %d log lines, want 1", len(got))
	}
	l := got[0]
	if l["level"] != "ERROR" || l["panic"] != secret || l["status"] != float64(500) {
		t.Errorf("log line = %v, want level ERROR, the panic and status 500", l)
	}
	if st, _ := l["stack"].(string); !strings.Contains(st, "TestPanicRecovery") {
		t.Errorf("stack does not show the panicking function: %q", st)
	}
	if !sum.Panicked || sum.Code() != CodeInternal {
		t.Errorf("summary = %+v, code %q; want panicked and INTERNAL", sum, sum.Code())
	}
}

func TestPanicAfterHeader(t *testing.T) {
	h := RequestLog(slog.New(slog.DiscardHandler), nil)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "partial")
		panic("late")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Body.String() != "partial" {
		t.Errorf("body = %q, want the handler's partial output only", rec.Body.String())
	}
}

func TestAbortHandlerRepanics(t *testing.T) {
	logger, lines := logBuffer(t)
	h := RequestLog(logger, nil)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic(http.ErrAbortHandler)
	}))
	rec := httptest.NewRecorder()
	func() {
		defer func() {
			p := recover()
			if err, _ := p.(error); !errors.Is(err, http.ErrAbortHandler) {
				t.Errorf("recovered %v, want http.ErrAbortHandler", p)
			}
		}()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	}()
	if rec.Body.Len() != 0 {
		t.Errorf("aborted response has a body: %q", rec.Body.String())
	}
	if n := len(lines()); n != 1 {
		t.Errorf("got %d log lines, want 1", n)
	}
}

func TestSummaryCode(t *testing.T) {
	tests := []struct {
		name   string
		status int
		attrs  []slog.Attr
		want   string
	}{
		{"ok", 200, nil, "OK"},
		{"graphql error", 200, []slog.Attr{slog.String("code", "FORBIDDEN")}, "FORBIDDEN"},
		{"last code wins", 200, []slog.Attr{slog.String("code", "A"), slog.String("code", "CONFLICT")}, "CONFLICT"},
		{"too large", 413, []slog.Attr{slog.String("code", CodeBadUserInput)}, "TOO_LARGE"},
		{"rate limited", 429, []slog.Attr{slog.String("code", CodeRateLimited)}, "RATE_LIMITED"},
		{"unauthenticated", 401, nil, "UNAUTHENTICATED"},
		{"bare 5xx", 503, nil, "INTERNAL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Summary{Status: tc.status, Attrs: tc.attrs}).Code(); got != tc.want {
				t.Errorf("Code() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRecorderFlush(t *testing.T) {
	h := RequestLog(slog.New(slog.DiscardHandler), nil)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		f, ok := w.(http.Flusher)
		if !ok {
			t.Fatal("wrapped writer is not an http.Flusher")
		}
		f.Flush()
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if !rec.Flushed {
		t.Error("Flush did not reach the underlying writer")
	}
}

func FuzzRequestID(f *testing.F) {
	for _, s := range []string{"", "abc", "a b", strings.Repeat("x", 64), strings.Repeat("x", 65), "é", "a\r\nb"} {
		f.Add(s)
	}
	h := RequestLog(slog.New(slog.DiscardHandler), nil)(ok)
	f.Fuzz(func(t *testing.T, in string) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header[RequestIDHeader] = []string{in}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		got := rec.Header().Get(RequestIDHeader)
		if !validRequestID(got) {
			t.Fatalf("id %q for incoming %q is not valid", got, in)
		}
		if validRequestID(in) != (got == in) {
			t.Fatalf("incoming %q (valid %v) gave %q", in, validRequestID(in), got)
		}
		if validRequestID(in) != reqIDPattern.MatchString(in) {
			t.Fatalf("validRequestID(%q) = %v, regexp says %v", in, validRequestID(in), reqIDPattern.MatchString(in))
		}
	})
}

var reqIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func BenchmarkRequestLog(b *testing.B) {
	h := RequestLog(slog.New(slog.NewJSONHandler(io.Discard, nil)), nil)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Annotate(r.Context(), slog.String("operation", "Q"))
		w.WriteHeader(http.StatusNoContent)
	}))
	req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
	req.Header.Set(RequestIDHeader, "bench")
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}
