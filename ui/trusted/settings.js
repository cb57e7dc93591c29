// Operator settings: the Claude API key and the node password go to the OS keyring (the host only ever says
// "set" or "not set"), the node pairing shows the certificate fingerprint to accept, the tool grants, and (in
// allowance.js and wallet.js) both allowances, Claude's prices, the Routstr options and the wallet.
import { invoke } from './ipc.js';
import * as allowance from './allowance.js';
import * as wallet from './wallet.js';
import * as builtin from './builtin.js';
import { takeGrantSecret } from './lan-approval.js';

const $ = (id) => document.getElementById(id);

function status(id, text, kind = '') {
  $(id).textContent = text;
  $(id).className = `status ${kind}`;
}

function pill(el, set) {
  el.textContent = set === null || set === undefined ? 'unknown' : set ? 'set' : 'not set';
  el.className = `pill ${set ? 'set' : 'unset'}`;
}

function draw(view) {
  allowance.draw(view);
  builtin.draw(view, draw);
  pill($('key-state'), view.api_key_set);
  if (view.keyring_error) status('key-status', view.keyring_error, 'error');
  const node = view.node;
  $('node-url').textContent = node ? `${node.url}${node.demo ? ' (demo node)' : ''}` : 'none';
  $('node-fp').textContent = node && node.fingerprint ? node.fingerprint : 'none';
  $('node-pw').textContent = !node ? 'not set'
    : node.demo ? 'generated for the demo (kept in memory only)'
    : node.password_set ? 'set (in the keyring)' : 'not set';
  if (view.build) {
    $('about-version').textContent = view.build.version;
    $('about-commit').textContent = view.build.commit;
  }
  for (const id of ['pair-url', 'pair-pw', 'pair-fetch', 'pair-save']) $(id).disabled = view.demo;
  if (view.demo) status('pair-status', 'The demo is paired with its simulated node. Start AIUI without --demo to pair a real one.');
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
    const cls = document.createElement('span');
    cls.className = 'class';
    cls.textContent = tool.class === 'read' ? 'reads' : 'changes the node (always confirmed)';
    label.append(box, name, cls);
    label.title = tool.description;
    li.append(label);
    return li;
  }));
}

export async function refresh() {
  try {
    draw(await invoke('trusted_settings'));
  } catch (error) {
    status('key-status', error.message, 'error');
  }
  await wallet.refresh();
}

async function setGrant(tool, enabled) {
  try {
    const secret = takeGrantSecret();
    draw(await invoke('trusted_set_grant', secret === undefined ? { tool, enabled } : { tool, enabled, secret }));
    status('grants-status', `${tool} is ${enabled ? 'on' : 'off'} from the next message.`, 'ok');
  } catch (error) {
    status('grants-status', error.message, 'error');
    refresh();
  }
}

async function saveKey(event) {
  event.preventDefault();
  const key = $('key-input').value;
  try {
    draw(await invoke('trusted_set_api_key', { key }));
    $('key-input').value = '';
    status('key-status', 'Saved in the keyring.', 'ok');
  } catch (error) {
    status('key-status', error.message, 'error');
  }
}

async function clearKey() {
  try {
    draw(await invoke('trusted_clear_api_key'));
    status('key-status', 'Removed from the keyring.', 'ok');
  } catch (error) {
    status('key-status', error.message, 'error');
  }
}

async function fetchFingerprint() {
  status('pair-status', 'Connecting…');
  try {
    const fingerprint = await invoke('trusted_fetch_fingerprint', { url: $('pair-url').value });
    $('pair-fp').value = fingerprint;
    $('pair-fp-ok').checked = false;
    $('pair-fp-box').hidden = false;
    status('pair-status', 'Compare the fingerprint with the one your node shows before accepting it.');
  } catch (error) {
    status('pair-status', error.message, 'error');
  }
}

async function pair(event) {
  event.preventDefault();
  const url = $('pair-url').value;
  const https = url.trim().toLowerCase().startsWith('https://');
  const fingerprint = https && $('pair-fp-ok').checked ? $('pair-fp').value : null;
  if (https && !fingerprint) {
    status('pair-status', 'Fetch the fingerprint, compare it, and tick "It matches" first.', 'error');
    return;
  }
  status('pair-status', 'Logging in…');
  try {
    draw(await invoke('trusted_pair_node', { url, fingerprint, password: $('pair-pw').value }));
    $('pair-pw').value = '';
    status('pair-status', 'Paired. The assistant now works on this node.', 'ok');
  } catch (error) {
    status('pair-status', error.message, 'error');
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
