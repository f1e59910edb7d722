// Package explorer serves the explorer, a single-page app for frontends and
// analysts: a key's supersession history on both time axes, the conflict
// board, the context inspector and an entity's graph, live over the
// GraphQL subscriptions.
//
// The app is plain HTML, CSS and JavaScript embedded in the binary
// (assets/): nothing is fetched from elsewhere and nothing is built. It
// talks to the GraphQL endpoint of the server that served it, with the
// token the user signs in with (kept in the tab's sessionStorage, never in
// the URL), over HTTP for queries and mutations and over
// graphql-transport-ws for subscriptions.
package explorer

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"mime"
	"net/http"
	"path"
	"strings"
)

// Path is where the explorer is served; its routes are fragments of it
// (#/history/<key>, #/conflicts, #/context, #/entities/<id>).
const Path = "/explorer/"

//go:embed assets/app.js assets/app.css
var assetFS embed.FS

// Options configure the explorer's page.
type Options struct {
	// Endpoint is the GraphQL endpoint, for queries over HTTP and
	// subscriptions over a websocket.
	Endpoint string
	// DevToken, when not "", prefills the sign-in form (a development
	// server's demo token, as GraphiQL's headers pane is prefilled).
	DevToken string
}

// config is what the page hands to app.js.
type config struct {
	Endpoint string `json:"endpoint"`
	DevToken string `json:"devToken,omitempty"`
}

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>stategraph explorer</title>
<link rel="stylesheet" href="{{.Base}}app.css?v={{.Version}}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<h1><a href="#/">stategraph explorer</a></h1>
<nav aria-label="Views" id="nav" hidden>
<ul>
<li><a href="#/history/">History</a></li>
<li><a href="#/conflicts">Conflicts</a></li>
<li><a href="#/context">Context</a></li>
<li><a href="#/entities/">Entities</a></li>
</ul>
</nav>
<p id="who" class="who"></p>
<p id="live" class="live" role="status" aria-live="polite"></p>
</header>
<main id="main" tabindex="-1"><noscript>The explorer needs JavaScript.</noscript></main>
<script id="explorer-config" type="application/json">{{.Config}}</script>
<script src="{{.Base}}app.js?v={{.Version}}"></script>
</body>
</html>
`))

// asset is an embedded file ready to serve.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

func loadAssets() map[string]asset {
	out := map[string]asset{}
	for _, name := range []string{"app.js", "app.css"} {
		b, err := assetFS.ReadFile("assets/" + name)
		if err != nil {
			panic(err) // embedded
		}
		sum := sha256.Sum256(b)
		out[name] = asset{body: b, contentType: mime.TypeByExtension(path.Ext(name)), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
	return out
}

// contentSecurity allows the page nothing but its own origin: its scripts,
// styles and GraphQL endpoint (the websocket included); no inline script
// runs and no frame may embed it.
const contentSecurity = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler returns the handler of Path and the assets under it.
func Handler(o Options) http.Handler {
	if o.Endpoint == "" {
		o.Endpoint = "/graphql"
	}
	assets := loadAssets()
	h := sha256.New()
	for _, n := range []string{"app.js", "app.css"} {
		h.Write(assets[n].body)
	}
	version := hex.EncodeToString(h.Sum(nil)[:6])
	cfg, err := json.Marshal(config(o))
	if err != nil {
		panic(err) // two strings
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, struct {
		Base, Version string
		Config        template.JS
	}{Path, version, template.JS(jsonForScript(cfg))}); err != nil {
		panic(err) // a constant template over plain data
	}
	body := buf.Bytes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		name := strings.TrimPrefix(r.URL.Path, Path)
		if name == "" {
			hd.Set("Content-Type", "text/html; charset=utf-8")
			hd.Set("Cache-Control", "no-store")
			hd.Set("Content-Security-Policy", contentSecurity)
			w.Write(body)
			return
		}
		a, ok := assets[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		hd.Set("Content-Type", a.contentType)
		hd.Set("ETag", a.etag)
		hd.Set("Cache-Control", "no-cache")
		if r.Header.Get("If-None-Match") == a.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(a.body)
	})
}

// jsonForScript escapes what could end a script element early.
func jsonForScript(b []byte) string {
	return strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`).Replace(string(b))
}
