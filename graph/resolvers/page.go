package resolvers

import (
	"github.com/stategraph/stategraph/graph/model"
	"github.com/stategraph/stategraph/store"
)

// pageArgs gathers a connection field's Relay arguments.
func pageArgs(first *int, after *string, last *int, before *string) store.PageArgs {
	return store.PageArgs{First: first, After: deref(after), Last: last, Before: deref(before)}
}

// pageInfo is the PageInfo of a page whose edges have cursors.
func pageInfo(cursors []string, hasPrevious, hasNext bool) *model.PageInfo {
	pi := &model.PageInfo{HasPreviousPage: hasPrevious, HasNextPage: hasNext}
	if n := len(cursors); n > 0 {
		pi.StartCursor, pi.EndCursor = &cursors[0], &cursors[n-1]
	}
	return pi
}
