package graph

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/httpguard"
)

// Subscriptions configure GraphQL subscriptions over a websocket on the
// GraphQL path (graphql-transport-ws, and the older graphql-ws).
type Subscriptions struct {
	// Verify checks a bearer token exactly as the HTTP endpoint does and
	// returns the identity and the token's expiry.
	Verify func(token string) (authority.Identity, time.Time, error)
	// Connect takes one of the organization's connection slots, or fails
	// (over the limit); release gives it back when the connection ends.
	Connect func(org string) (release func(), err error)
	// KeepAlive is the interval of the server's keep-alive messages;
	// 0 means DefaultKeepAlive.
	KeepAlive time.Duration
	// InitTimeout bounds the wait for connection_init; 0 means
	// DefaultInitTimeout.
	InitTimeout time.Duration
	// Shutdown, when closed, closes every connection (1001, going away):
	// an HTTP server's Shutdown does not wait for hijacked connections.
	Shutdown <-chan struct{}
}

// Defaults of Subscriptions.
const (
	DefaultKeepAlive   = 25 * time.Second
	DefaultInitTimeout = 10 * time.Second
)

// The websocket close codes of graphql-transport-ws this server uses.
const (
	// CloseUnauthorized (4401): connection_init carried no token, or the
	// token expired while the connection was open.
	CloseUnauthorized = 4401
	// CloseForbidden (4403): the token was refused.
	CloseForbidden = 4403
	// CloseTooMany (4429): the organization has as many open connections
	// as the server allows.
	CloseTooMany = 4429
	// CloseInitTimeout (4408): no connection_init within the init timeout.
	CloseInitTimeout = 4408
)

// gqlgen's transport closes a connection whose connection_init did not come
// in time with 1002 and this reason; graphql-transport-ws wants 4408.
const gqlgenInitTimeout = "connection initialisation timeout"

// TransportWebsocket is the request log's "transport" annotation of a
// websocket connection (whose duration is the connection's life, not a
// request's).
const TransportWebsocket = "websocket"

// IsUpgrade reports whether r asks to switch to a websocket: such a
// request authenticates in its connection_init message, not with a
// header, and lives longer than any request deadline.
func IsUpgrade(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// wsKey carries a websocket connection's state in its context.
type wsKey struct{}

// wsConn is what the server knows of one websocket connection beyond
// gqlgen's transport: the close code owed to the client, and what must be
// undone when the connection ends.
type wsConn struct {
	mu      sync.Mutex
	code    int
	reason  string
	release func()
	timer   *time.Timer
}

// closeWith records the close code (and reason) the connection's close
// frame must carry: gqlgen's transport closes every connection with 1000,
// graphql-transport-ws wants 4401/4403 when authentication fails.
func (c *wsConn) closeWith(code int, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.code == 0 {
		c.code, c.reason = code, reason
	}
}

func (c *wsConn) owed() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.code, c.reason
}

// end releases what the connection held.
func (c *wsConn) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.release != nil {
		c.release()
		c.release = nil
	}
}

func wsFrom(ctx context.Context) *wsConn {
	c, _ := ctx.Value(wsKey{}).(*wsConn)
	return c
}

// websocketTransport returns gqlgen's websocket transport, authenticating
// in connection_init with s.Verify.
func websocketTransport(s Subscriptions) transport.Websocket {
	if s.KeepAlive <= 0 {
		s.KeepAlive = DefaultKeepAlive
	}
	if s.InitTimeout <= 0 {
		s.InitTimeout = DefaultInitTimeout
	}
	return transport.Websocket{
		Upgrader: websocket.Upgrader{
			CheckOrigin:       sameOrigin,
			HandshakeTimeout:  s.InitTimeout,
			EnableCompression: false,
		},
		InitFunc:              initFunc(s),
		InitTimeout:           s.InitTimeout,
		KeepAlivePingInterval: s.KeepAlive, // graphql-ws keep-alive messages
		PingPongInterval:      s.KeepAlive, // graphql-transport-ws ping, answered by pong
		// A client that does not answer pings is not cut off for it: the
		// token's expiry and TCP end dead connections.
		MissingPongOk: true,
	}
}

