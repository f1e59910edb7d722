// Package assembled is assembleContext's result as the GraphQL layer binds
// it (gqlgen.yml: AssembledContext): an assemble.Output whose sections
// and provenance lists marshal themselves in one pass.
//
// gqlgen marshals a list of objects with a goroutine per element, and each
// field of an element through its resolver machinery (a field context, the
// field middlewares, a boxed value): for the hundreds of records of an
// assembly's included and excluded lists, that was about a sixth of a
// request's CPU and most of its allocations (and the sections, a few
// per assembly, still cost about 40 allocations each). Sections, Included
// and Excluded are bound to the same schema types, [ContextSection!]!,
// [IncludedRecord!]! and [ExcludedRecord!]!, and write exactly the bytes
// gqlgen's generated code wrote: the fields the selection set asks for
// (gqlgen's CollectFields: aliases, fragments, @skip and @include), in its
// order, each value written as gqlgen's marshaller of its scalar writes
// it. Their fields are plain values that cannot fail, but for a score that
// is not a finite number, which is written as null with the error gqlgen
// reports for it, on the same path. Under the POST transport's response
// buffers (WithResponseBuffers) the text and the lists are written in the
// form that transport sends (their strings escaped as encoding/json
// escapes a json.RawMessage's), which it copies without reading them
// again: the response's bytes are the same.
package assembled

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"

	"github.com/stategraph/stategraph/assemble"
)

// Context is the AssembledContext object: the Output's fields (promoted),
// with the text bound to Text, the sections to Sections and the
// provenance lists to Included and Excluded.
type Context struct {
	assemble.Output
	Text     Text
	Sections Sections
	Included Included
	Excluded Excluded
}

// New returns out as the GraphQL layer binds it, with empty lists instead
// of nil ones (the schema declares them non-null). The lists are out's,
// not copies.
func New(out assemble.Output) *Context {
	c := &Context{Output: out, Sections: out.Sections, Included: out.Included, Excluded: out.Excluded}
	c.Text = Text{c: c}
	c.Output.Sections, c.Output.Included, c.Output.Excluded = nil, nil, nil // one place for each
	if c.Sections == nil {
		c.Sections = Sections{}
	}
	if c.Included == nil {
		c.Included = Included{}
	}
	if c.Excluded == nil {
		c.Excluded = Excluded{}
	}
	if c.Notes == nil {
		c.Notes = []string{}
	}
	return c
}

// NewFor is New for the response written under ctx: when ctx is from
// WithResponseBuffers, the context's exclusion list is handed back to
// assemble (assemble.ReleaseExcluded) when the buffers are released, for a
// later assembly to make its list in; the response refers to it no longer
// then. Nothing else may keep out.Excluded.
func NewFor(ctx context.Context, out assemble.Output) *Context {
	c := New(out)
	if rb, ok := ctx.Value(responseBuffersKey{}).(*ResponseBuffers); ok && rb != nil && cap(c.Excluded) > 0 {
		rb.mu.Lock()
		rb.excluded = append(rb.excluded, c.Excluded)
		rb.mu.Unlock()
	}
	return c
}

// Text is the context's text, String!, written as gqlgen's
// graphql.MarshalString writes it. Before it, it has the response's
// buffer (gqlgen's, a bytes.Buffer that otherwise grows by doubling as
// the response is written: about 240 KB allocated for a 68 KB response)
// make room for what the rest of the context's selection will write
// (reserve); that changes no byte written. Under a context from
// WithResponseBuffers, that room is a pooled buffer (see there).
type Text struct{ c *Context }

// String returns the text.
func (t Text) String() string { return t.c.Output.Text }

