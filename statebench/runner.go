package statebench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/ids"
)

// The GraphQL operations the runner uses: the same a real client would.
const (
	opWriteFacts  = `mutation($in: [FactInput!]!) { writeFacts(input: $in) { id } }`
	opSetEnv      = `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { key } }`
	opPutItem     = `mutation($in: WorkingItemInput!) { putWorkingItem(input: $in) { id } }`
	opRecordTurn  = `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } scope detections { kind cue superseded { id kind } key previous replacement confidence blocked } } }`
	opAssemble    = `query($in: ContextInput!) { assembleContext(input: $in) { text tokens included { id kind layer reason score } excluded { id kind reason } withheld } }`
	placeholderID = "W-AUTO"
)

// ReplayTime is the time a timeline that gives no time at all (no
// environment now, no event or fact timestamp) is replayed at: fixed, so
// that the wall clock never reaches a replay's output.
var ReplayTime = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// Server is a server a worker replays its timelines on. A server the
// runner controls (the loopback server of `stategraph statebench`) gives
// its Clock and Reseed; each worker then needs one of its own, since the
// runner moves its clock along one timeline at a time.
type Server struct {
	Client *Client
	// Clock, when set, is the server's clock: the replay sets it to the
	// timeline's start, then to each event's time before sending the
	// event (never backwards within a timeline), so that what an event
	// writes is recorded at the event's time. Nil for a server keeping its
	// own time: the recorded times are then that server's.
	Clock interface{ Set(time.Time) }
	// Reseed, when set, restarts the server's id generator from a seed
	// derived from the timeline's id before the timeline replays, so that
	// its ids are the same on every run, whatever the server replayed
	// before. Without it the ids are the server's own and the output names
	// them G1, G2, ... in the order the replay met them.
	Reseed func(seed uint64)
}

// Options configure a run.
type Options struct {
	// Budget is the token budget of every assembleContext call.
	Budget int
	// Track, when set, replays only timelines of that track.
	Track string
	// Seed is mixed into every timeline's id seed (Server.Reseed).
	Seed uint64
	// RunID prefixes every organization, so that runs against a shared
	// server never meet.
	RunID string
	// Mint signs a token for an identity.
	Mint func(authority.Identity) (string, error)
	// Progress, when set, is called after each timeline.
	Progress func(done, total int)
}

// QueryResult is one query's outcome; its JSON form is a line of
// queries.jsonl.
type QueryResult struct {
	Timeline   string          `json:"timeline"`
	Track      string          `json:"track"`
	Query      int             `json:"query"`
	Prompt     string          `json:"prompt"`
	Context    string          `json:"context"`
	Tokens     int             `json:"tokens"`
	Included   json.RawMessage `json:"included"`
	Excluded   json.RawMessage `json:"excluded"`
	Hits       []string        `json:"hits"`
	Violations []string        `json:"violations"`
}

// TurnLog is what recordTurn reported for one turn; its JSON form is a line
// of turns.jsonl.
type TurnLog struct {
	Timeline string          `json:"timeline"`
	Text     string          `json:"text"`
	ID       string          `json:"id"`
	Scope    string          `json:"scope"`
	Detected json.RawMessage `json:"detections"`
}

// Result is a whole run.
type Result struct {
	Queries []QueryResult
	Turns   []TurnLog
	Report  Report
	// Rejected counts writes the server refused (each is also a warning).
	Rejected int
	Warnings []string
}

