// Package mcpserver serves stategraph to agents over the Model Context
// Protocol: a few tools an LLM can call (assemble_context, write_fact,
// record_turn, ...), each one GraphQL operation executed as the caller.
// Tools never reach the domain services directly: they send their
// operation to the GraphQL API with the caller's bearer token, in process
// or over HTTP, so they have the API's permissions, limits and errors. A
// GraphQL error becomes a tool error (IsError) whose text is the GraphQL
// error itself: {"errors":[{"message":...,"extensions":{"code":...}}]}.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Version is the implementation version announced to clients.
const Version = "1.0.0"

// Options configure a Server.
type Options struct {
	// GraphQL executes the tools' operations.
	GraphQL *GraphQL
	// Token returns the bearer token of a tool call: a fixed token over
	// stdio, the request's Authorization header over HTTP.
	Token func(*mcp.CallToolRequest) string
	// Logger logs the server's activity; nil logs nothing.
	Logger *slog.Logger
	// MaxBodyBytes bounds HTTP request bodies (HTTPHandler); 0 means the
	// SDK's default.
	MaxBodyBytes int64
}

// New returns an MCP server with every stategraph tool.
func New(o Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "stategraph", Title: "stategraph", Version: Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       o.Logger,
	})
	t := &tools{gql: o.GraphQL, token: o.Token}
	t.register(s)
	s.AddReceivingMiddleware(argumentErrors)
	return s
}

// argumentErrors gives the SDK's own tool errors (arguments that fail the
// tool's JSON schema, before the tool runs) GraphQL's shape, as
// BAD_USER_INPUT: every tool error then reads the same way.
func argumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if err != nil || method != "tools/call" || !ok || !r.IsError || len(r.Content) != 1 {
			return res, err
		}
		tc, ok := r.Content[0].(*mcp.TextContent)
		if !ok || strings.HasPrefix(tc.Text, `{"errors":`) {
			return res, err
		}
		return toolError(&Error{Code: "BAD_USER_INPUT", Message: "invalid arguments: " + tc.Text}), nil
	}
}

const instructions = `stategraph keeps the state you reason from: facts that supersede each other (never overwritten), short-lived state assertions, conflicts, and the conversation.
Before answering, call assemble_context with the user's request to get the current, permission-filtered context. Record each user and assistant turn with record_turn (it detects "actually, X is now Y" and supersedes the old fact). Write durable facts with write_fact (give supersedes to replace one), short-lived observations with assert_state. Every error carries a code: BAD_USER_INPUT (fix the arguments), FORBIDDEN, NOT_FOUND, CONFLICT, UNAUTHENTICATED, INTERNAL.`

// FixedToken returns a Token function answering token for every call.
func FixedToken(token string) func(*mcp.CallToolRequest) string {
	return func(*mcp.CallToolRequest) string { return token }
}

// HeaderToken returns the bearer token of the HTTP request that carried
// the call.
func HeaderToken(req *mcp.CallToolRequest) string {
	if req == nil || req.Extra == nil || req.Extra.Header == nil {
		return ""
	}
	scheme, tok, ok := strings.Cut(req.Extra.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// HTTPHandler serves streamable HTTP MCP, stateless: each request stands
// alone. Put it behind the same authentication as /graphql: each tool call
// forwards the bearer token of its own request (o.Token is ignored).
func HTTPHandler(o Options) http.Handler {
	o.Token = HeaderToken
	s := New(o)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		Logger:                       o.Logger,
		MaxRequestBodyBytes:          o.MaxBodyBytes,
		PropagateRequestCancellation: true,
	})
}

// toolError is the tool result of a failed call: the GraphQL error shape.
func toolError(err error) *mcp.CallToolResult {
	var ge *Error
	if !errors.As(err, &ge) {
		ge = &Error{Code: "INTERNAL", Message: "the tool failed: " + err.Error()}
	}
	type extensions struct {
		Code string `json:"code"`
	}
	type gqlError struct {
		Message    string     `json:"message"`
		Path       []any      `json:"path,omitempty"`
		Extensions extensions `json:"extensions"`
	}
	b, _ := json.Marshal(map[string][]gqlError{"errors": {{Message: ge.Message, Path: ge.Path, Extensions: extensions{ge.Code}}}})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}
