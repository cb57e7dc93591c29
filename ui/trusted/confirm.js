// The pending confirmation, an alertdialog named by the host-made summary and described by its risk and expiry:
// method, validated arguments, proposer. It is drawn once per request and then updated in place (only the
// countdown changes), so a screen reader keeps its place. Approve is available only after the window has been
// visible and focused for APPROVE_DELAY_MS; any blur starts it over. Until then it stays focusable but
// aria-disabled, so it is heard as unavailable rather than skipped. The host enforces the same delay, so a script
// cannot skip it. On a touchscreen (the kiosk, a phone) a tap on Approve does nothing: it is pressed and held for
// HOLD_MS, and the hold is the delay, so a tap meant for whatever was under the finger when the window came up
// can never approve. A keyboard (or a screen reader's activation) still approves with a press once it is available.
import { invoke } from './ipc.js';
import { announce, renderCode, setText } from './text.js';
import { t, pageLang, formatDateTime, backendName } from '../js/l10n.js';

const APPROVE_DELAY_MS = 1000;
const HOLD_MS = 1500;
const WARN_AT_S = 30;
const $ = (id) => document.getElementById(id);

let shown = null; // the request on screen
let clockOffset = 0; // host clock minus ours
let armTimer = null;
let armedFor = null;
let deciding = false;
let warned = false; // the 30-second warning was given for the request on screen
let others = -1; // how many more wait behind it, as drawn
const over = new Set(); // requests that expired here, not shown again while the host sweeps them
let onChange = () => {};

export function setOnChange(handler) {
  onChange = handler;
}

function present() {
  return document.visibilityState === 'visible' && document.hasFocus();
}

function approvable() {
  return $('approve').getAttribute('aria-disabled') !== 'true';
}

const holdMode = () => document.body.classList.contains('hold');

function hint(locked) {
  if (holdMode()) return t('trusted-hint-hold');
  return locked ? t('trusted-hint-locked') : t('trusted-hint-available');
}

function lockApprove(locked) {
  if (approvable() === !locked) return;
  $('approve').setAttribute('aria-disabled', String(locked));
  $('approve-hint').textContent = hint(locked);
  if (!locked) announce(t('trusted-approve-available'));
}

let hold = null; // { id, timer, frame, started } while Approve is held down

function paintHold(fraction) {
  $('approve').style.setProperty('--held', `${Math.round(fraction * 100)}%`);
}

function endHold() {
  if (!hold) return;
  clearTimeout(hold.timer);
  cancelAnimationFrame(hold.frame);
  hold = null;
  $('approve').classList.remove('holding');
  paintHold(0);
}

function startHold(event) {
  if (!holdMode() || !shown || deciding || hold || event.button > 0) return;
  event.preventDefault();
  const approve = $('approve');
  try {
    approve.setPointerCapture(event.pointerId);
  } catch (error) {
    // A synthetic pointer cannot be captured; pointerleave still ends the hold.
  }
  const started = performance.now();
  const step = () => {
    if (!hold) return;
    paintHold(Math.min(1, (performance.now() - started) / HOLD_MS));
    hold.frame = requestAnimationFrame(step);
  };
  hold = { id: shown.id, started, frame: requestAnimationFrame(step), timer: null };
  hold.timer = setTimeout(() => {
    const held = hold && shown && hold.id === shown.id && present();
    endHold();
    if (held) decide('approve', true);
  }, HOLD_MS);
  approve.classList.add('holding');
}

function releaseHold() {
  if (!hold) return;
  endHold();
  const early = t('trusted-hold-too-short');
  setText($('c-status'), early);
  announce(early);
}

function disarm() {
  endHold();
  clearTimeout(armTimer);
  armTimer = null;
  armedFor = null;
  lockApprove(true);
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
    if (shown && present() && armedFor === shown.id && !deciding) lockApprove(false);
  }, APPROVE_DELAY_MS);
}

function secondsLeft() {
  return shown ? Math.max(0, Math.round((shown.expires_at_ms - (Date.now() + clockOffset)) / 1000)) : 0;
}

function tick() {
  if (!shown) return;
  const left = secondsLeft();
  const text = left > 0
    ? t('trusted-expiry-clock', { minutes: Math.floor(left / 60), seconds: String(left % 60).padStart(2, '0') })
    : t('trusted-expiry-expired');
  if ($('c-expiry').textContent !== text) $('c-expiry').textContent = text;
  if (left > 0 && left <= WARN_AT_S && !warned) {
    warned = true;
    $('c-warning').textContent = plural(left, 'trusted-expiry-warning-one', 'trusted-expiry-warning-other', { seconds: left });
  }
  if (left === 0 && !deciding) {
    const request = shown;
    over.add(request.id);
    closeWith(t('trusted-closed-expired', { summary: plain(request.summary) }), 'error');
  }
}

