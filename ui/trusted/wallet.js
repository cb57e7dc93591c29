// The assistant's Cashu wallet: balance per mint, receive a pasted token, and a Lightning invoice to fund it,
// shown as text and as a QR code. The QR code comes from Rust as SVG path data and is drawn with DOM APIs; the
// invoice is the mint's text and only ever goes in as text.
import { invoke } from './ipc.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const sats = (n) => `${Number(n).toLocaleString('en-US')} sats`;
let invoice = null; // { mint, quote_id } of the invoice on screen

function status(text, kind = '') {
  $('wallet-status').textContent = text;
  $('wallet-status').className = `status ${kind}`;
}

function draw(view) {
  $('wallet-state').textContent = view.opened
    ? `Total: ${sats(view.total_sats)}`
    : 'No wallet yet: it is created (its seed kept in the OS keyring) when you first fund it.';
  $('wallet-balances').replaceChildren(...view.balances.map((b) => {
    const li = document.createElement('li');
    const mint = document.createElement('span');
    mint.className = 'mono';
    mint.textContent = b.mint;
    const amount = document.createElement('span');
    amount.textContent = sats(b.sats);
    li.append(mint, amount);
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

function drawQr(qr) {
  const svg = $('invoice-qr');
  svg.setAttribute('viewBox', `0 0 ${Number(qr.size)} ${Number(qr.size)}`);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const background = document.createElementNS(SVG, 'rect');
  for (const [k, v] of [['width', '100%'], ['height', '100%'], ['fill', '#ffffff']]) background.setAttribute(k, v);
  const modules = document.createElementNS(SVG, 'path');
  // Rust writes only path commands and numbers here; the check keeps it that way.
  modules.setAttribute('d', /^[Mhvz0-9 -]*$/.test(qr.path) ? qr.path : '');
  modules.setAttribute('fill', '#000000');
  const title = $('invoice-qr-title');
  svg.replaceChildren(title, background, modules);
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
    drawQr(view.qr);
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

export function init() {
  $('receive-form').addEventListener('submit', receive);
  $('invoice-form').addEventListener('submit', getInvoice);
  $('invoice-check').addEventListener('click', checkPayment);
}
