// Operator settings: the Claude API key and the node password go to the OS keyring (the host only ever says
// "set" or "not set"), the node pairing shows the certificate fingerprint to accept, the tool grants, and (in
// allowance.js and wallet.js) both allowances, Claude's prices, the Routstr options and the wallet.
import { invoke } from './ipc.js';
import * as allowance from './allowance.js';
import * as wallet from './wallet.js';
import * as builtin from './builtin.js';
import * as language from './language.js';
import { takeGrantSecret } from './lan-approval.js';
import { setText } from './text.js';
import { t } from '../js/l10n.js';

const $ = (id) => document.getElementById(id);

// `data`: the host's own message (an error), shown as it is (see text.js).
function status(id, text, kind = '', data = false) {
  setText($(id), text, data);
  $(id).className = `status ${kind}`;
}

function pill(el, set) {
  el.textContent = set === null || set === undefined ? t('trusted-unknown') : set ? t('trusted-set') : t('trusted-not-set');
  el.className = `pill ${set ? 'set' : 'unset'}`;
}

function draw(view) {
  allowance.draw(view);
  builtin.draw(view, draw);
  language.draw(view);
  pill($('key-state'), view.api_key_set);
  if (view.keyring_error) status('key-status', view.keyring_error, 'error', true);
  const node = view.node;
  // An address or fingerprint alone is data; "none" and the demo's label are this window's words.
  if (!node) setText($('node-url'), t('trusted-none'));
  else if (node.demo) setText($('node-url'), t('trusted-node-demo', { url: node.url }));
  else setText($('node-url'), node.url, true);
  if (node && node.fingerprint) setText($('node-fp'), node.fingerprint, true);
  else setText($('node-fp'), t('trusted-none'));
  $('node-pw').textContent = !node ? t('trusted-not-set')
    : node.demo ? t('trusted-node-password-demo')
    : node.password_set ? t('trusted-node-password-set') : t('trusted-not-set');
  if (view.build) {
    setText($('about-version'), view.build.version, true);
    setText($('about-commit'), view.build.commit, true);
  }
  for (const id of ['pair-url', 'pair-pw', 'pair-fetch', 'pair-save']) $(id).disabled = view.demo;
  if (view.demo) status('pair-status', t('trusted-pair-demo'));
  $('grants').replaceChildren(...view.tools.map((tool) => {
    const li = document.createElement('li');
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = tool.enabled;
    box.addEventListener('change', () => setGrant(tool.name, box.checked));
    const name = document.createElement('span');
    name.className = 'mono';
    name.textContent = tool.name;
    name.translate = false;
    const cls = document.createElement('span');
    cls.className = 'class';
    cls.textContent = tool.class === 'read' ? t('trusted-grant-reads') : t('trusted-grant-changes');
    label.append(box, name, cls);
    // What the tool does, as the model is told it (in English, the model's instructions): data, like its name.
    name.title = tool.description;
    li.append(label);
    return li;
  }));
}

export async function refresh() {
  try {
    draw(await invoke('trusted_settings'));
  } catch (error) {
    status('key-status', error.message, 'error', true);
  }
  await wallet.refresh();
}

async function setGrant(tool, enabled) {
  try {
    const secret = takeGrantSecret();
    draw(await invoke('trusted_set_grant', secret === undefined ? { tool, enabled } : { tool, enabled, secret }));
    status('grants-status', t(enabled ? 'trusted-grant-on' : 'trusted-grant-off', { tool }), 'ok');
  } catch (error) {
    status('grants-status', error.message, 'error', true);
    refresh();
  }
}

async function saveKey(event) {
  event.preventDefault();
  const key = $('key-input').value;
  try {
    draw(await invoke('trusted_set_api_key', { key }));
    $('key-input').value = '';
    status('key-status', t('trusted-key-saved'), 'ok');
  } catch (error) {
    status('key-status', error.message, 'error', true);
  }
}

async function clearKey() {
  try {
    draw(await invoke('trusted_clear_api_key'));
    status('key-status', t('trusted-key-removed'), 'ok');
  } catch (error) {
    status('key-status', error.message, 'error', true);
  }
}

async function fetchFingerprint() {
  status('pair-status', t('trusted-pair-connecting'));
  try {
    const fingerprint = await invoke('trusted_fetch_fingerprint', { url: $('pair-url').value });
    $('pair-fp').value = fingerprint;
    $('pair-fp-ok').checked = false;
    $('pair-fp-box').hidden = false;
    status('pair-status', t('trusted-pair-compare'));
  } catch (error) {
    status('pair-status', error.message, 'error', true);
  }
}

async function pair(event) {
  event.preventDefault();
  const url = $('pair-url').value;
  const https = url.trim().toLowerCase().startsWith('https://');
  const fingerprint = https && $('pair-fp-ok').checked ? $('pair-fp').value : null;
  if (https && !fingerprint) {
    status('pair-status', t('trusted-pair-fetch-first'), 'error');
    return;
  }
  status('pair-status', t('trusted-pair-logging-in'));
  try {
    draw(await invoke('trusted_pair_node', { url, fingerprint, password: $('pair-pw').value }));
    $('pair-pw').value = '';
    status('pair-status', t('trusted-pair-done'), 'ok');
  } catch (error) {
    status('pair-status', error.message, 'error', true);
  }
}

export function init() {
  // A new allowance may have opened the wallet (the paid leg needs it), so its balances are fetched again.
  allowance.init((view) => { draw(view); wallet.refresh(); });
  wallet.init();
  $('key-form').addEventListener('submit', saveKey);
  $('key-clear').addEventListener('click', clearKey);
  $('pair-fetch').addEventListener('click', fetchFingerprint);
  $('pair-form').addEventListener('submit', pair);
}
