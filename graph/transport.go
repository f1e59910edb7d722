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

// requestKey carries what guardTransport learnt of a request to the
// transport and the GraphQL extensions.
type requestKey struct{}

// requestInfo is what guardTransport learnt of a request: its HTTP method
// and, for a POST whose body decoded as gqlgen's POST transport decodes
// it, the parameters decoded (decoded tells; params may be nil, for a body
// of JSON null), so that postTransport does not decode the body again.
type requestInfo struct {
	method  string
	params  *graphql.RawParams
	decoded bool
}

// requestMethod returns the HTTP method of the request ctx belongs to, or
// "" outside one.
func requestMethod(ctx context.Context) string {
	ri, _ := ctx.Value(requestKey{}).(*requestInfo)
	if ri == nil {
		return ""
	}
	return ri.method
}

// withHeaders returns params, decoded by guardTransport, as decoding the
// body over the headers of r would have left them: the body's headers,
// if any, set in r's (a JSON null for headers leaves none).
func withHeaders(params *graphql.RawParams, r *http.Request) *graphql.RawParams {
	if params == nil || params.Headers == nil || r.Header == nil {
		return params
	}
	for k, v := range params.Headers {
		r.Header[k] = v
	}
	params.Headers = r.Header
	return params
}

// decodedParams returns the parameters guardTransport decoded from the
// body of the POST ctx belongs to, and whether it decoded them.
func decodedParams(ctx context.Context) (*graphql.RawParams, bool) {
	ri, _ := ctx.Value(requestKey{}).(*requestInfo)
	if ri == nil || !ri.decoded {
		return nil, false
	}
	return ri.params, true
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
		ri := &requestInfo{method: r.Method}
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
			// Decoded as postTransport decodes it, the body is decoded
			// once; a body that only that decoding refuses (headers not
			// an object) is left to postTransport, as before. The body's
			// headers are decoded into a map of their own, which
			// postTransport merges into the request's (withHeaders).
			params := &graphql.RawParams{Headers: http.Header{}}
			if err := decodeJSON(body, &params); err == nil {
				ri.params, ri.decoded = params, true
			} else if err := decodeJSON(body, &rawParams{}); err != nil {
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
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, ri)))
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