// The summary without the backticks it uses to mark names, for text that is read out.
const plain = (text) => String(text).replace(/`/g, '');

// Message `one` or `other` for the count `n`, as the page's language counts.
function plural(n, one, other, args) {
  return t(new Intl.PluralRules(pageLang()).select(n) === 'one' ? one : other, args);
}

// Who asked, in the page's language, from what the host recorded; null for a kind this page does not know.
function askedBy(who) {
  switch (who && who.kind) {
    case 'this_desktop': return t('trusted-requester-desktop');
    case 'kiosk': return t('trusted-requester-kiosk');
    case 'terminal': return t('trusted-requester-terminal');
    case 'lan': return t('trusted-requester-lan', {
      address: who.address,
      time: formatDateTime(new Date(who.signed_in_at_ms), { dateStyle: 'short', timeStyle: 'short' }),
      session: who.session,
    });
    default: return null;
  }
}

// How much the action changes, by its class; the host's English when the class is one this page does not know.
const RISKS = { read: 'trusted-risk-read', act: 'trusted-risk-act', 'act-high': 'trusted-risk-act-high' };

function draw(request) {
  $('c-summary').replaceChildren(renderCode(request.summary));
  // Who asked, as text only; the host's own words when the page cannot write them. A LAN user's request is marked
  // as such.
  const asked = askedBy(request.asked_by);
  if (asked) setText($('c-requester'), asked);
  else setText($('c-requester'), request.requester || t('trusted-requester-unknown'), Boolean(request.requester));
  const fromLan = request.from_lan === true;
  $('c-lan').hidden = !fromLan;
  $('confirm').classList.toggle('from-lan', fromLan);
  const risk = $('c-risk');
  setText(risk, RISKS[request.class] ? t(RISKS[request.class]) : request.risk, !RISKS[request.class]);
  risk.className = `risk ${request.class}`;
  $('c-tool').textContent = request.tool;
  $('c-method').textContent = request.rpc_method;
  $('c-backend').textContent = backendName(request.backend_id, request.backend);
  $('c-warning').textContent = '';
  setText($('c-status'), '');
  $('c-status').className = 'status';
  $('c-args').replaceChildren(...request.arguments.map(([name, value]) => {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    th.translate = false;
    const td = document.createElement('td');
    td.className = 'mono';
    td.textContent = value;
    td.translate = false;
    tr.append(th, td);
    return tr;
  }));
}

function drawOthers(count) {
  if (count === others) return;
  others = count;
  $('c-more').hidden = count === 0;
  $('c-more').textContent = plural(count, 'trusted-more-waiting-one', 'trusted-more-waiting-other', { count });
}

/** Ends the request on screen: the result is written and announced, and focus goes to the next request's Deny or
 *  to the Confirmations heading, never to the page body. */
async function closeWith(text, kind) {
  shown = null;
  disarm();
  $('last-decision').textContent = text;
  $('last-decision').className = `status ${kind}`;
  announce(text);
  await refresh();
  if (!shown) {
    $('nothing-title').focus();
    onChange();
  }
}

/** Fetches what is pending and shows the oldest. */
export async function refresh() {
  let pending;
  try {
    pending = await invoke('trusted_pending');
  } catch (error) {
    setText($('c-status'), error.message, true);
    return;
  }
  // One past its expiry is over even if the host has not swept it yet.
  const live = pending.filter((request) => request.expires_at_ms > request.now_ms && !over.has(request.id));
  const first = live[0];
  if (!first) {
    if (shown && !deciding) {
      // Gone without an answer from here: it expired, or the turn that asked for it ended.
      const request = shown;
      await closeWith(t('trusted-closed-gone', { summary: plain(request.summary) }), 'error');
      return;
    }
    $('confirm').hidden = true;
    $('nothing').hidden = false;
    return;
  }
  clockOffset = first.now_ms - Date.now();
  const fresh = !shown || shown.id !== first.id || shown.arguments_hash !== first.arguments_hash;
  drawOthers(live.length - 1);
  if (fresh) {
    shown = first;
    warned = false;
    disarm();
    draw(first);
    $('confirm').hidden = false;
    $('nothing').hidden = true;
    tick();
    window.scrollTo(0, 0);
    $('deny').focus();
  }
  arm();
}

/** `held`: Approve was held for HOLD_MS on this request, which stands for the delay. */
async function decide(answer, held = false) {
  if (!shown || deciding) return;
  if (answer === 'approve' && !held && !approvable()) {
    const wait = t('trusted-approve-not-yet');
    setText($('c-status'), wait);
    announce(wait);
    return;
  }
  const request = shown;
  deciding = true;
  lockApprove(true);
  $('deny').setAttribute('aria-disabled', 'true');
  try {
    const verdict = await invoke('trusted_decide', { id: request.id, argumentsHash: request.arguments_hash, answer });
    deciding = false;
    $('deny').removeAttribute('aria-disabled');
    await closeWith(t(verdict === 'allowed' ? 'trusted-closed-approved' : 'trusted-closed-denied',
      { summary: plain(request.summary) }), 'ok');
  } catch (error) {
    deciding = false;
    setText($('c-status'), error.message, true);
    $('c-status').className = 'status error';
    announce(error.message, true);
    if (error.code === 'too_soon') {
      armedFor = null;
      arm();
    } else {
      await refresh();
    }
  } finally {
    deciding = false;
    $('deny').removeAttribute('aria-disabled');
  }
}

/** The kiosk's link to the LAN service (`lan_approvals` of the settings); nothing when it approves no LAN request. */
export function drawLanLink(link) {
  const line = $('lan-link');
  line.hidden = !link;
  if (!link) return;
  line.textContent = link.message;
  line.classList.toggle('down', !link.connected);
}

/** Whether a confirmation is on screen. */
export function hasPending() {
  return shown !== null;
}

export function init() {
  const approve = $('approve');
  approve.addEventListener('click', (event) => {
    // On a touchscreen a pointer's click is not an approval (the hold is); a keyboard's click (detail 0) is.
    if (holdMode() && event.detail > 0) return;
    decide('approve');
  });
  approve.addEventListener('pointerdown', startHold);
  for (const name of ['pointerup', 'pointercancel', 'pointerleave', 'lostpointercapture']) {
    approve.addEventListener(name, releaseHold);
  }
  approve.addEventListener('contextmenu', (event) => event.preventDefault());
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
    tick();
  }, 250);
}
