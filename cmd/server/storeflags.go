package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/store/tikvstore"
)

// Store engines, the values of --store.
const (
	engineBadger = "badger"
	engineTiKV   = "tikv"
)

// storeFlags choose the storage engine: Badger in --data-dir (the
// default), or a TiKV cluster.
type storeFlags struct {
	kind           string
	pdEndpoints    string
	prefix         string
	connectTimeout time.Duration
}

func (s *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.kind, "store", engineBadger, "storage engine: badger (embedded, in --data-dir) or tikv (a TiKV cluster, at --pd-endpoints)")
	fs.StringVar(&s.pdEndpoints, "pd-endpoints", "", "with --store tikv: the cluster's PD servers, host:port,... (e.g. pd0:2379,pd1:2379,pd2:2379)")
	fs.StringVar(&s.prefix, "tikv-prefix", tikvstore.DefaultPrefix, "with --store tikv: prefix of every key stategraph writes (one per deployment sharing a cluster)")
	fs.DurationVar(&s.connectTimeout, "tikv-connect-timeout", tikvstore.DefaultConnectTimeout, "with --store tikv: how long to wait for PD at start before giving up")
}

// tikv reports whether the flags choose TiKV; it refuses an unknown
// engine.
func (s *storeFlags) tikv() (bool, error) {
	switch s.kind {
	case engineBadger:
		if s.pdEndpoints != "" {
			return false, errors.New("--pd-endpoints is for --store tikv; the default engine is badger")
		}
		return false, nil
	case engineTiKV:
		if s.pdEndpoints == "" {
			return false, errors.New("--store tikv needs --pd-endpoints host:2379,... (or STATEGRAPH_PD_ENDPOINTS)")
		}
		if s.connectTimeout <= 0 {
			return false, errors.New("--tikv-connect-timeout must be positive")
		}
		return true, nil
	}
	return false, fmt.Errorf("--store %q: want badger or tikv", s.kind)
}

// engine returns the engine the flags choose: nil for Badger (the store
// opens it from its options), a connected TiKV engine otherwise.
func (s *storeFlags) engine(logger *slog.Logger) (store.Engine, error) {
	tikv, err := s.tikv()
	if err != nil || !tikv {
		return nil, err
	}
	e, err := tikvstore.Open(tikvstore.Options{
		PDEndpoints:    splitList(s.pdEndpoints),
		Prefix:         s.prefix,
		ConnectTimeout: s.connectTimeout,
		Logger:         logger,
	})
	if err != nil {
		return nil, fmt.Errorf("--store tikv: %w", err)
	}
	return e, nil
}
