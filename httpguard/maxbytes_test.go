package httpguard

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

func TestMaxBytes(t *testing.T) {
	const limit = 16
	tests := []struct {
		name          string
		body          io.Reader
		contentLength int64 // -1: unknown, as with chunked encoding
		wantStatus    int
		wantRead      bool // the handler ran (and must see the whole body)
	}{
		{"no body", nil, 0, 200, true},
		{"under", strings.NewReader("small"), 5, 200, true},
		{"exactly the limit", strings.NewReader(strings.Repeat("x", limit)), limit, 200, true},
		{"declared over", strings.NewReader(strings.Repeat("x", limit+1)), limit + 1, 413, false},
		{"declared over, body never read", iotest.ErrReader(errors.New("read")), 1 << 30, 413, false},
		{"chunked under", strings.NewReader("chunk"), -1, 200, true},
		{"chunked exactly", strings.NewReader(strings.Repeat("x", limit)), -1, 200, true},
		{"chunked over", strings.NewReader(strings.Repeat("x", 1000)), -1, 413, false},
		{"unreadable", iotest.ErrReader(errors.New("reset")), -1, 400, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want string
			if s, ok := tc.body.(*strings.Reader); ok {
				b := make([]byte, s.Len())
				_, _ = s.ReadAt(b, 0)
				want = string(b)
			}
			ran := false
			h := MaxBytes(limit)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ran = true
				got, err := io.ReadAll(r.Body)
				if err != nil || string(got) != want || r.ContentLength != int64(len(want)) {
					t.Errorf("handler read %q (len %d), %v; want %q", got, r.ContentLength, err, want)
				}
			}))
			req := httptest.NewRequest(http.MethodPost, "/graphql", tc.body)
			req.ContentLength = tc.contentLength
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)

			if rec.Code != tc.wantStatus {
				t.Errorf("status = %d, want %d", rec.Code, tc.wantStatus)
			}
			if ran != tc.wantRead {
				t.Errorf("handler ran = %v, want %v", ran, tc.wantRead)
			}
			if rec.Code >= 400 {
				e := decodeError(t, rec)
				if e.Extensions.Code != CodeBadUserInput {
					t.Errorf("code = %q, want %q", e.Extensions.Code, CodeBadUserInput)
				}
				if rec.Code == 413 && !strings.Contains(e.Message, fmt.Sprint(limit)) {
					t.Errorf("message %q does not state the limit", e.Message)
				}
			}
		})
	}
}

// TestMaxBytesChunkedOverHTTP sends a chunked body through a real server.
func TestMaxBytesChunkedOverHTTP(t *testing.T) {
	const limit = 1024
	var ran bool
	var te []string
	guarded := MaxBytes(limit)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { ran = true }))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		te = r.TransferEncoding
		guarded.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	pr, pw := io.Pipe()
	go func() {
		for range 10 { // 10 chunks of 200 bytes
			if _, err := pw.Write([]byte(strings.Repeat("x", 200))); err != nil {
				return
			}
		}
		_ = pw.Close()
	}()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, pr)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_ = pr.Close() // unblock the writer if the server stopped reading
	if len(te) != 1 || te[0] != "chunked" {
		t.Fatalf("server saw Transfer-Encoding %v, the test needs chunked", te)
	}
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status = %d, want 413", resp.StatusCode)
	}
	if ran {
		t.Error("handler ran on an oversized body")
	}
}

func TestMaxBytesPanicsOnBadLimit(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MaxBytes(0) did not panic")
		}
	}()
	MaxBytes(0)
}

func BenchmarkMaxBytes(b *testing.B) {
	body := strings.Repeat("x", 4096)
	h := MaxBytes(1 << 20)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	rec := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
		h.ServeHTTP(rec, req)
	}
}