// MarshalGQLContext implements graphql.ContextMarshaler.
func (t Text) MarshalGQLContext(ctx context.Context, w io.Writer) error {
	rb, buf := responseBuffer(ctx, w)
	if g, ok := w.(interface{ Grow(int) }); ok {
		n := t.c.remaining(ctx)
		if buf != nil {
			rb.reserve(buf, n)
		}
		g.Grow(n)
	}
	if buf == nil {
		_, err := w.Write(appendString(availableBuffer(w), t.c.Output.Text))
		return err
	}
	start := buf.Len()
	buf.Write(appendStringFinal(buf.AvailableBuffer(), t.c.Output.Text))
	rb.verbatim(buf, start)
	return nil
}

// responseBuffer returns the ResponseBuffers of ctx and w as the
// bytes.Buffer gqlgen writes a response in, when ctx is from
// WithResponseBuffers and w is one; else nil, nil.
func responseBuffer(ctx context.Context, w io.Writer) (*ResponseBuffers, *bytes.Buffer) {
	rb, ok := ctx.Value(responseBuffersKey{}).(*ResponseBuffers)
	if !ok || rb == nil {
		return nil, nil
	}
	buf, ok := w.(*bytes.Buffer)
	if !ok {
		return nil, nil
	}
	return rb, buf
}

// ResponseBuffers lends pooled buffers to the responses written under a
// context from WithResponseBuffers. An assembled context's response is
// tens of kilobytes (about 40 KB in the benchmark, an eighth of what a
// call allocates): gqlgen writes it in a bytes.Buffer of its own, made for
// each response, which the transport copies out and drops. Under such a
// context, Text moves what the buffer holds into a pooled one with room
// for the rest before it writes the text; Release hands the pooled
// buffers back, and the exclusion lists of the contexts made with NewFor.
// The response's bytes are the same.
//
// Under such a context the text and the lists are written in the form
// the POST transport writes a response in (appendStringFinal), and their
// places in the buffer are remembered: Verbatim returns them, for the
// transport to copy them as they are instead of reading them again.
type ResponseBuffers struct {
	mu       sync.Mutex
	lent     []*[]byte
	excluded [][]assemble.Exclusion
	spans    []span
}

// span is a value written from start to the end of buf's content then
// (end), in final form.
type span struct {
	buf        *bytes.Buffer
	start, end int
}

// Span is a part of a response's data, from Start to End (offsets in the
// data), that holds one JSON value as the POST transport writes it: no
// whitespace, and every string escaped as encoding/json escapes a
// json.RawMessage's (appendStringFinal).
type Span struct{ Start, End int }

// verbatim remembers that buf holds a value in final form from start to
// its end.
func (rb *ResponseBuffers) verbatim(buf *bytes.Buffer, start int) {
	rb.mu.Lock()
	rb.spans = append(rb.spans, span{buf, start, buf.Len()})
	rb.mu.Unlock()
}

// Verbatim returns the values written in final form under rb's context
// that data holds, in order: the spans written in the buffer whose
// content data is (the same bytes in memory, all of them: gqlgen's
// response data is its buffer's content), sorted and apart. A span of
// another buffer, or out of order, is left out; the spans are appended
// to dst.
func (rb *ResponseBuffers) Verbatim(dst []Span, data []byte) []Span {
	if rb == nil || len(data) == 0 {
		return dst
	}
	rb.mu.Lock()
	defer rb.mu.Unlock()
	last := 0
	for _, s := range rb.spans {
		b := s.buf.Bytes()
		if len(b) != len(data) || &b[0] != &data[0] || s.start < last || s.end <= s.start || s.end > len(data) {
			continue
		}
		dst = append(dst, Span{s.start, s.end})
		last = s.end
	}
	return dst
}

type responseBuffersKey struct{}

// responseBufs holds the buffers ResponseBuffers lends.
var responseBufs sync.Pool

// WithResponseBuffers returns ctx under which the response's buffer may
// be a pooled one, and the ResponseBuffers whose Release returns it. The
// caller calls Release once the response's data has been written out and
// nothing refers to it any more, or never (the buffers are then left to
// the collector).
func WithResponseBuffers(ctx context.Context) (context.Context, *ResponseBuffers) {
	rb := &ResponseBuffers{}
	return context.WithValue(ctx, responseBuffersKey{}, rb), rb
}

