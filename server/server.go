// Package server wires stategraph together: it opens the store, builds the
// domain services, and serves them over HTTP behind token verification.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/stategraph/stategraph/assertions"
	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/conflicts"
	"github.com/stategraph/stategraph/consolidate"
	"github.com/stategraph/stategraph/contextasm"
	"github.com/stategraph/stategraph/detect"
	"github.com/stategraph/stategraph/documents"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/explorer"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/feed"
	"github.com/stategraph/stategraph/graph"
	"github.com/stategraph/stategraph/graph/resolvers"
	"github.com/stategraph/stategraph/httpguard"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/mcpserver"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/pipeline"
	"github.com/stategraph/stategraph/profile"
	"github.com/stategraph/stategraph/revision"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/server/graphiql"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/telemetry"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tokens"
)

// Options configure a Server. Start from DefaultOptions.
type Options struct {
	Store    store.Options
	Verifier authority.VerifierConfig
	// Dev serves GraphiQL at / (its assets under /graphiql/) and enables
	// introspection.
	Dev bool
	// DevToken, in Dev, is prefilled in GraphiQL's headers pane as
	// "Authorization: Bearer DevToken"; "" leaves the pane empty.
	DevToken string
	// Introspection enables introspection without the rest of Dev.
	Introspection bool
	// RequestTimeout bounds every request.
	RequestTimeout time.Duration
	// AuthorityOrder ranks authorities, lowest first.
	AuthorityOrder []string
	// AuthorityRoles map free-text roles onto the order, before the
	// default role table (authority.DefaultRoles).
	AuthorityRoles []authority.RoleRule
	// RelayFrom is the lowest authority whose relayed claims in a turn
	// ("the COO says …") carry the cited role's authority; "" means
	// revision.DefaultRelayFrom.
	RelayFrom string
	// Permissions set the policy write minimum and the treatment of a
	// lower-authority supersession.
	Permissions permissions.Options
	Clock       temporal.Clock
	// IDs makes the ids of new records; nil: ids.New(Clock), the clock's
	// time and crypto entropy. A replay passes ids.Seeded on its manual
	// clock, so that its ids are the same on every run.
	IDs    *ids.Generator
	Logger *slog.Logger

	// Limits bound each GraphQL request (complexity, depth, aliases,
	// operations, parser tokens); zero fields take graph.DefaultLimits.
	Limits graph.Limits
	// MaxBodyBytes bounds request bodies (413 above it).
	MaxBodyBytes int64
	// RateLimit is each organization's sustained requests per second, with
	// bursts of RateBurst; 0 disables rate limiting.
	RateLimit float64
	RateBurst int
	// MinFreeDisk is the free space below which writes are refused and
	// /readyz fails; 0 disables the guard. It applies to an on-disk store,
	// or to any store when DiskProbe is set.
	MinFreeDisk uint64
	// DiskProbe measures free space; nil means httpguard.FreeBytes.
	DiskProbe httpguard.Probe
	// Timeouts of the HTTP server (see http.Server).
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxLease bounds UNTIL_TIME leases of state assertions.
	MaxLease time.Duration
	// VolatilePredicates are keys writeFact refuses by name alone (state,
	// asserted with assertState); a trailing * is a prefix. None by
	// default: the admission rule state-content judges values.
	VolatilePredicates []string
	// ConflictPolicies are "predicate=policy" settings (latest,
	// highest_authority, highest_confidence).
	ConflictPolicies []string
	// LeaseSweepInterval is how often expired leases are recorded; 0
	// disables the sweep (reads still evaluate leases).
	LeaseSweepInterval time.Duration
	// EnvironmentProviders are called at every assembly, each within
	// EnvironmentTimeout (environment.DefaultTimeout when 0).
	EnvironmentProviders []environment.Provider
	EnvironmentTimeout   time.Duration
	// OperatorOrg is the organization whose service tokens are the
	// operator's: they may export the whole store or any organization
	// (with admin:backup-all) and read the detail of /readyz and /metrics.
	// "" (the default) means no operator: nobody exports beyond their own
	// organization, and those endpoints show their public form only.
	OperatorOrg string
	// WorkingTurns is how many of a session's latest turns assembleContext
	// replays verbatim (contextasm.DefaultWorkingTurns when not positive);
	// older turns reach it as evidence.
	WorkingTurns int
	// MaxSubscriptionsPerOrg bounds each organization's live GraphQL
	// subscriptions, and separately its open websocket connections
	// (feed.DefaultMaxPerOrg when 0).
	MaxSubscriptionsPerOrg int
	// DocPermissionURL is the permission webhook of documents (see
	// documents.Webhook), asked at every query; "" means none: the stored
	// ACL alone decides.
	DocPermissionURL string
	// DocPermissionTimeout bounds each call of the webhook
	// (documents.DefaultTimeout when 0).
	DocPermissionTimeout time.Duration
	// SubscriptionBuffer is how many changes a subscriber may lag behind
	// before it is dropped (feed.DefaultBuffer when 0).
	SubscriptionBuffer int
	// Consolidation configures the consolidation of capability memory
	// and its background schedule (off unless Every or Ticks is set);
	// New sets its Store, Clock, Facts, Pipeline, IDs and Logger.
	Consolidation consolidate.Options
	// SubscriptionInitTimeout is how long a websocket may wait before its
	// connection_init (graph.DefaultInitTimeout when 0); then it is closed
	// with 4408.
	SubscriptionInitTimeout time.Duration
}

