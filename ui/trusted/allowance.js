// Both allowances, each in its own unit: Claude's in US dollars (with its price table) and Routstr's in sats (with
// its renewal and accepted mints), each with what was spent, reserved and remains; and the Routstr options. Only
// this window can change them; the chat window shows a read-only meter. Amounts are typed as text and read by the
// host; the figures shown are written here from the host's numbers, in the page's language.
import { invoke } from './ipc.js';
import { setText } from './text.js';
import { t, formatDateTime, formatUsd, usdAmounts } from '../js/l10n.js';

const $ = (id) => document.getElementById(id);
const sats = (n) => t('trusted-sats', { sats: Number(n) });
// A renewal period in words; one the page does not know is shown as the host named it.
const PERIODS = {
  never: 'trusted-period-never', daily: 'trusted-period-daily', weekly: 'trusted-period-weekly', monthly: 'trusted-period-monthly',
};
const period = (name) => (PERIODS[name] ? t(PERIODS[name]) : name);
// The period an allowance is saved for, as it ends "Saved: $5.00 daily."
const PER = { never: 'trusted-per-never', daily: 'trusted-per-daily', weekly: 'trusted-per-weekly', monthly: 'trusted-per-monthly' };
// Date and time as toLocaleString() writes them, in the page's language.
const when = (ms) => formatDateTime(new Date(ms), {
  year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
});
// "never (one-off)", or the period with the next renewal.
const renews = (name, atMs) => (name === 'never' ? t('trusted-period-never')
  : atMs ? t('trusted-renews-next', { period: period(name), date: when(atMs) }) : period(name));
let redraw = () => {};
let drawnOnce = false;
let prices = [];

// `data`: the host's own message (an error, its notices), shown as it is (see text.js).
function status(id, text, kind = '', data = false) {
  setText($(id), text, data);
  $(id).className = `status ${kind}`;
}

/** Draws the allowance and Routstr parts of a settings view. The form is filled only once, so a poll never
 *  overwrites what the owner is typing. */
export function draw(view) {
  const b = view.budget;
  const used = b.allowance_sats > 0 ? Math.min(1, (b.spent_sats + b.reserved_sats) / b.allowance_sats) : 0;
  $('budget-fill').style.width = `${used * 100}%`;
  $('budget-bar').setAttribute('aria-valuenow', String(Math.round(used * 100)));
  $('budget-spent').textContent = sats(b.spent_sats);
  $('budget-reserved').textContent = sats(b.reserved_sats);
  $('budget-remaining').textContent = t('trusted-amount-of', { amount: sats(b.remaining_sats), allowance: sats(b.allowance_sats) });
  $('budget-renews').textContent = renews(b.period, b.renews_at_ms);
  if (b.notices.length) status('budget-status', b.notices.join(' '), 'error', true);
  const free = b.free_answers;
  $('budget-free-answers').hidden = !free || !free.since_ms;
  if (free) $('budget-free-answers').textContent = t('trusted-free-answers', { local: free.local, builtin: free.builtin });
  drawClaude(view);
  if (!drawnOnce) {
    drawnOnce = true;
    fill(view);
    fillClaude(view);
  }
  drawDiscovery(view.routstr.discovery);
  // The wallet form offers the first accepted mint to fund.
  if (!$('invoice-mint').value && b.accepted_mints.length) $('invoice-mint').value = b.accepted_mints[0];
}


/** Claude's allowance and price table. The LAN service's settings carry the allowance's figures but no price table:
 *  there they are shown read only, and the owner is pointed at the node's terminal to change them. */
function drawClaude(view) {
  const host = view.budget.claude;
  $('claude-section').hidden = !host || !host.allowance;
  if ($('claude-section').hidden) return;
  const c = usdAmounts(host);
  const editable = Boolean(view.claude_prices);
  $('claude-editing').hidden = !editable;
  $('claude-set-on-node').hidden = editable;
  const used = c.allowance_usd_micros > 0
    ? Math.min(1, (c.spent_usd_micros + c.reserved_usd_micros) / c.allowance_usd_micros) : 0;
  $('claude-budget-fill').style.width = `${used * 100}%`;
  $('claude-budget-bar').setAttribute('aria-valuenow', String(Math.round(used * 100)));
  $('claude-budget-bar').setAttribute('aria-valuetext', t('trusted-claude-bar-text', { spent: c.spent, allowance: c.allowance }));
  // The host's figures, written the page's way.
  setText($('claude-budget-spent'), c.spent, true);
  setText($('claude-budget-reserved'), c.reserved, true);
  setText($('claude-budget-remaining'), c.allowance_usd_micros > 0
    ? t('trusted-amount-of', { amount: c.remaining, allowance: c.allowance })
    : t('trusted-claude-off', { allowance: c.allowance }));
  $('claude-budget-renews').textContent = renews(c.period, c.renews_at_ms);
  $('claude-budget-notice').textContent = c.notice_80 ? t('trusted-claude-notice-80') : '';
  $('claude-budget-notice').hidden = !c.notice_80;
  if (!editable) return;
  const table = view.claude_prices;
  prices = table.models;
  $('prices-source').textContent = t('trusted-prices-source', { taken: table.taken_on, source: table.source });
  $('prices-error').textContent = table.error || '';
  $('prices-error').hidden = !table.error;
  $('prices-rows').replaceChildren(...prices.map((m) => {
    const row = document.createElement('tr');
    const name = document.createElement('td');
    name.className = 'mono';
    // The model's id is data, the mark beside it this window's words: each in its own element.
    const id = document.createElement('span');
    id.textContent = m.model;
    id.translate = false;
    name.append(id);
    if (m.set_by_owner) {
      const mark = document.createElement('span');
      mark.className = 'pill set';
      mark.textContent = t('trusted-price-set-by-you');
      name.append(mark);
    }
    if (m.long_context) {
      const c = m.long_context;
      name.title = t('trusted-price-long-context', { above: c.above, input: c.input, output: c.output, cacheWrite: c.cache_write, cacheRead: c.cache_read });
    }
    row.append(name, ...[m.input, m.output, m.cache_write, m.cache_read].map((price) => {
      const cell = document.createElement('td');
      cell.textContent = price;
      cell.translate = false;
      return cell;
    }));
    return row;
  }));
  $('price-models').replaceChildren(...prices.map((m) => {
    const option = document.createElement('option');
    option.value = m.model;
    return option;
  }));
}

