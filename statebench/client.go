package statebench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Client speaks GraphQL over HTTP to a stategraph server, as any client
// would.
type Client struct {
	URL  string // the /graphql endpoint
	HTTP *http.Client
}

// GraphQLError is an error a server answered with.
type GraphQLError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// Code returns the error's extensions.code.
func (e GraphQLError) Code() string {
	c, _ := e.Extensions["code"].(string)
	return c
}

// ResponseError is returned when the server answered with errors.
type ResponseError struct {
	Status int
	Errors []GraphQLError
}

func (e *ResponseError) Error() string {
	if len(e.Errors) == 0 {
		return fmt.Sprintf("statebench: HTTP %d", e.Status)
	}
	var msgs []string
	for _, ge := range e.Errors {
		msgs = append(msgs, ge.Code()+": "+ge.Message)
	}
	return "statebench: " + strings.Join(msgs, "; ")
}

// Index returns the first error's extensions.index: the item of a batch
// it is about.
func (e *ResponseError) Index() (int, bool) {
	if len(e.Errors) == 0 {
		return 0, false
	}
	i, ok := e.Errors[0].Extensions["index"].(float64)
	return int(i), ok
}

// Code returns the first error's code.
func (e *ResponseError) Code() string {
	if len(e.Errors) == 0 {
		return ""
	}
	return e.Errors[0].Code()
}

// Do posts query with vars using token and decodes the data into out.
func (c *Client) Do(ctx context.Context, token, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return fmt.Errorf("statebench: encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("statebench: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("statebench: post: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("statebench: read response: %w", err)
	}
	var r struct {
		Data   json.RawMessage `json:"data"`
		Errors []GraphQLError  `json:"errors"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("statebench: HTTP %d, undecodable response: %w", resp.StatusCode, err)
	}
	if len(r.Errors) > 0 || resp.StatusCode != http.StatusOK {
		return &ResponseError{Status: resp.StatusCode, Errors: r.Errors}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(r.Data, out); err != nil {
		return fmt.Errorf("statebench: decode data: %w", err)
	}
	return nil
}
