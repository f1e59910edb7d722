package environment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultTimeout bounds each provider call.
const DefaultTimeout = 300 * time.Millisecond

// maxProviderBody bounds a provider's response.
const maxProviderBody = 64 << 10

// Provider is an HTTP endpoint returning a JSON object of signals; each
// member becomes the entry "name.member".
type Provider struct {
	Name string
	URL  string
}

var namePattern = keyPattern

// ParseProvider parses "name=URL" (the --environment-provider flag).
func ParseProvider(s string) (Provider, error) {
	name, raw, ok := strings.Cut(s, "=")
	if !ok || !namePattern.MatchString(name) {
		return Provider{}, fmt.Errorf("environment provider %q: want name=URL with a name of letters, digits and . _ : -", s)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Provider{}, fmt.Errorf("environment provider %q: want an http or https URL", name)
	}
	return Provider{Name: name, URL: raw}, nil
}

// Signal is one value a provider returned.
type Signal struct {
	Key, Value string
}

// Fetcher calls providers. It is safe for concurrent use.
type Fetcher struct {
	providers []Provider
	timeout   time.Duration
	client    *http.Client
}

// NewFetcher returns a Fetcher over providers; a timeout <= 0 means
// DefaultTimeout.
func NewFetcher(providers []Provider, timeout time.Duration) *Fetcher {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Fetcher{providers: slices.Clone(providers), timeout: timeout, client: &http.Client{}}
}

// Len returns the number of providers.
func (f *Fetcher) Len() int {
	if f == nil {
		return 0
	}
	return len(f.providers)
}

// Fetch calls every provider concurrently, each bounded by the timeout,
// and returns their signals sorted by key and, for each provider that was
// slow or failed, an issue naming it. It never fails as a whole and never
// caches.
func (f *Fetcher) Fetch(ctx context.Context) ([]Signal, []string) {
	if f.Len() == 0 {
		return nil, nil
	}
	type result struct {
		sig   []Signal
		issue string
	}
	res := make([]result, len(f.providers))
	var wg sync.WaitGroup
	for i, p := range f.providers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sig, err := f.call(ctx, p)
			if err != nil {
				res[i].issue = p.Name + ": " + err.Error()
				return
			}
			res[i].sig = sig
		}()
	}
	wg.Wait()
	var sigs []Signal
	var issues []string
	for _, r := range res {
		sigs = append(sigs, r.sig...)
		if r.issue != "" {
			issues = append(issues, r.issue)
		}
	}
	slices.SortFunc(sigs, func(a, b Signal) int { return strings.Compare(a.Key, b.Key) })
	return sigs, issues
}

// Errors a provider call reports; they name no internal detail.
var (
	errTimeout  = errors.New("no answer within the timeout")
	errStatus   = errors.New("answered with an error status")
	errNotJSON  = errors.New("did not return a JSON object")
	errFailed   = errors.New("could not be reached")
	errTooLarge = errors.New("returned more than 64 KiB")
)

func (f *Fetcher) call(ctx context.Context, p Provider) ([]Signal, error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL, nil)
	if err != nil {
		return nil, errFailed
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w (%s)", errTimeout, f.timeout)
		}
		return nil, errFailed
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("%w (%d)", errStatus, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxProviderBody+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w (%s)", errTimeout, f.timeout)
		}
		return nil, errFailed
	}
	if len(body) > maxProviderBody {
		return nil, errTooLarge
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return nil, errNotJSON
	}
	out := make([]Signal, 0, len(obj))
	for k, v := range obj {
		out = append(out, Signal{Key: p.Name + "." + k, Value: valueText(v)})
	}
	return out, nil
}

// valueText renders a JSON value: strings unquoted, the rest compact.
func valueText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}
