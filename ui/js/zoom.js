// Page zoom for both windows (Ctrl+= / Ctrl++ / Ctrl+- / Ctrl+0 and Ctrl+wheel), done with CSS zoom so it needs
// no window permission, and the kiosk's context menu kept where text is edited or selected (paste, copy).
const STEPS = [0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3];
let step = STEPS.indexOf(1);

function apply() {
  document.documentElement.style.zoom = String(STEPS[step]);
  document.documentElement.dataset.zoom = String(STEPS[step]);
}

function by(delta) {
  step = Math.max(0, Math.min(STEPS.length - 1, step + delta));
  apply();
}

/** Listens for the zoom keys and Ctrl+wheel. */
export function enableZoom() {
  window.addEventListener('keydown', (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    if (event.key === '=' || event.key === '+') by(1);
    else if (event.key === '-' || event.key === '_') by(-1);
    else if (event.key === '0') by(STEPS.indexOf(1) - step);
    else return;
    event.preventDefault();
  });
  window.addEventListener('wheel', (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    by(event.deltaY < 0 ? 1 : -1);
  }, { passive: false });
}

/** In the kiosk, the page's context menu (reload, back) stays off, but not in a text field or over a selection,
 *  where a long press brings paste and copy. */
export function keepTextMenus() {
  document.addEventListener('contextmenu', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const editable = target && target.closest('input, textarea, [contenteditable="true"]');
    const selected = String(window.getSelection() || '').length > 0;
    if (!editable && !selected) event.preventDefault();
  });
}
