// The kiosk's on-screen keyboard per locale, in a real browser: headless Chromium driven over WebDriver (chromedriver)
// with Node's fetch. No Rust binary: a small Node server serves the repo's ui/ folder (with the app's strict CSP) and
// a test page that links the real aiui.css and attaches the real ui/js/keyboard.js to a message box, in a
// touchscreen-sized 800x480 window.
//
// 1. lang="de": the letter rows are QWERTZ with ü ö ä ß; tapping Shift G r ü ß e types "Grüße" and the message box
//    keeps the focus; Shift+ü is Ü and Shift+ß stays ß; Send hands the text over and puts the keyboard away.
// 2. lang="es-MX": ñ after l; the dead accent ´ then e is é, Shift+ñ is Ñ, ¨ then u is ü, ´ on a consonant or space
//    types the mark, a second ´ or Backspace takes it back; ¿ and ¡ are on the symbols layer.
// 3. lang="en-US" is QWERTY, lang="fr" falls back to it, and a page without lang follows the browser (de-AT).
// 4. The layout key (visible "DE", name "DE: keyboard layout, Deutsch") cycles en -> de -> es; the choice survives a
//    reload and wins over the page's language. Hide still hides.
// 5. Each layout, letters and symbols: every key inside the 800x480 viewport, at least 48 px, none overlapping.
// Screenshots go to $AIUI_SCREENSHOTS/keyboard-*.png. Every failure throws; the exit code says so.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const ui = path.join(root, 'ui');
const shots = process.env.AIUI_SCREENSHOTS || path.join(root, 'target/gui-screenshots');
const work = fs.mkdtempSync('/tmp/aiui-keyboard-');
const started = Date.now();
const WIDTH = 800;
const HEIGHT = 480;

const log = (...args) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s]`, ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const passed = [];
function check(condition, message) {
  if (!condition) throw new Error(`FAILED: ${message}`);
  passed.push(message);
  log('ok', message);
}
const children = [];
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});
for (const tool of ['/usr/bin/chromedriver', process.env.CHROMIUM || '/usr/bin/chromium']) {
  if (!fs.existsSync(tool)) throw new Error(`FAILED: ${tool} is missing (apt: chromium chromium-driver; run bash scripts/setup)`);
}

// ---- the page server: ui/ as the app serves it, plus the test page ----
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json', '.woff2': 'font/woff2' };
// The app's rule: no inline script, no eval, no remote origin. The test page keeps it, so the keyboard is tested under it.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'";
const testPage = (lang) => `<!doctype html>
<html${lang === null ? '' : ` lang="${lang}"`}>
<head>
  <meta charset="utf-8">
  <title>On-screen keyboard test</title>
  <link rel="stylesheet" href="/css/aiui.css">
  <script type="module" src="/keyboard-test.js"></script>
</head>
<body class="kiosk">
  <main id="host" class="chat">
    <form id="composer" class="composer glass">
      <label for="box" class="sr-only">Message to the assistant</label>
      <textarea id="box" rows="1" autocomplete="off"></textarea>
      <button id="toggle" class="btn" type="button" aria-controls="keyboard" aria-expanded="false" hidden>Keyboard</button>
    </form>
  </main>
</body>
</html>`;
const testScript = `import { attachKeyboard } from '/js/keyboard.js';
const input = document.getElementById('box');
window.sent = [];
attachKeyboard(input, { host: document.getElementById('host'), toggle: document.getElementById('toggle'),
  send: () => { window.sent.push(input.value); input.value = ''; } });
