package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// devServer is a 'serve --dev' started by run, in memory, on a free port.
type devServer struct {
	url, token string
}

// startDev runs 'stategraph serve --dev' until the test ends and returns
// its address and the demo token its banner prints.
func startDev(t *testing.T) devServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		args := []string{"serve", "--dev", "--in-memory", "--data-dir", t.TempDir(), "--addr", "127.0.0.1:0", "--log-level", "error"}
		err := run(ctx, args, func(string) string { return "" }, pw, io.Discard)
		pw.Close()
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve --dev: %v", err)
		}
	})
	var d devServer
	addrRE := regexp.MustCompile(`stategraph dev server on (http://\S+)`)
	tokRE := regexp.MustCompile(`"Authorization": "Bearer (\S+)"`)
	sc := bufio.NewScanner(pr)
	for d.token == "" && sc.Scan() {
		if m := addrRE.FindStringSubmatch(sc.Text()); m != nil {
			d.url = m[1]
		}
		if m := tokRE.FindStringSubmatch(sc.Text()); m != nil {
			d.token = m[1]
		}
	}
	if d.url == "" || d.token == "" {
		t.Fatalf("the dev banner gave no address or no token (scan error %v)", sc.Err())
	}
	go io.Copy(io.Discard, pr)
	return d
}

func get(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s: %v", url, err)
	}
	return resp, body
}

// pageConfig is the configuration the GraphiQL page embeds.
type pageConfig struct {
	Endpoint string            `json:"endpoint"`
	Headers  map[string]string `json:"headers"`
	Tabs     []struct {
		Query string `json:"query"`
	} `json:"tabs"`
}

// TestDevGraphiQL checks the GraphiQL page of 'serve --dev': it loads
// only local assets, each served with its content type, gzipped or not as
// the client asks; the demo token the banner prints is prefilled; and
// every example operation it opens with runs without error, in order, on
// a fresh server, the assembled context holding the superseding fact.
func TestDevGraphiQL(t *testing.T) {
	d := startDev(t)
	resp, page := get(t, d.url+"/", nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %d %q, want 200 text/html", resp.StatusCode, resp.Header.Get("Content-Type"))
	}

	refs := regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(string(page), -1)
	if len(refs) != 5 {
		t.Fatalf("the page loads %d assets, want 5 (4 scripts and a stylesheet):\n%s", len(refs), page)
	}
	wantType := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	for _, ref := range refs {
		src := ref[1]
		if !strings.HasPrefix(src, "/graphiql/") {
			t.Errorf("the page loads %q, want a local path under /graphiql/", src)
			continue
		}
		want := wantType[src[strings.LastIndex(src, "."):]]
		cases := []struct {
			name, acceptEncoding, wantEncoding string
		}{
			{"gzip", "gzip, deflate", "gzip"},
			{"identity", "identity", ""},
			{"gzip refused", "gzip;q=0", ""},
		}
		for _, tc := range cases {
			t.Run(src+"/"+tc.name, func(t *testing.T) {
				resp, body := get(t, d.url+src, map[string]string{"Accept-Encoding": tc.acceptEncoding})
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d, want 200", resp.StatusCode)
				}
				if got := resp.Header.Get("Content-Type"); got != want {
					t.Errorf("Content-Type %q, want %q", got, want)
				}
				if got := resp.Header.Get("Content-Encoding"); got != tc.wantEncoding && !(src == "/graphiql/stategraph.js" && got == "") {
					t.Errorf("Content-Encoding %q, want %q", got, tc.wantEncoding)
				}
				if resp.Header.Get("Content-Encoding") == "gzip" {
					zr, err := gzip.NewReader(bytes.NewReader(body))
					if err != nil {
						t.Fatalf("gzip: %v", err)
					}
					if body, err = io.ReadAll(zr); err != nil {
						t.Fatalf("gunzip: %v", err)
					}
				}
				if len(body) < 100 || bytes.Contains(body, []byte("sourceMappingURL")) {
					t.Errorf("body of %d bytes, want the asset without a source map link", len(body))
				}
			})
		}
	}
	if resp, _ := get(t, d.url+"/graphiql/nothing.js", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /graphiql/nothing.js = %d, want 404", resp.StatusCode)
	}

	m := regexp.MustCompile(`(?s)<script id="stategraph-config" type="application/json">(.*?)</script>`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no configuration in the page:\n%s", page)
	}
	var c pageConfig
	if err := json.Unmarshal(m[1], &c); err != nil {
		t.Fatalf("configuration %s: %v", m[1], err)
	}
	if got, want := c.Headers["Authorization"], "Bearer "+d.token; got != want {
		t.Errorf("prefilled Authorization %q, want the banner's %q", got, want)
	}
	if c.Endpoint != "/graphql" || len(c.Tabs) < 3 {
		t.Fatalf("endpoint %q and %d tabs, want /graphql and at least 3", c.Endpoint, len(c.Tabs))
	}

	// Run every operation of every tab, in order, as GraphiQL would.
	opRE := regexp.MustCompile(`(?m)^(?:query|mutation) (\w+)`)
	var contextText string
	for i, tab := range c.Tabs {
		names := opRE.FindAllStringSubmatch(tab.Query, -1)
		if len(names) == 0 {
			t.Fatalf("tab %d has no named operation:\n%s", i+1, tab.Query)
		}
		for _, n := range names {
			data := postGraphQL(t, d.url+c.Endpoint, c.Headers, tab.Query, n[1])
			if n[1] == "AssembleContext" {
				var out struct {
					AssembleContext struct{ Text string } `json:"assembleContext"`
				}
				if err := json.Unmarshal(data, &out); err != nil {
					t.Fatal(err)
				}
				contextText = out.AssembleContext.Text
			}
		}
	}
	if !strings.Contains(contextText, "cancelled") || strings.Contains(contextText, "approved") {
		t.Errorf("the example context holds\n%s\nwant the cancelled budget, not the approved one", contextText)
	}
}

// postGraphQL runs the operation name of doc with headers and returns its
// data, failing on any error.
func postGraphQL(t *testing.T, url string, headers map[string]string, doc, name string) json.RawMessage {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": doc, "operationName": name})
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer resp.Body.Close()
	var out struct {
		Data   json.RawMessage   `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s: status %d: %v", name, resp.StatusCode, err)
	}
	if resp.StatusCode != http.StatusOK || len(out.Errors) > 0 || len(out.Data) == 0 || string(out.Data) == "null" {
		t.Fatalf("%s: status %d, errors %s, data %s", name, resp.StatusCode, out.Errors, out.Data)
	}
	return out.Data
}
