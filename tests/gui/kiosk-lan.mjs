// The LAN Chromium test: a LAN request approved on the kiosk window, with the origin shown in the confirmation.
//
// Processes: a devnode (lnd restarts over 3 s), a scripted local model (Ollama's /api/tags, /api/show and /api/chat,
// replaying fixtures/ollama: restart lnd, then the answer), `aiui-cli serve --kiosk-socket <tmp>/kiosk.sock
// --lan-approver kiosk`, the real `aiui --demo --kiosk` under tauri-driver (started by tests/gui/run, Xvfb) with
// AIUI_LAN_APPROVALS_SOCKET naming that socket (through a wrapper, since tauri-driver passes no environment), and
// headless Chromium under chromedriver for the LAN user.
//
// 1. The LAN user signs in on the chat origin and asks "restart lnd"; the chat says a confirmation waits.
// 2. The kiosk's trusted window comes forward by itself with the request, listed with route "lan": it says it was
//    asked from "a LAN session from 127.0.0.1 (…)", wears the LAN marker (banner and frame), and its link to the
//    LAN service reads connected. axe-core checks the window; the screenshot goes to
//    target/gui-screenshots/kiosk-lan-confirmation.png.
// 3. Approve is pressed and let go early (nothing is decided), then pressed and held (synthetic pointer events:
//    WebKitWebDriver refuses pointer actions) until it fills: the kiosk says Approved.
// 4. The LAN chat in Chromium shows the action's result (the result card, lnd restarting then running on the
//    service's devnode), and its page never held the request's id or arguments hash.
// 5. The service logged the kiosk's uid at connect and the decision by id prefix and verdict, and no passphrase.
// Every failure throws; the exit code says so.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const tauriDriver = process.env.WEBDRIVER_URL || 'http://127.0.0.1:4444';
const binary = process.env.AIUI_BINARY || path.join(root, 'target/debug/aiui');
const cli = process.env.AIUI_CLI || path.join(root, 'target/debug/aiui-cli');
const devnodeBin = process.env.ARCHY_DEVNODE || path.join(root, 'target/debug/archy-devnode');
const shots = process.env.AIUI_SCREENSHOTS || path.join(root, 'target/gui-screenshots');
const work = fs.mkdtempSync('/tmp/aiui-kiosk-lan-');
const appData = `${process.env.AIUI_GUI_DATA || path.join(work, 'app')}-kiosk-lan`;
const started = Date.now();
const LAN_PASSPHRASE = 'lan-passphrase-for-the-kiosk-test';
const APPROVAL_PASSPHRASE = 'approval-passphrase-kiosk-test';
const NODE_PASSWORD = 'devnode-password-for-the-kiosk-test';
const HOLD_MS = 1500; // ui/trusted/confirm.js

