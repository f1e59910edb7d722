// stategraph.js renders GraphiQL from the configuration the page embeds
// (see package graphiql): the endpoint, the example tabs and the headers
// prefilled in each, kept in a localStorage namespace of their own.
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('stategraph-config').textContent);
  var headers = config.headers ? JSON.stringify(config.headers, null, 2) : '';
  var tabs = config.tabs.map(function (t) {
    return { query: t.query, variables: t.variables || undefined, headers: headers };
  });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: GraphiQL.createFetcher({ url: config.endpoint }),
      defaultTabs: tabs,
      defaultHeaders: headers,
      shouldPersistHeaders: true,
      defaultEditorToolsVisibility: headers ? 'headers' : false,
      storage: GraphiQL.createLocalStorage({ namespace: config.storageNamespace }),
    }),
  );
})();
