// The real-window test, driven over WebDriver (tauri-driver -> WebKitWebDriver) with nothing but Node's fetch.
//
// 1. A scripted local model (an HTTP server speaking Ollama's /api/tags, /api/show and /api/chat, replaying
//    fixtures/ollama) answers "what is running?" with a package list, then proposes `package_restart {id: lnd}`.
// 2. Before any confirmation the trusted window is already made, hidden (so a confirmation paints at once), and the
//    chat window cannot make another window under its label. While that confirmation is pending, JavaScript in the chat window tries every way across: trusted commands
//    (even with the real id and hash), emit/emit_to the trusted window, window.open, BroadcastChannel and
//    localStorage, core window commands, and navigating itself to the trusted page. None may resolve the
//    confirmation, change a setting (the allowance, the Routstr options), open the wallet, or restart lnd.
// 3. The owner approves in the trusted window (a real click, once Approve unlocks), and the devnode's lnd goes
//    restarting -> running, seen from the chat window. Meanwhile tests/gui/atspi.py reads the trusted window's
//    AT-SPI tree: an alert dialog named by the summary, Deny focused, Approve unavailable and then available, and
//    after the answer a live region says the result and the focus is inside the window.
// 3b. (After the keyboard-only Deny of step 4, which is run first.) Slow streamed answers: in a new conversation, a
//    question the scripted model answers as a slow NDJSON stream (40 pieces 100 ms apart, then a tool call proposing
//    `package_restart {id: lnd}`, then done). The growing answer is sampled until it has had three distinct lengths,
//    then stopped: once with the Stop button (a WebDriver click), once with Escape (a key action) in a second new
//    conversation. Each time the window shows the partial answer ending "[Stopped by you here.]" and the stop notice;
//    after 5.5 s more (past the stream's end) lnd stayed running, the audit log has no new confirmation, the trusted
//    window has none pending, and the model was not asked again. Both conversations, reopened from the list, show the
//    same partial text, marked.
// 4. The owner sets an allowance in the trusted window's form; the chat window's read-only meter shows it.
// 4b. The wallet, against a real mint (nutshell with FakeWallet, started by tests/gui/run, whose outgoing payments
//    stay pending): funded by its invoice, a token sent out (shown once, with its QR code), a withdrawal to Lightning
//    approved from the host's quote (the chat window cannot approve it even with the real id) that stays in flight,
//    Check, Take back, and the backup words shown after two steps, then masked for the screenshot. The fresh machine
//    of step 5 restores that wallet from the words.
// 5. A fresh machine in kiosk mode: a second app, no Ollama (a dead port), no key, no allowance, driven by the
//    keyboard alone (WebDriver key actions, no clicks). "restart lnd" is answered by the built-in model
//    (SmolLM2-135M), which opens the trusted window with the host-written summary; Tab and Enter approve, and lnd
//    restarts on the devnode. (The keyboard-only Deny ends step 4: Enter on the focused Deny, and the chat says
//    nothing was changed.) Ctrl+= zooms the page; a long press keeps paste in a text field. The kiosk's one-tap
//    questions follow the devnode's state, its on-screen keyboard types into the message box, a tapped choice is
//    asked; in the trusted window a click (a tap) on Approve approves nothing.
// 6. What answers cost, on a third machine: no Ollama (a dead port), a scripted Claude (an HTTP server playing
//    Anthropic's /v1/messages, streamed as SSE with cache tokens in its usage). The owner sets the key, a Claude
//    allowance (an amount the host refuses first, then $5.00 monthly) and a price correction in the trusted window;
//    the Routstr allowance's spend is seeded in budget.json (no provider is paid here). Claude answers a question:
//    its cost shows under the answer, with its token counts on demand, the conversation's total above the log, and
//    the meter shows Claude's dollars and Routstr's sats each in its own unit with the 80% notice, and the free
//    answers. The screenshot is cost-meter.png; the conversation reopened shows the same cost.
// 7. The owner's language, on a fourth machine (the built-in model, no Ollama): Deutsch picked in the trusted
//    settings turns both windows German; "Starte LND neu" gets the German answer, the trusted window the host's
//    German summary with Deny focused first, and the approval restarts lnd. Then the pseudo-locale (en-XA): no
//    visible text, label, placeholder or title outside `translate="no"` may be plain English in the trusted
//    settings, the chat, a pending confirmation or after a Deny. Screenshots german-*.png and pseudo-*.png.
// axe-core (tests/gui/package.json) checks both windows against WCAG 2.2 A/AA in every state visited, and fails on
// any violation. Screenshots of both windows go to target/gui-screenshots/. Every failure throws; the exit code
// says so.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const driver = process.env.WEBDRIVER_URL || 'http://127.0.0.1:4444';
const binary = process.env.AIUI_BINARY || path.join(root, 'target/debug/aiui');
const shots = process.env.AIUI_SCREENSHOTS || path.join(root, 'target/gui-screenshots');
const dataDir = process.env.AIUI_GUI_DATA || fs.mkdtempSync('/tmp/aiui-gui-');
const started = Date.now();
// The test mint and the nutshell venv (for tests/gui/invoice.py), both from tests/gui/run.
const mintUpstream = process.env.AIUI_GUI_MINT;
const nutshell = process.env.AIUI_NUTSHELL;
if (!mintUpstream || !nutshell) throw new Error('FAILED: AIUI_GUI_MINT and AIUI_NUTSHELL are not set: run this test with bash tests/gui/run');
const invoiceFor = (sats) => execFileSync(path.join(nutshell, 'bin/python'), [path.join(here, 'invoice.py'), String(sats)]).toString().trim();

const log = (...args) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s]`, ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function check(condition, message) {
  if (!condition) throw new Error(`FAILED: ${message}`);
}
const fixture = (name) => fs.readFileSync(path.join(root, 'fixtures/ollama', name), 'utf8');
const axeSource = fs.readFileSync(path.join(here, 'node_modules/axe-core/axe.min.js'), 'utf8');
const TRUSTED_TITLE = 'AIUI · Trusted confirmation and settings';

// ---- the scripted local model ----
// The fifth is asked by the keyboard-only Deny at the end.
const chatReplies = ['chat_call_package_list.json', 'chat_answer_packages.json', 'chat_call_restart_lnd.json', 'chat_answer_restarted.json', 'chat_call_restart_lnd.json'];
const received = [];
// Step 3b's questions (each ends "step by step.") get a slow stream instead, the queue above left as it is: 40 pieces
// 100 ms apart, then a tool call proposing `package_restart {id: lnd}`, then done. Each such request is recorded: what
// it asked for (`stream`), which lines were written, and when the host hung up.
const SLOW_PIECES = Array.from({ length: 40 }, (_, i) => `Part ${String(i + 1).padStart(2, '0')} of the slow answer. `);
const SLOW_TEXT = SLOW_PIECES.join('');
const slowStreams = [];
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
      const asked = JSON.parse(body);
      received.push(asked);
      if (lastUserText(asked).endsWith('step by step.')) return slowStream(res, asked);
      const next = chatReplies.shift();
      return next ? reply(200, fixture(next)) : reply(500, '{"error":"the test script has no more replies"}');
    }
    reply(404, '{"error":"not found"}');
  });
});
await new Promise((resolve) => ollama.listen(0, '127.0.0.1', resolve));
const ollamaUrl = `http://127.0.0.1:${ollama.address().port}/`;
log('scripted Ollama at', ollamaUrl);

// ---- a scripted Claude (step 6): Anthropic's /v1/messages, a text answer streamed as SSE, or whole as JSON ----
const CLAUDE_TEXT = 'Five apps are running; electrs was killed for memory (exit 137).';
// 1804 input, 2048 cache-write, 10000 cache-read and 22 output tokens at claude-sonnet-4-5's shipped prices ($3,
// $3.75, $0.30, $15 per million) cost 16 422 micro-dollars, which the host shows as $0.0165.
const CLAUDE_USAGE = { input_tokens: 1804, cache_creation_input_tokens: 2048, cache_read_input_tokens: 10000 };
const CLAUDE_COST = '$0.0165';
const claudeAsked = [];
const anthropic = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{"type":"error","error":{"type":"not_found_error","message":"not found"}}');
    }
    const asked = JSON.parse(body);
    claudeAsked.push({ key: req.headers['x-api-key'], model: asked.model, stream: asked.stream === true });
    const message = { id: 'msg_gui_cost', type: 'message', role: 'assistant', model: `${asked.model}-20250929`, stop_sequence: null };
    if (asked.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ ...message, content: [{ type: 'text', text: CLAUDE_TEXT }], stop_reason: 'end_turn', usage: { ...CLAUDE_USAGE, output_tokens: 22 } }));
    }
    const pieces = CLAUDE_TEXT.match(/.{1,16}/g);
    const events = [
      ['message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...CLAUDE_USAGE, output_tokens: 1 } } }],
      ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
      ...pieces.map((text) => ['content_block_delta', { index: 0, delta: { type: 'text_delta', text } }]),
      ['content_block_stop', { index: 0 }],
      ['message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 22 } }],
      ['message_stop', {}],
    ];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join(''));
  });
});
await new Promise((resolve) => anthropic.listen(0, '127.0.0.1', resolve));
const anthropicUrl = `http://127.0.0.1:${anthropic.address().port}/`;
log('scripted Claude at', anthropicUrl);

// ---- the test mint, through a loopback relay ----
// nutshell 0.20.2 answers an async melt (cdk sends NUT-05's prefer_async) "pending" before its background task has
// marked the quote pending in its database, so a status check in the next few milliseconds reads "unpaid"; cdk 0.18.3
// checks at once and takes that for a failed payment (it puts the proofs back while the mint goes on paying: reported
// with the issue). AIUI does not take cdk's word for it: a melt cdk calls failed is decided by the mint's NUT-07 answer on
// its proofs (pay/withdraw.rs), so nothing is counted twice, but the window would first say "no clear answer". Here a
// melt quote's status is answered 300 ms late, as over a slow link, so the screenshot shows the plain pending case;
// everything else passes through unchanged. The app knows the mint by the relay's address.
const mintRelay = http.createServer((req, res) => {
  const target = new URL(req.url, mintUpstream);
  const forward = () => {
    const upstream = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (e) => { res.writeHead(502, { 'content-type': 'text/plain' }); res.end(String(e)); });
    req.pipe(upstream);
  };
  if (req.method === 'GET' && req.url.startsWith('/v1/melt/quote/bolt11/')) setTimeout(forward, 300);
  else forward();
});
await new Promise((resolve) => mintRelay.listen(0, '127.0.0.1', resolve));
const mintUrl = `http://127.0.0.1:${mintRelay.address().port}`;
log('test mint (nutshell) at', mintUpstream, 'seen by the app at', mintUrl);

// ---- a minimal W3C WebDriver client ----
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

const session = await wd('POST', '/session', {
  capabilities: { alwaysMatch: { 'tauri:options': { application: binary, args: ['--demo', '--data-dir', dataDir, '--ollama', ollamaUrl] } } },
});
let sid = session.sessionId;
const s = (route) => `/session/${sid}${route}`;
log('session', sid);

async function run(script, ...args) {
  return wd('POST', s('/execute/async'), { script, args });
}
// An async script body: `args` holds the arguments, `done` ends it.
const wrap = (body) => `const done = arguments[arguments.length - 1]; const args = Array.from(arguments).slice(0, -1);
  (async () => { ${body} })().then(done, (e) => done({ scriptError: String(e && (e.message || e)) }));`;

