// Package graphiql serves the GraphiQL page of a development server from
// assets embedded in the binary, so that it works offline.
//
// The assets are the UMD builds of GraphiQL and React, stored gzipped
// (assets/*.gz, refreshed by update-assets.sh, their licences in
// assets/THIRD_PARTY_LICENSES), and assets/stategraph.js, which renders
// GraphiQL from the configuration the page embeds. The page opens with one
// tab per file of examples/, each with the headers given to Page.
package graphiql

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
)

// AssetPath is the path under which Assets serves the files the page loads.
const AssetPath = "/graphiql/"

var (
	//go:embed assets/*.gz assets/stategraph.js
	assetFS embed.FS
	//go:embed examples/*.graphql
	exampleFS embed.FS
)

// Tab is an example operation GraphiQL opens with.
type Tab struct {
	Query     string `json:"query"`
	Variables string `json:"variables,omitempty"`
}

// Examples returns the example tabs, in the order of their file names.
func Examples() []Tab {
	names, err := fs.Glob(exampleFS, "examples/*.graphql")
	if err != nil {
		panic(err) // the pattern is constant
	}
	sort.Strings(names)
	tabs := make([]Tab, 0, len(names))
	for _, n := range names {
		b, err := exampleFS.ReadFile(n)
		if err != nil {
			panic(err) // embedded
		}
		tabs = append(tabs, Tab{Query: string(b)})
	}
	return tabs
}

// config is what the page hands to stategraph.js.
type config struct {
	Endpoint string            `json:"endpoint"`
	Headers  map[string]string `json:"headers,omitempty"`
	Tabs     []Tab             `json:"tabs"`
	// StorageNamespace keeps GraphiQL's saved tabs apart per set of
	// headers: a server started again, with a new demo token, opens
	// with fresh tabs rather than ones holding the old token.
	StorageNamespace string `json:"storageNamespace"`
}

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>stategraph · GraphiQL</title>
<link rel="stylesheet" href="{{.Assets}}graphiql.min.css">
<style>body { margin: 0; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script id="stategraph-config" type="application/json">{{.Config}}</script>
<script src="{{.Assets}}react.production.min.js"></script>
<script src="{{.Assets}}react-dom.production.min.js"></script>
<script src="{{.Assets}}graphiql.min.js"></script>
<script src="{{.Assets}}stategraph.js"></script>
</body>
</html>
`))

// Page returns the handler of the GraphiQL page. GraphiQL sends its
// requests to endpoint, with headers (none when nil) prefilled in the
// headers pane of every tab, and opens with the tabs of Examples.
func Page(endpoint string, headers map[string]string) http.Handler {
	c := config{Endpoint: endpoint, Headers: headers, Tabs: Examples()}
	h, err := json.Marshal(headers)
	if err != nil {
		panic(err) // a map of strings
	}
	sum := sha256.Sum256(h)
	c.StorageNamespace = "stategraph-" + hex.EncodeToString(sum[:6])
	var buf bytes.Buffer
	if err := page.Execute(&buf, struct {
		Assets string
		Config config
	}{AssetPath, c}); err != nil {
		panic(err) // a constant template over plain data
	}
	body := buf.Bytes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(body)
	})
}

// asset is one embedded file, gzipped or not.
type asset struct {
	data        []byte
	gzipped     bool
	contentType string
	etag        string
}

// loadAssets indexes the embedded files by the name they are served under
// (without .gz).
func loadAssets() map[string]asset {
	entries, err := assetFS.ReadDir("assets")
	if err != nil {
		panic(err) // embedded
	}
	out := make(map[string]asset, len(entries))
	for _, e := range entries {
		b, err := assetFS.ReadFile("assets/" + e.Name())
		if err != nil {
			panic(err)
		}
		name, gzipped := strings.CutSuffix(e.Name(), ".gz")
		sum := sha256.Sum256(b)
		out[name] = asset{
			data: b, gzipped: gzipped,
			contentType: contentTypes[path.Ext(name)],
			etag:        `"` + hex.EncodeToString(sum[:12]) + `"`,
		}
	}
	return out
}

// Assets returns the handler of the files under AssetPath. A gzipped file
// goes out as it is stored to a client that accepts gzip, and inflated to
// one that does not.
func Assets() http.Handler {
	files := loadAssets()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := files[strings.TrimPrefix(r.URL.Path, AssetPath)]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("Cache-Control", "no-cache") // revalidated with the ETag
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("ETag", a.etag)
		if a.gzipped {
			h.Set("Vary", "Accept-Encoding")
		}
		if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if !a.gzipped {
			h.Set("Content-Length", fmt.Sprint(len(a.data)))
			w.Write(a.data)
			return
		}
		if acceptsGzip(r) {
			h.Set("Content-Encoding", "gzip")
			h.Set("Content-Length", fmt.Sprint(len(a.data)))
			w.Write(a.data)
			return
		}
		zr, err := gzip.NewReader(bytes.NewReader(a.data))
		if err != nil {
			http.Error(w, "corrupt embedded asset", http.StatusInternalServerError)
			return
		}
		io.Copy(w, zr)
	})
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip:
// it names gzip (or *) with a weight above zero.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(part, ";")
		if c := strings.TrimSpace(coding); c != "gzip" && c != "*" {
			continue
		}
		q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !ok {
			return true
		}
		w, err := strconv.ParseFloat(q, 64)
		return err == nil && w > 0
	}
	return false
}

// contentTypes are the types of the assets, by extension; fixed here
// rather than read from the system's MIME tables, which vary.
var contentTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
}
