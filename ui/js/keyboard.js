// The kiosk's on-screen keyboard: a touchscreen on the node has no keyboard, so a question is typed here. A tap on
// the message box opens it, Send closes it (the answer needs the room). Keys never take the focus (the message box
// keeps it, with its caret), so typing, Backspace and Send act on it as a real keyboard would. The owner can turn
// it off (a system keyboard may already run); that choice is remembered, and the Keyboard button turns it on.
const LETTERS = [
  ['q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p'],
  ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l'],
  ['shift', 'z', 'x', 'c', 'v', 'b', 'n', 'm', 'backspace'],
  ['layer', ',', 'space', '.', '?', 'enter'],
];
const SYMBOLS = [
  ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'],
  ['-', '/', ':', ';', '(', ')', '@', '"', "'"],
  ['#', '%', '+', '=', '_', '!', '&', '*', 'backspace'],
  ['layer', ',', 'space', '.', '?', 'enter'],
];
const NAMES = {
  shift: ['⇧', 'Shift'],
  backspace: ['⌫', 'Backspace'],
  space: ['space', 'Space'],
  enter: ['Send', 'Send'],
};
const HIDDEN_KEY = 'aiui:keyboard-hidden';

/** Attaches the keyboard to `input`, inside `host`; `send` is called by its Send key; `toggle` shows it again.
 *  Returns `{ hide }`, for a question sent another way. */
export function attachKeyboard(input, { host, toggle, send }) {
  let shifted = false;
  let symbols = false;
  let hidden = localStorage.getItem(HIDDEN_KEY) === '1';

  const board = document.createElement('div');
  board.id = 'keyboard';
  board.className = 'keyboard glass';
  board.setAttribute('role', 'group');
  board.setAttribute('aria-label', 'On-screen keyboard');
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

  function press(key) {
    if (key === 'shift') {
      shifted = !shifted;
    } else if (key === 'layer') {
      symbols = !symbols;
      shifted = false;
    } else if (key === 'backspace') {
      backspace();
    } else if (key === 'space') {
      insert(' ');
    } else if (key === 'enter') {
      show(false);
      send();
    } else {
      insert(shifted ? key.toUpperCase() : key);
      shifted = false;
    }
    draw();
  }

  function keyButton(key) {
    const button = document.createElement('button');
    button.type = 'button';
    // Out of the Tab order: a keyboard user has a real keyboard; the message box and Send stay one Tab apart.
    button.tabIndex = -1;
    button.className = `key key-${key.length > 1 ? key : 'char'}`;
    button.dataset.key = key;
    if (key === 'layer') {
      button.textContent = symbols ? 'abc' : '123';
      // The visible text starts the name (WCAG 2.5.3): a speech user says what they see.
      button.setAttribute('aria-label', symbols ? 'abc: letters' : '123: numbers and symbols');
    } else if (NAMES[key]) {
      const [label, name] = NAMES[key];
      button.textContent = label;
      if (label !== name) button.setAttribute('aria-label', name);
      if (key === 'shift') button.setAttribute('aria-pressed', String(shifted));
      if (key === 'enter') button.classList.add('primary');
    } else {
      button.textContent = shifted ? key.toUpperCase() : key;
    }
    return button;
  }

  function draw() {
    const rows = (symbols ? SYMBOLS : LETTERS).map((keys) => {
      const row = document.createElement('div');
      row.className = 'key-row';
      row.append(...keys.map(keyButton));
      return row;
    });
    const hide = document.createElement('button');
    hide.type = 'button';
    hide.tabIndex = -1;
    hide.className = 'key key-hide';
    hide.dataset.key = 'hide';
    hide.textContent = 'Hide';
    hide.setAttribute('aria-label', 'Hide keyboard');
    rows[rows.length - 1].prepend(hide);
    board.replaceChildren(...rows);
  }

  function show(visible) {
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
