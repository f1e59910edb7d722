package telemetry

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

const namespace = "stategraph"

// MaxOperations is how many distinct operation names get their own label
// value; names first seen after that are counted as "other".
const MaxOperations = 200

// Reserved operation label values.
const (
	OpAnonymous = "anonymous" // the operation has no name
	OpInvalid   = "invalid"   // the name is not a GraphQL name of at most 64 characters
	OpOther     = "other"     // more than MaxOperations names were already seen
)

// CodeOK is the code label of a request that returned no error.
const CodeOK = "OK"

// codes are the values the code label may take; anything else is "other".
// They are the GraphQL extensions.code values of the project, gqlgen's own
// parse and validation codes, and the HTTP-level outcomes.
var codes = set(
	CodeOK,
	"UNAUTHENTICATED", "FORBIDDEN", "BAD_USER_INPUT", "NOT_FOUND", "CONFLICT", "INTERNAL", "UNAVAILABLE",
	"GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED",
	"RATE_LIMITED", "TOO_LARGE",
)

// kinds are the supersession detection kinds; anything else is "other".
var kinds = set("EXPLICIT_WRITE", "EXPLICIT", "IMPLICIT", "AUTHORITY", "TEMPORAL")

// Metrics holds stategraph's own metrics. Its methods are safe for concurrent
// use. Create it with New.
type Metrics struct {
	requestDuration   *prometheus.HistogramVec
	errors            *prometheus.CounterVec
	factsWritten      prometheus.Counter
	supersessions     *prometheus.CounterVec
	conflictsOpened   prometheus.Counter
	conflictsResolved prometheus.Counter
	assertionsExpired prometheus.Counter
	assembleDuration  prometheus.Histogram
	assembleTokens    prometheus.Histogram

	mu  sync.Mutex
	ops map[string]struct{} // operation names with their own label value
}

// latencyBuckets span 1 ms to about 16 s.
var latencyBuckets = prometheus.ExponentialBuckets(0.001, 2, 15)

// New creates the metrics and registers them with reg. Like promauto, it
// panics if a metric of the same name is already registered with reg.
func New(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requestDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace,
			Name:      "request_duration_seconds",
			Help:      "GraphQL request duration by operation name and result code.",
			Buckets:   latencyBuckets,
		}, []string{"operation", "code"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace,
			Name:      "errors_total",
			Help:      "GraphQL errors returned, by extensions.code.",
		}, []string{"code"}),
		factsWritten: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace,
			Name:      "facts_written_total",
			Help:      "Facts written.",
		}),
		supersessions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace,
			Name:      "supersessions_total",
			Help:      "Supersessions recorded, by detection kind.",
		}, []string{"kind"}),
		conflictsOpened: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace,
			Name:      "conflicts_opened_total",
			Help:      "Conflicts opened.",
		}),
		conflictsResolved: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace,
			Name:      "conflicts_resolved_total",
			Help:      "Conflicts resolved by a decision.",
		}),
		assertionsExpired: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace,
			Name:      "state_assertions_expired_total",
			Help:      "State assertions whose lease expired.",
		}),
		assembleDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace,
			Name:      "assemble_context_duration_seconds",
			Help:      "assembleContext latency.",
			Buckets:   latencyBuckets,
		}),
		assembleTokens: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: namespace,
			Name:      "assemble_context_tokens",
			Help:      "Tokens in the prompt returned by assembleContext.",
			Buckets:   prometheus.ExponentialBuckets(64, 2, 9), // 64 .. 16384
		}),
		ops: make(map[string]struct{}),
	}
	reg.MustRegister(
		m.requestDuration, m.errors, m.factsWritten, m.supersessions,
		m.conflictsOpened, m.conflictsResolved, m.assertionsExpired,
		m.assembleDuration, m.assembleTokens,
	)
	return m
}

// RegisterRuntime registers the Go runtime and process collectors with reg.
// It is separate from New so that tests can use a fresh registry without
// them. It panics if they are already registered.
func RegisterRuntime(reg prometheus.Registerer) {
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
}

// ObserveRequest records one GraphQL request: its operation name ("" for an
// anonymous operation), its result code (CodeOK, the first error's
// extensions.code, or an HTTP-level outcome such as RATE_LIMITED) and its
// duration. An unknown code is counted as "other".
func (m *Metrics) ObserveRequest(operation, code string, d time.Duration) {
	m.requestDuration.WithLabelValues(m.operation(operation), capped(codes, code)).Observe(d.Seconds())
}

// CountError counts one GraphQL error with the given extensions.code. An
// unknown code is counted as "other".
func (m *Metrics) CountError(code string) {
	m.errors.WithLabelValues(capped(codes, code)).Inc()
}

// FactWritten counts one fact written.
func (m *Metrics) FactWritten() { m.factsWritten.Inc() }

// Superseded counts one supersession detected as kind (EXPLICIT_WRITE,
// EXPLICIT, IMPLICIT, AUTHORITY or TEMPORAL; anything else is "other").
func (m *Metrics) Superseded(kind string) {
	m.supersessions.WithLabelValues(capped(kinds, kind)).Inc()
}

// ConflictOpened counts one conflict opened.
func (m *Metrics) ConflictOpened() { m.conflictsOpened.Inc() }

// ConflictResolved counts one conflict resolved.
func (m *Metrics) ConflictResolved() { m.conflictsResolved.Inc() }

// AssertionsExpired counts n state assertions expired; n <= 0 counts nothing.
func (m *Metrics) AssertionsExpired(n int) {
	if n > 0 {
		m.assertionsExpired.Add(float64(n))
	}
}

// ObserveAssemble records one assembleContext call: its duration and the
// token count of the returned prompt.
func (m *Metrics) ObserveAssemble(d time.Duration, tokens int) {
	m.assembleDuration.Observe(d.Seconds())
	m.assembleTokens.Observe(float64(tokens))
}

// operation maps a client-chosen operation name to a label value of bounded
// cardinality: the name itself for the first MaxOperations valid names,
// OpAnonymous, OpInvalid or OpOther otherwise. A client naming an operation
// "other" shares that series; it is harmless.
func (m *Metrics) operation(name string) string {
	if name == "" {
		return OpAnonymous
	}
	if !validName(name) {
		return OpInvalid
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.ops[name]; ok {
		return name
	}
	if len(m.ops) >= MaxOperations {
		return OpOther
	}
	m.ops[name] = struct{}{}
	return name
}

// validName reports whether s matches ^[A-Za-z_][A-Za-z0-9_]{0,63}$.
func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func set(vals ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(vals))
	for _, v := range vals {
		m[v] = struct{}{}
	}
	return m
}

// capped returns v if allowed holds it, else "other".
func capped(allowed map[string]struct{}, v string) string {
	if _, ok := allowed[v]; ok {
		return v
	}
	return "other"
}