// reserve makes buf hold what it holds in a pooled buffer with room for n
// more bytes, when it has less room than that.
func (rb *ResponseBuffers) reserve(buf *bytes.Buffer, n int) {
	if n <= 0 || buf.Available() >= n || buf.Len()+n > maxPooledResponse {
		return
	}
	bp, _ := responseBufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	b := append(slices.Grow((*bp)[:0], buf.Len()+n), buf.Bytes()...)
	*bp = b
	*buf = *bytes.NewBuffer(b)
	rb.mu.Lock()
	rb.lent = append(rb.lent, bp)
	rb.mu.Unlock()
}

// Release hands the buffers lent back to the pool, and the exclusion
// lists of the contexts made with NewFor to assemble: the responses
// written in them, and those contexts, must not be used afterwards.
func (rb *ResponseBuffers) Release() {
	rb.mu.Lock()
	lent, excluded := rb.lent, rb.excluded
	rb.lent, rb.excluded, rb.spans = nil, nil, nil
	rb.mu.Unlock()
	for _, bp := range lent {
		responseBufs.Put(bp)
	}
	for _, x := range excluded {
		assemble.ReleaseExcluded(x)
	}
}

// maxPooledResponse bounds the responses written in a pooled buffer.
const maxPooledResponse = 1 << 20

// availableBuffer returns the room left in w's buffer, empty, when w has
// one (a bytes.Buffer, as gqlgen's response is): appended to there, the
// text is written to w without another copy of it. Else nil.
func availableBuffer(w io.Writer) []byte {
	if a, ok := w.(interface{ AvailableBuffer() []byte }); ok {
		return a.AvailableBuffer()
	}
	return nil
}

// UnmarshalGQLContext implements graphql.ContextUnmarshaler, which gqlgen
// requires of a type that marshals itself; the text is output only.
func (*Text) UnmarshalGQLContext(context.Context, any) error { return errOutputOnly }

// remaining estimates the bytes the fields of c's selection write from
// the field of ctx (its text field) on, in their order: the texts as
// quoted, a list's records with every field.
func (c *Context) remaining(ctx context.Context) int {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Parent == nil || !graphql.HasOperationContext(ctx) {
		return 0
	}
	fields := graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Parent.Field.Selections, contextImplementors)
	n, from := 0, false
	for _, f := range fields {
		if from = from || f.Alias == fc.Field.Alias; !from {
			continue
		}
		n += len(f.Alias) + 4
		switch f.Name {
		case "text":
			n += quotedLen(c.Output.Text)
		case "sections":
			for _, s := range c.Sections {
				n += quotedLen(s.Text) + len(s.Title) + 48
			}
		case "included":
			for i := range c.Included {
				r := &c.Included[i]
				n += len(r.ID) + len(r.Kind) + len(r.Reason) + 80
			}
		case "excluded":
			for i := range c.Excluded {
				r := &c.Excluded[i]
				n += len(r.ID) + len(r.Kind) + len(r.Reason) + 40
			}
		case "notes":
			for _, s := range c.Notes {
				n += quotedLen(s) + 1
			}
		default:
			n += 16
		}
	}
	return n
}

// contextImplementors names the object for fragments.
var contextImplementors = []string{"AssembledContext"}

