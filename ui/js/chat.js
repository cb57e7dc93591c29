// The chat window: conversations, a turn's events streamed into the log (each new item said once, with its
// speaker, through a live announcer), surfaces as cards, notices, the "no backend" panel, what each answer and the
// conversation cost (the host's words), a read-only meter of both allowances, and buttons that only *ask* for the
// trusted window.
import { invoke, channel, lan } from './ipc.js';
import { renderText, renderLine } from './text.js';
import { renderSurface, surfaceSummary } from './surfaces.js';
import { enableZoom, keepTextMenus } from './zoom.js';
import { attachKeyboard } from './keyboard.js';
import { drawMeter } from './meter.js';
import { t, loadText, pageLang, formatDateTime, formatNoCost, formatSats, formatUsd, backendName, stateName } from './l10n.js';

const $ = (id) => document.getElementById(id);
const messages = $('messages');
const input = $('composer-input');
const send = $('send');

let current = null; // the open conversation's id, or null for a new one

// The open conversation survives a reload of this page (a language change in the trusted window reloads it); a page
// opened afresh starts a new one, as before.
function setCurrent(id) {
  current = id;
  try {
    if (id) sessionStorage.setItem('aiui-conversation', id);
    else sessionStorage.removeItem('aiui-conversation');
  } catch (error) {
    // Storage turned off: a reload opens a new conversation, and the old one is still in the list.
  }
}

function rememberedConversation() {
  const [navigation] = performance.getEntriesByType('navigation');
  if (!navigation || navigation.type !== 'reload') return null;
  try {
    return sessionStorage.getItem('aiui-conversation');
  } catch (error) {
    return null;
  }
}
let busy = false;

// What the node, the owner or the model wrote, in an element of its own marked as data (never the host's words).
function data(content, tag = 'span') {
  const element = document.createElement(tag);
  element.translate = false;
  element.append(content);
  return element;
}

function scrollDown() {
  messages.scrollTop = messages.scrollHeight;
}

// Said once by a screen reader; the log itself is silent, so a conversation's history is not read out on open.
function announce(text, isData = false) {
  const region = $('announcer');
  const line = document.createElement('p');
  line.textContent = text;
  if (isData) line.translate = false;
  region.append(line);
  while (region.childElementCount > 3) region.firstElementChild.remove();
}

function speaker(name) {
  const label = document.createElement('span');
  label.className = 'sr-only';
  label.textContent = t('chat-speaker', { name });
  return label;
}

function item(className, ...children) {
  const li = document.createElement('li');
  li.className = className;
  li.append(...children);
  messages.append(li);
  scrollDown();
  return li;
}

function addUser(text) {
  item('msg user', speaker(t('chat-you')), data(text));
}

function assistantName(backend) {
  return backend ? t('chat-assistant-backend', { backend }) : t('chat-assistant');
}

function addAssistant(text, backend, cost) {
  const li = item('msg assistant glass', speaker(assistantName(backend)), data(renderText(text), 'div'));
  if (backend) {
    // Shown for the eye; the speaker label above already says it to a screen reader.
    const badge = data(backend);
    badge.className = 'badge';
    badge.setAttribute('aria-hidden', 'true');
    li.append(badge);
    scrollDown();
  }
  if (cost) li.append(costLine(spendLabel(cost)));
  return li;
}

// What a step, a turn or a conversation cost, in the page's language from the host's figures: dollars and sats each
// in its own unit, and `$0` when it all ran on this machine.
function spendLabel(spend) {
  const parts = [];
  if (Number(spend.usd_micros) > 0) parts.push(formatUsd(spend.usd_micros));
  if (Number(spend.sats) > 0) parts.push(formatSats(spend.sats));
  return parts.length ? parts.join(' + ') : formatNoCost();
}

