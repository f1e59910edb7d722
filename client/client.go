package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/Khan/genqlient/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Client is an authenticated stategraph client. It implements
// graphql.Client, so every generated operation function takes it
// (client.WriteFact(ctx, c, input)); its methods are shorthands for the
// common calls. Every error it returns for a GraphQL or HTTP error is an
// *Error. A Client is safe for concurrent use.
type Client struct {
	gql graphql.Client
}

var _ graphql.Client = (*Client)(nil)

// Option changes how New builds a Client.
type Option func(*options)

type options struct {
	http *http.Client
}

// WithHTTPClient makes the client send its requests with a copy of hc
// whose transport is wrapped to add the bearer token (default
// http.DefaultClient; hc itself is not changed).
func WithHTTPClient(hc *http.Client) Option {
	return func(o *options) { o.http = hc }
}

// New returns a client of the server at endpoint that authenticates with
// token, a JWT the server verifies (stategraph token mints one). endpoint is
// the GraphQL URL (http://127.0.0.1:8080/graphql); a URL with no path gets
// /graphql. An empty token sends no Authorization header.
func New(endpoint, token string, opts ...Option) *Client {
	o := options{}
	for _, f := range opts {
		f(&o)
	}
	if o.http == nil {
		o.http = http.DefaultClient
	}
	hc := *o.http
	hc.Transport = &BearerTransport{Token: token, Base: o.http.Transport}
	return &Client{gql: graphql.NewClient(graphqlURL(endpoint), &hc)}
}

// graphqlURL appends /graphql to an endpoint that names only a server.
func graphqlURL(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Path != "" && u.Path != "/") {
		return endpoint
	}
	u.Path = "/graphql"
	return u.String()
}

// BearerTransport is an http.RoundTripper that adds "Authorization: Bearer
// Token" to every request it sends through Base (http.DefaultTransport when
// nil). It never modifies the caller's request.
type BearerTransport struct {
	Token string
	Base  http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *BearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if t.Token == "" {
		return base.RoundTrip(r)
	}
	r2 := r.Clone(r.Context())
	r2.Header.Set("Authorization", "Bearer "+t.Token)
	return base.RoundTrip(r2)
}

// MakeRequest implements graphql.Client: it sends req and maps GraphQL and
// HTTP errors to *Error.
func (c *Client) MakeRequest(ctx context.Context, req *graphql.Request, resp *graphql.Response) error {
	return mapError(c.gql.MakeRequest(ctx, req, resp))
}

// WriteFact records a fact; with in.Supersedes set (a fact id, or a key
// meaning its currently valid fact) it supersedes that fact in the same
// transaction.
func (c *Client) WriteFact(ctx context.Context, in FactInput) (*Fact, error) {
	r, err := WriteFact(ctx, c, in)
	if err != nil {
		return nil, err
	}
	return &r.WriteFact, nil
}

// CurrentValue returns the valid head of key's supersession chain now, or
// nil when the caller can read no valid fact with that key.
func (c *Client) CurrentValue(ctx context.Context, key string) (*Fact, error) {
	r, err := CurrentValue(ctx, c, key, nil, nil)
	if err != nil {
		return nil, err
	}
	return r.CurrentValue, nil
}

// Fact returns the fact with id, or nil when it does not exist for the
// caller.
func (c *Client) Fact(ctx context.Context, id string) (*Fact, error) {
	r, err := FactByID(ctx, c, id, nil, nil)
	if err != nil {
		return nil, err
	}
	return r.Fact, nil
}

// FactHistory returns every chain containing a fact with key, oldest first.
func (c *Client) FactHistory(ctx context.Context, key string) ([]Fact, error) {
	r, err := FactHistory(ctx, c, key, nil, nil)
	if err != nil {
		return nil, err
	}
	return r.FactHistory, nil
}

// RecordTurn records a conversation turn and applies the supersessions it
// states.
func (c *Client) RecordTurn(ctx context.Context, in TurnInput) (*TurnResult, error) {
	r, err := RecordTurn(ctx, c, in)
	if err != nil {
		return nil, err
	}
	return &r.RecordTurn, nil
}

// AssembleContext returns the caller's token-budgeted context for in.Query.
func (c *Client) AssembleContext(ctx context.Context, in ContextInput) (*AssembledContext, error) {
	r, err := AssembleContext(ctx, c, in)
	if err != nil {
		return nil, err
	}
	return &r.AssembleContext, nil
}

// conflictPage is the page size Conflicts asks for: the most that keeps
// the query under the server's complexity limit with the fields asked.
const conflictPage = 50

