// The allowance (sats per period, renewal, accepted mints) with what was spent, reserved and remains, and the
// Routstr options. Only this window can change them; the chat window shows a read-only meter.
import { invoke } from './ipc.js';

const $ = (id) => document.getElementById(id);
const sats = (n) => `${Number(n).toLocaleString('en-US')} sats`;
let redraw = () => {};
let drawnOnce = false;

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
  if (!drawnOnce) {
    drawnOnce = true;
    fill(view);
  }
  drawDiscovery(view.routstr.discovery);
  // The wallet form offers the first accepted mint to fund.
  if (!$('invoice-mint').value && b.accepted_mints.length) $('invoice-mint').value = b.accepted_mints[0];
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
}
