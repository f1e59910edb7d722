// Package crashtest proves that stategraph loses no acknowledged write when
// it is killed: it runs the real server binary on a temporary data
// directory, drives concurrent writers and supersessions against it over
// GraphQL, kills it with SIGKILL at random moments, restarts it, and checks
// the store against a ledger of every acknowledged write.
package crashtest

import (
	"bufio"
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/stategraph/stategraph/authority"
)

// Config describes a run.
type Config struct {
	// Bin is the stategraph binary.
	Bin string
	// Dir is the data directory; empty means a new temporary one, removed
	// at the end.
	Dir string
	// Cycles is the number of kill-and-restart cycles.
	Cycles int
	// Writers is the number of concurrent writers; Keys the number of
	// supersession chains they share (several writers per chain, so
	// supersessions race each other).
	Writers, Keys int
	// MinRun and MaxRun bound how long the server runs before the kill.
	MinRun, MaxRun time.Duration
	// Seed makes kill moments and key choices reproducible.
	Seed uint64
	// Log receives progress lines.
	Log io.Writer
}

// Result counts what a run saw.
type Result struct {
	Cycles       int
	Acknowledged int // writes the server answered with success
	Verified     int // acknowledged writes found intact after the last restart
	Lost         int // acknowledged writes missing or changed
	Unknown      int // writes cut off by a kill, outcome unknown (allowed either way)
	Violations   []string
}

// OK reports whether nothing was lost and every invariant held.
func (r Result) OK() bool { return r.Lost == 0 && len(r.Violations) == 0 }

// ack is one acknowledged write.
type ack struct {
	ID, Key, Value string
}

// ledger records acknowledged writes; writers add to it concurrently.
type ledger struct {
	mu      sync.Mutex
	acks    []ack
	unknown int
}

func (l *ledger) add(a ack) {
	l.mu.Lock()
	l.acks = append(l.acks, a)
	l.mu.Unlock()
}

func (l *ledger) cutOff() {
	l.mu.Lock()
	l.unknown++
	l.mu.Unlock()
}

const org = "crash-org"

// Run performs the whole test and returns its counts. An error means the
// harness itself failed (the binary would not start, ...), not a loss.
func Run(ctx context.Context, c Config) (Result, error) {
	if c.Cycles < 1 || c.Writers < 1 || c.Keys < 1 || c.MinRun <= 0 || c.MaxRun < c.MinRun {
		return Result{}, errors.New("crashtest: cycles, writers, keys and run times must be positive")
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.Dir == "" {
		dir, err := os.MkdirTemp("", "stategraph-crashtest-")
		if err != nil {
			return Result{}, err
		}
		defer os.RemoveAll(dir)
		c.Dir = dir
	}
	raw := make([]byte, 32)
	if _, err := crand.Read(raw); err != nil {
		return Result{}, err
	}
	secret := hex.EncodeToString(raw)
	id := authority.Identity{Org: org, UserID: "crash-agent", Authority: "manager", Kind: authority.KindAgent, AgentLevel: authority.AgentMaster}
	token, err := authority.Mint([]byte(secret), id, 24*time.Hour, "", "", time.Now())
	if err != nil {
		return Result{}, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15))
	var led ledger
	var res Result

	for cycle := 0; cycle < c.Cycles; cycle++ {
		srv, err := start(ctx, c.Bin, c.Dir, secret)
		if err != nil {
			return res, fmt.Errorf("cycle %d: %w", cycle, err)
		}
		cl := &client{base: "http://" + srv.addr, token: token, http: &http.Client{Timeout: 10 * time.Second}}
		// After every restart, before new writes: everything acknowledged
		// so far must be there, and every chain must be whole.
		v, lost, viol, err := verify(ctx, cl, &led, c.Keys)
		if err != nil {
			srv.kill()
			return res, fmt.Errorf("cycle %d: verify: %w", cycle, err)
		}
		res.Verified, res.Lost, res.Violations = v, lost, viol
		if !res.OK() { // stop at the first failure, with the store as found
			srv.kill()
			res.Acknowledged, res.Unknown = len(led.acks), led.unknown
			return res, nil
		}
		if cycle == 0 {
			for k := range c.Keys {
				if _, err := cl.write(ctx, fmt.Sprintf(`{"key":%q,"value":{"seed":%d}}`, key(k), k)); err != nil {
					srv.kill()
					return res, fmt.Errorf("seed chain %d: %w", k, err)
				}
			}
		}
		run := c.MinRun + time.Duration(rng.Int64N(int64(c.MaxRun-c.MinRun)+1))
		var wg sync.WaitGroup
		wctx, stop := context.WithCancel(ctx)
		for w := range c.Writers {
			wrng := rand.New(rand.NewPCG(rng.Uint64(), uint64(w)))
			wg.Go(func() { writer(wctx, cl, &led, wrng, w, cycle, c.Keys) })
		}
		select {
		case <-time.After(run):
		case <-ctx.Done():
		}
		srv.kill() // SIGKILL while writers are mid-flight
		stop()
		wg.Wait()
		res.Cycles++
		led.mu.Lock()
		fmt.Fprintf(c.Log, "cycle %d: killed after %v; %d writes acknowledged so far, %d cut off\n", cycle+1, run.Round(time.Millisecond), len(led.acks), led.unknown)
		led.mu.Unlock()
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
	}

	// The final restart and verification.
	srv, err := start(ctx, c.Bin, c.Dir, secret)
	if err != nil {
		return res, fmt.Errorf("final restart: %w", err)
	}
	defer srv.stop()
	cl := &client{base: "http://" + srv.addr, token: token, http: &http.Client{Timeout: 10 * time.Second}}
	v, lost, viol, err := verify(ctx, cl, &led, c.Keys)
	if err != nil {
		return res, fmt.Errorf("final verify: %w", err)
	}
	res.Verified, res.Lost, res.Violations = v, lost, viol
	res.Acknowledged, res.Unknown = len(led.acks), led.unknown
	return res, nil
}

