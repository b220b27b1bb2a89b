// A self-contained API reference page for /docs: it reads /openapi.json and renders every operation
// with its parameters, request body, responses and a curl example, then the outgoing POSTs of its
// `webhooks` section, with a search box over all of them. No external scripts, fonts or styles
// (docs/decisions/0008-api-reference-page.md weighs it against Redoc and Scalar).
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchboard API reference</title>
<style>
  :root { color-scheme: light dark; --fg: #1b1f24; --muted: #59636e; --line: #d1d9e0; --bg: #fff; --code: #f6f8fa; }
  @media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --bg: #0d1117; --code: #151b23; } }
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
  header { padding: 24px 32px; border-bottom: 1px solid var(--line); }
  main { display: grid; grid-template-columns: 260px 1fr; }
  nav { padding: 16px; border-right: 1px solid var(--line); position: sticky; top: 0; height: 100vh; overflow: auto; }
  nav a { display: block; color: inherit; text-decoration: none; font-size: 13px; padding: 2px 0; }
  section.op, section.webhook { padding: 20px 32px; border-bottom: 1px solid var(--line); }
  h2.group { padding: 20px 32px 0; margin: 0; } nav h3 { font-size: 13px; margin: 12px 0 4px; }
  .method { display: inline-block; min-width: 64px; font: 600 12px ui-monospace, monospace; padding: 2px 8px; border-radius: 4px; color: #fff; text-align: center; }
  .GET { background: #1f6feb; } .POST { background: #1a7f37; } .PUT { background: #9a6700; } .DELETE { background: #cf222e; }
  code, pre { font: 13px ui-monospace, monospace; background: var(--code); border-radius: 4px; }
  pre { padding: 12px; overflow: auto; }
  .path { font: 600 15px ui-monospace, monospace; margin-left: 8px; }
  .muted { color: var(--muted); }
  #search { width: 100%; box-sizing: border-box; padding: 6px 8px; margin-bottom: 8px; font: inherit; font-size: 13px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: inherit; }
  [hidden] { display: none !important; }
  table { border-collapse: collapse; margin: 8px 0; } td, th { border: 1px solid var(--line); padding: 4px 8px; text-align: left; font-size: 13px; }
</style>
</head>
<body>
<header><h1 id="title">Switchboard API reference</h1><p id="description" class="muted">Loading…</p></header>
<main><nav id="nav"><input id="search" type="search" placeholder="Search operations and fields" aria-label="Search operations and fields"></nav><div id="ops"></div></main>
<script>
(async () => {
  const doc = await (await fetch('openapi.json')).json();
  const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  // Follows a local $ref (#/components/...) of the document.
  const resolve = (s) => (s && s.$ref ? s.$ref.slice(2).split('/').reduce((o, k) => (o ? o[k] : undefined), doc) : s);
  const schemaName = (s) => (s && s.$ref ? s.$ref.split('/').pop() : s && s.type === 'array' && s.items && s.items.$ref ? s.items.$ref.split('/').pop() + '[]' : s && s.type);
  const typeOf = (s) => (s.const !== undefined ? JSON.stringify(s.const) : JSON.stringify(s.enum || s.type || ''));
  // One row per field; fields of nested objects (session.from.id) follow their parent.
  const fieldRows = (schema, prefix, depth) => Object.entries(schema.properties || {}).map(([k, v]) => {
    const r = resolve(v) || {};
    const row = '<tr><td><code>' + esc(prefix + k) + '</code>' + ((schema.required || []).includes(k) ? ' *' : '') + '</td><td>' + esc(typeOf(r)) + '</td><td>' + esc(v.description || r.description || '') + '</td></tr>';
    return row + (r.properties && depth < 3 ? fieldRows(r, prefix + k + '.', depth + 1) : '');
  }).join('');
  // A JSON example of a schema: its example, default or first enum value, else a placeholder of its type.
  const sample = (schema, depth) => {
    const s = resolve(schema) || {};
    if (s.example !== undefined) return s.example;
    if (s.default !== undefined) return s.default;
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[0];
    if (s.properties && depth < 3) return Object.fromEntries(Object.entries(s.properties).filter(([k]) => (s.required || []).includes(k) || depth === 0).map(([k, v]) => [k, sample(v, depth + 1)]));
    const t = Array.isArray(s.type) ? s.type[0] : s.type;
    return t === 'array' ? [] : t === 'integer' || t === 'number' ? 0 : t === 'boolean' ? true : t === 'object' ? {} : 'string';
  };
  const server = (doc.servers && doc.servers[0] && doc.servers[0].url) || '';
  const curl = (M, path, body) => 'curl -u USERNAME:PASSWORD -X ' + M + " '" + server + path + "'" + (body ? " \\\n  -H 'Content-Type: application/json' \\\n  -d '" + JSON.stringify(sample(body, 0)).replace(/'/g, "'\\''") + "'" : '');
  document.getElementById('title').textContent = doc.info.title + ' ' + doc.info.version;
  document.getElementById('description').textContent = doc.info.description;
  const nav = document.getElementById('nav');
  const ops = document.getElementById('ops');
  let n = 0;
  const render = (kind, name, label, item, method, op) => {
    const id = 'op-' + n++;
    const M = method.toUpperCase();
    nav.insertAdjacentHTML('beforeend', '<a data-for="' + id + '" href="#' + id + '"><span class="method ' + M + '">' + M + '</span> ' + esc(label) + '</a>');
    const params = [...(item.parameters || []), ...(op.parameters || [])].map(resolve);
    const body = op.requestBody && op.requestBody.content['application/json'].schema;
    const bodySchema = resolve(body);
    let html = '<section class="' + kind + '" id="' + id + '" data-' + (kind === 'op' ? 'operation' : 'webhook') + '="' + esc(name) + '"><h2><span class="method ' + M + '">' + M + '</span><span class="path">' + esc(label) + '</span></h2>';
    html += '<p>' + esc(op.summary) + ' <span class="muted">(' + esc((op.tags || []).join(', ')) + ')</span></p>';
    if (op.description) html += '<p class="muted">' + esc(op.description) + '</p>';
    if (params.length) html += '<table><tr><th>parameter</th><th>in</th><th>description</th></tr>' + params.map((p) => '<tr><td><code>' + esc(p.name) + '</code></td><td>' + esc(p.in) + '</td><td>' + esc(p.description || '') + '</td></tr>').join('') + '</table>';
    if (bodySchema) {
      html += '<p>' + (kind === 'op' ? 'Request body' : 'Body') + ' <code>' + esc(schemaName(body)) + '</code> ' + esc(bodySchema.description || '') + '</p>';
      html += '<table><tr><th>field</th><th>type</th><th>description</th></tr>' + fieldRows(bodySchema, '', 1) + '</table>';
    }
    if (kind === 'op') html += '<pre class="curl">' + esc(curl(M, label, body)) + '</pre>';
    html += '<table><tr><th>' + (kind === 'op' ? 'status' : 'your answer') + '</th><th>body</th><th>meaning</th></tr>' + Object.entries(op.responses).map(([code, r]) => {
      const c = r.content ? Object.entries(r.content)[0] : undefined;
      return '<tr><td>' + esc(code) + '</td><td>' + (c ? '<code>' + esc(c[0]) + ' ' + esc(schemaName(c[1].schema)) + '</code>' : '') + '</td><td>' + esc(r.description) + '</td></tr>';
    }).join('') + '</table></section>';
    ops.insertAdjacentHTML('beforeend', html);
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'delete']) {
      if (item[method]) render('op', item[method].operationId, path, item, method, item[method]);
    }
  }
  const webhooks = Object.entries(doc.webhooks || {});
  if (webhooks.length) {
    nav.insertAdjacentHTML('beforeend', '<h3>Outgoing POSTs</h3>');
    ops.insertAdjacentHTML('beforeend', '<h2 class="group" id="webhooks">Outgoing POSTs (webhooks)</h2>');
  }
  let w = 0;
  for (const [name, item] of webhooks) {
    for (const method of ['post']) {
      if (item[method]) { render('webhook', name, 'webhook: ' + name, item, method, item[method]); w++; }
    }
  }
  // Search: every word must appear in an operation's text (method, path, summary, fields, responses).
  const sections = [...ops.querySelectorAll('section')].map((el) => ({ el, link: nav.querySelector('a[data-for="' + el.id + '"]'), text: el.textContent.toLowerCase() }));
  document.getElementById('search').addEventListener('input', (e) => {
    const words = e.target.value.toLowerCase().split(/\\s+/).filter(Boolean);
    for (const s of sections) s.el.hidden = s.link.hidden = !words.every((w) => s.text.includes(w));
  });
  document.body.dataset.webhooks = String(w);
  document.body.dataset.operations = String(n - w);
})().catch((e) => { document.getElementById('description').textContent = 'Could not load openapi.json: ' + e; });
</script>
</body>
</html>
`;