// quotedLen is about the length of s quoted: newlines, quotes and
// backslashes take two bytes.
func quotedLen(s string) int {
	return len(s) + 2 + strings.Count(s, "\n") + strings.Count(s, `"`) + strings.Count(s, `\`)
}

// Sections is the sections list, [ContextSection!]!.
type Sections []assemble.Section

// Included is the included list, [IncludedRecord!]!.
type Included []assemble.Included

// Excluded is the excluded list, [ExcludedRecord!]!.
type Excluded []assemble.Exclusion

// Object names, as __typename writes them and fragments name them.
var (
	sectionImplementors  = []string{"ContextSection"}
	includedImplementors = []string{"IncludedRecord"}
	excludedImplementors = []string{"ExcludedRecord"}
)

// MarshalGQLContext implements graphql.ContextMarshaler: the elements in
// order, each with the fields its selection set asks for.
func (l Sections) MarshalGQLContext(ctx context.Context, w io.Writer) error {
	return marshalList(ctx, w, sectionImplementors, len(l), func(b []byte, q quoter, i int, name string) ([]byte, bool) {
		s := &l[i]
		switch name {
		case "__typename":
			return q(b, sectionImplementors[0]), true
		case "layer":
			return strconv.AppendInt(b, int64(s.Layer), 10), true
		case "title":
			return q(b, s.Title), true
		case "text":
			return q(b, s.Text), true
		case "tokens":
			return strconv.AppendInt(b, int64(s.Tokens), 10), true
		}
		panic(unknownField(name))
	})
}

// MarshalGQLContext implements graphql.ContextMarshaler: the elements in
// order, each with the fields its selection set asks for.
func (l Included) MarshalGQLContext(ctx context.Context, w io.Writer) error {
	return marshalList(ctx, w, includedImplementors, len(l), func(b []byte, q quoter, i int, name string) ([]byte, bool) {
		r := &l[i]
		switch name {
		case "__typename":
			return q(b, includedImplementors[0]), true
		case "id":
			return q(b, r.ID), true
		case "kind":
			return q(b, string(r.Kind)), true
		case "layer":
			return strconv.AppendInt(b, int64(r.Layer), 10), true
		case "reason":
			return q(b, r.Reason), true
		case "score":
			return appendFloat(b, r.Score)
		}
		panic(unknownField(name))
	})
}

// MarshalGQLContext implements graphql.ContextMarshaler: the elements in
// order, each with the fields its selection set asks for.
func (l Excluded) MarshalGQLContext(ctx context.Context, w io.Writer) error {
	return marshalList(ctx, w, excludedImplementors, len(l), func(b []byte, q quoter, i int, name string) ([]byte, bool) {
		r := &l[i]
		switch name {
		case "__typename":
			return q(b, excludedImplementors[0]), true
		case "id":
			return q(b, r.ID), true
		case "kind":
			return q(b, string(r.Kind)), true
		case "reason":
			return q(b, string(r.Reason)), true
		}
		panic(unknownField(name))
	})
}

// UnmarshalGQLContext implements graphql.ContextUnmarshaler, which gqlgen
// requires of a type that marshals itself; the lists are output only.
func (*Sections) UnmarshalGQLContext(context.Context, any) error { return errOutputOnly }

// UnmarshalGQLContext implements graphql.ContextUnmarshaler, which gqlgen
// requires of a type that marshals itself; the lists are output only.
func (*Included) UnmarshalGQLContext(context.Context, any) error { return errOutputOnly }

// UnmarshalGQLContext implements graphql.ContextUnmarshaler, which gqlgen
// requires of a type that marshals itself; the lists are output only.
func (*Excluded) UnmarshalGQLContext(context.Context, any) error { return errOutputOnly }

var errOutputOnly = errors.New("assembled: sections and provenance records are output only")

// errNotFinite is the error gqlgen's Float marshaller reports for a value
// JSON cannot hold, taken from it.
var errNotFinite = graphql.MarshalFloatContext(math.NaN()).MarshalGQLContext(context.Background(), io.Discard)

// appendField appends the value of the field name of element i to b,
// and reports false when the value is not a finite number (b is then
// unchanged). It panics, as gqlgen's generated code does, on a field the
// object does not have, which validation rules out.
type appendField func(b []byte, q quoter, i int, name string) ([]byte, bool)

// quoter appends a string as JSON: appendString, or appendStringFinal.
type quoter func(b []byte, s string) []byte

func unknownField(name string) string { return "unknown field " + strconv.Quote(name) }

// bufs holds the buffers lists are written in before they are handed to
// the response in one Write.
var bufs = sync.Pool{New: func() any { return new([]byte) }}

// maxPooled bounds the buffers kept in bufs.
const maxPooled = 1 << 20

// marshalList writes a list of n objects of type implementors[0] to w as
// gqlgen's generated code writes it (graphql.Array of graphql.FieldSet):
// every element with the fields collected from the selection set of the
// list's field, the field of ctx, in order, each alias once.
func marshalList(ctx context.Context, w io.Writer, implementors []string, n int, value appendField) error {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return errors.New("assembled: a list marshalled outside a GraphQL field")
	}
	// The selection set is the same for every element: collected once,
	// where gqlgen collects it per element.
	fields := graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, implementors)
	q := quoter(appendString)
	rb, buf := responseBuffer(ctx, w)
	if buf != nil {
		q = appendStringFinal
	}
	bp := bufs.Get().(*[]byte)
	b := append((*bp)[:0], '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		for j, f := range fields {
			if written(fields[:j], f.Alias) {
				continue
			}
			if j > 0 {
				b = append(b, ',')
			}
			b = q(b, f.Alias)
			b = append(b, ':')
			var ok bool
			if b, ok = value(b, q, i, f.Name); !ok {
				// As gqlgen: null, and its error on the field's path.
				b = append(b, "null"...)
				graphql.AddError(elementField(ctx, i, implementors[0], f), errNotFinite)
			}
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	var err error
	if buf != nil {
		start := buf.Len()
		buf.Write(b)
		rb.verbatim(buf, start)
	} else {
		_, err = w.Write(b)
	}
	if cap(b) <= maxPooled {
		*bp = b
		bufs.Put(bp)
	}
	return err
}

// written reports whether one of fields has alias (graphql.FieldSet writes
// an alias once).
func written(fields []graphql.CollectedField, alias string) bool {
	for _, f := range fields {
		if f.Alias == alias {
			return true
		}
	}
	return false
}

// elementField returns ctx with the field contexts gqlgen gives field f
// of element i of the list of ctx, so that an error added to it carries
// the same path.
func elementField(ctx context.Context, i int, object string, f graphql.CollectedField) context.Context {
	ctx = graphql.WithFieldContext(ctx, &graphql.FieldContext{Index: &i})
	return graphql.WithFieldContext(ctx, &graphql.FieldContext{Object: object, Field: f})
}

// appendString appends s as a JSON string, escaped as gqlgen's
// graphql.MarshalString escapes it: control characters, '"' and '\\'
// only, everything else as it is. It reads bytes, not runes: every byte
// it escapes is ASCII, which no byte of a multi-byte (or invalid) UTF-8
// sequence is, and those are copied as they are either way. A long
// string (appendLong) it passes over eight bytes at a time: an assembled
// context's text, written twice in a response, is most of the bytes
// written; the many short ones (IDs, kinds, reasons) cost less a byte at
// a time.
func appendString(b []byte, s string) []byte {
	if len(s) >= minWordScan {
		return appendLong(b, s)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !escaped[c] {
			continue
		}
		b = appendEscaped(append(b, s[start:i]...), c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendLong is appendString, passing over eight bytes at a time while
// none is escaped (escapes).
func appendLong(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		if i+8 <= len(s) {
			m := escapes(le64(s, i))
			if m == 0 {
				i += 7 // and the loop's 1
				continue
			}
			i += bits.TrailingZeros64(m) >> 3 // the first byte escaped
		} else if !escaped[s[i]] {
			continue
		}
		b = appendEscaped(append(b, s[start:i]...), s[i])
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendStringFinal appends s as appendString does, then as
// encoding/json writes that JSON string again within a json.RawMessage
// (json.HTMLEscape): '<', '>', '&', U+2028 and U+2029 escaped too
// (\u003c, \u003e, \u0026, \u2028, \u2029). That is the form the POST
// transport writes a response in (graph.appendCompactJSON), which copies
// such a string as it is: a string written so under WithResponseBuffers
// is a verbatim span of the response (ResponseBuffers.Verbatim).
func appendStringFinal(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		if i+8 <= len(s) {
			m := escapesFinal(le64(s, i))
			if m == 0 {
				i += 7 // and the loop's 1
				continue
			}
			i += bits.TrailingZeros64(m) >> 3 // the first byte marked
		} else if !escapedFinal[s[i]] {
			continue
		}
		switch c := s[i]; {
		case escaped[c]:
			b = appendEscaped(append(b, s[start:i]...), c)
		case c == '<' || c == '>' || c == '&':
			b = append(append(b, s[start:i]...), '\\', 'u', '0', '0', hexLower[c>>4], hexLower[c&0xf])
		case i+2 < len(s) && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8: // U+2028, U+2029
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexLower[s[i+2]&0xf])
			i += 2
		default: // 0xE2 opening another character (or none): as it is
			continue
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// escapesFinal is escapes for appendStringFinal: with the bytes '<',
// '>', '&' and 0xE2 (which opens U+2028 and U+2029) marked too. Each
// test marks the lowest byte it matches, and perhaps bytes above it,
// never one below; a pair of bytes one bit apart is tested at once with
// that bit set ('"' 0x22 and '&' 0x26; '<' 0x3C and '>' 0x3E).
func escapesFinal(w uint64) uint64 {
	m := (w - ones*0x20) &^ w
	v := (w | ones*0x04) ^ ones*'&'
	m |= (v - ones) &^ v
	v = (w | ones*0x02) ^ ones*'>'
	m |= (v - ones) &^ v
	v = w ^ ones*'\\'
	m |= (v - ones) &^ v
	v = w ^ ones*0xE2
	m |= (v - ones) &^ v
	return m & highs
}

// escapedFinal marks the bytes appendStringFinal looks at: those
// appendString escapes, '<', '>', '&' and 0xE2.
var escapedFinal = func() (e [256]bool) {
	e = escaped
	e['<'], e['>'], e['&'], e[0xE2] = true, true, true, true
	return e
}()

// hexLower is encoding/json's hex digits.
const hexLower = "0123456789abcdef"

// appendEscaped appends the escape of c, a byte appendString escapes.
func appendEscaped(b []byte, c byte) []byte {
	switch c {
	case '\t':
		return append(b, `\t`...)
	case '\r':
		return append(b, `\r`...)
	case '\n':
		return append(b, `\n`...)
	case '\\':
		return append(b, `\\`...)
	case '"':
		return append(b, `\"`...)
	}
	return append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}

