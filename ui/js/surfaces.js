// Surfaces: cards drawn from typed tool-result data. The model supplies values, never markup; every value goes in
// with textContent.
import { t, pageLang, formatNumber, stateName } from './l10n.js';

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// A value the node (or the model) sent, marked as data: never the host's words. A plain string in a card is the host's.
const data = (value, tag = 'span') => el(tag, { translate: 'no' }, value instanceof Node ? value : String(value));

// Host and node text marks names with backticks; they are shown as code, not as literal backticks.
function codeSpans(text) {
  return el('span', {}, ...String(text).split(/(`[^`\n]+`)/).filter(Boolean)
    .map((part) => (/^`[^`]+`$/.test(part) ? el('code', {}, part.slice(1, -1)) : part)));
}

// `title` is the host's words; a title that is the node's (an app's name) comes as data(…).
function card(title, ...body) {
  const name = title instanceof Node ? title.textContent : title;
  return el('section', { class: 'card glass', 'aria-label': name }, title instanceof Node ? data(title.textContent, 'h3') : el('h3', {}, title), ...body);
}

function stateChip(state) {
  return el('span', { class: `state ${String(state).replace(/[^a-z-]/g, '')}`, translate: 'no' }, stateName(state));
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

// A node may leave any of these out (its shapes drift); what it did not send shows as unknown, never as 0. A value it
// did send is data, unless `show` writes it in the host's words (a unit, yes or no).
const known = (value, show = data) => (value == null ? t('chat-unknown') : show(value));
const decimals = (digits) => ({ minimumFractionDigits: digits, maximumFractionDigits: digits });
const gbOf = (bytes) => t('chat-gb', { amount: formatNumber(Number(bytes) / 1e9, decimals(1)) });
const gb = (bytes) => known(bytes, gbOf);
const yesNo = (flag) => known(flag, (f) => (f ? t('chat-yes') : t('chat-no')));
const percent = (value, digits) => t('chat-percent', { percent: formatNumber(Number(value), decimals(digits)) });
const progressOf = (info) => info.verificationprogress
  ?? (info.headers ? Math.min(1, Number(info.blocks) / Number(info.headers)) : null);

// The node accepted the act: said in the owner's words, with the state it then reported as the node's own. A receipt
// stored before the state was kept (its outcome is English prose) is shown as it was stored.
function receiptOutcome(s) {
  if (s.state != null) return el('span', {}, t('chat-outcome-accepted'), ' ', stateChip(s.state));
  return s.outcome === 'accepted' ? t('chat-outcome-accepted') : data(codeSpans(s.outcome));
}

const RENDERERS = {
  package_list: (s) => card(t('chat-card-apps'), table([t('chat-field-app'), t('chat-field-version'), t('chat-field-state')],
    (s.packages || []).map((p) => [data(`${p.title || p.id}`), data(p.version || ''), stateChip(p.state)]))),
  package_card: ({ package: p }) => card(data(p.title || p.id), kv([
    [t('chat-field-app'), data(p.id)], [t('chat-field-version'), data(p.version || '')], [t('chat-field-state'), stateChip(p.state)],
    ...(p.exit_code != null ? [[t('chat-field-exit-code'), data(String(p.exit_code))]] : []),
    ...(p.health ? [[t('chat-field-health'), data(p.health)]] : []),
  ])),
  log_tail: (s) => card(t('chat-card-log', { app: s.app }), el('pre', { class: 'mono', tabindex: '0', translate: 'no' }, (s.lines || []).join('\n'))),
  bitcoin_sync: ({ info }) => card(t('chat-card-bitcoin-sync'), bar(progressOf(info), t('chat-bar-verification')), kv([
    [t('chat-field-progress'), known(progressOf(info), (p) => percent(Number(p) * 100, 2))],
    // Block heights as the node counts them: digits only, no grouping.
    [t('chat-field-blocks'), t('chat-blocks-of', { blocks: String(info.blocks), headers: info.headers == null ? t('chat-unknown') : String(info.headers) })],
    [t('chat-field-chain'), data(info.chain)],
    [t('chat-field-initial-download'), yesNo(info.initialblockdownload)], [t('chat-field-on-disk'), gb(info.size_on_disk)],
  ])),
  lightning_info: ({ info }) => card(t('chat-card-lightning'), kv([
    [t('chat-field-alias'), known(info.alias)], [t('chat-field-active-channels'), known(info.num_active_channels)],
    [t('chat-field-peers'), known(info.num_peers)], [t('chat-field-synced'), yesNo(info.synced_to_chain)],
    [t('chat-field-block-height'), known(info.block_height)],
  ])),
  system_stats: ({ stats }) => card(t('chat-card-system'), kv([
    [t('chat-field-cpu'), known(stats.cpu_percent, (c) => percent(c, 0))],
    [t('chat-field-memory'), t('chat-amount-of', { used: gb(stats.mem_used), total: gb(stats.mem_total) })],
    [t('chat-field-disk'), t('chat-amount-of', { used: gb(stats.disk_used), total: gb(stats.disk_total) })],
    ...(stats.temperature_c != null ? [[t('chat-field-temperature'), t('chat-celsius', { degrees: formatNumber(Number(stats.temperature_c)) })]] : []),
    [t('chat-field-uptime'), known(stats.uptime_s, (s) => t('chat-hours', { hours: Math.floor(Number(s) / 3600) }))],
  ]), bar(stats.disk_total ? Number(stats.disk_used) / Number(stats.disk_total) : 0, t('chat-bar-disk'))),
  mint_list: (s) => card(t('chat-card-mints'), table([t('chat-field-mint'), t('chat-field-unit'), t('chat-field-trusted')],
    (s.mints || []).map((m) => [data(m.url), data(m.unit), m.trusted == null ? t('chat-not-stated') : yesNo(m.trusted)]))),
  action_receipt: (s) => card(t('chat-card-action'), kv([
    [t('chat-field-app'), data(s.app)], [t('chat-field-action'), data(s.tool)],
    [t('chat-field-node-method'), el('code', { translate: 'no' }, s.rpc_method)],
    [t('chat-field-outcome'), receiptOutcome(s)],
    // The LAN chat gets no request id (it is the trusted side's): the row is left out there.
    ...(s.request_id ? [[t('chat-field-confirmation'), el('code', { translate: 'no' }, String(s.request_id).slice(0, 12))]] : []),
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
  const pairs = Object.entries(surface || {}).map(([k, v]) => [data(k), data(typeof v === 'string' ? v : JSON.stringify(v))]);
  return card(t('chat-card-result'), kv(pairs));
}

/** One line that says what a drawn card holds (its title, then its row count or its first facts), for the
 *  announcement of a new card: the card itself is read in full only when the owner goes to it. */
export function surfaceSummary(element) {
  const title = element.querySelector('h3');
  const parts = [title ? title.textContent : t('chat-card-result')];
  const rows = element.querySelectorAll('tbody tr').length;
  if (rows) {
    const form = new Intl.PluralRules(pageLang()).select(rows) === 'one' ? 'chat-summary-rows-one' : 'chat-summary-rows-other';
    parts.push(t(form, { count: rows }));
  }
  const facts = [...element.querySelectorAll('.kv dt')].slice(0, 3)
    .map((dt) => `${dt.textContent} ${dt.nextElementSibling ? dt.nextElementSibling.textContent : ''}`.trim());
  if (facts.length) parts.push(facts.join(', '));
  return `${parts.join(': ')}.`;
}
