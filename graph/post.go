package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/stategraph/stategraph/graph/assembled"
)

// postTransport is gqlgen's transport.POST (same requests, headers,
// statuses and errors), but for how it writes a response: gqlgen encodes
// the response with encoding/json, which runs the response's data, already
// JSON, through its scanner to compact and validate it again; for an
// assembled context (tens of kilobytes) that was about a tenth of a
// request's CPU. writeResponse writes the same bytes from one pass over
// the data, copying the parts package assembled wrote in final form
// without reading them.
type postTransport struct{ transport.POST }

var _ graphql.Transport = postTransport{}

// Media types of a response, as gqlgen's POST chooses them.
const (
	mediaJSON                = "application/json"
	mediaGraphQLResponseJSON = "application/graphql-response+json"
)

// Do implements graphql.Transport as transport.POST.Do does.
func (postTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	contentType := responseContentType(r)
	w.Header().Add("Content-Type", contentType)
	start := graphql.Now()
	readTime := graphql.TraceTiming{Start: start, End: graphql.Now()}
	params, decoded := decodedParams(ctx) // guardTransport's, when it decoded the body
	if decoded {
		if params = withHeaders(params, r); params != nil {
			params.ReadTime = readTime
		}
	} else {
		params = &graphql.RawParams{Headers: r.Header, ReadTime: readTime}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeResponse(w, 0, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("could not read request body: %+v", err)}))
			return
		}
		if err := decodeJSON(body, &params); err != nil {
			writeResponse(w, http.StatusBadRequest, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("json request body could not be decoded: %+v body:%s", err, body)}))
			return
		}
	}
	rc, opErr := exec.CreateOperationContext(ctx, params)
	if opErr != nil {
		status := http.StatusOK
		if errcode.GetErrorKind(opErr) == errcode.KindProtocol {
			status = http.StatusUnprocessableEntity
			if contentType == mediaGraphQLResponseJSON {
				status = http.StatusBadRequest
			}
		}
		writeResponse(w, status, exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr))
		return
	}
	// The response's data may be written in pooled buffers
	// (assembled.WithResponseBuffers): writeResponse copies it out, and
	// nothing refers to it after, so they are handed back then. The parts
	// of it written in final form there (an assembled context's text and
	// lists) it copies as they are (assembled.ResponseBuffers.Verbatim).
	ctx, rb := assembled.WithResponseBuffers(ctx)
	responses, ctx := exec.DispatchOperation(ctx, rc)
	resp := responses(ctx)
	var spans []assembled.Span
	if resp != nil {
		spans = rb.Verbatim(make([]assembled.Span, 0, 8), resp.Data)
	}
	writeResponse(w, 0, resp, spans...)
	rb.Release()
}

// responseContentType is the media type of the response to r, as gqlgen's
// POST (with no explicit headers, application/json by default) chooses
// it from the Accept header.
func responseContentType(r *http.Request) string {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return mediaJSON
	}
	for part := range strings.SplitSeq(accept, ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mt {
		case "*/*", "application/*", mediaJSON:
			return mediaJSON
		case mediaGraphQLResponseJSON:
			return mediaGraphQLResponseJSON
		}
	}
	return mediaGraphQLResponseJSON
}

// responseBufs holds the buffers responses are encoded in.
var responseBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledResponse bounds the buffers kept in responseBufs.
const maxPooledResponse = 1 << 20

// writeResponse writes resp as gqlgen's transports write it:
// json.Marshal(resp), and a panic when that fails. A response that is not
// a plain one (deferred parts), or whose data the one-pass encoder does
// not take, is written by json.Marshal itself.
//
// When w is an http.ResponseWriter, the response is written in one piece
// with its Content-Length, and status (0: 200) as its status: without a
// length, a response over net/http's small buffer goes out chunked, and a
// client that stops reading at the end of the JSON value (a json.Decoder
// does) leaves the last chunk unread, so its transport closes the
// connection instead of reusing it, and the next request dials again.
//
// verbatim are spans of resp.Data that hold a value already as it is to
// be written (appendCompactJSON).
func writeResponse(w io.Writer, status int, resp *graphql.Response, verbatim ...assembled.Span) {
	bp := responseBufs.Get().(*[]byte)
	b, ok := appendResponse((*bp)[:0], resp, verbatim)
	if ok {
		write(w, status, b)
		if cap(b) <= maxPooledResponse {
			*bp = b
		}
		responseBufs.Put(bp)
		return
	}
	responseBufs.Put(bp)
	b, err := json.Marshal(resp)
	if err != nil {
		panic(fmt.Errorf("unable to marshal %s: %w", string(resp.Data), err))
	}
	write(w, status, b)
}

