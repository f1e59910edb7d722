//go:build uitest

// Browser tests: headless Chromium, driven by chromedp, against a real
// server (httptest, in-memory Badger, real signed tokens). Run them with
// `make test-ui` (or go test -tags uitest ./explorer); they fail when no
// Chromium is found. Screenshots are saved under testdata/screenshots when
// missing; UPDATE=1 rewrites them.

package explorer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/server"
)

// browserPath finds Chromium: $CHROMIUM, else the usual names on PATH.
func browserPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium found: the browser tests need one (apt-get install -y chromium, or set CHROMIUM to its path)")
	return ""
}

// browser is one headless tab.
type browser struct {
	t   *testing.T
	ctx context.Context
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browserPath(t)),
		chromedp.NoSandbox,
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("font-render-hinting", "none"),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first run starts the browser: no timeout on it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return &browser{t: t, ctx: ctx}
}

// do runs steps within 20 s.
func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v\npage text:\n%s", what, err, b.text())
	}
}

// text returns the page's visible text, for failure messages.
func (b *browser) text() string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	return s
}

// eval evaluates a JavaScript expression.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitText waits until the element sel's text holds every one of want.
func (b *browser) waitText(sel string, want ...string) {
	b.t.Helper()
	sj, _ := json.Marshal(sel)
	wj, _ := json.Marshal(want)
	expr := fmt.Sprintf(`(() => { const el = document.querySelector(%s); if (!el) return false; const t = el.innerText; return %s.every(w => t.includes(w)); })()`, sj, wj)
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting for %q in %s: %v\npage text:\n%s", want, sel, err, b.text())
	}
}

// shot saves a screenshot as testdata/screenshots/name.png when it is
// missing, or always with UPDATE=1; it always checks that one was taken.
func (b *browser) shot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)); err != nil {
		b.t.Fatalf("scroll up for %s: %v", name, err)
	}
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		b.t.Fatalf("screenshot %s is not a PNG: %v", name, err)
	}
	if r := img.Bounds(); r.Dx() < 800 || r.Dy() < 600 {
		b.t.Fatalf("screenshot %s is %v", name, r)
	}
	path := filepath.Join("testdata", "screenshots", name+".png")
	if _, err := os.Stat(path); err == nil && os.Getenv("UPDATE") == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// set sets the value of the input with id (SetValue cannot set "").
func set(id, value string) chromedp.Action[chromedp.Void] {
	ij, _ := json.Marshal(id)
	vj, _ := json.Marshal(value)
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%s).value = %s`, ij, vj))
}

// proxy forwards TCP connections to a server, and can cut them all and
// refuse new ones for a while: a network drop, as the browser sees it.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	down   bool
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	t.Cleanup(func() { ln.Close(); p.drop() })
	go p.serve()
	return p
}

func (p *proxy) URL() string { return "http://" + p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		u, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[u] = struct{}{}, struct{}{}
		p.mu.Unlock()
		go func() { io.Copy(u, c); u.Close() }()
		go func() { io.Copy(c, u); c.Close() }()
	}
}

// drop closes every connection and refuses new ones until up.
func (p *proxy) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *proxy) up() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

// waitSubscriptions waits until org has n live subscriptions: the open
// view subscribed.
func waitSubscriptions(t *testing.T, env *apitest.Env, org string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for env.Server.Subscriptions(org) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%s has %d live subscriptions, want %d", org, env.Server.Subscriptions(org), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const writeFact = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`

func write(t *testing.T, env *apitest.Env, tok string, in map[string]any) string {
	t.Helper()
	var out struct{ WriteFact struct{ ID string } }
	env.MustDo(t, tok, writeFact, map[string]any{"in": in}, &out)
	return out.WriteFact.ID
}

func assertState(t *testing.T, env *apitest.Env, tok, subject, object string) string {
	t.Helper()
	in := map[string]any{
		"subject": subject, "predicate": "location", "object": object, "context": "thread-1",
		"epistemicStatus": "INFERENCE", "validity": map[string]any{"mode": "UNTIL_TIME", "expiresAt": apitest.Start.Add(24 * time.Hour).Format(time.RFC3339)},
		"provenance": map[string]any{"author": map[string]any{"kind": "agent", "id": "scout"}, "confidence": 0.6, "method": "inferred"},
	}
	var out struct{ AssertState struct{ ID string } }
	env.MustDo(t, tok, `mutation($in: StateAssertionInput!) { assertState(input: $in) { id } }`, map[string]any{"in": in}, &out)
	return out.AssertState.ID
}

