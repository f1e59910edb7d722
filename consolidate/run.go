package consolidate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Mode says what a run did with its candidates and prunes.
type Mode string

// The modes.
const (
	// ModeWritten: candidates were written and prunes applied.
	ModeWritten Mode = "WRITTEN"
	// ModeProposed: the agent may not write the candidates' level (a
	// junior agent); candidates and prunes are recorded for review only.
	ModeProposed Mode = "PROPOSED"
)

// CandidateStatus says what became of one cluster's candidate.
type CandidateStatus string

// The candidate statuses.
const (
	CandidateWritten  CandidateStatus = "WRITTEN"  // written by this run
	CandidateExisting CandidateStatus = "EXISTING" // an earlier run wrote it
	CandidateProposed CandidateStatus = "PROPOSED" // recorded for review
)

// PruneReason says why an event was judged of low value.
type PruneReason string

// The prune reasons.
const (
	// PruneContradicted: a fact the event depends on was superseded (it
	// needs review).
	PruneContradicted PruneReason = "CONTRADICTED"
	// PruneUnused: older than the stale-after period and never included
	// in an assembled context.
	PruneUnused PruneReason = "UNUSED"
	// PruneStale: last included in a context longer than the stale-after
	// period ago.
	PruneStale PruneReason = "STALE"
)

// ActionPruned is the audit action of a pruned event.
const ActionPruned = "PRUNED"

// Run is one consolidation run as recorded.
type Run struct {
	ID         string               `json:"id"`
	Capability string               `json:"capability"`
	At         time.Time            `json:"at"`
	Actor      string               `json:"actor"`
	AgentLevel authority.AgentLevel `json:"agentLevel"`
	Mode       Mode                 `json:"mode"`
	// Level is the level of the candidates, written or proposed.
	Level     facts.MemoryLevel `json:"level"`
	Scheduled bool              `json:"scheduled,omitempty"`
	Params    Params            `json:"params"`
	// Inputs are the events clustered (after pruning), oldest first.
	Inputs   []string  `json:"inputs"`
	Clusters []Cluster `json:"clusters"`
	Pruned   []Prune   `json:"pruned"`
	// Fingerprint identifies the inputs, level and parameters.
	Fingerprint string `json:"fingerprint"`

	// Reused is set on the answer of a run that wrote nothing because
	// its inputs were those of this earlier run; never stored.
	Reused bool `json:"-"`
}

// Params are the parameters of a run.
type Params struct {
	Threshold      float64       `json:"threshold"`
	MinClusterSize int           `json:"minClusterSize"`
	StaleAfter     time.Duration `json:"staleAfter"`
}

// Cluster is one cluster of a run and its candidate.
type Cluster struct {
	Members        []string        `json:"members"`
	SharedTerms    []string        `json:"sharedTerms"`
	Representative string          `json:"representative"`
	Key            string          `json:"key"`
	Text           string          `json:"text"`
	FactID         string          `json:"factId"`
	Status         CandidateStatus `json:"status"`
}

// Prune is one event judged of low value.
type Prune struct {
	FactID string      `json:"factId"`
	Reason PruneReason `json:"reason"`
	// Applied is false for a proposal (a junior agent's run).
	Applied bool `json:"applied"`
}

// Defaults of Options.
const (
	DefaultThreshold      = 0.5
	DefaultMinClusterSize = 3
	DefaultStaleAfter     = 30 * 24 * time.Hour
	// MaxInputs bounds the events one run clusters: the newest are kept.
	MaxInputs = 5000
	// maxDependsOn is the pipeline's bound on a fact's dependencies.
	maxDependsOn = 100
)

// Options configure a Service. Store, Clock, Facts and Pipeline are
// required.
type Options struct {
	Store    *store.Store
	Clock    temporal.Clock
	Facts    *facts.Service
	Pipeline *pipeline.Pipeline
	// IDs makes run and audit ids; nil: ids.New(Clock).
	IDs *ids.Generator
	// Embedder compares memories; nil: Lexical.
	Embedder Embedder
	// Threshold is the cosine similarity at which two events join a
	// cluster, in (0, 1]; 0: DefaultThreshold.
	Threshold float64
	// MinClusterSize is the fewest events a candidate needs (>= 2); 0:
	// DefaultMinClusterSize.
	MinClusterSize int
	// StaleAfter is how long an event may go unused before it is pruned;
	// 0: DefaultStaleAfter.
	StaleAfter time.Duration

	// Every runs the background consolidator that often; 0 disables it.
	Every time.Duration
	// Ticks, when set, drives the background consolidator instead of a
	// ticker of period Every (tests).
	Ticks <-chan time.Time
	// Level and Authority are the background consolidator's agent level
	// (default senior) and authority (default "system").
	Level     authority.AgentLevel
	Authority string
	Logger    *slog.Logger
}