// write writes b to w; to an http.ResponseWriter with its Content-Length
// and status (0: 200).
func write(w io.Writer, status int, b []byte) {
	if rw, ok := w.(http.ResponseWriter); ok {
		rw.Header().Set("Content-Length", strconv.Itoa(len(b)))
		if status != 0 {
			rw.WriteHeader(status)
		}
	}
	_, _ = w.Write(b)
}

// appendResponse appends json.Marshal(resp) to b: its errors and
// extensions encoded by encoding/json, its data compacted and escaped by
// appendCompactJSON (verbatim its spans written as they are). It reports
// false, for json.Marshal to write it, when resp is nil or has deferred
// parts (a label, a path, hasNext), or when appendCompactJSON does not
// take its data.
func appendResponse(b []byte, resp *graphql.Response, verbatim []assembled.Span) ([]byte, bool) {
	if resp == nil || resp.Label != "" || resp.Path != nil || resp.HasNext != nil {
		return b, false
	}
	b = append(b, '{')
	if len(resp.Errors) > 0 {
		e, err := json.Marshal(resp.Errors)
		if err != nil {
			return b, false
		}
		b = append(append(append(b, `"errors":`...), e...), ',')
	}
	b = append(b, `"data":`...)
	if resp.Data == nil {
		b = append(b, "null"...)
	} else {
		var ok bool
		if b, ok = appendCompactJSON(b, resp.Data, verbatim); !ok {
			return b, false
		}
	}
	if len(resp.Extensions) > 0 {
		e, err := json.Marshal(resp.Extensions)
		if err != nil {
			return b, false
		}
		b = append(append(b, `,"extensions":`...), e...)
	}
	return append(b, '}'), true
}

// appendCompactJSON appends src to dst as encoding/json writes a
// json.RawMessage: without insignificant whitespace, with '<', '>', '&',
// U+2028 and U+2029 escaped. It takes only a valid JSON document
// (RFC 8259, as encoding/json's scanner reads it, strings not checked for
// UTF-8) nested at most maxNesting deep, and reports false for anything
// else. FuzzAppendCompactJSON checks it against encoding/json.
//
// verbatim are spans of src, in order, each holding one value already as
// appendCompactJSON writes it (assembled.Span: the assembled context's
// text and lists, written so by package assembled): a value that starts
// where one of them starts is copied as it is, not read again. The
// caller vouches for them (package assembled's are checked against the
// compaction by its TestVerbatimSpans and FuzzAppendStringFinal, and end
// to end by contextasm's TestPostMatchesGet); a span that no value starts
// at is passed over.
func appendCompactJSON(dst, src []byte, verbatim []assembled.Span) ([]byte, bool) {
	c := compactor{src: src, dst: dst, verbatim: verbatim}
	if !c.value(0) {
		return dst, false
	}
	c.space()
	if c.i != len(src) {
		return dst, false
	}
	return c.dst, true
}

// maxNesting is encoding/json's bound on nesting.
const maxNesting = 10000

// compactor reads src from i, appending what it keeps to dst.
type compactor struct {
	src      []byte
	i        int
	dst      []byte
	verbatim []assembled.Span // not yet reached
}