// A window still being made may not run a script yet: it is left out, and the caller asks again.
async function windowsByLabel() {
  const labels = {};
  for (const handle of await wd('GET', s('/window/handles'))) {
    try {
      await wd('POST', s('/window'), { handle });
      const label = await run(wrap('return window.__TAURI_INTERNALS__.metadata.currentWindow.label;'));
      if (typeof label === 'string') labels[label] = handle;
    } catch (e) {
      log(`a window not ready yet (${String(e).slice(0, 80)})`);
    }
  }
  return labels;
}

// Switches to the window labelled `label`, waiting for it to exist (the web views start one after the other).
function focuser() {
  let win = {};
  return async (label) => {
    if (!win[label]) {
      win = await until(`the ${label} window`, async () => {
        const labels = await windowsByLabel();
        return labels[label] ? labels : null;
      });
    }
    await wd('POST', s('/window'), { handle: win[label] });
  };
}

async function until(what, probe, timeoutMs = 20000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`FAILED: timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

// Waits for the devnode's lnd to go restarting -> running, as the current window reads the package list; returns
// the states seen on the way.
async function lndRestartSeen() {
  const seen = [];
  await until('lnd to go restarting -> running', async () => {
    const state = await run(wrap(`const apps = await window.__TAURI__.core.invoke('node_packages'); return apps.find((p) => p.id === 'lnd').state;`));
    if (seen[seen.length - 1] !== state) seen.push(state);
    return seen.includes('restarting') && state === 'running';
  }, 15000, 50);
  return seen;
}

async function screenshot(name) {
  fs.mkdirSync(shots, { recursive: true });
  // Two frames and a breath, so a window just raised (the kiosk's full-screen trusted window) is painted.
  await run(wrap('await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); await new Promise((r) => setTimeout(r, 250)); return true;'));
  const png = await wd('GET', s('/screenshot'));
  const file = path.join(shots, name);
  fs.writeFileSync(file, Buffer.from(png, 'base64'));
  log('screenshot', file);
}

// axe-core in the current window: every WCAG 2.0/2.1/2.2 A and AA rule; any violation fails the test.
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
async function axe(state) {
  await wd('POST', s('/execute/sync'), { script: `if (!window.axe) { ${axeSource} } return true;`, args: [] });
  const r = await run(wrap(`
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: args[0] }, resultTypes: ['violations'] });
    return {
      rules: result.passes.length + result.violations.length + result.incomplete.length + result.inapplicable.length,
      passes: result.passes.length, inapplicable: result.inapplicable.length, incomplete: result.incomplete.map((i) => i.id),
      violations: result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + n.failureSummary) })),
    };`), WCAG_TAGS);
  check(r && !r.scriptError, `axe-core ran in ${state} (${JSON.stringify(r)})`);
  log(`axe ${state}: ${r.rules} WCAG 2.2 A/AA rules checked (${r.passes} passed, ${r.inapplicable} not applicable,`
    + ` needs review: ${r.incomplete.join(', ') || 'none'}), ${r.violations.length} violations`);
  for (const v of r.violations) log(`  VIOLATION ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.join('\n    ')}`);
  check(r.violations.length === 0, `no WCAG 2.2 A/AA violation in ${state}`);
  axeStates.push(state);
  await nonTextContrast(state);
}

// WCAG 1.4.11, which axe-core does not check: every visible, enabled control's boundary (its border, or its own
// fill) has 3:1 contrast against what is behind it (the ancestors' backgrounds composited over the page colour).
async function nonTextContrast(state) {
  const low = await run(wrap(`
    const rgba = (text) => { const m = text.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
    const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
    const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const page = rgba(getComputedStyle(document.documentElement).getPropertyValue('--bg').trim().replace(/^#(..)(..)(..)$/, (_, r, g, b) => 'rgb(' + [r, g, b].map((h) => parseInt(h, 16)).join(',') + ')'));
    const behind = (el) => { const chain = []; for (let e = el.parentElement; e; e = e.parentElement) chain.push(rgba(getComputedStyle(e).backgroundColor)); return chain.reverse().reduce((acc, c) => over(c, acc), page); };
    const out = [];
    for (const el of document.querySelectorAll('button, input, select, textarea')) {
      const style = getComputedStyle(el);
      if (el.disabled || el.type === 'checkbox' || el.type === 'hidden' || !el.getClientRects().length || style.visibility === 'hidden') continue;
      const back = behind(el);
      const border = parseFloat(style.borderTopWidth) > 0 ? ratio(over(rgba(style.borderTopColor), back), back) : 0;
      const fill = ratio(over(rgba(style.backgroundColor), back), back);
      const best = Math.max(border, fill);
      if (best < 3) out.push(\`\${el.id || el.className || el.tagName} \${best.toFixed(2)}:1\`);
    }
    return out;`));
  check(Array.isArray(low), `the control contrast check ran in ${state} (${JSON.stringify(low)})`);
  check(low.length === 0, `every control's boundary has 3:1 contrast in ${state} (below: ${low.join(', ')})`);
}
const axeStates = [];

// tests/gui/atspi.py, started before a confirmation opens: `ready` once it listens, `done` with what it read from
// the AT-SPI tree.
function watchAtspi(summaryPart) {
  const child = spawn('/usr/bin/python3', [path.join(here, 'atspi.py'), TRUSTED_TITLE, summaryPart], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += d; });
  const done = new Promise((resolve) => child.on('close', (code) => {
    let parsed = null;
    try { parsed = JSON.parse(out.trim().split('\n').pop() || err.trim().split('\n').pop()); } catch { parsed = null; }
    resolve({ code, parsed, out, err });
  }));
  const ready = new Promise((resolve) => {
    child.stderr.on('data', (d) => { err += d; if (err.includes('listening')) resolve(true); });
    done.then(() => resolve(false));
  });
  return { ready, done };
}

function checkAtspi(seen, summary, answer) {
  check(seen.code === 0 && seen.parsed && !seen.parsed.error, `the AT-SPI reader finished (${seen.code}: ${seen.out} ${seen.err.slice(-600)})`);
  const a = seen.parsed;
  log('AT-SPI:', JSON.stringify(a));
  const plainSummary = summary.replace(/`/g, '');
  check(a.frame === TRUSTED_TITLE, `the dialog is in the trusted window (${a.frame})`);
  check(a.dialog.role === 'alert' || a.dialog.role === 'dialog', `the confirmation is an alert dialog (${a.dialog.role})`);
  check(a.dialog.name.includes(plainSummary), `the dialog's name holds the summary (${a.dialog.name} / ${plainSummary})`);
  check(a.dialog.description.length > 0, `the dialog is described by the risk (${a.dialog.description})`);
  check(a.deny_focused.states.includes('focused'), 'Deny has the focus');
  // Unavailable first: seen so when Deny took the focus, or (a slow event queue) as an unavailable -> available change.
  check((!a.approve_first.states.includes('enabled') || a.approve_enabled_events > 0) && a.approve_first.states.includes('focusable'),
    `Approve starts unavailable but focusable (${a.approve_first.states}; ${a.approve_enabled_events} change events to available)`);
  check(a.approve_available.states.includes('enabled'), 'Approve becomes available');
  check(a.announcer_before === 'Approve available', `"Approve available" is announced (${a.announcer_before})`);
  check(a.announcer_after.startsWith(answer === 'approve' ? 'Approved: ' : 'Denied: ') && a.announcer_after.includes(plainSummary),
    `the result is announced (${a.announcer_after})`);
  check(a.focused_after.id === 'nothing-title' && a.focused_after.role === 'heading',
    `after the answer the focus is on the Confirmations heading, inside the window (${JSON.stringify(a.focused_after)})`);
}

// Keys only, as a keyboard user presses them (W3C WebDriver key actions).
const KEY = { tab: '\uE004', enter: '\uE007', control: '\uE009', escape: '\uE00C' };
async function press(...keys) {
  const actions = [];
  for (const key of keys) {
    for (const value of key.length === 1 ? [key] : [...key]) actions.push({ type: 'keyDown', value }, { type: 'keyUp', value });
  }
  await wd('POST', s('/actions'), { actions: [{ type: 'key', id: 'keyboard', actions }] });
  await wd('DELETE', s('/actions')).catch(() => {});
}

async function chord(modifier, key) {
  await wd('POST', s('/actions'), { actions: [{ type: 'key', id: 'keyboard', actions: [
    { type: 'keyDown', value: modifier }, { type: 'keyDown', value: key }, { type: 'keyUp', value: key }, { type: 'keyUp', value: modifier }] }] });
  await wd('DELETE', s('/actions')).catch(() => {});
}

const invokeIn = (command, args = {}) => run(wrap(`
  try { return { ok: await window.__TAURI__.core.invoke(args[0], args[1]) }; }
  catch (e) { return { err: e }; }`), command, args);

// ---- 4b. the wallet against the test mint: fund, send a token, a withdrawal that stays pending, backup ----
// Returns the backup words (of this throwaway wallet, never logged), for the fresh machine to restore.
async function walletFlow(focus) {
  const text = (id) => run(wrap(`return document.getElementById(args[0]).textContent;`), id);
  const el = async (css) => Object.values(await wd('POST', s('/element'), { using: 'css selector', value: css }))[0];
  const click = async (css) => wd('POST', s(`/element/${await el(css)}/click`), {});
  // The answer to the last action: the status line once it is no longer the "…ing…" it showed while waiting.
  const answer = (what) => until(what, async () => {
    const said = await text('wallet-status');
    return said && !said.endsWith('…') ? said : null;
  }, 30000);
  await focus('trusted');
  await until('the trusted window visible', () => run(wrap(`return document.visibilityState === 'visible';`)), 5000);

  // Funding: the mint's invoice, which FakeWallet pays at once; Check payment mints the ecash.
  await run(wrap(`document.getElementById('invoice-amount').value = '3000'; document.getElementById('invoice-mint').value = args[0];
    document.getElementById('invoice-form').requestSubmit(); return true;`), mintUrl);
  await until('the funding invoice', () => run(wrap(`return !document.getElementById('invoice').hidden;`)), 30000);
  let funded = null;
  for (let i = 0; i < 10 && !funded; i += 1) {
    await click('#invoice-check');
    const said = await answer('the payment check');
    if (said.startsWith('Paid: ')) funded = said;
    else check(said.startsWith('Not paid yet'), `the funding check (${said})`);
  }
  check(funded && funded.includes('3,000 sats'), `the wallet was funded (${funded})`);
  log('funded:', funded);
  const mark = await run(wrap(`const p = document.querySelector('#wallet-balances .pill.warn'); return p && p.textContent;`));
  check(mark && mark.startsWith('not accepted'), `a mint the allowance does not accept is marked, still withdrawable (${mark})`);
  check(!(await run(wrap(`return document.getElementById('wallet-out').hidden;`))), 'withdraw and send are offered once there are sats');
  check(await run(wrap(`return document.getElementById('restore-part').hidden;`)), 'restore is not offered for a wallet that holds sats');

  // A token for another wallet: the host's summary, approved by id; shown once with its QR code.
  await run(wrap(`document.getElementById('send-amount').value = '200'; document.getElementById('send-form').requestSubmit(); return true;`));
  await until('the token approval', () => run(wrap(`return !document.getElementById('wallet-approval').hidden;`)), 10000);
  const tokenAsk = await run(wrap(`return { summary: document.getElementById('approval-summary').textContent,
    action: document.getElementById('approval-approve').textContent, focused: document.activeElement.id };`));
  check(tokenAsk.summary.startsWith('Make a Cashu token worth 200 sats from http://127.0.0.1:'), `the host writes the token's summary (${tokenAsk.summary})`);
  check(tokenAsk.action === 'Make a token of 200 sats' && tokenAsk.focused === 'approval-cancel', `the approval's button and focus (${JSON.stringify(tokenAsk)})`);
  await axe('the trusted window with a token to approve');
  await click('#approval-approve');
  await until('the token', () => run(wrap(`return !document.getElementById('sent-token').hidden;`)), 30000);
  const token = await run(wrap(`return { text: document.getElementById('token-text').value,
    qr: (document.querySelector('#token-qr path') || { getAttribute: () => '' }).getAttribute('d').length };`));
  check(token.text.startsWith('cashuB') && token.qr > 100, `the token is shown with its QR code (${token.text.slice(0, 8)}…, ${token.qr} chars of path)`);
  await click('#token-done');
  check(await run(wrap(`return document.getElementById('token-text').value === '' && !document.querySelector('#token-qr path');`)), 'Done takes the token out of the page');

  // A withdrawal: the host asks the mint and writes what it costs; the owner approves that id.
  await run(wrap(`document.getElementById('withdraw-invoice').value = args[0]; document.getElementById('withdraw-form').requestSubmit(); return true;`), invoiceFor(500));
  await until('the withdrawal approval', () => run(wrap(`return !document.getElementById('wallet-approval').hidden;`)), 30000);
  const ask = await run(wrap(`return { summary: document.getElementById('approval-summary').textContent,
    details: [...document.querySelectorAll('#approval-details li')].map((li) => li.textContent), action: document.getElementById('approval-approve').textContent };`));
  log('withdrawal approval:', JSON.stringify(ask));
  check(ask.summary.startsWith('Pay 500 sats to this Lightning invoice from http://127.0.0.1:') && ask.action === 'Withdraw 500 sats', `the host writes the withdrawal's summary (${ask.summary})`);
  check(ask.details.some((d) => d.startsWith('Lightning fee reserve: up to ')) && ask.details.some((d) => d.startsWith('The most it takes from the wallet: ')), 'the fee reserve and the most it costs are shown');
  // The chat window cannot approve a withdrawal, even with a real id the host made.
  const stolen = await invokeIn('trusted_wallet_quote_withdrawal', { invoice: invoiceFor(100), mint: null, everything: false });
  check(stolen.ok && stolen.ok.id, `a second quote for the test (${JSON.stringify(stolen.err || '')})`);
  await focus('main');
  const fromChat = await invokeIn('trusted_wallet_withdraw', { id: stolen.ok.id });
  check('err' in fromChat, `the chat window cannot approve a withdrawal with the real id (${JSON.stringify(fromChat)})`);
  await focus('trusted');
  await click('#approval-approve');
  const paying = await answer('the withdrawal');
  log('withdrawal:', paying);
  check(paying.startsWith('The mint is still paying the invoice of 500 sats.'), `the withdrawal stays in flight (${paying})`);
  const rows = () => run(wrap(`return [...document.querySelectorAll('#wallet-outflows li')].map((li) => ({ text: li.textContent, open: li.classList.contains('open'), takeBack: !!li.querySelector('button') }));`));
  const listed = await rows();
  check(listed.some((r) => r.open && r.text.startsWith('Withdrawal of ') && r.text.includes('being paid by the mint')), `the pending withdrawal is listed (${JSON.stringify(listed)})`);
  check(listed.some((r) => r.open && r.takeBack && r.text.startsWith('Token of ') && r.text.includes('not claimed yet')), 'the unclaimed token is listed with Take back');
  check(listed.length === 2, `only the approved withdrawal left the wallet: the chat window's try did not (${listed.length} rows)`);
  check((await text('wallet-in-flight')).startsWith('In flight: '), 'what is in flight is shown');
  // Check asks the mint: the payment is still pending, so it stays.
  let checked = null;
  for (let i = 0; i < 5 && !(checked && checked.startsWith('Checked')); i += 1) {
    // The app's own background check may hold the wallet for a moment ("Another check … is running").
    if (checked) await sleep(1000);
    await click('#wallet-check');
    checked = await answer('the check');
  }
  check(checked.startsWith('Checked') && checked.includes('2 still in flight'), `Check leaves the pending withdrawal and the token in flight (${checked})`);
  await run(wrap(`document.getElementById('wallet-section').scrollIntoView(); return true;`));
  await screenshot('wallet-pending-withdrawal.png');
  await axe('the trusted window wallet with a pending withdrawal');

  // Take back the token nobody claimed.
  await click('#wallet-outflows li.open button');
  const back = await answer('the take back');
  check(back.startsWith('Taken back: '), `the token is taken back (${back})`);

  // The backup: asked, confirmed, shown; masked before the screenshot; confirmed written down; gone from the page.
  await run(wrap(`document.getElementById('backup-part').scrollIntoView(); return true;`));
  await click('#backup-ask');
  check(await run(wrap(`return !document.getElementById('backup-confirm').hidden && document.getElementById('backup-words').children.length === 0 && document.activeElement.id === 'backup-cancel';`)),
    'asking shows a warning first, Cancel focused, and no word');
  await axe('the trusted window asking before the backup words');
  await click('#backup-show');
  await until('the backup words', () => run(wrap(`return document.getElementById('backup-words').children.length > 0;`)), 10000);
  const shown = await run(wrap(`
    const words = [...document.querySelectorAll('#backup-words li')].map((li) => li.textContent);
    for (const li of document.querySelectorAll('#backup-words li')) li.textContent = '••••';
    const qr = document.querySelector('#backup-qr path');
    const qrLength = qr ? qr.getAttribute('d').length : 0;
    if (qr) qr.setAttribute('d', '');
    document.getElementById('backup-qr-caption').textContent = 'The words and the mints (masked in this screenshot)';
    const left = document.getElementById('backup-words').textContent;
    return { words, qrLength, leaked: words.filter((w) => left.includes(w)).length,
      mints: [...document.querySelectorAll('#backup-mints li')].map((li) => li.textContent),
      mintsQr: (document.querySelector('#backup-mints-qr path') || { getAttribute: () => '' }).getAttribute('d').length };`));
  check([12, 24].includes(shown.words.length) && shown.words.every((w) => /^[a-z]+$/.test(w)), `the backup words were shown (${shown.words.length})`);
  check(shown.leaked === 0 && shown.qrLength > 100, 'the words and their QR code are masked before the screenshot');
  check(shown.mints.length === 1 && shown.mints[0].startsWith('http://127.0.0.1:') && shown.mintsQr > 100, `the mint list, as text and QR code (${JSON.stringify(shown.mints)})`);
  await run(wrap(`document.getElementById('backup-view').scrollIntoView(); return true;`));
  await screenshot('wallet-backup.png');
  await axe('the trusted window with the backup words (masked)');
  await click('#backup-written');
  const confirmed = await answer('the backup confirmation');
  check(confirmed.startsWith('Backup confirmed.'), `"I wrote them down" is kept (${confirmed})`);
  check(await run(wrap(`return document.getElementById('backup-words').children.length === 0 && !document.querySelector('#backup-qr path') && document.getElementById('backup-view').hidden;`)),
    'the words leave the page once written down');
  check((await invokeIn('trusted_wallet')).ok.backup_confirmed === true, 'the host keeps the confirmation');
  log('PASSED (wallet: funded, token sent and taken back, withdrawal pending, backup)');
  return shown.words;
}

let failure = null;
let backupWords = null;
try {
  const focus = focuser();
  await focus('main');
  await until('the chat page', () => run(wrap(`return document.readyState === 'complete' && !!document.getElementById('composer-input');`)));
  // The trusted window is made at start, hidden, so the first confirmation paints at once. The chat window must
  // not be able to make another under its label, nor to show it.
  const before = await windowsByLabel();
  check(!!before.trusted, 'the trusted window is made at start');
  await wd('POST', s('/window'), { handle: before.trusted });
  const waiting = await run(wrap(`return [location.pathname, document.visibilityState];`));
  log('the trusted window at start:', waiting);
  check(waiting[0].endsWith('/trusted.html') && waiting[1] !== 'visible', 'the trusted window waits hidden on its page');
  await focus('main');
  const squat = await run(wrap(`try { await window.__TAURI_INTERNALS__.invoke('plugin:webview|create_webview_window', { options: { label: 'trusted', url: 'index.html' } }); return 'made'; }
    catch (e) { return 'refused: ' + String(e); }`));
  log('the chat window making a window labelled trusted:', squat);
  check(squat.startsWith('refused'), 'the chat window cannot make a window under the trusted label');
  const showTried = await run(wrap(`try { await window.__TAURI_INTERNALS__.invoke('plugin:window|show', { label: 'trusted' }); return 'shown'; }
    catch (e) { return 'refused: ' + String(e); }`));
  log('the chat window showing the trusted window:', showTried);
  check(showTried.startsWith('refused'), 'the chat window cannot show the trusted window');
  check((await windowsByLabel()).trusted === before.trusted, 'the trusted window is still the one the app made, after the attempts');

  // ---- a read turn: surfaces and the backend badge ----
  await focus('main');
  async function ask(text) {
    await run(wrap(`const input = document.getElementById('composer-input'); input.value = args[0];
      document.getElementById('composer').requestSubmit(); return true;`), text);
  }
  await ask('What is running on my node?');
  await until('the package answer', () => run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes('Five apps are running'));`)));
  const badge = await run(wrap(`const b = document.querySelector('#messages .badge'); return b && b.textContent;`));
  check(badge === 'local qwen2.5:7b', `the answer's badge names the local model (got ${badge})`);
  check(await run(wrap(`return document.querySelectorAll('#messages .card').length >= 1;`)), 'the package list is drawn as a card');
  await until('the turn to end', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') === 'false';`)));
  await axe('the chat window with a card');

  // ---- a confirmation opens ----
  const atspiWatch = watchAtspi('Restart app lnd');
  check(await atspiWatch.ready, 'the AT-SPI reader listens before the confirmation opens');
  await ask('Restart lnd, please.');
  await focus('trusted');
  const pending = await until('the pending confirmation', async () => {
    const r = await invokeIn('trusted_pending');
    return r.ok && r.ok.length === 1 ? r.ok[0] : null;
  });
  log('pending:', pending.summary, pending.rpc_method, JSON.stringify(pending.arguments));
  // As soon as the window draws it: Approve locked (aria-disabled, not disabled: it stays focusable), Deny focused.
  const firstLook = await until('the confirmation on screen', () => run(wrap(`
    if (document.getElementById('confirm').hidden) return null;
    const approve = document.getElementById('approve');
    return { approveLocked: approve.getAttribute('aria-disabled') === 'true' && !approve.disabled, denyFocused: document.activeElement === document.getElementById('deny') };`)), 5000, 20);
  check(firstLook.approveLocked && firstLook.denyFocused, `Approve starts unavailable and Deny has the focus (${JSON.stringify(firstLook)})`);
  check(pending.tool === 'package_restart', 'the pending tool is package_restart');
  check(JSON.stringify(pending.arguments) === JSON.stringify([['id', 'lnd']]), 'the validated arguments are id=lnd');
  const settingsBefore = (await invokeIn('trusted_settings')).ok;
  check(settingsBefore && settingsBefore.api_key_set === false, 'no API key is set at the start');

  // ---- the chat window tries every way across ----
  await focus('main');
  const attack = await run(wrap(`
    const [id, hash] = args;
    const T = window.__TAURI__;
    const out = {};
    const attempt = async (name, fn) => {
      try { out[name] = { resolved: await fn() }; } catch (e) { out[name] = { rejected: String(e && (e.message || JSON.stringify(e)) || e) }; }
    };
    const trusted = {
      trusted_decide: { id, argumentsHash: hash, answer: 'approve' },
      trusted_pending: {},
      trusted_settings: {},
      trusted_set_api_key: { key: 'sk-ant-api03-FROM-THE-CHAT-WINDOW' },
      trusted_clear_api_key: {},
      trusted_pair_node: { url: 'http://127.0.0.1:9/', fingerprint: null, password: 'x' },
      trusted_set_grant: { tool: 'package_restart', enabled: false },
      trusted_set_builtin: { enabled: false },
      trusted_fetch_fingerprint: { url: 'https://127.0.0.1:9/' },
      trusted_hide: {},
      trusted_set_allowance: { allowanceSats: 1000000, period: 'daily', acceptedMints: ['https://mint.attacker.example'] },
      trusted_set_routstr: { reviewedOnly: false, torSocks: '127.0.0.1:9', reviewer: 'npub1attackerkeyattackerkeyattackerkeyattackerkeyattackerkeyqqqq' },
      trusted_wallet: {},
      trusted_wallet_receive: { token: 'cashuBfrom-the-chat-window' },
      trusted_wallet_invoice: { mint: 'https://mint.attacker.example', amountSats: 1000 },
      trusted_wallet_check: { mint: 'https://mint.attacker.example', quoteId: 'q' },
      trusted_wallet_quote_withdrawal: { invoice: 'lnbc1attacker', mint: null, everything: true },
      trusted_wallet_withdraw: { id: 'from-the-chat-window' },
      trusted_wallet_quote_send: { mint: 'https://mint.attacker.example', amountSats: 1000 },
      trusted_wallet_send: { id: 'from-the-chat-window' },
      trusted_wallet_take_back: { id: 'from-the-chat-window' },
      trusted_wallet_reconcile: {},
      trusted_wallet_backup: {},
      trusted_wallet_confirm_backup: {},
      trusted_wallet_restore: { text: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about\\nhttps://mint.attacker.example', replaceOtherWords: true },
    };
    for (const [command, a] of Object.entries(trusted)) {
      await attempt('invoke ' + command, () => T.core.invoke(command, a));
      await attempt('internals ' + command, () => window.__TAURI_INTERNALS__.invoke(command, a));
    }
    await attempt('emit_to trusted', () => T.event.emitTo('trusted', 'aiui:pending', { approve: id, hash }));
    await attempt('emit', () => T.event.emit('aiui:pending', { approve: id, hash }));
    await attempt('window set_focus', () => window.__TAURI_INTERNALS__.invoke('plugin:window|set_focus', { label: 'trusted' }));
    await attempt('webview list', () => window.__TAURI_INTERNALS__.invoke('plugin:webview|get_all_webviews'));
    await attempt('create window', () => window.__TAURI_INTERNALS__.invoke('plugin:webview|create_webview_window', { options: { label: 'trusted2', url: 'trusted.html' } }));
    out['window.open trusted.html'] = { result: String(window.open('trusted.html')) };
    out['window.open tauri://localhost/trusted.html'] = { result: String(window.open('tauri://localhost/trusted.html', 'trusted')) };
    const bc = new BroadcastChannel('aiui'); bc.postMessage({ decide: id, hash, answer: 'approve' }); bc.close();
    localStorage.setItem('aiui:decision', JSON.stringify({ id, hash, answer: 'approve' }));
    sessionStorage.setItem('aiui:decision', JSON.stringify({ id, hash, answer: 'approve' }));
    out['storage'] = { result: 'posted' };
    return out;
  `), pending.id, pending.arguments_hash);
  for (const [name, result] of Object.entries(attack)) {
    const ok = name.startsWith('window.open') ? result.result === 'null' : name === 'storage' ? true : 'rejected' in result;
    log(ok ? 'refused ' : 'ALLOWED ', name, JSON.stringify(result).slice(0, 160));
    check(ok, `the chat window's attempt "${name}" was refused`);
  }
  // Navigating itself to the trusted page: the navigation handler keeps it on the chat page.
  await run(wrap(`setTimeout(() => { location.href = 'tauri://localhost/trusted.html'; }, 0); return true;`)).catch(() => {});
  await sleep(800);
  await focus('main');
  const where = await run(wrap('return location.href;'));
  log('after navigating to the trusted page, the chat window is at', where);
  check(!where.includes('trusted.html'), 'the chat window could not navigate to the trusted page');
  await run(wrap(`location.assign('https://example.com/'); return true;`)).catch(() => {});
  await sleep(300);
  check(!(await run(wrap('return location.href;'))).includes('example.com'), 'the chat window could not navigate away');

  // Nothing changed: still pending, same request; no key; grants as before; lnd untouched.
  await focus('trusted');
  const still = (await invokeIn('trusted_pending')).ok;
  check(still.length === 1 && still[0].id === pending.id && still[0].arguments_hash === pending.arguments_hash, 'the confirmation is still pending, unchanged');
  const settingsAfter = (await invokeIn('trusted_settings')).ok;
  check(settingsAfter.api_key_set === false, 'the chat window could not set an API key');
  check(JSON.stringify(settingsAfter.tools) === JSON.stringify(settingsBefore.tools), 'the chat window could not change a grant');
  check(settingsAfter.builtin.enabled === true, 'the chat window could not turn the built-in model off');
  check(settingsAfter.budget.allowance_sats === 0 && settingsAfter.budget.accepted_mints.length === 0, `the chat window could not change the allowance (${JSON.stringify(settingsAfter.budget)})`);
  check(JSON.stringify(settingsAfter.budget) === JSON.stringify(settingsBefore.budget), 'the allowance is unchanged');
  check(JSON.stringify(settingsAfter.routstr) === JSON.stringify({ reviewed_only: true, tor_socks: null, reviewer: null, discovery: [] }), 'the chat window could not change the Routstr options');
  check((await invokeIn('trusted_wallet')).ok.opened === false, 'the chat window could not create the wallet');
  await focus('main');
  const meter = (await invokeIn('allowance_get')).ok;
  check(meter && meter.allowance_sats === 0, `the chat window reads the allowance, still 0 (${JSON.stringify(meter)})`);
  const lndBefore = await run(wrap(`const apps = await window.__TAURI__.core.invoke('node_packages'); return apps.find((p) => p.id === 'lnd').state;`));
  check(lndBefore === 'running', `lnd was not restarted by any attempt (state ${lndBefore})`);
  await until('the pending notice in the chat window', () => run(wrap(`return !document.getElementById('pending').hidden;`)));

  // ---- screenshots: the pending confirmation, then the owner approves ----
  await focus('trusted');
  await until('the confirmation on screen', () => run(wrap(`return !document.getElementById('confirm').hidden && document.getElementById('c-summary').textContent.length > 0;`)));
  // Drawn once and updated in place: the summary's node is the same a few polls later.
  check(await run(wrap(`const node = document.getElementById('c-summary').firstChild; await new Promise((r) => setTimeout(r, 2200));
    return node === document.getElementById('c-summary').firstChild && node.isConnected;`)), 'the pending request is not redrawn by the poll');
  check(await run(wrap(`return [...document.querySelectorAll('#c-summary code')].some((c) => c.textContent === 'lnd') && !document.getElementById('c-summary').textContent.includes('\`');`)),
    'the summary shows `lnd` as code, without backticks');
  await screenshot('trusted-pending.png');
  await axe('the trusted window with a pending confirmation');
  await until('Approve to unlock', () => run(wrap(`return document.getElementById('approve').getAttribute('aria-disabled') === 'false';`)), 10000);
  const approve = await wd('POST', s('/element'), { using: 'css selector', value: '#approve' });
  await wd('POST', s(`/element/${Object.values(approve)[0]}/click`), {});
  log('clicked Approve');
  checkAtspi(await atspiWatch.done, pending.summary, 'approve');
  const afterDecision = await run(wrap(`return { focus: document.activeElement.id, result: document.getElementById('last-decision').textContent };`));
  check(afterDecision.focus === 'nothing-title' && afterDecision.result.startsWith('Approved: '), `the result is shown and focused nearby (${JSON.stringify(afterDecision)})`);

  await focus('main');
  const seen = await lndRestartSeen();
  log('lnd states seen:', seen.join(' -> '));
  await until('the final answer', () => run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes('lnd is restarting now'));`)));
  check(await run(wrap(`return [...document.querySelectorAll('#messages .card h3')].some((h) => h.textContent === 'Action done');`)), 'the action receipt is drawn as a card');
  await run(wrap(`document.getElementById('refresh-apps').click(); await new Promise((r) => setTimeout(r, 300)); return true;`));
  await screenshot('chat-with-surfaces.png');
  await axe('the chat window with surfaces and an action receipt');
  const said = await run(wrap(`return [...document.getElementById('announcer').children].map((p) => p.textContent);`));
  log('the chat announcer said last:', JSON.stringify(said));
  check(said.some((t) => t.startsWith('Card: Action done')) && said.some((t) => t.startsWith('AIUI (local qwen2.5:7b): ')),
    'new cards and answers are announced once, with their speaker');
  check(await run(wrap(`const log = document.getElementById('messages'); return log.tabIndex === 0 && !log.hasAttribute('aria-live') && log.getAttribute('role') !== 'log';`)),
    'the conversation is keyboard scrollable and not itself a live region');
  check(received.length === 4, `the model was asked four times (was ${received.length})`);

  // The settings side of the trusted window, after the decision (secrets only as set / not set).
  await focus('trusted');
  await until('the confirmation to be answered', () => run(wrap(`return document.getElementById('confirm').hidden;`)));
  await run(wrap(`document.getElementById('key-title').scrollIntoView(); return true;`));
  await screenshot('trusted-settings.png');
  await axe('the trusted window settings');

  // ---- the owner sets an allowance in the trusted window; the chat window's meter follows ----
  const field = async (css) => Object.values(await wd('POST', s('/element'), { using: 'css selector', value: css }))[0];
  const amount = await field('#budget-allowance');
  await wd('POST', s(`/element/${amount}/clear`), {});
  await wd('POST', s(`/element/${amount}/value`), { text: '2100' });
  await wd('POST', s(`/element/${await field('#budget-mints')}/value`), { text: 'https://mint.example.com' });
  await run(wrap(`document.getElementById('budget-period').value = 'weekly'; return true;`));
  await wd('POST', s(`/element/${await field('#budget-save')}/click`), {});
  const saved = await until('the allowance to be saved', () => run(wrap(`const t = document.getElementById('budget-status'); return t.classList.contains('ok') || t.classList.contains('error') ? t.textContent : null;`)));
  log('allowance form:', saved);
  check(saved.startsWith('Saved'), `the trusted window saved the allowance (${saved})`);
  // The owner closes Settings (an occluded window is not repainted, so the chat's screenshot would be stale).
  check('ok' in (await invokeIn('trusted_hide')), 'the trusted window hides itself');
  await focus('main');
  const meterAfter = (await invokeIn('allowance_get')).ok;
  check(meterAfter.allowance_sats === 2100 && meterAfter.remaining_sats === 2100 && meterAfter.period === 'weekly', `the meter reads the new allowance (${JSON.stringify(meterAfter)})`);
  check(meterAfter.notices.length === 0, `the paid leg was built without a notice (${JSON.stringify(meterAfter.notices)})`);
  await run(wrap(`window.dispatchEvent(new Event('focus')); return true;`));
  const shown = await until('the meter to show it', async () => {
    const text = await run(wrap(`return document.getElementById('allowance-summary').textContent;`));
    return typeof text === 'string' && text.includes('2,100 sats left') ? text : null;
  }, 5000);
  log('meter:', shown);
  await sleep(300);
  await screenshot('chat-allowance-meter.png');
  await axe('the chat window with the allowance meter');
  // "Top up" only asks for the trusted window, which comes back showing the wallet.
  await run(wrap(`document.getElementById('top-up').click(); return true;`));
  await focus('trusted');
  await until('the trusted window to be shown again', () => run(wrap(`return document.visibilityState === 'visible';`)), 5000);
  // The paid leg opened the wallet, so the trusted window now shows its (empty) balance rather than "no wallet".
  await until('the wallet section', () => run(wrap(`return document.getElementById('wallet-state').textContent.startsWith('Total');`)), 5000);
  await run(wrap(`document.getElementById('allowance-section').scrollIntoView(); return true;`));
  await screenshot('trusted-allowance-wallet.png');
  await axe('the trusted window allowance and wallet');

  // ---- keyboard only: "restart lnd" again, and Enter on the focused Deny; the chat says nothing was changed ----
  const focusedId = () => run(wrap('return document.activeElement && document.activeElement.id;'));
  await focus('main');
  check(await focusedId() === 'composer-input', 'the message box has the focus');
  await press('restart lnd', KEY.enter);
  await focus('trusted');
  await until('the confirmation, Deny focused', async () => !(await run(wrap(`return document.getElementById('confirm').hidden;`))) && await focusedId() === 'deny', 20000);
  await press(KEY.enter);
  log('denied with the keyboard');
  await until('the result in the trusted window', () => run(wrap(`return document.getElementById('last-decision').textContent.startsWith('Denied: ');`)), 5000);
  await focus('main');
  await until('the denial in the chat', () => run(wrap(`return [...document.querySelectorAll('#messages .msg.notice')].some((m) => m.textContent.includes('You declined: Restart app lnd') && m.textContent.includes('Nothing was changed'));`)));
  await until('the turn to end', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') === 'false';`)));
  check(await focusedId() === 'composer-input', 'the focus is in the message box after the denial');
  check(await run(wrap(`const apps = await window.__TAURI__.core.invoke('node_packages'); return apps.find((p) => p.id === 'lnd').state;`)) === 'running', 'lnd was not restarted after Deny');

  // ---- 3b. a slow streamed answer in a new conversation, stopped mid-answer: once by Stop, once by Escape ----
  const STOP_MARK = '[Stopped by you here.]';
  const STOP_NOTICE = 'You stopped the answer. What was written so far is kept; nothing else was done.';
  const auditFile = [path.join(dataDir, 'demo', 'audit.jsonl'), path.join(dataDir, 'audit.jsonl')].find((f) => fs.existsSync(f));
  const auditLines = () => fs.readFileSync(auditFile, 'utf8').split('\n').filter(Boolean);
  check(auditFile && auditLines().some((l) => l.includes('"event":"requested"')), `the app's audit log holds the confirmations so far (${auditFile})`);
  const lndNow = () => run(wrap(`const apps = await window.__TAURI__.core.invoke('node_packages'); return apps.find((p) => p.id === 'lnd').state;`));
  // The owner reads the chat window: the trusted window, shown by the Deny above, is put away so it covers nothing.
  await focus('trusted');
  check('ok' in (await invokeIn('trusted_hide')), 'the trusted window hides itself');
  const observed = [];
  async function streamedStop(question, how) {
    await focus('main');
    await wd('POST', s(`/element/${Object.values(await wd('POST', s('/element'), { using: 'css selector', value: '#new-conversation' }))[0]}/click`), {});
    await until('a new, empty conversation', () => run(wrap(`return document.getElementById('messages').children.length === 0 && document.getElementById('stop').hidden;`)), 5000);
    const before = { audit: auditLines().length, asked: received.length, slow: slowStreams.length };
    await ask(question);
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
    log(`streaming lengths seen before ${how}:`, JSON.stringify(sampled));
    check(!sampled.timedOut && sampled.lengths.length >= 3, `the answer grew in the window through three distinct lengths (${JSON.stringify(sampled)})`);
    check(sampled.lengths.every((n, i) => i === 0 || n > sampled.lengths[i - 1]), `the lengths only grew (${sampled.lengths})`);
    check(sampled.stopShown && sampled.busy, 'Stop is shown while the answer is written');
    check(slowStreams.length === before.slow + 1, 'the question got the slow stream');
    const slow = slowStreams[slowStreams.length - 1];
    check(slow.stream === true, `the local leg asked for a stream ("stream": ${slow.stream})`);
    const stopAt = Date.now(); // the click or key press is sent
    if (how === 'the Stop button') {
      await wd('POST', s(`/element/${Object.values(await wd('POST', s('/element'), { using: 'css selector', value: '#stop' }))[0]}/click`), {});
    } else {
      await press(KEY.escape);
    }
    const piecesAtStop = slow.sent.length;
    const ended = await until(`the stopped answer (${how})`, () => run(wrap(`
      if (document.getElementById('send').getAttribute('aria-disabled') === 'true' || document.querySelector('#messages .streaming')) return null;
      const answers = [...document.querySelectorAll('#messages .msg.assistant')];
      const last = answers[answers.length - 1];
      if (!last) return null;
      return { paragraphs: [...last.querySelectorAll('p')].map((p) => p.textContent), answers: answers.length,
        notices: [...document.querySelectorAll('#messages .msg.notice')].map((m) => m.textContent), stopHidden: document.getElementById('stop').hidden };`)), 10000, 50);
    log(`the window ${Date.now() - stopAt} ms after ${how}:`, JSON.stringify({ ...ended, paragraphs: ended.paragraphs.map((p) => (p.length > 60 ? `…${p.slice(-60)}` : p)) }));
    check(ended.answers === 1 && ended.paragraphs[ended.paragraphs.length - 1] === STOP_MARK, `the answer ends "${STOP_MARK}" (${JSON.stringify(ended.paragraphs.slice(-2))})`);
    const shownPartial = ended.paragraphs.slice(0, -1).join('\n\n');
    check(shownPartial.length > 0 && SLOW_TEXT.startsWith(shownPartial) && shownPartial.length < SLOW_TEXT.trimEnd().length,
      `the partial answer is kept, a proper beginning of the whole (${shownPartial.length} of ${SLOW_TEXT.length} characters)`);
    check(shownPartial.length >= sampled.lengths[sampled.lengths.length - 1] - 1, 'nothing seen growing was lost');
    check(ended.notices.some((t) => t.includes(STOP_NOTICE)), `the stop notice is shown (${JSON.stringify(ended.notices)})`);
    check(ended.stopHidden, 'Stop is hidden once the turn ended');
    // Past the stream's scripted end (4.1 s after its start): the tool call never became an action or a confirmation.
    const lndStates = [];
    const waitUntil = Math.max(stopAt + 5500, slow.startedAt + 4100 + 1500);
    while (Date.now() < waitUntil) {
      lndStates.push(await lndNow());
      await sleep(200);
    }
    await focus('trusted');
    const pendingNow = (await invokeIn('trusted_pending')).ok;
    const trustedShown = await run(wrap(`return { visible: document.visibilityState, confirmHidden: document.getElementById('confirm').hidden };`));
    await focus('main');
    const newAudit = auditLines().slice(before.audit);
    log('the scripted stream:', JSON.stringify({ pieces: slow.sent.filter((k) => k === 'piece').length, sent: [...new Set(slow.sent)], notSent: slow.notSent,
      hungUp: slow.hungUpAt === null ? 'never' : `${slow.hungUpAt - stopAt} ms after ${how}`, piecesAtStop }));
    log(`after ${Date.now() - stopAt} ms: lnd ${[...new Set(lndStates)].join(' -> ')} (${lndStates.length} reads); new audit lines ${newAudit.length};`
      + ` /api/chat requests since the question ${received.length - before.asked}; pending ${JSON.stringify(pendingNow)}; trusted window ${JSON.stringify(trustedShown)}`);
    check(slow.hungUpAt !== null && slow.hungUpAt - stopAt < 3000, 'the host hung up on the stream once stopped');
    check(!slow.sent.includes('tool call') && slow.notSent.includes('tool call'), `the scripted tool call came due while the test waited and was never delivered (${JSON.stringify(slow.notSent)})`);
    check(lndStates.length >= 10 && lndStates.every((st) => st === 'running'), `lnd stayed running (${[...new Set(lndStates)]})`);
    check(newAudit.length === 0, `no confirmation was opened (${newAudit.join(' | ')})`);
    check(Array.isArray(pendingNow) && pendingNow.length === 0 && trustedShown.confirmHidden, 'nothing pending in the trusted window');
    check(received.length - before.asked === 1, `the model was asked once, and not again after the stop (${received.length - before.asked})`);
    observed.push({ how, lengths: sampled.lengths, shown: shownPartial.length, piecesAtStop });
    return shownPartial;
  }
  const buttonPartial = await streamedStop('Explain how a Lightning channel works, step by step.', 'the Stop button');
  await screenshot('chat-stopped.png');
  await axe('the chat window with an answer stopped by the owner');
  const escapePartial = await streamedStop('Explain how an on-chain payment confirms, step by step.', 'the Escape key');
  // Reopened from the conversation list: another conversation first, then each stopped one, drawn from the store.
  const openFromList = async (title) => {
    const index = await run(wrap(`return [...document.querySelectorAll('#conversations li button')].findIndex((b) => args[0].startsWith(b.firstChild.textContent));`), title);
    check(index >= 0, `"${title}" is in the conversation list`);
    await wd('POST', s(`/element/${Object.values(await wd('POST', s('/element'), { using: 'css selector', value: `#conversations li:nth-child(${index + 1}) button` }))[0]}/click`), {});
    return until(`"${title}" reopened`, () => run(wrap(`const items = [...document.querySelectorAll('#messages > li')];
      const user = items.find((li) => li.classList.contains('user'));
      if (!user || !user.textContent.includes(args[0])) return null;
      // The list is redrawn after the conversation (openConversation does not wait for it).
      const current = [...document.querySelectorAll('#conversations button[aria-current="true"]')].map((b) => b.firstChild.textContent);
      if (current.length !== 1 || !args[0].startsWith(current[0])) return null;
      const answers = items.filter((li) => li.classList.contains('assistant'));
      return { answers: answers.map((li) => [...li.querySelectorAll('p')].map((p) => p.textContent)), notices: items.filter((li) => li.classList.contains('notice')).map((li) => li.textContent),
        current };`), title), 5000);
  };
  await openFromList('What is running on my node?');
  for (const [title, partial] of [['Explain how a Lightning channel works, step by step.', buttonPartial], ['Explain how an on-chain payment confirms, step by step.', escapePartial]]) {
    const reopened = await openFromList(title);
    const answer = reopened.answers[0] || [];
    log(`reopened "${title}":`, JSON.stringify({ end: answer.slice(-2).map((p) => p.slice(-50)), notices: reopened.notices }));
    check(reopened.answers.length === 1 && answer[answer.length - 1] === STOP_MARK && answer.slice(0, -1).join('\n\n') === partial,
      `the stored answer is the partial text shown, ending "${STOP_MARK}" (${JSON.stringify(answer.slice(-2))})`);
    check(reopened.notices.some((t) => t.includes(STOP_NOTICE)), 'the stop notice is stored with it');
  }
  check(await lndNow() === 'running', 'lnd is still running');
  log('streamed and stopped:', JSON.stringify(observed));
  log('PASSED (slow streamed answers stopped by the Stop button and by Escape, kept marked, nothing run)');
  // The wallet's steps start in the trusted window, shown again as the owner would: Settings.
  await run(wrap(`document.getElementById('open-settings').click(); return true;`));
  backupWords = await walletFlow(focus);
  log('PASSED');
} catch (error) {
  failure = error;
} finally {
  await wd('DELETE', s('')).catch(() => {});
  ollama.close();
}

// ---- a fresh machine in kiosk mode: no Ollama, no key, no allowance; the built-in model answers and acts through
// the gate; the owner uses the keyboard only ----
if (!failure) {
  try {
    const fresh = await wd('POST', '/session', {
      capabilities: { alwaysMatch: { 'tauri:options': { application: binary, args: ['--demo', '--kiosk', '--data-dir', `${dataDir}-fresh`, '--ollama', 'http://127.0.0.1:9/'] } } },
    });
    sid = fresh.sessionId;
    log('fresh-machine kiosk session', sid);
    const focus = focuser();
    const focusedId = () => run(wrap('return document.activeElement && document.activeElement.id;'));
    await focus('main');
    await until('the chat page', () => run(wrap(`return document.readyState === 'complete' && document.activeElement === document.getElementById('composer-input');`)));
    check(await run(wrap(`return document.body.classList.contains('kiosk');`)), 'the chat window is in kiosk layout');
    // A long press (a context menu) brings paste and copy in a text field; elsewhere the page's menu stays off.
    const menus = await run(wrap(`const open = (el) => { const e = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
      el.dispatchEvent(e); return !e.defaultPrevented; };
      return { field: open(document.getElementById('composer-input')), page: open(document.querySelector('.brand')) };`));
    check(menus.field === true && menus.page === false, `the kiosk keeps the text field's menu only (${JSON.stringify(menus)})`);
    await axe('the kiosk chat window');
    // One-tap suggestions from the demo node's state, and the on-screen keyboard a tap on the message box opens.
    const suggested = await until('the suggested questions', () => run(wrap(`const b = [...document.querySelectorAll('#suggestions button')]; return b.length ? b.map((x) => x.textContent) : null;`)));
    log('suggested questions:', JSON.stringify(suggested));
    check(suggested.includes('Why did Electrs stop?') && suggested.includes('What is running?'), 'the suggestions follow the node (electrs stopped with an error)');
    const elk = async (css) => Object.values(await wd('POST', s('/element'), { using: 'css selector', value: css }))[0];
    await wd('POST', s(`/element/${await elk('#composer-input')}/click`), {});
    await until('the on-screen keyboard', () => run(wrap(`return !document.getElementById('keyboard').hidden;`)));
    for (const key of ['shift', 'h', 'i']) await wd('POST', s(`/element/${await elk(`#keyboard button[data-key="${key}"]`)}/click`), {});
    const typedByTap = await run(wrap(`return { value: document.getElementById('composer-input').value, focused: document.activeElement.id };`));
    check(typedByTap.value === 'Hi' && typedByTap.focused === 'composer-input', `the on-screen keyboard types into the message box and leaves the focus there (${JSON.stringify(typedByTap)})`);
    await screenshot('kiosk-keyboard.png');
    await axe('the kiosk chat window with the on-screen keyboard');
    await wd('POST', s(`/element/${await elk('#keyboard button[data-key="hide"]')}/click`), {});
    check(await run(wrap(`const kb = document.getElementById('keyboard'); const t = document.getElementById('keyboard-toggle');
      const off = kb.hidden && t.getAttribute('aria-expanded') === 'false'; t.click(); const on = !kb.hidden; t.click();
      document.getElementById('composer-input').value = ''; document.getElementById('composer-input').focus(); return off && on && kb.hidden;`)), 'Hide keyboard hides it, and the Keyboard button brings it back');
    // Page zoom: Ctrl+= twice, then Ctrl+0 back.
    await chord(KEY.control, '=');
    await chord(KEY.control, '=');
    const zoomed = await run(wrap('return document.documentElement.dataset.zoom;'));
    await screenshot('kiosk-chat-zoomed.png');
    await chord(KEY.control, '0');
    const reset = await run(wrap('return document.documentElement.dataset.zoom;'));
    check(zoomed === '1.25' && reset === '1', `Ctrl+= zooms the page and Ctrl+0 resets it (${zoomed}, ${reset})`);

    // Keyboard only: type the request and press Enter (the message box has the focus from the start).
    await press('restart lnd', KEY.enter);
    check(await run(wrap(`return [...document.querySelectorAll('#messages .msg.user')].some((m) => m.textContent.includes('restart lnd'));`)), 'the typed message was sent');
    // The built-in model runs on the CPU; on a busy machine its answer takes a while.
    await until('what the built-in model understood', () => run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes('Restarting LND: waiting for your approval.'));`)), 120000, 250);
    const badges = await run(wrap(`return [...document.querySelectorAll('#messages .badge')].map((b) => b.textContent);`));
    check(badges.includes('built-in (SmolLM2-135M)'), `the answer is labelled built-in (SmolLM2-135M) (${JSON.stringify(badges)})`);
    check(await focusedId() === 'composer-input', 'the focus stayed in the message box through the turn');
    await focus('trusted');
    const pending = await until('the pending confirmation', async () => {
      const r = await invokeIn('trusted_pending');
      return r.ok && r.ok.length === 1 ? r.ok[0] : null;
    });
    log('pending:', pending.summary, pending.rpc_method, JSON.stringify(pending.arguments));
    check(pending.tool === 'package_restart', 'the built-in leg proposed package_restart');
    check(JSON.stringify(pending.arguments) === JSON.stringify([['id', 'lnd']]), 'with id=lnd');
    check(pending.summary.includes('lnd'), `the host-written summary names lnd (${pending.summary})`);
    await until('the confirmation on screen, Deny focused', async () => await focusedId() === 'deny');
    check(await run(wrap(`return document.body.classList.contains('kiosk');`)), 'the trusted window is in kiosk layout');
    await screenshot('kiosk-trusted-pending.png');
    await axe('the kiosk trusted window with a pending confirmation');
    // The delay is heard, not skipped: Approve is focusable while unavailable.
    await until('Approve to be available', () => run(wrap(`return document.getElementById('approve').getAttribute('aria-disabled') === 'false';`)), 10000);
    await press(KEY.tab);
    check(await focusedId() === 'approve', 'Tab goes from Deny to Approve');
    await press(KEY.enter);
    log('approved with the keyboard');
    await focus('main');
    const seen = await lndRestartSeen();
    log('lnd states seen (built-in leg):', seen.join(' -> '));
    await until('the built-in answer', () => run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes('Done: restart of lnd'));`)));
    await until('the turn to end', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') === 'false';`)));
    await screenshot('kiosk-chat.png');
    await axe('the kiosk chat window after an approved action');

    check(await focusedId() === 'composer-input', 'the focus is back in the message box');
    log('PASSED (built-in leg, keyboard only, kiosk)');

    // One tap: an app the node does not have gets "Which app do you mean?" with choices; a tapped choice acts.
    const el = async (css) => Object.values(await wd('POST', s('/element'), { using: 'css selector', value: css }))[0];
    await press('restart wordpress', KEY.enter);
    await until('the one-tap choices', () => run(wrap(`return [...document.querySelectorAll('#messages .choices button')].some((b) => b.textContent === 'restart LND');`)), 120000, 250);
    const asked = await run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes('Which app do you mean?'));`));
    check(asked, 'the built-in model asked which app was meant instead of guessing');
    await screenshot('kiosk-choices.png');
    await axe('the kiosk chat window with one-tap choices');
    const lndChoice = await run(wrap(`const i = [...document.querySelectorAll('#messages .choices button')].findIndex((b) => b.textContent === 'restart LND'); return i;`));
    await wd('POST', s(`/element/${await el(`#messages .choices button:nth-child(${lndChoice + 1})`)}/click`), {});
    await until('the tapped choice understood', () => run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].filter((m) => m.textContent.includes('Restarting LND: waiting for your approval.')).length === 2;`)), 120000, 250);
    check(await run(wrap(`return [...document.querySelectorAll('#messages .choices button')].every((b) => b.disabled);`)), 'the tapped choices are spent');
    check(await focusedId() === 'composer-input', 'after a tap the focus is in the message box');
    await focus('trusted');
    const tapped = await until('the tapped choice pending', async () => {
      const r = await invokeIn('trusted_pending');
      return r.ok && r.ok.length === 1 ? r.ok[0] : null;
    });
    check(tapped.tool === 'package_restart' && JSON.stringify(tapped.arguments) === JSON.stringify([['id', 'lnd']]), 'the tapped choice proposed package_restart id=lnd');
    await until('Deny focused', async () => await focusedId() === 'deny');
    // A pointer's click on Approve is a tap, and a tap never approves in the kiosk: only a hold (or a keyboard) does.
    await until('Approve to be available', () => run(wrap(`return document.getElementById('approve').getAttribute('aria-disabled') === 'false';`)), 10000);
    await wd('POST', s(`/element/${await el('#approve')}/click`), {});
    await sleep(700);
    check((await invokeIn('trusted_pending')).ok.length === 1, 'a click (tap) on Approve in the kiosk approves nothing');
    const tapSaid = await run(wrap(`return document.getElementById('c-status').textContent;`));
    check(/hold Approve/.test(tapSaid), `the window says to hold (${tapSaid})`);
    // (The hold itself is driven by touch in tests/web/lan.mjs: WebKitWebDriver here refuses pointer actions.)
    await run(wrap(`document.getElementById('deny').focus(); return true;`));
    await press(KEY.enter);
    await focus('main');
    await until('the declined answer', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') === 'false';`)));
    log('PASSED (one-tap choice; a tap on Approve refused; denied)');

    // The owner turns the built-in model off in the trusted window: the next question finds no assistant, said
    // plainly below it; on again, it answers.
    await run(wrap(`document.getElementById('open-settings').click(); return true;`));
    await focus('trusted');
    await run(wrap(`document.getElementById('builtin-section').scrollIntoView(); return true;`));
    await wd('POST', s(`/element/${await el('#builtin-enabled')}/click`), {});
    const off = await until('the switch saved', () => run(wrap(`const t = document.getElementById('builtin-status'); return t.classList.contains('ok') || t.classList.contains('error') ? t.textContent : null;`)));
    check(off.startsWith('Off'), `the built-in model is switched off (${off})`);
    check((await invokeIn('trusted_settings')).ok.builtin.enabled === false, 'the setting reads off');
    await axe('the kiosk trusted window settings, built-in model off');
    await focus('main');
    await press('what is running?', KEY.enter);
    await until('the no-backend panel', () => run(wrap(`return Boolean(document.querySelector('#messages .no-backend'));`)), 30000, 250);
    await screenshot('kiosk-no-backend.png');
    await axe('the kiosk chat window with the no-backend panel');
    await run(wrap(`document.getElementById('open-settings').click(); return true;`));
    await focus('trusted');
    await wd('POST', s(`/element/${await el('#builtin-enabled')}/click`), {});
    const on = await until('the switch saved again', () => run(wrap(`const t = document.getElementById('builtin-status'); return t.textContent.startsWith('On from') ? t.textContent : null;`)));
    check((await invokeIn('trusted_settings')).ok.builtin.enabled === true, `the built-in model is on again (${on})`);
    log('PASSED (built-in switch off and on, no-backend panel)');

    // The fresh machine restores the first machine's wallet from its backup words, from the same test mint: what was
    // unspent comes back, and the withdrawal the mint is still paying is found as being spent.
    check(Array.isArray(backupWords) && [12, 24].includes(backupWords.length), "the first wallet's backup words were kept for the restore");
    check(!(await run(wrap(`return document.getElementById('restore-part').hidden;`))), 'restore is offered on a machine with no wallet');
    await run(wrap(`document.getElementById('restore-part').scrollIntoView(); document.getElementById('restore-text').value = args[0];
      document.getElementById('restore-form').requestSubmit(); return true;`), `${backupWords.join(' ')}\n${mintUrl}`);
    const restored = await until('the restore', async () => {
      const said = await run(wrap(`return document.getElementById('wallet-status').textContent;`));
      return said && !said.endsWith('…') ? said : null;
    }, 90000);
    log('restore:', restored);
    check(restored.startsWith('Restored: '), `the wallet is restored from its words (${restored})`);
    const found = await run(wrap(`return [...document.querySelectorAll('#restore-found li')].map((li) => li.textContent);`));
    log('restore found:', JSON.stringify(found));
    check(found.length === 1 && found[0].startsWith(mintUrl) && found[0].includes('being spent at the mint'), 'the pending withdrawal is found, being spent at the mint');
    const wallet = (await invokeIn('trusted_wallet')).ok;
    check(wallet.opened && wallet.total_sats > 0 && !wallet.restorable, `the restored wallet holds its sats (${wallet.total_sats}) and is no longer offered a restore`);
    check(await run(wrap(`return document.getElementById('restore-text').value === '';`)), 'the words leave the restore field');
    await axe('the kiosk trusted window after a restore');
    log('PASSED (restore from the backup words on a fresh machine)');
  } catch (error) {
    failure = error;
  } finally {
    await wd('DELETE', s('')).catch(() => {});
  }
}
// ---- 6. what answers cost: Claude's dollars and Routstr's sats on one meter, a Claude answer's cost under it ----
if (!failure) {
  let costFocus = null;
  try {
    const costDir = `${dataDir}-cost`;
    const cost = await wd('POST', '/session', {
      capabilities: { alwaysMatch: { 'tauri:options': { application: binary, args: ['--demo', '--data-dir', costDir, '--ollama', 'http://127.0.0.1:9/', '--claude-url', anthropicUrl] } } },
    });
    sid = cost.sessionId;
    log('cost-meter session', sid);
    const focus = focuser();
    costFocus = focus;
    const el = async (css) => Object.values(await wd('POST', s('/element'), { using: 'css selector', value: css }))[0];
    const type = async (css, text) => {
      const id = await el(css);
      await wd('POST', s(`/element/${id}/clear`), {});
      await wd('POST', s(`/element/${id}/value`), { text });
    };
    const said = (id) => until(`${id} to answer`, () => run(wrap(`const t = document.getElementById(args[0]);
      return t.classList.contains('ok') || t.classList.contains('error') ? { ok: t.classList.contains('ok'), text: t.textContent } : null;`), id), 10000);
    await focus('main');
    await until('the chat page', () => run(wrap(`return document.readyState === 'complete' && document.activeElement === document.getElementById('composer-input');`)));

    // Routstr's spend is SEEDED, not paid: no provider or mint takes part here. The budget store reads its file on
    // every call, so the running app's meter counts it: 1,764 of 2,100 sats this week (84%, past the 80% notice).
    const now = Date.now();
    const budgetFile = path.join(costDir, 'demo', 'budget.json');
    fs.writeFileSync(`${budgetFile}.seed`, JSON.stringify({
      allowance_sats: 2100, period: 'weekly', period_origin_ms: now, period_number: 1, period_start_ms: now,
      period_end_ms: now + 7 * 24 * 3600 * 1000, period_allowance_sats: 2100, spent_sats: 1764, notice_80_sent: true,
      notice_80_pending: false, accepted_mints: ['https://mint.example.com'], reservations: {}, closed_periods: [],
    }), { mode: 0o600 });
    fs.renameSync(`${budgetFile}.seed`, budgetFile);

    // The trusted window: the key, Claude's allowance (refused first, as typed), and a price correction.
    await run(wrap(`document.getElementById('open-settings').click(); return true;`));
    await focus('trusted');
    await until('the settings drawn', () => run(wrap(`return !document.getElementById('claude-section').hidden && document.querySelectorAll('#prices-rows tr').length > 0;`)));
    await type('#key-input', 'sk-ant-api03-gui-cost-meter');
    await run(wrap(`document.getElementById('key-form').requestSubmit(); return true;`));
    await until('the key saved', () => run(wrap(`return document.getElementById('key-status').textContent === 'Saved in the keyring.';`)), 10000);
    await run(wrap(`document.getElementById('claude-section').scrollIntoView(); return true;`));
    await type('#claude-budget-amount', 'five dollars');
    await wd('POST', s(`/element/${await el('#claude-budget-save')}/click`), {});
    const refused = await said('claude-budget-status');
    log('Claude allowance, typed "five dollars":', refused.text);
    check(!refused.ok && refused.text.includes('is not an amount in US dollars'), `the host refuses an amount it cannot read, and says why (${refused.text})`);
    check((await invokeIn('trusted_settings')).ok.budget.claude.allowance_usd_micros === 0, 'the refused amount changed nothing');
    await type('#claude-budget-amount', '5');
    await run(wrap(`document.getElementById('claude-budget-period').value = 'monthly'; return true;`));
    await wd('POST', s(`/element/${await el('#claude-budget-save')}/click`), {});
    const saved = await until('the Claude allowance saved', async () => {
      const r = await said('claude-budget-status');
      return r.text !== refused.text ? r : null;
    });
    log('Claude allowance:', saved.text);
    check(saved.ok && saved.text.startsWith('Saved: $5.00 monthly'), `the trusted window saved Claude's allowance (${saved.text})`);
    check(await run(wrap(`return document.getElementById('claude-budget-remaining').textContent;`)) === '$5.00 of $5.00', 'the trusted window shows what remains');
    await type('#price-model', 'claude-3-5-haiku-latest');
    await run(wrap(`const f = (id, v) => { document.getElementById(id).value = v; };
      f('price-input', 'eighty cents'); f('price-output', '4'); f('price-cache-write', '1'); f('price-cache-read', '0.08'); return true;`));
    await wd('POST', s(`/element/${await el('#price-save')}/click`), {});
    const badPrice = await said('price-status');
    check(!badPrice.ok && badPrice.text.startsWith('The input price is US dollars per million tokens'), `a price the host cannot read is refused (${badPrice.text})`);
    await run(wrap(`document.getElementById('price-input').value = '0.80'; return true;`));
    await wd('POST', s(`/element/${await el('#price-save')}/click`), {});
    const priced = await until('the price saved', async () => {
      const r = await said('price-status');
      return r.ok ? r : null;
    });
    log('price form:', priced.text);
    const row = await run(wrap(`return [...document.querySelectorAll('#prices-rows tr')].map((tr) => tr.textContent).find((t) => t.startsWith('claude-3-5-haiku-latest'));`));
    check(row && row.includes('set by you') && row.includes('$0.80'), `the table marks the owner's price (${row})`);
    check((await run(wrap(`return document.getElementById('prices-source').textContent;`))).startsWith('Shipped prices taken on 20'), 'the table says when and where its prices were taken');
    await screenshot('trusted-claude-allowance.png');
    await axe('the trusted window with the Claude allowance and prices');
    check('ok' in (await invokeIn('trusted_hide')), 'the trusted window hides itself');

    // Claude answers (Ollama is a dead port): its cost goes under the answer, the total above the conversation.
    await focus('main');
    await run(wrap(`const input = document.getElementById('composer-input'); input.value = 'What is running on my node?';
      document.getElementById('composer').requestSubmit(); return true;`));
    await until("Claude's answer", () => run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes(args[0]));`), CLAUDE_TEXT), 30000);
    await until('the turn to end', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') === 'false';`)), 30000);
    check(claudeAsked.length === 1 && claudeAsked[0].key === 'sk-ant-api03-gui-cost-meter' && claudeAsked[0].stream, `Claude was asked once, streamed, with the key set in the trusted window (${JSON.stringify(claudeAsked)})`);
    const answer = await run(wrap(`const li = [...document.querySelectorAll('#messages .msg.assistant')].pop();
      const summary = li.querySelector('.cost summary');
      if (summary) summary.click();
      return { badge: li.querySelector('.badge').textContent, cost: summary && summary.textContent,
        details: [...li.querySelectorAll('.cost li')].map((x) => x.textContent), open: li.querySelector('.cost').open,
        total: document.getElementById('conversation-total').textContent };`));
    log('the answer:', JSON.stringify(answer));
    check(answer.badge.startsWith('Claude'), `Claude answered (${answer.badge})`);
    check(answer.cost === `Cost: ${CLAUDE_COST}`, `the answer shows its cost under the backend label (${answer.cost})`);
    check(answer.open && answer.details.length === 1 && answer.details[0].endsWith(`: 1,804 input, 22 output, 2,048 cache-write, 10,000 cache-read tokens (${CLAUDE_COST})`),
      `the token counts show on demand (${JSON.stringify(answer.details)})`);
    await until('the conversation total', () => run(wrap(`return document.getElementById('conversation-total').textContent === args[0];`), `This conversation: ${CLAUDE_COST}`), 5000);

    // The meter: each allowance in its own unit, the 80% notice, and the free answers.
    const meterView = (await invokeIn('allowance_get')).ok;
    check(meterView.claude.spent === CLAUDE_COST && meterView.claude.reserved_usd_micros === 0 && meterView.spent_sats === 1764,
      `the host's meter holds both spends (${JSON.stringify({ claude: meterView.claude, sats: meterView.spent_sats })})`);
    await run(wrap(`window.dispatchEvent(new Event('focus')); return true;`));
    const meter = await until('the meter to show both spends', async () => {
      const m = await run(wrap(`const t = (id) => document.getElementById(id).textContent;
        return { claude: t('claude-summary'), claudeRenews: t('claude-renews'), claudeBar: document.getElementById('claude-bar').getAttribute('aria-valuetext'),
          sats: t('allowance-summary'), satsSpent: t('allowance-spent'), satsNotice: document.getElementById('allowance-notice').hidden ? null : t('allowance-notice'),
          free: t('free-answers') };`));
      return m.claude === `${CLAUDE_COST} of $5.00 spent` && m.satsSpent === '1,764 sats' ? m : null;
    }, 5000);
    log('meter:', JSON.stringify(meter));
    check(meter.claudeBar === meter.claude && meter.claudeRenews.includes('monthly'), `Claude's bar says its spend, and it renews monthly (${meter.claudeRenews})`);
    check(meter.sats === '336 sats left of 2,100 sats' && meter.satsNotice && meter.satsNotice.startsWith('80%'), `the sats part and its 80% notice (${meter.sats}; ${meter.satsNotice})`);
    check(meter.free === '0 local and 0 built-in answers this month, at $0', `the free answers this month (${meter.free})`);
    await sleep(300);
    await screenshot('cost-meter.png');
    await axe('the chat window with spend on both allowances and a Claude answer with its cost');

    // Reopened from the list, the answer carries the same cost.
    await wd('POST', s(`/element/${await el('#new-conversation')}/click`), {});
    await until('a new conversation', () => run(wrap(`return document.getElementById('messages').children.length === 0 && document.getElementById('conversation-total').hidden;`)), 5000);
    await wd('POST', s(`/element/${await el('#conversations li:first-child button')}/click`), {});
    const reopened = await until('the conversation reopened', () => run(wrap(`const c = document.querySelector('#messages .msg.assistant .cost');
      return c ? { cost: c.textContent, total: document.getElementById('conversation-total').textContent } : null;`)), 5000);
    check(reopened.cost === `Cost: ${CLAUDE_COST}` && reopened.total === `This conversation: ${CLAUDE_COST}`, `the stored answer shows its cost (${JSON.stringify(reopened)})`);
    log('PASSED (cost meter: both allowances, a Claude answer and its cost, the conversation total)');
  } catch (error) {
    failure = error;
  } finally {
    // The keyring outlives this app: the kiosk-lan test after this one starts without a Claude key.
    if (costFocus) {
      const cleared = await costFocus('trusted').then(() => invokeIn('trusted_clear_api_key')).catch((e) => ({ err: String(e) }));
      log('the Claude key taken out of the keyring again:', cleared.ok ? cleared.ok.api_key_set === false : JSON.stringify(cleared.err));
    }
    await wd('DELETE', s('')).catch(() => {});
    anthropic.close();
  }
}
// ---- 7. the owner's language: a fourth machine set to German in its trusted settings, then to the pseudo-locale ----
// Words that are data, not the host's: what the node, the owner or a model wrote sits in `translate="no"`. Any other
// visible text (or label, placeholder, title) with plain letters and no pseudo-accent escaped the catalogue.
const ESCAPED = `const accented = /[áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ]/;
  const plain = (text) => /[A-Za-z]{2,}/.test(text) && !accented.test(text);
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const escaped = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('[translate="no"], script, style, svg') || !shown(el)) continue;
    const text = n.textContent.replace(/\\s+/g, ' ').trim();
    if (plain(text)) escaped.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
    if (el.closest('[translate="no"]') || !shown(el)) continue;
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = el.getAttribute(name);
      if (value && plain(value)) escaped.push(name + ': ' + value);
    }
  }
  if (plain(document.title)) escaped.push('title: ' + document.title);
  return { lang: document.documentElement.lang, escaped };`;
