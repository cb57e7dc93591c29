// The trusted window: pending confirmations first, then the operator settings. It trusts only what it fetches
// from Rust; nothing the chat window can send (storage, BroadcastChannel, events) is read here.
import { invoke, onLanLinkNudge, onPendingNudge } from './ipc.js';
import * as confirm from './confirm.js';
import * as settings from './settings.js';
import { textReady } from './text.js';
import { enableZoom, keepTextMenus } from '../js/zoom.js';

async function start() {
  // The owner's language first (it calls l10n.js's loadText once): nothing, least of all a confirmation, is drawn
  // before the window's words are in place.
  await textReady();
  enableZoom();
  // The window is made for the first confirmation that needs it, so its layout and hold mode are settled before
  // a confirmation is drawn. A touchscreen (the kiosk, or a phone on the LAN service's trusted origin) approves
  // by press-and-hold.
  const view = await invoke('trusted_settings').catch(() => null);
  if ((view && view.kiosk) || window.matchMedia('(pointer: coarse)').matches) {
    document.body.classList.add('kiosk', 'hold');
    keepTextMenus();
  }
  confirm.init();
  confirm.drawLanLink(view && view.lan_approvals);
  settings.init();
  confirm.setOnChange(() => {
    // After the last answer in kiosk mode the chat should be visible again.
    if (!confirm.hasPending() && document.body.classList.contains('kiosk')) invoke('trusted_hide').catch(() => {});
  });
  document.getElementById('close').addEventListener('click', () => invoke('trusted_hide').catch(() => {}));
  onPendingNudge(() => confirm.refresh());
  onLanLinkNudge(() => invoke('trusted_settings').then((fresh) => confirm.drawLanLink(fresh.lan_approvals)).catch(() => {}));
  // The nudge can be missed (the page was loading); a steady poll keeps the window right.
  setInterval(() => confirm.refresh(), 1000);
  await confirm.refresh();
  await settings.refresh();
}

start();
