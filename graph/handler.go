package graph

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"reflect"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/graph/generated"
	"github.com/stategraph/stategraph/graph/resolvers"
)

// Options configure the GraphQL handler.
type Options struct {
	// Introspection enables schema introspection and field suggestions.
	Introspection bool
	Logger        *slog.Logger
	// RequestID returns the request id carried by ctx, for INTERNAL errors.
	RequestID func(ctx context.Context) string
	// Limits bound every request; zero fields take DefaultLimits.
	Limits Limits
	// WriteGuard, when set, is asked before every mutation field runs; an
	// error refuses the mutation (a *fault.Error keeps its message), e.g.
	// when the disk is nearly full.
	WriteGuard func(ctx context.Context) error
	// Annotate, when set, receives the operation name and the first
	// error's code of every response (for the access log).
	Annotate func(ctx context.Context, operation, code string)
	// CountError, when set, is called with the extensions.code of every
	// error returned (for metrics).
	CountError func(code string)
	// ChargeBatch, when set, is asked before a root mutation field whose
	// input argument is a list (writeFacts) runs, with the list's length;
	// an error refuses the field (the rate limit's weight of a batch).
	ChargeBatch func(ctx context.Context, n int) error
	// Subscriptions, when set, serves subscriptions over a websocket on
	// the same path (see Subscriptions); nil refuses websocket upgrades.
	Subscriptions *Subscriptions
}

// NewHandler returns the GraphQL endpoint: POST and GET transports, and a
// websocket for subscriptions when o.Subscriptions is set; errors presented
// with extensions.code (transport errors included); per-request loaders.
// It expects the identity to be in the context of every request but a
// websocket upgrade (IsUpgrade), which authenticates in its
// connection_init message.
func NewHandler(r *resolvers.Resolver, o Options) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.RequestID == nil {
		o.RequestID = func(context.Context) string { return "" }
	}
	srv := handler.New(generated.NewExecutableSchema(generated.Config{Resolvers: r}))
	if o.Subscriptions != nil {
		srv.AddTransport(websocketTransport(*o.Subscriptions))
	}
	srv.AddTransport(transport.GET{})
	srv.AddTransport(postTransport{}) // transport.POST, writing responses in one pass
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetDisableSuggestion(!o.Introspection)
	o.Limits = o.Limits.withDefaults()
	srv.SetParserTokenLimit(o.Limits.ParserTokens)
	if o.Introspection {
		srv.Use(extension.Introspection{})
	}
	srv.Use(limitsExtension{l: o.Limits, counted: &selectionCounts{}})
	srv.AroundOperations(guardOperations)
	srv.AroundFields(markInternal)
	srv.AroundFields(guardIntrospection)
	if o.WriteGuard != nil {
		srv.AroundFields(guardWrites(o.WriteGuard))
	}
	if o.ChargeBatch != nil {
		srv.AroundFields(chargeBatches(o.ChargeBatch))
	}
	srv.AroundResponses(observe(o))
	srv.SetErrorPresenter(presenter(o))
	r.PresentError = presenter(o)
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		o.Logger.ErrorContext(ctx, "resolver panic", "panic", v, "request_id", o.RequestID(ctx))
		return internalError{errors.New("panic in resolver")}
	})
	httpHandler := guardTransport(r.Middleware(srv))
	if o.Subscriptions == nil {
		return httpHandler
	}
	// A websocket's operations get fresh loaders on every read (no
	// per-connection cache: a long-lived one would serve stale edges).
	ws := serveWebsocket(srv)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if IsUpgrade(req) {
			ws.ServeHTTP(w, req)
			return
		}
		httpHandler.ServeHTTP(w, req)
	})
}

// Upgrades routes websocket upgrades (IsUpgrade) to ws and every other
// request to other: an upgrade authenticates in its connection_init
// message and outlives any request deadline, so it must not pass through
// the HTTP chain's authentication and timeout.
func Upgrades(ws, other http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if IsUpgrade(r) {
			ws.ServeHTTP(w, r)
			return
		}
		other.ServeHTTP(w, r)
	})
}

// guardWrites refuses every root mutation field while guard fails.
func guardWrites(guard func(context.Context) error) graphql.FieldMiddleware {
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		fc := graphql.GetFieldContext(ctx)
		if fc != nil && fc.Object == "Mutation" && fc.IsResolver {
			if err := guard(ctx); err != nil {
				return nil, err
			}
		}
		return next(ctx)
	}
}