// DefaultOptions returns the options of a production server storing its
// data in dir.
func DefaultOptions(dir string) Options {
	return Options{
		Store:          store.DefaultOptions(dir),
		RequestTimeout: 30 * time.Second,
		AuthorityOrder: authority.DefaultOrder,
		Permissions:    permissions.DefaultOptions(),
		Limits:         graph.DefaultLimits(),
		MaxBodyBytes:   1 << 20,
		RateLimit:      50,
		RateBurst:      100,
		MinFreeDisk:    512 << 20,

		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      90 * time.Second,
		IdleTimeout:       120 * time.Second,

		MaxLease:           assertions.DefaultMaxLease,
		VolatilePredicates: assertions.DefaultVolatile,
		LeaseSweepInterval: time.Minute,
		WorkingTurns:       contextasm.DefaultWorkingTurns,

		MaxSubscriptionsPerOrg: feed.DefaultMaxPerOrg,
	}
}

// contextCacheLines bounds the token counts of context lines kept in
// memory (about 100 bytes each).
const contextCacheLines = 1 << 16

// Server is a wired stategraph service.
type Server struct {
	store      *store.Store
	verifier   *authority.Verifier
	handler    http.Handler
	logger     *slog.Logger
	opts       Options
	metrics    *telemetry.Metrics
	registry   *prometheus.Registry
	assertions *assertions.Service
	changes    *feed.Broker
	consolid   *consolidate.Service
}

