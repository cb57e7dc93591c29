// The LAN service's sign-in page: posts the passphrase to this origin's api/login and, once signed in, opens the
// origin's page (the chat, or the trusted page). Relative URLs only: the service may sit under a base path.
const $ = (id) => document.getElementById(id);

async function start() {
  const session = await fetch('api/session', { credentials: 'same-origin', cache: 'no-store' }).then((r) => r.json());
  if (session.signed_in) {
    window.location.replace('./');
    return;
  }
  if (session.problem) {
    $('login-status').className = 'status error';
    $('login-status').textContent = session.problem;
  }
  if (session.origin === 'trusted') {
    document.body.classList.add('trusted-origin');
    $('login-title').textContent = 'AIUI trusted origin: owner sign-in';
    $('login-intro').textContent = 'Confirmations and settings. Only the node\'s owner signs in here, with the approval passphrase or a TOTP code.';
    // The service does not say whether a TOTP code is set before sign-in: the label names both.
    $('login-label').textContent = 'Approval passphrase (or TOTP code)';
  } else {
    $('login-intro').textContent = 'Chat with the assistant of this node. Ask the node\'s owner for the LAN passphrase.';
    $('login-label').textContent = 'LAN passphrase';
  }
  $('login-passphrase').focus();
  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('login-submit').disabled = true;
    $('login-status').className = 'status';
    $('login-status').textContent = 'Checking…';
    try {
      const response = await fetch('api/login', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(credentials()),
      });
      const body = await response.json().catch(() => ({ message: `The service answered ${response.status}.` }));
      if (body.code === 'code_required') {
        // Said only once the passphrase was found right: now the second factor.
        $('login-code-field').hidden = false;
        $('login-status').className = 'status';
        $('login-status').textContent = body.message;
        $('login-code').focus();
        return;
      }
      if (!response.ok) {
        $('login-status').className = 'status error';
        $('login-status').textContent = body.message;
        $('login-passphrase').select();
        return;
      }
      window.location.replace('./');
    } catch (error) {
      $('login-status').className = 'status error';
      $('login-status').textContent = `The service could not be reached: ${error}`;
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
