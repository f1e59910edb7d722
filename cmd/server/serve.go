package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/stategraph/stategraph/assertions"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/contextasm"
	"github.com/stategraph/stategraph/documents"
	"github.com/stategraph/stategraph/environment"
	"github.com/stategraph/stategraph/graph"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/server"
	"github.com/stategraph/stategraph/store"
)

type serveConfig struct {
	addr, dataDir             string
	inMemory, dev, syncWrites bool
	jwt                       jwtFlags
	introspection             bool
	operatorOrg               string
	logLevel, logFormat       string
	requestTimeout, drain     time.Duration
	authorityOrder            string
	authorityRoles            string
	relayAuthority            string
	policyMinAuthority        string
	authorityViolation        string
	workingTurns              int
	limits                    graph.Limits
	maxBodyBytes              int64
	rateLimit                 float64
	rateBurst                 int
	maxSubscriptions          int
	minFreeDisk               uint64
	readHeaderTimeout         time.Duration
	readTimeout, writeTimeout time.Duration
	idleTimeout               time.Duration
	maxLease                  time.Duration
	volatilePredicates        string
	conflictPolicies          listFlag
	envProviders              listFlag
	envTimeout                time.Duration
	docPermissionURL          string
	docPermissionTimeout      time.Duration
	memory                    store.Options // memtable and cache sizes
	consolidate               consolidateFlags
	store                     storeFlags
}

type jwtFlags struct {
	secret, publicKey, issuer, audience string
}

func (j *jwtFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&j.secret, "jwt-secret", "", "HS256 secret that verifies (and, for token, signs) tokens")
	fs.StringVar(&j.publicKey, "jwt-public-key", "", "PEM file with the public key that verifies tokens (RS256, ES256 or EdDSA)")
	fs.StringVar(&j.issuer, "jwt-issuer", "", "required iss claim, when set")
	fs.StringVar(&j.audience, "jwt-audience", "", "required aud claim, when set")
}

