package server_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// wsMsg is a graphql-transport-ws message.
type wsMsg struct {
	Type    string          `json:"type"`
	ID      string          `json:"id,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// wsClient is a graphql-transport-ws client over a real websocket; one
// goroutine (the test's) uses it.
type wsClient struct {
	t    testing.TB
	conn *websocket.Conn
	raw  []string // every message received, for leak checks
}

func wsURL(env *apitest.Env) string { return "ws" + strings.TrimPrefix(env.URL, "http") + "/graphql" }

// dialWS opens a websocket to /graphql speaking graphql-transport-ws.
func dialWS(t testing.TB, env *apitest.Env, hdr http.Header) *wsClient {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 5 * time.Second}
	conn, resp, err := d.Dial(wsURL(env), hdr)
	if err != nil {
		t.Fatalf("dial: %v (response %v)", err, resp)
	}
	t.Cleanup(func() { conn.Close() })
	return &wsClient{t: t, conn: conn}
}

// connect dials and authenticates with payload, expecting connection_ack.
func connect(t testing.TB, env *apitest.Env, payload map[string]any) *wsClient {
	t.Helper()
	c := dialWS(t, env, nil)
	c.send(wsMsg{Type: "connection_init", Payload: mustJSON(t, payload)})
	if m := c.read(wait); m.Type != "connection_ack" {
		t.Fatalf("after connection_init got %+v, want connection_ack", m)
	}
	return c
}

func bearer(tok string) map[string]any { return map[string]any{"Authorization": "Bearer " + tok} }

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (c *wsClient) send(m wsMsg) {
	c.t.Helper()
	if err := c.conn.WriteJSON(m); err != nil {
		c.t.Fatalf("send %s: %v", m.Type, err)
	}
}

// next reads the next message within timeout, answering pings; a read
// error (the connection closed) is returned as is.
func (c *wsClient) next(timeout time.Duration) (wsMsg, error) {
	deadline := time.Now().Add(timeout)
	for {
		_ = c.conn.SetReadDeadline(deadline)
		_, b, err := c.conn.ReadMessage()
		if err != nil {
			return wsMsg{}, err
		}
		var m wsMsg
		if err := json.Unmarshal(b, &m); err != nil {
			return wsMsg{}, fmt.Errorf("decode %s: %w", b, err)
		}
		switch m.Type {
		case "ping":
			if err := c.conn.WriteJSON(wsMsg{Type: "pong"}); err != nil {
				return wsMsg{}, err
			}
			continue
		case "pong":
			continue
		}
		c.raw = append(c.raw, string(b))
		return m, nil
	}
}

// wait bounds how long a test waits for something that must happen; it is
// generous because a loaded machine delivers late, and only a failing test
// waits it out.
const wait = 30 * time.Second

func (c *wsClient) read(timeout time.Duration) wsMsg {
	c.t.Helper()
	m, err := c.next(timeout)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return m
}

func (c *wsClient) subscribe(id, query string, vars map[string]any) {
	c.t.Helper()
	c.send(wsMsg{Type: "subscribe", ID: id, Payload: mustJSON(c.t, map[string]any{"query": query, "variables": vars})})
}

// event reads the next message of subscription id, which must be a "next"
// without errors, and decodes its data into v. Events of the connection's
// other subscriptions are passed over (kept in raw): each subscription is
// its own stream, and their order relative to each other is not defined.
func (c *wsClient) event(id string, v any) {
	c.t.Helper()
	m := c.read(wait)
	for m.Type == "next" && m.ID != id {
		m = c.read(wait)
	}
	if m.Type != "next" || m.ID != id {
		c.t.Fatalf("got %s %s %s, want next of %s", m.Type, m.ID, m.Payload, id)
	}
	var r struct {
		Data   json.RawMessage `json:"data"`
		Errors json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(m.Payload, &r); err != nil || len(r.Errors) > 0 {
		c.t.Fatalf("next of %s: %s (%v)", id, m.Payload, err)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		c.t.Fatalf("decode %s: %v", r.Data, err)
	}
}

// closed reads until the connection closes and returns its close code.
func (c *wsClient) closed(timeout time.Duration) (int, string) {
	c.t.Helper()
	for {
		_, err := c.next(timeout)
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) {
			c.t.Fatalf("connection ended with %v, want a close frame", err)
		}
		return ce.Code, ce.Text
	}
}

// waitSubscribed waits until org has n live subscriptions.
func waitSubscribed(t testing.TB, env *apitest.Env, org string, n int) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for env.Server.Subscriptions(org) != n {
		if time.Now().After(deadline) {
			t.Fatalf("org %s has %d subscriptions, want %d", org, env.Server.Subscriptions(org), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

const writeFactMut = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`

func writeFactID(t testing.TB, env *apitest.Env, tok string, in map[string]any) string {
	t.Helper()
	var out struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, writeFactMut, map[string]any{"in": in}, &out)
	return out.WriteFact.ID
}

