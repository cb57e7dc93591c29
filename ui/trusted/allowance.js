// Both allowances, each in its own unit: Claude's in US dollars (with its price table) and Routstr's in sats (with
// its renewal and accepted mints), each with what was spent, reserved and remains; and the Routstr options. Only
// this window can change them; the chat window shows a read-only meter. Amounts are typed as text and read by the
// host, which writes every figure shown.
import { invoke } from './ipc.js';

const $ = (id) => document.getElementById(id);
const sats = (n) => `${Number(n).toLocaleString('en-US')} sats`;
let redraw = () => {};
let drawnOnce = false;
let prices = [];

function status(id, text, kind = '') {
  $(id).textContent = text;
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
  $('budget-remaining').textContent = `${sats(b.remaining_sats)} of ${sats(b.allowance_sats)}`;
  $('budget-renews').textContent = b.period === 'never' ? 'never (one-off)'
    : `${b.period}${b.renews_at_ms ? `, next ${new Date(b.renews_at_ms).toLocaleString()}` : ''}`;
  if (b.notices.length) status('budget-status', b.notices.join(' '), 'error');
  const free = b.free_answers;
  $('budget-free-answers').hidden = !free || !free.since_ms;
  if (free) $('budget-free-answers').textContent = `This month: ${free.local} local and ${free.builtin} built-in answers, at $0.`;
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
  const c = view.budget.claude;
  $('claude-section').hidden = !c || !c.allowance;
  if ($('claude-section').hidden) return;
  const editable = Boolean(view.claude_prices);
  $('claude-editing').hidden = !editable;
  $('claude-set-on-node').hidden = editable;
  const used = c.allowance_usd_micros > 0
    ? Math.min(1, (c.spent_usd_micros + c.reserved_usd_micros) / c.allowance_usd_micros) : 0;
  $('claude-budget-fill').style.width = `${used * 100}%`;
  $('claude-budget-bar').setAttribute('aria-valuenow', String(Math.round(used * 100)));
  $('claude-budget-bar').setAttribute('aria-valuetext', `${c.spent} of ${c.allowance} spent`);
  $('claude-budget-spent').textContent = c.spent;
  $('claude-budget-reserved').textContent = c.reserved;
  $('claude-budget-remaining').textContent = c.allowance_usd_micros > 0 ? `${c.remaining} of ${c.allowance}`
    : `Claude is off (allowance ${c.allowance})`;
  $('claude-budget-renews').textContent = c.period === 'never' ? 'never (one-off)'
    : `${c.period}${c.renews_at_ms ? `, next ${new Date(c.renews_at_ms).toLocaleString()}` : ''}`;
  $('claude-budget-notice').textContent = c.notice_80 ? '80% or more of Claude\'s allowance is spent this period.' : '';
  $('claude-budget-notice').hidden = !c.notice_80;
  if (!editable) return;
  const table = view.claude_prices;
  prices = table.models;
  $('prices-source').textContent = `Shipped prices taken on ${table.taken_on} from ${table.source}.`;
  $('prices-error').textContent = table.error || '';
  $('prices-error').hidden = !table.error;
  $('prices-rows').replaceChildren(...prices.map((m) => {
    const row = document.createElement('tr');
    const name = document.createElement('td');
    name.className = 'mono';
    name.textContent = m.model;
    if (m.set_by_owner) {
      const mark = document.createElement('span');
      mark.className = 'pill set';
      mark.textContent = 'set by you';
      name.append(mark);
    }
    if (m.long_context) name.title = m.long_context;
    row.append(name, ...[m.input, m.output, m.cache_write, m.cache_read].map((price) => {
      const cell = document.createElement('td');
      cell.textContent = price;
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
  status('claude-budget-status', 'Saving…');
  try {
    const view = await invoke('trusted_set_claude_allowance', {
      allowanceUsd: $('claude-budget-amount').value, period: $('claude-budget-period').value,
    });
    fillClaude(view);
    redraw(view);
    const c = view.budget.claude;
    status('claude-budget-status', c.allowance_usd_micros > 0
      ? `Saved: ${c.allowance} ${c.period === 'never' ? 'in all' : c.period}. It applies from the next message.`
      : 'Saved: Claude is off until you set an allowance above $0.', 'ok');
  } catch (error) {
    status('claude-budget-status', error.message, 'error');
  }
}

async function savePrice(event) {
  event.preventDefault();
  const model = $('price-model').value.trim();
  status('price-status', 'Saving…');
  try {
    const view = await invoke('trusted_set_claude_price', {
      model,
      input: $('price-input').value,
      output: $('price-output').value,
      cacheWrite: $('price-cache-write').value,
      cacheRead: $('price-cache-read').value,
    });
    redraw(view);
    status('price-status', `Saved your price for ${model}. It applies from the next request.`, 'ok');
  } catch (error) {
    status('price-status', error.message, 'error');
  }
}

/** What the last discovery found: per relay and per event, as text (never markup from a relay or provider). */
function drawDiscovery(lines) {
  const list = $('discovery-report');
  const shown = lines.length ? lines
    : ['No discovery has run yet: it runs when a message needs paid help, with an allowance above zero.'];
  list.replaceChildren(...shown.map((line) => {
    const item = document.createElement('li');
    item.textContent = line;
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
    status('budget-status', 'The allowance is a whole number of sats (0 turns paid help off).', 'error');
    return;
  }
  const acceptedMints = $('budget-mints').value.split('\n').map((m) => m.trim()).filter(Boolean);
  status('budget-status', 'Saving…');
  try {
    const view = await invoke('trusted_set_allowance', {
      allowanceSats: Number(text), period: $('budget-period').value, acceptedMints,
    });
    fill(view);
    redraw(view);
    status('budget-status', Number(text) > 0 && !acceptedMints.length
      ? 'Saved. Add an accepted mint, or paid help stays off.'
      : 'Saved. It applies from the next message.', 'ok');
  } catch (error) {
    status('budget-status', error.message, 'error');
  }
}

async function saveRoutstr(event) {
  event.preventDefault();
  status('routstr-status', 'Saving…');
  try {
    const view = await invoke('trusted_set_routstr', {
      reviewedOnly: $('routstr-reviewed').checked,
      torSocks: $('routstr-tor').value.trim() || null,
      reviewer: $('routstr-reviewer').value.trim() || null,
    });
    fill(view);
    redraw(view);
    status('routstr-status', 'Saved. It applies from the next message.', 'ok');
  } catch (error) {
    status('routstr-status', error.message, 'error');
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
