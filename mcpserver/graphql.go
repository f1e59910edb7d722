package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// GraphQL executes stategraph GraphQL operations as the bearer of a token.
// Every tool goes through it, so a tool is subject to exactly the
// authentication, permissions, limits and errors of the GraphQL API.
type GraphQL struct {
	// Handler, when set, serves the request in process (the server's own
	// HTTP handler, with its authentication and rate limit).
	Handler http.Handler
	// URL is the /graphql endpoint of a running server, used when Handler
	// is nil.
	URL string
	// Client sends requests to URL; nil means http.DefaultClient.
	Client *http.Client
}

// Error is a GraphQL error: the message and extensions.code the API
// answered, which a tool returns unchanged.
type Error struct {
	Message string `json:"message"`
	Code    string `json:"code"`
	Path    []any  `json:"path,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

type gqlResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// maxResponse bounds a response read from the API.
const maxResponse = 16 << 20

// Do runs query with vars as the bearer of token and returns its data. A
// GraphQL error is returned as *Error with the API's code and message.
func (g *GraphQL) Do(ctx context.Context, token, query string, vars map[string]any) (json.RawMessage, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	url := g.URL
	if g.Handler != nil {
		url = "http://stategraph.internal/graphql"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	status, raw, err := g.send(req)
	if err != nil {
		return nil, err
	}
	var resp gqlResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, &Error{Code: "INTERNAL", Message: fmt.Sprintf("the stategraph server answered HTTP %d without a GraphQL response", status)}
	}
	if len(resp.Errors) > 0 {
		e := resp.Errors[0]
		code, _ := e.Extensions["code"].(string)
		if code == "" {
			code = "INTERNAL"
		}
		return nil, &Error{Code: code, Message: e.Message, Path: e.Path}
	}
	if status != http.StatusOK || len(resp.Data) == 0 || string(resp.Data) == "null" {
		return nil, &Error{Code: "INTERNAL", Message: fmt.Sprintf("the stategraph server answered HTTP %d without data", status)}
	}
	return resp.Data, nil
}

func (g *GraphQL) send(req *http.Request) (int, []byte, error) {
	if g.Handler != nil {
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		g.Handler.ServeHTTP(rec, req)
		return rec.status, rec.body.Bytes(), nil
	}
	if g.URL == "" {
		return 0, nil, errors.New("mcpserver: no GraphQL handler or URL")
	}
	c := g.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, &Error{Code: "INTERNAL", Message: "cannot reach the stategraph server at " + g.URL + ": " + unwrapURL(err)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return 0, nil, &Error{Code: "INTERNAL", Message: "reading the stategraph server's answer failed; retry"}
	}
	return resp.StatusCode, raw, nil
}

func unwrapURL(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

// recorder is the response writer of an in-process request.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}