// Conflicts returns every conflict the caller may read that matches filter
// (nil: all), oldest first, following the pages to the end.
func (c *Client) Conflicts(ctx context.Context, filter *ConflictFilter) ([]Conflict, error) {
	var all []Conflict
	var after *string
	for {
		first := conflictPage
		r, err := Conflicts(ctx, c, filter, &first, after, nil, nil)
		if err != nil {
			return nil, err
		}
		for _, e := range r.Conflicts.Edges {
			all = append(all, e.Node)
		}
		p := r.Conflicts.PageInfo
		if !p.HasNextPage || p.EndCursor == nil {
			return all, nil
		}
		after = p.EndCursor
	}
}

// ResolveConflict keeps the candidate keep (a fact or assertion id) of the
// conflict id, revokes the others, and records the decision with reason.
func (c *Client) ResolveConflict(ctx context.Context, id, keep, reason string) (*Conflict, error) {
	r, err := ResolveConflict(ctx, c, id, keep, reason)
	if err != nil {
		return nil, err
	}
	return &r.ResolveConflict, nil
}

// Value encodes v as a JSON value for FactInput.Value; it panics if v
// cannot be encoded (a channel, a function), which is a programming error.
func Value(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("client: encode value: %v", err))
	}
	return b
}

// Ptr returns a pointer to v, for the optional fields of inputs.
func Ptr[T any](v T) *T { return &v }

// Code is a GraphQL error's extensions.code.
type Code string

// The codes the server sets on every error.
const (
	CodeUnauthenticated Code = "UNAUTHENTICATED"
	CodeForbidden       Code = "FORBIDDEN"
	CodeBadUserInput    Code = "BAD_USER_INPUT"
	CodeNotFound        Code = "NOT_FOUND"
	CodeConflict        Code = "CONFLICT"
	CodeInternal        Code = "INTERNAL"
)

// Error is an error the server answered: the first GraphQL error of the
// response, with its code. Errors holds every error of the response.
type Error struct {
	// Code is extensions.code, or one derived from the HTTP status when the
	// server sent none.
	Code    Code
	Message string
	// Path is the response path the error belongs to, when it has one.
	Path string
	// Extensions are the error's extensions, code included.
	Extensions map[string]any
	// StatusCode is the HTTP status when it was not 200 OK, else 0.
	StatusCode int
	// Errors is every error of the response, this one first.
	Errors []*Error
}

// Error implements error.
func (e *Error) Error() string {
	s := "stategraph: " + string(e.Code) + ": " + e.Message
	if e.Path != "" {
		s += " (at " + e.Path + ")"
	}
	if n := len(e.Errors); n > 1 {
		s += fmt.Sprintf(" (and %d more)", n-1)
	}
	return s
}

// CodeOf returns the code of err when it is (or wraps) an *Error, else "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// mapError turns genqlient's error of a response into an *Error; transport
// errors are wrapped as they are.
func mapError(err error) error {
	if err == nil {
		return nil
	}
	var list gqlerror.List
	if errors.As(err, &list) && len(list) > 0 {
		return fromList(list, 0)
	}
	var he *graphql.HTTPError
	if errors.As(err, &he) {
		if len(he.Response.Errors) > 0 {
			return fromList(he.Response.Errors, he.StatusCode)
		}
		return &Error{Code: statusCode(he.StatusCode), Message: http.StatusText(he.StatusCode), StatusCode: he.StatusCode}
	}
	return fmt.Errorf("stategraph: %w", err)
}

func fromList(list gqlerror.List, status int) *Error {
	all := make([]*Error, 0, len(list))
	for _, ge := range list {
		if ge == nil {
			continue
		}
		e := &Error{Message: ge.Message, Extensions: ge.Extensions, StatusCode: status}
		if c, ok := ge.Extensions["code"].(string); ok {
			e.Code = Code(c)
		} else {
			e.Code = statusCode(status)
		}
		if len(ge.Path) > 0 {
			e.Path = ge.Path.String()
		}
		all = append(all, e)
	}
	if len(all) == 0 {
		return &Error{Code: statusCode(status), Message: http.StatusText(status), StatusCode: status}
	}
	first := *all[0]
	first.Errors = all
	return &first
}

// statusCode is the code of an HTTP status that came without one.
func statusCode(status int) Code {
	switch status {
	case http.StatusUnauthorized:
		return CodeUnauthenticated
	case http.StatusForbidden:
		return CodeForbidden
	case http.StatusNotFound:
		return CodeNotFound
	case http.StatusBadRequest, http.StatusUnprocessableEntity, http.StatusRequestEntityTooLarge:
		return CodeBadUserInput
	default:
		return CodeInternal
	}
}
