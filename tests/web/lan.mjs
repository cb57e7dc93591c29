// The LAN web service in a real browser: headless Chromium driven over WebDriver (chromedriver) with Node's fetch.
//
// Processes: a devnode (archy-devnode, lnd restarts over 3 s), a scripted local model (an HTTP server speaking
// Ollama's /api/tags, /api/show and /api/chat, replaying fixtures/ollama), and the built `aiui-cli serve` under the
// base path /aiui/ with a LAN passphrase and an approval passphrase set by its own subcommands.
//
// 1. A wrong LAN passphrase is refused with a clear message; the right one signs in.
// 2. "what is running?" draws the package card; "restart lnd" shows "waiting for your confirmation".
// 3. The owner signs in to the trusted origin (a second port) with the approval passphrase and sees the request.
// 4. Scripts on the chat origin try, and fail, to: POST a decision to the trusted origin; read its cookies or DOM;
//    frame it; approve with a wrong hash; approve without the passphrase; replay a used decision. The deeper
//    checks (wrong hash, no passphrase, replay) are also tried with the owner's own trusted session. Each attempt
//    is printed with the refusal observed.
// 5. The owner approves with the approval passphrase; the devnode's lnd goes restarting -> running.
// 5a. The one meter on both origins: Claude's allowance ($5.00 a month, set with `aiui-cli budget set` before the
//    service started) beside Routstr's sats and this month's free answers (the local leg's, counted by the host).
//    The trusted page shows Claude's figures read-only, with the node's command to change them.
// 5b. The wallet on the trusted origin. This node's allowance is 0, so the service has no wallet: the owner's page
//    says so, and each attempt on the wallet routes (overview, withdrawal quote, withdrawal) must be refused before
//    that, as its status and code show: from the chat origin (CORS fetches, simple POSTs that carry the owner's
//    cookie, a form into a hidden frame, the chat origin's own session), from foreign pages (another port of the
//    same host, which gets the owner's cookie too, and another site), without the CSRF token, and with a missing
//    or wrong approval passphrase. The backup words, restoring and sending tokens are not on the LAN at all.
// 5c. A slow streamed answer, stopped: in a new conversation, a question the scripted model answers as a slow NDJSON
//    stream (40 pieces 100 ms apart, then a tool call proposing `package_restart {id: lnd}`, then done). The page's
//    growing answer is sampled until it has had three distinct lengths; Stop is clicked. The page shows the partial
//    answer ending "[Stopped by you here.]" and the stop notice; the stored conversation (conversation_load) holds
//    the same partial text, marked; after 5.5 s more (past the stream's end) the devnode logged no package.restart,
//    lnd stayed running, the audit log has no new confirmation, and the trusted origin shows none pending.
// 6. The kiosk layout, by touch (WebDriver pointer type "touch", Chromium emulating a 1024x600 touchscreen, the page
//    opened with ?kiosk as the node's own screen would): the suggested questions follow the devnode's state; one is
//    tapped and answered; "restart lnd" is typed on the on-screen keyboard; on the trusted origin a tap on Approve
//    does nothing, and a hold approves. The same page at phone size keeps every touch target at 48 px or more.
// 6b. A browser set to Spanish (Accept-Language es): the sign-in page, the chat (its meter's dollars written the
//    Spanish way, 5,00 US$) and the trusted origin's sign-in are in Spanish.
// 7. The login rate limit holds: after five tries a minute, even the right passphrase waits.
// Screenshots go to target/gui-screenshots/lan-*.png. Every failure throws; the exit code says so.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const cli = process.env.AIUI_CLI || path.join(root, 'target/debug/aiui-cli');
const devnodeBin = process.env.ARCHY_DEVNODE || path.join(root, 'target/debug/archy-devnode');
const shots = process.env.AIUI_SCREENSHOTS || path.join(root, 'target/gui-screenshots');
const work = fs.mkdtempSync('/tmp/aiui-web-');
const started = Date.now();
const LAN_PASSPHRASE = 'lan-passphrase-for-the-test';
const APPROVAL_PASSPHRASE = 'approval-passphrase-owner-only';
const NODE_PASSWORD = 'devnode-password-for-the-web-test';

const log = (...args) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s]`, ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function check(condition, message) {
  if (!condition) throw new Error(`FAILED: ${message}`);
}
const fixture = (name) => fs.readFileSync(path.join(root, 'fixtures/ollama', name), 'utf8');
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

// Starts a process and resolves once `ready` matches its output; its output is kept for the failure report.
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
      const match = child.output.match(ready);
      if (match) { clearTimeout(timer); resolve({ child, match }); }
    };
    child.stdout.on('data', probe);
    child.stderr.on('data', probe);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited ${code}: ${child.output}`)); });
  });
}

// ---- the scripted local model ----
// Two rounds of the same script: the desktop-sized session, then the kiosk session.
const oneRound = ['chat_call_package_list.json', 'chat_answer_packages.json', 'chat_call_restart_lnd.json', 'chat_answer_restarted.json'];
const chatReplies = [...oneRound, ...oneRound];
// Step 5c's question gets a slow stream instead (the queue above is left as it is). Each such request is recorded:
// what it asked for (`stream`), which lines were written, and when (and after how many lines) the host hung up.
const SLOW_QUESTION = 'Explain how a Lightning channel works, step by step.';
const SLOW_PIECES = Array.from({ length: 40 }, (_, i) => `Part ${String(i + 1).padStart(2, '0')} of the slow answer. `);
const SLOW_TEXT = SLOW_PIECES.join('');
const slowStreams = [];
let chatRequests = 0;
function slowStream(res, asked) {
  const record = { startedAt: Date.now(), stream: asked.stream, sent: [], notSent: [], hungUpAt: null, finished: false };
  slowStreams.push(record);
  const line = (fields) => `${JSON.stringify({ model: 'qwen2.5:7b', created_at: new Date().toISOString(), ...fields })}\n`;
  const lines = [
    ...SLOW_PIECES.map((content) => ['piece', { message: { role: 'assistant', content }, done: false }]),
    ['tool call', { message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'package_restart', arguments: { id: 'lnd' } } }] }, done: false }],
    ['done', { message: { role: 'assistant', content: '' }, done_reason: 'stop', done: true, prompt_eval_count: 10, eval_count: 40 }],
  ];
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  res.on('close', () => { if (!record.finished && record.hungUpAt === null) record.hungUpAt = Date.now(); });
  let next = 0;
  const write = () => {
    if (next === lines.length) {
      record.finished = record.hungUpAt === null;
      if (record.finished) res.end();
      return;
    }
    const [kind, fields] = lines[next];
    next += 1;
    // Once the host has hung up, the rest keeps its schedule but cannot be written.
    if (record.hungUpAt !== null || res.destroyed) record.notSent.push(kind);
    else { res.write(line(fields)); record.sent.push(kind); }
    setTimeout(write, 100);
  };
  write();
}
const lastUserText = (asked) => {
  const users = (asked.messages || []).filter((m) => m.role === 'user');
  return users.length ? String(users[users.length - 1].content) : '';
};
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
      chatRequests += 1;
      const asked = JSON.parse(body);
      if (lastUserText(asked).includes(SLOW_QUESTION)) return slowStream(res, asked);
      const next = chatReplies.shift();
      return next ? reply(200, fixture(next)) : reply(500, '{"error":"the test script has no more replies"}');
    }
    reply(404, '{"error":"not found"}');
  });
});
await new Promise((resolve) => ollama.listen(0, '127.0.0.1', resolve));
const ollamaUrl = `http://127.0.0.1:${ollama.address().port}/`;
log('scripted Ollama at', ollamaUrl);
// A foreign site: a plain page that is not AIUI's, on its own port (another web app on the node's host name).
const foreign = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><title>another site</title><p>Not AIUI.</p>');
});
await new Promise((resolve) => foreign.listen(0, '127.0.0.1', resolve));

// ---- the devnode and the service ----
const nodePort = await freePort();
// Its RPC calls logged (debug), so step 5c can count the package.restart calls that reached it.
const devnode = await start('archy-devnode', devnodeBin, ['--listen', `127.0.0.1:${nodePort}`, '--data-dir', path.join(work, 'node'), '--transition-ms', '3000'],
  { env: { ARCHY_DEVNODE_PASSWORD: NODE_PASSWORD, RUST_LOG: 'info,archy_devnode=debug' }, ready: /listening on/ });
