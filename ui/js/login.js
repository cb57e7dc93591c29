// The LAN service's sign-in page: posts the passphrase to this origin's api/login and, once signed in, opens the
// origin's page (the chat, or the trusted page). Relative URLs only: the service may sit under a base path.
import { t, loadText } from './l10n.js';

const $ = (id) => document.getElementById(id);

// The status line: the page's own words, or (`isData`) the service's answer as it sent it.
function status(text, { error = false, isData = false } = {}) {
  $('login-status').className = error ? 'status error' : 'status';
  $('login-status').textContent = text;
  $('login-status').translate = !isData;
}

async function start() {
  // The page's words in the owner's language; the sign-in page needs no session for them.
  await loadText();
  const session = await fetch('api/session', { credentials: 'same-origin', cache: 'no-store' }).then((r) => r.json());
  if (session.signed_in) {
    window.location.replace('./');
    return;
  }
  if (session.problem) status(session.problem, { error: true, isData: true });
  if (session.origin === 'trusted') {
    document.body.classList.add('trusted-origin');
    $('login-title').textContent = t('login-heading-trusted');
    $('login-intro').textContent = t('login-intro-trusted');
    // The service does not say whether a TOTP code is set before sign-in: the label names both.
    $('login-label').textContent = t('login-label-trusted');
  } else {
    $('login-intro').textContent = t('login-intro-lan');
    $('login-label').textContent = t('login-label-lan');
  }
  $('login-passphrase').focus();
  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('login-submit').disabled = true;
    status(t('login-checking'));
    try {
      const response = await fetch('api/login', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(credentials()),
      });
      // An answer that is not JSON gets the page's own line, which is no data.
      let own = false;
      const body = await response.json().catch(() => {
        own = true;
        return { message: t('login-service-answered', { status: String(response.status) }) };
      });
      if (body.code === 'code_required') {
        // Said only once the passphrase was found right: now the second factor.
        $('login-code-field').hidden = false;
        status(body.message, { isData: true });
        $('login-code').focus();
        return;
      }
      if (!response.ok) {
        status(body.message, { error: true, isData: !own });
        $('login-passphrase').select();
        return;
      }
      window.location.replace('./');
    } catch (error) {
      status(t('login-unreachable', { error: String(error) }), { error: true });
    } finally {
      $('login-submit').disabled = false;
    }
  });
}

// The passphrase, and the TOTP code once the service asked for it too.
function credentials() {
  const body = { passphrase: $('login-passphrase').value };
  if (!$('login-code-field').hidden) body.code = $('login-code').value.trim();
  return body;
}

start();