// TestUIDev: a dev server prefills its demo token; Enter signs in.
func TestUIDev(t *testing.T) {
	demo := apitest.Token(t, apitest.Identity("demo", "demo-user"))
	env := apitest.New(t, func(o *server.Options) { o.Dev, o.DevToken = true, demo })
	b := newBrowser(t)
	b.do("open the explorer", chromedp.Navigate(env.URL+"/explorer/"), chromedp.WaitVisible(chromedp.ID("token")))
	if got := eval[string](b, `document.getElementById("token").value`); got != demo {
		t.Fatalf("the token field holds %q, want the demo token", got)
	}
	if got := eval[string](b, `document.activeElement.id`); got != "token" {
		t.Errorf("the focus is on %q, want the token field", got)
	}
	b.do("press Enter", chromedp.SendKeys(chromedp.ID("token"), kb.Enter))
	b.waitText("#who", "Signed in as", "demo-user", "demo")
	b.waitText("main", "Explore", "Supersession history", "Conflict board", "Context inspector", "Entities")
	// The skip link focuses the content and keeps the route.
	b.do("skip to content", chromedp.Navigate(env.URL+"/explorer/#/conflicts"))
	b.waitText("main", "Conflict board")
	b.do("press the skip link", chromedp.Focus(chromedp.CSS(".skip")), chromedp.SendKeys(chromedp.CSS(".skip"), kb.Enter))
	if got := eval[string](b, `document.activeElement.id + " " + location.hash`); got != "main #/conflicts" {
		t.Errorf("after the skip link: focus and hash %q, want main #/conflicts", got)
	}
}