const log = (...args) => console.log(`[kiosk-lan ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function check(condition, message) {
  if (!condition) throw new Error(`FAILED: ${message}`);
}
const fixture = (name) => fs.readFileSync(path.join(root, 'fixtures/ollama', name), 'utf8');
const axeSource = fs.readFileSync(path.join(here, 'node_modules/axe-core/axe.min.js'), 'utf8');
for (const [what, file] of [['aiui', binary], ['aiui-cli', cli], ['archy-devnode', devnodeBin]]) {
  check(fs.existsSync(file), `${what} is not built at ${file}: run this test with bash tests/gui/run`);
}

const children = [];
function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
process.on('exit', cleanup);

function freePort() {
  return new Promise((resolve) => {
    const server = http.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Starts a process and resolves once `ready` matches its output (or, without `ready`, once it exits 0).
function start(name, command, args, { env = {}, ready, stdin } = {}) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  child.output = '';
  const gather = (chunk) => { child.output += chunk; };
  child.stdout.on('data', gather);
  child.stderr.on('data', gather);
  if (stdin !== undefined) child.stdin.end(stdin);
  if (!ready) return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(child) : reject(new Error(`${name} exited ${code}: ${child.output}`)))));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${child.output}`)), 60000);
    const probe = () => {
      if (child.output.match(ready)) { clearTimeout(timer); resolve(child); }
    };
    child.stdout.on('data', probe);
    child.stderr.on('data', probe);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited ${code}: ${child.output}`)); });
  });
}

async function until(what, probe, timeoutMs = 20000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value && !value.scriptError) return value;
    if (Date.now() > deadline) throw new Error(`FAILED: timed out waiting for ${what}${value && value.scriptError ? ` (${value.scriptError})` : ''}`);
    await sleep(everyMs);
  }
}

// A minimal W3C WebDriver client for one server (tauri-driver for the kiosk, chromedriver for the LAN user).
function client(name, base) {
  const c = { sid: null };
  c.wd = async (method, route, body) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(`${name} WebDriver ${method} ${route}: ${response.status} ${JSON.stringify(json.value || json)}`);
    return json.value;
  };
  c.s = (route) => `/session/${c.sid}${route}`;
  c.open = async (capabilities) => {
    c.sid = (await c.wd('POST', '/session', { capabilities: { alwaysMatch: capabilities } })).sessionId;
    log(`${name} session`, c.sid);
  };
  c.close = () => (c.sid ? c.wd('DELETE', c.s('')).catch(() => {}) : Promise.resolve());
  // An async script body: `args` holds the arguments; an exception comes back as { scriptError }.
  c.run = (body, ...args) => c.wd('POST', c.s('/execute/async'), { args, script: `const done = arguments[arguments.length - 1];
    const args = Array.from(arguments).slice(0, -1);
    (async () => { ${body} })().then(done, (e) => done({ scriptError: String(e && (e.message || e)) }));` });
  c.element = async (css) => Object.values(await c.wd('POST', c.s('/element'), { using: 'css selector', value: css }))[0];
  c.click = async (css) => c.wd('POST', c.s(`/element/${await c.element(css)}/click`), {});
  c.type = async (css, text) => c.wd('POST', c.s(`/element/${await c.element(css)}/value`), { text });
  c.screenshot = async (file) => {
    fs.mkdirSync(shots, { recursive: true });
    // Two frames and a breath, so a window just raised is painted.
    await c.run('await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); await new Promise((r) => setTimeout(r, 250)); return true;');
    const png = await c.wd('GET', c.s('/screenshot'));
    fs.writeFileSync(path.join(shots, file), Buffer.from(png, 'base64'));
    log('screenshot', path.join(shots, file));
  };
  return c;
}

// ---- the scripted local model: restart lnd, then the answer ----
const chatReplies = ['chat_call_restart_lnd.json', 'chat_answer_restarted.json'];
const ollama = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    const reply = (status, text) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
    if (req.method === 'GET' && req.url === '/api/tags') return reply(200, fixture('tags.json'));
    if (req.method === 'GET' && req.url === '/api/version') return reply(200, '{"version":"0.12.3"}');
    if (req.method === 'POST' && req.url === '/api/show') return reply(200, fixture('show_tools.json'));
    if (req.method === 'POST' && req.url === '/api/chat') {
      const next = chatReplies.shift();
      return next ? reply(200, fixture(next)) : reply(500, '{"error":"the test script has no more replies"}');
    }
    reply(404, '{"error":"not found"}');
  });
});
await new Promise((resolve) => ollama.listen(0, '127.0.0.1', resolve));
const ollamaUrl = `http://127.0.0.1:${ollama.address().port}/`;

// ---- the LAN service with its kiosk socket ----
const nodePort = await freePort();
await start('archy-devnode', devnodeBin, ['--listen', `127.0.0.1:${nodePort}`, '--data-dir', path.join(work, 'node'), '--transition-ms', '3000'],
  { env: { ARCHY_DEVNODE_PASSWORD: NODE_PASSWORD }, ready: /listening on/ });
