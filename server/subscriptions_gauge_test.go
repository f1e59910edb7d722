package server_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stategraph/stategraph/graph"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// TestSubscriptionInitTimeout: a websocket that sends no connection_init
// within the init timeout is closed with 4408, as graphql-transport-ws
// says, and gives back nothing it never took.
func TestSubscriptionInitTimeout(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.SubscriptionInitTimeout = 200 * time.Millisecond })
	c := dialWS(t, env, nil)
	start := time.Now()
	code, reason := c.closed(5 * time.Second)
	if code != graph.CloseInitTimeout {
		t.Fatalf("closed with %d %q, want %d", code, reason, graph.CloseInitTimeout)
	}
	if !strings.Contains(reason, "connection_init") {
		t.Errorf("reason %q does not say what to send", reason)
	}
	if waited := time.Since(start); waited < 150*time.Millisecond {
		t.Errorf("closed after %v, before the init timeout", waited)
	}
	// A client that does init in time is not affected.
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	connect(t, env, bearer(tok))
}

// TestSubscriptionGauges: /metrics shows the live subscriptions and open
// connections, all organizations together (no organization label).
func TestSubscriptionGauges(t *testing.T) {
	env := apitest.New(t)
	gauges := func() string {
		body := string(raw(t, env, "GET", "/metrics", "", "", "").body)
		return grepLines(body, "stategraph_subscription")
	}
	want := func(subs, conns string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			g := gauges()
			lines := strings.Split(g, "\n")
			if slices.Contains(lines, "stategraph_subscriptions "+subs) && slices.Contains(lines, "stategraph_subscription_connections "+conns) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("gauges:\n%s\nwant %s subscriptions on %s connections", g, subs, conns)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	want("0", "0")
	a := connect(t, env, bearer(apitest.Token(t, apitest.Identity("org-a", "alice"))))
	b := connect(t, env, bearer(apitest.Token(t, apitest.Identity("org-b", "bob"))))
	a.subscribe("1", `subscription { factChanged { kind } }`, nil)
	a.subscribe("2", `subscription { conflictChanged { kind } }`, nil)
	b.subscribe("1", `subscription { assertionChanged { kind } }`, nil)
	want("3", "2")
	if g := gauges(); strings.Contains(g, "org-") {
		t.Errorf("a gauge names an organization:\n%s", g)
	}
	a.send(wsMsg{Type: "complete", ID: "1"})
	want("2", "2")
	b.conn.Close()
	want("1", "1")
}