type factChange struct {
	FactChanged struct {
		Kind string
		At   string
		Fact struct {
			ID, Key string
			Value   any
			IsValid bool
		}
		Superseded *struct {
			ID    string
			Value any
		}
	}
}

const factSub = `subscription($k: String) { factChanged(key: $k) { kind at fact { id key value isValid } superseded { id value } } }`

// TestSubscribeFactChanges: a write, a supersession and a correction made
// over HTTP arrive on factChanged with the fact and the retired fact as the
// subscriber reads them; factChanged(key) sees only its key.
func TestSubscribeFactChanges(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	c := connect(t, env, bearer(tok))
	c.subscribe("all", factSub, nil)
	c.subscribe("city", factSub, map[string]any{"k": "user.city"})
	waitSubscribed(t, env, "org-a", 2)

	other := writeFactID(t, env, tok, map[string]any{"key": "user.team", "value": "infra"})
	first := writeFactID(t, env, tok, map[string]any{"key": "user.city", "value": "Paris"})
	env.Clock.Advance(time.Minute)
	second := writeFactID(t, env, tok, map[string]any{"key": "user.city", "value": "Lyon", "supersedes": "user.city"})
	env.Clock.Advance(time.Minute)
	third := writeFactID(t, env, tok, map[string]any{"key": "user.city", "value": "Lille", "supersedes": "user.city", "supersessionKind": "CORRECTION"})

	type want struct {
		kind, id, value string
		superseded      string
	}
	all := []want{{"WRITTEN", other, "infra", ""}, {"WRITTEN", first, "Paris", ""}, {"SUPERSEDED", second, "Lyon", first}, {"CORRECTED", third, "Lille", second}}
	city := all[1:]
	got := map[string][]want{}
	for range len(all) + len(city) {
		m := c.read(wait)
		if m.Type != "next" {
			t.Fatalf("got %s %s, want next", m.Type, m.Payload)
		}
		var r struct{ Data factChange }
		if err := json.Unmarshal(m.Payload, &r); err != nil {
			t.Fatal(err)
		}
		ch := r.Data.FactChanged
		w := want{kind: ch.Kind, id: ch.Fact.ID, value: fmt.Sprint(ch.Fact.Value)}
		if ch.Superseded != nil {
			w.superseded = ch.Superseded.ID
		}
		if ch.At == "" {
			t.Errorf("change %+v has no at", w)
		}
		got[m.ID] = append(got[m.ID], w)
	}
	for id, wants := range map[string][]want{"all": all, "city": city} {
		if fmt.Sprint(got[id]) != fmt.Sprint(wants) {
			t.Errorf("subscription %s got\n%v\nwant\n%v", id, got[id], wants)
		}
	}

	// complete ends a subscription and frees its slot.
	c.send(wsMsg{Type: "complete", ID: "city"})
	waitSubscribed(t, env, "org-a", 1)
}

