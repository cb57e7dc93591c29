// The trusted window's text helpers: host-written text with `names` shown as code (built with DOM APIs, never
// parsed as HTML), and the one live region every announcement goes through.

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

/** Says `text` once through the window's polite live region (cleared first, so the same words are heard again). */
let saying = null;
export function announce(text) {
  const region = document.getElementById('announcer');
  clearTimeout(saying);
  region.textContent = '';
  saying = setTimeout(() => { region.textContent = text; }, 50);
}
