// stategraph explorer: a single-page app over the GraphQL API of the server
// that served it. Plain JavaScript, no build step, no third-party code.
//
// Routes (location.hash): #/history/<key>, #/conflicts, #/context,
// #/entities/<id>. The token is kept in sessionStorage (this tab only) and
// sent as a bearer header over HTTP and in connection_init over the
// websocket (graphql-transport-ws); it never appears in a URL.
(function () {
  'use strict';

  var cfg = JSON.parse(document.getElementById('explorer-config').textContent);
  var TOKEN_KEY = 'stategraph.explorer.token';
  var main = document.getElementById('main');
  var nav = document.getElementById('nav');
  var who = document.getElementById('who');
  var liveStatus = document.getElementById('live');
  var token = sessionStorage.getItem(TOKEN_KEY) || '';
  var me = null;
  var view = null; // the current view: {alive, cleanups}

  // ---- DOM helpers --------------------------------------------------------

  // h builds an element: h('p', {class: 'x', onclick: f}, 'text', child, [more]).
  function h(tag, attrs) {
    var el = document.createElement(tag);
    setAttrs(el, attrs);
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }
  var SVGNS = 'http://www.w3.org/2000/svg';
  function s(tag, attrs) {
    var el = document.createElementNS(SVGNS, tag);
    setAttrs(el, attrs);
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }
  function setAttrs(el, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
      else if (k === 'text') el.textContent = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    });
  }
  // append appends each further argument (a node, text, or an array of them).
  function append(el) {
    for (var i = 1; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === undefined || c === null || c === false) continue;
      if (Array.isArray(c)) c.forEach(function (x) { append(el, x); });
      else el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    }
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }

  function fmtTime(t) {
    if (!t) return '';
    return t.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
  }
  function fmtValue(v) {
    if (v === null || v === undefined) return 'null';
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
  // A datetime-local value is read as UTC; '' is null.
  function inputTime(el) {
    var v = el.value.trim();
    if (!v) return null;
    if (v.length === 16) v += ':00';
    return v + 'Z';
  }
  function toInput(t) { return t ? t.replace(/(\.\d+)?Z$/, '').slice(0, 19) : ''; }
  function link(href, text, attrs) {
    var a = h('a', attrs || {}, text);
    a.setAttribute('href', href);
    return a;
  }
  function historyHref(key) { return '#/history/' + encodeURIComponent(key); }
  function entityHref(id) { return '#/entities/' + encodeURIComponent(id); }
  function sourceText(src) {
    if (!src) return '';
    var parts = [src.type.toLowerCase()];
    if (src.identity) parts.push(src.identity);
    if (src.speaker) parts.push('said by ' + src.speaker);
    if (src.cited) parts.push('citing ' + src.cited);
    if (src.rule) parts.push('rule ' + src.rule);
    return parts.join(', ');
  }
  function restrictionText(r) {
    if (!r) return 'none (everyone who reaches its memory)';
    var parts = [];
    if (r.roles.length) parts.push('roles ' + r.roles.join(' or '));
    if (r.permissions.length) parts.push('permission ' + r.permissions.join(' or '));
    if (r.minAuthority) parts.push('authority ' + r.minAuthority + ' or above');
    if (r.departments.length) parts.push('department ' + r.departments.join(' or '));
    return parts.join('; ');
  }
  function dl(pairs) {
    var d = h('dl');
    pairs.forEach(function (p) {
      if (p[1] === undefined || p[1] === null || p[1] === '') return;
      append(d, [h('dt', null, p[0]), h('dd', null, p[1])]);
    });
    return d;
  }
  function alertBox(msg) { return h('p', { class: 'error', role: 'alert' }, msg); }
  function announce(region, msg) { region.textContent = ''; setTimeout(function () { region.textContent = msg; }, 30); }

  // ---- GraphQL over HTTP --------------------------------------------------

  function GraphQLError(message, code) { this.message = message; this.code = code || ''; }
  GraphQLError.prototype = Object.create(Error.prototype);

  function gql(query, variables) {
    return fetch(cfg.endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Authorization': 'Bearer ' + token },
      body: JSON.stringify({ query: query, variables: variables || {} })
    }).then(function (r) {
      return r.json().catch(function () {
        throw new GraphQLError('The server answered ' + r.status + ' without a GraphQL response; try again.', 'INTERNAL');
      });
    }, function () {
      throw new GraphQLError('The server cannot be reached; check that it is running and try again.', 'INTERNAL');
    }).then(function (body) {
      if (body.errors && body.errors.length) {
        var e = body.errors[0];
        var code = e.extensions && e.extensions.code;
        if (code === 'UNAUTHENTICATED' && me) signOut('Your token was refused (' + e.message + '); sign in again.');
        throw new GraphQLError(e.message, code);
      }
      return body.data;
    });
  }
  function errText(e) { return e.code ? e.code + ': ' + e.message : String(e.message || e); }

  // ---- Subscriptions over graphql-transport-ws ----------------------------

  // live keeps one websocket for every subscription of the open view; it
  // reconnects after a drop (with backoff) and then asks each subscriber
  // to read again what it may have missed.
  var live = {
    ws: null, acked: false, everAcked: false, retry: 0, timer: null, stopped: true,
    subs: {}, next: 1,
    start: function () {
      this.stopped = false;
      if (!this.ws && !this.timer) this.connect();
    },
    stop: function () {
      this.stopped = true;
      clearTimeout(this.timer); this.timer = null;
      if (this.ws) this.ws.close(1000, 'signed out');
      this.ws = null; this.acked = false; this.everAcked = false; this.subs = {};
      setLive('');
    },
    connect: function () {
      var self = this;
      var url = new URL(cfg.endpoint, location.href);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      var ws = new WebSocket(url.toString(), 'graphql-transport-ws');
      this.ws = ws; this.acked = false;
      setLive('Live updates: connecting…');
      ws.onopen = function () {
        ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: 'Bearer ' + token } }));
      };
      ws.onmessage = function (ev) {
        var m;
        try { m = JSON.parse(ev.data); } catch (e) { return; }
        var sub = m.id && self.subs[m.id];
        switch (m.type) {
          case 'connection_ack':
            var again = self.everAcked;
            self.acked = true; self.everAcked = true; self.retry = 0;
            setLive('Live updates: on');
            Object.keys(self.subs).forEach(function (id) {
              self.send(id);
              if (again && self.subs[id].onReconnect) self.subs[id].onReconnect();
            });
            break;
          case 'ping': ws.send(JSON.stringify({ type: 'pong' })); break;
          case 'next':
            if (!sub) break;
            if (m.payload.errors && m.payload.errors.length) {
              // A lagging subscriber is ended; read again and resubscribe.
              if (sub.onReconnect) sub.onReconnect();
            } else sub.onData(m.payload.data);
            break;
          case 'error':
            if (sub) setLive('Live updates: refused (' + (m.payload && m.payload[0] ? m.payload[0].message : 'error') + ')');
            break;
        }
      };
      ws.onclose = function (ev) {
        if (self.ws !== ws) return;
        self.ws = null; self.acked = false;
        if (self.stopped) return;
        if (ev.code === 4401 || ev.code === 4403) {
          // The token expired or was refused: the page cannot read anything more with it.
          signOut('Live updates ended: ' + (ev.reason || 'the token was refused') + '. Sign in again.');
          return;
        }
        var delay = Math.min(15000, 250 * Math.pow(2, self.retry++));
        setLive('Live updates: disconnected, reconnecting…');
        self.timer = setTimeout(function () { self.timer = null; if (!self.stopped) self.connect(); }, delay);
      };
    },
    send: function (id) {
      var sub = this.subs[id];
      this.ws.send(JSON.stringify({ id: id, type: 'subscribe', payload: { query: sub.query, variables: sub.variables || {} } }));
    },
    // subscribe returns the function that ends the subscription.
    subscribe: function (query, variables, onData, onReconnect) {
      var id = String(this.next++);
      this.subs[id] = { query: query, variables: variables, onData: onData, onReconnect: onReconnect };
      if (this.acked) this.send(id);
      var self = this;
      return function () {
        if (!self.subs[id]) return;
        delete self.subs[id];
        if (self.acked && self.ws) self.ws.send(JSON.stringify({ id: id, type: 'complete' }));
      };
    }
  };
  function setLive(msg) { liveStatus.textContent = msg; }

  // ---- Sign in ------------------------------------------------------------

  function signOut(msg) {
    token = ''; me = null;
    sessionStorage.removeItem(TOKEN_KEY);
    live.stop();
    nav.hidden = true; clear(who);
    route(msg);
  }

  function renderSignIn(msg) {
    var input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'token-help' });
    if (cfg.devToken) input.value = cfg.devToken;
    var status = h('div', { id: 'signin-status' });
    if (msg) append(status, alertBox(msg));
    var form = h('form', { id: 'signin', class: 'card', onsubmit: function (ev) {
      ev.preventDefault();
      var t = input.value.trim();
      if (!t) { clear(status); append(status, alertBox('Paste a token (a JWT) first.')); return; }
      signIn(t).catch(function (e) { clear(status); append(status, alertBox('Sign-in failed: ' + errText(e))); input.focus(); });
    } },
    h('h2', { tabindex: '-1' }, 'Sign in'),
    h('label', { for: 'token' }, 'Token'),
    input,
    h('p', { id: 'token-help', class: 'help' }, cfg.devToken
      ? 'Prefilled with this development server\'s demo token. Press Enter to sign in.'
      : 'A JWT for this server, as for the GraphQL API. It stays in this tab only. Press Enter to sign in.'),
    h('button', { type: 'submit' }, 'Sign in'),
    status);
    clear(main); append(main, form);
    input.focus();
  }

  function signIn(t) {
    token = t;
    return gql('query ExplorerMe { me { userId userName organization authority kind permissions } }').then(function (d) {
      me = d.me;
      sessionStorage.setItem(TOKEN_KEY, t);
      showIdentity();
      route();
    }, function (e) { token = ''; throw e; });
  }

  function showIdentity() {
    nav.hidden = false;
    clear(who);
    append(who, ['Signed in as ', h('strong', null, me.userName || me.userId), ' (' + me.userId + ', ' + me.organization +
      (me.authority ? ', ' + me.authority : '') + ') ',
      h('button', { type: 'button', class: 'link', onclick: function () { signOut(); } }, 'Sign out')]);
    live.start();
  }

  // ---- Routing ------------------------------------------------------------

  function route(msg) {
    if (view) { view.alive = false; view.cleanups.forEach(function (f) { f(); }); }
    view = { alive: true, cleanups: [] };
    if (!token) { renderSignIn(msg); return; }
    if (!me) {
      // A token kept by this tab: check it again.
      var t = token;
      token = '';
      signIn(t).catch(function (e) { signOut('Sign in again: ' + errText(e)); });
      return;
    }
    var hash = location.hash.replace(/^#/, '') || '/';
    var m;
    var v = view;
    clear(main);
    Array.prototype.forEach.call(nav.querySelectorAll('a'), function (a) {
      var here = hash.indexOf(a.getAttribute('href').slice(1).replace(/\/$/, '')) === 0;
      if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
    if ((m = hash.match(/^\/history\/(.+)$/))) historyView(v, decodeURIComponent(m[1]));
    else if (hash === '/history/' || hash === '/history') keyPicker(v);
    else if (hash === '/conflicts') conflictsView(v);
    else if (hash === '/context') contextView(v);
    else if ((m = hash.match(/^\/entities\/(.+)$/))) entityView(v, decodeURIComponent(m[1]));
    else if (hash === '/entities/' || hash === '/entities') entityPicker(v);
    else homeView(v);
  }
  window.addEventListener('hashchange', function () { route(); });
  // The skip link focuses the content without touching the route.
  document.querySelector('.skip').addEventListener('click', function (ev) { ev.preventDefault(); main.focus(); });

  function heading(text) {
    var el = h('h2', { tabindex: '-1', id: 'view-title' }, text);
    append(main, el);
    el.focus();
    return el;
  }

  // debounce runs f at most once per ms while calls keep coming.
  function debounce(f, ms) {
    var t = null;
    return function () { clearTimeout(t); t = setTimeout(f, ms); };
  }

  // ---- Home and pickers ---------------------------------------------------

  function homeView(v) {
    heading('Explore');
    append(main, h('ul', { class: 'tiles' },
      h('li', null, link('#/history/', 'Supersession history'), ' of a key, on valid and recorded time'),
      h('li', null, link('#/conflicts', 'Conflict board'), ': open and decided conflicts'),
      h('li', null, link('#/context', 'Context inspector'), ': the assembled prompt, line by line'),
      h('li', null, link('#/entities/', 'Entities'), ': facts and state assertions as a graph')));
    keyList(v);
  }

  function keyPicker(v) {
    heading('Supersession history');
    append(main, goForm('key', 'Key', 'e.g. user.city', historyHref));
    keyList(v);
  }

  function entityPicker() {
    heading('Entities');
    append(main, goForm('entity', 'Entity', 'e.g. Entity#42', entityHref));
  }

  function goForm(id, label, placeholder, href) {
    var input = h('input', { id: id, name: id, required: true, placeholder: placeholder });
    return h('form', { class: 'inline', onsubmit: function (ev) {
      ev.preventDefault();
      if (input.value.trim()) location.hash = href(input.value.trim());
    } }, h('label', { for: id }, label), input, h('button', { type: 'submit' }, 'Open'));
  }

  function keyList(v) {
    var box = h('section', { 'aria-labelledby': 'keys-title' }, h('h3', { id: 'keys-title' }, 'Keys with valid facts'));
    append(main, box);
    gql('query ExplorerKeys { facts(first: 200) { totalCount edges { node { key } } } }').then(function (d) {
      if (!v.alive) return;
      var keys = [];
      d.facts.edges.forEach(function (e) { if (keys.indexOf(e.node.key) < 0) keys.push(e.node.key); });
      keys.sort();
      if (!keys.length) { append(box, h('p', null, 'No valid facts yet.')); return; }
      append(box, h('ul', { class: 'keys' }, keys.map(function (k) { return h('li', null, link(historyHref(k), k)); })));
    }, function (e) { if (v.alive) append(box, alertBox(errText(e))); });
  }

  // ---- History on two time axes -------------------------------------------

  var FACT_FIELDS = 'id key value text isValid needsReview memoryType scope scopeId isConstraint level ' +
    'validFrom validTo recordedAt supersededAt ' +
    'source { type authority identity speaker cited rule turn } ' +
    'restrictedTo { roles permissions minAuthority departments } forgotten { by at } ' +
    'retracted { reason actor at } supersession { kind detection cue reason actor at declassified } ' +
    'supersedes { id key } supersededBy { id key } dependsOn { id key text } derivedFacts { id key text } ' +
    'revokedBy { id actor reason at }';

  function historyView(v, key) {
    heading('History of ' + key);
    var asOf = h('input', { id: 'asof', type: 'datetime-local', step: '1', 'aria-describedby': 'asof-help' });
    var knownAt = h('input', { id: 'knownat', type: 'datetime-local', step: '1', 'aria-describedby': 'asof-help' });
    var picker = h('form', { class: 'asof', 'aria-label': 'View as of', onsubmit: function (ev) { ev.preventDefault(); load(); } },
      h('fieldset', null, h('legend', null, 'As of'),
        h('label', { for: 'asof' }, 'Valid time'), asOf,
        h('label', { for: 'knownat' }, 'Recorded time'), knownAt,
        h('button', { type: 'submit' }, 'Show'),
        h('button', { type: 'button', onclick: function () { asOf.value = ''; knownAt.value = ''; load(); } }, 'Now'),
        h('p', { id: 'asof-help', class: 'help' }, 'UTC. Valid time: what was true then; recorded time: what the store knew then. Empty means now. The times on the diagram\'s axes set them too.')));
    asOf.addEventListener('change', function () { load(); });
    knownAt.addEventListener('change', function () { load(); });
    var news = h('p', { id: 'history-news', class: 'news', role: 'status', 'aria-live': 'polite' });
    var out = h('div', { id: 'history' }, h('p', null, 'Loading…'));
    append(main, [picker, news, out]);

    var q = 'query ExplorerHistory($key: String!, $asOf: Time, $knownAt: Time) { factHistory(key: $key, asOf: $asOf, knownAt: $knownAt) { ' + FACT_FIELDS + ' } }';
    var seq = 0;
    function load() {
      var n = ++seq;
      var vars = { key: key, asOf: inputTime(asOf), knownAt: inputTime(knownAt) };
      return gql(q, vars).then(function (d) {
        if (!v.alive || n !== seq) return;
        clear(out);
        renderHistory(out, key, d.factHistory, Object.assign({ pick: pick }, vars));
      }, function (e) { if (v.alive && n === seq) { clear(out); append(out, alertBox(errText(e))); } });
    }
    // pick moves a picker to t (from a tick of the diagram).
    function pick(axis, t) {
      (axis === 'asof' ? asOf : knownAt).value = toInput(t);
      load().then(function () {
        var el = out.querySelector('.tick-button[data-axis="' + axis + '"][data-time="' + t + '"]');
        if (el) el.focus();
      });
    }
    load();
    var reload = debounce(load, 100);
    v.cleanups.push(live.subscribe('subscription ExplorerFactChanged($key: String) { factChanged(key: $key) { kind at fact { id key text } superseded { id text } } }',
      { key: key }, function (d) {
        var c = d.factChanged;
        announce(news, 'Live: ' + c.kind.toLowerCase() + ' at ' + fmtTime(c.at) + ': ' + c.fact.text +
          (c.superseded ? ' (replacing ' + c.superseded.text + ')' : ''));
        reload();
      }, reload));
  }

  function renderHistory(out, key, facts, vars) {
    if (!facts.length) {
      append(out, h('p', null, 'No fact with key ' + key + ' that you may read' + (vars.knownAt ? ', as recorded then.' : '.')));
      return;
    }
    var byId = {};
    facts.forEach(function (f, i) { f.n = i + 1; byId[f.id] = f; });
    append(out, diagram(facts, byId, vars));
    var list = h('ol', { class: 'versions', 'aria-label': 'Versions, oldest recorded first' });
    facts.forEach(function (f) { append(list, versionCard(f, byId)); });
    append(out, h('h3', null, 'Versions'), list);
  }

  // A version's state in words (never only in colour).
  function versionState(f, byId) {
    if (f.forgotten) return 'forgotten';
    if (f.retracted) return 'retracted';
    if (f.revokedBy) return 'revoked';
    var next = f.supersededBy && byId[f.supersededBy.id];
    if (next && next.supersession) return next.supersession.kind === 'CORRECTION' ? 'corrected' : 'changed';
    if (f.supersededAt) return f.supersededBy ? 'superseded' : 'superseded (by a version withheld from you)';
    return f.isValid ? 'current' : 'not valid in this view';
  }

  function versionCard(f, byId) {
    var state = versionState(f, byId);
    var value = f.forgotten ? h('em', null, 'forgotten (value erased by ' + f.forgotten.by + ' at ' + fmtTime(f.forgotten.at) + ')') : h('code', null, fmtValue(f.value));
    var edges = [];
    if (f.supersession) {
      var prev = f.supersedes;
      edges.push(h('li', null, f.supersession.kind === 'CORRECTION' ? 'Corrects ' : 'Changes ',
        prev ? versionLink(prev, byId) : h('em', null, 'a version withheld from you'),
        ' (' + f.supersession.detection + (f.supersession.reason ? ': ' + f.supersession.reason : '') +
        (f.supersession.cue ? ', cue "' + f.supersession.cue + '"' : '') + ', by ' + f.supersession.actor + ' at ' + fmtTime(f.supersession.at) +
        (f.supersession.declassified ? ', declassified' : '') + ')'));
    }
    if (f.supersededBy) edges.push(h('li', null, 'Superseded by ', versionLink(f.supersededBy, byId)));
    else if (f.supersededAt && !f.retracted && !f.revokedBy) edges.push(h('li', null, 'Superseded at ' + fmtTime(f.supersededAt) + ' by ', h('em', null, 'a version withheld from you')));
    f.dependsOn.forEach(function (d) { edges.push(h('li', null, 'Depends on ', link(historyHref(d.key), d.text), ' (' + d.id + ')')); });
    f.derivedFacts.forEach(function (d) { edges.push(h('li', null, 'Derived: ', link(historyHref(d.key), d.text), ' (' + d.id + ')')); });
    if (f.retracted) edges.push(h('li', null, 'Retracted by ' + f.retracted.actor + ' at ' + fmtTime(f.retracted.at) + ': ' + f.retracted.reason));
    if (f.revokedBy) edges.push(h('li', null, 'Revoked by decision ' + f.revokedBy.id + ' (' + f.revokedBy.actor + ': ' + f.revokedBy.reason + ')'));
    return h('li', { id: 'v-' + f.id, tabindex: '-1', class: 'card version state-' + state.split(' ')[0] },
      h('h4', null, 'v' + f.n + ' · ' + state + ' · ', value),
      dl([
        ['Id', f.id],
        ['Valid time', fmtTime(f.validFrom) + ' → ' + (f.validTo ? fmtTime(f.validTo) : 'open')],
        ['Recorded time', fmtTime(f.recordedAt) + ' → ' + (f.supersededAt ? fmtTime(f.supersededAt) : 'open')],
        ['Source', sourceText(f.source)],
        ['Authority', f.source.authority || 'none'],
        ['Scope', f.scope + (f.scopeId ? ' ' + f.scopeId : '') + ' · ' + f.memoryType + (f.level ? ' ' + f.level : '')],
        ['Restriction', restrictionText(f.restrictedTo)],
        ['Needs review', f.needsReview ? 'yes: a fact it depends on changed' : '']
      ]),
      edges.length ? h('ul', { class: 'edges' }, edges) : null);
  }

  function versionLink(ref, byId) {
    var target = byId[ref.id];
    if (!target) return link(historyHref(ref.key), ref.key + ' (' + ref.id + ')');
    return link('#/history/' + encodeURIComponent(target.key), 'v' + target.n, { onclick: function (ev) { ev.preventDefault(); focusVersion(ref.id); } });
  }
  function focusVersion(id) {
    var el = document.getElementById('v-' + id);
    if (!el) return;
    el.scrollIntoView({ block: 'center' });
    el.focus();
  }

  // diagram draws each version as the region of the plane it was believed
  // true in: valid time across, recorded time down. A change leaves the old
  // value standing in its closed valid period after it was recorded; a
  // correction ends the old region at the correction (it was never true).
  // The axes are ordinal (every instant in order, evenly spaced), not to
  // scale, so that seconds and years both stay readable.
  function diagram(facts, byId, vars) {
    var validTimes = {}, recTimes = {};
    facts.forEach(function (f) { validTimes[f.validFrom] = 1; if (f.validTo) validTimes[f.validTo] = 1; recTimes[f.recordedAt] = 1; if (f.supersededAt) recTimes[f.supersededAt] = 1; });
    if (vars.asOf) validTimes[vars.asOf] = 1;
    if (vars.knownAt) recTimes[vars.knownAt] = 1;
    var xs = Object.keys(validTimes).sort(byTime);
    var ys = Object.keys(recTimes).sort(byTime);
    var W = 1040, left = 150, top = 40, colW = Math.max(60, Math.min(260, (W - left - 60) / Math.max(1, xs.length)));
    var rowH = 64;
    var right = left + colW * xs.length + 40, bottom = top + rowH * ys.length + 30;
    function X(t) { return t ? left + colW * xs.indexOf(t) : right; }
    function Y(t) { return t ? top + rowH * ys.indexOf(t) : bottom; }
    var svg = s('svg', { viewBox: '0 0 ' + (right + 10) + ' ' + (bottom + 20), width: right + 10, class: 'bitemporal', role: 'group', 'aria-labelledby': 'diagram-title diagram-desc' },
      s('title', { id: 'diagram-title' }, 'Versions of the key on valid time (across) and recorded time (down)'),
      s('desc', { id: 'diagram-desc' }, 'Each box is a version, where and when it was believed true; the versions are described in words below.'),
      s('defs', null,
        s('pattern', { id: 'hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
          s('line', { x1: 0, y1: 0, x2: 0, y2: 8, class: 'hatch' })),
        s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
          s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }))));
    // Axes.
    append(svg, s('text', { x: left, y: 14, class: 'axis-title' }, 'valid time →'));
    append(svg, s('text', { x: 8, y: top - 12, class: 'axis-title' }, 'recorded time ↓'));
    // A tick is a button: it moves the picker of its axis to its time.
    function tick(x, y, t, axis) {
      var label = (axis === 'asof' ? 'Show as valid at ' : 'Show as recorded at ') + fmtTime(t);
      return s('g', { class: 'tick-button', role: 'button', tabindex: '0', 'data-axis': axis, 'data-time': t, 'aria-label': label,
        onclick: function () { vars.pick(axis, t); },
        onkeydown: function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); vars.pick(axis, t); } } },
      s('title', null, label), s('text', { x: x, y: y, class: 'tick' }, shortTime(t)));
    }
    xs.forEach(function (t) {
      append(svg, s('line', { x1: X(t), y1: top - 6, x2: X(t), y2: bottom, class: 'grid' }));
      append(svg, tick(X(t) + 2, top - 8, t, 'asof'));
    });
    ys.forEach(function (t) {
      append(svg, s('line', { x1: left - 6, y1: Y(t), x2: right, y2: Y(t), class: 'grid' }));
      append(svg, tick(8, Y(t) + 4, t, 'knownat'));
    });
    // Regions.
    facts.forEach(function (f) {
      var state = versionState(f, byId);
      var never = state === 'corrected' || state === 'retracted' || state === 'forgotten';
      var x1 = X(f.validFrom), y1 = Y(f.recordedAt), y2 = f.supersededAt ? Y(f.supersededAt) : bottom;
      // Believed open-ended until retired (or, unretired, up to validTo).
      var x2 = f.supersededAt ? right : X(f.validTo);
      var g = s('g', { class: 'region state-' + state.split(' ')[0], tabindex: '0', role: 'link',
        'aria-label': 'v' + f.n + ': ' + (f.forgotten ? 'forgotten' : fmtValue(f.value)) + ', ' + state,
        onclick: function () { focusVersion(f.id); },
        onkeydown: function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); focusVersion(f.id); } } });
      append(g, s('title', null, 'v' + f.n + ' ' + state));
      append(g, s('rect', { x: x1 + 2, y: y1 + 2, width: Math.max(8, x2 - x1 - 4), height: Math.max(8, y2 - y1 - 4), class: never ? 'box never' : 'box' }));
      if (f.supersededAt && !never && f.validTo) {
        // After a change it stays true for its closed valid period.
        append(g, s('rect', { x: x1 + 2, y: y2 + 2, width: Math.max(8, X(f.validTo) - x1 - 4), height: Math.max(8, bottom - y2 - 4), class: 'box after' }));
        append(g, s('text', { x: x1 + 8, y: y2 + 20, class: 'label after' }, 'v' + f.n + ' ' + truncate(fmtValue(f.value), 16) + ' · held then'));
      }
      var label = 'v' + f.n + ' ' + (f.forgotten ? '(forgotten)' : truncate(fmtValue(f.value), 22)) + (state === 'current' ? '' : ' · ' + state.split(' ')[0]);
      append(g, s('text', { x: x1 + 8, y: y1 + 20, class: 'label' }, label));
      append(svg, g);
    });
    // Supersession edges, each a link to the version that did it.
    facts.forEach(function (f) {
      var prev = f.supersedes && byId[f.supersedes.id];
      if (!prev) return;
      var ax = X(prev.validFrom) + 30, ay = Y(prev.recordedAt) + 28;
      var bx = X(f.validFrom) + 30, by = Y(f.recordedAt) + 10;
      var kind = f.supersession ? f.supersession.kind.toLowerCase() : 'supersession';
      var a = s('a', { href: historyHref(f.key), class: 'edge edge-' + kind, 'aria-label': kind + ' from v' + prev.n + ' to v' + f.n,
        onclick: function (ev) { ev.preventDefault(); focusVersion(f.id); } },
        s('title', null, kind + ': v' + prev.n + ' → v' + f.n),
        s('path', { d: 'M' + ax + ',' + ay + ' C' + ax + ',' + (ay + by) / 2 + ' ' + bx + ',' + (ay + by) / 2 + ' ' + bx + ',' + by, 'marker-end': 'url(#arrow)' }),
        s('text', { x: (ax + bx) / 2 + 4, y: (ay + by) / 2, class: 'edge-label' }, kind));
      append(svg, a);
    });
    // The as-of lines.
    if (vars.asOf) {
      append(svg, s('line', { x1: X(vars.asOf), y1: top, x2: X(vars.asOf), y2: bottom, class: 'asof-line' }));
      append(svg, s('text', { x: X(vars.asOf) + 3, y: bottom + 14, class: 'tick' }, 'valid as of'));
    }
    if (vars.knownAt) {
      append(svg, s('line', { x1: left, y1: Y(vars.knownAt), x2: right, y2: Y(vars.knownAt), class: 'asof-line' }));
      append(svg, s('text', { x: right - 70, y: Y(vars.knownAt) - 4, class: 'tick' }, 'known at'));
    }
    var legend = h('p', { class: 'legend' }, 'Boxes: where a version was believed true. Plain: believed true; hatched: never true (corrected, retracted or forgotten); dotted: true for its closed period after a change. Arrows: supersessions, labelled change or correction. Axes are in order, not to scale.');
    return h('figure', { class: 'diagram' }, svg, h('figcaption', null, legend));
  }
  function byTime(a, b) { var x = Date.parse(a), y = Date.parse(b); return x - y || (a < b ? -1 : a > b ? 1 : 0); }
  function shortTime(t) { return t.replace(/(\.\d+)?Z$/, '').replace('T', ' ').slice(0, 19); }
  function truncate(t, n) { return t.length > n ? t.slice(0, n - 1) + '…' : t; }

  // ---- Conflict board -----------------------------------------------------

  var CANDIDATE = '__typename ... on Fact { id key value text source { type authority identity } recordedAt isValid } ' +
    '... on StateAssertion { id subject predicate object context status epistemicStatus authority provenance { author { kind id } confidence method } createdAt }';
  var CONFLICT = 'id status subject predicate context reason openedAt resolvedAt candidates { ' + CANDIDATE + ' } ' +
    'decision { id reason actor at policy kept { __typename ... on Fact { id } ... on StateAssertion { id } } }';

  function conflictsView(v) {
    heading('Conflict board');
    var news = h('p', { id: 'conflicts-news', class: 'news', role: 'status', 'aria-live': 'polite' });
    var out = h('div', { id: 'conflicts' }, h('p', null, 'Loading…'));
    append(main, [news, out]);
    var q = 'query ExplorerConflicts { open: conflicts(filter: {status: OPEN}, first: 20) { totalCount edges { node { ' + CONFLICT + ' } } } ' +
      'decided: conflicts(filter: {status: RESOLVED}, last: 10) { totalCount edges { node { ' + CONFLICT + ' } } } }';
    var seq = 0;
    function load() {
      var n = ++seq;
      return gql(q).then(function (d) {
        if (!v.alive || n !== seq) return;
        var focused = document.activeElement && document.activeElement.id;
        clear(out);
        append(out, h('section', { 'aria-labelledby': 'open-title' },
          h('h3', { id: 'open-title' }, 'Open (' + d.open.totalCount + ')'),
          d.open.edges.length ? d.open.edges.map(function (e) { return conflictCard(e.node, load, news); }) : h('p', null, 'No open conflicts.')));
        var decided = d.decided.edges.slice().reverse();
        append(out, h('section', { 'aria-labelledby': 'decided-title' },
          h('h3', { id: 'decided-title' }, 'Decided (' + d.decided.totalCount + (d.decided.totalCount > decided.length ? ', latest ' + decided.length + ' shown' : '') + ')'),
          decided.length ? decided.map(function (e) { return conflictCard(e.node, load, news); }) : h('p', null, 'No decided conflicts.')));
        if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
      }, function (e) { if (v.alive && n === seq) { clear(out); append(out, alertBox(errText(e))); } });
    }
    load();
    var reload = debounce(load, 100);
    v.cleanups.push(live.subscribe('subscription ExplorerConflictChanged { conflictChanged { kind at conflict { id subject predicate } } }', {},
      function (d) {
        var c = d.conflictChanged;
        announce(news, 'Live: conflict ' + c.conflict.id + ' on ' + c.conflict.subject + ' ' + c.conflict.predicate + ' ' + c.kind.toLowerCase() + ' at ' + fmtTime(c.at));
        reload();
      }, reload));
  }

  function candidateLabel(c) {
    return c.__typename === 'Fact' ? c.text : c.subject + ' ' + c.predicate + ' ' + fmtValue(c.object);
  }

  function conflictCard(c, reload, news) {
    var keptId = c.decision && c.decision.kept && c.decision.kept.id;
    var rows = c.candidates.map(function (cd) {
      var isFact = cd.__typename === 'Fact';
      var src = isFact ? sourceText(cd.source) : cd.provenance.author.kind + ' ' + cd.provenance.author.id +
        ', ' + cd.epistemicStatus.toLowerCase() + (cd.provenance.confidence != null ? ', confidence ' + cd.provenance.confidence : '');
      var auth = isFact ? cd.source.authority : cd.authority;
      var target = isFact ? link(historyHref(cd.key), cd.id) : h('span', null, cd.id);
      return h('tr', null,
        h('td', null, target),
        h('td', null, candidateLabel(cd)),
        h('td', null, src),
        h('td', null, auth || 'none'),
        h('td', null, fmtTime(isFact ? cd.recordedAt : cd.createdAt)),
        h('td', null, keptId ? (cd.id === keptId ? 'kept' : 'revoked') : (isFact ? (cd.isValid ? 'valid' : 'not valid') : cd.status.toLowerCase())));
    });
    var table = h('table', null,
      h('caption', null, 'Candidates'),
      h('thead', null, h('tr', null, ['Candidate', 'Value', 'Source', 'Authority', 'Recorded', 'State'].map(function (t) { return h('th', { scope: 'col' }, t); }))),
      h('tbody', null, rows));
    var title = c.subject + ' ' + c.predicate + (c.context ? ' in ' + c.context : '');
    var card = h('article', { class: 'card conflict status-' + c.status.toLowerCase(), id: 'c-' + c.id, 'aria-labelledby': 'ct-' + c.id },
      h('h4', { id: 'ct-' + c.id }, (c.status === 'OPEN' ? 'Open: ' : 'Decided: ') + title),
      dl([['Id', c.id], ['Opened', fmtTime(c.openedAt)], ['Why', c.reason]]),
      table);
    if (c.decision) {
      var kept = c.candidates.filter(function (cd) { return cd.id === keptId; })[0];
      append(card, h('p', { class: 'decision' }, 'Decision ' + c.decision.id + ': kept ' + (kept ? candidateLabel(kept) + ' (' + keptId + ')' : keptId || 'nothing') +
        ', decided by ' + c.decision.actor + (c.decision.policy ? ' (policy ' + c.decision.policy + ')' : '') + ' at ' + fmtTime(c.decision.at) + ': ' + c.decision.reason));
    } else {
      append(card, resolveForm(c, reload, news));
    }
    return card;
  }

  function resolveForm(c, reload, news) {
    var status = h('div');
    var reason = h('input', { id: 'reason-' + c.id, name: 'reason', required: true, maxlength: 1024 });
    var choices = c.candidates.map(function (cd, i) {
      var id = 'keep-' + c.id + '-' + i;
      return h('div', { class: 'choice' }, h('input', { type: 'radio', name: 'keep-' + c.id, id: id, value: cd.id, required: true }),
        h('label', { for: id }, 'Keep ' + candidateLabel(cd) + ' (' + cd.id + ')'));
    });
    var form = h('form', { class: 'resolve', onsubmit: function (ev) {
      ev.preventDefault();
      var picked = form.querySelector('input[type=radio]:checked');
      if (!picked) { clear(status); append(status, alertBox('Choose the candidate to keep.')); return; }
      var btn = form.querySelector('button'); btn.disabled = true;
      gql('mutation ExplorerResolve($id: ID!, $keep: ID!, $reason: String!) { resolveConflict(id: $id, keep: $keep, reason: $reason) { id status } }',
        { id: c.id, keep: picked.value, reason: reason.value }).then(function () {
        announce(news, 'Resolved ' + c.id + '.');
        reload();
      }, function (e) { btn.disabled = false; clear(status); append(status, alertBox('Not resolved: ' + errText(e))); });
    } },
    h('fieldset', null, h('legend', null, 'Resolve ' + c.id), choices,
      h('label', { for: 'reason-' + c.id }, 'Reason'), reason,
      h('button', { type: 'submit' }, 'Resolve')), status);
    return form;
  }

  // ---- Context inspector --------------------------------------------------

  var REASONS = {
    SUPERSEDED: 'superseded: a newer version replaced it',
    EXPIRED: 'expired',
    OUT_OF_SCOPE: 'out of scope (hypothetical, draft or another scope)',
    OVER_BUDGET: 'over budget: it did not fit',
    NEEDS_REVIEW: 'needs review: listed by key, its stale value withheld'
  };

  function contextView(v) {
    heading('Context inspector');
    var query = h('input', { id: 'query', name: 'query', required: true, placeholder: 'what the agent is asked' });
    var budget = h('input', { id: 'budget', name: 'budget', type: 'number', min: 0, max: 1048576, value: 1000, required: true });
    var asOf = h('input', { id: 'ctx-asof', type: 'datetime-local', step: '1' });
    var knownAt = h('input', { id: 'ctx-knownat', type: 'datetime-local', step: '1' });
    var sessionId = h('input', { id: 'session', name: 'session' });
    var out = h('div', { id: 'context', 'aria-live': 'polite' });
    var news = h('p', { id: 'context-news', class: 'news', role: 'status', 'aria-live': 'polite' });
    var last = null;
    var form = h('form', { class: 'card', onsubmit: function (ev) { ev.preventDefault(); run(); } },
      h('div', { class: 'row' }, h('label', { for: 'query' }, 'Query'), query),
      h('div', { class: 'row' }, h('label', { for: 'budget' }, 'Budget (tokens)'), budget),
      h('details', null, h('summary', null, 'As of, session'),
        h('div', { class: 'row' }, h('label', { for: 'ctx-asof' }, 'Valid time (UTC)'), asOf),
        h('div', { class: 'row' }, h('label', { for: 'ctx-knownat' }, 'Recorded time (UTC)'), knownAt),
        h('div', { class: 'row' }, h('label', { for: 'session' }, 'Session id'), sessionId)),
      h('button', { type: 'submit' }, 'Assemble'));
    append(main, [form, news, out]);
    query.focus();
    var seq = 0;
    function run() {
      var n = ++seq;
      var input = { query: query.value, budget: parseInt(budget.value, 10) || 0 };
      if (inputTime(asOf)) input.asOf = inputTime(asOf);
      if (inputTime(knownAt)) input.knownAt = inputTime(knownAt);
      if (sessionId.value.trim()) input.sessionId = sessionId.value.trim();
      last = input;
      clear(out); append(out, h('p', null, 'Assembling…'));
      gql('query ExplorerContext($input: ContextInput!) { assembleContext(input: $input) { text tokens budget withheld notes truncated ' +
        'sections { layer title text tokens } included { id kind layer reason score } excluded { id kind reason } } }', { input: input })
        .then(function (d) {
          var ctx = d.assembleContext;
          return details(ctx, input).then(function (recs) {
            if (!v.alive || n !== seq) return;
            clear(out);
            renderContext(out, ctx, recs);
          });
        }).catch(function (e) { if (v.alive && n === seq) { clear(out); append(out, alertBox(errText(e))); } });
    }
    // The facts and assertions the context names, for their text and
    // source (at most 28 per request: the alias limit is 30).
    function details(ctx, input) {
      var ids = [];
      ctx.included.concat(ctx.excluded).forEach(function (r) {
        if ((r.kind === 'FACT' || r.kind === 'ASSERTION') && !ids.some(function (x) { return x.id === r.id; }) && ids.length < 28) ids.push(r);
      });
      if (!ids.length) return Promise.resolve({});
      var parts = ids.map(function (r, i) {
        return r.kind === 'FACT'
          ? 'r' + i + ': fact(id: ' + JSON.stringify(r.id) + ', asOf: $asOf, knownAt: $knownAt) { id key text source { type authority identity } }'
          : 'r' + i + ': stateAssertion(id: ' + JSON.stringify(r.id) + ', asOf: $asOf, knownAt: $knownAt) { id subject predicate object authority provenance { author { kind id } } }';
      });
      return gql('query ExplorerContextRecords($asOf: Time, $knownAt: Time) { ' + parts.join(' ') + ' }', { asOf: input.asOf || null, knownAt: input.knownAt || null })
        .then(function (d) {
          var out = {};
          Object.keys(d).forEach(function (k) { if (d[k]) out[d[k].id] = d[k]; });
          return out;
        }, function () { return {}; });
    }
    var rerun = debounce(function () { if (last && !last.asOf && !last.knownAt) { announce(news, 'Live: facts changed; the context was assembled again.'); run(); } }, 150);
    v.cleanups.push(live.subscribe('subscription ExplorerContextFacts { factChanged { kind at fact { id } } }', {}, rerun, rerun));
  }

  function recordText(r) {
    if (!r) return '';
    if (r.text) return r.text;
    return r.subject + ' ' + r.predicate + ' ' + fmtValue(r.object);
  }

  function renderContext(out, ctx, recs) {
    append(out, h('p', { class: 'summary' }, ctx.tokens + ' of ' + ctx.budget + ' tokens · ' + ctx.included.length + ' records included · ' +
      ctx.excluded.length + ' excluded · ' + ctx.withheld + ' withheld' + (ctx.truncated ? ' · identity truncated' : '')));
    if (ctx.notes.length) append(out, h('ul', { class: 'notes', 'aria-label': 'Notes' }, ctx.notes.map(function (n) { return h('li', null, n); })));
    // Each line of each section, with the record it came from.
    var rows = [];
    ctx.sections.forEach(function (sec) {
      var recsOfLayer = ctx.included.filter(function (r) { return r.layer === sec.layer; });
      var used = {};
      var lines = sec.text.split('\n').filter(function (l) { return l.trim() !== '' && !/^#/.test(l); });
      rows.push(h('tr', { class: 'section' }, h('th', { scope: 'rowgroup', colspan: 2 }, sec.title + ' (layer ' + sec.layer + ', ' + sec.tokens + ' tokens)')));
      lines.forEach(function (line) {
        var body = line.replace(/^[-*]\s*/, '');
        var rec = null;
        rec = recsOfLayer.filter(function (r) { return !used[r.id] && recs[r.id] && body.indexOf(recordText(recs[r.id])) >= 0; })[0];
        if (!rec && !/^(IDENTITY|ENVIRONMENT)$/.test((recsOfLayer[0] || {}).kind || '')) {
          rec = recsOfLayer.filter(function (r) { return !used[r.id] && !recs[r.id]; })[0];
        }
        var prov;
        if (rec) {
          used[rec.id] = true;
          var d = recs[rec.id];
          prov = [rec.kind.toLowerCase() + ' ', rec.kind === 'FACT' && d ? link(historyHref(d.key), rec.id) : h('code', null, rec.id),
            ' · ' + rec.reason + ' · score ' + rec.score.toFixed(3),
            d && d.source ? ' · source ' + sourceText(d.source) + ', authority ' + (d.source.authority || 'none') : '',
            d && d.provenance ? ' · asserted by ' + d.provenance.author.kind + ' ' + d.provenance.author.id + ', authority ' + (d.authority || 'none') : ''];
        } else {
          var any = recsOfLayer[0];
          prov = any && (any.kind === 'IDENTITY' || any.kind === 'ENVIRONMENT') ? any.kind.toLowerCase() + ' · ' + any.reason : 'layer ' + sec.layer;
        }
        rows.push(h('tr', null, h('td', null, h('code', null, line)), h('td', null, prov)));
      });
    });
    append(out, h('h3', null, 'Prompt, line by line'),
      h('table', { class: 'lines' }, h('caption', null, 'Each line of the assembled context and its provenance'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Provenance'))),
        h('tbody', null, rows)));
    var ex = ctx.excluded.map(function (r) {
      var d = recs[r.id];
      return h('tr', null, h('td', null, r.kind === 'FACT' && d ? link(historyHref(d.key), r.id) : h('code', null, r.id)),
        h('td', null, r.kind.toLowerCase()), h('td', null, d ? recordText(d) : ''), h('td', null, REASONS[r.reason] || r.reason));
    });
    if (ctx.withheld) {
      ex.push(h('tr', null, h('td', null, '—'), h('td', null, 'fact'), h('td', null, ctx.withheld + (ctx.withheld === 1 ? ' fact' : ' facts') + ' of your partitions'),
        h('td', null, 'withheld: restricted from you (only counted, never named)')));
    }
    append(out, h('h3', null, 'Excluded'),
      ex.length ? h('table', { class: 'excluded' }, h('caption', null, 'Everything left out, with the reason'),
        h('thead', null, h('tr', null, ['Record', 'Kind', 'Text', 'Reason'].map(function (t) { return h('th', { scope: 'col' }, t); }))),
        h('tbody', null, ex)) : h('p', null, 'Nothing was left out.'));
    append(out, h('details', null, h('summary', null, 'The prompt as sent'), h('pre', { class: 'prompt' }, ctx.text)));
  }

  // ---- Entities -----------------------------------------------------------

  var ASSERTION = 'id subject predicate object context status epistemicStatus authority validity { mode expiresAt untilEvent } ' +
    'provenance { author { kind id } confidence }';

  function entityView(v, id) {
    heading('Entity ' + id);
    var news = h('p', { id: 'entity-news', class: 'news', role: 'status', 'aria-live': 'polite' });
    var out = h('div', { id: 'entity' }, h('p', null, 'Loading…'));
    append(main, [news, out]);
    var q = 'query ExplorerEntity($id: ID!) { entity(id: $id) { id facts { id key text isValid source { type authority identity } } ' +
      'assertionsAsSubject { ' + ASSERTION + ' } assertionsAsObject { ' + ASSERTION + ' } conflicts { id status subject predicate } } }';
    var seq = 0;
    function load() {
      var n = ++seq;
      return gql(q, { id: id }).then(function (d) {
        if (!v.alive || n !== seq) return;
        clear(out);
        if (!d.entity) { append(out, h('p', null, 'Nothing you can see names ' + id + '.')); return; }
        renderEntity(out, d.entity);
      }, function (e) { if (v.alive && n === seq) { clear(out); append(out, alertBox(errText(e))); } });
    }
    load();
    var reload = debounce(load, 100);
    v.cleanups.push(live.subscribe('subscription ExplorerEntityFacts { factChanged { kind at fact { id text } } }', {},
      function (d) { announce(news, 'Live: fact ' + d.factChanged.kind.toLowerCase() + ': ' + d.factChanged.fact.text); reload(); }, reload));
    v.cleanups.push(live.subscribe('subscription ExplorerEntityAssertions { assertionChanged { kind at assertion { id subject predicate } } }', {},
      function (d) { var a = d.assertionChanged; announce(news, 'Live: assertion ' + a.assertion.subject + ' ' + a.assertion.predicate + ' ' + a.kind.toLowerCase()); reload(); }, reload));
  }

  function entityRef(v) { return typeof v === 'string' && /^[A-Za-z][\w.-]*#[\w.-]+$/.test(v) ? v : null; }

  function renderEntity(out, e) {
    // Nodes around the entity: its facts, the assertions about it (to their
    // object), and the assertions naming it (from their subject).
    var nodes = [];
    e.facts.forEach(function (f) { nodes.push({ kind: 'fact', label: f.text, sub: f.isValid ? 'fact' : 'fact, not valid', href: historyHref(f.key), edge: 'fact', out: true }); });
    e.assertionsAsSubject.forEach(function (a) {
      var obj = entityRef(a.object);
      nodes.push({ kind: 'assertion', label: obj || fmtValue(a.object), sub: a.status.toLowerCase() + ', ' + a.epistemicStatus.toLowerCase(), href: obj ? entityHref(obj) : null, edge: a.predicate, out: true });
    });
    e.assertionsAsObject.forEach(function (a) {
      nodes.push({ kind: 'assertion', label: a.subject, sub: a.status.toLowerCase() + ', ' + a.epistemicStatus.toLowerCase(), href: entityHref(a.subject), edge: a.predicate, out: false });
    });
    var W = 760, H = Math.max(320, 140 + nodes.length * 30), cx = W / 2, cy = H / 2, RX = W / 2 - 100, RY = H / 2 - 40;
    var svg = s('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'entity-graph', role: 'group', 'aria-labelledby': 'eg-title' },
      s('title', { id: 'eg-title' }, 'Entity ' + e.id + ' with its facts and state assertions; listed in words below'),
      s('defs', null, s('marker', { id: 'arrow2', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
        s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }))));
    nodes.forEach(function (n, i) {
      var ang = -Math.PI / 2 + 2 * Math.PI * i / Math.max(1, nodes.length);
      var x = cx + RX * Math.cos(ang), y = cy + RY * Math.sin(ang);
      var from = n.out ? [cx, cy] : [x, y], to = n.out ? [x, y] : [cx, cy];
      append(svg, s('line', { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: 'gedge edge-' + n.kind, 'marker-end': 'url(#arrow2)' }));
      // The label sits past the middle of the edge, clear of the entity.
      var left = x < cx - 1;
      append(svg, s('text', { x: cx + (x - cx) * 0.5 + (left ? -8 : 8), y: cy + (y - cy) * 0.5 - 4, 'text-anchor': left ? 'end' : 'start', class: 'edge-label' }, n.edge));
      var box = s('g', { class: 'node node-' + n.kind },
        s('rect', { x: x - 80, y: y - 18, width: 160, height: 36, rx: n.kind === 'fact' ? 0 : 14 }),
        s('text', { x: x, y: y - 2, 'text-anchor': 'middle', class: 'label' }, truncate(n.label, 24)),
        s('text', { x: x, y: y + 12, 'text-anchor': 'middle', class: 'tick' }, n.sub));
      if (n.href) { var a = s('a', { href: n.href, 'aria-label': n.kind + ' ' + n.label }, box); append(svg, a); } else append(svg, box);
    });
    append(svg, s('g', { class: 'node node-entity' }, s('ellipse', { cx: cx, cy: cy, rx: 80, ry: 26 }),
      s('text', { x: cx, y: cy + 5, 'text-anchor': 'middle', class: 'label' }, e.id)));
    append(out, h('figure', { class: 'diagram' }, svg, h('figcaption', null, 'Square boxes: facts (to their history); round boxes: state assertions, labelled with their predicate; arrows point from subject to object.')));
    append(out, h('h3', null, 'Facts'), e.facts.length ? h('ul', null, e.facts.map(function (f) {
      return h('li', null, link(historyHref(f.key), f.text), ' (' + (f.isValid ? 'valid' : 'not valid') + ', source ' + sourceText(f.source) + ', authority ' + (f.source.authority || 'none') + ')');
    })) : h('p', null, 'No facts name it.'));
    function assertionItem(a) {
      var obj = entityRef(a.object);
      return h('li', null, a.subject === e.id ? e.id : link(entityHref(a.subject), a.subject), ' ' + a.predicate + ' ',
        obj && obj !== e.id ? link(entityHref(obj), obj) : fmtValue(a.object),
        ' (' + a.status.toLowerCase() + ', ' + a.epistemicStatus.toLowerCase() + (a.context ? ', in ' + a.context : '') + ', by ' + a.provenance.author.kind + ' ' + a.provenance.author.id +
        ', authority ' + (a.authority || 'none') + ', ' + a.validity.mode.toLowerCase().replace('_', ' ') + (a.validity.expiresAt ? ' ' + fmtTime(a.validity.expiresAt) : '') + ')');
    }
    var all = e.assertionsAsSubject.concat(e.assertionsAsObject);
    append(out, h('h3', null, 'State assertions'), all.length ? h('ul', null, all.map(assertionItem)) : h('p', null, 'No state assertions name it.'));
    if (e.conflicts.length) {
      append(out, h('h3', null, 'Conflicts'), h('ul', null, e.conflicts.map(function (c) {
        return h('li', null, link('#/conflicts', c.id), ' ' + c.subject + ' ' + c.predicate + ' (' + c.status.toLowerCase() + ')');
      })));
    }
  }

  route();
})();