const restartsAtNode = () => (devnode.child.output.match(/rpc method="?package\.restart\b/g) || []).length;
const data = path.join(work, 'aiui');
await start('set-password', cli, ['serve', 'set-password', '--data-dir', data], { stdin: `${LAN_PASSPHRASE}\n` });
await start('set-approval-password', cli, ['serve', 'set-approval-password', '--data-dir', data], { stdin: `${APPROVAL_PASSPHRASE}\n` });
for (const file of ['web-lan-passphrase.argon2', 'web-approval-passphrase.argon2']) {
  const stat = fs.statSync(path.join(data, file));
  const text = fs.readFileSync(path.join(data, file), 'utf8');
  check((stat.mode & 0o777) === 0o600, `${file} is 0600 (got ${(stat.mode & 0o777).toString(8)})`);
  check(text.startsWith('$argon2id$') && !text.includes(LAN_PASSPHRASE) && !text.includes(APPROVAL_PASSPHRASE), `${file} holds an argon2id hash only`);
}
// Claude's allowance, set on the node as an owner would: the service shows it, read-only (step 5a). Without a key
// Claude is never used, so the turns below are answered by the scripted local model as before.
await start('budget set', cli, ['budget', 'set', '--claude-usd', '5', '--claude-period', 'monthly', '--data-dir', data]);
const [chatPort, trustedPort] = [await freePort(), await freePort()];
const serve = await start('aiui-cli serve', cli, [
  'serve', '--node', `http://127.0.0.1:${nodePort}/`, '--data-dir', data, '--ollama', ollamaUrl,
  '--claude-url', 'http://127.0.0.1:9/', '--no-builtin', '--base-path', '/aiui/',
  '--listen', `127.0.0.1:${chatPort}`, '--trusted-listen', `127.0.0.1:${trustedPort}`,
], { env: { AIUI_NODE_PASSWORD: NODE_PASSWORD, AIUI_LOG: 'warn,aiui_web=info' }, ready: /trusted origin: (http:\/\/\S+)/ });
const chatUrl = `http://127.0.0.1:${chatPort}/aiui/`;
const trustedUrl = `http://127.0.0.1:${trustedPort}/aiui/`;
log('chat origin', chatUrl, 'trusted origin', trustedUrl);

// ---- chromedriver + headless Chromium ----
const driverPort = await freePort();
await start('chromedriver', 'chromedriver', [`--port=${driverPort}`], { ready: /was started successfully|ChromeDriver was started/ });
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

// `touchscreen`: Chromium emulates a device of that size with touch input (pointer: coarse), as on the kiosk.
// `language`: the browser's own language, sent as its Accept-Language.
async function newSession(name, touchscreen, language = null) {
  const created = await wd('POST', '/session', {
    capabilities: {
      alwaysMatch: {
        browserName: 'chrome',
        'goog:chromeOptions': {
          binary: process.env.CHROMIUM || '/usr/bin/chromium',
          args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1300,900',
            `--user-data-dir=${path.join(work, `chromium-${name}`)}`, '--no-first-run', '--password-store=basic',
            ...(language ? [`--lang=${language}`] : [])],
          ...(touchscreen ? { mobileEmulation: { deviceMetrics: { ...touchscreen, pixelRatio: 1, touch: true } } } : {}),
          ...(language ? { prefs: { 'intl.accept_languages': language } } : {}),
        },
        'goog:loggingPrefs': { browser: 'ALL' },
      },
    },
  });
  return created.sessionId;
}
let sid = await newSession('desktop', null);
const s = (route) => `/session/${sid}${route}`;
log('chromium session', sid);

const run = (script, ...args) => wd('POST', s('/execute/async'), { script, args });
const wrap = (body) => `const done = arguments[arguments.length - 1]; const args = Array.from(arguments).slice(0, -1);
  (async () => { ${body} })().then(done, (e) => done({ scriptError: String(e && (e.message || e)) }));`;
async function until(what, probe, timeoutMs = 20000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value && !value.scriptError) return value;
    if (Date.now() > deadline) throw new Error(`FAILED: timed out waiting for ${what}${value && value.scriptError ? ` (${value.scriptError})` : ''}`);
    await sleep(everyMs);
  }
}
async function screenshot(name) {
  fs.mkdirSync(shots, { recursive: true });
  const png = await wd('GET', s('/screenshot'));
  const file = path.join(shots, name);
  fs.writeFileSync(file, Buffer.from(png, 'base64'));
  log('screenshot', file);
}
const typeInto = (id, text) => run(wrap(`const el = document.getElementById(args[0]); el.focus(); el.value = args[1];
  el.dispatchEvent(new Event('input', { bubbles: true })); return true;`), id, text);
async function element(css) {
  const found = await wd('POST', s('/element'), { using: 'css selector', value: css });
  return Object.values(found)[0];
}
async function click(css) {
  await wd('POST', s(`/element/${await element(css)}/click`), {});
}
async function typeKeys(css, text) {
  await wd('POST', s(`/element/${await element(css)}/value`), { text });
}
// A finger on the element's centre: a tap, or a press held for `holdMs`.
async function touch(css, holdMs = 0) {
  const at = await run(wrap(`const el = document.querySelector(args[0]); el.scrollIntoView({ block: 'nearest' });
    const r = el.getBoundingClientRect(); return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) };`), css);
  await wd('POST', s('/actions'), { actions: [{ type: 'pointer', id: 'finger', parameters: { pointerType: 'touch' }, actions: [
    { type: 'pointerMove', duration: 0, origin: 'viewport', x: at.x, y: at.y },
    { type: 'pointerDown', button: 0 },
    { type: 'pause', duration: holdMs },
    { type: 'pointerUp', button: 0 },
  ] }] });
  await wd('DELETE', s('/actions'));
}
const browserLog = async () => {
  try {
    return await wd('POST', s('/se/log'), { type: 'browser' });
  } catch {
    return [];
  }
};
const refusals = [];
function refused(attempt, observed, ok) {
  check(ok, `${attempt}: expected a refusal, observed ${observed}`);
  refusals.push([attempt, observed]);
}