// TestSubscriptionIsolation: a subscriber sees changes of its own
// organization only, never another user's memory, and never a fact it
// may not read (not even its id); a reader with the authority sees it.
func TestSubscriptionIsolation(t *testing.T) {
	env := apitest.New(t)
	peerID := apitest.Identity("org-a", "pat")
	peerID.Authority = "peer"
	peer := apitest.Token(t, peerID)
	execID := apitest.Identity("org-a", "ceo")
	execID.Authority = "executive"
	exec := apitest.Token(t, execID)
	bob := apitest.Token(t, apitest.Identity("org-a", "bob"))
	outsider := apitest.Token(t, apitest.Identity("org-b", "eve"))

	subs := map[string]*wsClient{}
	for name, tok := range map[string]string{"peer": peer, "exec": exec, "outsider": outsider} {
		subs[name] = connect(t, env, bearer(tok))
		subs[name].subscribe("f", factSub, nil)
		subs[name].subscribe("c", `subscription { conflictChanged { kind conflict { id status } } }`, nil)
	}
	waitSubscribed(t, env, "org-a", 4)
	waitSubscribed(t, env, "org-b", 2)

	secret := writeFactID(t, env, exec, map[string]any{
		"key": "merger.target", "value": "Initech-7f3a", "memoryType": "ORGANIZATIONAL",
		"restrictedTo": map[string]any{"minAuthority": "executive"},
	})
	// A rival of the restricted fact opens a conflict the peer may not see.
	writeFactID(t, env, exec, map[string]any{"key": "merger.target", "value": "Globex-9c2e", "memoryType": "ORGANIZATIONAL"})
	private := writeFactID(t, env, bob, map[string]any{"key": "bob.diagnosis", "value": "Hypertension-51x", "memoryType": "USER"})
	sentinel := writeFactID(t, env, exec, map[string]any{"key": "office.wifi", "value": "open", "memoryType": "ORGANIZATIONAL"})

	// The executive sees the restricted fact, its rival, the conflict,
	// and the sentinel; never bob's memory.
	var fc factChange
	subs["exec"].event("f", &fc)
	if fc.FactChanged.Fact.ID != secret {
		t.Fatalf("executive's first change is %+v, want the restricted fact %s", fc.FactChanged, secret)
	}
	// The peer's first change is the rival's write, then the sentinel. The
	// executive reads on until it has the conflict too. Each subscription
	// is its own stream, so the conflict may come before the first fact
	// (event passed it over, into raw) or after the sentinel: both are
	// judged on everything the connection received.
	for _, name := range []string{"peer", "exec"} {
		c := subs[name]
		seen := func(s string) bool { return strings.Contains(strings.Join(c.raw, "\n"), s) }
		for !seen(sentinel) || name == "exec" && !seen(`"OPENED"`) {
			m, err := c.next(wait)
			if err != nil {
				t.Fatalf("%s: %v; received:\n%s", name, err, strings.Join(c.raw, "\n"))
			}
			if m.Type != "next" {
				t.Fatalf("%s got %s %s", name, m.Type, m.Payload)
			}
		}
	}
	for _, name := range []string{"peer", "exec"} {
		log := strings.Join(subs[name].raw, "\n")
		for _, leak := range []string{private, "Hypertension-51x"} {
			if strings.Contains(log, leak) {
				t.Errorf("%s received %q of another user's memory:\n%s", name, leak, log)
			}
		}
	}
	peerLog := strings.Join(subs["peer"].raw, "\n")
	for _, leak := range []string{secret, "Initech-7f3a", "conflictChanged"} {
		if strings.Contains(peerLog, leak) {
			t.Errorf("the peer received %q, withheld from it:\n%s", leak, peerLog)
		}
	}
	if execLog := strings.Join(subs["exec"].raw, "\n"); !strings.Contains(execLog, `"OPENED"`) {
		t.Errorf("the executive saw no conflict opened:\n%s", execLog)
	}

	// The other organization saw nothing at all: its first change is its
	// own write.
	own := writeFactID(t, env, outsider, map[string]any{"key": "org.b", "value": 1})
	subs["outsider"].event("f", &fc)
	if fc.FactChanged.Fact.ID != own {
		t.Errorf("the other organization's first change is %+v, want its own write %s", fc.FactChanged, own)
	}
}