func runServe(ctx context.Context, args []string, env func(string) string, stdout, stderr io.Writer) error {
	var c serveConfig
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&c.dataDir, "data-dir", "./data", "directory of the Badger store")
	fs.BoolVar(&c.inMemory, "in-memory", false, "keep everything in memory (nothing survives a restart)")
	fs.BoolVar(&c.dev, "dev", false, "development mode: generated secret, GraphiQL at /, introspection, a demo token")
	fs.BoolVar(&c.syncWrites, "sync-writes", true, "fsync every commit before acknowledging it (false trades durability for speed)")
	fs.BoolVar(&c.introspection, "introspection", false, "enable schema introspection outside dev mode")
	fs.StringVar(&c.operatorOrg, "operator-org", "", "organization whose service tokens are the operator's: backups of the whole store or of any organization (with admin:backup-all), detail of /readyz and /metrics (none by default)")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json")
	fs.DurationVar(&c.requestTimeout, "request-timeout", 30*time.Second, "deadline of every request")
	fs.DurationVar(&c.drain, "shutdown-timeout", 15*time.Second, "how long shutdown waits for requests to finish")
	fs.StringVar(&c.authorityOrder, "authority-order", strings.Join(authority.DefaultOrder, ","), "authorities, lowest first, comma-separated")
	fs.StringVar(&c.relayAuthority, "relay-authority", "", "lowest authority (default subordinate) whose relayed claims in a turn (\"the COO says …\") carry the cited role's authority, never policy's")
	fs.StringVar(&c.authorityRoles, "authority-roles", "", `free-text roles mapped onto the order, "pattern=authority,..." (a * word matches one or more words; e.g. "Staff Engineer=manager,Head of *=executive"); consulted before the built-in table`)
	fs.StringVar(&c.policyMinAuthority, "policy-min-authority", "manager", "lowest authority that may write a policy fact (source POLICY, or a constraint with authority policy)")
	fs.StringVar(&c.authorityViolation, "authority-violation", "conflict", "a write superseding a fact of higher authority: conflict (store it beside the fact and open a conflict) or reject (FORBIDDEN)")
	fs.DurationVar(&c.maxLease, "max-lease", assertions.DefaultMaxLease, "longest UNTIL_TIME lease a state assertion may ask for")
	fs.StringVar(&c.volatilePredicates, "volatile-predicates", strings.Join(assertions.DefaultVolatile, ","), "fact keys refused by writeFact by name alone, as state (comma-separated; a trailing * is a prefix; default none: values are judged by content)")
	fs.Var(&c.conflictPolicies, "conflict-policy", "predicate=latest|highest_authority|highest_confidence: decide conflicts of that predicate deterministically (repeatable)")
	fs.Var(&c.envProviders, "environment-provider", "name=URL of an HTTP endpoint returning a JSON object of environment signals, called at every assembly (repeatable)")
	fs.IntVar(&c.workingTurns, "working-turns", contextasm.DefaultWorkingTurns, "latest turns of a session replayed verbatim in assembleContext (older ones reach it as evidence, sentence by sentence)")
	fs.DurationVar(&c.envTimeout, "environment-timeout", environment.DefaultTimeout, "how long assembly waits for each environment provider")
	fs.StringVar(&c.docPermissionURL, "doc-permission-url", "", "URL of a permission webhook asked, at every query, which matched documents the caller may see at their source (none by default: the stored ACL alone decides)")
	fs.DurationVar(&c.docPermissionTimeout, "doc-permission-timeout", documents.DefaultTimeout, "how long the permission webhook has to answer; a late answer hides the documents")
	c.jwt.register(fs)
	c.consolidate.register(fs)
	c.store.register(fs)
	c.registerLimits(fs)
	if err := parse(fs, args, env); err != nil {
		return err
	}
	logger, err := newLogger(stderr, c.logLevel, c.logFormat)
	if err != nil {
		return err
	}
	opts := server.DefaultOptions(c.dataDir)
	opts.Store.InMemory = c.inMemory
	opts.Store.SyncWrites = c.syncWrites
	opts.Dev, opts.Introspection = c.dev, c.introspection
	opts.OperatorOrg = c.operatorOrg
	opts.RequestTimeout = c.requestTimeout
	opts.AuthorityOrder = strings.Split(c.authorityOrder, ",")
	if opts.AuthorityRoles, err = authority.ParseRoles(c.authorityRoles); err != nil {
		return fmt.Errorf("--authority-roles: %w", err)
	}
	opts.RelayFrom = c.relayAuthority
	opts.Permissions = permissions.Options{PolicyMinAuthority: c.policyMinAuthority, Violation: permissions.Violation(c.authorityViolation)}
	opts.MaxLease = c.maxLease
	opts.VolatilePredicates = splitList(c.volatilePredicates)
	opts.ConflictPolicies = c.conflictPolicies
	opts.Consolidation = c.consolidate.options()
	opts.Logger = logger
	c.applyLimits(&opts)
	if opts.Store.Engine, err = c.store.engine(logger); err != nil {
		return err
	}
	if opts.Store.Engine != nil {
		opts.MinFreeDisk = 0 // the data is on the cluster's disks
	}
	for _, v := range c.envProviders {
		pr, err := environment.ParseProvider(v)
		if err != nil {
			return err
		}
		opts.EnvironmentProviders = append(opts.EnvironmentProviders, pr)
	}
	if c.envTimeout <= 0 {
		return errors.New("--environment-timeout must be positive")
	}
	opts.EnvironmentTimeout = c.envTimeout
	if c.docPermissionTimeout <= 0 {
		return errors.New("--doc-permission-timeout must be positive")
	}
	opts.DocPermissionURL, opts.DocPermissionTimeout = c.docPermissionURL, c.docPermissionTimeout
	if c.workingTurns <= 0 {
		return errors.New("--working-turns must be positive")
	}
	if c.maxSubscriptions <= 0 {
		return errors.New("--max-subscriptions-per-org must be positive")
	}
	opts.WorkingTurns = c.workingTurns
	if opts.Verifier, err = c.jwt.verifierConfig(); err != nil {
		return err
	}
	var devSecret []byte
	if errors.Is(verifierMissing(opts.Verifier), authority.ErrNoKey) {
		if !c.dev {
			return errors.New("no --jwt-secret or --jwt-public-key (or STATEGRAPH_JWT_SECRET / STATEGRAPH_JWT_PUBLIC_KEY) given; refusing to start without a way to verify tokens (use --dev for a local development server)")
		}
		if devSecret, err = loadOrCreateDevSecret(c.dataDir); err != nil {
			return err
		}
		opts.Verifier.Secret = devSecret
	}
	var demoToken string
	if c.dev && len(opts.Verifier.Secret) > 0 {
		// The demo token is printed and prefilled in GraphiQL. A dev
		// server verifying with a public key has no secret to sign it.
		if demoToken, err = authority.Mint(opts.Verifier.Secret, demoIdentity(), demoTokenTTL, opts.Verifier.Issuer, opts.Verifier.Audience, time.Now()); err != nil {
			return fmt.Errorf("mint the demo token: %w", err)
		}
		opts.DevToken = demoToken
	}
	srv, err := server.New(opts)
	if err != nil {
		if opts.Store.Engine != nil {
			err = errors.Join(err, opts.Store.Engine.Close())
		}
		return err
	}
	err = srv.Serve(ctx, c.addr, c.drain, func(addr string) {
		if opts.Store.Engine != nil {
			logger.Info("listening", "addr", addr, "store", c.store.kind, "pd_endpoints", c.store.pdEndpoints, "tikv_prefix", c.store.prefix, "dev", c.dev)
		} else {
			logger.Info("listening", "addr", addr, "store", engineBadger, "data_dir", c.dataDir, "in_memory", c.inMemory, "sync_writes", c.syncWrites, "dev", c.dev)
		}
		if c.dev {
			printDevBanner(stdout, addr, demoToken)
		}
	})
	logger.Info("shutting down")
	return errors.Join(err, srv.Close())
}

