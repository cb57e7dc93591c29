// The kiosk's on-screen keyboard: a touchscreen on the node has no keyboard, so a question is typed here. A tap on
// the message box opens it, Send closes it (the answer needs the room). Keys never take the focus (the message box
// keeps it, with its caret), so typing, Backspace and Send act on it as a real keyboard would. The owner can turn
// it off (a system keyboard may already run); that choice is remembered, and the Keyboard button turns it on.
// Its layout follows the page's language (English QWERTY, German QWERTZ, Spanish with ñ and a dead accent key); the
// layout key cycles through them, and that explicit choice is remembered and wins over the language.
import { t } from './l10n.js';

// The bottom row is the same everywhere (Hide is put in front of it when it is drawn).
const BOTTOM = ['layer', 'layout', ',', 'space', '.', '?', 'enter'];
const NUMBERS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'];
const PUNCTUATION = ['-', '/', ':', ';', '(', ')', '@', '"', "'"];
const MORE_SYMBOLS = ['#', '%', '+', '=', '_', '!', '&', '*'];

// `name` is the layout's own name for itself (an endonym: it stays the same whatever language the page is in).
const LAYOUTS = {
  en: {
    code: 'EN',
    name: 'English',
    letters: [
      ['q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p'],
      ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l'],
      ['shift', 'z', 'x', 'c', 'v', 'b', 'n', 'm', 'backspace'],
      BOTTOM,
    ],
    symbols: [NUMBERS, PUNCTUATION, [...MORE_SYMBOLS, 'backspace'], BOTTOM],
  },
  de: {
    code: 'DE',
    name: 'Deutsch',
    letters: [
      ['q', 'w', 'e', 'r', 't', 'z', 'u', 'i', 'o', 'p', 'ü'],
      ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'ö', 'ä'],
      ['shift', 'y', 'x', 'c', 'v', 'b', 'n', 'm', 'ß', 'backspace'],
      BOTTOM,
    ],
    symbols: [NUMBERS, [...PUNCTUATION, '€'], [...MORE_SYMBOLS, 'backspace'], BOTTOM],
  },
  es: {
    code: 'ES',
    name: 'Español',
    letters: [
      ['q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p'],
      ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'ñ', 'dead-acute'],
      ['shift', 'z', 'x', 'c', 'v', 'b', 'n', 'm', 'dead-diaeresis', 'backspace'],
      BOTTOM,
    ],
    symbols: [NUMBERS, [...PUNCTUATION, '€'], ['¿', '¡', ...MORE_SYMBOLS, 'backspace'], BOTTOM],
  },
};
// The layout key's cycle.
const ORDER = ['en', 'de', 'es'];

// Dead keys: the mark waits for the next letter. On a vowel it becomes the accented letter (by Unicode composition,
// so the shifted vowel gets the capital: É); on anything else the mark is typed as it is, before it, as a desktop
// keyboard does.
const DEAD = {
  'dead-acute': { mark: '´', combining: '\u0301' },
  'dead-diaeresis': { mark: '¨', combining: '\u0308' },
};
const VOWEL = /^[aeiou]$/i;

