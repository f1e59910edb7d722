package httpguard

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"
)

// RequestIDHeader carries the request id, in requests and responses.
const RequestIDHeader = "X-Request-Id"

// maxRequestIDLen is the longest incoming request id that is kept.
const maxRequestIDLen = 64

type ctxKey int

const (
	idKey ctxKey = iota
	notesKey
)

// notes holds the attributes later handlers attach to the access-log line.
// Resolvers may run concurrently, hence the mutex.
type notes struct {
	mu    sync.Mutex
	attrs []slog.Attr
}

// RequestID returns the request id RequestLog put in ctx, or "" outside it.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(idKey).(string)
	return id
}

// Annotate adds attrs to the access-log line of the request ctx belongs to,
// e.g. the GraphQL operation name and error code. Outside RequestLog it does
// nothing. It is safe for concurrent use.
func Annotate(ctx context.Context, attrs ...slog.Attr) {
	n, ok := ctx.Value(notesKey).(*notes)
	if !ok {
		return
	}
	n.mu.Lock()
	n.attrs = append(n.attrs, attrs...)
	n.mu.Unlock()
}

// Summary describes a finished request, as logged by RequestLog.
type Summary struct {
	RequestID string
	Method    string
	Path      string
	Status    int
	Bytes     int64
	Duration  time.Duration
	// Attrs are the annotations added with Annotate, in order.
	Attrs []slog.Attr
	// Panicked reports that the handler panicked and was answered 500.
	Panicked bool
}

// Attr returns the value of the last annotation with key.
func (s Summary) Attr(key string) (slog.Value, bool) {
	for i := len(s.Attrs) - 1; i >= 0; i-- {
		if s.Attrs[i].Key == key {
			return s.Attrs[i].Value, true
		}
	}
	return slog.Value{}, false
}

// Code returns the request's outcome as a metrics code: TOO_LARGE for 413,
// RATE_LIMITED for 429 and UNAUTHENTICATED for 401 whatever the body said;
// otherwise the last "code" annotation (WriteError and the GraphQL layer set
// it), INTERNAL for a 5xx status, and OK.
func (s Summary) Code() string {
	switch s.Status {
	case http.StatusRequestEntityTooLarge:
		return "TOO_LARGE"
	case http.StatusTooManyRequests:
		return "RATE_LIMITED"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	}
	if v, ok := s.Attr("code"); ok {
		return v.String()
	}
	if s.Status >= 500 {
		return CodeInternal
	}
	return "OK"
}

// RequestLog returns a middleware that gives each request an id, recovers
// panics and logs exactly one line per request.
//
// The id is the incoming X-Request-Id when it is 1 to 64 characters of
// [A-Za-z0-9_-], else a new random one; it is put in the context (see
// RequestID) and echoed in the X-Request-Id response header.
//
// The line has the constant message "request" and the attributes
// request_id, method, path, status, bytes and duration, followed by those
// added with Annotate. It is logged at level Info, or Error for a 5xx status.
//
// A panic in next is answered 500 with an INTERNAL error (when no header was
// written yet) and logged on the same line with the panic value and stack;
// the client never sees the panic text. http.ErrAbortHandler is logged and
// re-panicked, so the server aborts the response as intended.
//
// observe, when not nil, is called with the summary after the line is
// logged, e.g. to record metrics.
func RequestLog(logger *slog.Logger, observe func(Summary)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			id := r.Header.Get(RequestIDHeader)
			if !validRequestID(id) {
				id = rand.Text()
			}
			n := &notes{}
			ctx := context.WithValue(context.WithValue(r.Context(), idKey, id), notesKey, n)
			r = r.WithContext(ctx)
			w.Header().Set(RequestIDHeader, id)
			rw := &recorder{ResponseWriter: w}

			defer func() {
				p := recover()
				var stack []byte
				if p != nil {
					stack = debug.Stack()
					if !rw.wroteHeader && p != http.ErrAbortHandler {
						WriteError(rw, r, http.StatusInternalServerError, CodeInternal, "internal error")
					}
				}
				n.mu.Lock()
				s := Summary{
					RequestID: id,
					Method:    r.Method,
					Path:      r.URL.Path,
					Status:    rw.status(),
					Bytes:     rw.bytes,
					Duration:  time.Since(start),
					Attrs:     append([]slog.Attr(nil), n.attrs...),
					Panicked:  p != nil,
				}
				n.mu.Unlock()
				logSummary(ctx, logger, s, p, stack)
				if observe != nil {
					observe(s)
				}
				if p == http.ErrAbortHandler {
					panic(p)
				}
			}()
			next.ServeHTTP(rw, r)
		})
	}
}

func logSummary(ctx context.Context, logger *slog.Logger, s Summary, p any, stack []byte) {
	level := slog.LevelInfo
	if s.Status >= 500 || p != nil {
		level = slog.LevelError
	}
	if !logger.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 8+len(s.Attrs))
	attrs = append(attrs,
		slog.String("request_id", s.RequestID),
		slog.String("method", s.Method),
		slog.String("path", s.Path),
		slog.Int("status", s.Status),
		slog.Int64("bytes", s.Bytes),
		slog.Duration("duration", s.Duration),
	)
	attrs = append(attrs, s.Attrs...)
	if p != nil {
		attrs = append(attrs, slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(stack)))
	}
	logger.LogAttrs(ctx, level, "request", attrs...)
}

// validRequestID reports whether id is 1 to 64 characters of [A-Za-z0-9_-].
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// recorder captures the status and size of a response.
type recorder struct {
	http.ResponseWriter
	code        int
	wroteHeader bool
	bytes       int64
}

func (rw *recorder) WriteHeader(code int) {
	if !rw.wroteHeader && code >= 200 { // 1xx responses are informational
		rw.code, rw.wroteHeader = code, true
	}
	rw.ResponseWriter.WriteHeader(code)
}

func (rw *recorder) Write(b []byte) (int, error) {
	if !rw.wroteHeader {
		rw.code, rw.wroteHeader = http.StatusOK, true
	}
	n, err := rw.ResponseWriter.Write(b)
	rw.bytes += int64(n)
	return n, err
}

// Flush implements http.Flusher for streaming transports.
func (rw *recorder) Flush() {
	if !rw.wroteHeader {
		rw.code, rw.wroteHeader = http.StatusOK, true
	}
	_ = http.NewResponseController(rw.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rw *recorder) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// status is the status sent, 200 when the handler wrote nothing.
func (rw *recorder) status() int {
	if !rw.wroteHeader {
		return http.StatusOK
	}
	return rw.code
}
