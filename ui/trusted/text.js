// The trusted window's text helpers: the page's words in the owner's language (loaded once, before anything is
// drawn), host-written text with `names` shown as code (built with DOM APIs, never parsed as HTML), and the one live
// region every announcement goes through.
import { loadText } from '../js/l10n.js';

let loading = null;

/** Loads the window's text table once (every caller waits for the same load); it never fails: without the table
 *  the page keeps its English. */
export function textReady() {
  if (!loading) loading = loadText('trusted_ui_text');
  return loading;
}

/** Writes `text` into `el`. `data`: the text is not this page's words but data or the host's own message (an
 *  `error.message`, a summary, an id), marked `translate="no"`. */
export function setText(el, text, data = false) {
  el.textContent = text;
  if (data) el.translate = false;
  else el.removeAttribute('translate');
}

/** `text` as a fragment, each `backticked` part in a <code> element. */
export function renderCode(text) {
  const fragment = document.createDocumentFragment();
  String(text).split(/(`[^`\n]+`)/).forEach((part) => {
    if (!part) return;
    if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) {
      const code = document.createElement('code');
      code.textContent = part.slice(1, -1);
      fragment.append(code);
    } else {
      fragment.append(document.createTextNode(part));
    }
  });
  return fragment;
}

/** Says `text` once through the window's polite live region (cleared first, so the same words are heard again);
 *  `data` as in {@link setText}. */
let saying = null;
export function announce(text, data = false) {
  const region = document.getElementById('announcer');
  clearTimeout(saying);
  region.textContent = '';
  saying = setTimeout(() => { setText(region, text, data); }, 50);
}
