package documents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/stategraph/stategraph/authority"
)

// DefaultTimeout is how long the permission webhook has to answer.
const DefaultTimeout = 500 * time.Millisecond

// maxAnswer bounds the webhook's answer.
const maxAnswer = 1 << 20

// Webhook asks an HTTP endpoint which documents a caller may see at their
// source. For every query that matched documents the stored ACL allows,
// it POSTs
//
//	{"organization": "...", "userId": "...", "groups": ["..."],
//	 "documents": [{"id": "...", "sourceUri": "..."}]}
//
// and expects 200 with {"visible": ["id", ...]}: only the ids listed are
// visible. Any other status, a malformed answer, a timeout or a refused
// connection makes every document of the query invisible.
type Webhook struct {
	URL     string
	Timeout time.Duration
	Client  *http.Client
}

// NewWebhook returns a Webhook for rawURL (http or https) with timeout
// (DefaultTimeout when not positive).
func NewWebhook(rawURL string, timeout time.Duration) (*Webhook, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("documents: permission webhook %q is not an http(s) URL", rawURL)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	// No redirects: the answer must come from the configured endpoint.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Webhook{URL: rawURL, Timeout: timeout, Client: client}, nil
}

type webhookDoc struct {
	ID        string `json:"id"`
	SourceURI string `json:"sourceUri,omitempty"`
}

type webhookRequest struct {
	Organization string       `json:"organization"`
	UserID       string       `json:"userId"`
	Groups       []string     `json:"groups"`
	Documents    []webhookDoc `json:"documents"`
}

type webhookAnswer struct {
	Visible *[]string `json:"visible"`
}

// ErrWebhook is wrapped by every failure of the webhook.
var ErrWebhook = errors.New("documents: permission webhook failed")

// Visible implements Checker.
func (w *Webhook) Visible(ctx context.Context, caller authority.Identity, docs []Document) (map[string]bool, error) {
	req := webhookRequest{Organization: caller.Org, UserID: caller.UserID, Groups: nonNil(caller.Groups)}
	for _, d := range docs {
		req.Documents = append(req.Documents, webhookDoc{ID: d.ID, SourceURI: d.SourceURI})
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWebhook, err)
	}
	ctx, cancel := context.WithTimeout(ctx, w.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWebhook, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := w.Client.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWebhook, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: status %d", ErrWebhook, resp.StatusCode)
	}
	var a webhookAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&a); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWebhook, err)
	}
	if a.Visible == nil {
		return nil, fmt.Errorf("%w: the answer has no \"visible\" list", ErrWebhook)
	}
	asked := map[string]bool{}
	for _, d := range docs {
		asked[d.ID] = true
	}
	out := map[string]bool{}
	for _, id := range *a.Visible {
		if asked[id] {
			out[id] = true
		}
	}
	return out, nil
}
