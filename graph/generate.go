// Package graph holds the GraphQL schema, the gqlgen configuration output
// in generated/ and the resolvers, and builds the HTTP handler that serves
// them.
package graph

//go:generate go run github.com/99designs/gqlgen generate --config ../gqlgen.yml
