// The built-in small model's switch: on or off for the next message, and why it cannot answer when it cannot
// (the model file is missing: what to run).
import { invoke } from './ipc.js';
import { setText } from './text.js';
import { t } from '../js/l10n.js';

const $ = (id) => document.getElementById(id);

// `data`: the host's own message (an error), shown as it is (see text.js).
function status(text, kind = '', data = false) {
  setText($('builtin-status'), text, data);
  $('builtin-status').className = `status ${kind}`;
}

let redraw = () => {};
let saving = false;

/** Draws the switch from a settings view; `drawAll` redraws the whole window after a change. */
export function draw(view, drawAll) {
  redraw = drawAll;
  // The LAN service's trusted origin does not offer this switch (it is `aiui-cli serve --no-builtin` there).
  $('builtin-section').hidden = !view.builtin;
  if (saving || !view.builtin) return;
  $('builtin-enabled').checked = view.builtin.enabled;
  if (view.builtin.enabled && view.builtin.unavailable) {
    status(t('trusted-builtin-unavailable', { reason: view.builtin.unavailable }), 'error');
  } else if (!$('builtin-status').classList.contains('ok')) {
    status(view.builtin.enabled ? t('trusted-builtin-on') : t('trusted-builtin-off'));
  }
}

async function toggle() {
  const enabled = $('builtin-enabled').checked;
  saving = true;
  status(t('trusted-saving'));
  try {
    const view = await invoke('trusted_set_builtin', { enabled });
    saving = false;
    status(enabled ? t('trusted-builtin-saved-on') : t('trusted-builtin-saved-off'), 'ok');
    redraw(view);
  } catch (error) {
    saving = false;
    $('builtin-enabled').checked = !enabled;
    status(error.message, 'error', true);
  }
}

$('builtin-enabled').addEventListener('change', toggle);
