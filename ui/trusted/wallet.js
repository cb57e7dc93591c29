// The assistant's Cashu wallet: balance per mint (marked when the allowance does not accept the mint), what is in
// flight, withdrawals and tokens sent out (Take back while unclaimed, Check to settle), receive a pasted token, fund
// with a Lightning invoice, withdraw to Lightning and send a token. Backup and restore are wallet-backup.js.
//
// Sats leave only in two steps: the host asks the mint and writes what the owner approves (summary, figures, the
// button's words); this page shows that text as text and answers with the host's id, never with an amount. A token
// sent out is shown once, as the host returned it, and dropped from the page when the owner is done with it. QR
// codes come from Rust as SVG path data and are drawn with DOM APIs.
import { invoke } from './ipc.js';
import { announce, setText } from './text.js';
import * as backup from './wallet-backup.js';
import { t, formatDateTime } from '../js/l10n.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const sats = (n) => t('trusted-sats', { sats: Number(n) });
let invoice = null; // { mint, quoteId } of the invoice on screen
let approval = null; // the host's ApprovalView on screen
let busy = false;

// `data`: the host's own message (an error, what a withdrawal did), shown as it is (see text.js).
function status(text, kind = '', data = false) {
  setText($('wallet-status'), text, data);
  $('wallet-status').className = `status ${kind}`;
}

function item(...parts) {
  const li = document.createElement('li');
  li.append(...parts);
  return li;
}

// `data`: the text is data (a mint's address, the host's words for a state), marked `translate="no"`.
function span(text, className = '', data = false) {
  const el = document.createElement('span');
  el.textContent = text;
  if (className) el.className = className;
  if (data) el.translate = false;
  return el;
}

function draw(view) {
  const held = view.balances.filter((b) => b.sats > 0);
  $('wallet-state').textContent = view.opened
    ? t('trusted-wallet-total', { total: sats(view.total_sats) })
    : t('trusted-wallet-none-yet');
  $('wallet-balances').replaceChildren(...view.balances.map((b) => {
    const mint = span(b.mint, 'mono', true);
    const parts = [mint];
    // The host says whether the allowance accepts the mint; one it does not is still the owner's to take out.
    if (b.accepted === false) parts.push(span(t('trusted-wallet-not-accepted'), 'pill warn'));
    const left = document.createElement('span');
    left.className = 'mint';
    left.append(...parts);
    return item(left, span(sats(b.sats), 'amount'));
  }));
  const inFlight = Number(view.in_flight_sats || 0);
  $('wallet-in-flight').hidden = !view.opened;
  $('wallet-in-flight').textContent = inFlight > 0
    ? t('trusted-wallet-in-flight', { amount: sats(inFlight) })
    : t('trusted-wallet-nothing-in-flight');
  drawOutflows(view.outflows || []);
  $('wallet-reminder').hidden = !view.backup_reminder;
  $('wallet-reminder').textContent = view.backup_reminder || '';
  // Taking sats out is offered once there are sats; the mint lists follow the balances.
  $('wallet-out').hidden = held.length === 0;
  fillMints($('withdraw-mint'), held, t('trusted-withdraw-any-mint'));
  fillMints($('send-mint'), held, null);
  $('wallet-check').hidden = !view.opened;
  backup.draw(view, draw);
}

function fillMints(select, held, anyLabel) {
  const chosen = select.value;
  const options = [];
  if (anyLabel) {
    const any = document.createElement('option');
    any.value = '';
    any.textContent = anyLabel;
    options.push(any);
  }
  for (const b of held) {
    const option = document.createElement('option');
    option.value = b.mint;
    option.textContent = t('trusted-mint-with-balance', { mint: b.mint, balance: sats(b.sats) });
    options.push(option);
  }
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
}

