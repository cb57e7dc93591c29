// The sidebar's meter (chat window and kiosk): Claude's allowance in dollars, Routstr's in sats, and this month's
// answers at $0, each in its own unit, written the page's way from the host's figures; nothing here converts one
// into the other.
import { t, formatDateTime, formatSats, usdAmounts } from './l10n.js';

const $ = (id) => document.getElementById(id);

const sats = formatSats;

// How much of an allowance is spent or held, for the bar (a share of the host's own figures, not an amount).
function fillBar(bar, fill, used, allowance, text) {
  const share = allowance > 0 ? Math.min(1, used / allowance) : 0;
  $(fill).style.width = `${share * 100}%`;
  $(bar).setAttribute('aria-valuenow', String(Math.round(share * 100)));
  $(bar).setAttribute('aria-valuetext', text);
}

// The host's period names; one it may add later shows as it sent it.
const PERIODS = { daily: 'chat-period-daily', weekly: 'chat-period-weekly', monthly: 'chat-period-monthly' };
function renews(period, at) {
  if (period === 'never') return t('chat-renews-never');
  const name = PERIODS[period] ? t(PERIODS[period]) : String(period);
  return at ? t('chat-renews-next', { period: name, date: formatDateTime(new Date(at)) }) : name;
}

// Claude's allowance in dollars, written the locale's way from the host's micro-dollars; a view without a Claude
// part keeps it hidden.
function drawClaude(view) {
  $('claude-meter').hidden = !view || !view.allowance;
  if ($('claude-meter').hidden) return;
  const c = usdAmounts(view);
  const off = c.allowance_usd_micros === 0;
  const summary = off ? t('chat-claude-off', { allowance: c.allowance }) : t('chat-claude-spent', { spent: c.spent, allowance: c.allowance });
  $('claude-summary').textContent = summary;
  fillBar('claude-bar', 'claude-fill', c.spent_usd_micros + c.reserved_usd_micros, c.allowance_usd_micros, summary);
  const every = renews(c.period, c.renews_at_ms);
  $('claude-renews').textContent = off ? '' : (Number(c.reserved_usd_micros)
    ? t('chat-claude-left-held', { remaining: c.remaining, reserved: c.reserved, renews: every })
    : t('chat-claude-left', { remaining: c.remaining, renews: every }));
  $('claude-renews').hidden = off;
  $('claude-notice').textContent = c.notice_80 ? t('chat-claude-notice') : '';
  $('claude-notice').hidden = !c.notice_80;
}

// Draws what `allowance_get` returned (the host's figures and words).
export function drawMeter(a) {
  drawClaude(a.claude);
  $('allowance-summary').textContent = a.allowance_sats > 0
    ? t('chat-sats-left', { remaining: sats(a.remaining_sats), allowance: sats(a.allowance_sats) })
    : t('chat-paid-off');
  fillBar('allowance-bar', 'allowance-fill', a.spent_sats + a.reserved_sats, a.allowance_sats,
    t('chat-sats-spent', { spent: sats(a.spent_sats), allowance: sats(a.allowance_sats) }));
  $('allowance-notice').textContent = a.notice_80 ? t('chat-routstr-notice') : '';
  $('allowance-notice').hidden = !a.notice_80;
  $('allowance-spent').textContent = sats(a.spent_sats);
  $('allowance-reserved').textContent = sats(a.reserved_sats);
  $('allowance-remaining').textContent = sats(a.remaining_sats);
  $('allowance-period').textContent = renews(a.period, a.renews_at_ms);
  $('allowance').dataset.allowance = String(a.allowance_sats);
  const free = a.free_answers;
  $('free-answers').hidden = !free || !free.since_ms;
  if (free) $('free-answers').textContent = t('chat-free-answers', { local: Number(free.local), builtin: Number(free.builtin) });
  // What the node's mint list said at the last turn: the mints paid help may use, or why it was off.
  const mints = $('allowance-mints');
  const listed = (a.node_mints || []).map((m) => `${m.url} (${m.unit})`);
  // Why paid help is off is the host's own sentence (data here); the list is the page's words around the node's.
  mints.textContent = a.paid_off || (listed.length ? t('chat-node-mints', { mints: listed.join(', ') }) : '');
  mints.translate = !a.paid_off;
  mints.classList.toggle('warn', Boolean(a.paid_off));
  mints.hidden = a.allowance_sats === 0 || !mints.textContent;
}