// registerLimits adds the flags of the request limits and timeouts.
func (c *serveConfig) registerLimits(fs *flag.FlagSet) {
	d, dl := server.DefaultOptions(""), graph.DefaultLimits()
	fs.IntVar(&c.limits.MaxComplexity, "max-complexity", dl.MaxComplexity, "largest query complexity (each field 1; a page multiplies its selection by first or last, 50 when neither, other lists by 10)")
	fs.IntVar(&c.limits.MaxDepth, "max-depth", dl.MaxDepth, "deepest selection nesting of a query")
	fs.IntVar(&c.limits.MaxAliases, "max-aliases", dl.MaxAliases, "most aliased fields in one query")
	fs.IntVar(&c.limits.MaxOperations, "max-operations", dl.MaxOperations, "most operation definitions in one document")
	fs.IntVar(&c.limits.ParserTokens, "max-tokens", dl.ParserTokens, "most lexical tokens in one GraphQL document")
	fs.IntVar(&c.limits.MaxQueryBytes, "max-query-bytes", dl.MaxQueryBytes, "largest GraphQL document in bytes, checked before it is parsed")
	fs.IntVar(&c.limits.MaxSelections, "max-selections", dl.MaxSelections, "most selections (fields and fragments, each fragment counted where spread) in one document, checked before it is validated")
	fs.Int64Var(&c.maxBodyBytes, "max-body-bytes", d.MaxBodyBytes, "largest request body in bytes (413 above)")
	fs.Float64Var(&c.rateLimit, "rate-limit", d.RateLimit, "requests per second per organization, sustained (0 disables; 429 with Retry-After above)")
	fs.IntVar(&c.rateBurst, "rate-burst", d.RateBurst, "requests an organization may send in a burst above --rate-limit")
	fs.IntVar(&c.maxSubscriptions, "max-subscriptions-per-org", d.MaxSubscriptionsPerOrg, "live GraphQL subscriptions per organization, and separately open websocket connections (FORBIDDEN, or close code 4429, above)")
	ds := store.DefaultOptions("")
	fs.Int64Var(&c.memory.MemTableSize, "memtable-size", ds.MemTableSize, "bytes of each Badger memtable (a transaction may hold 15% of it)")
	fs.IntVar(&c.memory.NumMemtables, "num-memtables", ds.NumMemtables, "Badger memtables kept in memory, the one written and those being flushed")
	fs.Int64Var(&c.memory.BlockCacheSize, "block-cache-size", ds.BlockCacheSize, "bytes of Badger's cache of table blocks")
	fs.Int64Var(&c.memory.IndexCacheSize, "index-cache-size", ds.IndexCacheSize, "bytes of Badger's cache of table indexes and bloom filters")
	fs.Uint64Var(&c.minFreeDisk, "min-free-disk", d.MinFreeDisk, "free bytes on the data directory's disk below which writes are refused and /readyz fails (0 disables)")
	fs.DurationVar(&c.readHeaderTimeout, "read-header-timeout", d.ReadHeaderTimeout, "time to read a request's headers")
	fs.DurationVar(&c.readTimeout, "read-timeout", d.ReadTimeout, "time to read a whole request")
	fs.DurationVar(&c.writeTimeout, "write-timeout", d.WriteTimeout, "time to write a response (not applied to /admin/backup)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", d.IdleTimeout, "how long an idle keep-alive connection stays open")
}