// TestSubscriptionConflictsAndAssertions: assertions asserted, in conflict,
// decided, revoked and promoted arrive on assertionChanged and
// conflictChanged.
func TestSubscriptionConflictsAndAssertions(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	c := connect(t, env, bearer(tok))
	c.subscribe("a", `subscription { assertionChanged { kind at assertion { id status } } }`, nil)
	c.subscribe("c", `subscription { conflictChanged { kind conflict { id status candidates { ... on StateAssertion { id } } } } }`, nil)
	waitSubscribed(t, env, "org-a", 2)

	assert := func(obj string) string {
		in := map[string]any{
			"subject": "Entity#1", "predicate": "location", "object": obj, "context": "thread-1",
			"epistemicStatus": "INFERENCE", "validity": map[string]any{"mode": "UNTIL_TIME", "expiresAt": apitest.Start.Add(time.Hour).Format(time.RFC3339)},
			"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.5, "method": "inferred"},
		}
		var out struct{ AssertState struct{ ID string } }
		env.MustDo(t, tok, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": in}, &out)
		return out.AssertState.ID
	}
	a1 := assert("Room#1")
	a2 := assert("Room#2")
	var conflictID string
	var seen []string
	for range 3 { // two ASSERTED, one OPENED, in either order across subscriptions
		m := c.read(wait)
		seen = append(seen, m.ID+":"+string(m.Payload))
		if m.ID == "c" {
			var r struct {
				Data struct {
					ConflictChanged struct {
						Kind     string
						Conflict struct{ ID, Status string }
					}
				}
			}
			_ = json.Unmarshal(m.Payload, &r)
			conflictID = r.Data.ConflictChanged.Conflict.ID
			if r.Data.ConflictChanged.Kind != "OPENED" || r.Data.ConflictChanged.Conflict.Status != "OPEN" {
				t.Errorf("conflict change %s, want OPENED of an OPEN conflict", m.Payload)
			}
		}
	}
	if conflictID == "" {
		t.Fatalf("no conflict change among %v", seen)
	}
	env.MustDo(t, tok, `mutation($id: ID!, $keep: ID!) { resolveConflict(id: $id, keep: $keep, reason: "seen there") { id } }`,
		map[string]any{"id": conflictID, "keep": a2}, &struct{}{})
	env.MustDo(t, tok, `mutation($id: ID!) { promoteState(id: $id, decision: {reason: "confirmed"}) { id } }`,
		map[string]any{"id": a2}, &struct{}{})

	var kinds []string
	for len(kinds) < 3 { // REVOKED a1 and DECIDED in either order, then PROMOTED a2
		m := c.read(wait)
		var r struct {
			Data struct {
				AssertionChanged *struct {
					Kind      string
					Assertion struct{ ID, Status string }
				}
				ConflictChanged *struct{ Kind string }
			}
		}
		if err := json.Unmarshal(m.Payload, &r); err != nil {
			t.Fatal(err)
		}
		switch {
		case r.Data.AssertionChanged != nil:
			a := r.Data.AssertionChanged
			kinds = append(kinds, a.Kind+" "+map[string]string{a1: "a1", a2: "a2"}[a.Assertion.ID]+" "+a.Assertion.Status)
		case r.Data.ConflictChanged != nil:
			kinds = append(kinds, r.Data.ConflictChanged.Kind)
		}
	}
	want := map[string]bool{"REVOKED a1 REVOKED": true, "DECIDED": true, "PROMOTED a2 PROMOTED": true}
	for _, k := range kinds {
		if !want[k] {
			t.Errorf("unexpected change %q among %v", k, kinds)
		}
		delete(want, k)
	}
	if len(want) > 0 {
		t.Errorf("missing changes %v; got %v", want, kinds)
	}
}

// TestSubscriptionAuthentication: connection_init must carry a token the
// HTTP endpoint would accept; a missing one closes with 4401, a refused
// one with 4403, as graphql-transport-ws says.
func TestSubscriptionAuthentication(t *testing.T) {
	env := apitest.New(t)
	good := apitest.Token(t, apitest.Identity("org-a", "alice"))
	expired, err := mintExpired()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		payload map[string]any
		code    int // 0: acknowledged
	}{
		{"no payload", nil, 4401},
		{"empty token", map[string]any{"Authorization": "Bearer "}, 4401},
		{"garbage", bearer("not-a-jwt"), 4403},
		{"another key", bearer(mintOther(t)), 4403},
		{"expired", bearer(expired), 4403},
		{"Authorization", bearer(good), 0},
		{"authorization", map[string]any{"authorization": "Bearer " + good}, 0},
		{"token", map[string]any{"token": good}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := dialWS(t, env, nil)
			c.send(wsMsg{Type: "connection_init", Payload: mustJSON(t, tc.payload)})
			if tc.code == 0 {
				if m := c.read(wait); m.Type != "connection_ack" {
					t.Fatalf("got %+v, want connection_ack", m)
				}
				return
			}
			if code, text := c.closed(wait); code != tc.code {
				t.Errorf("closed with %d %q, want %d", code, text, tc.code)
			}
		})
	}
}

// TestSubscriptionTokenExpiry: the connection closes (4401) when its
// token expires, ending its subscriptions.
func TestSubscriptionTokenExpiry(t *testing.T) {
	env := apitest.New(t)
	tok, err := authority.Mint(apitest.Secret, apitest.Identity("org-a", "alice"), 2*time.Second, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, env, bearer(tok))
	c.subscribe("f", factSub, nil)
	waitSubscribed(t, env, "org-a", 1)
	// Nothing else would close the connection: it closing at all is the
	// expiry timer at work (no bound on how soon: the machine may be busy).
	code, text := c.closed(wait)
	if code != 4401 || !strings.Contains(text, "expired") {
		t.Errorf("closed with %d %q, want 4401 saying the token expired", code, text)
	}
	waitSubscribed(t, env, "org-a", 0)
}

