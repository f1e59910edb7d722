// Package graph holds the GraphQL schema, the gqlgen output in generated/
// and the resolvers, and builds the HTTP handler that serves them. The
// generated code is rebuilt by 'make generate' (go generate in the module
// root).
package graph
