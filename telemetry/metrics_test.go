package telemetry

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func newTestMetrics(t testing.TB) (*Metrics, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	return New(reg), reg
}

// series gathers the metric family name from g and returns, for each series,
// its labels as "k=v,k=v" mapped to its value: the counter or gauge value,
// or the sample count of a histogram.
func series(t testing.TB, g prometheus.Gatherer, name string) map[string]float64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			var labels []string
			for _, lp := range m.GetLabel() {
				labels = append(labels, lp.GetName()+"="+lp.GetValue())
			}
			key := strings.Join(labels, ",")
			switch {
			case m.Counter != nil:
				out[key] = m.GetCounter().GetValue()
			case m.Gauge != nil:
				out[key] = m.GetGauge().GetValue()
			case m.Histogram != nil:
				out[key] = float64(m.GetHistogram().GetSampleCount())
			default:
				t.Fatalf("%s: unexpected metric type", name)
			}
		}
	}
	return out
}

func TestObserveRequestLabels(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := []struct {
		name, op, code string
		want           string
	}{
		{"named ok", "GetContext", "OK", "code=OK,operation=GetContext"},
		{"anonymous", "", "OK", "code=OK,operation=anonymous"},
		{"underscore start", "_x1", "NOT_FOUND", "code=NOT_FOUND,operation=_x1"},
		{"64 chars", long, "OK", "code=OK,operation=" + long},
		{"65 chars", long + "a", "OK", "code=OK,operation=invalid"},
		{"digit first", "1abc", "OK", "code=OK,operation=invalid"},
		{"dash", "get-context", "OK", "code=OK,operation=invalid"},
		{"unicode", "größe", "OK", "code=OK,operation=invalid"},
		{"org id smuggled", "org 42", "OK", "code=OK,operation=invalid"},
		{"gqlgen code", "Q", "GRAPHQL_VALIDATION_FAILED", "code=GRAPHQL_VALIDATION_FAILED,operation=Q"},
		{"http outcome", "", "RATE_LIMITED", "code=RATE_LIMITED,operation=anonymous"},
		{"unknown code", "Q", "TEAPOT", "code=other,operation=Q"},
		{"empty code", "Q", "", "code=other,operation=Q"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, reg := newTestMetrics(t)
			m.ObserveRequest(tc.op, tc.code, 3*time.Millisecond)
			got := series(t, reg, "stategraph_request_duration_seconds")
			if len(got) != 1 || got[tc.want] != 1 {
				t.Errorf("series = %v, want {%s: 1}", got, tc.want)
			}
		})
	}
}

func TestOperationCardinalityCap(t *testing.T) {
	m, reg := newTestMetrics(t)
	const extra = 10
	for i := range MaxOperations + extra {
		m.ObserveRequest(fmt.Sprintf("Op%d", i), CodeOK, time.Millisecond)
	}
	// A name seen before the cap keeps its own series afterwards.
	m.ObserveRequest("Op0", CodeOK, time.Millisecond)

	got := series(t, reg, "stategraph_request_duration_seconds")
	if len(got) != MaxOperations+1 {
		t.Errorf("got %d series, want %d", len(got), MaxOperations+1)
	}
	if n := got["code=OK,operation=other"]; n != extra {
		t.Errorf("other = %v, want %d", n, extra)
	}
	if n := got["code=OK,operation=Op0"]; n != 2 {
		t.Errorf("Op0 = %v, want 2", n)
	}
	if _, ok := got[fmt.Sprintf("code=OK,operation=Op%d", MaxOperations)]; ok {
		t.Errorf("Op%d has its own series past the cap", MaxOperations)
	}
}

func TestCountError(t *testing.T) {
	m, reg := newTestMetrics(t)
	for _, c := range []string{"BAD_USER_INPUT", "BAD_USER_INPUT", "INTERNAL", "made up"} {
		m.CountError(c)
	}
	got := series(t, reg, "stategraph_errors_total")
	want := map[string]float64{"code=BAD_USER_INPUT": 2, "code=INTERNAL": 1, "code=other": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("errors = %v, want %v", got, want)
	}
}

func TestSupersededKinds(t *testing.T) {
	tests := []struct{ kind, want string }{
		{"EXPLICIT_WRITE", "EXPLICIT_WRITE"},
		{"EXPLICIT", "EXPLICIT"},
		{"IMPLICIT", "IMPLICIT"},
		{"AUTHORITY", "AUTHORITY"},
		{"TEMPORAL", "TEMPORAL"},
		{"explicit", "other"},
		{"", "other"},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			m, reg := newTestMetrics(t)
			m.Superseded(tc.kind)
			got := series(t, reg, "stategraph_supersessions_total")
			if len(got) != 1 || got["kind="+tc.want] != 1 {
				t.Errorf("series = %v, want {kind=%s: 1}", got, tc.want)
			}
		})
	}
}

