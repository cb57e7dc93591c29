// On the LAN service's trusted origin only (lan-approval.js loads it there): the wallet on the node, read-only
// (balance per mint, in flight, withdrawals the mint is still paying), and withdrawing to Lightning: a pasted
// invoice gets the host's quote (amount, the mint's fee reserve and input fee, the most it can cost, expiry); the
// withdrawal names that quote and carries the approval passphrase or a TOTP code, cleared after every try. The
// backup words, restoring and sending tokens are not here: they stay on the node (`aiui-cli wallet`). Everything
// is drawn with DOM APIs from the host's JSON, as text.
import { lanPost as post } from './ipc.js';

const $ = (id) => document.getElementById(id);
const sats = (n) => `${Number(n).toLocaleString('en-US')} ${Number(n) === 1 ? 'sat' : 'sats'}`;
// The same delay as an approval's: Withdraw unlocks once the quote has been on screen this long.
const APPROVE_DELAY_MS = 1000;

let quote = null; // the quote on screen: { id, ... } as the host wrote it

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key === 'for') node.htmlFor = value;
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function field(id, label, input) {
  input.id = id;
  return el('div', { class: 'field' }, el('label', { for: id }, label), input);
}

function build() {
  const invoice = el('textarea', { class: 'mono', rows: 3, autocomplete: 'off', spellcheck: false, placeholder: 'lnbc…' });
  const mint = el('input', { type: 'url', autocomplete: 'off', spellcheck: false, placeholder: 'https://mint.example.com' });
  const everything = el('input', { id: 'lan-withdraw-everything', type: 'checkbox' });
  const secret = el('input', { type: 'password', autocomplete: 'off', spellcheck: false });
  const cost = el('dl', { class: 'kv' });
  for (const [key, label] of [['amount', 'Amount'], ['reserve', 'The mint\'s fee reserve (what it does not use comes back)'],
    ['input-fee', 'The mint\'s input fee'], ['most', 'The most it can cost'], ['mint', 'From the mint'], ['expiry', 'The quote ends']]) {
    cost.append(el('dt', {}, label), el('dd', { id: `lan-quote-${key}` }));
  }
  return el('section', { id: 'lan-wallet-section', class: 'section glass', 'aria-labelledby': 'lan-wallet-title' },
    el('h2', { id: 'lan-wallet-title' }, 'Wallet (Cashu ecash) on the node'),
    el('p', { id: 'lan-wallet-state', class: 'hint' }, 'Reading the wallet…'),
    el('div', { id: 'lan-wallet-details', hidden: true },
      el('ul', { id: 'lan-wallet-balances', class: 'balances', 'aria-label': 'Balance per mint' }),
      el('dl', { class: 'kv spaced' }, el('dt', {}, 'In flight'), el('dd', { id: 'lan-wallet-in-flight' }, '–')),
      el('h3', { id: 'lan-pending-title' }, 'Withdrawals the mint is still paying'),
      el('ul', { id: 'lan-wallet-pending', class: 'balances', 'aria-labelledby': 'lan-pending-title' })),
    el('form', { id: 'lan-withdraw-form' },
      el('h3', {}, 'Withdraw to Lightning'),
      field('lan-withdraw-invoice', 'Lightning invoice (BOLT11) to pay', invoice),
      field('lan-withdraw-mint', 'From the mint (empty: the one holding the most)', mint),
      el('label', { class: 'check' }, everything, ' Everything at that mint, after its fees (the invoice names no amount)'),
      el('button', { id: 'lan-withdraw-quote', class: 'btn primary', type: 'submit' }, 'Show what it costs')),
    el('div', { id: 'lan-withdraw-confirm', role: 'group', 'aria-labelledby': 'lan-confirm-title', hidden: true },
      el('h3', { id: 'lan-confirm-title', tabIndex: -1 }, 'Confirm the withdrawal'),
      cost,
      field('lan-withdraw-secret', 'Approval passphrase or TOTP code (needed to withdraw)', secret),
      el('div', { class: 'actions' },
        el('button', { id: 'lan-withdraw-cancel', class: 'btn deny', type: 'button' }, 'Cancel'),
        el('button', { id: 'lan-withdraw-pay', class: 'btn approve', type: 'button', 'aria-disabled': 'true' }, 'Withdraw'))),
    el('p', { id: 'lan-wallet-status', class: 'status', role: 'status' }),
    el('p', { class: 'hint' }, 'The backup words, restoring the wallet and sending tokens are done on the node itself '
      + '(aiui-cli wallet): they never go over the network.'));
}

