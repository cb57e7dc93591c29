// On the LAN service's trusted origin only: the approval passphrase (or TOTP code) field beside Approve. Its value
// goes with an approval and is cleared after every decision; it is never stored. It also loads the LAN's wallet
// section (lan-wallet.js), which the desktop window never loads.
import { textReady } from './text.js';
import { t } from '../js/l10n.js';

const lan = !window.__TAURI__;

function field() {
  return document.getElementById('approval-secret');
}

// A password field for the approval secret, placed before `anchor`; never stored, cleared after each use.
function addSecretField(id, text, anchor) {
  if (!anchor || document.getElementById(id)) return;
  const box = document.createElement('div');
  box.className = 'field approval-secret';
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = text;
  const input = document.createElement('input');
  input.id = id;
  input.type = 'password';
  input.autocomplete = 'off';
  input.spellcheck = false;
  box.append(label, input);
  anchor.parentElement.insertBefore(box, anchor);
}

function addField() {
  const approve = document.getElementById('approve');
  addSecretField('approval-secret', t('trusted-secret-approve'), approve && approve.parentElement);
}

// Beside the tool switches: over the LAN a switch changes only with the approval secret, as an approval does.
function addGrantField() {
  addSecretField('grant-secret', t('trusted-secret-grant'), document.getElementById('grants'));
}

// The secret for a tool switch, cleared once read; `undefined` in the desktop window, which needs none.
export function takeGrantSecret() {
  const input = document.getElementById('grant-secret');
  if (!input) return undefined;
  const value = input.value;
  input.value = '';
  return value;
}

export function approvalSecret() {
  return field() ? field().value : '';
}

export function clearApprovalSecret() {
  if (field()) field().value = '';
}

function addFields() {
  addField();
  addGrantField();
}

// The fields are added once the window's words are loaded (trusted.js waits for the same load before it draws
// anything, so they are in place before a confirmation can show).
if (lan) {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => textReady().then(addFields));
  else textReady().then(addFields);
  import('./lan-wallet.js').catch((error) => console.error('the wallet section did not load', error));
}
