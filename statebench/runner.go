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
)

// The GraphQL operations the runner uses: the same a real client would.
const (
	opWriteFact   = `mutation($in: FactInput!) { writeFact(input: $in) { id } }`
	opSetEnv      = `mutation($in: [EnvironmentEntryInput!]!) { setEnvironment(input: $in) { key } }`
	opPutItem     = `mutation($in: WorkingItemInput!) { putWorkingItem(input: $in) { id } }`
	opRecordTurn  = `mutation($in: TurnInput!) { recordTurn(input: $in) { turn { id } scope detections { kind cue superseded { id kind } key previous replacement confidence blocked } } }`
	opAssemble    = `query($in: ContextInput!) { assembleContext(input: $in) { text tokens included { id kind layer reason score } excluded { id kind reason } withheld } }`
	placeholderID = "W-AUTO"
)

// Options configure a run.
type Options struct {
	// Budget is the token budget of every assembleContext call.
	Budget int
	// Track, when set, replays only timelines of that track.
	Track string
	// Workers is how many timelines replay at once.
	Workers int
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

// Run replays timelines against the server behind c and scores every
// query's assembled context.
func Run(ctx context.Context, c *Client, timelines []Timeline, o Options) (Result, error) {
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
	workers := max(1, o.Workers)
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
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := &replay{c: c, tl: todo[i], o: o}
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
	c  *Client
	tl Timeline
	o  Options

	loader, user string // tokens
	session      string
	ids          map[string]string // data id -> server id
	queries      []QueryResult
	turns        []TurnLog
	warnings     []string
}

func (r *replay) warn(format string, args ...any) {
	r.warnings = append(r.warnings, r.tl.ID+": "+fmt.Sprintf(format, args...))
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
	if err := r.loadInitial(ctx); err != nil {
		return err
	}
	q := 0
	for i, e := range r.tl.Events {
		switch e.Kind {
		case KindTurn:
			err = r.turn(ctx, e)
		case KindStateWrite, KindSupersession:
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
		if err != nil {
			return fmt.Errorf("event %d (%s): %w", i, e.Kind, err)
		}
	}
	return nil
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
		env = append(env, map[string]any{"key": k, "value": string(is.Environment[k])})
	}
	if len(env) > 0 {
		return r.do(ctx, r.loader, opSetEnv, env)
	}
	return nil
}

// reservedEnv are environment keys the service sets itself at assembly.
var reservedEnv = map[string]bool{"now": true, "date": true}

var restricted = regexp.MustCompile(`(?i)\[RESTRICTED[^\]]*\]`)

// write applies one write of the data, as a client mapping its records
// onto the API would.
func (r *replay) write(ctx context.Context, w Write, event int, at time.Time) error {
	switch w.Layer {
	case LayerEnvironment:
		if reservedEnv[w.Key] {
			return nil
		}
		return r.do(ctx, r.loader, opSetEnv, []map[string]any{{"key": w.Key, "value": string(w.Value)}})
	case LayerWorkingSet:
		return r.putItem(ctx, w.Key, string(w.Value), "CONTEXT", "")
	}
	in := map[string]any{"key": w.Key, "value": string(w.Value)}
	if w.ID != "" && w.ID != placeholderID && r.ids[w.ID] == "" && validID(w.ID) {
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
	var out struct{ WriteFact struct{ ID string } }
	err := r.c.Do(ctx, r.loader, opWriteFact, map[string]any{"in": in}, &out)
	var re *ResponseError
	if errors.As(err, &re) && in["validFrom"] != nil && re.Code() == "BAD_USER_INPUT" && strings.Contains(re.Error(), "validFrom") {
		// The data dates a successor before its predecessor: record it
		// now instead.
		delete(in, "validFrom")
		err = r.c.Do(ctx, r.loader, opWriteFact, map[string]any{"in": in}, &out)
	}
	if errors.As(err, &re) && in["supersedes"] != nil && (re.Code() == "NOT_FOUND" || re.Code() == "CONFLICT") {
		// The data names a fact that is gone or already replaced: record
		// the value anyway, as a client that cannot fix the data would.
		r.warn("write %s: %v; written without supersedes", w.Key, err)
		delete(in, "supersedes")
		err = r.c.Do(ctx, r.loader, opWriteFact, map[string]any{"in": in}, &out)
	}
	if errors.As(err, &re) && re.Status == 200 {
		r.warn("write %s refused: %v", w.Key, err)
		return nil
	}
	if err != nil {
		return err
	}
	if w.ID != "" && w.ID != placeholderID {
		r.ids[w.ID] = out.WriteFact.ID
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
	in := map[string]any{"sessionId": r.session, "speaker": speaker, "text": string(e.Text)}
	if !e.TS.IsZero() {
		in["at"] = e.TS
	}
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
	r.turns = append(r.turns, TurnLog{Timeline: r.tl.ID, Text: string(e.Text), ID: rt.Turn.ID, Scope: rt.Scope, Detected: rt.Detections})
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
	in := map[string]any{"query": string(e.Prompt), "budget": r.o.Budget, "sessionId": r.session}
	if err := r.c.Do(ctx, r.user, opAssemble, map[string]any{"in": in}, &out); err != nil {
		return err
	}
	ac := out.AssembleContext
	s := Score(ac.Text, e.GroundTruth)
	r.queries = append(r.queries, QueryResult{
		Timeline: r.tl.ID, Track: r.tl.Track, Query: n, Prompt: string(e.Prompt), Context: ac.Text,
		Tokens: ac.Tokens, Included: ac.Included, Excluded: ac.Excluded,
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
