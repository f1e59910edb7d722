package httpguard

import (
	"encoding/json"
	"log/slog"
	"net/http"
)

// GraphQL extensions.code values written by this package. The first two are
// the project's; a rate-limited request is FORBIDDEN for now, and clients
// read when to retry from the 429 status and its Retry-After header.
const (
	CodeBadUserInput = "BAD_USER_INPUT"
	CodeInternal     = "INTERNAL"
	CodeRateLimited  = "FORBIDDEN"
)

type errorBody struct {
	Errors []errorEntry `json:"errors"`
}

type errorEntry struct {
	Message    string          `json:"message"`
	Extensions errorExtensions `json:"extensions"`
}

type errorExtensions struct {
	Code      string `json:"code"`
	RequestID string `json:"requestId,omitempty"`
}

// WriteError answers r with status and a GraphQL-shaped JSON error:
//
//	{"errors":[{"message":msg,"extensions":{"code":code,"requestId":id}}]}
//
// requestId is the id RequestLog assigned, omitted when there is none. It
// also annotates the access-log line with code. msg is shown to the client
// as is: it must not carry internal detail. Headers such as Retry-After must
// be set before the call.
func WriteError(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	ctx := r.Context()
	Annotate(ctx, slog.String("code", code))
	body, err := json.Marshal(errorBody{Errors: []errorEntry{{
		Message:    msg,
		Extensions: errorExtensions{Code: code, RequestID: RequestID(ctx)},
	}}})
	if err != nil { // cannot happen: only strings are encoded
		panic(err)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
