// Package telemetry defines stategraph's Prometheus metrics: request and
// error counts by GraphQL operation and code, domain counters, context
// assembly latency and size, and collectors for the Go runtime, the process
// and Badger.
//
// No label ever carries an organization or user id. Every label value comes
// from a fixed set or is capped (operation names), so the number of series is
// bounded whatever clients send.
package telemetry