if (!failure) {
  try {
    const langDir = `${dataDir}-languages`;
    const machine = await wd('POST', '/session', {
      capabilities: { alwaysMatch: { 'tauri:options': { application: binary, args: ['--demo', '--data-dir', langDir, '--ollama', 'http://127.0.0.1:9/'] } } },
    });
    sid = machine.sessionId;
    log('languages session', sid);
    const focus = focuser();
    const el = async (css) => Object.values(await wd('POST', s('/element'), { using: 'css selector', value: css }))[0];
    const focusedId = () => run(wrap('return document.activeElement && document.activeElement.id;'));
    const lang = () => run(wrap('return document.readyState === "complete" ? document.documentElement.lang : null;'));
    await focus('main');
    await until('the chat page in English', async () => await lang() === 'en');
    // The owner picks Deutsch in the trusted settings: both windows are in German from then on.
    await run(wrap(`document.getElementById('open-settings').click(); return true;`));
    await focus('trusted');
    await until('the language setting', () => run(wrap(`const s = document.getElementById('language-select'); return !!s && s.options.length === 4;`)));
    await run(wrap(`const s = document.getElementById('language-select'); s.value = 'de'; s.dispatchEvent(new Event('change')); return true;`));
    // The window reloads itself: its text arrives before its settings view fills the select, so wait for both.
    await until('the trusted window in German', async () => await lang() === 'de'
      && await run(wrap(`return document.getElementById('language-select').value === 'de';`)), 10000);
    const trustedGerman = await run(wrap(`return { title: document.title, deny: document.getElementById('deny').textContent, language: document.getElementById('language-select').value };`));
    log('the trusted window in German:', JSON.stringify(trustedGerman));
    check(trustedGerman.language === 'de' && trustedGerman.deny.trim() === 'Ablehnen', `the trusted window speaks German (${JSON.stringify(trustedGerman)})`);
    await focus('main');
    await until('the chat window in German', async () => await lang() === 'de', 10000);
    const chatGerman = await run(wrap(`return { placeholder: document.getElementById('composer-input').placeholder, send: document.getElementById('send').textContent.trim() };`));
    log('the chat window in German:', JSON.stringify(chatGerman));
    check(chatGerman.placeholder !== 'Ask about your node…' && chatGerman.send !== 'Send', `the chat window speaks German (${JSON.stringify(chatGerman)})`);
    await axe('the chat window in German');
    await run(wrap(`const input = document.getElementById('composer-input'); input.value = 'Starte LND neu'; document.getElementById('composer').requestSubmit(); return true;`));
    await until('the German answer of the built-in model', () => run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].some((m) => m.textContent.includes('LND wird neu gestartet: Ich warte auf Ihre Freigabe.'));`)), 120000, 250);
    await focus('trusted');
    const pending = await until('the pending confirmation', async () => {
      const r = await invokeIn('trusted_pending');
      return r.ok && r.ok.length === 1 ? r.ok[0] : null;
    });
    log('pending (German):', pending.summary);
    check(pending.tool === 'package_restart' && JSON.stringify(pending.arguments) === JSON.stringify([['id', 'lnd']]), 'the German request is restart lnd');
    check(/^App `lnd` neu starten \(/.test(pending.summary), `the host wrote the summary in German (${pending.summary})`);
    await until('the German confirmation, Deny focused first', async () => await focusedId() === 'deny'
      && await run(wrap(`return document.getElementById('c-summary').textContent === args[0].replaceAll('\`', '');`), pending.summary));
    const proposedBy = await run(wrap(`return document.getElementById('c-backend').textContent;`));
    check(proposedBy === 'eingebaut (SmolLM2-135M)', `the trusted window names the built-in leg in German (${proposedBy})`);
    await screenshot('german-trusted-pending.png');
    await axe('the trusted window in German with a pending confirmation');
    await until('Approve to be available', () => run(wrap(`return document.getElementById('approve').getAttribute('aria-disabled') === 'false';`)), 10000);
    await wd('POST', s(`/element/${await el('#approve')}/click`), {});
    await focus('main');
    const seen = await lndRestartSeen();
    log('lnd states seen (German):', seen.join(' -> '));
    await until('the turn to end', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') === 'false';`)), 20000);
    // What the node did is said in German too: the receipt's outcome and the built-in leg's answer from it.
    const outcome = await run(wrap(`const dt = [...document.querySelectorAll('#messages dl.kv dt')].find((d) => d.textContent === 'Ergebnis');
      return dt ? dt.nextElementSibling.textContent : null;`));
    check(outcome && /^angenommen( |$)/.test(outcome), `the receipt says in German that the node accepted (${outcome})`);
    const answers = await run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant')].map((m) => m.textContent).join(' | ');`));
    check(answers.includes('Erledigt: Neustart von lnd angenommen'), `the built-in leg's answer is German (${answers})`);
    const germanBadges = await run(wrap(`return [...document.querySelectorAll('#messages .msg.assistant .badge')].map((b) => b.textContent);`));
    check(germanBadges.length > 0 && germanBadges.every((b) => b === 'eingebaut (SmolLM2-135M)'), `the answers are labelled in German (${JSON.stringify(germanBadges)})`);
    await screenshot('german-chat.png');
    await axe('the chat window in German after an approved action');
    // A dollar amount typed the German way is read as meant; one that reads two ways is refused, changing nothing.
    await focus('trusted');
    const germanUsd = await invokeIn('trusted_set_claude_allowance', { allowanceUsd: '7,50 $', period: 'monthly' });
    check(germanUsd.ok && germanUsd.ok.budget.claude.allowance_usd_micros === 7500000, `"7,50 $" is $7.50 (${JSON.stringify(germanUsd.err || germanUsd.ok.budget.claude)})`);
    const twoWays = await invokeIn('trusted_set_claude_allowance', { allowanceUsd: '1.000', period: 'monthly' });
    // Refused in the owner's language, saying what to write.
    check(twoWays.err && twoWays.err.code === 'invalid' && twoWays.err.message.includes('ohne Tausendertrennzeichen'), `"1.000" is refused as ambiguous, in German (${JSON.stringify(twoWays)})`);
    check((await invokeIn('trusted_settings')).ok.budget.claude.allowance_usd_micros === 7500000, 'the refused amount changed nothing');
    await invokeIn('trusted_set_claude_allowance', { allowanceUsd: '0', period: 'monthly' });
    await focus('main');
    log('PASSED (German: chat, summary, Deny first, approved, lnd restarted)');

    // The pseudo-locale (en-XA) on every page state reached: the chat, the trusted settings, a confirmation.
    await focus('trusted');
    const set = await invokeIn('trusted_set_locale', { locale: 'en-XA' });
    check(set.ok && set.ok.language.effective === 'en-XA', `the pseudo-locale is set by its tag (${JSON.stringify(set.err || set.ok.language)})`);
    await run(wrap('location.reload(); return true;')).catch(() => {});
    const pseudoCheck = async (state) => {
      const r = await until(`${state} in the pseudo-locale`, async () => {
        const got = await run(wrap(ESCAPED)).catch(() => null);
        return got && got.lang === 'en-XA' ? got : null;
      }, 10000);
      log(`pseudo-locale, ${state}: ${r.escaped.length} strings escaped the catalogue`, r.escaped.length ? JSON.stringify(r.escaped) : '');
      check(r.escaped.length === 0, `no untranslated string in ${state}: ${JSON.stringify(r.escaped)}`);
    };
    await focus('trusted');
    // The settings are drawn (the tool list and the price table, whose titles are checked too) before the check.
    await until('the trusted settings drawn', () => run(wrap(`return document.documentElement.lang === 'en-XA'
      && document.querySelectorAll('#grants li').length > 0 && document.querySelectorAll('#prices-rows tr').length > 0;`)), 10000);
    await pseudoCheck('the trusted window (settings)');
    await screenshot('pseudo-trusted-settings.png');
    await focus('main');
    // The host reloaded the chat window for the new language; it reopened the conversation it had open.
    await until('the chat window to reopen its conversation after the reload', () => run(wrap(`return document.documentElement.lang === 'en-XA'
      && [...document.querySelectorAll('#messages .msg.user')].some((m) => m.textContent.includes('Starte LND neu'));`)), 10000);
    await pseudoCheck('the chat window');
    await run(wrap(`const input = document.getElementById('composer-input'); input.value = 'restart lnd'; document.getElementById('composer').requestSubmit(); return true;`));
    await focus('trusted');
    await until('the pseudo-locale confirmation', async () => {
      const r = await invokeIn('trusted_pending');
      return r.ok && r.ok.length === 1 && await focusedId() === 'deny';
    }, 120000, 250);
    await pseudoCheck('the trusted window with a pending confirmation');
    await screenshot('pseudo-trusted-pending.png');
    await wd('POST', s(`/element/${await el('#deny')}/click`), {});
    await focus('main');
    await until('the turn to end', () => run(wrap(`return document.getElementById('send').getAttribute('aria-disabled') === 'false';`)), 20000);
    await pseudoCheck('the chat window after a denied action');
    await screenshot('pseudo-chat.png');
    log('PASSED (pseudo-locale: no untranslated string in either window)');
  } catch (error) {
    failure = error;
  } finally {
    await wd('DELETE', s('')).catch(() => {});
  }
}
if (!failure) log(`axe-core ${JSON.parse(fs.readFileSync(path.join(here, 'node_modules/axe-core/package.json'), 'utf8')).version} found no WCAG 2.2 A/AA violation in ${axeStates.length} states: ${axeStates.join('; ')}`);
if (failure) {
  console.error(failure.stack || String(failure));
  process.exit(1);
}
process.exit(0);