input.focus();
window.keyboardReady = true;
`;
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  const reply = (status, type, body) => {
    res.writeHead(status, { 'content-type': type, 'content-security-policy': CSP, 'cache-control': 'no-store' });
    res.end(body);
  };
  if (url.pathname === '/keyboard-test.html') {
    // lang=none: no lang attribute at all (the browser's language decides); otherwise a language tag.
    const lang = url.searchParams.get('lang') ?? 'en';
    if (lang !== 'none' && !/^[A-Za-z]{0,8}(-[A-Za-z0-9]{1,8})*$/.test(lang)) return reply(400, 'text/plain', 'bad lang');
    return reply(200, TYPES['.html'], testPage(lang === 'none' ? null : lang));
  }
  if (url.pathname === '/keyboard-test.js') return reply(200, TYPES['.js'], testScript);
  // No icon: a 404 would be the only line in the browser's log.
  if (url.pathname === '/favicon.ico') return reply(204, 'image/x-icon', '');
  const file = path.normalize(path.join(ui, decodeURIComponent(url.pathname)));
  if (!file.startsWith(ui + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return reply(404, 'text/plain', 'not found');
  reply(200, TYPES[path.extname(file)] || 'application/octet-stream', fs.readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
log('ui/ served at', base);

// ---- chromedriver + headless Chromium ----
function freePort() {
  return new Promise((resolve) => {
    const probe = http.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
const driverPort = await freePort();
await new Promise((resolve, reject) => {
  const child = spawn('/usr/bin/chromedriver', [`--port=${driverPort}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  const timer = setTimeout(() => reject(new Error(`FAILED: chromedriver did not start: ${output}`)), 30000);
  const gather = (chunk) => {
    output += chunk;
    if (/started successfully/.test(output)) { clearTimeout(timer); resolve(); }
  };
  child.stdout.on('data', gather);
  child.stderr.on('data', gather);
  child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`FAILED: chromedriver exited ${code}: ${output}`)); });
});
const driver = `http://127.0.0.1:${driverPort}`;

