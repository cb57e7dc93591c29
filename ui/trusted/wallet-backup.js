// The wallet's backup and restore. The words are fetched only after the owner asks and then confirms that nobody
// can see the screen; they are shown as a numbered list with the mints (text and QR code) and a QR code of the whole
// backup, and they leave the page (list, QR codes) when the owner hides them or the window is hidden. They are never
// written to storage, the console or a variable that outlives the view. Restore is offered only when the host says
// the wallet is empty (or not made yet).
import { invoke } from './ipc.js';
import { announce } from './text.js';
import { t } from '../js/l10n.js';

const $ = (id) => document.getElementById(id);
let ui = null; // { status, drawQr, clearQr } from wallet.js
let redraw = () => {};

// A word, a mint's address or a line the host wrote about the restore: data, marked `translate="no"`.
function item(text) {
  const li = document.createElement('li');
  li.textContent = text;
  li.translate = false;
  return li;
}

/** Draws the backup and restore parts from a wallet view; `drawAll` redraws the section after a change. */
export function draw(view, drawAll) {
  redraw = drawAll;
  $('backup-part').hidden = !view.opened;
  $('backup-state').textContent = view.backup_confirmed
    ? t('trusted-backup-confirmed')
    : t('trusted-backup-not-yet');
  $('restore-part').hidden = !view.restorable;
}

function ask() {
  $('backup-ask').hidden = true;
  $('backup-confirm').hidden = false;
  $('backup-cancel').focus();
}

function cancel() {
  $('backup-confirm').hidden = true;
  $('backup-ask').hidden = false;
  $('backup-ask').focus();
}

async function show() {
  $('backup-confirm').hidden = true;
  ui.status(t('trusted-backup-reading'));
  try {
    const view = await invoke('trusted_wallet_backup');
    $('backup-words').replaceChildren(...view.words.split(/\s+/).filter(Boolean).map(item));
    $('backup-mints').replaceChildren(...view.mints.map(item));
    ui.drawQr($('backup-mints-qr'), view.mints_qr);
    ui.drawQr($('backup-qr'), view.backup_qr);
    $('backup-view').hidden = false;
    ui.status('');
    $('backup-words-title').focus();
    announce(t('trusted-backup-shown'));
  } catch (error) {
    $('backup-ask').hidden = false;
    ui.status(error.message, 'error', true);
  }
}

/** Takes the words out of the page. */
function hide() {
  const shown = !$('backup-view').hidden;
  $('backup-words').replaceChildren();
  $('backup-mints').replaceChildren();
  ui.clearQr($('backup-mints-qr'));
  ui.clearQr($('backup-qr'));
  $('backup-view').hidden = true;
  $('backup-confirm').hidden = true;
  $('backup-ask').hidden = false;
  return shown;
}

async function written() {
  try {
    const view = await invoke('trusted_wallet_confirm_backup');
    hide();
    redraw(view);
    ui.status(t('trusted-backup-done'), 'ok');
    $('backup-ask').focus();
  } catch (error) {
    ui.status(error.message, 'error', true);
  }
}

async function restore(event) {
  event.preventDefault();
  const text = $('restore-text').value;
  if (!text.trim()) return ui.status(t('trusted-restore-empty'), 'error');
  ui.status(t('trusted-restore-asking'));
  try {
    const done = await invoke('trusted_wallet_restore', { text, replaceOtherWords: $('restore-replace').checked });
    $('restore-text').value = '';
    $('restore-replace').checked = false;
    $('restore-replace-box').hidden = true;
    $('restore-found').replaceChildren(...done.found.map(item));
    redraw(done.wallet);
    ui.status(done.message, 'ok', true);
  } catch (error) {
    // Words the keyring holds for another wallet are replaced only when the owner ticks the box the host asked for.
    if (error.code === 'other_words') $('restore-replace-box').hidden = false;
    ui.status(error.message, 'error', true);
  }
}

export function init(helpers) {
  ui = helpers;
  $('backup-ask').addEventListener('click', ask);
  $('backup-cancel').addEventListener('click', cancel);
  $('backup-show').addEventListener('click', show);
  $('backup-written').addEventListener('click', written);
  $('backup-close').addEventListener('click', () => {
    hide();
    ui.status(t('trusted-backup-hidden'));
    $('backup-ask').focus();
  });
  $('restore-form').addEventListener('submit', restore);
  // A hidden window keeps nothing of the words.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') hide();
  });
}