func key(k int) string { return fmt.Sprintf("chain-%02d", k) }

// writer supersedes the current value of random chains until ctx ends or
// the server dies. Chains are shared, so concurrent supersessions of one
// chain race; the store must serialise them into one line.
func writer(ctx context.Context, cl *client, led *ledger, rng *rand.Rand, w, cycle, keys int) {
	for n := 0; ctx.Err() == nil; n++ {
		k := key(rng.IntN(keys))
		value := fmt.Sprintf(`{"writer":%d,"cycle":%d,"n":%d}`, w, cycle, n)
		id, err := cl.write(ctx, fmt.Sprintf(`{"key":%q,"value":%s,"supersedes":%q}`, k, value, k))
		var refused *refusal
		switch {
		case err == nil:
			led.add(ack{ID: id, Key: k, Value: value})
		case errors.As(err, &refused):
			// CONFLICT after the store's retries is an honest refusal:
			// nothing was acknowledged.
		default:
			led.cutOff() // the kill cut the request off: outcome unknown
			return
		}
	}
}

// fact is what verify reads back.
type fact struct {
	ID           string               `json:"id"`
	Key          string               `json:"key"`
	Value        json.RawMessage      `json:"value"`
	IsValid      bool                 `json:"isValid"`
	Supersedes   *struct{ ID string } `json:"supersedes"`
	SupersededBy *struct{ ID string } `json:"supersededBy"`
}

// verify reads every fact back and checks the ledger and the chains. It
// returns the acknowledged writes found intact, those lost, and the
// invariant violations.
func verify(ctx context.Context, cl *client, led *ledger, keys int) (verified, lost int, violations []string, err error) {
	all, err := cl.allFacts(ctx)
	if err != nil {
		return 0, 0, nil, err
	}
	byID := make(map[string]fact, len(all))
	for _, f := range all {
		byID[f.ID] = f
	}
	led.mu.Lock()
	acks := append([]ack(nil), led.acks...)
	led.mu.Unlock()
	for _, a := range acks {
		f, ok := byID[a.ID]
		if !ok || f.Key != a.Key || !sameJSON(f.Value, a.Value) {
			lost++
			if len(violations) < 20 {
				violations = append(violations, fmt.Sprintf("acknowledged write %s (%s = %s) is missing or changed", a.ID, a.Key, a.Value))
			}
			continue
		}
		verified++
	}
	chains := map[string][]fact{}
	for _, f := range all {
		chains[f.Key] = append(chains[f.Key], f)
	}
	for k := range keys {
		if _, ok := chains[key(k)]; !ok && len(acks) > 0 {
			violations = append(violations, fmt.Sprintf("chain %s is missing", key(k)))
		}
	}
	for k, fs := range chains {
		violations = append(violations, checkChain(k, fs, byID)...)
	}
	return verified, lost, violations, nil
}

