#!/bin/sh
# update-assets.sh refreshes the GraphiQL assets embedded in the binary:
# the UMD builds of GraphiQL 3 and React 18 (React 19 and GraphiQL 4 ship
# no UMD builds), gzipped, with the licence of every package the bundles
# contain. Run it from anywhere; it needs npm and network access once.
set -eu
GRAPHIQL_VERSION=3.8.3
REACT_VERSION=18.3.1
dir=$(cd "$(dirname "$0")" && pwd)/assets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm init -y >/dev/null
# @babel/runtime, graphql-ws and isarray are bundled in graphiql.min.js but
# are not dependencies of the package: installed for their licences only.
npm install --no-audit --no-fund --silent "graphiql@$GRAPHIQL_VERSION" "react@$REACT_VERSION" "react-dom@$REACT_VERSION" \
	@babel/runtime graphql-ws isarray
nm=node_modules
# The source maps are not shipped: drop the comments that point to them.
grep -v '^//# sourceMappingURL=' $nm/graphiql/graphiql.min.js | gzip -9nc >"$dir/graphiql.min.js.gz"
sed 's|/\*# sourceMappingURL=[^*]*\*/||' $nm/graphiql/graphiql.min.css | gzip -9nc >"$dir/graphiql.min.css.gz"
gzip -9nc $nm/react/umd/react.production.min.js >"$dir/react.production.min.js.gz"
gzip -9nc $nm/react-dom/umd/react-dom.production.min.js >"$dir/react-dom.production.min.js.gz"
# The licences of graphiql, react, react-dom and of every package whose
# code the GraphiQL bundle holds (read from its source map).
node - "$dir/THIRD_PARTY_LICENSES" <<'JS'
const fs = require('fs'), path = require('path');
const map = JSON.parse(fs.readFileSync('node_modules/graphiql/graphiql.min.js.map', 'utf8'));
const pkgs = new Set(['graphiql', 'react', 'react-dom', '@graphiql/react', '@graphiql/toolkit', 'codemirror-graphql']);
for (const s of map.sources) {
  const i = s.lastIndexOf('node_modules/');
  if (i < 0) continue;
  const parts = s.slice(i + 13).split('/');
  pkgs.add(parts[0].startsWith('@') ? parts[0] + '/' + parts[1] : parts[0]);
}
const find = (name) => {
  for (const base of ['node_modules', 'node_modules/graphiql/node_modules', 'node_modules/@graphiql/react/node_modules']) {
    const p = path.join(base, name);
    if (fs.existsSync(path.join(p, 'package.json'))) return p;
  }
  return null;
};
let out = 'Licences of the packages whose code is in the embedded GraphiQL assets.\n';
for (const name of [...pkgs].sort()) {
  const dir = find(name);
  if (!dir) { out += `\n==== ${name}: not installed\n`; continue; }
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const lic = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  out += `\n==== ${name}@${pj.version} (${pj.license || 'see text'})\n\n`;
  out += lic ? fs.readFileSync(path.join(dir, lic), 'utf8').trim() + '\n' : '(no licence file in the package)\n';
}
fs.writeFileSync(process.argv[2], out);
JS
echo "graphiql $GRAPHIQL_VERSION, react $REACT_VERSION" >"$dir/VERSIONS"
ls -l "$dir"
