package consolidate

import (
	"context"
	"errors"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// scheduleQueue is the due queue that registers, per organization, the
// capabilities the background consolidator visits: one entry per
// capability, due at registered (always due), written blindly with every
// event memory (Registrar) and every run.
const scheduleQueue = "consolidate"

// registered is the due time of every registration: the earliest instant.
var registered = time.Time{}

// maxCapabilities bounds the capabilities one background pass visits.
const maxCapabilities = 10000

// backgroundUser names the background consolidator in records and audit
// entries.
const backgroundUser = "system (consolidation)"

// Registrar registers the capability of every event memory written, so
// that the background consolidator finds it (a pipeline Reactor).
type Registrar struct{}

// FactWritten implements pipeline.Reactor.
func (Registrar) FactWritten(tx *store.Txn, _ authority.Identity, f facts.Fact, _ []facts.Fact) error {
	if f.MemoryType != facts.MemoryCapability || f.Owner == "" || f.Level != facts.LevelEvent && f.Level != "" {
		return nil
	}
	return tx.Schedule(scheduleQueue, registered, f.Owner)
}

// background returns the identity of the background consolidator for a
// capability of org.
func (s *Service) background(org, capability string) authority.Identity {
	return authority.Identity{
		Org: org, UserID: backgroundUser, Authority: s.opts.Authority,
		Kind: authority.KindAgent, AgentLevel: s.opts.Level, Capability: capability,
	}
}

// RunAll consolidates every registered capability of every organization
// as the background consolidator, one transaction per capability. An
// error of one capability is logged and does not stop the others; the
// runs that completed are returned (a reused run included).
func (s *Service) RunAll(ctx context.Context) ([]Run, error) {
	if err := s.FlushUsage(ctx); err != nil {
		return nil, err
	}
	due, err := s.store.DueBefore(ctx, scheduleQueue, registered, maxCapabilities)
	if err != nil {
		return nil, err
	}
	var out []Run
	for _, d := range due {
		p, err := tenancy.BackgroundCapability(d.Org, d.Ref)
		if err != nil {
			return out, err
		}
		r, err := s.run(ctx, s.background(d.Org, d.Ref), p, true)
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			s.logger.Error("consolidation", "org", d.Org, "capability", d.Ref, "err", err)
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// Start runs RunAll on every tick (Options.Ticks, else every
// Options.Every) until Stop; it does nothing when neither is set.
func (s *Service) Start() {
	if s.started {
		return
	}
	s.started = true
	ticks := s.opts.Ticks
	var stop func()
	if ticks == nil {
		if s.opts.Every <= 0 {
			close(s.loopDone)
			return
		}
		t := time.NewTicker(s.opts.Every)
		ticks, stop = t.C, t.Stop
	}
	go s.loop(ticks, stop)
}

func (s *Service) loop(ticks <-chan time.Time, stop func()) {
	defer close(s.loopDone)
	if stop != nil {
		defer stop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-s.done
		cancel()
	}()
	for {
		select {
		case <-s.done:
			return
		case <-ticks:
			runs, err := s.RunAll(ctx)
			if err != nil && !errors.Is(err, context.Canceled) {
				s.logger.Error("consolidation", "err", err)
			}
			s.logger.Debug("consolidation", "runs", len(runs))
		}
	}
}

// Stop stops the loop started by Start, waits for it, and writes the
// pending usage marks; call it before closing the store.
func (s *Service) Stop() error {
	select {
	case <-s.done:
		return nil
	default:
	}
	close(s.done)
	if s.started {
		<-s.loopDone
	}
	return s.FlushUsage(context.Background())
}
