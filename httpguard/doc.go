// Package httpguard provides the HTTP middlewares and guards that sit in
// front of the GraphQL handler: request ids with one access-log line per
// request and panic recovery, a request body limit, per-organization rate
// limits, a free-disk guard, and the health and readiness endpoints.
//
// Every rejection is answered with a GraphQL-shaped JSON error (see
// WriteError), so clients parse one error format whatever layer refused them.
//
// A typical chain, outermost first:
//
//	RequestLog(logger, observe) → MaxBytes(n) → authentication → limiter.Middleware(orgOf) → GraphQL
package httpguard