// One step's token counts and cost: "claude-sonnet-4-5: 1,804 input, 22 output tokens ($0.0165)".
function stepDetail(step) {
  const counts = [t('chat-cost-input', { count: Number(step.input_tokens) }), t('chat-cost-output', { count: Number(step.output_tokens) })];
  if (Number(step.cache_write_tokens) > 0) counts.push(t('chat-cost-cache-write', { count: Number(step.cache_write_tokens) }));
  if (Number(step.cache_read_tokens) > 0) counts.push(t('chat-cost-cache-read', { count: Number(step.cache_read_tokens) }));
  return t(step.free ? 'chat-cost-step-free' : 'chat-cost-step', { backend: backendName(step.backend_id, step.backend), counts: counts.join(', '), cost: spendLabel(step) });
}

// An answer's cost, quietly under its backend label, and (live) each step's token counts on demand.
// No <p> inside: an answer's paragraphs are its text alone.
function costLine(label, details = []) {
  const box = document.createElement(details.length ? 'details' : 'div');
  box.className = 'cost';
  const head = document.createElement(details.length ? 'summary' : 'span');
  head.textContent = t('chat-cost', { label });
  box.append(head);
  if (details.length) {
    const list = document.createElement('ul');
    list.append(...details.map((detail) => {
      const li = document.createElement('li');
      li.translate = false;
      li.textContent = detail;
      return li;
    }));
    box.append(list);
  }
  return box;
}

// The running turn's cost: every step's detail so far and the turn's total, drawn under its latest answer.
let turnCost = null; // { label, details: [], answer: li or null, line: element or null }

function drawTurnCost() {
  if (!turnCost || !turnCost.answer) return;
  const open = turnCost.line && turnCost.line.open;
  const line = costLine(turnCost.label, turnCost.details);
  line.open = Boolean(open);
  if (turnCost.line) turnCost.line.remove();
  turnCost.answer.append(line);
  turnCost.line = line;
}

function answered(li) {
  if (!turnCost) return;
  turnCost.answer = li;
  drawTurnCost();
}

// The answer being written: one list item whose text grows. Pieces arrive as fast as the model writes (100 a second
// or more), so they are gathered and added to one text node once per animation frame, never by re-rendering.
let writing = null; // { li, text: Text node, pending: string, frame: id or null }

function addDelta(text, backend) {
  if (!writing) {
    const body = document.createElement('div');
    body.className = 'text streaming-text';
    body.translate = false;
    const node = document.createTextNode('');
    body.append(node);
    const li = item('msg assistant glass streaming', speaker(assistantName(backend)), body);
    if (backend) {
      const badge = data(backend);
      badge.className = 'badge';
      badge.setAttribute('aria-hidden', 'true');
      li.append(badge);
    }
    writing = { li, body, node, pending: '', frame: null };
    answered(li);
    // Said once; the growing text itself is not read out piece by piece.
    announce(t('chat-announce-writing', { name: assistantName(backend) }));
  }
  writing.pending += text;
  if (writing.frame === null) {
    writing.frame = requestAnimationFrame(() => {
      if (!writing) return;
      writing.node.appendData(writing.pending);
      writing.pending = '';
      writing.frame = null;
      scrollDown();
    });
  }
}

// The whole answer arrived: the growing item becomes the answer as every other is drawn.
function finishWriting(text) {
  const done = writing;
  writing = null;
  if (done.frame !== null) cancelAnimationFrame(done.frame);
  done.body.replaceWith(data(renderText(text), 'div'));
  done.li.classList.remove('streaming');
  scrollDown();
}

// `text` is the host's (a loop notice, an error it reported): shown as data. The page's own notices (made with t())
// pass `isData` false.
function addNotice(text, extra = '', isData = true) {
  const line = isData ? data(renderLine(text)) : renderLine(text);
  item(`msg notice ${extra}`, speaker(t('chat-notice')), line);
}

// A budget stop says so plainly and offers the top-up, which only asks for the trusted window.
function addBudgetStop(text) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn small';
  button.textContent = t('chat-top-up-short');
  button.addEventListener('click', openTrusted);
  const title = document.createElement('strong');
  title.textContent = t('chat-budget-stop-title');
  item('msg notice stop budget-stop', title, document.createTextNode(' '), data(text), document.createElement('br'), button);
}

function addSurface(surface) {
  return item('msg surface', renderSurface(surface));
}

