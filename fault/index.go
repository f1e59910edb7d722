package fault

import "errors"

// ItemError is the error of one item of a batch: Err (usually a *Error,
// whose kind and message it keeps) about the item at Index, counted from 0.
// The GraphQL error presenter adds the index to extensions.index.
type ItemError struct {
	Index int
	Err   error
}

func (e *ItemError) Error() string { return e.Err.Error() }

// Unwrap returns the item's error.
func (e *ItemError) Unwrap() error { return e.Err }

// AtIndex returns err as the error of item i of a batch; nil stays nil.
func AtIndex(i int, err error) error {
	if err == nil {
		return nil
	}
	return &ItemError{Index: i, Err: err}
}

// IndexOf returns the batch index err names, if any.
func IndexOf(err error) (int, bool) {
	var ie *ItemError
	if errors.As(err, &ie) {
		return ie.Index, true
	}
	return 0, false
}