// New opens the store and wires the services. Close releases them.
func New(o Options) (*Server, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = temporal.System{}
	}
	if o.IDs == nil {
		o.IDs = ids.New(o.Clock)
	}
	if o.RequestTimeout <= 0 {
		return nil, errors.New("server: request timeout must be positive")
	}
	if o.MaxBodyBytes <= 0 {
		return nil, errors.New("server: the request body limit must be positive")
	}
	if o.RateLimit < 0 || o.RateLimit > 0 && o.RateBurst < 1 {
		return nil, errors.New("server: the rate limit must be >= 0 and its burst >= 1")
	}
	probeGiven := o.DiskProbe != nil
	if !probeGiven {
		o.DiskProbe = httpguard.FreeBytes
	}
	verifier, err := authority.NewVerifier(o.Verifier)
	if err != nil {
		return nil, err
	}
	order, err := authority.NewOrder(o.AuthorityOrder)
	if err != nil {
		return nil, err
	}
	if order, err = order.WithRoles(o.AuthorityRoles); err != nil {
		return nil, err
	}
	rules, err := permissions.New(order, o.Permissions)
	if err != nil {
		return nil, err
	}
	policies, err := conflicts.ParsePolicies(o.ConflictPolicies)
	if err != nil {
		return nil, err
	}
	volatile, err := assertions.NewVolatile(o.VolatilePredicates)
	if err != nil {
		return nil, err
	}
	changes, err := feed.New(feed.Options{MaxPerOrg: o.MaxSubscriptionsPerOrg, Buffer: o.SubscriptionBuffer})
	if err != nil {
		return nil, err
	}
	var docChecker documents.Checker
	if o.DocPermissionURL != "" {
		wh, err := documents.NewWebhook(o.DocPermissionURL, o.DocPermissionTimeout)
		if err != nil {
			return nil, err
		}
		docChecker = wh
	}
	o.Store.Logger = o.Logger
	st, err := store.Open(o.Store)
	if err != nil {
		return nil, err
	}
	counter, err := tokens.New()
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	reg := prometheus.NewRegistry()
	telemetry.RegisterRuntime(reg)
	if db := st.Badger(); db != nil {
		reg.MustRegister(telemetry.NewBadgerCollector(db))
	}
	reg.MustRegister(storeRetries(st)...)
	if c, ok := st.Engine().(interface{ Collectors() []prometheus.Collector }); ok {
		reg.MustRegister(c.Collectors()...)
	}
	metrics := telemetry.New(reg)
	reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "stategraph_subscriptions", Help: "Live GraphQL subscriptions, all organizations together."},
			func() float64 { n, _ := changes.Totals(); return float64(n) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "stategraph_subscription_connections", Help: "Open websocket connections of subscriptions, all organizations together."},
			func() float64 { _, n := changes.Totals(); return float64(n) }),
	)

	fs := facts.NewService(st, o.Clock, order, facts.WithPermissions(rules))
	index := search.New()
	pl := pipeline.New(pipeline.Options{Store: st, Clock: o.Clock, Facts: fs, Volatile: volatile.Match, Index: index, IDs: o.IDs})
	pl.AddObserver(pipeline.ObserverFunc(func(e pipeline.Event) {
		switch e.Kind {
		case pipeline.ActionWritten, pipeline.ActionStale:
			metrics.FactWritten()
		case pipeline.ActionSuperseded:
			metrics.FactWritten()
			metrics.Superseded(e.Fact.Supersession.Detection)
		}
	}))
	pl.AddObserver(changes)
	cs := conflicts.NewService(st, o.Clock, fs, pl).WithIDs(o.IDs)
	cs.OnOpened, cs.OnResolved = metrics.ConflictOpened, metrics.ConflictResolved
	cs.OnChange = changes.ConflictChanged
	pl.AddReactor(cs)
	pl.AddReactor(evidence.Retirer{})
	pl.AddEraser(evidence.Retirer{})
	as, err := assertions.NewService(st, o.Clock, order, fs, pl, cs, assertions.Options{
		MaxLease: o.MaxLease, Policies: policies, SweepInterval: o.LeaseSweepInterval, Logger: o.Logger, IDs: o.IDs,
	})
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	copts := o.Consolidation
	copts.Store, copts.Clock, copts.Facts, copts.Pipeline, copts.IDs, copts.Logger = st, o.Clock, fs, pl, o.IDs, o.Logger
	consolid, err := consolidate.New(copts)
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	pl.AddReactor(consolidate.Registrar{})
	as.OnExpired = func() { metrics.AssertionsExpired(1) }
	as.OnChange = changes.AssertionChanged
	cs.Assertions = as
	cache := tokens.NewCache(counter, contextCacheLines)
	sessions := session.NewService(st, o.Clock, pl).WithIDs(o.IDs)
	if o.RelayFrom != "" && !order.Known(o.RelayFrom) {
		return nil, fmt.Errorf("relay authority %q is not an authority of the order", o.RelayFrom)
	}
	rev := revision.New(revision.Options{
		Store: st, Clock: o.Clock, Facts: fs, Pipeline: pl, Index: index, Sessions: sessions,
		Assertions: as, Order: order, Rules: rules, Detect: detect.DefaultOptions(), IDs: o.IDs,
		RelayFrom: o.RelayFrom, ProfileTitle: profile.TitleTx,
	})
	docs := documents.NewService(st, o.Clock, o.IDs, docChecker)
	s := &Server{store: st, verifier: verifier, assertions: as, logger: o.Logger, opts: o, metrics: metrics, registry: reg, changes: changes, consolid: consolid}
	res := &resolvers.Resolver{
		FactService:      fs,
		Pipeline:         pl,
		Audit:            audit.NewTrail(st).WithVisibility("fact", fs.Visible).WithVisibility("conflict", cs.Visible).WithVisibility("decision", cs.DecisionVisible),
		AssertionService: as,
		ConflictService:  cs,
		Sessions:         sessions,
		Revision:         rev,
		Environment:      environment.NewService(st, o.Clock).WithIDs(o.IDs),
		Context: contextasm.New(contextasm.Options{
			Store: st, Clock: o.Clock,
			Counter: cache,
			Fetcher: environment.NewFetcher(o.EnvironmentProviders, o.EnvironmentTimeout),
			Sources: []contextasm.Source{
				contextasm.EnvironmentSource{},
				&contextasm.FactSource{Index: index, Order: order, Counter: cache, Visible: fs.Readable(), Cards: facts.NewCards()},
				contextasm.WorkingSource{Turns: o.WorkingTurns},
				contextasm.AssertionSource{},
				contextasm.EvidenceSource{},
				contextasm.ProfileSource{},
			},
			Usage:     consolid.Usage(),
			Documents: docs,
		}),
		Profiles:      profile.NewService(st, o.Clock, o.IDs),
		Documents:     docs,
		Consolidation: consolid,
		Metrics:       metrics,
		Feed:          changes,
	}
	var disk *httpguard.DiskGuard
	if o.MinFreeDisk > 0 && (!o.Store.InMemory || probeGiven) {
		disk = httpguard.NewDiskGuard(o.Store.Dir, o.MinFreeDisk, o.DiskProbe)
	}
	gql := graph.NewHandler(res, graph.Options{
		Introspection: o.Dev || o.Introspection,
		Logger:        o.Logger,
		RequestID:     httpguard.RequestID,
		Limits:        o.Limits,
		WriteGuard:    writeGuard(disk, o.Logger),
		Annotate: func(ctx context.Context, op, code string) {
			httpguard.Annotate(ctx, slog.String("operation", op), slog.String("code", code))
		},
		CountError: metrics.CountError,
		// A batch of n facts weighs BatchWeight(n) requests; its request
		// took one token already.
		ChargeBatch: func(ctx context.Context, n int) error {
			return httpguard.Charge(ctx, httpguard.BatchWeight(n)-1)
		},
		Subscriptions: &graph.Subscriptions{Verify: verifier.VerifyUntil, Connect: changes.Connect, Shutdown: changes.Done(), InitTimeout: o.SubscriptionInitTimeout},
	})

	// The GraphQL chain, outermost first: request log and id, body limit,
	// authentication, the rate limit of the caller's organization, the
	// request deadline, GraphQL.
	limiter := httpguard.NewLimiter(o.RateLimit, o.RateBurst)
	guarded := func(h http.Handler) http.Handler {
		h = limiter.Middleware(orgOf)(h)
		h = authority.Middleware(verifier, h)
		return httpguard.MaxBytes(o.MaxBodyBytes)(h)
	}
	mux := http.NewServeMux()
	// A websocket upgrade (subscriptions) authenticates in its
	// connection_init message with the same verifier, and outlives the
	// request deadline: it bypasses the HTTP chain.
	mux.Handle("/graphql", graph.Upgrades(gql, guarded(graph.Timeout(o.RequestTimeout, gql))))
	mux.Handle("GET /admin/backup", guarded(http.HandlerFunc(s.serveBackup)))
	mux.HandleFunc("/graphql/", notFound)
	// MCP over streamable HTTP, behind the same authentication: each tool
	// call is a GraphQL request, with the caller's token, through the whole
	// handler (request log, rate limit, deadline, errors).
	self := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) })
	mux.Handle("/mcp", httpguard.MaxBytes(o.MaxBodyBytes)(authority.Middleware(verifier, mcpserver.HTTPHandler(mcpserver.Options{
		GraphQL: &mcpserver.GraphQL{Handler: self}, Logger: o.Logger, MaxBodyBytes: o.MaxBodyBytes,
	}))))
	mux.Handle("GET /healthz", httpguard.Healthz())
	readiness := []httpguard.Check{}
	if disk != nil {
		readiness = append(readiness, httpguard.Check{Name: "disk", Run: disk.Ready})
	}
	readiness = append(readiness, httpguard.Check{Name: "store", Run: st.Ping})
	mux.Handle("GET /readyz", httpguard.Readiness(s.operator, readiness...))
	mux.Handle("GET /metrics", s.serveMetrics(
		promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}),
		promhttp.HandlerFor(publicGatherer{reg}, promhttp.HandlerOpts{Registry: reg}),
	))
	// The explorer (a static app; its data comes from /graphql with the
	// token the user signs in with), its form prefilled in Dev.
	devToken := ""
	if o.Dev {
		devToken = o.DevToken
	}
	mux.Handle(explorer.Path, explorer.Handler(explorer.Options{Endpoint: "/graphql", DevToken: devToken}))
	if o.Dev {
		var headers map[string]string
		if o.DevToken != "" {
			headers = map[string]string{"Authorization": "Bearer " + o.DevToken}
		}
		mux.Handle("GET /{$}", graphiql.Page("/graphql", headers))
		mux.Handle("GET "+graphiql.AssetPath, graphiql.Assets())
	}
	s.handler = httpguard.RequestLog(o.Logger, s.observe)(mux)
	as.Start()
	consolid.Start()
	return s, nil
}