// Service runs consolidations.
type Service struct {
	store    *store.Store
	clock    temporal.Clock
	facts    *facts.Service
	pipeline *pipeline.Pipeline
	ids      *ids.Generator
	embed    Embedder
	params   Params
	opts     Options
	logger   *slog.Logger
	usage    *Usage

	done, loopDone chan struct{}
	started        bool
}

// New validates o and returns a Service.
func New(o Options) (*Service, error) {
	if o.Store == nil || o.Clock == nil || o.Facts == nil || o.Pipeline == nil {
		return nil, errors.New("consolidate: Store, Clock, Facts and Pipeline are required")
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	if o.MinClusterSize == 0 {
		o.MinClusterSize = DefaultMinClusterSize
	}
	if o.StaleAfter == 0 {
		o.StaleAfter = DefaultStaleAfter
	}
	if o.Level == "" {
		o.Level = authority.AgentSenior
	}
	if o.Authority == "" {
		o.Authority = "system"
	}
	switch {
	case !(o.Threshold > 0 && o.Threshold <= 1):
		return nil, fmt.Errorf("consolidate: the similarity threshold must be in (0, 1], not %g", o.Threshold)
	case o.MinClusterSize < 2:
		return nil, fmt.Errorf("consolidate: the minimum cluster size must be at least 2, not %d", o.MinClusterSize)
	case o.StaleAfter < 0:
		return nil, fmt.Errorf("consolidate: stale-after must be positive, not %s", o.StaleAfter)
	case o.Every < 0:
		return nil, fmt.Errorf("consolidate: the schedule period must be positive, not %s", o.Every)
	case !o.Level.Valid():
		return nil, fmt.Errorf("consolidate: unknown agent level %q (junior, senior or master)", o.Level)
	}
	if !o.Facts.Rules().Order().Known(o.Authority) {
		return nil, fmt.Errorf("consolidate: %q is not an authority of the order", o.Authority)
	}
	if o.IDs == nil {
		o.IDs = ids.New(o.Clock)
	}
	if o.Embedder == nil {
		o.Embedder = Lexical{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{
		store: o.Store, clock: o.Clock, facts: o.Facts, pipeline: o.Pipeline, ids: o.IDs, embed: o.Embedder,
		params: Params{Threshold: o.Threshold, MinClusterSize: o.MinClusterSize, StaleAfter: o.StaleAfter},
		opts:   o, logger: o.Logger, usage: newUsage(),
		done: make(chan struct{}), loopDone: make(chan struct{}),
	}, nil
}

// Usage returns the recorder of facts included in assembled contexts.
func (s *Service) Usage() *Usage { return s.usage }

// MaxCapabilityLen bounds the capability argument.
const MaxCapabilityLen = 128

// checkCapability validates a capability argument and checks that the
// caller's token carries it.
func checkCapability(caller authority.Identity, capability string) error {
	switch {
	case strings.TrimSpace(capability) == "":
		return fault.BadInputf("capability", "capability must not be empty")
	case len(capability) > MaxCapabilityLen:
		return fault.BadInputf("capability", "capability must be at most %d bytes", MaxCapabilityLen)
	case caller.Capability == "":
		return fault.New(fault.Forbidden, "capability memory is reached through a token with a capability claim; this token has none")
	case caller.Capability != capability:
		return fault.New(fault.Forbidden, "this token reaches capability %q only: consolidate with a token whose capability claim names the capability", caller.Capability)
	}
	return nil
}

// Consolidate runs a consolidation of capability for the caller of ctx,
// an agent (or service) whose token carries that capability.
func (s *Service) Consolidate(ctx context.Context, capability string) (Run, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return Run{}, err
	}
	if err := checkCapability(caller, capability); err != nil {
		return Run{}, err
	}
	if caller.Kind == authority.KindUser {
		return Run{}, fault.New(fault.Forbidden, "capability memory is consolidated by agents; a user token cannot run a consolidation")
	}
	return s.run(ctx, caller, p, false)
}

// levelFor returns the level caller writes candidates at, and whether it
// may write it at all.
func levelFor(caller authority.Identity) (facts.MemoryLevel, Mode) {
	if caller.Kind == authority.KindService {
		return facts.LevelStrategy, ModeWritten
	}
	switch caller.AgentLevel {
	case authority.AgentMaster:
		return facts.LevelStrategy, ModeWritten
	case authority.AgentSenior:
		return facts.LevelHeuristic, ModeWritten
	}
	return facts.LevelHeuristic, ModeProposed
}

// event is an input of a run.
type event struct {
	f    facts.Fact
	text string
}

// run consolidates the capability space of p as caller, in one
// transaction.
func (s *Service) run(ctx context.Context, caller authority.Identity, p tenancy.Partition, scheduled bool) (Run, error) {
	sp, ok := p.Capability()
	if !ok {
		return Run{}, errors.New("consolidate: the partition has no capability")
	}
	if err := s.flushUsage(ctx, p); err != nil {
		return Run{}, err
	}
	level, mode := levelFor(caller)
	var out Run
	err := s.store.Update(ctx, p, func(tx *store.Txn) error {
		now := s.clock.Now()
		out = Run{
			Capability: sp.Owner(), At: now, Actor: audit.Actor(caller), AgentLevel: caller.AgentLevel,
			Mode: mode, Level: level, Scheduled: scheduled, Params: s.params,
			Inputs: []string{}, Clusters: []Cluster{}, Pruned: []Prune{},
		}
		switch {
		case caller.Kind == authority.KindService:
			out.AgentLevel = ""
		case caller.AgentLevel == "":
			out.AgentLevel = authority.AgentJunior // no level counts as junior
		}
		events, protected, err := s.read(tx, caller, sp)
		if err != nil {
			return err
		}
		used, err := readUsage(tx, sp)
		if err != nil {
			return err
		}
		var kept []event
		for _, e := range events {
			reason, prune := s.judge(e.f, used, protected[e.f.ID], now)
			if prune && mode == ModeWritten && !s.facts.Rules().Supersedes(caller.Authority, e.f.Source.Authority) {
				prune = false // outranks the consolidator: left alone
			}
			if prune {
				out.Pruned = append(out.Pruned, Prune{FactID: e.f.ID, Reason: reason, Applied: mode == ModeWritten})
				continue
			}
			kept = append(kept, e)
		}
		if len(kept) > MaxInputs {
			kept = kept[len(kept)-MaxInputs:]
		}
		for _, e := range kept {
			out.Inputs = append(out.Inputs, e.f.ID)
		}
		out.Fingerprint = fingerprint(out)
		last, ok, err := latest(tx, sp)
		if err != nil {
			return err
		}
		if ok && last.Fingerprint == out.Fingerprint {
			out = last
			out.Reused = true
			return nil
		}
		clusters, err := s.cluster(ctx, kept, level)
		if err != nil {
			return err
		}
		out.Clusters = clusters
		out.ID = s.ids.New("CR-")
		return s.apply(tx, caller, sp, &out)
	})
	return out, err
}

// read returns the valid EVENT memories of sp that caller may read and
// that carry no read restriction, oldest first, and the events higher
// levels depend on (consolidated events, kept as provenance).
func (s *Service) read(tx *store.Txn, caller authority.Identity, sp tenancy.Space) ([]event, map[string]bool, error) {
	var out []event
	protected := map[string]bool{}
	err := facts.ScanTx(tx, sp, func(raw facts.Fact) (bool, error) {
		f, ok := raw.In(temporal.View{})
		if !ok || !f.IsValid() || f.MemoryType != facts.MemoryCapability {
			return true, nil
		}
		if f.Level != facts.LevelEvent && f.Level != "" {
			for _, d := range f.DependsOn {
				protected[d] = true
			}
			return true, nil
		}
		if f.RestrictedTo != nil || !s.facts.CanRead(caller, f) {
			return true, nil
		}
		out = append(out, event{f: f, text: f.Key + " " + f.ValueText()})
		return true, nil
	})
	return out, protected, err
}

// judge says whether an event is of low value at now, and why. Events a
// higher-level memory depends on are kept as its provenance.
func (s *Service) judge(f facts.Fact, used map[string]time.Time, protected bool, now time.Time) (PruneReason, bool) {
	if f.NeedsReview() {
		return PruneContradicted, true
	}
	if protected {
		return "", false
	}
	horizon := now.Add(-s.params.StaleAfter)
	if f.RecordedAt.After(horizon) {
		return "", false
	}
	last, ok := used[f.ID]
	switch {
	case !ok:
		return PruneUnused, true
	case !last.After(horizon):
		return PruneStale, true
	}
	return "", false
}

// fingerprint identifies a run's inputs, mode, level and parameters.
func fingerprint(r Run) string {
	b, _ := json.Marshal(struct {
		Mode   Mode
		Level  facts.MemoryLevel
		Params Params
		Inputs []string
	}{r.Mode, r.Level, r.Params, r.Inputs})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// cluster clusters the events and builds each cluster's candidate.
func (s *Service) cluster(ctx context.Context, events []event, level facts.MemoryLevel) ([]Cluster, error) {
	mems := make([]Memory, len(events))
	texts := make([]string, len(events))
	for i, e := range events {
		mems[i] = Memory{ID: e.f.ID, Text: e.text}
		texts[i] = e.text
	}
	vecs, err := s.embed.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("consolidate: embed: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("consolidate: embed: %d vectors for %d texts", len(vecs), len(texts))
	}
	out := []Cluster{}
	for _, g := range Groups(mems, vecs, s.params.Threshold, s.params.MinClusterSize) {
		c := Cluster{SharedTerms: g.SharedTerms, Representative: mems[g.Representative].ID}
		for _, i := range g.Members {
			c.Members = append(c.Members, mems[i].ID)
		}
		rep := events[g.Representative].f
		c.Key, c.Text, c.FactID = candidate(level, c.Members, c.SharedTerms, rep)
		out = append(out, c)
	}
	return out, nil
}

// candidate returns the key, text and id of a cluster's candidate, made
// only of the cluster: the same members give the same candidate.
func candidate(level facts.MemoryLevel, members, terms []string, rep facts.Fact) (key, text, id string) {
	sorted := slices.Clone(members)
	slices.Sort(sorted)
	sum := sha256.Sum256([]byte(string(level) + "\x00" + strings.Join(sorted, "\x00")))
	digest := hex.EncodeToString(sum[:])[:12]
	head := terms
	if len(head) > 3 {
		head = head[:3]
	}
	name := strings.Join(head, "-")
	if name == "" {
		name = "pattern"
	}
	key = "consolidated." + name + "." + digest
	shared := "no common terms"
	if len(terms) > 0 {
		shared = "common terms: " + strings.Join(terms, ", ")
	}
	text = fmt.Sprintf("Pattern of %d similar events (%s). Representative event %s: %s", len(members), shared, rep.ID, rep.Text())
	return key, text, "cons-" + strings.ToLower(string(level)) + "-" + digest
}

// apply writes a run: its candidates and prunes (when its mode writes)
// and its record.
func (s *Service) apply(tx *store.Txn, caller authority.Identity, sp tenancy.Space, r *Run) error {
	actor := audit.Actor(caller)
	if r.Mode == ModeWritten {
		for _, pr := range r.Pruned {
			detail := fmt.Sprintf("pruned by consolidation run %s: %s", r.ID, pruneDetail(pr.Reason, s.params.StaleAfter))
			if _, _, err := s.pipeline.RevokeTx(tx, caller, pr.FactID, facts.Revocation{Decision: r.ID, Reason: detail, At: r.At}); err != nil {
				return err
			}
			if err := audit.Record(tx, sp, audit.Entry{
				ID: audit.NewID(s.ids), At: r.At, Actor: actor, Action: ActionPruned, Record: pr.FactID, Kind: "fact", By: r.ID, Detail: detail,
			}); err != nil {
				return err
			}
		}
	}
	for i := range r.Clusters {
		c := &r.Clusters[i]
		if r.Mode == ModeProposed {
			c.Status = CandidateProposed
			continue
		}
		_, exists, err := facts.LoadTx(tx, sp, c.FactID)
		if err != nil {
			return err
		}
		if exists {
			c.Status = CandidateExisting
			continue
		}
		value := c.Text
		if s.pipeline.IsState(c.Key, jsonString(value)) {
			// The representative reads as short-lived state, which is no
			// fact: the candidate names it instead of quoting it.
			value = fmt.Sprintf("Pattern of %d similar events; the representative one is %s.", len(c.Members), c.Representative)
			c.Text = value
		}
		deps := c.Members
		if len(deps) > maxDependsOn {
			deps = deps[:maxDependsOn]
		}
		no := false
		if _, err := s.pipeline.WriteTx(tx, caller, facts.WriteInput{
			ID: c.FactID, Key: c.Key, Value: jsonString(value), MemoryType: facts.MemoryCapability,
			Scope: facts.ScopeGlobal, Level: r.Level, DependsOn: deps, IsConstraint: &no,
		}); err != nil {
			return fmt.Errorf("consolidate: write candidate %s: %w", c.FactID, err)
		}
		c.Status = CandidateWritten
	}
	if err := tx.Put(sp, store.TableConsolidationRun, store.Suffix(nil).Raw(r.ID), r, 0); err != nil {
		return err
	}
	if err := tx.PutRaw(sp, store.TableConsolidationByTime, store.Suffix(nil).Time(r.At).Raw(r.ID), nil); err != nil {
		return err
	}
	return tx.Schedule(scheduleQueue, registered, sp.Owner())
}

func pruneDetail(r PruneReason, staleAfter time.Duration) string {
	switch r {
	case PruneContradicted:
		return "contradicted (a fact it depends on was superseded)"
	case PruneUnused:
		return fmt.Sprintf("never used in a context, and older than %s", staleAfter)
	}
	return fmt.Sprintf("not used in a context for %s", staleAfter)
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// latest returns the newest run of sp.
func latest(tx *store.Txn, sp tenancy.Space) (Run, bool, error) {
	var id string
	err := tx.Scan(sp, store.TableConsolidationByTime, nil, store.ScanOptions{Reverse: true, KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
		id = store.AfterTime(string(suffix))
		return false, nil
	})
	if err != nil || id == "" {
		return Run{}, false, err
	}
	var r Run
	if err := tx.Get(sp, store.TableConsolidationRun, store.Suffix(nil).Raw(id), &r); err != nil {
		return Run{}, false, err
	}
	return r, true, nil
}

// Get returns the run id of the caller's capability; ok is false when
// there is none (or the caller has no capability).
func (s *Service) Get(ctx context.Context, id string) (r Run, ok bool, err error) {
	_, p, err := tenancy.Caller(ctx)
	if err != nil {
		return Run{}, false, err
	}
	sp, has := p.Capability()
	if !has || id == "" || len(id) > 128 {
		return Run{}, false, nil
	}
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		err := tx.Get(sp, store.TableConsolidationRun, store.Suffix(nil).Raw(id), &r)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		ok = err == nil
		return err
	})
	return r, ok, err
}

// Page sizes of List.
const (
	DefaultListSize = 20
	MaxListSize     = 100
)

// List returns the newest first runs of capability, newest first.
func (s *Service) List(ctx context.Context, capability string, first *int) ([]Run, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	n := DefaultListSize
	if first != nil {
		n = *first
	}
	if n < 1 || n > MaxListSize {
		return nil, fault.BadInputf("first", "first must be between 1 and %d", MaxListSize)
	}
	if err := checkCapability(caller, capability); err != nil {
		return nil, err
	}
	sp, _ := p.Capability()
	out := []Run{}
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		var runIDs []string
		err := tx.Scan(sp, store.TableConsolidationByTime, nil, store.ScanOptions{Reverse: true, KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
			runIDs = append(runIDs, store.AfterTime(string(suffix)))
			return len(runIDs) < n, nil
		})
		if err != nil {
			return err
		}
		for _, id := range runIDs {
			var r Run
			if err := tx.Get(sp, store.TableConsolidationRun, store.Suffix(nil).Raw(id), &r); err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}
