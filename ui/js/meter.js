// The sidebar's meter (chat window and kiosk): Claude's allowance in dollars, Routstr's in sats, and this month's
// answers at $0, each in its own unit as the host wrote it; nothing here converts one into the other.
const $ = (id) => document.getElementById(id);

const sats = (n) => `${Number(n).toLocaleString('en-US')} sats`;

// How much of an allowance is spent or held, for the bar (a share of the host's own figures, not an amount).
function fillBar(bar, fill, used, allowance, text) {
  const share = allowance > 0 ? Math.min(1, used / allowance) : 0;
  $(fill).style.width = `${share * 100}%`;
  $(bar).setAttribute('aria-valuenow', String(Math.round(share * 100)));
  $(bar).setAttribute('aria-valuetext', text);
}

const renews = (period, at) => (period === 'never'
  ? 'never (one-off)'
  : `${period}${at ? `, next ${new Date(at).toLocaleString()}` : ''}`);

// Claude's allowance in dollars, as the host wrote the amounts; a view without a Claude part keeps it hidden.
function drawClaude(c) {
  $('claude-meter').hidden = !c || !c.allowance;
  if ($('claude-meter').hidden) return;
  const off = c.allowance_usd_micros === 0;
  const summary = off ? `Claude: off (allowance ${c.allowance})` : `${c.spent} of ${c.allowance} spent`;
  $('claude-summary').textContent = summary;
  fillBar('claude-bar', 'claude-fill', c.spent_usd_micros + c.reserved_usd_micros, c.allowance_usd_micros, summary);
  $('claude-renews').textContent = off ? '' : `${c.remaining} left${Number(c.reserved_usd_micros) ? `, ${c.reserved} held for an answer` : ''}; renews ${renews(c.period, c.renews_at_ms)}`;
  $('claude-renews').hidden = off;
  $('claude-notice').textContent = c.notice_80 ? '80% or more of Claude\'s allowance is spent this period.' : '';
  $('claude-notice').hidden = !c.notice_80;
}

// Draws what `allowance_get` returned (the host's figures and words).
export function drawMeter(a) {
  drawClaude(a.claude);
  $('allowance-summary').textContent = a.allowance_sats > 0
    ? `${sats(a.remaining_sats)} left of ${sats(a.allowance_sats)}`
    : 'Paid help is off (allowance 0 sats).';
  fillBar('allowance-bar', 'allowance-fill', a.spent_sats + a.reserved_sats, a.allowance_sats,
    `${sats(a.spent_sats)} of ${sats(a.allowance_sats)} spent`);
  $('allowance-notice').textContent = a.notice_80 ? '80% or more of the Routstr allowance is spent this period.' : '';
  $('allowance-notice').hidden = !a.notice_80;
  $('allowance-spent').textContent = sats(a.spent_sats);
  $('allowance-reserved').textContent = sats(a.reserved_sats);
  $('allowance-remaining').textContent = sats(a.remaining_sats);
  $('allowance-period').textContent = renews(a.period, a.renews_at_ms);
  $('allowance').dataset.allowance = String(a.allowance_sats);
  const free = a.free_answers;
  $('free-answers').hidden = !free || !free.since_ms;
  if (free) $('free-answers').textContent = `${free.local} local and ${free.builtin} built-in answers this month, at $0`;
  // What the node's mint list said at the last turn: the mints paid help may use, or why it was off.
  const mints = $('allowance-mints');
  const listed = (a.node_mints || []).map((m) => `${m.url} (${m.unit})`);
  mints.textContent = a.paid_off || (listed.length ? `Node mints: ${listed.join(', ')}` : '');
  mints.classList.toggle('warn', Boolean(a.paid_off));
  mints.hidden = a.allowance_sats === 0 || !mints.textContent;
}
