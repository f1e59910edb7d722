// Package fault classifies errors by what the caller can do about them.
//
// Domain packages return a *fault.Error (or wrap one) when an error is the
// caller's to fix: bad input, a missing record, a conflict, a forbidden act.
// The GraphQL error presenter maps the Kind to extensions.code in exactly one
// place; every other error is reported as INTERNAL and its text goes only to
// the log.
package fault

import (
	"errors"
	"fmt"
)

// Kind is the class of a user-facing error. Its string is the GraphQL
// extensions.code.
type Kind string

// The kinds, named as the GraphQL extensions.code they become.
const (
	Unauthenticated Kind = "UNAUTHENTICATED"
	Forbidden       Kind = "FORBIDDEN"
	BadInput        Kind = "BAD_USER_INPUT"
	NotFound        Kind = "NOT_FOUND"
	Conflict        Kind = "CONFLICT"
	Internal        Kind = "INTERNAL"
	// Unavailable: a dependency the service needs (the storage cluster)
	// cannot be reached; nothing was changed and the request may be
	// retried as it is.
	Unavailable Kind = "UNAVAILABLE"
)

// Error is a user-facing error. Msg is shown to the caller as is, so it must
// never contain storage keys, other organizations' ids or internal detail.
type Error struct {
	Kind Kind
	Msg  string
	// Field names the input field at fault, when there is one.
	Field string
	// Err is an optional cause kept for errors.Is/As and logs; it is never
	// shown to the caller.
	Err error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is a *Error of the same Kind, so that
// errors.Is(err, fault.ErrConflict) branches on the kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Msg == "" && t.Kind == e.Kind
}

// Sentinels for errors.Is on the kind alone.
var (
	ErrBadInput  = &Error{Kind: BadInput}
	ErrNotFound  = &Error{Kind: NotFound}
	ErrConflict  = &Error{Kind: Conflict}
	ErrForbidden = &Error{Kind: Forbidden}
)

// New returns an Error of kind k with a formatted message.
func New(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// BadInputf is New(BadInput, ...) naming the offending field.
func BadInputf(field, format string, args ...any) *Error {
	return &Error{Kind: BadInput, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// KindOf returns the Kind of the first *Error in err's chain, or Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}