// minWordScan is the length from which appendString reads a string eight
// bytes at a time (appendLong).
const minWordScan = 64

// Masks of the bytes of a word, for escapes.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// escapes returns w (eight bytes of a string, the first lowest) with the
// high bit set in its lowest byte that appendString escapes (below 0x20,
// '"' or '\\'), and perhaps in bytes above that one, or 0 when it escapes
// none. (v-ones) &^ v sets the high bit of the lowest zero byte of v, and
// of no byte below it: a borrow runs on only from a zero byte (and
// (w-0x20…) &^ w likewise from a byte below 0x20; a byte from 0x80 up has
// its high bit set in w, so it is never marked).
func escapes(w uint64) uint64 {
	m := (w - ones*0x20) &^ w
	v := w ^ ones*'"'
	m |= (v - ones) &^ v
	v = w ^ ones*'\\'
	m |= (v - ones) &^ v
	return m & highs
}

// le64 returns the eight bytes of s from i as a little-endian word.
func le64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// escaped marks the bytes appendString escapes.
var escaped = func() (e [256]bool) {
	for c := range 0x20 {
		e[c] = true
	}
	e['\\'], e['"'] = true, true
	return e
}()

const hex = "0123456789ABCDEF"

// appendFloat appends f as gqlgen's graphql.MarshalFloatContext writes it
// (fmt's %g), and reports false for a value that is not finite.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64), true
}
