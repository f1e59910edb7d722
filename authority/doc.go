// Package authority verifies JWTs into identities, carries the verified
// identity in a request context, and ranks authorities.
//
// An Identity can only be marked verified by a Verifier; tenancy refuses to
// build a partition from one that is not, so the organization and user of
// every store access come from a checked token and nothing else.
package authority