const data = path.join(work, 'service');
await start('set-password', cli, ['serve', 'set-password', '--data-dir', data], { stdin: `${LAN_PASSPHRASE}\n` });
await start('set-approval-password', cli, ['serve', 'set-approval-password', '--data-dir', data], { stdin: `${APPROVAL_PASSPHRASE}\n` });
const socket = path.join(work, 'kiosk.sock');
const [chatPort, trustedPort] = [await freePort(), await freePort()];
const serve = await start('aiui-cli serve', cli, [
  'serve', '--node', `http://127.0.0.1:${nodePort}/`, '--data-dir', data, '--ollama', ollamaUrl,
  '--claude-url', 'http://127.0.0.1:9/', '--no-builtin', '--base-path', '/aiui/',
  '--listen', `127.0.0.1:${chatPort}`, '--trusted-listen', `127.0.0.1:${trustedPort}`,
  '--kiosk-socket', socket, '--lan-approver', 'kiosk',
], { env: { AIUI_NODE_PASSWORD: NODE_PASSWORD, AIUI_LOG: 'warn,aiui_web=info' }, ready: /trusted origin: (http:\/\/\S+)/ });
const chatUrl = `http://127.0.0.1:${chatPort}/aiui/`;
const mode = fs.statSync(socket).mode;
check((mode & 0o170000) === 0o140000 && (mode & 0o777) === 0o660, `the kiosk socket is a socket, mode 0660 (got ${(mode & 0o777).toString(8)})`);
log('LAN service at', chatUrl, 'kiosk socket', socket);

// tauri-driver passes arguments only; the socket reaches the app in its environment through this wrapper.
const wrapper = path.join(work, 'aiui-kiosk');
fs.writeFileSync(wrapper, `#!/bin/sh\nAIUI_LAN_APPROVALS_SOCKET='${socket}' exec '${binary}' "$@"\n`, { mode: 0o755 });

const kiosk = client('kiosk', tauriDriver);
const driverPort = await freePort();
await start('chromedriver', 'chromedriver', [`--port=${driverPort}`], { ready: /was started successfully|ChromeDriver was started/ });
const browser = client('chromium', `http://127.0.0.1:${driverPort}`);

// A window of the app by its label (waiting for it: the web views start one after the other).
async function focusKiosk(label) {
  const handle = await until(`the kiosk's ${label} window`, async () => {
    for (const h of await kiosk.wd('GET', kiosk.s('/window/handles'))) {
      try {
        await kiosk.wd('POST', kiosk.s('/window'), { handle: h });
        if (await kiosk.run('return window.__TAURI_INTERNALS__.metadata.currentWindow.label;') === label) return h;
      } catch {
        // A window still being made may not run a script yet; asked again.
      }
    }
    return null;
  }, 30000, 250);
  await kiosk.wd('POST', kiosk.s('/window'), { handle });
}
const invokeIn = (command, args = {}) => kiosk.run(`try { return { ok: await window.__TAURI__.core.invoke(args[0], args[1]) }; }
  catch (e) { return { err: e }; }`, command, args);

