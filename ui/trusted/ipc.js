// The trusted window's door to the host. Everything it shows is fetched from Rust; it listens to nothing but a
// content-free nudge, and ignores storage and BroadcastChannel entirely.
const tauri = window.__TAURI__;

export function invoke(command, args = {}) {
  return tauri.core.invoke(command, args).catch((error) => {
    if (error && typeof error === 'object' && 'code' in error) throw error;
    throw { code: 'ipc', message: String(error) };
  });
}

/** Calls `handler` (with no data) whenever the host says a confirmation opened. */
export function onPendingNudge(handler) {
  tauri.event.listen('aiui:pending', () => handler()).catch(() => {});
}
