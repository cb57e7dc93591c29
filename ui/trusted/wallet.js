// The assistant's Cashu wallet: balance per mint (marked when the allowance does not accept the mint), what is in
// flight, withdrawals and tokens sent out (Take back while unclaimed, Check to settle), receive a pasted token, fund
// with a Lightning invoice, withdraw to Lightning and send a token. Backup and restore are wallet-backup.js.
//
// Sats leave only in two steps: the host asks the mint and writes what the owner approves (summary, figures, the
// button's words); this page shows that text as text and answers with the host's id, never with an amount. A token
// sent out is shown once, as the host returned it, and dropped from the page when the owner is done with it. QR
// codes come from Rust as SVG path data and are drawn with DOM APIs.
import { invoke } from './ipc.js';
import { announce } from './text.js';
import * as backup from './wallet-backup.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const sats = (n) => `${Number(n).toLocaleString('en-US')} sats`;
let invoice = null; // { mint, quoteId } of the invoice on screen
let approval = null; // the host's ApprovalView on screen
let busy = false;

function status(text, kind = '') {
  $('wallet-status').textContent = text;
  $('wallet-status').className = `status ${kind}`;
}

function item(...parts) {
  const li = document.createElement('li');
  li.append(...parts);
  return li;
}

function span(text, className = '') {
  const el = document.createElement('span');
  el.textContent = text;
  if (className) el.className = className;
  return el;
}

function draw(view) {
  const held = view.balances.filter((b) => b.sats > 0);
  $('wallet-state').textContent = view.opened
    ? `Total: ${sats(view.total_sats)}`
    : 'No wallet yet: it is created (its seed kept in the OS keyring) when you first fund it, or restore it.';
  $('wallet-balances').replaceChildren(...view.balances.map((b) => {
    const mint = span(b.mint, 'mono');
    const parts = [mint];
    // The host says whether the allowance accepts the mint; one it does not is still the owner's to take out.
    if (b.accepted === false) parts.push(span('not accepted: not spent on paid help; withdraw or send it', 'pill warn'));
    const left = document.createElement('span');
    left.className = 'mint';
    left.append(...parts);
    return item(left, span(sats(b.sats), 'amount'));
  }));
  const inFlight = Number(view.in_flight_sats || 0);
  $('wallet-in-flight').hidden = !view.opened;
  $('wallet-in-flight').textContent = inFlight > 0
    ? `In flight: ${sats(inFlight)} (withdrawals the mint is still paying, tokens not claimed yet, payments to providers not settled)`
    : 'Nothing in flight.';
  drawOutflows(view.outflows || []);
  $('wallet-reminder').hidden = !view.backup_reminder;
  $('wallet-reminder').textContent = view.backup_reminder || '';
  // Taking sats out is offered once there are sats; the mint lists follow the balances.
  $('wallet-out').hidden = held.length === 0;
  fillMints($('withdraw-mint'), held, 'the mint holding the most');
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
    option.textContent = `${b.mint} (${sats(b.sats)})`;
    options.push(option);
  }
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
}

