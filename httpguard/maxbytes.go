package httpguard

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// MaxBytes returns a middleware that limits request bodies to n bytes.
//
// A request whose declared Content-Length exceeds n is answered 413 without
// reading the body. Any other body is read in full, up to n+1 bytes, before
// next runs: a body that turns out longer than n (chunked, or lying about its
// length) is answered 413, so next never sees a truncated body, and next gets
// the buffered body with an exact ContentLength. A body that cannot be read
// (the client went away) is answered 400. The 413 error has code
// BAD_USER_INPUT and a message stating the limit.
//
// Buffering bounds the memory of a request to n, which suits GraphQL bodies
// (a few KiB to a MiB); it is not meant for uploads. MaxBytes panics if n < 1.
func MaxBytes(n int64) func(http.Handler) http.Handler {
	if n < 1 {
		panic(fmt.Sprintf("httpguard: MaxBytes(%d): the limit must be positive", n))
	}
	msg := fmt.Sprintf("request body exceeds the limit of %d bytes", n)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > n {
				WriteError(w, r, http.StatusRequestEntityTooLarge, CodeBadUserInput, msg)
				return
			}
			if r.Body == nil || r.Body == http.NoBody {
				next.ServeHTTP(w, r)
				return
			}
			buf, err := io.ReadAll(io.LimitReader(r.Body, n+1))
			switch {
			case int64(len(buf)) > n:
				WriteError(w, r, http.StatusRequestEntityTooLarge, CodeBadUserInput, msg)
				return
			case err != nil:
				WriteError(w, r, http.StatusBadRequest, CodeBadUserInput, "cannot read request body")
				return
			}
			r2 := r.Clone(r.Context())
			r2.Body = io.NopCloser(bytes.NewReader(buf))
			r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf)), nil }
			r2.ContentLength = int64(len(buf))
			next.ServeHTTP(w, r2)
		})
	}
}
