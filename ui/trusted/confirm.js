// The pending confirmation: host-made summary, method, validated arguments, risk, proposer, expiry. Approve is
// enabled only after the window has been visible and focused for APPROVE_DELAY_MS; any blur starts it over. The
// host enforces the same delay, so a script cannot skip it.
import { invoke } from './ipc.js';

const APPROVE_DELAY_MS = 1000;
const $ = (id) => document.getElementById(id);

let shown = null; // the request on screen
let clockOffset = 0; // host clock minus ours
let armTimer = null;
let armedFor = null;
let onChange = () => {};

export function setOnChange(handler) {
  onChange = handler;
}

function present() {
  return document.visibilityState === 'visible' && document.hasFocus();
}

function disarm() {
  clearTimeout(armTimer);
  armTimer = null;
  armedFor = null;
  $('approve').disabled = true;
}

function arm() {
  if (!shown || !present()) {
    disarm();
    return;
  }
  if (armedFor === shown.id) return;
  armedFor = shown.id;
  clearTimeout(armTimer);
  armTimer = setTimeout(() => {
    if (shown && present() && armedFor === shown.id) $('approve').disabled = false;
  }, APPROVE_DELAY_MS);
}

function expiryText() {
  if (!shown) return '';
  const left = Math.max(0, Math.round((shown.expires_at_ms - (Date.now() + clockOffset)) / 1000));
  return left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : 'expired';
}

function draw(request, others) {
  $('c-summary').textContent = request.summary;
  const risk = $('c-risk');
  risk.textContent = request.risk;
  risk.className = `risk ${request.class}`;
  $('c-tool').textContent = request.tool;
  $('c-method').textContent = request.rpc_method;
  $('c-backend').textContent = request.backend;
  $('c-expiry').textContent = expiryText();
  $('c-args').replaceChildren(...request.arguments.map(([name, value]) => {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    const td = document.createElement('td');
    td.className = 'mono';
    td.textContent = value;
    tr.append(th, td);
    return tr;
  }));
  $('c-more').hidden = others === 0;
  $('c-more').textContent = `${others} more waiting after this one.`;
}

/** Fetches what is pending and shows the oldest. */
export async function refresh() {
  let pending;
  try {
    pending = await invoke('trusted_pending');
  } catch (error) {
    $('c-status').textContent = error.message;
    return;
  }
  const first = pending[0];
  $('confirm').hidden = !first;
  $('nothing').hidden = Boolean(first);
  if (!first) {
    if (shown) disarm();
    shown = null;
    return;
  }
  clockOffset = first.now_ms - Date.now();
  const fresh = !shown || shown.id !== first.id || shown.arguments_hash !== first.arguments_hash;
  shown = first;
  draw(first, pending.length - 1);
  if (fresh) {
    disarm();
    $('c-status').textContent = '';
    $('c-status').className = 'status';
    $('deny').focus();
  }
  arm();
}

async function decide(answer) {
  if (!shown) return;
  const request = shown;
  $('approve').disabled = true;
  $('deny').disabled = true;
  try {
    const verdict = await invoke('trusted_decide', { id: request.id, argumentsHash: request.arguments_hash, answer });
    const text = verdict === 'allowed' ? `Approved: ${request.summary}` : `Denied: ${request.summary}`;
    $('last-decision').textContent = text;
    $('last-decision').className = 'status ok';
    shown = null;
    disarm();
    await refresh();
    onChange();
  } catch (error) {
    $('c-status').textContent = error.message;
    $('c-status').className = 'status error';
    if (error.code === 'too_soon') {
      armedFor = null;
      arm();
    } else {
      await refresh();
    }
  } finally {
    $('deny').disabled = false;
  }
}

export function hasPending() {
  return shown !== null;
}

export function init() {
  $('approve').addEventListener('click', () => decide('approve'));
  $('deny').addEventListener('click', () => decide('deny'));
  window.addEventListener('focus', arm);
  window.addEventListener('blur', disarm);
  // Hidden and shown again (raised for the next confirmation, or by "Top up"): the delay starts over.
  document.addEventListener('visibilitychange', () => {
    disarm();
    arm();
  });
  // Focus can change without an event reaching the page (a window manager, a screen lock): check again often.
  setInterval(() => {
    if (shown && !present()) disarm();
    else arm();
    $('c-expiry').textContent = expiryText();
  }, 250);
}