async function axe(state) {
  await kiosk.wd('POST', kiosk.s('/execute/sync'), { script: `if (!window.axe) { ${axeSource} } return true;`, args: [] });
  const r = await kiosk.run(`const result = await window.axe.run(document, { runOnly: { type: 'tag', values: args[0] }, resultTypes: ['violations'] });
    return result.violations.map((v) => v.id + ': ' + v.help + ' (' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ') + ')');`,
  ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']);
  check(Array.isArray(r), `axe-core ran in ${state} (${JSON.stringify(r)})`);
  check(r.length === 0, `no WCAG 2.2 A/AA violation in ${state}: ${r.join('; ')}`);
  log(`axe ${state}: no violation`);
}

// Approve held by a finger for `ms`, as pointer events on the button (WebKitWebDriver refuses pointer actions).
const holdApprove = (ms) => kiosk.run(`const b = document.getElementById('approve');
  const finger = { bubbles: true, cancelable: true, composed: true, pointerId: 7, pointerType: 'touch', isPrimary: true, button: 0 };
  b.dispatchEvent(new PointerEvent('pointerdown', { ...finger, buttons: 1 }));
  await new Promise((r) => setTimeout(r, args[0]));
  b.dispatchEvent(new PointerEvent('pointerup', { ...finger, buttons: 0 }));
  return true;`, ms);

let failure = null;
try {
  await kiosk.open({ 'tauri:options': { application: wrapper, args: ['--demo', '--kiosk', '--data-dir', appData, '--ollama', 'http://127.0.0.1:9/'] } });
  await focusKiosk('main');
  await until('the kiosk chat page', () => kiosk.run(`return document.readyState === 'complete' && document.body.classList.contains('kiosk');`));
  await until('the kiosk connected to the LAN service', () => /a kiosk connected/.test(serve.output), 20000, 200);
  const peer = serve.output.match(/a kiosk connected[^\n]*/)[0];
  check(/uid \d+/.test(peer), `the service logs the kiosk's uid at connect (${peer})`);

  // ---- 1. the LAN user asks ----
  await browser.open({
    browserName: 'chrome',
    'goog:chromeOptions': {
      binary: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1300,900',
        `--user-data-dir=${path.join(work, 'chromium')}`, '--no-first-run', '--password-store=basic'],
    },
  });
  await browser.wd('POST', browser.s('/url'), { url: chatUrl });
  await until('the LAN sign-in page', () => browser.run(`return location.pathname.endsWith('/aiui/login.html') && !!document.getElementById('login-passphrase');`));
  await browser.type('#login-passphrase', LAN_PASSPHRASE);
  await browser.click('#login-submit');
  await until('the LAN chat page', () => browser.run(`return location.pathname === '/aiui/' && document.readyState === 'complete' && !!document.getElementById('composer-input');`));
  await browser.run(`const input = document.getElementById('composer-input'); input.value = 'restart lnd';
    document.getElementById('composer').requestSubmit(); return true;`);
  const waiting = await until('"waiting for confirmation" in the LAN chat', () => browser.run(`const p = document.getElementById('pending');
    return p.hidden ? null : p.textContent.replace(/\\s+/g, ' ').trim();`), 30000);
  log('the LAN chat shows:', waiting);
  const chatPages = [await browser.run('return document.documentElement.outerHTML;')];

  // ---- 2. the kiosk's trusted window, by itself ----
  await focusKiosk('trusted');
  const pending = await until('the LAN request listed on the kiosk', async () => {
    const r = await invokeIn('trusted_pending');
    return r.ok && r.ok.length === 1 ? r.ok[0] : null;
  });
  log('kiosk pending:', JSON.stringify({ summary: pending.summary, requester: pending.requester, route: pending.route, from_lan: pending.from_lan }));
  check(pending.route === 'lan' && pending.from_lan === true, `the request is the LAN service's, routed back there (${pending.route}, ${pending.from_lan})`);
  check(/^a LAN session from 127\.0\.0\.1 \(signed in .+, session [0-9a-f]+\)$/.test(pending.requester), `the host names the LAN session and its address (${pending.requester})`);
  check(pending.tool === 'package_restart' && JSON.stringify(pending.arguments) === JSON.stringify([['id', 'lnd']]), 'the request is restart lnd');
  const card = await until('the confirmation drawn, Deny focused', () => kiosk.run(`
    const c = document.getElementById('confirm');
    if (c.hidden || document.activeElement !== document.getElementById('deny')) return null;
    const marker = document.getElementById('c-lan');
    return { origin: document.getElementById('c-origin').textContent, summary: document.getElementById('c-summary').textContent,
      marked: !marker.hidden && marker.getClientRects().length > 0, marker: marker.textContent, framed: c.classList.contains('from-lan'),
      frame: getComputedStyle(c).borderTopColor, link: document.getElementById('lan-link').textContent,
      described: c.getAttribute('aria-describedby'), hold: document.body.classList.contains('hold') };`));
  log('kiosk confirmation:', JSON.stringify(card));
  // The page writes who asked in its own language from what the host recorded (the sign-in time as the page's
  // locale writes a time); the address and the session are the host's.
  const who = pending.asked_by || {};
  check(who.kind === 'lan' && card.origin.startsWith(`Asked from: a LAN session from ${who.address} (signed in `)
    && card.origin.endsWith(`, session ${who.session})`) && pending.requester.includes(who.session),
  `the confirmation says where it was asked (${card.origin}; the host's record ${JSON.stringify(who)})`);
  check(card.marked && card.marker.includes('LAN') && card.framed, `the confirmation is marked as a LAN request (${card.marker}; frame ${card.frame})`);
  check(card.described.split(' ').includes('c-origin'), 'the dialog is described by who asked');
  check(card.summary.startsWith('Restart app lnd'), `the host-written summary (${card.summary})`);
  check(/LAN service is connected/.test(card.link), `the kiosk says its link to the LAN service is up (${card.link})`);
  check(card.hold, 'the kiosk approves by press-and-hold');
  await kiosk.screenshot('kiosk-lan-confirmation.png');
  await axe('the kiosk trusted window with a LAN request');

  // ---- 3. let go early, then hold ----
  await until('Approve to be available', () => kiosk.run(`return document.getElementById('approve').getAttribute('aria-disabled') === 'false';`), 10000);
  await holdApprove(300);
  const early = await kiosk.run(`return { status: document.getElementById('c-status').textContent, shown: !document.getElementById('confirm').hidden };`);
  check(early.shown && /Let go too soon/.test(early.status), `a short press approves nothing (${JSON.stringify(early)})`);
  check((await invokeIn('trusted_pending')).ok.length === 1, 'the LAN request still waits after the short press');
  await holdApprove(HOLD_MS + 400);
  const approved = await until('the held approval', () => kiosk.run(`const t = document.getElementById('last-decision').textContent;
    return t.startsWith('Approved') ? t : null;`), 15000);
  log('kiosk:', approved);
  check(approved.includes('Restart app lnd'), `the kiosk says what it approved (${approved})`);

  // ---- 4. the LAN chat shows the result ----
  const result = await until('the action result in the LAN chat', () => browser.run(`const cards = [...document.querySelectorAll('#messages .card')];
    const said = [...document.querySelectorAll('#messages .msg.assistant')].map((m) => m.textContent).join(' ');
    return cards.length >= 1 && said.includes('lnd is restarting now') ? { cards: cards.map((c) => c.textContent.replace(/\\s+/g, ' ').trim()), said } : null;`), 30000);
  log('LAN chat result:', JSON.stringify(result.cards));
  check(result.cards.some((c) => /lnd/i.test(c)), `the result card names lnd (${JSON.stringify(result.cards)})`);
  const lndState = () => browser.run(`document.getElementById('refresh-apps').click(); await new Promise((r) => setTimeout(r, 300));
    const s = document.querySelector('#apps li[data-app="lnd"] .state'); return s ? s.textContent : 'missing';`);
  const states = [];
  await until('lnd restarting', async () => { const st = await lndState(); states.push(st); return st === 'running' && states.includes('restarting'); }, 20000, 200);
  log('lnd states seen from the LAN chat:', [...new Set(states)].join(' -> '));
  await until('the LAN turn to end', () => browser.run(`return document.getElementById('send').getAttribute('aria-disabled') !== 'true' && document.getElementById('pending').hidden;`));
  chatPages.push(await browser.run('return document.documentElement.outerHTML;'));
  check(chatPages.every((page) => !page.includes(pending.id) && !page.includes(pending.arguments_hash)),
    'the LAN chat page never held the request id or its arguments hash');
  await browser.screenshot('kiosk-lan-chat-after.png');

  // ---- 5. what the service logged ----
  const decided = serve.output.match(/decided on the kiosk[^\n]*/);
  check(decided && decided[0].includes(pending.id.slice(0, 8)) && !decided[0].includes(pending.id) && /Allowed/.test(decided[0]),
    `the service logs the decision by id prefix and verdict (${decided && decided[0]})`);
  check(!serve.output.includes(LAN_PASSPHRASE) && !serve.output.includes(APPROVAL_PASSPHRASE) && !serve.output.includes(NODE_PASSWORD), 'no passphrase in the service log');
  log('PASSED (a LAN request approved on the kiosk, asked-from shown and marked)');
} catch (error) {
  failure = error;
  await kiosk.screenshot('kiosk-lan-failure.png').catch(() => {});
  await browser.screenshot('kiosk-lan-chat-failure.png').catch(() => {});
} finally {
  await kiosk.close();
  await browser.close();
  cleanup();
  ollama.close();
}
if (failure) {
  console.error(failure.stack || String(failure));
  console.error(`--- aiui-cli serve output (last 3000 chars) ---\n${serve.output.slice(-3000)}`);
  process.exit(1);
}
fs.rmSync(work, { recursive: true, force: true });
process.exit(0);
