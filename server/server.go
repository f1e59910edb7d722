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

	"github.com/99designs/gqlgen/graphql/playground"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/contextasm"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/graph"
	"github.com/stategraph/stategraph/graph/resolvers"
	"github.com/stategraph/stategraph/search"
	"github.com/stategraph/stategraph/session"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tokens"
)

// Options configure a Server. Start from DefaultOptions.
type Options struct {
	Store    store.Options
	Verifier authority.VerifierConfig
	// Dev serves GraphiQL at / and enables introspection.
	Dev bool
	// Introspection enables introspection without the rest of Dev.
	Introspection bool
	// RequestTimeout bounds every request.
	RequestTimeout time.Duration
	// AuthorityOrder ranks authorities, lowest first.
	AuthorityOrder []string
	Clock          temporal.Clock
	Logger         *slog.Logger
	// EnvironmentProviders are called at every assembly, each within
	// EnvironmentTimeout (environment.DefaultTimeout when 0).
	EnvironmentProviders []environment.Provider
	EnvironmentTimeout   time.Duration
}

// DefaultOptions returns the options of a production server storing its
// data in dir.
func DefaultOptions(dir string) Options {
	return Options{
		Store:          store.DefaultOptions(dir),
		RequestTimeout: 30 * time.Second,
		AuthorityOrder: authority.DefaultOrder,
	}
}

// contextCacheLines bounds the token counts of context lines kept in
// memory (about 100 bytes each).
const contextCacheLines = 1 << 16

// Server is a wired stategraph service.
type Server struct {
	store   *store.Store
	handler http.Handler
	logger  *slog.Logger
}

// New opens the store and wires the services. Close releases them.
func New(o Options) (*Server, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = temporal.System{}
	}
	if o.RequestTimeout <= 0 {
		return nil, errors.New("server: request timeout must be positive")
	}
	verifier, err := authority.NewVerifier(o.Verifier)
	if err != nil {
		return nil, err
	}
	order, err := authority.NewOrder(o.AuthorityOrder)
	if err != nil {
		return nil, err
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
	factService := facts.NewService(st, o.Clock, order)
	index := search.New()
	factService.AddListener(index)
	cache := tokens.NewCache(counter, contextCacheLines)
	res := &resolvers.Resolver{
		FactService: factService,
		Audit:       audit.NewTrail(st),
		Sessions:    session.NewService(st, o.Clock, factService),
		Environment: environment.NewService(st, o.Clock),
		Context: contextasm.New(contextasm.Options{
			Store: st, Clock: o.Clock,
			Counter: cache,
			Fetcher: environment.NewFetcher(o.EnvironmentProviders, o.EnvironmentTimeout),
			Sources: []contextasm.Source{
				contextasm.EnvironmentSource{},
				&contextasm.FactSource{Index: index, Order: order, Counter: cache},
				contextasm.WorkingSource{},
			},
		}),
	}
	gql := graph.NewHandler(res, graph.Options{
		Introspection: o.Dev || o.Introspection,
		Logger:        o.Logger,
	})
	mux := http.NewServeMux()
	mux.Handle("/graphql", authority.Middleware(verifier, graph.Timeout(o.RequestTimeout, gql)))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	if o.Dev {
		mux.Handle("GET /{$}", playground.Handler("stategraph", "/graphql"))
	}
	return &Server{store: st, handler: mux, logger: o.Logger}, nil
}

// Handler returns the HTTP handler of every endpoint.
func (s *Server) Handler() http.Handler { return s.handler }

// Store returns the server's store, for operational tasks.
func (s *Server) Store() *store.Store { return s.store }

// Close closes the store. Call it after the HTTP server has drained.
func (s *Server) Close() error { return s.store.Close() }

// Serve runs an HTTP server on addr until ctx is cancelled, then drains
// requests for at most drain and returns. It does not close the store.
func (s *Server) Serve(ctx context.Context, addr string, drain time.Duration, ready func(addr string)) error {
	hs := &http.Server{
		Addr:              addr,
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      90 * time.Second,
		IdleTimeout:       120 * time.Second,
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
