// Model text as DOM: paragraphs, `code`, **bold** and http(s) links, built with DOM APIs only. Nothing from the
// model is ever parsed as HTML.
import { openExternal } from './ipc.js';

const INLINE = /(`[^`\n]+`|\*\*[^*\n]+\*\*|https?:\/\/[^\s<>"')\]]+)/g;

function inline(parent, line) {
  let last = 0;
  for (const match of line.matchAll(INLINE)) {
    if (match.index > last) parent.append(document.createTextNode(line.slice(last, match.index)));
    const token = match[0];
    if (token.startsWith('`')) {
      const code = document.createElement('code');
      code.textContent = token.slice(1, -1);
      parent.append(code);
    } else if (token.startsWith('**')) {
      const strong = document.createElement('strong');
      strong.textContent = token.slice(2, -2);
      parent.append(strong);
    } else {
      const a = document.createElement('a');
      a.textContent = token;
      a.href = token;
      a.addEventListener('click', (event) => {
        event.preventDefault();
        openExternal(token);
      });
      parent.append(a);
    }
    last = match.index + token.length;
  }
  if (last < line.length) parent.append(document.createTextNode(line.slice(last)));
}

/** Renders one line of `text` (code, bold, links) into a fragment, for a notice or a summary. */
export function renderLine(text) {
  const fragment = document.createDocumentFragment();
  inline(fragment, String(text));
  return fragment;
}

/** Renders `text` into a fragment of paragraphs. */
export function renderText(text) {
  const fragment = document.createDocumentFragment();
  for (const block of String(text).split(/\n{2,}/)) {
    const p = document.createElement('p');
    block.split('\n').forEach((line, i) => {
      if (i > 0) p.append(document.createElement('br'));
      inline(p, line);
    });
    fragment.append(p);
  }
  return fragment;
}