// space skips whitespace.
func (c *compactor) space() {
	for c.i < len(c.src) {
		switch c.src[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// value reads one value at nesting depth.
func (c *compactor) value(depth int) bool {
	c.space()
	if c.i >= len(c.src) {
		return false
	}
	for len(c.verbatim) > 0 && c.verbatim[0].Start <= c.i {
		if s := c.verbatim[0]; s.Start == c.i {
			c.dst = append(c.dst, c.src[s.Start:s.End]...)
			c.i, c.verbatim = s.End, c.verbatim[1:]
			return true
		}
		c.verbatim = c.verbatim[1:] // passed over
	}
	switch ch := c.src[c.i]; {
	case ch == '{':
		return c.object(depth + 1)
	case ch == '[':
		return c.array(depth + 1)
	case ch == '"':
		return c.string()
	case ch == '-' || ch >= '0' && ch <= '9':
		return c.number()
	case ch == 't':
		return c.literal("true")
	case ch == 'f':
		return c.literal("false")
	case ch == 'n':
		return c.literal("null")
	}
	return false
}

func (c *compactor) literal(word string) bool {
	if !bytes.HasPrefix(c.src[c.i:], []byte(word)) {
		return false
	}
	c.dst = append(c.dst, word...)
	c.i += len(word)
	return true
}

func (c *compactor) object(depth int) bool {
	return c.container(depth, '{', '}', func() bool {
		c.space()
		if c.i >= len(c.src) || c.src[c.i] != '"' || !c.string() {
			return false
		}
		c.space()
		if c.i >= len(c.src) || c.src[c.i] != ':' {
			return false
		}
		c.dst = append(c.dst, ':')
		c.i++
		return c.value(depth)
	})
}

func (c *compactor) array(depth int) bool {
	return c.container(depth, '[', ']', func() bool { return c.value(depth) })
}

// container compacts an object or an array: open, then members (each
// read by member) separated by commas, then close.
func (c *compactor) container(depth int, open, close byte, member func() bool) bool {
	if depth > maxNesting {
		return false
	}
	c.dst = append(c.dst, open)
	c.i++
	c.space()
	if c.i < len(c.src) && c.src[c.i] == close {
		c.dst = append(c.dst, close)
		c.i++
		return true
	}
	for {
		if !member() {
			return false
		}
		c.space()
		if c.i >= len(c.src) {
			return false
		}
		switch c.src[c.i] {
		case ',':
			c.dst = append(c.dst, ',')
			c.i++
		case close:
			c.dst = append(c.dst, close)
			c.i++
			return true
		default:
			return false
		}
	}
}

// plain marks the bytes a string copies as they are.
var plain = func() (t [256]bool) {
	for i := 0x20; i < 256; i++ {
		t[i] = true
	}
	for _, b := range []byte{'"', '\\', '<', '>', '&', 0xE2} {
		t[b] = false
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// string reads a string, escaping as encoding/json does.
func (c *compactor) string() bool {
	src := c.src
	c.dst = append(c.dst, '"')
	i := c.i + 1
	start := i
	for i < len(src) {
		ch := src[i]
		if plain[ch] {
			i++
			continue
		}
		switch {
		case ch == '"':
			c.dst = append(c.dst, src[start:i+1]...)
			c.i = i + 1
			return true
		case ch < 0x20:
			return false
		case ch == '\\':
			if i+1 >= len(src) {
				return false
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(src) || !isHex(src[i+2]) || !isHex(src[i+3]) || !isHex(src[i+4]) || !isHex(src[i+5]) {
					return false
				}
				i += 6
			default:
				return false
			}
		case ch == '<' || ch == '>' || ch == '&':
			c.dst = append(c.dst, src[start:i]...)
			c.dst = append(c.dst, '\\', 'u', '0', '0', hexDigits[ch>>4], hexDigits[ch&0xF])
			i++
			start = i
		case ch == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8:
			c.dst = append(c.dst, src[start:i]...)
			c.dst = append(c.dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
			i += 3
			start = i
		default: // 0xE2 opening another character
			i++
		}
	}
	return false
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

// number reads a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *compactor) number() bool {
	src, i := c.src, c.i
	digits := func() bool {
		n := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		return i > n
	}
	if src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(src) && src[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	c.dst = append(c.dst, src[c.i:i]...)
	c.i = i
	return true
}
