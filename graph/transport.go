package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/httpguard"
)

// methodKey carries the request's HTTP method to the GraphQL extensions.
type methodKey struct{}

// requestMethod returns the HTTP method of the request ctx belongs to, or
// "" outside one.
func requestMethod(ctx context.Context) string {
	m, _ := ctx.Value(methodKey{}).(string)
	return m
}

// rawParams is the JSON shape of a GraphQL request, as gqlgen's transports
// decode it.
type rawParams struct {
	Query         string         `json:"query"`
	OperationName string         `json:"operationName"`
	Variables     map[string]any `json:"variables"`
	Extensions    map[string]any `json:"extensions"`
}

// guardTransport answers every request gqlgen's transports would refuse
// with a message of their own (which may quote the request body, and has
// no code) with the GraphQL error shape and a code instead, and never
// repeats the request: a method other than GET and POST (405), a POST that
// is not JSON (415) or does not decode (400), GET variables or extensions
// that are not JSON objects (400). It expects the body to be bounded
// already (httpguard.MaxBytes).
func guardTransport(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			q := r.URL.Query()
			for _, name := range []string{"variables", "extensions"} {
				if v := q.Get(name); v != "" && !isJSONObject([]byte(v)) {
					httpguard.WriteError(w, r, http.StatusBadRequest, httpguard.CodeBadUserInput, "the "+name+" parameter is not a JSON object")
					return
				}
			}
		case http.MethodPost:
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				httpguard.WriteError(w, r, http.StatusUnsupportedMediaType, httpguard.CodeBadUserInput, "send GraphQL requests as JSON, with Content-Type: application/json")
				return
			}
			body, err := io.ReadAll(r.Body)
			if err != nil {
				httpguard.WriteError(w, r, http.StatusBadRequest, httpguard.CodeBadUserInput, "cannot read request body")
				return
			}
			var p rawParams
			if err := decodeJSON(body, &p); err != nil {
				httpguard.WriteError(w, r, http.StatusBadRequest, httpguard.CodeBadUserInput,
					`the request body is not a GraphQL request: want a JSON object {"query": string, "operationName": string, "variables": object}`)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		default:
			w.Header().Set("Allow", "GET, POST")
			httpguard.WriteError(w, r, http.StatusMethodNotAllowed, httpguard.CodeBadUserInput, "/graphql answers GET (queries) and POST only")
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), methodKey{}, r.Method)))
	})
}

func decodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

func isJSONObject(b []byte) bool {
	var m map[string]any
	return decodeJSON(b, &m) == nil
}

// guardIntrospection refuses the introspection root fields with FORBIDDEN
// when introspection is disabled (gqlgen's own refusal is a plain error,
// which would read as INTERNAL).
func guardIntrospection(ctx context.Context, next graphql.Resolver) (any, error) {
	if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Object == "Query" && (fc.Field.Name == "__schema" || fc.Field.Name == "__type") {
		if oc := graphql.GetOperationContext(ctx); oc.DisableIntrospection {
			return nil, fault.New(fault.Forbidden, "introspection is disabled on this server")
		}
	}
	return next(ctx)
}