func TestDomainCounters(t *testing.T) {
	m, _ := newTestMetrics(t)
	for range 3 {
		m.FactWritten()
	}
	m.ConflictOpened()
	m.ConflictOpened()
	m.ConflictResolved()
	m.AssertionsExpired(4)
	m.AssertionsExpired(0)
	m.AssertionsExpired(-2)

	tests := []struct {
		name string
		c    prometheus.Collector
		want float64
	}{
		{"facts written", m.factsWritten, 3},
		{"conflicts opened", m.conflictsOpened, 2},
		{"conflicts resolved", m.conflictsResolved, 1},
		{"assertions expired", m.assertionsExpired, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := testutil.ToFloat64(tc.c); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestExposition compares the whole exposition of a fixed scenario with
// testdata/metrics.golden: names, help, types, labels and buckets.
func TestExposition(t *testing.T) {
	m, reg := newTestMetrics(t)
	m.ObserveRequest("AssembleContext", CodeOK, 12*time.Millisecond)
	m.ObserveRequest("", "UNAUTHENTICATED", 200*time.Microsecond)
	m.CountError("UNAUTHENTICATED")
	m.FactWritten()
	m.Superseded("IMPLICIT")
	m.ConflictOpened()
	m.ConflictResolved()
	m.AssertionsExpired(2)
	m.ObserveAssemble(40*time.Millisecond, 3000)
	m.ObserveAssemble(3*time.Millisecond, 16384)
	m.ObserveAssemble(time.Millisecond, 0)

	got, err := testutil.GatherAndFormat(reg, expfmt.TypeTextPlain)
	if err != nil {
		t.Fatalf("format: %v", err)
	}
	golden := filepath.Join("testdata", "metrics.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("exposition differs from %s (run with -update if intended):\n%s", golden, got)
	}
}

func TestNoTenantLabels(t *testing.T) {
	m, reg := newTestMetrics(t)
	m.ObserveRequest("Q", CodeOK, time.Millisecond)
	m.CountError("INTERNAL")
	m.Superseded("EXPLICIT")
	m.FactWritten()
	m.ObserveAssemble(time.Millisecond, 1)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if len(mfs) == 0 {
		t.Fatal("gathered no metrics")
	}
	allowed := map[string]bool{"operation": true, "code": true, "kind": true}
	for _, mf := range mfs {
		if !strings.HasPrefix(mf.GetName(), "stategraph_") {
			t.Errorf("metric %s lacks the stategraph_ prefix", mf.GetName())
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if !allowed[lp.GetName()] {
					t.Errorf("metric %s has label %q", mf.GetName(), lp.GetName())
				}
			}
		}
	}
}

func TestNewPanicsOnDoubleRegistration(t *testing.T) {
	reg := prometheus.NewRegistry()
	New(reg)
	defer func() {
		if recover() == nil {
			t.Error("second New on the same registry did not panic")
		}
	}()
	New(reg)
}

func TestRegisterRuntime(t *testing.T) {
	reg := prometheus.NewRegistry()
	RegisterRuntime(reg)
	for _, name := range []string{"go_goroutines", "process_start_time_seconds"} {
		if len(series(t, reg, name)) == 0 {
			t.Errorf("%s not gathered", name)
		}
	}
}

func FuzzOperationLabel(f *testing.F) {
	for _, s := range []string{"", "Q", "_", "1a", "a-b", strings.Repeat("x", 65), "other", "\x00", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		m := &Metrics{ops: map[string]struct{}{}}
		got := m.operation(name)
		switch {
		case name == "":
			if got != OpAnonymous {
				t.Errorf("operation(%q) = %q, want %q", name, got, OpAnonymous)
			}
		case validName(name):
			if got != name {
				t.Errorf("operation(%q) = %q, want the name", name, got)
			}
		default:
			if got != OpInvalid {
				t.Errorf("operation(%q) = %q, want %q", name, got, OpInvalid)
			}
		}
		if got != OpAnonymous && got != OpInvalid && !validName(got) {
			t.Errorf("operation(%q) = %q, not a valid label", name, got)
		}
		if validName(name) != referenceValid(name) {
			t.Errorf("validName(%q) = %v, want %v", name, validName(name), referenceValid(name))
		}
	})
}

// referenceValid is the regexp the hand-written validName implements.
func referenceValid(s string) bool { return opName.MatchString(s) }

func BenchmarkObserveRequest(b *testing.B) {
	m, _ := newTestMetrics(b)
	names := make([]string, 50)
	for i := range names {
		names[i] = fmt.Sprintf("Operation%d", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.ObserveRequest(names[i%len(names)], CodeOK, time.Millisecond)
		i++
	}
}

var opName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