function fillClaude(view) {
  const c = view.budget.claude;
  if (!c || !c.allowance) return;
  $('claude-budget-amount').value = c.allowance;
  $('claude-budget-period').value = c.period;
}

// Choosing a listed model puts its prices in the form, as the host wrote them, to correct one figure.
function pickModel() {
  const chosen = prices.find((m) => m.model === $('price-model').value.trim());
  if (!chosen) return;
  $('price-input').value = chosen.input;
  $('price-output').value = chosen.output;
  $('price-cache-write').value = chosen.cache_write;
  $('price-cache-read').value = chosen.cache_read;
}

async function saveClaude(event) {
  event.preventDefault();
  status('claude-budget-status', t('trusted-saving'));
  try {
    const view = await invoke('trusted_set_claude_allowance', {
      allowanceUsd: $('claude-budget-amount').value, period: $('claude-budget-period').value,
    });
    fillClaude(view);
    redraw(view);
    const c = view.budget.claude;
    status('claude-budget-status', c.allowance_usd_micros > 0
      ? t('trusted-claude-saved', { allowance: formatUsd(c.allowance_usd_micros), period: PER[c.period] ? t(PER[c.period]) : c.period })
      : t('trusted-claude-saved-off'), 'ok');
  } catch (error) {
    status('claude-budget-status', error.message, 'error', true);
  }
}

async function savePrice(event) {
  event.preventDefault();
  const model = $('price-model').value.trim();
  status('price-status', t('trusted-saving'));
  try {
    const view = await invoke('trusted_set_claude_price', {
      model,
      input: $('price-input').value,
      output: $('price-output').value,
      cacheWrite: $('price-cache-write').value,
      cacheRead: $('price-cache-read').value,
    });
    redraw(view);
    status('price-status', t('trusted-price-saved', { model }), 'ok');
  } catch (error) {
    status('price-status', error.message, 'error', true);
  }
}

/** What the last discovery found: per relay and per event, as text (never markup from a relay or provider). */
function drawDiscovery(lines) {
  const list = $('discovery-report');
  // The report's lines are the host's; the line for no report is this window's.
  const shown = lines.length ? lines : [t('trusted-discovery-none')];
  list.replaceChildren(...shown.map((line) => {
    const item = document.createElement('li');
    item.textContent = line;
    if (lines.length) item.translate = false;
    return item;
  }));
}

function fill(view) {
  $('budget-allowance').value = String(view.budget.allowance_sats);
  $('budget-period').value = view.budget.period;
  $('budget-mints').value = view.budget.accepted_mints.join('\n');
  $('routstr-reviewed').checked = view.routstr.reviewed_only;
  $('routstr-tor').value = view.routstr.tor_socks || '';
  $('routstr-reviewer').value = view.routstr.reviewer || '';
}

async function saveAllowance(event) {
  event.preventDefault();
  const text = $('budget-allowance').value.trim();
  if (!/^\d+$/.test(text)) {
    status('budget-status', t('trusted-allowance-whole'), 'error');
    return;
  }
  const acceptedMints = $('budget-mints').value.split('\n').map((m) => m.trim()).filter(Boolean);
  status('budget-status', t('trusted-saving'));
  try {
    const view = await invoke('trusted_set_allowance', {
      allowanceSats: Number(text), period: $('budget-period').value, acceptedMints,
    });
    fill(view);
    redraw(view);
    status('budget-status', Number(text) > 0 && !acceptedMints.length
      ? t('trusted-allowance-saved-no-mint')
      : t('trusted-saved-next-message'), 'ok');
  } catch (error) {
    status('budget-status', error.message, 'error', true);
  }
}

async function saveRoutstr(event) {
  event.preventDefault();
  status('routstr-status', t('trusted-saving'));
  try {
    const view = await invoke('trusted_set_routstr', {
      reviewedOnly: $('routstr-reviewed').checked,
      torSocks: $('routstr-tor').value.trim() || null,
      reviewer: $('routstr-reviewer').value.trim() || null,
    });
    fill(view);
    redraw(view);
    status('routstr-status', t('trusted-saved-next-message'), 'ok');
  } catch (error) {
    status('routstr-status', error.message, 'error', true);
  }
}

/** `onView` redraws the whole settings page from the view a command returns. */
export function init(onView) {
  redraw = onView;
  $('budget-form').addEventListener('submit', saveAllowance);
  $('routstr-form').addEventListener('submit', saveRoutstr);
  $('claude-budget-form').addEventListener('submit', saveClaude);
  $('price-form').addEventListener('submit', savePrice);
  $('price-model').addEventListener('input', pickModel);
}