// TestUITokenExpiry: when the token expires the websocket closes (4401)
// and the page signs out, saying why.
func TestUITokenExpiry(t *testing.T) {
	env := apitest.New(t)
	b := newBrowser(t)
	b.do("open the board", chromedp.Navigate(env.URL+"/explorer/#/conflicts"), chromedp.WaitVisible(chromedp.ID("token")))
	tok, err := authority.Mint(apitest.Secret, apitest.Identity("org-a", "alice"), 4*time.Second, "", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	b.do("sign in", set("token", tok), chromedp.SendKeys(chromedp.ID("token"), kb.Enter))
	b.waitText("main", "Conflict board")
	b.waitText("#signin-status", "Live updates ended", "the token expired", "Sign in again")
	if got := eval[string](b, `sessionStorage.getItem("stategraph.explorer.token") || ""`); got != "" {
		t.Errorf("after the token expired sessionStorage holds %q", got)
	}
}

// TestUI walks the explorer the way a user does: sign in with Enter, follow
// a key's history on both axes (and move the as-of picker), see a
// supersession arrive live, resolve a conflict on the board, inspect a
// context, and open an entity's graph.
func TestUI(t *testing.T) {
	env := apitest.New(t)
	alice := apitest.Token(t, apitest.Identity("org-a", "alice"))
	execID := apitest.Identity("org-a", "erin")
	execID.Authority = "executive"
	exec := apitest.Token(t, execID)

	// user.city: Paris, changed to Lyon an hour later, and corrected to
	// Lille an hour after that (Lyon was never true).
	at := func(d time.Duration) string { return apitest.Start.Add(d).Format(time.RFC3339) }
	paris := write(t, env, alice, map[string]any{"key": "user.city", "value": "Paris", "memoryType": "ORGANIZATIONAL"})
	env.Clock.Advance(time.Hour)
	write(t, env, alice, map[string]any{"key": "user.city", "value": "Lyon", "supersedes": "user.city", "reason": "moved"})
	env.Clock.Advance(time.Hour)
	write(t, env, alice, map[string]any{"key": "user.city", "value": "Lille", "supersedes": "user.city",
		"supersessionKind": "CORRECTION", "reason": "Lyon was a typo"})
	write(t, env, alice, map[string]any{"key": "trip.plan", "value": "train from Paris", "memoryType": "ORGANIZATIONAL", "dependsOn": []string{paris}})
	// budget.q3: its successor is restricted to executives; alice sees
	// her version superseded by one withheld from her.
	write(t, env, alice, map[string]any{"key": "budget.q3", "value": "100k", "memoryType": "ORGANIZATIONAL"})
	write(t, env, exec, map[string]any{"key": "budget.q3", "value": "140k", "supersedes": "budget.q3",
		"restrictedTo": map[string]any{"minAuthority": "executive"}})
	// deal.size: an executive's restricted first version, declassified by
	// its successor; alice sees the successor change a withheld version.
	write(t, env, exec, map[string]any{"key": "deal.size", "value": "secret-9m", "memoryType": "ORGANIZATIONAL",
		"restrictedTo": map[string]any{"minAuthority": "executive"}})
	write(t, env, exec, map[string]any{"key": "deal.size", "value": "about 10m", "supersedes": "deal.size", "declassify": true})
	// A conflict of two state assertions about Entity#1.
	room1 := assertState(t, env, alice, "Entity#1", "Room#1")
	assertState(t, env, alice, "Entity#1", "Room#2")
	write(t, env, alice, map[string]any{"key": "inventory.owner", "value": "Entity#1 belongs to team Blue", "memoryType": "ORGANIZATIONAL"})

	b := newBrowser(t)
	wire := newProxy(t, env.HTTP.Listener.Addr().String())
	base := wire.URL() + "/explorer/"

	t.Run("sign in with Enter", func(t *testing.T) {
		b.t = t
		b.do("open the board", chromedp.Navigate(base+"#/conflicts"), chromedp.WaitVisible(chromedp.ID("token")))
		b.waitText("#signin", "Token", "Sign in")
		b.shot("signin")
		b.do("a refused token", chromedp.SendKeys(chromedp.ID("token"), "not-a-jwt"+kb.Enter))
		b.waitText("#signin-status", "Sign-in failed", "UNAUTHENTICATED")
		b.do("sign in", set("token", ""), chromedp.SendKeys(chromedp.ID("token"), alice+kb.Enter))
		b.waitText("#who", "Signed in as", "alice", "org-a")
		b.waitText("main", "Conflict board", "Entity#1 location")
		if got := eval[string](b, `sessionStorage.getItem("stategraph.explorer.token")`); got != alice {
			t.Errorf("sessionStorage holds %q, want the token", got)
		}
		if href := eval[string](b, `location.href`); strings.Contains(href, alice) || strings.Contains(href, "token") {
			t.Errorf("the URL %s carries the token", href)
		}
	})

	t.Run("history on both axes", func(t *testing.T) {
		b.t = t
		b.do("open the history", chromedp.Navigate(base+"#/history/"+url.PathEscape("user.city")))
		b.waitText("#history", "v1 · changed · Paris", "v2 · corrected · Lyon", "v3 · current · Lille",
			"Corrects v2 (EXPLICIT_WRITE: Lyon was a typo", "Changes v1 (EXPLICIT_WRITE: moved",
			"Derived: trip.plan: train from Paris", "Source", "Authority", "manager", "Restriction", "none (everyone")
		// The diagram draws a change and a correction differently.
		n := eval[int](b, `document.querySelectorAll("svg .edge-change").length * 10 + document.querySelectorAll("svg .edge-correction").length`)
		if n != 11 {
			t.Errorf("diagram edges: %d changes and %d corrections, want 1 and 1", n/10, n%10)
		}
		if got := eval[int](b, `document.querySelectorAll("svg .box.never").length`); got != 1 {
			t.Errorf("%d never-true regions, want 1 (the corrected Lyon)", got)
		}
		if got := eval[int](b, `document.querySelectorAll("svg .box.after").length`); got != 1 {
			t.Errorf("%d closed-period regions, want 1 (Paris after the change)", got)
		}
		// A supersession edge is a link to the version that made it.
		b.do("follow the correction edge", chromedp.Click(chromedp.CSS("svg a.edge-correction")))
		if got := eval[string](b, `document.activeElement.id`); !strings.HasPrefix(got, "v-") {
			t.Errorf("after clicking the edge the focus is on %q, want a version", got)
		}
		b.waitText(`li.version:focus`, "v3 · current · Lille")
		b.shot("history")
		// A dependency edge leads to the dependent key's history.
		b.do("follow the dependency", chromedp.Click(chromedp.CSS(`a[href="#/history/trip.plan"]`)))
		b.waitText("#history", "v1 · current · train from Paris", "Depends on user.city: Paris")
	})

	t.Run("as-of picker", func(t *testing.T) {
		b.t = t
		b.do("open the history", chromedp.Navigate(base+"#/history/user.city"))
		b.waitText("#history", "v3 · current · Lille")
		// Known at 10:30: the correction (11:00) was not recorded yet.
		b.do("move the recorded-time picker", set("knownat", strings.TrimSuffix(at(90*time.Minute), "Z")),
			chromedp.Click(chromedp.CSS(`.asof button[type=submit]`)))
		b.waitText("#history", "v2 · current · Lyon")
		if txt := b.text(); strings.Contains(txt, "Lille") {
			t.Errorf("known at 10:30 the history shows Lille:\n%s", txt)
		}
		if got := eval[int](b, `document.querySelectorAll("svg .asof-line").length`); got != 1 {
			t.Errorf("%d as-of lines, want 1", got)
		}
		b.shot("history-asof")
		// Valid at 09:30 as known now: Paris held then.
		b.do("move the valid-time picker", set("knownat", ""),
			set("asof", strings.TrimSuffix(at(30*time.Minute), "Z")),
			chromedp.Click(chromedp.CSS(`.asof button[type=submit]`)))
		b.waitText("#history", "valid as of")
		b.waitText("#v-"+paris, "Valid time", "2026-01-05 09:00:00 UTC → 2026-01-05 10:00:00 UTC")
		// A tick of the recorded-time axis moves that picker: as recorded
		// at 09:00, only Paris was known.
		b.do("click the 09:00 recorded-time tick", set("asof", ""),
			chromedp.Click(chromedp.CSS(`.tick-button[data-axis=knownat][data-time="`+at(0)+`"]`)))
		b.waitText("#history", "v1 · current · Paris")
		// (Chromium shows whole minutes without seconds.)
		if got := eval[string](b, `document.getElementById("knownat").value`); !strings.HasPrefix(got, "2026-01-05T09:00") {
			t.Errorf("the recorded-time picker holds %q after the tick, want 2026-01-05T09:00", got)
		}
		if txt := b.text(); strings.Contains(txt, "Lyon") {
			t.Errorf("as recorded at 09:00 the history shows Lyon:\n%s", txt)
		}
	})

	t.Run("withheld versions", func(t *testing.T) {
		b.t = t
		b.do("open the history", chromedp.Navigate(base+"#/history/budget.q3"))
		b.waitText("#history", "v1 · superseded (by a version withheld from you) · 100k", "a version withheld from you")
		if txt := b.text(); strings.Contains(txt, "140k") {
			t.Errorf("the withheld value shows:\n%s", txt)
		}
		b.do("open the other history", chromedp.Navigate(base+"#/history/deal.size"))
		b.waitText("#history", "v1 · current · about 10m", "Changes a version withheld from you", "declassified")
		if txt := b.text(); strings.Contains(txt, "secret-9m") {
			t.Errorf("the withheld value shows:\n%s", txt)
		}
	})

	t.Run("a live supersession arrives", func(t *testing.T) {
		b.t = t
		b.do("open the history", chromedp.Navigate(base+"#/history/user.city"))
		b.waitText("#history", "v3 · current · Lille")
		waitSubscriptions(t, env, "org-a", 1)
		env.Clock.Advance(time.Hour)
		write(t, env, alice, map[string]any{"key": "user.city", "value": "Nice", "supersedes": "user.city", "reason": "moved again"})
		b.waitText("#history-news", "Live: superseded", "user.city: Nice", "replacing user.city: Lille")
		b.waitText("#history", "v3 · changed · Lille", "v4 · current · Nice")
		b.shot("history-live")
	})

	t.Run("reconnect after a drop", func(t *testing.T) {
		b.t = t
		wire.drop()
		b.waitText("#live", "disconnected, reconnecting")
		waitSubscriptions(t, env, "org-a", 0)
		// A change the page cannot be told of while it is cut off.
		env.Clock.Advance(time.Hour)
		write(t, env, alice, map[string]any{"key": "user.city", "value": "Nantes", "supersedes": "user.city", "reason": "moved once more"})
		wire.up()
		b.waitText("#live", "Live updates: on")
		b.waitText("#history", "v4 · changed · Nice", "v5 · current · Nantes")
		waitSubscriptions(t, env, "org-a", 1)
	})

	t.Run("resolve a conflict", func(t *testing.T) {
		b.t = t
		b.do("open the board", chromedp.Navigate(base+"#/conflicts"))
		b.waitText("#conflicts", "Open (1)", "Open: Entity#1 location in thread-1", "Room#1", "Room#2", "agent scout, inference, confidence 0.6", "manager")
		waitSubscriptions(t, env, "org-a", 1)
		b.shot("conflicts-open")
		b.do("keep Room#1", chromedp.Click(chromedp.CSS(`input[type=radio][value="`+room1+`"]`)),
			chromedp.SendKeys(chromedp.CSS(`input[name=reason]`), "seen there on camera"+kb.Enter))
		b.waitText("#conflicts", "Open (0)", "Decided (1)", "kept Entity#1 location Room#1", "decided by User alice (alice)", "seen there on camera")
		// A conflict opened elsewhere appears live.
		write(t, env, alice, map[string]any{"key": "office.wifi", "value": "open", "memoryType": "ORGANIZATIONAL"})
		write(t, env, exec, map[string]any{"key": "office.wifi", "value": "closed", "memoryType": "ORGANIZATIONAL"})
		b.waitText("#conflicts-news", "Live: conflict", "office.wifi value opened")
		b.waitText("#conflicts", "Open (1)", "Open: office.wifi value", "executive")
		b.shot("conflicts")
		// A manager may not decide between an executive's fact and hers:
		// the board says why, and the conflict stays open.
		b.do("try to keep the manager's value", chromedp.Click(chromedp.CSS(`.resolve input[type=radio]`)),
			chromedp.SendKeys(chromedp.CSS(`input[name=reason]`), "I prefer it"+kb.Enter))
		b.waitText(".resolve", "Not resolved: FORBIDDEN", "needs authority")
		b.waitText("#conflicts", "Open (1)")
	})

	t.Run("context inspector", func(t *testing.T) {
		b.t = t
		b.do("open the inspector", chromedp.Navigate(base+"#/context"), chromedp.WaitVisible(chromedp.ID("query")))
		b.do("run a query with Enter", chromedp.SendKeys(chromedp.ID("query"), "where does the user live, which city"+kb.Enter))
		b.waitText("#context", "of 1000 tokens", "withheld", "Prompt, line by line", "Identity (layer 1", "Facts (layer", "user.city: Nantes", "fact F-", "source tool, User alice, authority manager", "Excluded")
		b.waitText("table.excluded", "superseded: a newer version replaced it", "user.city: Nice", "withheld: restricted from you")
		b.shot("context")
		// As of 09:30 (valid time), the context holds Paris.
		b.do("assemble as of 09:30", set("ctx-asof", strings.TrimSuffix(at(30*time.Minute), "Z")),
			chromedp.Click(chromedp.CSS(`#main form button[type=submit]`)))
		b.waitText("table.lines", "user.city: Paris")
		if txt := eval[string](b, `document.querySelector("table.lines").innerText`); strings.Contains(txt, "user.city: Nantes") {
			t.Errorf("as of 09:30 the context holds Nantes:\n%s", txt)
		}
	})

	t.Run("entity graph", func(t *testing.T) {
		b.t = t
		b.do("open the entity", chromedp.Navigate(base+"#/entities/"+url.PathEscape("Entity#1")))
		b.waitText("#entity", "Facts", "inventory.owner: Entity#1 belongs to team Blue", "State assertions", "location Room#1", "location Room#2")
		if got := eval[int](b, `document.querySelectorAll("svg.entity-graph .node").length`); got != 4 {
			t.Errorf("%d graph nodes, want 4 (the entity, a fact, two assertions)", got)
		}
		b.shot("entity")
	})

	t.Run("sign out", func(t *testing.T) {
		b.t = t
		b.do("sign out", chromedp.Click(chromedp.CSS(`#who button`)), chromedp.WaitVisible(chromedp.ID("token")))
		if got := eval[string](b, `sessionStorage.getItem("stategraph.explorer.token") || ""`); got != "" {
			t.Errorf("after signing out sessionStorage holds %q", got)
		}
		waitSubscriptions(t, env, "org-a", 0)
	})
}