function drawOutflows(rows) {
  $('outflows-empty').hidden = rows.length > 0;
  $('wallet-outflows').replaceChildren(...rows.map((row) => {
    const kind = t({ token: 'trusted-outflow-token', withdrawal: 'trusted-outflow-withdrawal', 'keyset-swap': 'trusted-outflow-keyset-swap' }[row.kind]
      || 'trusted-outflow-other');
    const what = span(t('trusted-outflow-what', { kind, amount: sats(row.amount_sats) }), 'what');
    // The state, when it was made, the mint and the invoice are the host's and the mint's: data.
    const state = span(row.state, `pill ${row.open ? 'warn' : 'done'}`, true);
    const head = document.createElement('span');
    head.className = 'row';
    head.append(what, state);
    const created = formatDateTime(new Date(row.created_ms));
    const meta = span(`${created} · ${row.mint}${row.invoice ? ` · ${row.invoice}` : ''}`, 'hint mono', true);
    const text = document.createElement('span');
    text.className = 'outflow-text';
    text.append(head, meta);
    const li = item(text);
    li.className = row.open ? 'open' : '';
    if (row.can_take_back) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'btn small';
      button.textContent = t('trusted-take-back');
      button.setAttribute('aria-label', t('trusted-take-back-label', { amount: sats(row.amount_sats), created }));
      button.addEventListener('click', () => takeBack(row.id));
      li.append(button);
    }
    return li;
  }));
}

export async function refresh() {
  try {
    draw(await invoke('trusted_wallet'));
  } catch (error) {
    status(error.message, 'error', true);
  }
}

/** Draws a QR code from the host's module path into `svg`, keeping its <title>. */
export function drawQr(svg, qr) {
  const title = svg.querySelector('title');
  // An <svg> has no `hidden` property: the attribute is what the stylesheet hides.
  svg.toggleAttribute('hidden', !qr);
  if (!qr) {
    svg.replaceChildren(title);
    return;
  }
  svg.setAttribute('viewBox', `0 0 ${Number(qr.size)} ${Number(qr.size)}`);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const background = document.createElementNS(SVG, 'rect');
  for (const [k, v] of [['width', '100%'], ['height', '100%'], ['fill', '#ffffff']]) background.setAttribute(k, v);
  const modules = document.createElementNS(SVG, 'path');
  // Rust writes only path commands and numbers here; the check keeps it that way.
  modules.setAttribute('d', /^[Mhvz0-9 -]*$/.test(qr.path) ? qr.path : '');
  modules.setAttribute('fill', '#000000');
  svg.replaceChildren(title, background, modules);
}

/** Empties a QR code (the words' code, a token's) so nothing of it stays in the page. */
export function clearQr(svg) {
  svg.replaceChildren(svg.querySelector('title'));
}

async function receive(event) {
  event.preventDefault();
  const token = $('receive-token').value.trim();
  if (!token) return status(t('trusted-receive-paste-first'), 'error');
  status(t('trusted-receiving'));
  try {
    const [credited, view] = await invoke('trusted_wallet_receive', { token });
    $('receive-token').value = '';
    draw(view);
    status(t('trusted-received', { amount: sats(credited) }), 'ok');
  } catch (error) {
    status(error.message, 'error', true);
  }
}

async function getInvoice(event) {
  event.preventDefault();
  const amount = $('invoice-amount').value.trim();
  if (!/^\d+$/.test(amount) || Number(amount) < 1) return status(t('trusted-amount-whole'), 'error');
  status(t('trusted-invoice-asking'));
  try {
    const view = await invoke('trusted_wallet_invoice', { mint: $('invoice-mint').value, amountSats: Number(amount) });
    invoice = { mint: view.mint, quoteId: view.quote_id };
    $('invoice-text').value = view.bolt11;
    drawQr($('invoice-qr'), view.qr);
    $('invoice').hidden = false;
    status(t('trusted-invoice-pay', { amount: sats(view.amount_sats), mint: view.mint }));
    refresh();
  } catch (error) {
    status(error.message, 'error', true);
  }
}

async function checkPayment() {
  if (!invoice) return;
  status(t('trusted-checking'));
  try {
    const [minted, view] = await invoke('trusted_wallet_check', invoice);
    draw(view);
    invoice = null;
    $('invoice').hidden = true;
    status(t('trusted-invoice-paid', { amount: sats(minted) }), 'ok');
  } catch (error) {
    status(error.message, error.code === 'unpaid' ? '' : 'error', true);
  }
}

// ---- taking sats out: the host's quote, the owner's approval by id ----

