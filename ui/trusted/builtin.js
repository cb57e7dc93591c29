// The built-in small model's switch: on or off for the next message, and why it cannot answer when it cannot
// (the model file is missing: what to run).
import { invoke } from './ipc.js';

const $ = (id) => document.getElementById(id);

function status(text, kind = '') {
  $('builtin-status').textContent = text;
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
    status(`On, but it cannot answer: ${view.builtin.unavailable}`, 'error');
  } else if (!$('builtin-status').classList.contains('ok')) {
    status(view.builtin.enabled ? 'On: it answers when no other backend does.' : 'Off.');
  }
}

async function toggle() {
  const enabled = $('builtin-enabled').checked;
  saving = true;
  status('Saving…');
  try {
    const view = await invoke('trusted_set_builtin', { enabled });
    saving = false;
    status(enabled ? 'On from the next message.' : 'Off from the next message.', 'ok');
    redraw(view);
  } catch (error) {
    saving = false;
    $('builtin-enabled').checked = !enabled;
    status(error.message, 'error');
  }
}

$('builtin-enabled').addEventListener('change', toggle);
