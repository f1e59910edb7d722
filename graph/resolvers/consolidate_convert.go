package resolvers

import (
	"github.com/stategraph/stategraph/consolidate"
	"github.com/stategraph/stategraph/graph/model"
)

// consolidationRun maps a run to its GraphQL type.
func consolidationRun(r consolidate.Run) *model.ConsolidationRun {
	out := &model.ConsolidationRun{
		ID: r.ID, Capability: r.Capability, At: r.At, Actor: r.Actor,
		Mode: model.ConsolidationMode(r.Mode), Level: r.Level, Scheduled: r.Scheduled, Reused: r.Reused,
		Threshold: r.Params.Threshold, MinClusterSize: r.Params.MinClusterSize,
		StaleAfterSeconds: int(r.Params.StaleAfter.Seconds()),
		Inputs:            nonNil(r.Inputs),
		Clusters:          make([]*model.ConsolidationCluster, len(r.Clusters)),
		Pruned:            make([]*model.ConsolidationPrune, len(r.Pruned)),
	}
	if r.AgentLevel != "" {
		l := string(r.AgentLevel)
		out.AgentLevel = &l
	}
	for i, c := range r.Clusters {
		out.Clusters[i] = &model.ConsolidationCluster{
			Members: nonNil(c.Members), SharedTerms: nonNil(c.SharedTerms), Representative: c.Representative,
			Key: c.Key, Text: c.Text, FactID: c.FactID, Status: model.CandidateStatus(c.Status),
		}
	}
	for i, p := range r.Pruned {
		out.Pruned[i] = &model.ConsolidationPrune{FactID: p.FactID, Reason: model.PruneReason(p.Reason), Applied: p.Applied}
	}
	return out
}