// TestSubscriptionLimits: an organization may hold --max-subscriptions-per-org
// subscriptions, and as many connections; one more is refused, and other
// organizations are not affected.
func TestSubscriptionLimits(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.MaxSubscriptionsPerOrg = 2 })
	a := apitest.Token(t, apitest.Identity("org-a", "alice"))
	c := connect(t, env, bearer(a))
	c.subscribe("1", factSub, nil)
	c.subscribe("2", `subscription { conflictChanged { kind } }`, nil)
	waitSubscribed(t, env, "org-a", 2)
	c.subscribe("3", `subscription { assertionChanged { kind } }`, nil)
	// A resolver's refusal is an execution result with errors, then
	// complete (graphql-transport-ws).
	m := c.read(wait)
	var res struct{ Errors []apitest.Error }
	if m.Type != "next" || m.ID != "3" || json.Unmarshal(m.Payload, &res) != nil || len(res.Errors) == 0 {
		t.Fatalf("third subscription got %s %s %s, want a result with errors", m.Type, m.ID, m.Payload)
	}
	if e := res.Errors[0]; e.Extensions["code"] != "FORBIDDEN" || !strings.Contains(e.Message, "--max-subscriptions-per-org") {
		t.Errorf("error %+v, want FORBIDDEN naming the limit", e)
	}
	if m := c.read(wait); m.Type != "complete" || m.ID != "3" {
		t.Errorf("then %s %s, want complete of 3", m.Type, m.ID)
	}

	// A second connection is allowed, a third closes with 4429.
	connect(t, env, bearer(a))
	third := dialWS(t, env, nil)
	third.send(wsMsg{Type: "connection_init", Payload: mustJSON(t, bearer(a))})
	if code, text := third.closed(wait); code != 4429 {
		t.Errorf("third connection closed with %d %q, want 4429", code, text)
	}

	// Another organization has its own allowance.
	b := connect(t, env, bearer(apitest.Token(t, apitest.Identity("org-b", "bo"))))
	b.subscribe("1", factSub, nil)
	waitSubscribed(t, env, "org-b", 1)

	// Ending one frees its slot.
	c.send(wsMsg{Type: "complete", ID: "1"})
	waitSubscribed(t, env, "org-a", 1)
	c.subscribe("4", factSub, nil)
	waitSubscribed(t, env, "org-a", 2)
}

// TestSubscriptionTransports: subscriptions run only over the websocket and
// queries only over HTTP; a browser page of another origin may not open
// the websocket.
func TestSubscriptionTransports(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	if r := env.Do(t, tok, factSub, nil); r.Code() != "BAD_USER_INPUT" || !strings.Contains(r.Errors[0].Message, "websocket") {
		t.Errorf("subscription over HTTP: %s, want BAD_USER_INPUT pointing to the websocket", r)
	}
	c := connect(t, env, bearer(tok))
	c.subscribe("q", `{ me { userId } }`, nil)
	m := c.read(wait)
	if m.Type != "next" || !strings.Contains(string(m.Payload), "BAD_USER_INPUT") {
		t.Errorf("query over the websocket: %s %s, want BAD_USER_INPUT", m.Type, m.Payload)
	}

	host := strings.TrimPrefix(env.URL, "http://")
	cases := []struct {
		name   string
		origin string
		ok     bool
	}{
		{"no origin (not a browser)", "", true},
		{"same origin", env.URL, true},
		{"other origin", "https://evil.example", false},
		{"other port", "http://" + strings.Split(host, ":")[0] + ":1", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hdr := http.Header{}
			if tc.origin != "" {
				hdr.Set("Origin", tc.origin)
			}
			d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 5 * time.Second}
			conn, resp, err := d.Dial(wsURL(env), hdr)
			if err == nil {
				conn.Close()
			}
			if ok := err == nil; ok != tc.ok {
				t.Errorf("dial with origin %q: err %v, response %v; want ok %v", tc.origin, err, resp, tc.ok)
			}
			if !tc.ok && resp != nil && resp.StatusCode != http.StatusForbidden {
				t.Errorf("refused with %d, want 403", resp.StatusCode)
			}
		})
	}
}

