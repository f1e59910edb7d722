package server_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stategraph/stategraph/internal/apitest"
	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/store"
)

// The API on both engines: the same requests give the same answers on
// Badger and on TiKV (client-go's in-process mock cluster; subtests named
// TiKV).

func onEngine(t *testing.T, e enginetest.Engine) func(*server.Options) {
	return func(o *server.Options) { o.Store.Engine = e.New(t) }
}

// TestEnginesSupersessionChain: 50 writers supersede the current fact of
// one key at once (supersedes names the key). Each write supersedes the
// head it finds in its transaction, so the history is one linear chain:
// every fact replaced exactly the one before it, one fact valid.
func TestEnginesSupersessionChain(t *testing.T) {
	for _, e := range enginetest.All {
		t.Run(e.Name, func(t *testing.T) {
			env := apitest.New(t, onEngine(t, e))
			tok := apitest.Token(t, apitest.Identity("acme", "alice"))
			write(t, env, tok, map[string]any{"id": "F-0", "key": "vendor", "value": "Vendor 0"})
			const n = 50
			var wg sync.WaitGroup
			results := make([]apitest.Response, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					results[i] = env.Do(t, tok, writeFact, map[string]any{"in": map[string]any{
						"id": fmt.Sprintf("F-%d", i+1), "key": "vendor", "value": fmt.Sprintf("Vendor %d", i+1), "supersedes": "vendor"}})
				}()
			}
			wg.Wait()
			// A request may also time out on a loaded machine, and a write
			// whose commit finished as its deadline passed is stored:
			// its outcome is unknown to the test, the chain must hold
			// anyway.
			won, unknown := 0, 0
			for _, r := range results {
				switch {
				case len(r.Errors) == 0:
					won++
				case r.Code() == "CONFLICT": // contention beyond the retries
				case r.Code() == "INTERNAL" && strings.Contains(r.Errors[0].Message, "took too long"),
					r.Code() == "UNAVAILABLE":
					unknown++
				default:
					t.Errorf("unexpected response %s", r)
				}
			}
			h := history(t, env, tok, "vendor", nil)
			if len(h) < won+1 || len(h) > won+unknown+1 {
				t.Fatalf("history of %d facts, %d writers won and %d timed out: want %d to %d", len(h), won, unknown, won+1, won+unknown+1)
			}
			valid, succ := 0, map[string]string{}
			for _, f := range h {
				if f.IsValid {
					valid++
				}
				if f.Supersedes != nil {
					if prev, dup := succ[f.Supersedes.ID]; dup {
						t.Errorf("fork: %s and %s both supersede %s", prev, f.ID, f.Supersedes.ID)
					}
					succ[f.Supersedes.ID] = f.ID
				} else if f.ID != "F-0" {
					t.Errorf("%s supersedes nothing", f.ID)
				}
			}
			if valid != 1 || len(succ) != len(h)-1 {
				t.Errorf("%d valid facts and %d supersessions in a history of %d: want 1 and %d (one linear chain)", valid, len(succ), len(h), len(h)-1)
			}
			if won < n/4 {
				t.Errorf("only %d of %d writers won", won, n)
			}
			t.Logf("%d of %d writers won; retries %+v", won, n, env.Server.Store().RetryStats())
		})
	}
}

// TestEnginesAsOf: reads of the past see what held then, as recorded
// then, on both engines.
func TestEnginesAsOf(t *testing.T) {
	for _, e := range enginetest.All {
		t.Run(e.Name, func(t *testing.T) {
			env := apitest.New(t, onEngine(t, e))
			tok := apitest.Token(t, apitest.Identity("acme", "alice"))
			t0 := env.Clock.Now()
			write(t, env, tok, map[string]any{"id": "B-1", "key": "budget", "value": "100"})
			env.Clock.Advance(time.Hour)
			write(t, env, tok, map[string]any{"id": "B-2", "key": "budget", "value": "200", "supersedes": "B-1"})
			at := func(d time.Duration) map[string]any {
				return map[string]any{"asOf": t0.Add(d).Format(time.RFC3339Nano), "knownAt": t0.Add(d).Format(time.RFC3339Nano)}
			}
			for _, tc := range []struct {
				name string
				vars map[string]any
				want string
			}{
				{"now", nil, "B-2"},
				{"half an hour in", at(30 * time.Minute), "B-1"},
				{"before anything", at(-time.Minute), ""},
			} {
				got := ""
				if f := current(t, env, tok, "budget", tc.vars); f != nil {
					got = f.ID
				}
				if got != tc.want {
					t.Errorf("%s: current budget %q, want %q", tc.name, got, tc.want)
				}
			}
			if h := history(t, env, tok, "budget", at(30*time.Minute)); len(h) != 1 || h[0].ID != "B-1" {
				t.Errorf("history half an hour in: %+v, want B-1 alone", h)
			}
		})
	}
}