// Run replays timelines and scores every query's assembled context. Each
// server is one worker, which replays one timeline at a time; the
// output is the same whatever the number of servers.
func Run(ctx context.Context, servers []Server, timelines []Timeline, o Options) (Result, error) {
	if len(servers) == 0 {
		return Result{}, errors.New("statebench: no server")
	}
	if o.Budget <= 0 {
		return Result{}, errors.New("statebench: budget must be positive")
	}
	if o.Mint == nil {
		return Result{}, errors.New("statebench: no token minter")
	}
	var todo []Timeline
	for _, tl := range timelines {
		if o.Track == "" || tl.Track == o.Track {
			todo = append(todo, tl)
		}
	}
	type outcome struct {
		idx      int
		queries  []QueryResult
		turns    []TurnLog
		warnings []string
		err      error
	}
	jobs := make(chan int)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for _, srv := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := &replay{c: srv.Client, srv: srv, tl: todo[i], o: o}
				err := r.run(ctx)
				results <- outcome{idx: i, queries: r.queries, turns: r.turns, warnings: r.warnings, err: err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range todo {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	per := make([]outcome, len(todo))
	var errs []error
	done := 0
	for r := range results {
		per[r.idx] = r
		if r.err != nil {
			errs = append(errs, fmt.Errorf("timeline %s: %w", todo[r.idx].ID, r.err))
		}
		done++
		if o.Progress != nil {
			o.Progress(done, len(todo))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	var res Result
	var tally Tally
	for i, r := range per {
		res.Warnings = append(res.Warnings, r.warnings...)
		res.Turns = append(res.Turns, r.turns...)
		for _, q := range r.queries {
			tally.Add(todo[i].Track, Score(q.Context, groundTruth(todo[i], q.Query)), q.Tokens)
			res.Queries = append(res.Queries, q)
		}
	}
	res.Rejected = len(res.Warnings)
	res.Report = tally.Report()
	return res, nil
}

func groundTruth(tl Timeline, n int) GroundTruth {
	i := 0
	for _, e := range tl.Events {
		if e.Kind == KindQuery {
			if i == n {
				return e.GroundTruth
			}
			i++
		}
	}
	return GroundTruth{}
}

// replay plays one timeline.
type replay struct {
	c   *Client
	srv Server
	tl  Timeline
	o   Options
	// now is the timeline's time: its start, then the latest event time.
	now time.Time

	loader, user string // tokens
	session      string
	ids          map[string]string // data id -> server id
	batch        []pendingWrite    // consecutive fact writes not sent yet
	names        map[string]string // server-generated id -> stable name
	queries      []QueryResult
	turns        []TurnLog
	warnings     []string
}

func (r *replay) warn(format string, args ...any) {
	r.warnings = append(r.warnings, r.tl.ID+": "+r.stable(fmt.Sprintf(format, args...)))
}

// generatedID matches an id the server generated (a prefix and a ULID,
// which holds the time it was made and random bits).
var generatedID = regexp.MustCompile(`\b[A-Z]{1,3}-[0-9A-HJKMNP-TV-Z]{26}\b`)

// stable replaces every server-generated id in s by a name that depends
// only on the replay: G1, G2, ... in the order the replay met them. The
// replay of a timeline is sequential, so the names are the same however
// many timelines run at once. A server whose ids the runner seeds makes
// the same ids on every run: they are kept.
func (r *replay) stable(s string) string {
	if r.srv.Reseed != nil {
		return s
	}
	return generatedID.ReplaceAllStringFunc(s, func(id string) string {
		if n, ok := r.names[id]; ok {
			return n
		}
		n := fmt.Sprintf("G%d", len(r.names)+1)
		r.names[id] = n
		return n
	})
}

// stableJSON is stable for raw JSON (the ids sit inside strings).
func (r *replay) stableJSON(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	return json.RawMessage(r.stable(string(raw)))
}

func (r *replay) identities() (user, loader authority.Identity) {
	ir := r.tl.InitialState.IdentityRole
	org := r.o.RunID + "-" + r.tl.ID
	sub := string(r.tl.Actors.User.ID)
	if sub == "" {
		sub = "user"
	}
	auth := string(ir.Authority)
	if auth == "" {
		auth = string(r.tl.Actors.User.Role)
	}
	user = authority.Identity{
		Org: org, UserID: sub, UserName: string(ir.UserName), Authority: auth,
		Department: string(ir.Department), Kind: authority.KindAgent, AgentLevel: authority.AgentMaster,
	}
	// The loader plays the systems that recorded the initial state: a
	// service acting for the same user, whose writes carry their own
	// sources' authority.
	loader = authority.Identity{Org: org, UserID: sub, UserName: "statebench loader", Authority: "policy", Kind: authority.KindService}
	return user, loader
}

func (r *replay) run(ctx context.Context) error {
	u, l := r.identities()
	var err error
	if r.user, err = r.o.Mint(u); err != nil {
		return err
	}
	if r.loader, err = r.o.Mint(l); err != nil {
		return err
	}
	r.session = "s-" + r.tl.ID
	r.ids = map[string]string{}
	r.names = map[string]string{}
	if r.srv.Reseed != nil {
		r.srv.Reseed(ids.SeedOf(r.o.Seed, r.tl.ID))
	}
	r.now = r.tl.Start()
	if r.now.IsZero() {
		r.now = ReplayTime
	}
	if r.srv.Clock != nil {
		r.srv.Clock.Set(r.now)
	}
	if err := r.loadInitial(ctx); err != nil {
		return err
	}
	q := 0
	for i, e := range r.tl.Events {
		if err = r.advance(ctx, e.TS); err != nil {
			return fmt.Errorf("event %d (%s): %w", i, e.Kind, err)
		}
		switch e.Kind {
		case KindTurn:
			err = r.turn(ctx, e)
		case KindStateWrite, KindSupersession:
			// Consecutive writes go out together, as one writeFacts,
			// before the next turn or query.
			for _, w := range e.Writes {
				if werr := r.write(ctx, w, i, e.TS); werr != nil {
					err = werr
					break
				}
			}
		case KindQuery:
			err = r.query(ctx, e, q)
			q++
		}
		if err == nil && !r.nextIsWrite(i) {
			err = r.flush(ctx)
		}
		if err != nil {
			return fmt.Errorf("event %d (%s): %w", i, e.Kind, err)
		}
	}
	return r.flush(ctx)
}

// advance moves the timeline's time to an event's time t (a zero t, or
// one before the timeline's time, leaves it), and the server's clock with
// it. Fact writes still batched are sent first, at the time of their
// event.
func (r *replay) advance(ctx context.Context, t time.Time) error {
	if t.IsZero() || !t.After(r.now) {
		return nil
	}
	if err := r.flush(ctx); err != nil {
		return err
	}
	r.now = t
	if r.srv.Clock != nil {
		r.srv.Clock.Set(t)
	}
	return nil
}

// at returns an event's time: its timestamp, else the timeline's time.
func (r *replay) at(t time.Time) time.Time {
	if t.IsZero() {
		return r.now
	}
	return t
}

// nextIsWrite reports whether the event after i writes state.
func (r *replay) nextIsWrite(i int) bool {
	if i+1 >= len(r.tl.Events) {
		return false
	}
	k := r.tl.Events[i+1].Kind
	return k == KindStateWrite || k == KindSupersession
}

// loadInitial writes the initial facts (superseded targets first, so that
// chains form), the working set and the environment.
func (r *replay) loadInitial(ctx context.Context) error {
	is := r.tl.InitialState
	byID := map[string]bool{}
	for _, f := range is.PersistentFacts {
		byID[f.ID] = true
	}
	written := map[string]bool{}
	var writeOne func(f Fact, depth int) error
	writeOne = func(f Fact, depth int) error {
		if written[f.ID] || depth > len(is.PersistentFacts) {
			return nil
		}
		written[f.ID] = true
		if s := string(f.Supersedes); s != "" && byID[s] {
			for _, g := range is.PersistentFacts {
				if g.ID == s {
					if err := writeOne(g, depth+1); err != nil {
						return err
					}
				}
			}
		}
		if !f.Valid() && string(f.SupersededBy) == "" {
			// Invalid with nothing to supersede it: an API client
			// cannot record "invalid" without its successor.
			r.warn("initial fact %s is invalid without a successor; not loaded", f.ID)
			return nil
		}
		return r.write(ctx, Write{
			ID: f.ID, Layer: LayerFacts, Key: f.Key, Value: f.Value, Source: f.Source, Scope: f.Scope,
			Supersedes: f.Supersedes, DependsOn: f.DependsOn, IsConstraint: f.IsConstraint, ConstraintType: f.ConstraintType,
		}, -1, f.TS)
	}
	for _, f := range is.PersistentFacts {
		if err := writeOne(f, 0); err != nil {
			return err
		}
	}
	if err := r.flush(ctx); err != nil {
		return err
	}
	for i, w := range is.WorkingSet {
		if err := r.putItem(ctx, fmt.Sprintf("initial_%d", i), string(w.Content), string(w.ItemType), string(w.Priority)); err != nil {
			return err
		}
	}
	var env []map[string]any
	for _, k := range sortedKeys(is.Environment) {
		if reservedEnv[k] {
			continue
		}
		env = append(env, map[string]any{"key": k, "value": string(is.Environment[k]), "at": r.now})
	}
	if len(env) > 0 {
		return r.do(ctx, r.loader, opSetEnv, env)
	}
	return nil
}

// reservedEnv are environment keys the service sets itself at assembly.
var reservedEnv = map[string]bool{"now": true, "date": true}

var restricted = regexp.MustCompile(`(?i)\[RESTRICTED[^\]]*\]`)

// pendingWrite is a fact write of the data waiting in the batch.
type pendingWrite struct {
	w  Write
	in map[string]any
}

// write applies one write of the data, as a client mapping its records
// onto the API would. A fact write joins the batch (sent by flush); any
// other write, or a fact write naming a fact still in the batch whose id
// the server has not given yet, sends the batch first.
func (r *replay) write(ctx context.Context, w Write, event int, at time.Time) error {
	switch w.Layer {
	case LayerEnvironment:
		if reservedEnv[w.Key] {
			return nil
		}
		if err := r.flush(ctx); err != nil {
			return err
		}
		return r.do(ctx, r.loader, opSetEnv, []map[string]any{{"key": w.Key, "value": string(w.Value), "at": r.at(at)}})
	case LayerWorkingSet:
		if err := r.flush(ctx); err != nil {
			return err
		}
		return r.putItem(ctx, w.Key, string(w.Value), "CONTEXT", "")
	}
	if r.namesBatched(w) || len(r.batch) == batchLimit {
		if err := r.flush(ctx); err != nil {
			return err
		}
	}
	in := map[string]any{"key": w.Key, "value": string(w.Value)}
	if w.ID != "" && w.ID != placeholderID && r.ids[w.ID] == "" && validID(w.ID) && !r.batchHasID(w.ID) {
		in["id"] = w.ID
	}
	src := map[string]any{}
	if t := strings.ToUpper(string(w.Source.Type)); t != "" {
		src["type"] = t
	}
	if a := string(w.Source.Authority); a != "" {
		src["authority"] = a
	}
	if id := string(w.Source.Identity); id != "" {
		src["identity"] = id
	}
	if event >= 0 {
		src["eventIndex"] = event
	}
	in["source"] = src
	if !at.IsZero() {
		// When the record was true: it tells a write restating a value
		// the conversation replaced later from a newer one.
		in["validFrom"] = at
	}
	if s := scopeOf(string(w.Scope)); s != "" {
		in["scope"] = s
	}
	if w.IsConstraint {
		in["isConstraint"] = true
		if ct := string(w.ConstraintType); ct != "" {
			in["constraintType"] = strings.ToUpper(ct)
		}
	}
	var deps []string
	for _, d := range w.DependsOn {
		if id := r.ids[string(d)]; id != "" {
			deps = append(deps, id)
		}
	}
	if len(deps) > 0 {
		in["dependsOn"] = deps
	}
	if m := restricted.FindString(string(w.Value)); m != "" {
		in["restrictedTo"] = restriction(m)
	}
	if s := string(w.Supersedes); s != "" {
		if id := r.ids[s]; id != "" {
			s = id
		}
		in["supersedes"] = s
	}
	r.batch = append(r.batch, pendingWrite{w: w, in: in})
	return nil
}

// batchLimit is the most facts one writeFacts call carries.
const batchLimit = 1000

// namesBatched reports whether w supersedes or depends on a fact of the
// batch: its server id is known only once the batch is written.
func (r *replay) namesBatched(w Write) bool {
	refs := append([]Text{w.Supersedes}, w.DependsOn...)
	for _, p := range r.batch {
		if p.w.ID == "" || p.w.ID == placeholderID {
			continue
		}
		for _, ref := range refs {
			if string(ref) == p.w.ID {
				return true
			}
		}
	}
	return false
}

// batchHasID reports whether a write of the batch asks for id.
func (r *replay) batchHasID(id string) bool {
	for _, p := range r.batch {
		if p.in["id"] == id {
			return true
		}
	}
	return false
}

// flush sends the batch as one writeFacts. When the server refuses an
// item, the batch (all or none) wrote nothing: the runner adjusts that
// item as a client that cannot fix the data would, one writing the facts
// one by one (a successor dated before its predecessor is recorded now; a
// supersession of a fact that is gone or replaced is recorded without it;
// any other refused write is left out with a warning) and sends the batch
// again.
func (r *replay) flush(ctx context.Context) error {
	for len(r.batch) > 0 {
		ins := make([]map[string]any, len(r.batch))
		for i, p := range r.batch {
			ins[i] = p.in
		}
		var out struct{ WriteFacts []struct{ ID string } }
		err := r.c.Do(ctx, r.loader, opWriteFacts, map[string]any{"in": ins}, &out)
		if err == nil {
			for i, p := range r.batch {
				id := out.WriteFacts[i].ID
				r.stable(id) // named in write order
				if w := p.w; w.ID != "" && w.ID != placeholderID {
					r.ids[w.ID] = id
				}
			}
			r.batch = r.batch[:0]
			return nil
		}
		var re *ResponseError
		if !errors.As(err, &re) || re.Status != 200 {
			return err
		}
		i, ok := re.Index()
		if !ok || i < 0 || i >= len(r.batch) {
			return err
		}
		p := &r.batch[i]
		switch {
		case p.in["validFrom"] != nil && re.Code() == "BAD_USER_INPUT" && strings.Contains(re.Error(), "validFrom"):
			// The data dates a successor before its predecessor: record
			// it now instead.
			delete(p.in, "validFrom")
		case p.in["supersedes"] != nil && (re.Code() == "NOT_FOUND" || re.Code() == "CONFLICT") && !strings.Contains(re.Error(), "already exists"):
			// The data names a fact that is gone or already replaced:
			// record the value anyway.
			r.warn("write %s: %v; written without supersedes", p.w.Key, err)
			delete(p.in, "supersedes")
		default:
			r.warn("write %s refused: %v", p.w.Key, err)
			r.batch = slices.Delete(r.batch, i, i+1)
		}
	}
	return nil
}

// scopeMarker is the data's "[SCOPE: Alice's session]" prefix: content
// confined to another context (an exercise, another user's session).
var scopeMarker = regexp.MustCompile(`(?i)^\s*\[SCOPE:[^\]]*\]`)

func (r *replay) putItem(ctx context.Context, key, value, itemType, priority string) error {
	in := map[string]any{"sessionId": r.session, "key": key, "value": value, "itemType": itemTypeOf(itemType)}
	if scopeMarker.MatchString(value) {
		// Not real state of this session: a client records it as
		// hypothetical.
		in["scope"] = "HYPOTHETICAL"
	}
	if p := priorityOf(priority); p != 0 {
		in["priority"] = p
	}
	return r.do(ctx, r.user, opPutItem, in)
}

func (r *replay) turn(ctx context.Context, e Event) error {
	speaker := "USER"
	if strings.EqualFold(string(e.Speaker), "assistant") {
		speaker = "ASSISTANT"
	}
	in := map[string]any{"sessionId": r.session, "speaker": speaker, "text": string(e.Text), "at": r.at(e.TS)}
	var out struct {
		RecordTurn struct {
			Turn       struct{ ID string }
			Scope      string
			Detections json.RawMessage
		}
	}
	err := r.c.Do(ctx, r.user, opRecordTurn, map[string]any{"in": in}, &out)
	var re *ResponseError
	if errors.As(err, &re) && re.Status == 200 {
		r.warn("%v", err)
		return nil
	}
	if err != nil {
		return err
	}
	rt := out.RecordTurn
	r.turns = append(r.turns, TurnLog{Timeline: r.tl.ID, Text: string(e.Text), ID: r.stable(rt.Turn.ID), Scope: rt.Scope, Detected: r.stableJSON(rt.Detections)})
	return nil
}

func (r *replay) query(ctx context.Context, e Event, n int) error {
	var out struct {
		AssembleContext struct {
			Text     string          `json:"text"`
			Tokens   int             `json:"tokens"`
			Included json.RawMessage `json:"included"`
			Excluded json.RawMessage `json:"excluded"`
		}
	}
	// The context is for the query's time, never the server's.
	in := map[string]any{"query": string(e.Prompt), "budget": r.o.Budget, "sessionId": r.session, "now": r.at(e.TS)}
	if err := r.c.Do(ctx, r.user, opAssemble, map[string]any{"in": in}, &out); err != nil {
		return err
	}
	ac := out.AssembleContext
	s := Score(ac.Text, e.GroundTruth)
	r.queries = append(r.queries, QueryResult{
		Timeline: r.tl.ID, Track: r.tl.Track, Query: n, Prompt: string(e.Prompt), Context: r.stable(ac.Text),
		Tokens: ac.Tokens, Included: r.stableJSON(ac.Included), Excluded: r.stableJSON(ac.Excluded),
		Hits: nonNil(s.Hits), Violations: nonNil(s.Violations),
	})
	return nil
}

func (r *replay) do(ctx context.Context, token, op string, in any) error {
	err := r.c.Do(ctx, token, op, map[string]any{"in": in}, nil)
	var re *ResponseError
	if errors.As(err, &re) && re.Status == 200 {
		r.warn("%v", err)
		return nil
	}
	return err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

var idChars = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:#-]{0,127}$`)

func validID(s string) bool { return idChars.MatchString(s) }

func scopeOf(s string) string {
	switch u := strings.ToUpper(strings.TrimSpace(s)); u {
	case "GLOBAL", "PROJECT", "TASK", "SESSION", "HYPOTHETICAL", "DRAFT":
		return u
	}
	return ""
}

func itemTypeOf(s string) string {
	switch u := strings.ToUpper(strings.TrimSpace(s)); {
	case strings.Contains(u, "OBJECTIVE"), strings.Contains(u, "GOAL"):
		return "OBJECTIVE"
	case strings.Contains(u, "ARTIFACT"), strings.Contains(u, "DRAFT"), strings.Contains(u, "DOC"):
		return "ARTIFACT"
	case strings.Contains(u, "QUESTION"):
		return "QUESTION"
	case strings.Contains(u, "ACTION"), strings.Contains(u, "TODO"), strings.Contains(u, "TASK"):
		return "PENDING_ACTION"
	}
	return "CONTEXT"
}

func priorityOf(s string) int {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "critical", "urgent":
		return 3
	case "high":
		return 2
	case "medium", "normal":
		return 1
	}
	return 0
}

// restriction maps a "[RESTRICTED: ... VP+]" marker onto restrictedTo.
func restriction(marker string) map[string]any {
	m := strings.ToUpper(marker)
	switch {
	case strings.Contains(m, "C-LEVEL"), strings.Contains(m, "EXEC"), strings.Contains(m, "VP"), strings.Contains(m, "DIRECTOR"):
		return map[string]any{"minAuthority": "executive"}
	case strings.Contains(m, "HR"):
		return map[string]any{"departments": []string{"HR", "Human Resources"}}
	}
	return map[string]any{"minAuthority": "manager"}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