// Every word the keyboard shows or says, in one place: [visible text, accessible name], from the catalogue (chat.ftl:
// a key's value is its visible text, its .aria-label its name). Where both differ the visible text starts the name
// (WCAG 2.5.3), so a speech user can say what they see. Read when a key is drawn, so the page's text (loaded after
// this module) is there; the English given here stands where a page has no table (one that never loads its text).
const pair = (key, text, name, args = {}) => [t(key, args, text), t(`${key}.aria-label`, args, name)];
const LABELS = {
  board: () => t('chat-keyboard.aria-label', {}, 'On-screen keyboard'),
  shift: () => pair('chat-key-shift', '⇧', 'Shift'),
  backspace: () => pair('chat-key-backspace', '⌫', 'Backspace'),
  space: () => pair('chat-key-space', 'space', 'Space'),
  enter: () => pair('chat-key-send', 'Send', 'Send'),
  hide: () => pair('chat-key-hide', 'Hide', 'Hide keyboard'),
  toLetters: () => pair('chat-key-letters', 'abc', 'abc: letters'),
  toSymbols: () => pair('chat-key-symbols', '123', '123: numbers and symbols'),
  'dead-acute': () => pair('chat-key-acute', '´', '´: acute accent, for the next vowel'),
  'dead-diaeresis': () => pair('chat-key-diaeresis', '¨', '¨: diaeresis, for the next vowel'),
  // The code on the key is the layout's own (EN, DE, ES), as is its name (an endonym).
  layout: (layout) => [layout.code,
    t('chat-key-layout.aria-label', { code: layout.code, name: layout.name }, '{$code}: keyboard layout, {$name}')],
};
const HIDDEN_KEY = 'aiui:keyboard-hidden';
const LAYOUT_KEY = 'aiui:keyboard-layout';

// The page's language (the owner's locale), else the browser's; only the language subtag counts (de-AT is German).
function localeLayout() {
  const tag = document.documentElement.lang || navigator.language || '';
  const language = tag.split(/[-_]/)[0].toLowerCase();
  return ORDER.includes(language) ? language : 'en';
}

// One key's capital. `toUpperCase` makes ß "SS": two letters for one key, so ß stays ß.
const upper = (key) => (key === 'ß' ? key : key.toUpperCase());

const SVG = 'http://www.w3.org/2000/svg';
// The layout key's globe, drawn (not an emoji: the kiosk may have no emoji font). Decoration: the name says it all.
function globe() {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.classList.add('key-icon');
  const shapes = [
    ['circle', { cx: 12, cy: 12, r: 9 }],
    ['ellipse', { cx: 12, cy: 12, rx: 4, ry: 9 }],
    ['path', { d: 'M3 12h18M5 7h14M5 17h14' }],
  ];
  for (const [tag, attributes] of shapes) {
    const shape = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) shape.setAttribute(name, String(value));
    svg.append(shape);
  }
  return svg;
}

/** Attaches the keyboard to `input`, inside `host`; `send` is called by its Send key; `toggle` shows it again.
 *  Returns `{ hide }`, for a question sent another way. */
