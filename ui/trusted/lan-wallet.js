// On the LAN service's trusted origin only (lan-approval.js loads it there): the wallet on the node, read-only
// (balance per mint, in flight, withdrawals the mint is still paying), and withdrawing to Lightning: a pasted
// invoice gets the host's quote (amount, the mint's fee reserve and input fee, the most it can cost, expiry); the
// withdrawal names that quote and carries the approval passphrase or a TOTP code, cleared after every try. The
// backup words, restoring and sending tokens are not here: they stay on the node (`aiui-cli wallet`). Everything
// is drawn with DOM APIs from the host's JSON, as text.
import { lanPost as post } from './ipc.js';
import { setText, textReady } from './text.js';
import { t, pageLang, formatDateTime } from '../js/l10n.js';

const $ = (id) => document.getElementById(id);
const sats = (n) => t(new Intl.PluralRules(pageLang()).select(Number(n)) === 'one' ? 'trusted-lan-sats-one' : 'trusted-lan-sats-other',
  { sats: Number(n) });
// Date and time as toLocaleString() writes them, in the page's language.
const when = (date) => formatDateTime(date, {
  year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
});
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
  // Their placeholders are examples of the data, not words: marked `translate="no"`.
  const invoice = el('textarea', { class: 'mono', rows: 3, autocomplete: 'off', spellcheck: false, placeholder: 'lnbc…', translate: false });
  const mint = el('input', { type: 'url', autocomplete: 'off', spellcheck: false, placeholder: 'https://mint.example.com', translate: false });
  const everything = el('input', { id: 'lan-withdraw-everything', type: 'checkbox' });
  const secret = el('input', { type: 'password', autocomplete: 'off', spellcheck: false });
  const cost = el('dl', { class: 'kv' });
  for (const [key, label] of [['amount', t('trusted-lan-quote-amount')], ['reserve', t('trusted-lan-quote-reserve')],
    ['input-fee', t('trusted-lan-quote-input-fee')], ['most', t('trusted-lan-quote-most')], ['mint', t('trusted-lan-quote-mint')],
    ['expiry', t('trusted-lan-quote-expiry')]]) {
    cost.append(el('dt', {}, label), el('dd', { id: `lan-quote-${key}` }));
  }
  return el('section', { id: 'lan-wallet-section', class: 'section glass', 'aria-labelledby': 'lan-wallet-title' },
    el('h2', { id: 'lan-wallet-title' }, t('trusted-lan-wallet-title')),
    el('p', { id: 'lan-wallet-state', class: 'hint' }, t('trusted-lan-wallet-reading')),
    el('div', { id: 'lan-wallet-details', hidden: true },
      el('ul', { id: 'lan-wallet-balances', class: 'balances', 'aria-label': t('trusted-wallet-balances.aria-label') }),
      el('dl', { class: 'kv spaced' }, el('dt', {}, t('trusted-lan-in-flight')), el('dd', { id: 'lan-wallet-in-flight', translate: false }, '–')),
      el('h3', { id: 'lan-pending-title' }, t('trusted-lan-pending-title')),
      el('ul', { id: 'lan-wallet-pending', class: 'balances', 'aria-labelledby': 'lan-pending-title' })),
    el('form', { id: 'lan-withdraw-form' },
      el('h3', {}, t('trusted-lan-withdraw-title')),
      field('lan-withdraw-invoice', t('trusted-lan-withdraw-invoice'), invoice),
      field('lan-withdraw-mint', t('trusted-lan-withdraw-mint'), mint),
      el('label', { class: 'check' }, everything, ' ', el('span', {}, t('trusted-lan-withdraw-everything'))),
      el('button', { id: 'lan-withdraw-quote', class: 'btn primary', type: 'submit' }, t('trusted-lan-withdraw-quote'))),
    el('div', { id: 'lan-withdraw-confirm', role: 'group', 'aria-labelledby': 'lan-confirm-title', hidden: true },
      el('h3', { id: 'lan-confirm-title', tabIndex: -1 }, t('trusted-lan-confirm-title')),
      cost,
      field('lan-withdraw-secret', t('trusted-secret-withdraw'), secret),
      el('div', { class: 'actions' },
        el('button', { id: 'lan-withdraw-cancel', class: 'btn deny', type: 'button' }, t('trusted-cancel')),
        el('button', { id: 'lan-withdraw-pay', class: 'btn approve', type: 'button', 'aria-disabled': 'true' }, t('trusted-lan-withdraw-pay')))),
    el('p', { id: 'lan-wallet-status', class: 'status', role: 'status' }),
    el('p', { class: 'hint' }, t('trusted-lan-on-node-only')));
}