let failure = null;
try {
  // ---- 1. sign-in on the chat origin ----
  await wd('POST', s('/url'), { url: chatUrl });
  await until('the sign-in page', () => run(wrap(`return location.pathname.endsWith('/aiui/login.html') && document.getElementById('login-label').textContent === 'LAN passphrase';`)));
  await typeKeys('#login-passphrase', 'not-the-lan-passphrase');
  await click('#login-submit');
  const wrong = await until('the wrong-passphrase message', () => run(wrap(`const t = document.getElementById('login-status').textContent; return t.includes('not right') ? t : null;`)));
  log('wrong LAN passphrase:', wrong);
  check(wrong.includes('That LAN passphrase is not right'), `a clear message for a wrong LAN passphrase (${wrong})`);
  await screenshot('lan-login-wrong.png');
  await run(wrap(`document.getElementById('login-passphrase').value = ''; return true;`));
  await typeKeys('#login-passphrase', LAN_PASSPHRASE);
  await click('#login-submit');
  await until('the chat page', () => run(wrap(`return location.pathname === '/aiui/' && document.readyState === 'complete' && !!document.getElementById('composer-input');`)));
  const cookies = await wd('GET', s('/cookie'));
  const lanCookie = cookies.find((c) => c.name === 'aiui_lan');
  check(lanCookie && lanCookie.httpOnly && lanCookie.sameSite === 'Strict' && lanCookie.path === '/aiui/', `the LAN session cookie is HttpOnly, SameSite=Strict, Path=/aiui/ (${JSON.stringify(lanCookie)})`);
  const chatWindow = await wd('GET', s('/window'));

  // ---- 2. a read turn, then an action ----
  async function ask(text) {
    await run(wrap(`const input = document.getElementById('composer-input'); input.value = args[0];
      document.getElementById('composer').requestSubmit(); return true;`), text);
  }
  await ask('what is running?');
  await until('the package answer', () => run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes('Five apps are running'));`)), 60000);
  check(await run(wrap(`return [...document.querySelectorAll('#messages .card')].some((m) => /LND/i.test(m.textContent) && m.textContent.includes('running'));`)), 'the package list is drawn as a card');
  await until('the turn to end', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') !== 'true';`)));
  await ask('restart lnd');
  const waiting = await until('"waiting for approval"', () => run(wrap(`const p = document.getElementById('pending');
    return p.hidden ? null : p.textContent.replace(/\\s+/g, ' ').trim();`)));
  log('chat origin shows:', waiting);
  check(/Waiting for your confirmation/i.test(waiting) && waiting.includes('lnd'), `the chat shows that an approval waits (${waiting})`);
  const chatKnows = await run(wrap(`return document.documentElement.outerHTML;`));
  await screenshot('lan-chat.png');

  // ---- 3. the owner on the trusted origin ----
  await wd('POST', s('/window/new'), { type: 'tab' }).then((w) => wd('POST', s('/window'), { handle: w.handle }));
  const trustedWindow = await wd('GET', s('/window'));
  await wd('POST', s('/url'), { url: trustedUrl });
  await until('the trusted sign-in page', () => run(wrap(`return location.pathname.endsWith('/aiui/login.html') && document.getElementById('login-label').textContent.startsWith('Approval passphrase');`)));
  await typeKeys('#login-passphrase', LAN_PASSPHRASE);
  await click('#login-submit');
  await until('the LAN passphrase refused on the trusted origin', () => run(wrap(`return document.getElementById('login-status').textContent.includes('not the approval passphrase');`)));
  await run(wrap(`document.getElementById('login-passphrase').value = ''; return true;`));
  await typeKeys('#login-passphrase', APPROVAL_PASSPHRASE);
  await click('#login-submit');
  const shown = await until('the confirmation on the trusted origin', () => run(wrap(`
    if (document.getElementById('confirm').hidden) return null;
    return { summary: document.getElementById('c-summary').textContent, approveDisabled: document.getElementById('approve').getAttribute('aria-disabled') === 'true',
      denyFocused: document.activeElement === document.getElementById('deny'), field: !!document.getElementById('approval-secret') };`)), 20000, 20);
  log('trusted origin shows:', JSON.stringify(shown));
  check(shown.summary.startsWith('Restart app lnd'), `the host-written summary, its code shown as code (${shown.summary})`);
  check(shown.approveDisabled && shown.denyFocused, 'Approve starts disabled and Deny has the focus');
  check(shown.field, 'the approval passphrase field is beside Approve');
  // What an attacker would need: the real id and hash (read here with the owner's session).
  const pending = await run(wrap(`
    const session = await fetch('api/session').then((r) => r.json());
    const r = await fetch('api/invoke/trusted_pending', { method: 'POST', headers: { 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' }, body: '{}' });
    return { list: await r.json(), csrf: session.csrf };`));
  check(pending.list.length === 1, `one pending confirmation (${JSON.stringify(pending.list)})`);
  const { id, arguments_hash: hash } = pending.list[0];
  check(!chatKnows.includes(hash) && !chatKnows.includes(id), 'the chat page never held the request id or its arguments hash');
  const trustedCookies = await wd('GET', s('/cookie'));
  const trustedCookie = trustedCookies.find((c) => c.name === 'aiui_trusted');
  check(trustedCookie && trustedCookie.httpOnly && trustedCookie.sameSite === 'Strict', 'the trusted cookie is HttpOnly, SameSite=Strict');

  // ---- 4. the chat origin attacks (the owner is signed in on the trusted origin in this same browser) ----
  const refusedSoFar = () => (serve.child.output.match(/refused a trusted request/g) || []).length;
  // The attacks, run in the current window's page: returns what each attempt got, and how many reached the
  // trusted origin (its refusals logged).
  const decisionAttack = async () => {
    const before = refusedSoFar();
    const out = await run(wrap(`
    const [trusted, id, hash, passphrase] = args;
    const out = {};
    const attempt = async (name, fn) => {
      try { out[name] = { resolved: await fn() }; } catch (e) { out[name] = { rejected: String(e && (e.name + ': ' + e.message)) }; }
    };
    const decision = (extra) => JSON.stringify({ id, argumentsHash: hash, answer: 'approve', secret: passphrase, ...extra });
    // A CORS request with the owner's cookies: the preflight gets no Access-Control-Allow-* header.
    await attempt('POST decision (cors, json)', () => fetch(trusted + 'api/invoke/trusted_decide', {
      method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: decision() }).then((r) => r.status));
    // A "simple" no-cors POST does reach the server (with the owner's cookie: same host): Origin and CSRF refuse it.
    await attempt('POST decision (no-cors, text/plain)', () => fetch(trusted + 'api/invoke/trusted_decide', {
      method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: decision() }).then((r) => r.type + ' ' + r.status));
    await attempt('POST wrong hash (no-cors)', () => fetch(trusted + 'api/invoke/trusted_decide', {
      method: 'POST', mode: 'no-cors', credentials: 'include', body: decision({ argumentsHash: '0'.repeat(64) }) }).then((r) => r.type));
    await attempt('POST without passphrase (no-cors)', () => fetch(trusted + 'api/invoke/trusted_decide', {
      method: 'POST', mode: 'no-cors', credentials: 'include', body: decision({ secret: undefined }) }).then((r) => r.type));
    // A form POST in a hidden frame.
    const form = document.createElement('form');
    form.method = 'POST'; form.action = trusted + 'api/invoke/trusted_decide'; form.target = 'sink'; form.enctype = 'text/plain';
    const field = document.createElement('input'); field.name = decision().slice(0, -1) + ',"x":"'; field.value = '"}';
    form.append(field);
    const sink = document.createElement('iframe'); sink.name = 'sink'; document.body.append(sink, form); form.submit();
    await new Promise((r) => setTimeout(r, 800));
    out['form POST decision'] = { submitted: true };
    out['document.cookie'] = { resolved: document.cookie };
    await attempt('read trusted page (cors)', () => fetch(trusted, { credentials: 'include' }).then((r) => r.text()));
    await attempt('read trusted session (cors)', () => fetch(trusted + 'api/session', { credentials: 'include' }).then((r) => r.text()));
    await attempt('read trusted page (no-cors)', () => fetch(trusted, { mode: 'no-cors', credentials: 'include' }).then((r) => r.type + ' body=' + JSON.stringify(r.body)));
    const w = window.open(trusted, 'aiui-trusted-attack');
    await new Promise((r) => setTimeout(r, 1500));
    await attempt('window.open then read DOM', () => { if (!w) return 'no handle'; return w.document.body.innerHTML; });
    try { w && w.close(); } catch (e) {}
    const frame = document.createElement('iframe');
    frame.src = trusted;
    frame.style.width = '600px'; frame.style.height = '300px';
    document.body.append(frame);
    await new Promise((r) => { frame.onload = r; setTimeout(r, 3000); });
    await attempt('frame it, read its DOM', () => frame.contentDocument ? frame.contentDocument.body.innerHTML : 'contentDocument is null');
    return out;`), trustedUrl, id, hash, APPROVAL_PASSPHRASE);
    return [out, refusedSoFar() - before];
  };
  // From the chat origin's own page: its CSP (connect-src, form-action, frame-src 'self') stops every attempt
  // before it leaves the page.
  await wd('POST', s('/window'), { handle: chatWindow });
  const [chatAttempts, reachedFromChat] = await decisionAttack();
  log('chat-origin attempts:', JSON.stringify(chatAttempts, null, 1));
  for (const name of ['POST decision (cors, json)', 'POST decision (no-cors, text/plain)', 'POST wrong hash (no-cors)', 'POST without passphrase (no-cors)', 'read trusted session (cors)']) {
    refused(`chat origin: ${name} (stopped by the chat origin's CSP)`, chatAttempts[name].rejected, Boolean(chatAttempts[name].rejected));
  }
  refused('chat origin: the decision POSTs and the form (never left the page)', `the trusted origin saw ${reachedFromChat} of them`, reachedFromChat === 0);
  // From a page on another port of the same host name (it gets the owner's cookie: cookies ignore ports), where
  // no CSP of ours applies: the requests reach the trusted origin, and its own checks refuse them.
  const foreignTab = await wd('POST', s('/window/new'), { type: 'tab' });
  await wd('POST', s('/window'), { handle: foreignTab.handle });
  await wd('POST', s('/url'), { url: `http://127.0.0.1:${foreign.address().port}/` });
  const [attack, reached] = await decisionAttack();
  log('foreign-page attempts:', JSON.stringify(attack, null, 1));
  const stillPending = async () => {
    await wd('POST', s('/window'), { handle: trustedWindow });
    const r = await run(wrap(`const r = await fetch('api/invoke/trusted_pending', { method: 'POST', headers: { 'X-CSRF-Token': args[0], 'Content-Type': 'application/json' }, body: '{}' }); return r.json();`), pending.csrf);
    await wd('POST', s('/window'), { handle: chatWindow });
    return r.length === 1 && r[0].id === id;
  };
  const a = attack;
  refused('POST a decision to the trusted origin (CORS fetch with credentials)', a['POST decision (cors, json)'].rejected, Boolean(a['POST decision (cors, json)'].rejected));
  refused('POST a decision to the trusted origin (no-cors simple POST, carries the owner\'s cookie)', `${a['POST decision (no-cors, text/plain)'].rejected || 'opaque answer'}; the server logged ${reached} Origin/CSRF refusals for the 4 requests that reached it (3 fetches + 1 form)`, reached >= 4);
  refused('POST a decision with a form into a hidden frame', 'refused by the same Origin/CSRF check (counted above)', reached >= 4);
  refused('read the trusted origin\'s cookies (document.cookie)', JSON.stringify(a['document.cookie'].resolved), !a['document.cookie'].resolved.includes('aiui_trusted') && !a['document.cookie'].resolved.includes('aiui_lan'));
  refused('read the trusted page (CORS fetch)', a['read trusted page (cors)'].rejected, Boolean(a['read trusted page (cors)'].rejected));
  refused('read the trusted session and its CSRF token (CORS fetch)', a['read trusted session (cors)'].rejected, Boolean(a['read trusted session (cors)'].rejected));
  const noCors = a['read trusted page (no-cors)'];
  refused('read the trusted page (no-cors fetch; Cross-Origin-Resource-Policy)', noCors.rejected || noCors.resolved, Boolean(noCors.rejected) || /^opaque body=null/.test(noCors.resolved || ''));
  const opened = a['window.open then read DOM'];
  refused('open the trusted page in a window and read its DOM', opened.rejected || opened.resolved, Boolean(opened.rejected) || opened.resolved === 'no handle');
  const framed = a['frame it, read its DOM'];
  const consoleLog = await browserLog();
  const frameRefusal = consoleLog.map((e) => e.message).find((m) => /frame-ancestors|X-Frame-Options|Refused to (display|frame)/i.test(m));
  refused('frame the trusted origin', `${frameRefusal ? frameRefusal.slice(0, 200) : 'no console message'}; reading it: ${framed.rejected || framed.resolved}`,
    Boolean(frameRefusal) && (Boolean(framed.rejected) || framed.resolved === 'contentDocument is null'));
  await wd('DELETE', s('/window'));
  check(await stillPending(), 'after every chat-origin and foreign-page attempt the confirmation is still pending, undecided');

  // The same decision, sent with the owner's own trusted session (what an attacker would need first): the
  // deeper checks refuse it.
  await wd('POST', s('/window'), { handle: trustedWindow });
  const deep = await run(wrap(`
    const [csrf, id, hash, passphrase] = args;
    const decide = async (body) => { const r = await fetch('api/invoke/trusted_decide', { method: 'POST', headers: { 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }); return { status: r.status, body: await r.json() }; };
    return {
      wrongHash: await decide({ id, argumentsHash: 'f'.repeat(64), answer: 'approve', secret: passphrase }),
      noSecret: await decide({ id, argumentsHash: hash, answer: 'approve' }),
      wrongSecret: await decide({ id, argumentsHash: hash, answer: 'approve', secret: 'a-guess-at-the-passphrase' }),
      noCsrf: await fetch('api/invoke/trusted_decide', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id, argumentsHash: hash, answer: 'approve', secret: passphrase }) }).then(async (r) => ({ status: r.status, body: await r.json() })),
    };`), pending.csrf, id, hash, APPROVAL_PASSPHRASE);
  refused('approve with a wrong hash (owner session, right passphrase)', `${deep.wrongHash.status} ${deep.wrongHash.body.code}: ${deep.wrongHash.body.message}`, deep.wrongHash.status === 409 && deep.wrongHash.body.code === 'mismatch');
  refused('approve without the passphrase (owner session)', `${deep.noSecret.status} ${deep.noSecret.body.code}: ${deep.noSecret.body.message}`, deep.noSecret.status === 403 && deep.noSecret.body.code === 'secret_required');
  refused('approve with a wrong passphrase (owner session)', `${deep.wrongSecret.status} ${deep.wrongSecret.body.code}`, deep.wrongSecret.status === 403 && deep.wrongSecret.body.code === 'wrong_secret');
  refused('approve without the CSRF token (owner cookie only)', `${deep.noCsrf.status} ${deep.noCsrf.body.code}`, deep.noCsrf.status === 403 && deep.noCsrf.body.code === 'bad_origin');
  // Approve in the page without typing the passphrase: the page says what is missing.
  await until('Approve to unlock', () => run(wrap(`return document.getElementById('approve').getAttribute('aria-disabled') === 'false';`)), 10000);
  await click('#approve');
  const noPassMessage = await until('the page refusing an approval without the passphrase', () => run(wrap(`const t = document.getElementById('c-status').textContent; return t.includes('passphrase') ? t : null;`)));
  refused('click Approve without typing the passphrase', noPassMessage, /needs your approval passphrase/.test(noPassMessage));
  check(await stillPending(), 'still pending after the refused approvals');

  // ---- 5. the owner approves ----
  await wd('POST', s('/window'), { handle: trustedWindow });
  await typeKeys('#approval-secret', APPROVAL_PASSPHRASE);
  await until('Approve to unlock', () => run(wrap(`return document.getElementById('approve').getAttribute('aria-disabled') === 'false';`)), 10000);
  await screenshot('lan-trusted.png');
  await click('#approve');
  const decided = await until('the decision', () => run(wrap(`const t = document.getElementById('last-decision').textContent; return t.startsWith('Approved') ? t : null;`)));
  log('trusted origin:', decided);
  check(await run(wrap(`return document.getElementById('approval-secret') === null || document.getElementById('approval-secret').value === '';`)), 'the passphrase field is cleared after the decision');
  // Replay the used decision: from the chat origin (refused before it counts) and with the owner's session.
  const replay = await run(wrap(`
    const [csrf, id, hash, passphrase] = args;
    const r = await fetch('api/invoke/trusted_decide', { method: 'POST', headers: { 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' }, body: JSON.stringify({ id, argumentsHash: hash, answer: 'approve', secret: passphrase }) });
    return { status: r.status, body: await r.json() };`), pending.csrf, id, hash, APPROVAL_PASSPHRASE);
  refused('replay the used decision (owner session, right passphrase)', `${replay.status} ${replay.body.code}: ${replay.body.message}`, replay.status === 404 && replay.body.code === 'unknown');
  await wd('POST', s('/window'), { handle: chatWindow });
  const chatReplay = await run(wrap(`
    const [trusted, id, hash, passphrase] = args;
    try { const r = await fetch(trusted + 'api/invoke/trusted_decide', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id, argumentsHash: hash, answer: 'approve', secret: passphrase }) }); return 'status ' + r.status; }
    catch (e) { return e.name + ': ' + e.message; }`), trustedUrl, id, hash, APPROVAL_PASSPHRASE);
  refused('replay the used decision from the chat origin', chatReplay, /TypeError/.test(chatReplay));

  // ---- the devnode goes restarting -> running, seen from the chat ----
  // The approved action's card, lnd restarting then running in the app list, and the turn's end, seen by `who`.
  async function restartSeen(who) {
    await until(`the action result (${who})`, () => run(wrap(`return document.querySelectorAll('#messages .card').length >= 2;`)), 20000);
    const lndState = () => run(wrap(`document.getElementById('refresh-apps').click(); await new Promise((r) => setTimeout(r, 300));
      const s = document.querySelector('#apps li[data-app="lnd"] .state'); return s ? s.textContent : 'missing';`));
    const states = [];
    await until(`lnd restarting (${who})`, async () => { const st = await lndState(); states.push(st); return st === 'restarting'; }, 10000, 200);
    await until(`lnd running again (${who})`, async () => { const st = await lndState(); states.push(st); return st === 'running'; }, 20000, 300);
    log(`lnd states seen from ${who}:`, [...new Set(states)].join(' -> '));
    await until(`the turn to end (${who})`, () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') !== 'true' && document.getElementById('pending').hidden;`)));
  }
  await restartSeen('the chat origin');
  await screenshot('lan-chat-after.png');

  // ---- 5a. the one meter on both origins ----
  const FREE = /^(\d+) local and 0 built-in answers this month, at \$0$/;
  const chatMeter = await until('the chat meter with Claude and the local answers given so far (2 or more)', () => run(wrap(`
    const [free] = args;
    const part = document.getElementById('claude-meter'), line = document.getElementById('free-answers');
    const counted = new RegExp(free).exec(line.textContent);
    if (part.hidden || line.hidden || !counted || Number(counted[1]) < 2) return null;
    return { summary: document.getElementById('claude-summary').textContent, renews: document.getElementById('claude-renews').textContent,
      sats: document.getElementById('allowance-summary').textContent, free: line.textContent };`), FREE.source));
  log('chat meter:', JSON.stringify(chatMeter));
  check(chatMeter.summary === '$0.00 of $5.00 spent' && chatMeter.renews.startsWith('$5.00 left; renews monthly'), `the chat meter shows Claude's dollars (${JSON.stringify(chatMeter)})`);
  check(chatMeter.sats === 'Paid help is off (allowance 0 sats).', `Routstr's sats stay in sats (${chatMeter.sats})`);
  await wd('POST', s('/window'), { handle: trustedWindow });
  const trustedMeter = await until('the trusted page\'s Claude allowance', () => run(wrap(`
    const section = document.getElementById('claude-section'), free = document.getElementById('budget-free-answers');
    if (section.hidden || free.hidden) return null;
    section.scrollIntoView();
    return { remaining: document.getElementById('claude-budget-remaining').textContent,
      renews: document.getElementById('claude-budget-renews').textContent,
      editable: !document.getElementById('claude-editing').hidden, onNode: document.getElementById('claude-set-on-node').hidden ? '' : document.getElementById('claude-set-on-node').textContent,
      free: free.textContent };`)));
  log('trusted meter:', JSON.stringify(trustedMeter));
  check(trustedMeter.remaining === '$5.00 of $5.00' && trustedMeter.renews.startsWith('monthly'), `the trusted page shows Claude's allowance (${JSON.stringify(trustedMeter)})`);
  check(!trustedMeter.editable && trustedMeter.onNode.includes('aiui-cli budget set --claude-usd AMOUNT'), `on the LAN it is read-only, pointing at the node (${JSON.stringify(trustedMeter)})`);
  check(/^This month: \d+ local and 0 built-in answers, at \$0\.$/.test(trustedMeter.free), `the trusted page shows the free answers (${trustedMeter.free})`);
  await screenshot('lan-trusted-meter.png');
  await wd('POST', s('/window'), { handle: chatWindow });

  // ---- 5b. the wallet on the trusted origin, and the attacks on its routes ----
  await wd('POST', s('/window'), { handle: trustedWindow });
  const walletPage = await until('the LAN wallet section', () => run(wrap(`
    const state = document.getElementById('lan-wallet-state');
    if (!state || state.textContent === 'Reading the wallet…') return null;
    const desktop = document.getElementById('wallet-section');
    return { state: state.textContent, desktopHidden: !desktop || desktop.hidden, form: !!document.getElementById('lan-withdraw-form'),
      text: document.getElementById('lan-wallet-section').textContent };`)));
  log('LAN wallet section:', walletPage.state);
  check(/^There is no wallet on this node/.test(walletPage.state), `the owner is told there is no wallet (${walletPage.state})`);
  check(walletPage.desktopHidden && walletPage.form, 'the LAN wallet section replaces the desktop one, with its withdrawal form');
  await typeInto('lan-withdraw-invoice', 'lnbc10n1pjunk');
  await click('#lan-withdraw-quote');
  const noWallet = await until('the quote answered "no wallet"', () => run(wrap(`const t = document.getElementById('lan-wallet-status').textContent;
    return /no wallet on this node/.test(t) ? t : null;`)));
  check(await run(wrap(`return document.getElementById('lan-withdraw-confirm').hidden;`)), `no quote is shown (${noWallet})`);
  await screenshot('lan-wallet.png');
  // The owner's own session, calling the routes directly: without the CSRF token, without or with a wrong
  // passphrase, refused; with everything right, the answer is "no wallet" (so the checks above came first).
  const owned = await run(wrap(`
    const [csrf, passphrase] = args;
    const call = async (path, body, withToken = true) => {
      const headers = { 'Content-Type': 'application/json', ...(withToken ? { 'X-CSRF-Token': csrf } : {}) };
      const r = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: r.status, body: await r.json().catch(() => ({})) };
    };
    const id = '0'.repeat(64);
    return {
      overviewNoCsrf: await call('api/wallet', {}, false),
      quoteNoCsrf: await call('api/wallet/quote', { invoice: 'lnbc1' }, false),
      withdrawNoCsrf: await call('api/wallet/withdraw', { id, secret: passphrase }, false),
      withdrawNoSecret: await call('api/wallet/withdraw', { id }),
      withdrawWrongSecret: await call('api/wallet/withdraw', { id, secret: 'a-guess-at-the-passphrase' }),
      overview: await call('api/wallet', {}),
      quote: await call('api/wallet/quote', { invoice: 'lnbc1' }),
      withdraw: await call('api/wallet/withdraw', { id, secret: passphrase }),
      backup: await call('api/invoke/trusted_wallet_backup', {}),
      restore: await call('api/invoke/trusted_wallet_restore', {}),
      send: await call('api/invoke/trusted_wallet_send', {}),
    };`), pending.csrf, APPROVAL_PASSPHRASE);
  const said = (r) => `${r.status} ${r.body.code}`;
  for (const [name, what] of [['overviewNoCsrf', 'the wallet overview'], ['quoteNoCsrf', 'a withdrawal quote'], ['withdrawNoCsrf', 'a withdrawal (right passphrase)']]) {
    refused(`${what} without the CSRF token (owner cookie only)`, said(owned[name]), owned[name].status === 403 && owned[name].body.code === 'bad_origin');
  }
  refused('withdraw without the passphrase (owner session)', said(owned.withdrawNoSecret), owned.withdrawNoSecret.status === 403 && owned.withdrawNoSecret.body.code === 'secret_required');
  refused('withdraw with a wrong passphrase (owner session)', said(owned.withdrawWrongSecret), owned.withdrawWrongSecret.status === 403 && owned.withdrawWrongSecret.body.code === 'wrong_secret');
  for (const name of ['overview', 'quote', 'withdraw']) {
    check(owned[name].status === 409 && owned[name].body.code === 'no_wallet', `the owner's ${name}, with every check passed, is told there is no wallet (${said(owned[name])})`);
  }
  for (const name of ['backup', 'restore', 'send']) {
    refused(`the wallet's ${name} over the LAN (owner session)`, `${said(owned[name])}: ${owned[name].body.message}`, owned[name].status === 501 && owned[name].body.code === 'not_on_lan');
  }

  // The same routes attacked from pages that are not the trusted origin, in this browser where the owner is
  // signed in. `own` also tries the page's own origin's session on its own origin (the chat origin).
  const walletAttack = (own) => run(wrap(`
    const [trusted, passphrase, own] = args;
    const out = {};
    const attempt = async (name, fn) => {
      try { out[name] = { resolved: await fn() }; } catch (e) { out[name] = { rejected: String(e && (e.name + ': ' + e.message)) }; }
    };
    const body = JSON.stringify({ invoice: 'lnbc10n1pjunk', id: '0'.repeat(64), secret: passphrase });
    const session = own ? await fetch('api/session').then((r) => r.json()) : null;
    for (const path of ['api/wallet', 'api/wallet/quote', 'api/wallet/withdraw']) {
      await attempt(path + ' cors json', () => fetch(trusted + path, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body }).then((r) => r.status));
      await attempt(path + ' cors text', () => fetch(trusted + path, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body }).then((r) => r.text()));
      await attempt(path + ' no-cors', () => fetch(trusted + path, { method: 'POST', mode: 'no-cors', credentials: 'include', body }).then((r) => r.type + ' ' + r.status));
      if (own) await attempt(path + ' own origin', () => fetch(path, { method: 'POST', headers: { 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' }, body }).then((r) => r.status));
    }
    if (own) {
      for (const command of ['trusted_wallet', 'trusted_wallet_withdraw', 'trusted_wallet_backup']) {
        await attempt('invoke ' + command, () => fetch('api/invoke/' + command, { method: 'POST', headers: { 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' }, body: '{}' })
          .then(async (r) => r.status + ' ' + (await r.json()).code));
      }
    }
    const form = document.createElement('form');
    form.method = 'POST'; form.action = trusted + 'api/wallet/withdraw'; form.target = 'wallet-sink'; form.enctype = 'text/plain';
    const field = document.createElement('input'); field.name = body.slice(0, -1) + ',"x":"'; field.value = '"}';
    form.append(field);
    const sink = document.createElement('iframe'); sink.name = 'wallet-sink'; document.body.append(sink, form); form.submit();
    await new Promise((r) => setTimeout(r, 800));
    return out;`), trustedUrl, APPROVAL_PASSPHRASE, own);
  const refusalsLogged = () => (serve.child.output.match(/refused a trusted request/g) || []).length;
  // Each page sends 7 requests that reach the trusted origin (3 simple CORS POSTs, 3 no-cors POSTs, 1 form); the
  // 3 JSON fetches stop at their preflight.
  // From the chat origin's own page, its CSP (connect-src and form-action 'self') stops every one of them before
  // it leaves the page: none may reach the trusted origin at all. From foreign pages they reach it and are refused.
  const judge = (page, out, before, stoppedByCsp = false) => {
    const reached = refusalsLogged() - before;
    for (const path of ['api/wallet', 'api/wallet/quote', 'api/wallet/withdraw']) {
      refused(`${page}: POST ${path} to the trusted origin (CORS fetch, JSON, with credentials)`, out[`${path} cors json`].rejected, Boolean(out[`${path} cors json`].rejected));
      refused(`${page}: read the answer of ${path} (simple CORS POST, carries the owner's cookie)`, out[`${path} cors text`].rejected, Boolean(out[`${path} cors text`].rejected));
      refused(`${page}: POST ${path} (no-cors)`, out[`${path} no-cors`].rejected || `opaque answer (${out[`${path} no-cors`].resolved})`, Boolean(out[`${path} no-cors`].rejected) || /^opaque 0$/.test(out[`${path} no-cors`].resolved));
    }
    if (stoppedByCsp) {
      refused(`${page}: the wallet requests (simple POSTs, no-cors POSTs, a form into a hidden frame) never left the page`,
        `the trusted origin saw ${reached} of them (the chat origin's CSP allows only itself)`, reached === 0);
    } else {
      refused(`${page}: the wallet requests that reached the trusted origin (simple POSTs, no-cors POSTs, a form into a hidden frame)`,
        `the server logged ${reached} Origin/CSRF/session refusals for the 7 requests that reached it`, reached >= 7);
    }
  };
  await wd('POST', s('/window'), { handle: chatWindow });
  let before = refusalsLogged();
  const fromChat = await walletAttack(true);
  log('chat-origin wallet attempts:', JSON.stringify(fromChat, null, 1));
  judge('chat origin', fromChat, before, true);
  for (const path of ['api/wallet', 'api/wallet/quote', 'api/wallet/withdraw']) {
    const own = fromChat[`${path} own origin`];
    refused(`chat origin: POST ${path} on the chat origin itself (its own session and CSRF token)`, `status ${own.resolved}`, own.resolved === 404 || own.resolved === 405);
  }
  for (const command of ['trusted_wallet', 'trusted_wallet_withdraw', 'trusted_wallet_backup']) {
    const own = fromChat[`invoke ${command}`];
    refused(`chat origin: invoke ${command} on the chat origin`, own.resolved, own.resolved === '403 not_trusted');
  }
  const foreignPort = foreign.address().port;
  for (const page of [`http://127.0.0.1:${foreignPort}/`, `http://localhost:${foreignPort}/`]) {
    await wd('POST', s('/window/new'), { type: 'tab' }).then((w) => wd('POST', s('/window'), { handle: w.handle }));
    await wd('POST', s('/url'), { url: page });
    before = refusalsLogged();
    const out = await walletAttack(false);
    log(`wallet attempts from ${page}:`, JSON.stringify(out));
    judge(`foreign page ${page}`, out, before);
    await wd('DELETE', s('/window'));
    await wd('POST', s('/window'), { handle: trustedWindow });
  }
  // What the foreign page's request carried (the owner's cookie, its own Origin), sent again where the answer
  // can be read: refused on its Origin, before any passphrase or wallet check.
  const ownerCookie = `aiui_trusted=${trustedCookie.value}`;
  for (const [path, body] of [['api/wallet', {}], ['api/wallet/quote', { invoice: 'lnbc1' }], ['api/wallet/withdraw', { id: '0'.repeat(64), secret: APPROVAL_PASSPHRASE }]]) {
    const r = await fetch(trustedUrl + path, { method: 'POST', headers: { origin: `http://127.0.0.1:${foreignPort}`, cookie: ownerCookie, 'content-type': 'text/plain' }, body: JSON.stringify(body) });
    const answer = await r.json();
    refused(`foreign page: ${path} with the owner's cookie, as the browser sent it (read here)`, `${r.status} ${answer.code}`, r.status === 403 && answer.code === 'bad_origin');
  }
  await wd('POST', s('/window'), { handle: trustedWindow });
  check(await run(wrap(`return document.getElementById('lan-wallet-state').textContent.startsWith('There is no wallet');`)), 'the owner\'s page is unchanged after the attacks');

  // ---- 5c. a slow streamed answer, stopped by the owner mid-answer ----
  await wd('POST', s('/window'), { handle: chatWindow });
  await wd('POST', s('/url'), { url: chatUrl }); // a fresh page: the next question starts a new conversation
  await until('the chat page (fresh)', () => run(wrap(`return document.readyState === 'complete' && !!document.getElementById('composer-input')
    && document.getElementById('messages').children.length === 0 && document.getElementById('stop').hidden;`)));
  const auditLines = () => {
    const file = path.join(data, 'audit.jsonl');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  };
  const beforeStream = { restarts: restartsAtNode(), audit: auditLines().length, chats: chatRequests, slow: slowStreams.length };
  // The approved restart of step 5 is in both logs: they are read where they are written.
  check(beforeStream.restarts >= 1, `the devnode's log shows step 5's package.restart (${beforeStream.restarts})`);
  check(auditLines().some((l) => l.includes('"event":"requested"')), 'the audit log holds step 5\'s confirmation');
  await ask(SLOW_QUESTION);
  // Sampled in the page every 25 ms: the growing answer's text length, until three distinct non-zero lengths.
  const sampled = await run(wrap(`
    const lengths = []; const t0 = performance.now(); let samples = 0;
    while (performance.now() - t0 < 15000) {
      samples += 1;
      const el = document.querySelector('#messages .msg.assistant.streaming .streaming-text');
      const n = el ? el.textContent.length : 0;
      if (n > 0 && !lengths.includes(n)) lengths.push(n);
      if (lengths.length >= 3) {
        return { lengths, samples, ms: Math.round(performance.now() - t0), stopShown: !document.getElementById('stop').hidden,
          busy: document.getElementById('send').getAttribute('aria-disabled') === 'true' };
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    return { lengths, samples, timedOut: true };`));
  log('streaming lengths seen before Stop:', JSON.stringify(sampled));
  check(!sampled.timedOut && sampled.lengths.length >= 3, `the answer grew in the page through three distinct lengths (${JSON.stringify(sampled)})`);
  check(sampled.lengths.every((n, i) => i === 0 || n > sampled.lengths[i - 1]), `the lengths only grew (${sampled.lengths})`);
  check(sampled.stopShown && sampled.busy, 'Stop is shown while the answer is written');
  check(slowStreams.length === beforeStream.slow + 1, 'the question got the slow stream');
  const slow = slowStreams[slowStreams.length - 1];
  check(slow.stream === true, `the local leg asked for a stream ("stream": ${slow.stream})`);
  const stopAt = Date.now(); // the click is sent
  await click('#stop');
  const piecesAtStop = slow.sent.length;
  const ended = await until('the stopped answer in the page', () => run(wrap(`
    if (document.getElementById('send').getAttribute('aria-disabled') === 'true' || document.querySelector('#messages .streaming')) return null;
    const answers = [...document.querySelectorAll('#messages .msg.assistant')];
    const last = answers[answers.length - 1];
    if (!last) return null;
    const paragraphs = [...last.querySelectorAll('p')].map((p) => p.textContent);
    return { paragraphs, notices: [...document.querySelectorAll('#messages .msg.notice')].map((m) => m.textContent),
      stopHidden: document.getElementById('stop').hidden, answers: answers.length };`)), 10000, 50);
  log(`the page ${Date.now() - stopAt} ms after Stop:`, JSON.stringify({ ...ended, paragraphs: ended.paragraphs.map((p) => (p.length > 60 ? `…${p.slice(-60)}` : p)) }));
  check(ended.answers === 1 && ended.paragraphs[ended.paragraphs.length - 1] === '[Stopped by you here.]', `the answer in the page ends "[Stopped by you here.]" (${JSON.stringify(ended.paragraphs.slice(-2))})`);
  const shownPartial = ended.paragraphs.slice(0, -1).join('\n\n');
  check(shownPartial.length > 0 && SLOW_TEXT.startsWith(shownPartial) && shownPartial.length < SLOW_TEXT.trimEnd().length,
    `the page keeps the partial answer, a proper beginning of the whole (${shownPartial.length} of ${SLOW_TEXT.length} characters)`);
  check(shownPartial.length >= sampled.lengths[sampled.lengths.length - 1] - 1, 'nothing seen growing was lost');
  const STOP_NOTICE = 'You stopped the answer. What was written so far is kept; nothing else was done.';
  check(ended.notices.some((t) => t.includes(STOP_NOTICE)), `the stop notice is shown (${JSON.stringify(ended.notices)})`);
  check(ended.stopHidden, 'Stop is hidden once the turn ended');
  // The stored conversation, read back from the host.
  const stored = await run(wrap(`
    const session = await fetch('api/session').then((r) => r.json());
    const call = (command, body) => fetch('api/invoke/' + command, { method: 'POST', headers: { 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const list = await call('conversations_list', {});
    const mine = list.filter((c) => args[0].startsWith(c.title));
    if (mine.length !== 1) return { list };
    return { conversation: mine[0], detail: await call('conversation_load', { id: mine[0].id }) };`), SLOW_QUESTION);
  check(stored.detail, `one conversation for the question (${JSON.stringify(stored.list || '')})`);
  const items = stored.detail.items;
  const storedAnswer = items.filter((i) => i.kind === 'assistant');
  log('stored conversation:', JSON.stringify(items.map((i) => ({ kind: i.kind, end: i.text && i.text.slice(-70) }))));
  check(items[0].kind === 'user' && items[0].text === SLOW_QUESTION, 'the question is stored');
  check(storedAnswer.length === 1 && storedAnswer[0].text.endsWith('\n\n[Stopped by you here.]'), 'the stored answer ends with the stop marker');
  const storedPartial = storedAnswer[0].text.slice(0, -'\n\n[Stopped by you here.]'.length);
  check(storedPartial === shownPartial, `the stored partial text is the one the page shows (${storedPartial.length} / ${shownPartial.length} characters)`);
  check(storedPartial.length <= SLOW_PIECES.slice(0, piecesAtStop).join('').length, 'no more than was written before the stop');
  check(items.some((i) => i.kind === 'notice' && i.text === STOP_NOTICE), 'the stop notice is stored');
  // Past the stream's scripted end (4.1 s after its start): the tool call never became an action or a confirmation.
  const lndStates = [];
  const waitUntil = Math.max(stopAt + 5500, slow.startedAt + 4100 + 1500);
  while (Date.now() < waitUntil) {
    lndStates.push(await run(wrap(`const r = await fetch('api/session').then((r) => r.json());
      const apps = await fetch('api/invoke/node_packages', { method: 'POST', headers: { 'X-CSRF-Token': r.csrf, 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.json());
      return apps.find((p) => p.id === 'lnd').state;`)));
    await sleep(200);
  }
  const pendingAfter = await (async () => {
    await wd('POST', s('/window'), { handle: trustedWindow });
    const r = await run(wrap(`const r = await fetch('api/invoke/trusted_pending', { method: 'POST', headers: { 'X-CSRF-Token': args[0], 'Content-Type': 'application/json' }, body: '{}' });
      return { list: await r.json(), confirmHidden: document.getElementById('confirm').hidden };`), pending.csrf);
    await wd('POST', s('/window'), { handle: chatWindow });
    return r;
  })();
  const newAudit = auditLines().slice(beforeStream.audit);
  log('the scripted stream:', JSON.stringify({ pieces: slow.sent.filter((k) => k === 'piece').length, sent: [...new Set(slow.sent)], notSent: slow.notSent,
    hungUp: slow.hungUpAt === null ? 'never' : `${slow.hungUpAt - stopAt} ms after Stop`, piecesAtStop }));
  log(`after ${Date.now() - stopAt} ms: lnd ${[...new Set(lndStates)].join(' -> ')} (${lndStates.length} reads); devnode package.restart calls ${beforeStream.restarts} -> ${restartsAtNode()};`
    + ` new audit lines ${newAudit.length}; /api/chat requests since the question ${chatRequests - beforeStream.chats}; trusted origin pending ${pendingAfter.list.length}`);
  check(slow.hungUpAt !== null && slow.hungUpAt - stopAt < 3000, 'the host hung up on the stream once stopped');
  check(!slow.sent.includes('tool call'), `the scripted tool call was never delivered (${JSON.stringify(slow.notSent)})`);
  check(slow.notSent.includes('tool call'), 'the tool call\'s time came while the test waited');
  check(restartsAtNode() === beforeStream.restarts, 'no package.restart reached the devnode');
  check(lndStates.length >= 10 && lndStates.every((st) => st === 'running'), `lnd stayed running (${[...new Set(lndStates)]})`);
  check(newAudit.length === 0, `no confirmation was opened (${newAudit.join(' | ')})`);
  check(Array.isArray(pendingAfter.list) && pendingAfter.list.length === 0 && pendingAfter.confirmHidden, `no confirmation on the trusted origin (${JSON.stringify(pendingAfter)})`);
  check(chatRequests - beforeStream.chats === 1, `the model was asked once, and not again after the stop (${chatRequests - beforeStream.chats})`);
  await screenshot('lan-stopped.png');
  log('PASSED (streamed answer stopped mid-answer)');

  // ---- 6. the kiosk layout, by touch ----
  await wd('DELETE', s(''));
  sid = await newSession('kiosk', { width: 1024, height: 600 });
  const kioskUrl = `${chatUrl}?kiosk`;
  await wd('POST', s('/url'), { url: kioskUrl });
  await until('the sign-in page (kiosk)', () => run(wrap(`return location.pathname.endsWith('/aiui/login.html');`)));
  // The sign-in is typed as a phone's own keyboard would; the on-screen keyboard is the chat's.
  await typeKeys('#login-passphrase', LAN_PASSPHRASE);
  await touch('#login-submit');
  await until('the chat page (kiosk)', () => run(wrap(`return location.pathname === '/aiui/' && !!document.getElementById('composer-input');`)));
  await wd('POST', s('/url'), { url: kioskUrl });
  const offered = await until('suggested questions', () => run(wrap(`
    if (!document.body.classList.contains('kiosk')) return null;
    const buttons = [...document.querySelectorAll('#suggestions button')];
    return buttons.length ? buttons.map((b) => b.textContent) : null;`)));
  log('suggested questions:', JSON.stringify(offered));
  const apps = await run(wrap(`const r = await fetch('api/session').then((r) => r.json());
    return fetch('api/invoke/node_packages', { method: 'POST', headers: { 'X-CSRF-Token': r.csrf, 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.json());`));
  const state = Object.fromEntries(apps.map((p) => [p.title, p.state]));
  check(state.Electrs === 'stopped' && offered.includes('Why did Electrs stop?'), `the stopped app is asked about (${JSON.stringify(state)})`);
  check(state.LND === 'running' && offered.includes('Restart LND'), 'the running Lightning node is offered a restart');
  check(!offered.some((q) => /Fedimint|Tailscale|Nextcloud/.test(q)), 'apps that are not installed are not offered');
  check(await run(wrap(`return document.getElementById('keyboard').hidden && !document.getElementById('keyboard-toggle').hidden;`)),
    'the on-screen keyboard waits for a tap on the message box');
  await screenshot('lan-kiosk-suggestions.png');
  const runningIndex = offered.indexOf('What is running?');
  check(runningIndex >= 0, 'an overview is offered');
  await touch(`#suggestions button:nth-child(${runningIndex + 1})`);
  await until('the tapped question, asked and answered', () => run(wrap(`
    const mine = [...document.querySelectorAll('#messages .msg.user')].map((m) => m.textContent);
    return mine.some((t) => t.includes('What is running?')) && [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes('Five apps are running'));`)));
  await until('the turn to end (kiosk)', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') !== 'true';`)));
  await touch('#composer-input');
  await until('the on-screen keyboard', () => run(wrap(`return !document.getElementById('keyboard').hidden;`)));
  for (const key of [...'restart', 'space', ...'lnd']) await touch(`#keyboard button[data-key="${key}"]`);
  const typed = await run(wrap(`return { value: document.getElementById('composer-input').value, focused: document.activeElement.id };`));
  check(typed.value === 'restart lnd' && typed.focused === 'composer-input', `typed on the on-screen keyboard, the focus kept in the message box (${JSON.stringify(typed)})`);
  const sizes = await run(wrap(`
    const small = [];
    for (const el of document.querySelectorAll('#keyboard button, #suggestions button, #composer button:not([hidden]), .topbar button')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.width < 48 || r.height < 48)) small.push(el.textContent + ' ' + r.width + 'x' + r.height);
    }
    return small;`));
  check(sizes.length === 0, `every key and button is at least 48 px (${sizes.join(', ')})`);
  await screenshot('lan-kiosk-keyboard.png');
  await touch('#keyboard button[data-key="enter"]');
  await until('"waiting for approval" (kiosk)', () => run(wrap(`return !document.getElementById('pending').hidden;`)));
  check(await run(wrap(`return document.getElementById('keyboard').hidden && document.getElementById('composer-input').value === '';`)), 'Send sent the question and put the keyboard away');
  const kioskChat = await wd('GET', s('/window'));

  await wd('POST', s('/window/new'), { type: 'tab' }).then((w) => wd('POST', s('/window'), { handle: w.handle }));
  await wd('POST', s('/url'), { url: trustedUrl });
  await until('the trusted sign-in page (kiosk)', () => run(wrap(`return location.pathname.endsWith('/aiui/login.html');`)));
  await typeKeys('#login-passphrase', APPROVAL_PASSPHRASE);
  await touch('#login-submit');
  await until('the confirmation (kiosk)', () => run(wrap(`return !document.getElementById('confirm').hidden && document.body.classList.contains('hold');`)), 20000);
  await typeKeys('#approval-secret', APPROVAL_PASSPHRASE);
  await sleep(1200); // past the approve delay: a tap must fail for being a tap, not for being early
  await touch('#approve');
  const tapped = await until('the page to refuse a tap', () => run(wrap(`const t = document.getElementById('c-status').textContent; return t ? t : null;`)), 5000);
  await sleep(500);
  const afterTap = await run(wrap(`return { decided: document.getElementById('last-decision').textContent, shown: !document.getElementById('confirm').hidden };`));
  refused('tap Approve on a touchscreen (past the delay, passphrase typed)', tapped, /hold Approve/.test(tapped) && afterTap.shown && !afterTap.decided.startsWith('Approved'));
  await screenshot('lan-kiosk-trusted.png');
  await touch('#approve', 1900);
  const held = await until('the held approval', () => run(wrap(`const t = document.getElementById('last-decision').textContent; return t.startsWith('Approved') ? t : null;`)), 10000);
  log('held Approve:', held);
  await wd('POST', s('/window'), { handle: kioskChat });
  await restartSeen('the kiosk');
  await screenshot('lan-kiosk-after.png');
  // A phone: the same touch layout (suggestions, no built-in keyboard: the phone has its own), no target under 48 px.
  await wd('DELETE', s(''));
  sid = await newSession('phone', { width: 412, height: 915 });
  await wd('POST', s('/url'), { url: chatUrl });
  await until('the sign-in page (phone)', () => run(wrap(`return location.pathname.endsWith('/aiui/login.html');`)));
  await typeKeys('#login-passphrase', LAN_PASSPHRASE);
  await touch('#login-submit');
  const phone = await until('the phone layout', () => run(wrap(`
    if (!document.body.classList.contains('kiosk') || document.getElementById('suggestions').hidden) return null;
    const small = [];
    for (const el of document.querySelectorAll('button')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.width < 48 || r.height < 48)) small.push(el.textContent + ' ' + r.width + 'x' + r.height);
    }
    return { small, keyboard: !!document.getElementById('keyboard'), overflow: document.documentElement.scrollWidth > window.innerWidth };`)));
  check(phone.small.length === 0 && !phone.keyboard && !phone.overflow, `the phone layout: targets >= 48 px, no built-in keyboard, no sideways scroll (${JSON.stringify(phone)})`);
  await screenshot('lan-phone.png');

  // ---- 6b. a browser set to Spanish: the sign-in page, the chat and the trusted origin's sign-in speak Spanish ----
  // The service is started with no language of its own, so each page follows the browser's Accept-Language.
  await wd('DELETE', s(''));
  sid = await newSession('spanish', null, 'es');
  await wd('POST', s('/url'), { url: chatUrl });
  const loginEs = await until('the sign-in page in Spanish', () => run(wrap(`
    const label = document.getElementById('login-label');
    return document.documentElement.lang === 'es' && label.textContent.includes('LAN')
      ? { label: label.textContent, submit: document.getElementById('login-submit').textContent.trim(), title: document.title } : null;`)));
  log('the sign-in page in Spanish:', JSON.stringify(loginEs));
  check(loginEs.label === 'Frase de contraseña de la LAN' && loginEs.submit === 'Iniciar sesión', `the sign-in page speaks Spanish (${JSON.stringify(loginEs)})`);
  await typeKeys('#login-passphrase', LAN_PASSPHRASE);
  await click('#login-submit');
  const chatEs = await until('the chat page in Spanish', () => run(wrap(`
    const input = document.getElementById('composer-input');
    return location.pathname.endsWith('/aiui/') && input && document.documentElement.lang === 'es'
      ? { placeholder: input.placeholder, send: document.getElementById('send').textContent.trim() } : null;`)));
  log('the chat page in Spanish:', JSON.stringify(chatEs));
  check(chatEs.send === 'Enviar' && chatEs.placeholder.startsWith('Pregunte sobre su nodo'), `the chat page speaks Spanish (${JSON.stringify(chatEs)})`);
  // The meter's dollars are written the Spanish way from the host's figures, not as the host's English "$5.00".
  const meterEs = await until('the Spanish meter', () => run(wrap(`
    const part = document.getElementById('claude-meter');
    return part.hidden ? null : { summary: document.getElementById('claude-summary').textContent, renews: document.getElementById('claude-renews').textContent };`)));
  log('the meter in Spanish:', JSON.stringify(meterEs));
  check(meterEs.summary === '0,00\u00a0US$ de 5,00\u00a0US$ gastados' && meterEs.renews.startsWith('Quedan 5,00\u00a0US$'), `the meter's dollars are Spanish (${JSON.stringify(meterEs)})`);
  // The node's state names are the host's words too: lnd "running" reads "en ejecución".
  let lndEs = null;
  await until('the Spanish app list to say lnd is running', async () => {
    lndEs = await run(wrap(`const s = document.querySelector('#apps li[data-app="lnd"] .state'); return s ? s.textContent : null;`));
    return lndEs === 'en ejecución';
  }).catch(() => {});
  check(lndEs === 'en ejecución', `the app list's states are Spanish (${lndEs})`);
  await screenshot('lan-spanish-chat.png');
  await wd('POST', s('/url'), { url: trustedUrl });
  const trustedEs = await until('the trusted sign-in in Spanish', () => run(wrap(`
    const label = document.getElementById('login-label');
    return document.documentElement.lang === 'es' && label && label.textContent.includes('TOTP') ? label.textContent : null;`)));
  check(trustedEs === 'Frase de contraseña de aprobación (o código TOTP)', `the trusted origin's sign-in speaks Spanish (${trustedEs})`);
  // What the service refuses is said in the browser's language too (a call before signing in: no sign-in is spent).
  const refusedEs = await run(wrap(`
    const r = await fetch('api/invoke/trusted_pending', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    return { status: r.status, body: await r.json() };`));
  check(refusedEs.status === 401 && refusedEs.body.code === 'signed_out' && refusedEs.body.message === 'No ha iniciado sesión (o su sesión terminó). Vuelva a iniciar sesión.',
    `the trusted origin refuses in Spanish (${JSON.stringify(refusedEs)})`);
  log('PASSED (a Spanish browser: sign-in, chat with its meter and app states, trusted sign-in and its refusals in Spanish)');

  // ---- 7. the login rate limit ----
  const limited = await run(wrap(`
    const login = (passphrase) => fetch('api/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ passphrase }) })
      .then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), body: await r.json() }));
    const tries = [];
    for (let i = 0; i < 5; i++) tries.push(await login('guess-number-' + i));
    tries.push(await login(args[0]));
    return tries;`), LAN_PASSPHRASE);
  log('login tries:', limited.map((t) => `${t.status} ${t.body.code}`).join(', '));
  check(limited.slice(0, 5).every((t) => t.status === 401 && t.body.code === 'wrong_passphrase'), 'five wrong guesses are refused as wrong');
  const sixth = limited[5];
  refused('a sixth sign-in within the minute, even with the right passphrase', `${sixth.status} ${sixth.body.code} (Retry-After ${sixth.retry}): ${sixth.body.message}`, sixth.status === 429 && sixth.body.code === 'rate_limited' && Number(sixth.retry) > 0);

  check(!serve.child.output.includes(LAN_PASSPHRASE) && !serve.child.output.includes(APPROVAL_PASSPHRASE) && !serve.child.output.includes(NODE_PASSWORD), 'no passphrase in the service log');
  console.log('\nEvery attempt and its observed refusal:');
  for (const [attempt, observed] of refusals) console.log(`  - ${attempt}\n      refused: ${observed}`);
} catch (error) {
  failure = error;
  await screenshot('lan-failure.png').catch(() => {});
  const page = await run(wrap(`return document.getElementById('messages') ? document.getElementById('messages').innerText.slice(-1500) : document.body.innerText.slice(0, 1500);`)).catch(() => null);
  if (page) console.error(`--- the page when it failed ---\n${typeof page === 'string' ? page : JSON.stringify(page)}`);
} finally {
  await wd('DELETE', s('')).catch(() => {});
  cleanup();
  ollama.close();
  foreign.close();
}
if (failure) {
  console.error(failure.stack || failure);
  const svc = children.find((c) => c.spawnargs.includes('--trusted-listen'));
  if (svc) console.error(`--- aiui-cli serve output (last 3000 chars) ---\n${svc.output.slice(-3000)}`);
  process.exit(1);
}
fs.rmSync(work, { recursive: true, force: true });
log('LAN web test passed');
process.exit(0);
