// Surfaces: cards drawn from typed tool-result data. The model supplies values, never markup; every value goes in
// with textContent.

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// Host and node text marks names with backticks; they are shown as code, not as literal backticks.
function codeSpans(text) {
  return el('span', {}, ...String(text).split(/(`[^`\n]+`)/).filter(Boolean)
    .map((part) => (/^`[^`]+`$/.test(part) ? el('code', {}, part.slice(1, -1)) : part)));
}

function card(title, ...body) {
  return el('section', { class: 'card glass', 'aria-label': title }, el('h3', {}, title), ...body);
}

function stateChip(state) {
  return el('span', { class: `state ${String(state).replace(/[^a-z-]/g, '')}` }, state);
}

function table(headers, rows) {
  const head = el('tr', {}, ...headers.map((h) => el('th', { scope: 'col' }, h)));
  const body = rows.map((cells) => el('tr', {}, ...cells.map((c) => el('td', {}, c))));
  return el('table', {}, el('thead', {}, head), el('tbody', {}, ...body));
}

function kv(pairs) {
  const dl = el('dl', { class: 'kv' });
  for (const [key, value] of pairs) dl.append(el('dt', {}, key), el('dd', {}, value));
  return dl;
}

function bar(fraction, label) {
  const fill = el('span');
  fill.style.width = `${Math.max(0, Math.min(1, Number(fraction) || 0)) * 100}%`;
  return el('div', { class: 'bar', role: 'progressbar', 'aria-label': label, 'aria-valuemin': '0', 'aria-valuemax': '100',
    'aria-valuenow': String(Math.round((Number(fraction) || 0) * 100)) }, fill);
}

// A node may leave any of these out (its shapes drift); what it did not send shows as unknown, never as 0.
const UNKNOWN = 'unknown';
const known = (value, show = String) => (value == null ? UNKNOWN : show(value));
const gb = (bytes) => known(bytes, (b) => `${(Number(b) / 1e9).toFixed(1)} GB`);
const yesNo = (flag) => known(flag, (f) => (f ? 'yes' : 'no'));
const progressOf = (info) => info.verificationprogress
  ?? (info.headers ? Math.min(1, Number(info.blocks) / Number(info.headers)) : null);

const RENDERERS = {
  package_list: (s) => card('Apps on the node', table(['App', 'Version', 'State'],
    (s.packages || []).map((p) => [`${p.title || p.id}`, p.version || '', stateChip(p.state)]))),
  package_card: ({ package: p }) => card(p.title || p.id, kv([
    ['App', p.id], ['Version', p.version || ''], ['State', stateChip(p.state)],
    ...(p.exit_code != null ? [['Exit code', String(p.exit_code)]] : []),
    ...(p.health ? [['Health', p.health]] : []),
  ])),
  log_tail: (s) => card(`Log: ${s.app}`, el('pre', { class: 'mono', tabindex: '0' }, (s.lines || []).join('\n'))),
  bitcoin_sync: ({ info }) => card('Bitcoin sync', bar(progressOf(info), 'Verification progress'), kv([
    ['Progress', known(progressOf(info), (p) => `${(Number(p) * 100).toFixed(2)} %`)],
    ['Blocks', `${info.blocks} of ${known(info.headers)}`], ['Chain', info.chain],
    ['Initial download', yesNo(info.initialblockdownload)], ['On disk', gb(info.size_on_disk)],
  ])),
  lightning_info: ({ info }) => card('Lightning (LND)', kv([
    ['Alias', known(info.alias)], ['Active channels', known(info.num_active_channels)],
    ['Peers', known(info.num_peers)], ['Synced to chain', yesNo(info.synced_to_chain)],
    ['Block height', known(info.block_height)],
  ])),
  system_stats: ({ stats }) => card('System', kv([
    ['CPU', known(stats.cpu_percent, (c) => `${Number(c).toFixed(0)} %`)],
    ['Memory', `${gb(stats.mem_used)} of ${gb(stats.mem_total)}`],
    ['Disk', `${gb(stats.disk_used)} of ${gb(stats.disk_total)}`],
    ...(stats.temperature_c != null ? [['Temperature', `${stats.temperature_c} °C`]] : []),
    ['Uptime', known(stats.uptime_s, (s) => `${Math.floor(Number(s) / 3600)} h`)],
  ]), bar(stats.disk_total ? Number(stats.disk_used) / Number(stats.disk_total) : 0, 'Disk used')),
  mint_list: (s) => card('Cashu mints', table(['Mint', 'Unit', 'Trusted'],
    (s.mints || []).map((m) => [m.url, m.unit, m.trusted == null ? 'not stated' : yesNo(m.trusted)]))),
  action_receipt: (s) => card('Action done', kv([
    ['App', s.app], ['Action', s.tool], ['Node method', el('code', {}, s.rpc_method)], ['Outcome', codeSpans(s.outcome)],
    // The LAN chat gets no request id (it is the trusted side's): the row is left out there.
    ...(s.request_id ? [['Confirmation', el('code', {}, String(s.request_id).slice(0, 12))]] : []),
  ])),
};

/** A card for one surface; an unknown kind is shown as plain key/value text. */
export function renderSurface(surface) {
  const render = surface && RENDERERS[surface.kind];
  if (render) {
    try {
      return render(surface);
    } catch (error) {
      console.warn('surface', surface.kind, error);
    }
  }
  const pairs = Object.entries(surface || {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  return card('Result', kv(pairs));
}

/** One line that says what a drawn card holds (its title, then its row count or its first facts), for the
 *  announcement of a new card: the card itself is read in full only when the owner goes to it. */
export function surfaceSummary(element) {
  const title = element.querySelector('h3');
  const parts = [title ? title.textContent : 'Result'];
  const rows = element.querySelectorAll('tbody tr').length;
  if (rows) parts.push(`${rows} ${rows === 1 ? 'row' : 'rows'}`);
  const facts = [...element.querySelectorAll('.kv dt')].slice(0, 3)
    .map((dt) => `${dt.textContent} ${dt.nextElementSibling ? dt.nextElementSibling.textContent : ''}`.trim());
  if (facts.length) parts.push(facts.join(', '));
  return `${parts.join(': ')}.`;
}