// TestSlowSubscriberDropped: a subscriber that stops reading is dropped
// (its subscription ends with an error) while writes go on undelayed.
func TestSlowSubscriberDropped(t *testing.T) {
	env := apitest.New(t, func(o *server.Options) { o.SubscriptionBuffer = 1 })
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	// A client that reads nothing for now.
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 5 * time.Second}
	conn, _, err := d.Dial(wsURL(env), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	slow := &wsClient{t: t, conn: conn}
	slow.send(wsMsg{Type: "connection_init", Payload: mustJSON(t, bearer(tok))})
	if m := slow.read(wait); m.Type != "connection_ack" {
		t.Fatalf("got %+v, want connection_ack", m)
	}
	// Each change asks for the fact's 54 KB value 25 times (1.3 MB), so
	// that a few changes fill the socket's buffers.
	var heavy strings.Builder
	heavy.WriteString("subscription { factChanged { kind")
	for i := range 25 {
		fmt.Fprintf(&heavy, " v%d: fact { value }", i)
	}
	heavy.WriteString(" } }")
	slow.subscribe("f", heavy.String(), nil)
	waitSubscribed(t, env, "org-a", 1)

	big := strings.Repeat("lorem ipsum dolor sit amet ", 2000) // 54 KB
	start := time.Now()
	const writes = 40
	for i := range writes {
		writeFactID(t, env, tok, map[string]any{"key": fmt.Sprintf("doc.k%02d", i), "value": big})
		if env.Server.Subscriptions("org-a") == 0 {
			break
		}
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("writes took %v with a stalled subscriber", d)
	}
	waitSubscribed(t, env, "org-a", 0)
	// The writers never waited; reading now, the subscriber finds what
	// was sent before it fell behind, then the error that ended it.
	for {
		m := slow.read(10 * time.Second)
		if m.Type == "next" {
			continue
		}
		var errs []apitest.Error
		if m.Type != "error" || json.Unmarshal(m.Payload, &errs) != nil || len(errs) == 0 {
			t.Fatalf("got %s %s, want the subscription's error", m.Type, m.Payload)
		}
		if errs[0].Extensions["code"] != "FORBIDDEN" || !strings.Contains(errs[0].Message, "resubscribe") {
			t.Errorf("error %+v, want FORBIDDEN telling to resubscribe", errs[0])
		}
		break
	}
	// A fresh subscription on the same connection works.
	slow.subscribe("g", factSub, nil)
	waitSubscribed(t, env, "org-a", 1)
	id := writeFactID(t, env, tok, map[string]any{"key": "after.drop", "value": 1})
	var fc factChange
	slow.event("g", &fc)
	if fc.FactChanged.Fact.ID != id {
		t.Errorf("after resubscribing got %+v, want %s", fc.FactChanged, id)
	}
}

// TestSubscriptionLeaseExpiry: a lease that ends with time is published
// as EXPIRED when the sweep records it.
func TestSubscriptionLeaseExpiry(t *testing.T) {
	env := apitest.New(t)
	tok := apitest.Token(t, apitest.Identity("org-a", "alice"))
	c := connect(t, env, bearer(tok))
	c.subscribe("a", `subscription { assertionChanged { kind assertion { id status } } }`, nil)
	waitSubscribed(t, env, "org-a", 1)
	in := map[string]any{
		"subject": "Door#1", "predicate": "state", "object": "open", "context": "site",
		"epistemicStatus": "PERCEPTION", "validity": map[string]any{"mode": "UNTIL_TIME", "expiresAt": apitest.Start.Add(time.Hour).Format(time.RFC3339)},
		"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "a1"}, "confidence": 0.9, "method": "sensor"},
	}
	var out struct{ AssertState struct{ ID string } }
	env.MustDo(t, tok, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": in}, &out)
	type change struct {
		AssertionChanged struct {
			Kind      string
			Assertion struct{ ID, Status string }
		}
	}
	var ch change
	c.event("a", &ch)
	if a := ch.AssertionChanged; a.Kind != "ASSERTED" || a.Assertion.ID != out.AssertState.ID || a.Assertion.Status != "ACTIVE" {
		t.Errorf("first change %+v, want ASSERTED of an ACTIVE %s", a, out.AssertState.ID)
	}
	env.Clock.Advance(2 * time.Hour)
	if n, err := env.Server.SweepLeases(t.Context()); err != nil || n != 1 {
		t.Fatalf("sweep: %d, %v; want 1 expired", n, err)
	}
	c.event("a", &ch)
	if a := ch.AssertionChanged; a.Kind != "EXPIRED" || a.Assertion.Status != "EXPIRED" {
		t.Errorf("second change %+v, want EXPIRED", a)
	}
}
