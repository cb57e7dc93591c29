// The chat window's door to the host: Tauri's invoke and channels, nothing else. Errors arrive as
// { code, message } from Rust (or as an ACL string), and are normalised to that shape here.
const tauri = window.__TAURI__;

export function invoke(command, args = {}) {
  return tauri.core.invoke(command, args).catch((error) => {
    if (error && typeof error === 'object' && 'code' in error) throw error;
    throw { code: 'ipc', message: String(error) };
  });
}

/** A channel whose messages go to `onMessage`; pass it as a command argument. */
export function channel(onMessage) {
  const ch = new tauri.core.Channel();
  ch.onmessage = onMessage;
  return ch;
}

/** Opens an http(s) link in the system browser; anything else is ignored. */
export function openExternal(url) {
  if (!/^https?:\/\//i.test(url)) return;
  tauri.core.invoke('plugin:shell|open', { path: url }).catch(() => {});
}