function showApproval(view) {
  approval = view;
  $('approval-summary').textContent = view.summary;
  $('approval-details').replaceChildren(...view.details.map((line) => item(line)));
  const until = new Date(Number(view.expires_at_s) * 1000);
  // The time as toLocaleTimeString() writes it, in the page's language.
  const time = formatDateTime(until, { hour: 'numeric', minute: 'numeric', second: 'numeric' });
  $('approval-expiry').textContent = t('trusted-approval-expiry', { time });
  // The button's words are the host's, as the summary and the figures are.
  setText($('approval-approve'), view.action, true);
  $('wallet-approval').hidden = false;
  // The safe answer has the focus first, as in a confirmation.
  $('approval-cancel').focus();
  announce(t('trusted-approval-announce', { summary: view.summary, action: view.action }));
}

function hideApproval() {
  approval = null;
  $('wallet-approval').hidden = true;
  $('approval-details').replaceChildren();
}

async function quoteWithdrawal(event) {
  event.preventDefault();
  const pasted = $('withdraw-invoice').value.trim();
  if (!pasted) return status(t('trusted-invoice-paste-first'), 'error');
  status(t('trusted-withdraw-asking'));
  try {
    const view = await invoke('trusted_wallet_quote_withdrawal', {
      invoice: pasted,
      mint: $('withdraw-mint').value || null,
      everything: $('withdraw-everything').checked,
    });
    status('');
    showApproval(view);
  } catch (error) {
    status(error.message, 'error', true);
  }
}

async function quoteSend(event) {
  event.preventDefault();
  const amount = $('send-amount').value.trim();
  if (!/^\d+$/.test(amount) || Number(amount) < 1) return status(t('trusted-amount-whole'), 'error');
  try {
    const view = await invoke('trusted_wallet_quote_send', { mint: $('send-mint').value, amountSats: Number(amount) });
    status('');
    showApproval(view);
  } catch (error) {
    status(error.message, 'error', true);
  }
}

async function approve() {
  if (!approval || busy) return;
  const { id, kind } = approval;
  busy = true;
  hideApproval();
  status(kind === 'withdrawal' ? t('trusted-withdraw-paying') : t('trusted-send-making'));
  try {
    if (kind === 'withdrawal') {
      const done = await invoke('trusted_wallet_withdraw', { id });
      $('withdraw-invoice').value = '';
      draw(done.wallet);
      status(done.message, 'ok', true);
    } else {
      showToken(await invoke('trusted_wallet_send', { id }));
    }
  } catch (error) {
    status(error.message, 'error', true);
    refresh();
  } finally {
    busy = false;
  }
}

function cancelApproval() {
  hideApproval();
  status(t('trusted-approval-cancelled'));
}

function showToken(sent) {
  $('token-text').value = sent.token;
  drawQr($('token-qr'), sent.qr);
  $('sent-token').hidden = false;
  $('send-amount').value = '';
  draw(sent.wallet);
  status(sent.message, 'ok', true);
  $('token-text').focus();
}

/** The owner is done with the token: it leaves the page (the host never shows it again). */
function tokenDone() {
  $('token-text').value = '';
  clearQr($('token-qr'));
  $('sent-token').hidden = true;
  status(t('trusted-token-hidden'));
}

async function takeBack(id) {
  status(t('trusted-taking-back'));
  try {
    const done = await invoke('trusted_wallet_take_back', { id });
    draw(done.wallet);
    status(done.message, 'ok', true);
  } catch (error) {
    status(error.message, 'error', true);
    refresh();
  }
}

async function check() {
  status(t('trusted-checking-mints'));
  try {
    const done = await invoke('trusted_wallet_reconcile');
    draw(done.wallet);
    // What the check found is the host's words, each line as it wrote it.
    $('wallet-notices').replaceChildren(...done.notices.map((notice) => {
      const li = item(notice);
      li.translate = false;
      return li;
    }));
    status(done.message, 'ok', true);
  } catch (error) {
    status(error.message, 'error', true);
  }
}

export function init() {
  $('receive-form').addEventListener('submit', receive);
  $('invoice-form').addEventListener('submit', getInvoice);
  $('invoice-check').addEventListener('click', checkPayment);
  $('withdraw-form').addEventListener('submit', quoteWithdrawal);
  $('send-form').addEventListener('submit', quoteSend);
  $('approval-approve').addEventListener('click', approve);
  $('approval-cancel').addEventListener('click', cancelApproval);
  $('token-done').addEventListener('click', tokenDone);
  $('wallet-check').addEventListener('click', check);
  backup.init({ status, drawQr, clearQr });
}
