package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
)

func TestZZProbe(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	do := func(method, path, ctype, body string) {
		req, _ := http.NewRequest(method, env.URL+path, strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		t0 := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(b) > 300 {
			b = b[:300]
		}
		t.Logf("%s %s %q -> %d %s (%v) %s", method, path, ctype, resp.StatusCode, resp.Header.Get("Content-Type"), time.Since(t0), b)
	}
	do("POST", "/graphql", "application/json", `{"query":"{ __schema { types { name } } }"}`)
	do("POST", "/graphql", "application/json", `{"query":"{ __type(name: \"Fact\") { name } }"}`)
	do("POST", "/graphql", "application/json", `{"query": SECRETBODY`)
	do("POST", "/graphql", "text/plain", `{"query":"{ me { organization } }"} SECRETBODY`)
	do("POST", "/graphql", "", `{"query":"{ me { organization } }"}`)
	do("GET", "/graphql?query=mutation%7BforgetFact(id:%22x%22)%7Bid%7D%7D", "", "")
	do("GET", "/graphql?query=%7Bme%7Borganization%7D%7D", "", "")
	do("GET", "/graphql", "", "")
	do("PUT", "/graphql", "application/json", `{"query":"{ me { organization } }"}`)
	do("POST", "/graphql/foo", "application/json", `{"query":"{ me { organization } }"}`)
	do("GET", "/graphql/", "", "")
	do("POST", "/graphql", "application/json", `{"query":"{ me { organization } }", "variables": "SECRETBODY"}`)
	do("POST", "/graphql", "application/json", `{"query":"query SECRETBODY { nope }"}`)
	do("POST", "/graphql", "application/json", strings.Repeat(" ", 2<<20))
	do("GET", "/readyz", "", "")
	do("GET", "/metrics", "", "")
	q := `{"query":"{ ` + strings.Repeat("me { organization } ", 105000/20) + `}"}`
	do("POST", "/graphql", "application/json", q)
}