// "Did you mean …?" answers offer host-written replies: one tap sends one, as if it had been typed. Once the
// owner moves on (taps, or sends anything), the old choices are spent.
function addChoices(choices) {
  const group = document.createElement('div');
  group.className = 'choices';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', t('chat-choices.aria-label'));
  group.append(...choices.map((choice) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'btn choice';
    button.textContent = choice;
    button.translate = false;
    // The tapped button is about to be spent (disabled): the focus goes where the next question is typed.
    button.addEventListener('click', () => {
      input.focus();
      ask(choice);
    });
    return button;
  }));
  item('msg choices-item', group);
}

function retireChoices() {
  for (const button of messages.querySelectorAll('.choices button')) button.disabled = true;
}

// Right below the question it answers, in plain words first; the host's reasons per assistant follow as details.
function showNoBackend(message) {
  const title = document.createElement('h2');
  title.textContent = t('chat-no-backend-title');
  const lead = document.createElement('p');
  lead.textContent = t('chat-no-backend-lead');
  const details = document.createElement('details');
  const why = document.createElement('summary');
  why.textContent = t('chat-no-backend-why');
  const reasons = data(renderText(message), 'div');
  details.append(why, reasons);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn primary';
  button.textContent = t('chat-no-backend-button');
  button.addEventListener('click', openTrusted);
  item('msg panel glass warn no-backend', title, lead, details, button);
  announce(t('chat-announce-no-backend', { title: title.textContent, lead: lead.textContent }));
}

// Send stays enabled (aria-disabled while a turn runs), so the focus on it is never lost; a second press is ignored.
function setBusy(value) {
  busy = value;
  send.setAttribute('aria-disabled', String(value));
  send.textContent = value ? t('chat-working') : t('chat-send');
  $('stop').hidden = !value;
  if (value) announce(t('chat-working'));
}

// Stop (the button, or Escape while an answer is written): the host keeps what was written, marked stopped.
async function stopTurn() {
  if (!busy) return;
  $('stop').setAttribute('aria-disabled', 'true');
  try {
    await invoke('chat_stop');
  } catch (error) {
    addNotice(t('chat-stop-failed', { error: String(error.message || error) }), 'stop', false);
  } finally {
    $('stop').removeAttribute('aria-disabled');
  }
}

function onEvent(event) {
  switch (event.event) {
    case 'backend_chosen':
      break;
    case 'text_delta':
      addDelta(event.text, backendName(event.backend_id, event.backend));
      break;
    case 'text':
      if (writing) finishWriting(event.text);
      else answered(addAssistant(event.text, backendName(event.backend_id, event.backend)));
      announce(t('chat-announce-said', { name: assistantName(backendName(event.backend_id, event.backend)), text: event.text }));
      break;
    case 'spent':
      if (turnCost) {
        turnCost.label = spendLabel(event.turn);
        turnCost.details.push(stepDetail(event.step));
        drawTurnCost();
      }
      break;
    case 'choices':
      addChoices(event.choices);
      announce(t('chat-announce-choices', { choices: event.choices.join('; ') }));
      break;
    case 'tool_proposed':
      break;
    case 'awaiting_confirmation':
      $('pending-summary').replaceChildren(renderLine(event.summary));
      $('pending').hidden = false;
      break;
    case 'surface': {
      $('pending').hidden = true;
      const li = addSurface(event.surface);
      announce(t('chat-announce-card', { summary: surfaceSummary(li) }));
      refreshApps();
      break;
    }
    case 'notice':
      addNotice(event.text);
      announce(t('chat-announce-notice', { text: event.text }));
      break;
    case 'stopped':
      $('pending').hidden = true;
      if (event.reason === 'no_backend') showNoBackend(event.message);
      else if (event.reason === 'budget_stop') addBudgetStop(event.message);
      else addNotice(event.message, 'stop');
      if (event.reason !== 'no_backend') announce(t('chat-announce-stopped', { message: event.message }));
      finishTurn();
      break;
    case 'done':
      finishTurn();
      break;
    case 'failed':
      addNotice(t('chat-failed', { message: event.message }), 'stop', false);
      announce(t('chat-failed', { message: event.message }));
      finishTurn();
      break;
    default:
      break;
  }
}