function drawOutflows(rows) {
  $('outflows-empty').hidden = rows.length > 0;
  $('wallet-outflows').replaceChildren(...rows.map((row) => {
    const kind = { token: 'Token', withdrawal: 'Withdrawal', 'keyset-swap': 'Moved to new keys' }[row.kind] || 'Outflow';
    const what = span(`${kind} of ${sats(row.amount_sats)}`, 'what');
    const state = span(row.state, `pill ${row.open ? 'warn' : 'done'}`);
    const head = document.createElement('span');
    head.className = 'row';
    head.append(what, state);
    const meta = span(`${row.created} · ${row.mint}${row.invoice ? ` · ${row.invoice}` : ''}`, 'hint mono');
    const text = document.createElement('span');
    text.className = 'outflow-text';
    text.append(head, meta);
    const li = item(text);
    li.className = row.open ? 'open' : '';
    if (row.can_take_back) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'btn small';
      button.textContent = 'Take back';
      button.setAttribute('aria-label', `Take back the token of ${sats(row.amount_sats)} made ${row.created}`);
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
    status(error.message, 'error');
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
  if (!token) return status('Paste a Cashu token first.', 'error');
  status('Receiving…');
  try {
    const [credited, view] = await invoke('trusted_wallet_receive', { token });
    $('receive-token').value = '';
    draw(view);
    status(`Received ${sats(credited)}.`, 'ok');
  } catch (error) {
    status(error.message, 'error');
  }
}

async function getInvoice(event) {
  event.preventDefault();
  const amount = $('invoice-amount').value.trim();
  if (!/^\d+$/.test(amount) || Number(amount) < 1) return status('The amount is a whole number of sats.', 'error');
  status('Asking the mint for an invoice…');
  try {
    const view = await invoke('trusted_wallet_invoice', { mint: $('invoice-mint').value, amountSats: Number(amount) });
    invoice = { mint: view.mint, quoteId: view.quote_id };
    $('invoice-text').value = view.bolt11;
    drawQr($('invoice-qr'), view.qr);
    $('invoice').hidden = false;
    status(`Pay ${sats(view.amount_sats)} to ${view.mint}, then check the payment.`);
    refresh();
  } catch (error) {
    status(error.message, 'error');
  }
}

async function checkPayment() {
  if (!invoice) return;
  status('Checking…');
  try {
    const [minted, view] = await invoke('trusted_wallet_check', invoice);
    draw(view);
    invoice = null;
    $('invoice').hidden = true;
    status(`Paid: ${sats(minted)} added to the wallet.`, 'ok');
  } catch (error) {
    status(error.message, error.code === 'unpaid' ? '' : 'error');
  }
}

// ---- taking sats out: the host's quote, the owner's approval by id ----

function showApproval(view) {
  approval = view;
  $('approval-summary').textContent = view.summary;
  $('approval-details').replaceChildren(...view.details.map((line) => item(line)));
  const until = new Date(Number(view.expires_at_s) * 1000);
  $('approval-expiry').textContent = `This approval lapses at ${until.toLocaleTimeString()}; nothing is sent before you approve.`;
  $('approval-approve').textContent = view.action;
  $('wallet-approval').hidden = false;
  // The safe answer has the focus first, as in a confirmation.
  $('approval-cancel').focus();
  announce(`${view.summary} ${view.action}, or Cancel.`);
}

function hideApproval() {
  approval = null;
  $('wallet-approval').hidden = true;
  $('approval-details').replaceChildren();
}

async function quoteWithdrawal(event) {
  event.preventDefault();
  const pasted = $('withdraw-invoice').value.trim();
  if (!pasted) return status('Paste a Lightning invoice first.', 'error');
  status('Asking the mint what it costs…');
  try {
    const view = await invoke('trusted_wallet_quote_withdrawal', {
      invoice: pasted,
      mint: $('withdraw-mint').value || null,
      everything: $('withdraw-everything').checked,
    });
    status('');
    showApproval(view);
  } catch (error) {
    status(error.message, 'error');
  }
}

async function quoteSend(event) {
  event.preventDefault();
  const amount = $('send-amount').value.trim();
  if (!/^\d+$/.test(amount) || Number(amount) < 1) return status('The amount is a whole number of sats.', 'error');
  try {
    const view = await invoke('trusted_wallet_quote_send', { mint: $('send-mint').value, amountSats: Number(amount) });
    status('');
    showApproval(view);
  } catch (error) {
    status(error.message, 'error');
  }
}

async function approve() {
  if (!approval || busy) return;
  const { id, kind } = approval;
  busy = true;
  hideApproval();
  status(kind === 'withdrawal' ? 'Paying the invoice…' : 'Making the token…');
  try {
    if (kind === 'withdrawal') {
      const done = await invoke('trusted_wallet_withdraw', { id });
      $('withdraw-invoice').value = '';
      draw(done.wallet);
      status(done.message, 'ok');
    } else {
      showToken(await invoke('trusted_wallet_send', { id }));
    }
  } catch (error) {
    status(error.message, 'error');
    refresh();
  } finally {
    busy = false;
  }
}

function cancelApproval() {
  hideApproval();
  status('Cancelled: nothing was sent.');
}

function showToken(sent) {
  $('token-text').value = sent.token;
  drawQr($('token-qr'), sent.qr);
  $('sent-token').hidden = false;
  $('send-amount').value = '';
  draw(sent.wallet);
  status(sent.message, 'ok');
  $('token-text').focus();
}

/** The owner is done with the token: it leaves the page (the host never shows it again). */
function tokenDone() {
  $('token-text').value = '';
  clearQr($('token-qr'));
  $('sent-token').hidden = true;
  status('The token is no longer shown. Until it is claimed, Take back in the list returns it.');
}

async function takeBack(id) {
  status('Taking the token back…');
  try {
    const done = await invoke('trusted_wallet_take_back', { id });
    draw(done.wallet);
    status(done.message, 'ok');
  } catch (error) {
    status(error.message, 'error');
    refresh();
  }
}

async function check() {
  status('Checking with the mints…');
  try {
    const done = await invoke('trusted_wallet_reconcile');
    draw(done.wallet);
    $('wallet-notices').replaceChildren(...done.notices.map((notice) => item(notice)));
    status(done.message, 'ok');
  } catch (error) {
    status(error.message, 'error');
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