async function wd(method, route, body) {
  const response = await fetch(`${driver}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`WebDriver ${method} ${route}: ${response.status} ${JSON.stringify(json.value || json)}`);
  return json.value;
}

// `language`: the browser's own language (navigator.language), for the page without a lang attribute.
async function newSession(name, language) {
  const created = await wd('POST', '/session', {
    capabilities: {
      alwaysMatch: {
        browserName: 'chrome',
        'goog:chromeOptions': {
          binary: process.env.CHROMIUM || '/usr/bin/chromium',
          args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', `--window-size=${WIDTH},${HEIGHT}`,
            `--user-data-dir=${path.join(work, `chromium-${name}`)}`, '--no-first-run', '--password-store=basic', `--lang=${language}`],
          prefs: { 'intl.accept_languages': language },
        },
        'goog:loggingPrefs': { browser: 'ALL' },
      },
    },
  });
  const id = created.sessionId;
  // The window's frame takes some of --window-size, so the window is grown until the page itself is 800x480.
  const inner = async () => (await wd('POST', `/session/${id}/execute/sync`, { script: 'return [window.innerWidth, window.innerHeight];', args: [] }));
  const [w, h] = await inner();
  const rect = await wd('GET', `/session/${id}/window/rect`);
  await wd('POST', `/session/${id}/window/rect`, { width: rect.width + WIDTH - w, height: rect.height + HEIGHT - h });
  const [w2, h2] = await inner();
  if (w2 !== WIDTH || h2 !== HEIGHT) throw new Error(`FAILED: the window could not be made ${WIDTH}x${HEIGHT} inside (it is ${w2}x${h2})`);
  return id;
}

let sid = null;
const s = (route) => `/session/${sid}${route}`;
const run = (script, ...args) => wd('POST', s('/execute/sync'), { script, args });
async function screenshot(name) {
  fs.mkdirSync(shots, { recursive: true });
  const png = await wd('GET', s('/screenshot'));
  const file = path.join(shots, name);
  fs.writeFileSync(file, Buffer.from(png, 'base64'));
  log('screenshot', file);
}
async function until(what, probe, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`FAILED: timed out waiting for ${what}`);
    await sleep(50);
  }
}
async function element(css) {
  const found = await wd('POST', s('/element'), { using: 'css selector', value: css });
  return Object.values(found)[0];
}
// A WebDriver click on the element, found afresh: each key press draws the keys again.
async function click(css) {
  await wd('POST', s(`/element/${await element(css)}/click`), {});
}
const tap = async (...keys) => {
  for (const key of keys) await click(`#keyboard button[data-key="${key}"]`);
};
// The box's text, and whether it still has the focus.
const box = () => run(`const box = document.getElementById('box');
  return { value: box.value, focused: document.activeElement === box };`);
const clearBox = () => run(`const box = document.getElementById('box'); box.value = ''; box.setSelectionRange(0, 0); return true;`);
// The keyboard as drawn: its layout, and each row's keys (data-key, visible text, name).
const board = () => run(`const board = document.getElementById('keyboard');
  return { hidden: board.hidden, layout: board.dataset.layout, rows: [...board.querySelectorAll('.key-row')].map((row) =>
    [...row.querySelectorAll('button')].map((b) => ({ key: b.dataset.key, text: b.textContent.trim(), name: b.getAttribute('aria-label'),
      pressed: b.getAttribute('aria-pressed') }))) };`);
const letters = (row) => row.filter((k) => k.key.length === 1).map((k) => k.key).join('');

async function open(lang, { fresh = true } = {}) {
  await wd('POST', s('/url'), { url: `${base}/keyboard-test.html?lang=${encodeURIComponent(lang)}` });
  await until(`the test page (lang=${lang})`, () => run('return window.keyboardReady === true;'));
  if (fresh) {
    await run('localStorage.clear(); return true;');
    await wd('POST', s('/refresh'), {});
    await until(`the test page again (lang=${lang})`, () => run('return window.keyboardReady === true;'));
  }
  // A tap on the message box opens the keyboard, as on the kiosk.
  await click('#box');
  await until('the keyboard', async () => !(await board()).hidden);
}

// Every key in the viewport, 48 px or more, and no two keys of a row overlapping; no sideways scroll.
async function checkFits(what) {
  const geometry = await run(`const rows = [...document.querySelectorAll('#keyboard .key-row')].map((row) =>
      [...row.querySelectorAll('button')].map((b) => { const r = b.getBoundingClientRect();
        return { key: b.dataset.key, left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height }; }));
    return { rows, width: window.innerWidth, height: window.innerHeight, scrollWidth: document.documentElement.scrollWidth };`);
  check(geometry.width === WIDTH && geometry.height === HEIGHT, `${what}: the viewport is ${WIDTH}x${HEIGHT} (${geometry.width}x${geometry.height})`);
  const problems = [];
  for (const row of geometry.rows) {
    for (const k of row) {
      if (k.left < 0 || k.top < 0 || k.right > geometry.width || k.bottom > geometry.height) problems.push(`${k.key} outside the viewport ${JSON.stringify(k)}`);
      if (k.width < 48 || k.height < 48) problems.push(`${k.key} is ${k.width.toFixed(1)}x${k.height.toFixed(1)} px`);
    }
    const sorted = [...row].sort((a, b) => a.left - b.left);
    for (let i = 1; i < sorted.length; i += 1) {
      if (sorted[i].left < sorted[i - 1].right - 0.5) problems.push(`${sorted[i - 1].key} overlaps ${sorted[i].key}`);
    }
  }
  if (geometry.scrollWidth > geometry.width) problems.push(`the page scrolls sideways (${geometry.scrollWidth} px)`);
  const widest = Math.max(...geometry.rows.map((row) => row.length));
  const narrowest = Math.min(...geometry.rows.flat().filter((k) => k.key.length === 1).map((k) => k.width));
  check(problems.length === 0, `${what}: all ${geometry.rows.flat().length} keys (widest row ${widest}) inside ${WIDTH}x${HEIGHT}, >= 48 px, no overlap; narrowest letter ${narrowest.toFixed(1)} px${problems.length ? ` -- ${problems.join('; ')}` : ''}`);
}

async function checkLayoutKey(code, name) {
  const key = (await board()).rows.flat().find((k) => k.key === 'layout');
  check(key && key.text === code && key.name === `${code}: keyboard layout, ${name}` && key.name.startsWith(key.text),
    `the layout key shows "${code}" and is named "${code}: keyboard layout, ${name}" (the visible text starts the name) (${JSON.stringify(key)})`);
}

let failure = null;
try {
  sid = await newSession('main', 'en-US');
  log('chromium session', sid);

  // ---- 1. German ----
  await open('de');
  let kb = await board();
  check(kb.layout === 'de', `lang="de" draws the German layout (${kb.layout})`);
  check(letters(kb.rows[0]) === 'qwertzuiopü' && letters(kb.rows[1]) === 'asdfghjklöä' && letters(kb.rows[2]) === 'yxcvbnmß',
    `QWERTZ with ü ö ä ß: ${kb.rows.slice(0, 3).map(letters).join(' / ')}`);
  check(kb.rows[2][0].key === 'shift' && kb.rows[2].at(-1).key === 'backspace', 'Shift opens the third row and Backspace ends it');
  await checkLayoutKey('DE', 'Deutsch');
  await tap('shift');
  kb = await board();
  const shiftedLabels = kb.rows.flat().filter((k) => ['ü', 'ö', 'ä', 'ß', 'z'].includes(k.key)).map((k) => k.text).join('');
  check(shiftedLabels === 'ZÜÖÄß' && kb.rows[2][0].pressed === 'true', `Shift shows the capitals, ß stays ß (${shiftedLabels})`);
  await tap('g', 'r', 'ü', 'ß', 'e');
  let typed = await box();
  check(typed.value === 'Grüße' && typed.focused, `Shift G r ü ß e types "Grüße" and the box keeps the focus (${JSON.stringify(typed)})`);
  await checkFits('German letters');
  await screenshot('keyboard-de.png');
  await clearBox();
  await tap('shift', 'ü', 'shift', 'ö', 'shift', 'ä', 'shift', 'ß');
  typed = await box();
  check(typed.value === 'ÜÖÄß' && typed.focused, `Shift+ü ö ä is Ü Ö Ä, Shift+ß stays ß (${JSON.stringify(typed)})`);
  await tap('backspace');
  typed = await box();
  check(typed.value === 'ÜÖÄ' && typed.focused, `Backspace takes one letter back (${JSON.stringify(typed)})`);
  await tap('layer');
  kb = await board();
  check(kb.rows[1].some((k) => k.key === '€') && kb.rows.flat().find((k) => k.key === 'layer').text === 'abc', 'the German symbols layer has €');
  await checkFits('German symbols');
  await tap('layer', 'enter');
  kb = await board();
  const sent = await run('return window.sent;');
  check(kb.hidden && sent.at(-1) === 'ÜÖÄ', `Send hands the text over and puts the keyboard away (${JSON.stringify(sent)})`);

  // ---- 2. Spanish ----
  await open('es-MX');
  kb = await board();
  check(kb.layout === 'es', `lang="es-MX" draws the Spanish layout (${kb.layout})`);
  check(letters(kb.rows[0]) === 'qwertyuiop' && letters(kb.rows[1]) === 'asdfghjklñ' && kb.rows[1].at(-1).key === 'dead-acute'
    && letters(kb.rows[2]) === 'zxcvbnm' && kb.rows[2].at(-2).key === 'dead-diaeresis',
  `QWERTY with ñ after l, then the accent key ´; ¨ before Backspace: ${kb.rows.slice(0, 3).map((r) => r.map((k) => k.text).join(' ')).join(' / ')}`);
  await checkLayoutKey('ES', 'Español');
  await tap('dead-acute');
  kb = await board();
  const acute = kb.rows.flat().find((k) => k.key === 'dead-acute');
  check(acute.pressed === 'true' && acute.text === '´' && acute.name.startsWith('´'), `a tapped ´ waits, lit (aria-pressed) (${JSON.stringify(acute)})`);
  await screenshot('keyboard-es.png');
  await tap('e');
  typed = await box();
  check(typed.value === 'é' && typed.focused, `´ then e types é (${JSON.stringify(typed)})`);
  await tap('shift', 'ñ');
  typed = await box();
  check(typed.value === 'éÑ', `Shift+ñ types Ñ (${JSON.stringify(typed)})`);
  await clearBox();
  await tap('dead-acute', 'shift', 'a', 'shift', 'dead-acute', 'o', 'dead-diaeresis', 'u', 'dead-acute', 'n', 'dead-acute', 'space');
  typed = await box();
  check(typed.value === 'ÁÓü´n´', `´ Shift a is Á, Shift ´ o is Ó, ¨ u is ü, ´ n is "´n", ´ space is ´ (${JSON.stringify(typed)})`);
  await clearBox();
  await tap('a', 'dead-acute', 'dead-acute', 'e', 'dead-acute', 'backspace', 'o', 'backspace');
  typed = await box();
  check(typed.value === 'ae' && typed.focused, `a second ´ takes the accent back, and so does Backspace before deleting (${JSON.stringify(typed)})`);
  await checkFits('Spanish letters');
  await tap('layer');
  kb = await board();
  check(kb.rows.flat().some((k) => k.key === '¿') && kb.rows.flat().some((k) => k.key === '¡'), 'the Spanish symbols layer has ¿ and ¡');
  await clearBox();
  await tap('¿', 'layer', 'shift', 'q', 'u', 'dead-acute', 'e', 'layer', '?');
  typed = await box();
  check(typed.value === '¿Qué?', `¿ Shift q u ´ e ? types "¿Qué?" (${JSON.stringify(typed)})`);
  await checkFits('Spanish symbols');
  await screenshot('keyboard-es-symbols.png');

  // ---- 3. English, and the fallbacks ----
  await open('en-US');
  kb = await board();
  check(kb.layout === 'en' && letters(kb.rows[0]) === 'qwertyuiop' && letters(kb.rows[1]) === 'asdfghjkl' && letters(kb.rows[2]) === 'zxcvbnm',
    `lang="en-US" draws QWERTY: ${kb.rows.slice(0, 3).map(letters).join(' / ')}`);
  await checkLayoutKey('EN', 'English');
  await tap('shift', 'h', 'i');
  typed = await box();
  check(typed.value === 'Hi' && typed.focused, `Shift h i types "Hi" (${JSON.stringify(typed)})`);
  await checkFits('English letters');
  await screenshot('keyboard-en.png');
  await tap('layer');
  await checkFits('English symbols');
  await open('fr');
  check((await board()).layout === 'en', 'lang="fr" (no layout of its own) falls back to English');

  // ---- 4. The layout key; the choice is remembered and wins over the page's language ----
  await open('de');
  const cycle = [];
  for (let i = 0; i < 4; i += 1) {
    await tap('layout');
    kb = await board();
    cycle.push(`${kb.layout}:${kb.rows.flat().find((k) => k.key === 'layout').text}`);
  }
  typed = await box();
  check(cycle.join(' ') === 'es:ES en:EN de:DE es:ES' && typed.focused, `from German the layout key cycles es -> en -> de -> es, the box keeps the focus (${cycle.join(' ')})`);
  check(letters(kb.rows[1]) === 'asdfghjklñ', 'the keys follow the layout key');
  check(await run(`return localStorage.getItem('aiui:keyboard-layout');`) === 'es', 'the choice is stored as aiui:keyboard-layout');
  await open('de', { fresh: false });
  check((await board()).layout === 'es', 'after a reload of the German page the chosen Spanish layout stays');
  await open('en-US', { fresh: false });
  check((await board()).layout === 'es', 'the explicit choice wins over the page language on another page too');
  await tap('hide');
  const afterHide = await run(`return { hidden: document.getElementById('keyboard').hidden, focus: document.activeElement.id,
    stored: localStorage.getItem('aiui:keyboard-hidden') };`);
  check(afterHide.hidden && afterHide.focus === 'toggle' && afterHide.stored === '1', `Hide hides the keyboard, remembered, focus on the Keyboard button (${JSON.stringify(afterHide)})`);
  await click('#toggle');
  check(!(await board()).hidden && (await box()).focused, 'the Keyboard button brings it back and the box has the focus');

  // ---- the browser's own language, for a page without lang ----
  await wd('DELETE', s(''));
  sid = await newSession('de-at', 'de-AT');
  await open('none');
  const language = await run('return navigator.language;');
  kb = await board();
  check(kb.layout === 'de' && language.startsWith('de'), `a page without lang follows the browser's language ${language} (de-AT -> de): ${kb.layout}`);
} catch (error) {
  failure = error;
  if (sid) {
    await screenshot('keyboard-failure.png').catch(() => {});
    const browser = await wd('POST', s('/se/log'), { type: 'browser' }).catch(() => []);
    for (const entry of browser) console.error('browser:', entry.level, entry.message);
  }
} finally {
  if (sid) await wd('DELETE', s('')).catch(() => {});
  server.close();
}
if (failure) {
  console.error(failure.stack || failure);
  console.error(`keyboard test FAILED after ${passed.length} checks passed`);
  process.exit(1);
}
log(`keyboard test passed: ${passed.length} checks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(0);