// storeRetries exports the store's conflict counters, on every engine.
func storeRetries(st *store.Store) []prometheus.Collector {
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "stategraph_store_conflict_retries_total",
			Help: "Transactions run again because a concurrent transaction committed a key they read or wrote.",
		}, func() float64 { return float64(st.RetryStats().Retries) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "stategraph_store_contended_total",
			Help: "Transactions refused with CONFLICT after every retry.",
		}, func() float64 { return float64(st.RetryStats().Contended) }),
	}
}

// orgOf keys the rate limit by the verified organization.
func orgOf(r *http.Request) (string, bool) {
	id, err := authority.FromContext(r.Context())
	if err != nil {
		return "", false
	}
	return id.Org, true
}

// writeGuard refuses mutations while the disk guard fails.
func writeGuard(disk *httpguard.DiskGuard, logger *slog.Logger) func(context.Context) error {
	if disk == nil {
		return nil
	}
	return func(ctx context.Context) error {
		err := disk.Check()
		switch {
		case err == nil:
			return nil
		case errors.Is(err, httpguard.ErrLowDisk):
			return &fault.Error{Kind: fault.Internal, Err: err,
				Msg: "writes are refused: the server's disk is nearly full (below its --min-free-disk minimum); reads still work, retry the write later"}
		default:
			return &fault.Error{Kind: fault.Internal, Err: err,
				Msg: "writes are refused: the server cannot measure its free disk space; retry later"}
		}
	}
}