func (c *serveConfig) applyLimits(o *server.Options) {
	o.Limits = c.limits
	o.MaxBodyBytes = c.maxBodyBytes
	o.RateLimit, o.RateBurst = c.rateLimit, c.rateBurst
	o.MaxSubscriptionsPerOrg = c.maxSubscriptions
	o.MinFreeDisk = c.minFreeDisk
	o.Store.MemTableSize, o.Store.NumMemtables = c.memory.MemTableSize, c.memory.NumMemtables
	o.Store.BlockCacheSize, o.Store.IndexCacheSize = c.memory.BlockCacheSize, c.memory.IndexCacheSize
	o.ReadHeaderTimeout, o.ReadTimeout = c.readHeaderTimeout, c.readTimeout
	o.WriteTimeout, o.IdleTimeout = c.writeTimeout, c.idleTimeout
}

func verifierMissing(v authority.VerifierConfig) error {
	if len(v.Secret) == 0 && v.PublicKey == nil {
		return authority.ErrNoKey
	}
	return nil
}

// minSecretBytes is the shortest HS256 secret accepted: RFC 7518 (3.2)
// asks for a key at least as long as the hash output, 256 bits.
const minSecretBytes = 32

// checkSecret refuses a secret shorter than minSecretBytes; from says
// where it came from. The secret itself is never printed.
func checkSecret(from string, secret []byte) error {
	if n := len(secret); n > 0 && n < minSecretBytes {
		return fmt.Errorf("%s is %d bytes; an HS256 secret needs at least %d (make one with: openssl rand -hex 32)", from, n, minSecretBytes)
	}
	return nil
}

// secretSource names the flag and variable a --jwt-secret comes from.
const secretSource = "--jwt-secret (or STATEGRAPH_JWT_SECRET)"

func (j jwtFlags) verifierConfig() (authority.VerifierConfig, error) {
	vc := authority.VerifierConfig{Secret: []byte(j.secret), Issuer: j.issuer, Audience: j.audience, Leeway: 30 * time.Second}
	if err := checkSecret(secretSource, vc.Secret); err != nil {
		return vc, err
	}
	if j.publicKey != "" {
		if j.secret != "" {
			return vc, errors.New("give either --jwt-secret or --jwt-public-key, not both")
		}
		pem, err := os.ReadFile(j.publicKey)
		if err != nil {
			return vc, fmt.Errorf("read --jwt-public-key: %w", err)
		}
		if vc.PublicKey, err = authority.ParsePublicKeyPEM(pem); err != nil {
			return vc, err
		}
	}
	return vc, nil
}

// loadOrCreateDevSecret returns the secret kept in dataDir, generating it
// the first time.
func loadOrCreateDevSecret(dataDir string) ([]byte, error) {
	if b, err := readDevSecret(dataDir); err == nil && len(b) > 0 {
		return b, checkSecret("the dev secret in "+devSecretPath(dataDir)+" (delete it to make a new one)", b)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read dev secret: %w", err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	secret := []byte(hex.EncodeToString(raw))
	if err := os.WriteFile(devSecretPath(dataDir), append(secret, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("write dev secret: %w", err)
	}
	return secret, nil
}

// demoIdentity is the identity of the token a dev server prints.
func demoIdentity() authority.Identity {
	return authority.Identity{
		UserID: "demo-user", UserName: "Demo User", Org: "demo", Authority: "manager",
		Department: "Engineering", Kind: authority.KindAgent, AgentLevel: authority.AgentMaster,
	}
}

// demoTokenTTL is how long the demo token of a dev server is valid.
const demoTokenTTL = 7 * 24 * time.Hour

func printDevBanner(w io.Writer, addr, tok string) {
	if tok == "" {
		fmt.Fprintf(w, `
stategraph dev server on http://%[1]s
  GraphiQL:  http://%[1]s/   (works offline; add your token under "Headers")
  Explorer:  http://%[1]s/explorer/   (histories, conflicts, contexts; sign in with your token)
  GraphQL:   http://%[1]s/graphql

`, addr)
		return
	}
	fmt.Fprintf(w, `
stategraph dev server on http://%[1]s
  GraphiQL:  http://%[1]s/   (works offline; the demo token below is already in "Headers")
  Explorer:  http://%[1]s/explorer/   (the demo token is prefilled: press Enter)
  GraphQL:   http://%[1]s/graphql

Demo token (org "demo", user "demo-user", valid 7 days):
  {"Authorization": "Bearer %[2]s"}

`, addr, tok)
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	ho := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, ho)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, ho)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// splitList splits a comma-separated flag, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