export function attachKeyboard(input, { host, toggle, send }) {
  let shifted = false;
  let symbols = false;
  let dead = null; // the dead key waiting for its letter
  let hidden = localStorage.getItem(HIDDEN_KEY) === '1';
  const stored = localStorage.getItem(LAYOUT_KEY);
  let chosen = ORDER.includes(stored) ? stored : null;
  // Read on each drawing, so a page that sets its language after attaching still gets its layout when opened.
  const layoutId = () => chosen ?? localeLayout();

  const board = document.createElement('div');
  board.id = 'keyboard';
  board.className = 'keyboard glass';
  board.setAttribute('role', 'group');
  board.setAttribute('aria-label', LABELS.board());
  board.hidden = true;
  host.append(board);

  function insert(text) {
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? input.value.length;
    input.setRangeText(text, start, end, 'end');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  function backspace() {
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? input.value.length;
    if (start !== end) input.setRangeText('', start, end, 'end');
    else if (start > 0) input.setRangeText('', start - 1, start, 'end');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  // A character key's text, with the shift and a waiting dead key applied (and both then spent).
  function compose(key) {
    let text = shifted ? upper(key) : key;
    if (dead) {
      const { mark, combining } = DEAD[dead];
      text = VOWEL.test(text) ? (text + combining).normalize('NFC') : mark + text;
    }
    shifted = false;
    dead = null;
    return text;
  }

  function press(key) {
    if (key === 'shift') {
      shifted = !shifted;
    } else if (DEAD[key]) {
      // The same dead key again takes it back; another one replaces it.
      dead = dead === key ? null : key;
    } else if (key === 'layer') {
      symbols = !symbols;
      shifted = false;
      dead = null;
    } else if (key === 'layout') {
      chosen = ORDER[(ORDER.indexOf(layoutId()) + 1) % ORDER.length];
      localStorage.setItem(LAYOUT_KEY, chosen);
      shifted = false;
      dead = null;
    } else if (key === 'backspace') {
      // A waiting accent is taken back first, as on a desktop keyboard.
      if (dead) dead = null;
      else backspace();
    } else if (key === 'space') {
      // A dead key then space types the mark itself.
      insert(dead ? DEAD[dead].mark : ' ');
      dead = null;
    } else if (key === 'enter') {
      dead = null;
      show(false);
      send();
    } else {
      insert(compose(key));
    }
    draw();
  }

  function label(button, [text, name]) {
    button.textContent = text;
    if (text !== name) button.setAttribute('aria-label', name);
  }

  function keyButton(key, layout) {
    const button = document.createElement('button');
    button.type = 'button';
    // Out of the Tab order: a keyboard user has a real keyboard; the message box and Send stay one Tab apart.
    button.tabIndex = -1;
    button.className = `key key-${key.length > 1 ? key : 'char'}`;
    button.dataset.key = key;
    if (key === 'layer') {
      label(button, symbols ? LABELS.toLetters() : LABELS.toSymbols());
    } else if (key === 'layout') {
      const [code, name] = LABELS.layout(layout);
      button.setAttribute('aria-label', name);
      const text = document.createElement('span');
      text.textContent = code;
      button.append(globe(), text);
    } else if (DEAD[key]) {
      label(button, LABELS[key]());
      button.setAttribute('aria-pressed', String(dead === key));
    } else if (LABELS[key]) {
      label(button, LABELS[key]());
      if (key === 'shift') button.setAttribute('aria-pressed', String(shifted));
      if (key === 'enter') button.classList.add('primary');
    } else {
      button.textContent = shifted ? upper(key) : key;
    }
    return button;
  }

  function draw() {
    const id = layoutId();
    const layout = LAYOUTS[id];
    board.dataset.layout = id;
    const rows = (symbols ? layout.symbols : layout.letters).map((keys) => {
      const row = document.createElement('div');
      row.className = 'key-row';
      row.append(...keys.map((key) => keyButton(key, layout)));
      return row;
    });
    const hide = document.createElement('button');
    hide.type = 'button';
    hide.tabIndex = -1;
    hide.className = 'key key-hide';
    hide.dataset.key = 'hide';
    label(hide, LABELS.hide());
    rows[rows.length - 1].prepend(hide);
    board.replaceChildren(...rows);
  }

  function show(visible) {
    if (visible) draw();
    board.hidden = !visible;
    toggle.setAttribute('aria-expanded', String(visible));
    document.body.classList.toggle('typing', visible);
  }

  // A key pressed must not move the focus (or the caret) out of the message box.
  board.addEventListener('pointerdown', (event) => {
    if (event.target.closest('button')) event.preventDefault();
  });
  board.addEventListener('mousedown', (event) => event.preventDefault());
  board.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.dataset.key === 'hide') {
      hidden = true;
      localStorage.setItem(HIDDEN_KEY, '1');
      show(false);
      toggle.focus();
      return;
    }
    press(button.dataset.key);
    input.focus();
  });
  toggle.addEventListener('click', () => {
    const visible = board.hidden;
    hidden = !visible;
    if (visible) localStorage.removeItem(HIDDEN_KEY);
    else localStorage.setItem(HIDDEN_KEY, '1');
    show(visible);
    input.focus();
  });
  // A tap, not the focus: the page focuses the box itself on start, and the suggestions must stay in view then.
  input.addEventListener('click', () => {
    if (!hidden) show(true);
  });
  toggle.hidden = false;
  draw();
  show(false);
  return { hide: () => show(false) };
}