// `data`: the host's own message (an error, what the withdrawal did), shown as it is (see text.js).
function status(text, kind = '', data = false) {
  setText($('lan-wallet-status'), text, data);
  $('lan-wallet-status').className = `status ${kind}`;
}

// `leftIsData`: the left part is a mint's address alone (not the window's words around one).
function row(left, right, leftIsData = true) {
  const mint = el('span', { class: 'mint mono' }, left);
  if (leftIsData) mint.translate = false;
  return el('li', {}, mint, el('span', { class: 'amount' }, right));
}

function draw(view) {
  setText($('lan-wallet-state'), t(view.conserved ? 'trusted-lan-total' : 'trusted-lan-total-unbalanced', { total: sats(view.total_sats) }));
  $('lan-wallet-balances').replaceChildren(...view.balances.map((b) => row(b.mint, sats(b.sats))));
  setText($('lan-wallet-in-flight'), sats(view.in_flight_sats));
  $('lan-wallet-pending').replaceChildren(...(view.pending_withdrawals.length
    ? view.pending_withdrawals.map((w) => row(t('trusted-lan-pending-since', { mint: w.mint, date: when(new Date(w.created_ms)) }),
      sats(w.sats), false))
    : [el('li', {}, t('trusted-lan-pending-none'))]));
  $('lan-wallet-details').hidden = false;
}

async function refresh() {
  try {
    draw(await post('api/wallet'));
  } catch (error) {
    setText($('lan-wallet-state'), error.message, true);
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
  if (!invoice) return status(t('trusted-invoice-paste-first'), 'error');
  status(t('trusted-lan-quote-asking'));
  try {
    quote = await post('api/wallet/quote', { invoice, mint: $('lan-withdraw-mint').value.trim() || null, everything: $('lan-withdraw-everything').checked });
  } catch (error) {
    return status(error.message, 'error', true);
  }
  $('lan-quote-amount').textContent = sats(quote.amount_sats);
  $('lan-quote-reserve').textContent = t('trusted-lan-up-to', { amount: sats(quote.fee_reserve_sats) });
  $('lan-quote-input-fee').textContent = sats(quote.input_fee_sats);
  $('lan-quote-most').textContent = sats(quote.most_it_costs_sats);
  setText($('lan-quote-mint'), quote.mint, true);
  $('lan-quote-expiry').textContent = quote.expires_at_s ? when(new Date(quote.expires_at_s * 1000)) : t('trusted-lan-expiry-unknown');
  $('lan-withdraw-confirm').hidden = false;
  status(t('trusted-lan-quote-summary', { amount: sats(quote.amount_sats), most: sats(quote.most_it_costs_sats) }));
  $('lan-confirm-title').focus();
  const shown = quote;
  setTimeout(() => { if (quote === shown) $('lan-withdraw-pay').setAttribute('aria-disabled', 'false'); }, APPROVE_DELAY_MS);
}

async function pay() {
  if (!quote || $('lan-withdraw-pay').getAttribute('aria-disabled') === 'true') return;
  const secret = $('lan-withdraw-secret').value;
  $('lan-withdraw-secret').value = '';
  if (!secret.trim()) return status(t('trusted-lan-secret-needed'), 'error');
  status(t('trusted-lan-withdrawing'));
  try {
    const done = await post('api/wallet/withdraw', { id: quote.id, secret });
    hideQuote();
    $('lan-withdraw-invoice').value = '';
    status(done.message, done.outcome === 'paid' ? 'ok' : '', true);
  } catch (error) {
    // A refused passphrase keeps the quote; anything else (used, expired, the mint said no) needs a new one.
    if (!['wrong_secret', 'secret_required', 'rate_limited', 'too_soon'].includes(error.code)) hideQuote();
    status(error.message, 'error', true);
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
  $('lan-withdraw-cancel').addEventListener('click', () => { hideQuote(); status(t('trusted-lan-not-withdrawn')); });
  refresh();
  setInterval(refresh, 15000);
}

// Built once the window's words are loaded (the same load trusted.js waits for).
if (!window.__TAURI__) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => textReady().then(init));
  else textReady().then(init);
}
