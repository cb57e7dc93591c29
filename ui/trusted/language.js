// The language setting: the owner picks the language of both windows, the answers and the notices (or the
// system's). The host saves it, reloads the chat window, and this window reloads itself to show it.
import { invoke } from './ipc.js';
import { setText } from './text.js';
import { t } from '../js/l10n.js';

const $ = (id) => document.getElementById(id);

// `data`: the host's own message (an error), shown as it is (see text.js).
function status(text, kind = '', data = false) {
  setText($('language-status'), text, data);
  $('language-status').className = `status ${kind}`;
}

let shown = null; // the value the select showed last, put back when a change fails

function option(value, text, data) {
  const el = document.createElement('option');
  el.value = value;
  el.textContent = text;
  // A language's own name ("Deutsch") is the same on every page, so it is data, not this page's words.
  if (data) el.translate = false;
  return el;
}

/** Draws the setting from a settings view. The LAN service's trusted origin has none (its language is
 *  `aiui-cli serve --language`, or each browser's own). */
export function draw(view) {
  const language = view.language;
  $('language-section').hidden = !language;
  if (!language) return;
  const select = $('language-select');
  const system = language.choices.find((c) => c.tag === language.system);
  const options = [option('', t('trusted-language-system', { name: system ? system.name : language.system }), false)];
  for (const choice of language.choices) options.push(option(choice.tag, choice.name, true));
  // A tag outside the list (the pseudo-locale, set by its tag) is shown as it is rather than as a wrong pick.
  if (language.picked && !language.choices.some((c) => c.tag === language.picked)) {
    options.push(option(language.picked, language.picked, true));
  }
  select.replaceChildren(...options);
  select.value = language.picked || '';
  shown = select.value;
}

async function change() {
  const select = $('language-select');
  const locale = select.value || null;
  select.disabled = true;
  status(t('trusted-language-changing'));
  try {
    await invoke('trusted_set_locale', { locale });
    window.location.reload();
  } catch (error) {
    select.disabled = false;
    select.value = shown;
    status(error.message, 'error', true);
  }
}

$('language-select').addEventListener('change', change);