// sameOrigin is the origin policy of websocket upgrades: a request with no
// Origin header (a non-browser client) or whose Origin's host is the
// request's own host (a page this server served, like the explorer) is
// accepted; any other browser origin is refused with 403. The token
// travels in connection_init, not in a cookie, so a foreign page could not
// ride on a user's credentials anyway; refusing foreign origins still keeps
// other sites from using a visitor's browser (and network position) to
// reach the server.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// initFunc authenticates a connection from its connection_init payload
// ({"Authorization": "Bearer <JWT>"}; "authorization" and "token", bare or
// with the scheme, are accepted too) with the HTTP endpoint's verifier,
// puts the identity in the connection's context as the HTTP middleware
// does, takes a connection slot of the organization, and ends the
// connection (4401) when the token expires.
func initFunc(s Subscriptions) transport.WebsocketInitFunc {
	return func(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		c := wsFrom(ctx)
		if c == nil {
			return nil, nil, errors.New("websocket connection without its state")
		}
		raw := p.Authorization()
		if raw == "" {
			raw = p.GetString("token")
		}
		if f := strings.Fields(raw); len(f) > 0 && strings.EqualFold(f[0], "Bearer") {
			raw = strings.Join(f[1:], " ")
		}
		raw = strings.TrimSpace(raw)
		if raw == "" {
			c.closeWith(CloseUnauthorized, "Unauthorized: send the token in connection_init as {\"Authorization\": \"Bearer <JWT>\"}")
			return nil, nil, errors.New("missing bearer token")
		}
		id, exp, err := s.Verify(raw)
		if err != nil {
			c.closeWith(CloseForbidden, "Forbidden: invalid or expired token")
			return nil, nil, errors.New("invalid or expired token")
		}
		if s.Connect != nil {
			release, err := s.Connect(id.Org)
			if err != nil {
				c.closeWith(CloseTooMany, "Too many connections: your organization has as many open subscription connections as this server allows")
				return nil, nil, errors.New("too many connections")
			}
			c.mu.Lock()
			c.release = release
			c.mu.Unlock()
		}
		ctx, cancel := context.WithCancel(authority.NewContext(ctx, id))
		c.mu.Lock()
		c.timer = time.AfterFunc(time.Until(exp), func() {
			c.closeWith(CloseUnauthorized, "Unauthorized: the token expired; reconnect with a fresh one")
			cancel()
		})
		c.mu.Unlock()
		if s.Shutdown != nil {
			go func() {
				select {
				case <-s.Shutdown:
					c.closeWith(websocket.CloseGoingAway, "the server is shutting down; reconnect in a moment")
					cancel()
				case <-ctx.Done():
				}
			}()
		}
		return ctx, nil, nil
	}
}

// serveWebsocket serves a websocket upgrade: it refuses a foreign origin
// (sameOrigin), gives the connection its state, lets gqlgen's transport run it (until it closes), then releases
// what it held.
func serveWebsocket(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !sameOrigin(r) {
			httpguard.WriteError(w, r, http.StatusForbidden, string(fault.Forbidden),
				"websocket upgrades are accepted from this server's own pages and from non-browser clients only")
			return
		}
		httpguard.Annotate(r.Context(), slog.String("transport", TransportWebsocket))
		c := &wsConn{}
		ctx, cancel := context.WithCancel(context.WithValue(r.Context(), wsKey{}, c))
		defer cancel()
		defer c.end()
		next.ServeHTTP(hijacker{w, c}, r.WithContext(ctx))
	})
}

// hijacker hands the websocket upgrader a connection whose close frame
// carries the code the connection owes (see wsConn.closeWith).
type hijacker struct {
	http.ResponseWriter
	c *wsConn
}

// Hijack implements http.Hijacker through any writer wrapping (the
// request log's).
func (h hijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, rw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	// The HTTP server's read and write timeouts stay set on a hijacked
	// connection; a websocket lives until its token expires.
	if err := conn.SetDeadline(time.Time{}); err != nil {
		return nil, nil, errors.Join(err, conn.Close())
	}
	return &closingConn{Conn: conn, c: h.c}, rw, nil
}

// closingConn rewrites the connection's close frame when a close code is
// owed. The server's frames are unmasked and gorilla/websocket writes a
// control frame in one Write, so a close frame is a Write starting with
// 0x88 (FIN, opcode 8); a data frame's payload is JSON and never does.
type closingConn struct {
	net.Conn
	c    *wsConn
	once sync.Once
}

func (cc *closingConn) Write(b []byte) (int, error) {
	if len(b) > 0 && b[0] == 0x88 {
		if isCloseFrame(b, websocket.CloseProtocolError, gqlgenInitTimeout) {
			cc.c.closeWith(CloseInitTimeout, "Connection initialisation timeout: send connection_init with the token first")
		}
		if code, reason := cc.c.owed(); code != 0 {
			rewritten := false
			cc.once.Do(func() { rewritten = true })
			if rewritten {
				if _, err := cc.Conn.Write(closeFrame(code, reason)); err != nil {
					return 0, err
				}
				return len(b), nil
			}
		}
	}
	return cc.Conn.Write(b)
}

// isCloseFrame reports whether b is exactly an unmasked close frame with
// code and reason.
func isCloseFrame(b []byte, code int, reason string) bool {
	return len(b) == 4+len(reason) && b[0] == 0x88 && int(b[1]) == 2+len(reason) &&
		int(binary.BigEndian.Uint16(b[2:4])) == code && string(b[4:]) == reason
}

// closeFrame is an unmasked websocket close frame with code and reason
// (cut to fit a control frame's 125 bytes).
func closeFrame(code int, reason string) []byte {
	if len(reason) > 123 {
		reason = reason[:123]
	}
	f := make([]byte, 4, 4+len(reason))
	f[0], f[1] = 0x88, byte(2+len(reason))
	binary.BigEndian.PutUint16(f[2:], uint16(code))
	return append(f, reason...)
}

// guardOperations keeps each transport to its operations: subscriptions
// only over a websocket, queries and mutations only over HTTP (where the
// request deadline, the rate limit and the body limit apply).
func guardOperations(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	ws := wsFrom(ctx) != nil
	sub := oc.Operation != nil && oc.Operation.Operation == ast.Subscription
	var msg string
	switch {
	case sub && !ws:
		msg = "subscriptions run over a websocket on this path (graphql-transport-ws), not over HTTP"
	case !sub && ws:
		msg = "send queries and mutations over HTTP POST or GET; the websocket serves subscriptions only"
	default:
		return next(ctx)
	}
	return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{{
		Message: msg, Extensions: map[string]any{"code": string(fault.BadInput)},
	}}})
}
