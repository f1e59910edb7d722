// Package sweep holds the isolation sweep, a test that calls every root
// field of the GraphQL schema as one tenant with another tenant's ids, keys
// and subjects, and fails on any leak or change. See sweep_test.go for how
// to add a case when the schema gains a field.
package sweep
