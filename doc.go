// Package stategraph is a GraphQL service that keeps the state an AI agent
// reasons from. The service lives in the packages below this one; this file
// holds the code-generation directive for the GraphQL layer.
package stategraph

//go:generate go run github.com/99designs/gqlgen generate --config gqlgen.yml