function status(text, kind = '') {
  $('lan-wallet-status').textContent = text;
  $('lan-wallet-status').className = `status ${kind}`;
}

function row(left, right) {
  return el('li', {}, el('span', { class: 'mint mono' }, left), el('span', { class: 'amount' }, right));
}

function draw(view) {
  $('lan-wallet-state').textContent = `Total: ${sats(view.total_sats)}${view.conserved ? '' : ' (the ledger does not add up: run aiui-cli wallet reconcile on the node)'}`;
  $('lan-wallet-balances').replaceChildren(...view.balances.map((b) => row(b.mint, sats(b.sats))));
  $('lan-wallet-in-flight').textContent = sats(view.in_flight_sats);
  $('lan-wallet-pending').replaceChildren(...(view.pending_withdrawals.length
    ? view.pending_withdrawals.map((w) => row(`${w.mint} (since ${new Date(w.created_ms).toLocaleString()})`, sats(w.sats)))
    : [el('li', {}, 'None.')]));
  $('lan-wallet-details').hidden = false;
}

async function refresh() {
  try {
    draw(await post('api/wallet'));
  } catch (error) {
    $('lan-wallet-state').textContent = error.message;
    $('lan-wallet-details').hidden = true;
  }
}

function hideQuote() {
  quote = null;
  $('lan-withdraw-secret').value = '';
  $('lan-withdraw-pay').setAttribute('aria-disabled', 'true');
  $('lan-withdraw-confirm').hidden = true;
}

async function ask(event) {
  event.preventDefault();
  hideQuote();
  const invoice = $('lan-withdraw-invoice').value.trim();
  if (!invoice) return status('Paste a Lightning invoice first.', 'error');
  status('Asking the mint what paying it costs…');
  try {
    quote = await post('api/wallet/quote', { invoice, mint: $('lan-withdraw-mint').value.trim() || null, everything: $('lan-withdraw-everything').checked });
  } catch (error) {
    return status(error.message, 'error');
  }
  $('lan-quote-amount').textContent = sats(quote.amount_sats);
  $('lan-quote-reserve').textContent = `up to ${sats(quote.fee_reserve_sats)}`;
  $('lan-quote-input-fee').textContent = sats(quote.input_fee_sats);
  $('lan-quote-most').textContent = sats(quote.most_it_costs_sats);
  $('lan-quote-mint').textContent = quote.mint;
  $('lan-quote-expiry').textContent = quote.expires_at_s ? new Date(quote.expires_at_s * 1000).toLocaleString() : 'when the mint says';
  $('lan-withdraw-confirm').hidden = false;
  status(`Withdrawing ${sats(quote.amount_sats)} costs at most ${sats(quote.most_it_costs_sats)}. Type your approval passphrase to withdraw.`);
  $('lan-confirm-title').focus();
  const shown = quote;
  setTimeout(() => { if (quote === shown) $('lan-withdraw-pay').setAttribute('aria-disabled', 'false'); }, APPROVE_DELAY_MS);
}

async function pay() {
  if (!quote || $('lan-withdraw-pay').getAttribute('aria-disabled') === 'true') return;
  const secret = $('lan-withdraw-secret').value;
  $('lan-withdraw-secret').value = '';
  if (!secret.trim()) return status('Withdrawing needs your approval passphrase or a TOTP code. Nothing was paid.', 'error');
  status('Withdrawing…');
  try {
    const done = await post('api/wallet/withdraw', { id: quote.id, secret });
    hideQuote();
    $('lan-withdraw-invoice').value = '';
    status(done.message, done.outcome === 'paid' ? 'ok' : '');
  } catch (error) {
    // A refused passphrase keeps the quote; anything else (used, expired, the mint said no) needs a new one.
    if (!['wrong_secret', 'secret_required', 'rate_limited', 'too_soon'].includes(error.code)) hideQuote();
    status(error.message, 'error');
  }
  refresh();
}

function init() {
  if ($('lan-wallet-section')) return;
  const desktop = $('wallet-section');
  const section = build();
  // The desktop window's wallet section (receive, fund, and what it adds) is not offered over the LAN.
  if (desktop) {
    desktop.hidden = true;
    desktop.after(section);
  } else {
    ($('main-content') || document.body).append(section);
  }
  $('lan-withdraw-form').addEventListener('submit', ask);
  $('lan-withdraw-pay').addEventListener('click', pay);
  $('lan-withdraw-secret').addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); pay(); } });
  $('lan-withdraw-cancel').addEventListener('click', () => { hideQuote(); status('Not withdrawn.'); });
  refresh();
  setInterval(refresh, 15000);
}

if (!window.__TAURI__) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
}
