package assertions

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// sweepActor names the sweep in the audit trail.
const sweepActor = "system (lease sweep)"

// sweepBatch bounds the leases one Sweep pass expires.
const sweepBatch = 500

// Sweep records every UNTIL_TIME lease that has ended by the service
// clock, across organizations: the assertion becomes EXPIRED and the audit
// trail gains an EXPIRED entry, one transaction per assertion. Reads do not
// wait for it (they evaluate leases themselves); it makes expiry part of
// the record. It returns how many assertions it expired.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	n := 0
	for {
		now := s.clock.Now()
		before := n
		due, err := s.store.DueBefore(ctx, leaseQueue, now, sweepBatch)
		if err != nil || len(due) == 0 {
			return n, err
		}
		for _, d := range due {
			expired, err := s.expire(ctx, d, now)
			if err != nil {
				return n, err
			}
			if expired {
				n++
			}
		}
		if len(due) < sweepBatch || n == before {
			return n, nil
		}
	}
}

// expire ends one due lease; a lease no longer active only leaves the
// schedule.
func (s *Service) expire(ctx context.Context, d store.Due, now time.Time) (bool, error) {
	p, err := tenancy.Background(d.Org)
	if err != nil {
		return false, err
	}
	expired := false
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		expired = false
		a, err := getTx(tx, d.Ref)
		if errors.Is(err, store.ErrNotFound) {
			return tx.Unschedule(leaseQueue, d.At, d.Ref)
		}
		if err != nil {
			return err
		}
		if a.Status != Active {
			return tx.Unschedule(leaseQueue, d.At, d.Ref)
		}
		if cur, _ := a.In(temporal.View{}, now); cur.Status != Expired {
			return nil
		}
		expired = true
		return s.endTx(tx, sweepActor, &a, Expired, now, "", "", fmt.Sprintf("lease ended at %s", d.At.Format(time.RFC3339)))
	})
	return expired, err
}

// Start runs Sweep every SweepInterval until Stop. It does nothing when
// the interval is 0.
func (s *Service) Start() {
	s.startOnce.Do(func() {
		if s.opts.SweepInterval <= 0 {
			close(s.sweepDone)
			return
		}
		go s.sweepLoop()
	})
}

func (s *Service) sweepLoop() {
	defer close(s.sweepDone)
	t := time.NewTicker(s.opts.SweepInterval)
	defer t.Stop()
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
		case <-t.C:
			if n, err := s.Sweep(ctx); err != nil && !errors.Is(err, context.Canceled) {
				s.logger.Error("lease sweep", "err", err)
			} else if n > 0 {
				s.logger.Debug("lease sweep", "expired", n)
			}
		}
	}
}

// Stop stops the sweep started by Start and waits for it to finish; call
// it before closing the store. Stop without Start is allowed.
func (s *Service) Stop() {
	s.stopOnce.Do(func() {
		s.startOnce.Do(func() { close(s.sweepDone) })
		close(s.done)
		<-s.sweepDone
	})
}
