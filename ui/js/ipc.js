// The chat window's door to the host: Tauri's invoke and channels in the desktop app; over the LAN service
// (`aiui-cli serve`), fetch to `api/invoke/<command>` with the session's CSRF token and Server-Sent Events for a
// turn's events. Errors arrive as { code, message } either way. All URLs are relative (the service may sit
// under a base path behind a proxy).
import { t } from './l10n.js';

const tauri = window.__TAURI__;

/** Whether this page is served by the LAN service rather than the desktop app. */
export const lan = !tauri;

let csrf = null;

async function token() {
  if (csrf) return csrf;
  const answer = await fetch('api/session', { credentials: 'same-origin', cache: 'no-store' }).then((r) => r.json());
  if (!answer.signed_in) {
    window.location.assign('login.html');
    throw { code: 'signed_out', message: t('chat-signed-out') };
  }
  csrf = answer.csrf;
  return csrf;
}

async function post(command, args) {
  const response = await fetch(`api/invoke/${encodeURIComponent(command)}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': await token() },
    body: JSON.stringify(args),
  });
  const body = await response.json().catch(() => ({ code: 'http', message: t('chat-service-answered', { status: String(response.status) }) }));
  if (response.status === 401) window.location.assign('login.html');
  if (!response.ok) throw body;
  return body;
}

// A turn's events: the POST starts it, an EventSource reads its events until the last one.
const FINAL = new Set(['done', 'stopped', 'failed']);

function follow(turn, onMessage) {
  const source = new EventSource(`api/turns/${encodeURIComponent(turn)}/events`);
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (FINAL.has(event.event)) source.close();
    onMessage(event);
  };
}

export function invoke(command, args = {}) {
  if (!lan) {
    return tauri.core.invoke(command, args).catch((error) => {
      if (error && typeof error === 'object' && 'code' in error) throw error;
      throw { code: 'ipc', message: String(error) };
    });
  }
  const call = (async () => {
    if (command === 'chat_send') {
      const { onEvent, ...rest } = args;
      const started = await post(command, rest);
      follow(started.turn, onEvent.onmessage);
      return started.conversation;
    }
    if (command === 'request_trusted_window') {
      // Confirmations are answered only on the trusted origin: open it; nothing is sent to it from here.
      const { url } = await post(command, {});
      window.open(url, 'aiui-trusted', 'noopener');
      return null;
    }
    return post(command, args);
  })();
  return call.catch((error) => {
    if (error && typeof error === 'object' && 'code' in error) throw error;
    throw { code: 'ipc', message: String(error) };
  });
}

/** A channel whose messages go to `onMessage`; pass it as a command argument. */
export function channel(onMessage) {
  if (lan) return { onmessage: onMessage };
  const ch = new tauri.core.Channel();
  ch.onmessage = onMessage;
  return ch;
}

/** Opens an http(s) link in the system browser (a new tab over the LAN); anything else is ignored. */
export function openExternal(url) {
  if (!/^https?:\/\//i.test(url)) return;
  if (lan) {
    window.open(url, '_blank', 'noopener,noreferrer');
    return;
  }
  tauri.core.invoke('plugin:shell|open', { path: url }).catch(() => {});
}
