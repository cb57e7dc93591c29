// The trusted window's door to the host. Everything it shows is fetched from the host; it listens to nothing but a
// content-free nudge, and ignores storage and BroadcastChannel entirely. In the desktop app that is Tauri's
// invoke; on the LAN service's trusted origin it is fetch with this origin's own session and CSRF token, and
// every approval carries the owner's approval passphrase or TOTP code (lan-approval.js adds the field).
import { approvalSecret, clearApprovalSecret } from './lan-approval.js';
import { t } from '../js/l10n.js';

const tauri = window.__TAURI__;
const lan = !tauri;

let csrf = null;

async function token() {
  if (csrf) return csrf;
  const answer = await fetch('api/session', { credentials: 'same-origin', cache: 'no-store' }).then((r) => r.json());
  if (!answer.signed_in) {
    window.location.assign('login.html');
    throw { code: 'signed_out', message: t('trusted-signed-out') };
  }
  csrf = answer.csrf;
  return csrf;
}

// A POST on the LAN trusted origin to `path` (relative to the page), with this origin's session and CSRF token.
export async function lanPost(path, args = {}) {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': await token() },
    body: JSON.stringify(args),
  });
  const body = await response.json().catch(() => ({ code: 'http', message: t('trusted-service-answered', { status: String(response.status) }) }));
  if (response.status === 401) window.location.assign('login.html');
  if (!response.ok) throw body;
  return body;
}

function post(command, args) {
  return lanPost(`api/invoke/${encodeURIComponent(command)}`, args);
}

export function invoke(command, args = {}) {
  if (!lan) {
    return tauri.core.invoke(command, args).catch((error) => {
      if (error && typeof error === 'object' && 'code' in error) throw error;
      throw { code: 'ipc', message: String(error) };
    });
  }
  let sent = args;
  if (command === 'trusted_decide' && args.answer === 'approve') sent = { ...args, secret: approvalSecret() };
  return post(command, sent)
    .then((answer) => {
      if (command === 'trusted_decide') clearApprovalSecret();
      return answer;
    })
    .catch((error) => {
      // confirm.js starts the approve delay over on `too_soon`; a refused passphrase needs exactly that (Approve
      // unlocks again after the delay), so it is passed on under that code, the server's own kept in `refused`.
      if (command === 'trusted_decide' && error && ['secret_required', 'wrong_secret'].includes(error.code)) {
        throw { code: 'too_soon', refused: error.code, message: error.message };
      }
      if (error && typeof error === 'object' && 'code' in error) throw error;
      throw { code: 'ipc', message: String(error) };
    });
}

/** Calls `handler` (with no data) whenever the host says a confirmation opened (the desktop app; the LAN page
 *  polls). */
export function onPendingNudge(handler) {
  onNudge('aiui:pending', handler);
}

/** Calls `handler` (with no data) whenever the kiosk's link to the LAN service comes or goes. */
export function onLanLinkNudge(handler) {
  onNudge('aiui:lan-link', handler);
}

function onNudge(name, handler) {
  if (lan) return;
  tauri.event.listen(name, () => handler()).catch(() => {});
}