function finishTurn() {
  if (writing) finishWriting(writing.node.data + writing.pending);
  $('pending').hidden = true;
  setBusy(false);
  turnCost = null;
  loadConversations();
  refreshApps();
  refreshAllowance();
  refreshSuggestions();
  refreshTotal();
}

// The open conversation's total, as the host added it up from the store.
function showTotal(total) {
  const line = $('conversation-total');
  line.textContent = total ? t('chat-conversation-total', { label: spendLabel(total) }) : '';
  line.hidden = !total;
}

async function refreshTotal() {
  if (!current) return showTotal(null);
  const id = current;
  try {
    const detail = await invoke('conversation_load', { id });
    if (current === id) showTotal(detail.total);
  } catch (error) {
    // The total is a convenience; the answers and their costs are already drawn.
  }
}

let touch = false; // the kiosk layout: suggested questions, and (on the node's own screen) the on-screen keyboard
let keyboard = null;

// One tap asks a question built from the node's state now; the list is rebuilt after every turn.
async function refreshSuggestions() {
  const box = $('suggestions');
  if (!touch) return;
  let questions = [];
  try {
    questions = await invoke('chat_suggestions');
  } catch (error) {
    questions = [];
  }
  box.replaceChildren(...questions.map((question) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'btn suggestion';
    button.textContent = question;
    button.translate = false;
    button.addEventListener('click', () => ask(question));
    return button;
  }));
  box.hidden = questions.length === 0;
}

const shownNotices = new Set();

// The meter is read only: `allowance_get` is the chat window's only view of either allowance.
async function refreshAllowance() {
  let a;
  try {
    a = await invoke('allowance_get');
  } catch (error) {
    $('allowance-summary').textContent = t('chat-allowance-unreadable');
    return;
  }
  drawMeter(a);
  for (const notice of a.notices) {
    if (shownNotices.has(notice)) continue;
    shownNotices.add(notice);
    addNotice(notice);
    announce(t('chat-announce-notice', { text: notice }));
  }
}

async function submit(event) {
  event.preventDefault();
  await ask(input.value.trim());
}

async function ask(text) {
  if (!text || busy) return;
  // The answer needs the room the on-screen keyboard takes.
  if (keyboard) keyboard.hide();
  retireChoices();
  setBusy(true);
  turnCost = { label: '', details: [], answer: null, line: null };
  addUser(text);
  input.value = '';
  try {
    setCurrent(await invoke('chat_send', { conversation: current, text, onEvent: channel(onEvent) }));
    loadConversations();
  } catch (error) {
    setBusy(false);
    turnCost = null;
    addNotice(error.message, 'stop');
    announce(error.message, true);
  }
}

async function loadConversations() {
  let list = [];
  try {
    list = await invoke('conversations_list');
  } catch (error) {
    return;
  }
  const ul = $('conversations');
  ul.replaceChildren(...list.map((c) => {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    // The title is the conversation's own (data); the page names one that has none.
    if (c.title) button.append(data(c.title));
    else button.textContent = t('chat-untitled');
    const meta = document.createElement('span');
    meta.className = 'meta';
    const count = Number(c.message_count);
    const form = new Intl.PluralRules(pageLang()).select(count) === 'one' ? 'chat-conversation-meta-one' : 'chat-conversation-meta-other';
    meta.textContent = t(form, { date: formatDateTime(new Date(c.updated_at_ms)), count });
    button.append(meta);
    button.setAttribute('aria-current', String(c.id === current));
    button.addEventListener('click', () => openConversation(c.id));
    li.append(button);
    return li;
  }));
}

// `reopening`: the conversation this page had open before a reload; if it is gone, a new one starts, quietly.
async function openConversation(id, reopening = false) {
  if (busy) return;
  try {
    const detail = await invoke('conversation_load', { id });
    setCurrent(detail.id);
    messages.replaceChildren();
    for (const entry of detail.items) {
      if (entry.kind === 'user') addUser(entry.text);
      else if (entry.kind === 'assistant') addAssistant(entry.text, backendName(entry.backend_id, entry.backend), entry.cost);
      else if (entry.kind === 'surface') addSurface(entry.surface);
      else if (entry.kind === 'notice') addNotice(entry.text);
    }
    showTotal(detail.total);
    loadConversations();
    input.focus();
  } catch (error) {
    if (reopening) setCurrent(null);
    else addNotice(error.message, 'stop');
  }
}