// chargeBatches charges every root mutation field whose input is a list
// for its length.
func chargeBatches(charge func(context.Context, int) error) graphql.FieldMiddleware {
	return func(ctx context.Context, next graphql.Resolver) (any, error) {
		fc := graphql.GetFieldContext(ctx)
		if fc != nil && fc.Object == "Mutation" && fc.IsResolver {
			if v := reflect.ValueOf(fc.Args["input"]); v.Kind() == reflect.Slice {
				if err := charge(ctx, v.Len()); err != nil {
					return nil, err
				}
			}
		}
		return next(ctx)
	}
}

// observe reports each response's operation name and error codes.
func observe(o Options) graphql.ResponseMiddleware {
	return func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		resp := next(ctx)
		if resp == nil {
			return nil
		}
		code := "OK"
		for i, e := range resp.Errors {
			c, _ := e.Extensions["code"].(string)
			if i == 0 {
				code = c
			}
			if o.CountError != nil {
				o.CountError(c)
			}
		}
		// A websocket's responses are its subscriptions' changes, for as
		// long as it lives: annotating its one request log line with
		// each would grow it without bound.
		if o.Annotate != nil && wsFrom(ctx) == nil {
			op := ""
			if graphql.HasOperationContext(ctx) {
				oc := graphql.GetOperationContext(ctx)
				op = oc.OperationName
				if op == "" && oc.Operation != nil {
					op = oc.Operation.Name
				}
			}
			o.Annotate(ctx, op, code)
		}
		return resp
	}
}

// internalError marks an error a resolver returned that is not a
// user-facing fault: its detail goes to the log, never to the caller.
type internalError struct{ err error }

func (e internalError) Error() string { return e.err.Error() }
func (e internalError) Unwrap() error { return e.err }

// markInternal wraps every resolver error that is not a fault, so that the
// presenter can tell it from gqlgen's own input errors.
func markInternal(ctx context.Context, next graphql.Resolver) (any, error) {
	res, err := next(ctx)
	if err != nil && !isFault(err) && !errors.As(err, new(internalError)) {
		var gerr *gqlerror.Error
		if !errors.As(err, &gerr) {
			err = internalError{err}
		}
	}
	return res, err
}

func isFault(err error) bool {
	var f *fault.Error
	return errors.As(err, &f)
}

// presenter maps every error to a GraphQL error with extensions.code:
// faults keep their message and kind; deadline and cancellation are
// reported as such; resolver failures become INTERNAL with the request id
// and are logged; what remains are gqlgen's parse, validation and input
// coercion errors, which are the caller's: BAD_USER_INPUT.
func presenter(o Options) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := graphql.DefaultErrorPresenter(ctx, err)
		if gerr.Extensions == nil {
			gerr.Extensions = map[string]any{}
		}
		var f *fault.Error
		var ie internalError
		switch {
		case errors.As(err, &f):
			gerr.Message = f.Msg
			gerr.Extensions["code"] = string(f.Kind)
			if f.Field != "" {
				gerr.Extensions["field"] = f.Field
			}
			if i, ok := fault.IndexOf(err); ok {
				gerr.Extensions["index"] = i
			}
			if f.Kind == fault.Internal {
				o.Logger.ErrorContext(ctx, "internal error", "err", err, "request_id", o.RequestID(ctx))
				gerr.Extensions["requestId"] = o.RequestID(ctx)
			}
		case errors.Is(err, context.DeadlineExceeded):
			gerr.Message = "the request took too long and was cancelled; retry, or ask for less"
			gerr.Extensions["code"] = string(fault.Internal)
			gerr.Extensions["requestId"] = o.RequestID(ctx)
		case errors.Is(err, context.Canceled):
			gerr.Message = "the request was cancelled"
			gerr.Extensions["code"] = string(fault.Internal)
			gerr.Extensions["requestId"] = o.RequestID(ctx)
		case errors.As(err, &ie), gerr.Message == nullViolation:
			o.Logger.ErrorContext(ctx, "internal error", "err", err, "path", gerr.Path.String(), "request_id", o.RequestID(ctx))
			gerr.Message = "internal error; the request id identifies it in the server log"
			gerr.Extensions["code"] = string(fault.Internal)
			gerr.Extensions["requestId"] = o.RequestID(ctx)
		case gerr.Message == operationNotFound:
			gerr.Message = "the document defines several operations: name the one to run with operationName"
			gerr.Extensions["code"] = string(fault.BadInput)
		default:
			gerr.Extensions["code"] = string(fault.BadInput)
		}
		return gerr
	}
}

// nullViolation is gqlgen's message when a resolver breaks non-null.
const nullViolation = "the requested element is null which the schema does not allow"

// operationNotFound is gqlgen's message when a document has several
// operations and the request names none.
const operationNotFound = "operation  not found"

// Timeout bounds every request's context.
func Timeout(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
