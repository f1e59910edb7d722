// Package assemble builds the token-budgeted context prompt of
// assembleContext from candidate records, as a pure function. Candidates
// come scored: words are package lexical's, BM25 is package search's.
//
// Build never touches storage: the caller gathers what is current, in
// scope and visible, scores it, and passes it in an Input. Build ranks,
// labels and packs it into Output.Text, whose exact token count never
// exceeds the budget, and reports the provenance of every record.
//
// The text is compact markdown, one line per record, in this order:
//
//	## Identity                      layer 1, always first
//	## Environment                   layer 4
//	## Constraints (must hold)       layer 2
//	## Facts                         layer 2
//	## Needs recalculation (...)     layer 2, keys only: their values are stale
//	## Documents                     layer 2, chunks with their provenance
//	## Current state                 state assertions with their lease
//	## Working set                   layer 3
//	## Recent conversation           layer 3, oldest first
//
// The budget is spent in priority order: identity, environment,
// constraints, then documents within the document share, needs-review
// keys and facts within the fact share,
// then assertions, working set and turns with the rest, and finally any
// fact that did not fit in its share, if budget is still left over.
package assemble