// observe records request metrics for the GraphQL endpoint, and counts the
// errors of requests refused before GraphQL (body limit, authentication,
// rate limit), which the GraphQL layer never saw.
func (s *Server) observe(sum httpguard.Summary) {
	if sum.Path != "/graphql" {
		return
	}
	if t, ok := sum.Attr("transport"); ok && t.String() == graph.TransportWebsocket {
		return // a connection's life is not a request's duration
	}
	op := ""
	v, reached := sum.Attr("operation")
	if reached {
		op = v.String()
	}
	s.metrics.ObserveRequest(op, sum.Code(), sum.Duration)
	if reached {
		return
	}
	if c, ok := sum.Attr("code"); ok {
		s.metrics.CountError(c.String())
	} else if code := sum.Code(); code != telemetry.CodeOK {
		s.metrics.CountError(code)
	}
}

// Subscriptions returns how many live GraphQL subscriptions org has.
func (s *Server) Subscriptions(org string) int { return s.changes.Subscribers(org) }

// Metrics returns the server's metrics, for domain services wired later.
func (s *Server) Metrics() *telemetry.Metrics { return s.metrics }

// Handler returns the HTTP handler of every endpoint.
func (s *Server) Handler() http.Handler { return s.handler }

// Store returns the server's store, for operational tasks.
func (s *Server) Store() *store.Store { return s.store }

// SweepLeases records every lease that has ended, now, as the background
// sweep does; it returns how many assertions expired.
func (s *Server) SweepLeases(ctx context.Context) (int, error) { return s.assertions.Sweep(ctx) }

// Close stops background work, then closes the store. Call it after the
// HTTP server has drained.
func (s *Server) Close() error {
	s.changes.Close()
	s.assertions.Stop()
	err := s.consolid.Stop()
	return errors.Join(err, s.store.Close())
}

// Serve runs an HTTP server on addr until ctx is cancelled, then drains
// requests for at most drain and returns. It does not close the store.
func (s *Server) Serve(ctx context.Context, addr string, drain time.Duration, ready func(addr string)) error {
	hs := &http.Server{
		Addr:              addr,
		Handler:           s.handler,
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		ReadTimeout:       s.opts.ReadTimeout,
		WriteTimeout:      s.opts.WriteTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
	}
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("server: serve: %w", err)
	case <-ctx.Done():
	}
	// Subscriptions end first: the HTTP server does not wait for (or
	// close) its websocket connections.
	s.changes.Close()
	sctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("server: drain: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("server: serve: %w", err)
	}
	return nil
}