func sameJSON(a json.RawMessage, b string) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// checkChain checks that the facts of one key form one line: one root, one
// valid head, and every edge present on both of its ends (a supersession
// is one transaction: the new fact, its edge and the old fact's retirement
// are all there or none is).
func checkChain(k string, fs []fact, byID map[string]fact) []string {
	var out []string
	var root, heads []fact
	next := map[string]string{}
	for _, f := range fs {
		if f.Supersedes == nil {
			root = append(root, f)
		} else {
			old, ok := byID[f.Supersedes.ID]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("%s: %s supersedes %s, which does not exist", k, f.ID, f.Supersedes.ID))
			case old.SupersededBy == nil || old.SupersededBy.ID != f.ID:
				out = append(out, fmt.Sprintf("%s: half-written supersession: %s supersedes %s but %s is not superseded by it", k, f.ID, old.ID, old.ID))
			}
			if prev, dup := next[f.Supersedes.ID]; dup {
				out = append(out, fmt.Sprintf("%s: branch: %s is superseded by both %s and %s", k, f.Supersedes.ID, prev, f.ID))
			}
			next[f.Supersedes.ID] = f.ID
		}
		if f.SupersededBy == nil {
			heads = append(heads, f)
			if !f.IsValid {
				out = append(out, fmt.Sprintf("%s: head %s is not valid", k, f.ID))
			}
		} else if nf, ok := byID[f.SupersededBy.ID]; !ok || nf.Supersedes == nil || nf.Supersedes.ID != f.ID {
			out = append(out, fmt.Sprintf("%s: half-written supersession: %s is superseded by %s, which does not point back", k, f.ID, f.SupersededBy.ID))
		} else if f.IsValid {
			out = append(out, fmt.Sprintf("%s: superseded fact %s is still valid", k, f.ID))
		}
	}
	if len(root) != 1 || len(heads) != 1 {
		return append(out, fmt.Sprintf("%s: %d roots and %d valid heads, want exactly one of each", k, len(root), len(heads)))
	}
	n, id := 1, root[0].ID
	for ; next[id] != "" && n <= len(fs); n++ {
		id = next[id]
	}
	if n != len(fs) || id != heads[0].ID {
		out = append(out, fmt.Sprintf("%s: the line from the root reaches %d of %d facts, ending at %s instead of the head %s", k, n, len(fs), id, heads[0].ID))
	}
	return out
}

// server is a running stategraph process.
type server struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{}
}

// start runs the binary and waits until it listens.
func start(ctx context.Context, bin, dir, secret string) (*server, error) {
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", dir,
		"--sync-writes=true", "--rate-limit", "0", "--min-free-disk", "0", "--log-format", "json", "--log-level", "info")
	cmd.Env = append(os.Environ(), "STATEGRAPH_JWT_SECRET="+secret)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &server{cmd: cmd, done: make(chan struct{})}
	addrc := make(chan string, 1)
	var tail []string
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				addrc <- line.Addr
			}
			if len(tail) < 20 {
				tail = append(tail, sc.Text())
			}
		}
		_ = cmd.Wait()
	}()
	select {
	case s.addr = <-addrc:
		return s, nil
	case <-s.done:
		return nil, fmt.Errorf("server exited before listening: %s", strings.Join(tail, "\n"))
	case <-time.After(30 * time.Second):
		s.kill()
		return nil, errors.New("server did not listen within 30 s")
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// stop asks the server to shut down gracefully.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.kill()
	}
}

// client speaks GraphQL to the server.
type client struct {
	base, token string
	http        *http.Client
}

// refusal is a GraphQL error answer: the server was up and said no.
type refusal struct{ code, msg string }

func (r *refusal) Error() string { return r.code + ": " + r.msg }

func (c *client) do(ctx context.Context, query string, vars map[string]json.RawMessage, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var r struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message    string
			Extensions struct{ Code string }
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("status %d: %w", resp.StatusCode, err)
	}
	if len(r.Errors) > 0 {
		return &refusal{r.Errors[0].Extensions.Code, r.Errors[0].Message}
	}
	return json.Unmarshal(r.Data, out)
}

// write records a fact (input is a FactInput in JSON) and returns its id.
func (c *client) write(ctx context.Context, input string) (string, error) {
	var out struct{ WriteFact struct{ ID string } }
	err := c.do(ctx, `mutation W($in: FactInput!) { writeFact(input: $in) { id } }`, map[string]json.RawMessage{"in": json.RawMessage(input)}, &out)
	if err == nil && out.WriteFact.ID == "" {
		err = errors.New("writeFact returned no id")
	}
	return out.WriteFact.ID, err
}

// allFacts pages through every fact of the organization, valid or not.
func (c *client) allFacts(ctx context.Context) ([]fact, error) {
	const q = `query All($after: String) { facts(filter: {validity: ALL}, first: 500, after: $after) {
		edges { node { id key value isValid supersedes { id } supersededBy { id } } }
		pageInfo { hasNextPage endCursor } } }`
	var all []fact
	after := json.RawMessage("null")
	for {
		var out struct {
			Facts struct {
				Edges    []struct{ Node fact }
				PageInfo struct {
					HasNextPage bool
					EndCursor   string
				}
			}
		}
		if err := c.do(ctx, q, map[string]json.RawMessage{"after": after}, &out); err != nil {
			return nil, err
		}
		for _, e := range out.Facts.Edges {
			all = append(all, e.Node)
		}
		if !out.Facts.PageInfo.HasNextPage {
			return all, nil
		}
		after, _ = json.Marshal(out.Facts.PageInfo.EndCursor)
	}
}
