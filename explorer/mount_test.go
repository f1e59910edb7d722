package explorer_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// TestMounted checks that a server serves the explorer, and prefills the
// sign-in form with the demo token only in dev.
func TestMounted(t *testing.T) {
	cases := []struct {
		name      string
		dev       bool
		wantToken bool
	}{
		{"production", false, false},
		{"dev", true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := apitest.New(t, func(o *server.Options) { o.Dev = tc.dev; o.DevToken = "demo-token" })
			resp, err := env.HTTP.Client().Get(env.URL + "/explorer/")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if got := strings.Contains(string(body), `"devToken":"demo-token"`); got != tc.wantToken {
				t.Errorf("page carries the demo token: %v, want %v", got, tc.wantToken)
			}
			// /explorer redirects to /explorer/.
			r, err := env.HTTP.Client().Get(env.URL + "/explorer")
			if err != nil {
				t.Fatal(err)
			}
			r.Body.Close()
			if r.Request.URL.Path != "/explorer/" {
				t.Errorf("/explorer ended at %s", r.Request.URL.Path)
			}
		})
	}
}
