// The host's words on every page (both windows, the LAN pages and the sign-in page), in the owner's language. The
// shell renders them from the same Fluent catalogues as the rest of the host's text (aiui-core/locales/<tag>/
// chat.ftl, trusted.ftl, login.ftl) and answers one table per page load: the desktop app through the `ui_text`
// command, the LAN service at `api/ui-text` (no session needed: the sign-in page is translated too). The page's
// own English stays in place until the table arrives, and wherever it lacks a key, so nothing is ever blank.
//
// In the HTML: `data-l10n-id="key"` replaces the element's text; `data-l10n-attrs="aria-label placeholder"` also
// sets those attributes from `key.aria-label` and `key.placeholder`. In scripts: `t('key', { name: value })`.
// What is data and not the host's words (app names, the owner's and the model's messages, amounts the node
// reports, URLs) sits in an element with `translate="no"`, so the pseudo-locale check can tell the two apart.

const tauri = window.__TAURI__;

let messages = {};
let lang = 'en';

/** The page's language tag (`en`, `de`, `es`, `en-XA`), once {@link loadText} has run. */
export function pageLang() {
  return lang;
}

/** Fetches this page's text, sets `lang` on the document and translates it. Never throws: on failure the page
 *  keeps its English, and the reason is logged. `command`: the desktop command that answers the table (each
 *  window has its own, in its own capability: `ui_text` for the chat, `trusted_ui_text` for the trusted window). */
export async function loadText(command = 'ui_text') {
  try {
    const answer = tauri
      ? await tauri.core.invoke(command)
      : await fetch('api/ui-text', { credentials: 'same-origin', cache: 'no-store' }).then((r) => {
        if (!r.ok) throw new Error(`the service answered ${r.status}`);
        return r.json();
      });
    messages = answer.messages || {};
    lang = answer.lang || 'en';
    document.documentElement.lang = lang;
    translate(document);
  } catch (error) {
    console.warn('the page text could not be loaded; it stays in English', error);
  }
}

/** Message `key` with its `{$name}` placeables filled from `args` (numbers written the locale's way);
 *  `fallback` (or the key) when the table has no such message. */
export function t(key, args = {}, fallback = undefined) {
  const pattern = Object.prototype.hasOwnProperty.call(messages, key) ? messages[key] : undefined;
  if (pattern === undefined) {
    if (fallback === undefined) console.warn(`no page text for ${key}`);
    return fill(fallback ?? key, args);
  }
  return fill(pattern, args);
}

function fill(pattern, args) {
  return pattern.replace(/\{\$([A-Za-z][\w-]*)\}/g, (whole, name) => {
    if (!(name in args)) return whole;
    const value = args[name];
    return typeof value === 'number' ? formatNumber(value) : String(value);
  });
}

/** A number the locale's way (`1,234.5` in English, `1.234,5` in German). */
export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(numberLang(), options).format(value);
}

/** Micro-dollars the locale's way (`$0.0312`, `0,0312 $`, `0,0312 US$`), never below what they are: cents from a
 *  dollar up, four places from a hundredth of a cent, six below, rounded up, as the host's `pricing::format_usd`. */
export function formatUsd(micros) {
  const amount = Number(micros);
  if (!Number.isSafeInteger(amount) || amount < 0) return String(micros);
  const [places, unit] = amount >= 1_000_000 ? [2, 10_000] : amount >= 100 ? [4, 100] : [6, 1];
  const rounded = Math.ceil(amount / unit) * unit;
  return new Intl.NumberFormat(numberLang(), {
    style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: places,
  }).format(rounded / 1_000_000);
}

/** A Claude allowance view (`allowance_get`'s `claude`) with its four amounts written from the host's micro-dollars
 *  in the page's language. */
export function usdAmounts(view) {
  return {
    ...view,
    allowance: formatUsd(view.allowance_usd_micros),
    spent: formatUsd(view.spent_usd_micros),
    reserved: formatUsd(view.reserved_usd_micros),
    remaining: formatUsd(view.remaining_usd_micros),
  };
}

/** Nothing spent, in dollars: `$0`, `0 $`. */
export function formatNoCost() {
  return new Intl.NumberFormat(numberLang(), { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(0);
}

/** A sum in sats with the locale's plural and number (`1 sat`, `1.234 Sats`). */
export function formatSats(sats) {
  const amount = Number(sats);
  const form = new Intl.PluralRules(pageLang()).select(amount) === 'one' ? 'chat-sats-one' : 'chat-sats-other';
  return t(form, { amount });
}

/** Who answered or proposed, from the host's data (`backend_id`: `{kind, model, provider}`), in the page's language;
 *  `fallback` (the host's English label) for a kind this page does not know. */
export function backendName(id, fallback = '') {
  const keys = { local: 'chat-backend-local', claude: 'chat-backend-claude', routstr: 'chat-backend-routstr', builtin: 'chat-backend-builtin' };
  const key = id && keys[id.kind];
  return key ? t(key, { model: id.model ?? '', provider: id.provider ?? '' }, fallback) : fallback;
}

/** An app's state as the node names it ("running", "not-installed"), in the page's language; a state the
 * catalogue does not know is shown as the node wrote it. */
export function stateName(state) {
  const name = String(state);
  return /^[a-z-]+$/.test(name) ? t(`state-${name}`, {}, name) : name;
}

/** A date and time the locale's way. */
export function formatDateTime(date, options = { dateStyle: 'medium', timeStyle: 'short' }) {
  return new Intl.DateTimeFormat(numberLang(), options).format(date);
}

// The pseudo-locale writes numbers as English does.
function numberLang() {
  return lang === 'en-XA' ? 'en' : lang;
}

/** Translates `root` and everything under it that carries `data-l10n-id`. */
export function translate(root) {
  const elements = root.querySelectorAll ? [...root.querySelectorAll('[data-l10n-id]')] : [];
  if (root.dataset && root.dataset.l10nId) elements.unshift(root);
  for (const element of elements) {
    const key = element.dataset.l10nId;
    const args = element.dataset.l10nArgs ? JSON.parse(element.dataset.l10nArgs) : {};
    if (key in messages) element.textContent = t(key, args);
    for (const attribute of (element.dataset.l10nAttrs || '').split(/[\s,]+/).filter(Boolean)) {
      const attributeKey = `${key}.${attribute}`;
      if (attributeKey in messages) element.setAttribute(attribute, t(attributeKey, args));
    }
  }
}
