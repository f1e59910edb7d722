package server

import (
	"net/http"
	"sort"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/httpguard"
)

// operator reports whether r carries a valid token of the operator
// organization (Options.OperatorOrg) of kind service. Operational
// endpoints show their detail (paths in /readyz, operation names in
// /metrics) to operators only; a missing or invalid token is not an error
// there, just not an operator's.
func (s *Server) operator(r *http.Request) bool {
	if s.opts.OperatorOrg == "" {
		return false
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	id, err := s.verifier.Verify(strings.TrimSpace(token))
	return err == nil && id.Kind == authority.KindService && id.Org == s.opts.OperatorOrg
}

// serveMetrics serves every metric to operators, and to anyone else the
// same metrics with the request histogram summed over operation names,
// which callers choose (an operation name can say what an organization is
// working on).
func (s *Server) serveMetrics(full, public http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.operator(r) {
			full.ServeHTTP(w, r)
			return
		}
		public.ServeHTTP(w, r)
	})
}

// requestHistogram is the metric whose operation label is summed away.
const requestHistogram = "stategraph_request_duration_seconds"

// publicGatherer gathers g with the operation label of requestHistogram
// summed away.
type publicGatherer struct{ g prometheus.Gatherer }

func (p publicGatherer) Gather() ([]*dto.MetricFamily, error) {
	mfs, err := p.g.Gather()
	for _, mf := range mfs {
		if mf.GetName() == requestHistogram && mf.GetType() == dto.MetricType_HISTOGRAM {
			mf.Metric = sumOverOperation(mf.Metric)
		}
	}
	return mfs, err
}

// sumOverOperation merges the histograms of ms that differ only by their
// operation label.
func sumOverOperation(ms []*dto.Metric) []*dto.Metric {
	byRest := map[string]*dto.Metric{}
	var keys []string
	for _, m := range ms {
		var labels []*dto.LabelPair
		var key strings.Builder
		for _, l := range m.GetLabel() {
			if l.GetName() == "operation" {
				continue
			}
			labels = append(labels, l)
			key.WriteString(l.GetName() + "=" + l.GetValue() + "\x00")
		}
		h := m.GetHistogram()
		if h == nil {
			continue
		}
		sum, ok := byRest[key.String()]
		if !ok {
			sum = &dto.Metric{Label: labels, Histogram: proto.Clone(h).(*dto.Histogram)}
			byRest[key.String()] = sum
			keys = append(keys, key.String())
			continue
		}
		sh := sum.Histogram
		sh.SampleCount = proto.Uint64(sh.GetSampleCount() + h.GetSampleCount())
		sh.SampleSum = proto.Float64(sh.GetSampleSum() + h.GetSampleSum())
		for i, b := range h.GetBucket() {
			if i < len(sh.Bucket) {
				sh.Bucket[i].CumulativeCount = proto.Uint64(sh.Bucket[i].GetCumulativeCount() + b.GetCumulativeCount())
			}
		}
	}
	sort.Strings(keys)
	out := make([]*dto.Metric, 0, len(keys))
	for _, k := range keys {
		out = append(out, byRest[k])
	}
	return out
}

// notFound answers any path under /graphql/ in the GraphQL error shape.
func notFound(w http.ResponseWriter, r *http.Request) {
	httpguard.WriteError(w, r, http.StatusNotFound, "NOT_FOUND", "no such endpoint: GraphQL is served at /graphql")
}