// keepOpen lets a test restore into an engine and then hand it to a
// server.
type keepOpen struct{ store.Engine }

func (keepOpen) Close() error { return nil }

// TestEnginesBackupRoundTrip: an organization backed up from a server on
// one engine and restored into a store on either engine answers the same
// queries.
func TestEnginesBackupRoundTrip(t *testing.T) {
	for _, from := range enginetest.All {
		for _, to := range enginetest.All {
			t.Run(from.Name+" to "+to.Name, func(t *testing.T) {
				src := apitest.New(t, onEngine(t, from))
				tok := apitest.Token(t, apitest.Identity("acme", "alice"))
				write(t, src, tok, map[string]any{"id": "V-1", "key": "venue", "value": "Lisbon"})
				src.Clock.Advance(time.Minute)
				write(t, src, tok, map[string]any{"id": "V-2", "key": "venue", "value": "Porto", "supersedes": "venue"})
				var buf bytes.Buffer
				if err := src.Server.Store().Backup(context.Background(), &buf, "acme"); err != nil {
					t.Fatal(err)
				}

				eng := to.New(t)
				o := store.DefaultOptions(t.TempDir())
				o.SyncWrites = false
				if eng != nil {
					o.Engine = keepOpen{eng}
				}
				st, err := store.Open(o)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := st.Restore(context.Background(), bytes.NewReader(buf.Bytes())); err != nil {
					t.Fatal(err)
				}
				if err := st.Close(); err != nil {
					t.Fatal(err)
				}
				dst := apitest.New(t, func(so *server.Options) {
					if eng != nil {
						so.Store.Engine = eng
					} else {
						so.Store.InMemory, so.Store.Dir = false, o.Dir
					}
				})
				dst.Clock.Set(src.Clock.Now())
				for _, env := range []*apitest.Env{src, dst} {
					h := history(t, env, tok, "venue", nil)
					if len(h) != 2 || h[0].ID != "V-1" || h[1].ID != "V-2" || h[0].IsValid || !h[1].IsValid {
						t.Errorf("history on %s: %+v", env.URL, h)
					}
				}
			})
		}
	}
}

// TestTiKVLostAPI: with the cluster lost, /readyz fails and requests get
// UNAVAILABLE, a failed write leaves nothing, and the service answers
// again, unchanged, once the cluster returns.
func TestTiKVLostAPI(t *testing.T) {
	m := enginetest.Mock(t)
	env := apitest.New(t, func(o *server.Options) { o.Store.Engine = m })
	tok := apitest.Token(t, apitest.Identity("acme", "alice"))
	write(t, env, tok, map[string]any{"id": "P-1", "key": "plan", "value": "A"})
	ready := func() int {
		t.Helper()
		return request(t, env, http.MethodGet, "/readyz", "", nil).status
	}
	if s := ready(); s != http.StatusOK {
		t.Fatalf("/readyz = %d with the cluster up", s)
	}

	m.Down(true)
	if s := ready(); s != http.StatusServiceUnavailable {
		t.Errorf("/readyz = %d with the cluster down, want 503", s)
	}
	for _, op := range []struct {
		query string
		vars  map[string]any
	}{
		{writeFact, map[string]any{"in": map[string]any{"id": "P-2", "key": "plan", "value": "B", "supersedes": "plan"}}},
		{`{ currentValue(key: "plan") { id } }`, nil},
	} {
		r := env.Do(t, tok, op.query, op.vars)
		if r.Code() != "UNAVAILABLE" || len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, "retry") {
			t.Errorf("%s with the cluster down: %s, want UNAVAILABLE", op.query, r)
		}
		if strings.Contains(string(r.Raw), "tikv") || strings.Contains(string(r.Raw), "mock") {
			t.Errorf("the error shows internals: %s", r.Raw)
		}
	}

	m.Down(false)
	deadline := time.Now().Add(15 * time.Second)
	for ready() != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("/readyz still fails after the cluster returned")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if h := history(t, env, tok, "plan", nil); len(h) != 1 || h[0].ID != "P-1" || !h[0].IsValid {
		t.Errorf("after the outage: %+v, want P-1 alone (nothing of the failed write)", h)
	}
	write(t, env, tok, map[string]any{"id": "P-3", "key": "plan", "value": "C", "supersedes": "plan"})
	if f := current(t, env, tok, "plan", nil); f == nil || f.ID != "P-3" {
		t.Errorf("after recovery: current %+v, want P-3", f)
	}
}