async function refreshApps() {
  const ul = $('apps');
  try {
    const apps = await invoke('node_packages');
    ul.replaceChildren(...apps.map((p) => {
      const li = document.createElement('li');
      li.dataset.app = p.id;
      // The app's name as the node reports it, and its state in the owner's words.
      const name = data(p.title || p.id);
      const state = data(stateName(p.state));
      state.className = `state ${p.state.replace(/[^a-z-]/g, '')}`;
      li.append(name, state);
      return li;
    }));
  } catch (error) {
    const li = document.createElement('li');
    // The node's own words (unreachable, or an answer that could not be read), as text.
    li.textContent = error.code === 'not_paired' ? t('chat-apps-not-paired') : t('chat-apps-unreadable', { error: error.message });
    ul.replaceChildren(li);
  }
}

function openTrusted() {
  invoke('request_trusted_window').catch(() => {});
}

async function start() {
  enableZoom();
  // Wired before the first await: a question sent while the page still loads is asked, never lost to the form's own
  // submission (which would reload the page).
  $('composer').addEventListener('submit', submit);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
  });
  // The page's words in the owner's language (and `lang` set, which the on-screen keyboard's layout follows).
  await loadText();
  const info = await invoke('app_info');
  // The node's own touchscreen is `aiui --kiosk`, or a browser on the LAN service opened with `?kiosk`; a phone
  // gets the same touch layout but keeps its own keyboard.
  const kioskScreen = info.kiosk || (lan && new URLSearchParams(window.location.search).has('kiosk'));
  touch = kioskScreen || (lan && window.matchMedia('(pointer: coarse)').matches);
  if (touch) {
    document.body.classList.add('kiosk');
    keepTextMenus();
  }
  if (kioskScreen) {
    keyboard = attachKeyboard(input, { host: $('composer').parentElement, toggle: $('keyboard-toggle'), send: () => ask(input.value.trim()) });
  }
  // On a node whose owner approves LAN requests on its own screen, the LAN chat says so instead of linking.
  if (info.approver === 'kiosk') {
    $('pending-where').textContent = t('chat-pending-where-kiosk');
    for (const button of document.querySelectorAll('#pending .open-trusted')) button.hidden = true;
  } else if (info.approver === 'both') {
    $('pending-where').textContent = t('chat-pending-where-both');
  }
  $('demo-banner').hidden = !info.demo;
  $('node-label').textContent = info.node ? t('chat-node-label', { url: info.node.url }) : '';
  if (info.unpaired) {
    $('unpaired-message').textContent = info.unpaired;
    $('unpaired').hidden = false;
  }
  for (const button of document.querySelectorAll('.open-trusted')) button.addEventListener('click', openTrusted);
  $('open-settings').addEventListener('click', openTrusted);
  $('top-up').addEventListener('click', openTrusted);
  // The owner changes the allowance in the other window; coming back here shows the new figures.
  window.addEventListener('focus', refreshAllowance);
  setInterval(refreshAllowance, 15000);
  $('stop').addEventListener('click', stopTurn);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && busy) stopTurn();
  });
  $('new-conversation').addEventListener('click', () => {
    if (busy) return;
    setCurrent(null);
    messages.replaceChildren();
    showTotal(null);
    loadConversations();
    refreshSuggestions();
    input.focus();
  });
  $('refresh-apps').addEventListener('click', refreshApps);
  await loadConversations();
  const remembered = rememberedConversation();
  if (remembered && !current) await openConversation(remembered, true);
  refreshApps();
  refreshAllowance();
  refreshSuggestions();
  input.focus();
}

// A page that could not start says why (the service unreachable, a session that ended) instead of sitting blank.
start().catch((error) => addNotice(error.message, 'stop'));
