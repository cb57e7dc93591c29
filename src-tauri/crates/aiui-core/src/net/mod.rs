//! The one outbound door: every HTTP client in AIUI is built here, with timeouts, a TLS policy and body caps.
//!
//! `clippy.toml` forbids `reqwest::Client::new`/`builder` everywhere else, so a new caller cannot forget the
//! timeouts or the certificate policy. Addresses from untrusted data go through [`guarded_client`], whose names
//! are resolved once by [`guard::Guard`] and connected to only at the addresses it checked.

pub mod guard;
mod pinning;

use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

pub use pinning::{Fingerprint, FingerprintParseError};

/// How the server's certificate is judged.
#[derive(Debug, Clone)]
pub enum TlsPolicy {
    /// The operating system's trust store: for public services such as a cloud backend.
    PublicRoots,
    /// Exactly this certificate (by SHA-256 of its DER), whatever its issuer: for the node's self-signed
    /// certificate, after the owner accepted its fingerprint.
    Pinned(Fingerprint),
    /// Any certificate, recording what was presented. Only for showing the owner a fingerprint before they
    /// decide to trust it: nothing secret may be sent on such a client.
    RecordOnly,
}

/// What the server presented during the last TLS handshake, so a refused pin can be reported with both values.
#[derive(Debug, Clone, Default)]
pub struct PresentedCert(Arc<Mutex<Option<Fingerprint>>>);

impl PresentedCert {
    pub fn get(&self) -> Option<Fingerprint> {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn set(&self, fingerprint: Fingerprint) {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(fingerprint);
    }
}

/// Settings for one outbound client. Every field has a safe default; there is no way to build a client without
/// a timeout.
#[derive(Debug, Clone)]
pub struct ClientSpec {
    pub tls: TlsPolicy,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
}

impl Default for ClientSpec {
    fn default() -> Self {
        Self {
            tls: TlsPolicy::PublicRoots,
            connect_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
        }
    }
}

/// A built client plus what it saw of the server's certificate.
#[derive(Debug, Clone)]
pub struct OutboundClient {
    pub http: reqwest::Client,
    pub presented: PresentedCert,
}

/// Why a client could not be built. This is a local fault (TLS setup), never the server's.
#[derive(Debug, thiserror::Error)]
#[error("could not set up the HTTP client: {0}")]
pub struct ClientBuildError(String);

/// Builds the only kind of HTTP client AIUI uses. Redirects are never followed: a redirect to another host is
/// how an SSRF or a credential leak starts, and none of our peers needs one.
pub fn client(spec: &ClientSpec) -> Result<OutboundClient, ClientBuildError> {
    build(spec, |builder| builder)
}

/// The same client for addresses taken from untrusted data: every name is resolved once by `guard`, every address
/// it gave is checked, and the connection goes to exactly those addresses (reqwest does not resolve again), so a
/// name cannot pass the check and then point the request at the LAN (DNS rebinding). A literal address is not
/// resolved at all: check it first with [`guard::Guard::check`].
pub fn guarded_client(spec: &ClientSpec, guard: &guard::Guard) -> Result<OutboundClient, ClientBuildError> {
    let resolver = Arc::new(GuardedResolve(guard.clone()));
    // No proxy from the environment either: a proxy would resolve the name itself, past the guard.
    build(spec, |builder| builder.no_proxy().dns_resolver(resolver))
}

fn build(
    spec: &ClientSpec,
    extra: impl FnOnce(reqwest::ClientBuilder) -> reqwest::ClientBuilder,
) -> Result<OutboundClient, ClientBuildError> {
    install_crypto_provider();
    let presented = PresentedCert::default();
    #[allow(clippy::disallowed_methods)] // This module is the one place allowed to build a reqwest client.
    let mut builder = reqwest::Client::builder()
        .connect_timeout(spec.connect_timeout)
        .timeout(spec.request_timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("aiui/", env!("CARGO_PKG_VERSION")));
    match &spec.tls {
        TlsPolicy::PublicRoots => {}
        TlsPolicy::Pinned(pin) => {
            builder = builder.tls_backend_preconfigured(pinning::client_config(Some(*pin), presented.clone()));
        }
        TlsPolicy::RecordOnly => {
            builder = builder.tls_backend_preconfigured(pinning::client_config(None, presented.clone()));
        }
    }
    let http = extra(builder).build().map_err(|e| ClientBuildError(e.to_string()))?;
    Ok(OutboundClient { http, presented })
}

/// reqwest's resolver hook, answering only with addresses the guard checked.
struct GuardedResolve(guard::Guard);

impl reqwest::dns::Resolve for GuardedResolve {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let guard = self.0.clone();
        Box::pin(async move {
            let ips = guard.resolve(name.as_str()).await?;
            // Port 0: the connector puts the URL's port on each address.
            let addrs: reqwest::dns::Addrs = Box::new(ips.into_iter().map(|ip| std::net::SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}

/// The guard's refusal inside a failed request, if that is why it failed (reqwest's own message hides it).
pub fn refusal(error: &reqwest::Error) -> Option<&guard::Refused> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(error);
    while let Some(cause) = source {
        if let Some(refused) = cause.downcast_ref::<guard::Refused>() {
            return Some(refused);
        }
        source = cause.source();
    }
    None
}

/// What went wrong with a request, in words: the guard's refusal when there is one.
pub fn describe(error: &reqwest::Error) -> String {
    match refusal(error) {
        Some(refused) => format!("the address is refused: {refused}"),
        None if error.is_timeout() => "the request timed out".to_owned(),
        None => {
            // reqwest's top line names only the URL; the innermost cause says what happened.
            let mut cause: &(dyn std::error::Error + 'static) = error;
            while let Some(next) = cause.source() {
                cause = next;
            }
            if error.is_connect() { format!("the connection failed: {cause}") } else { format!("{error}: {cause}") }
        }
    }
}

/// The same client, with every connection through a SOCKS5 proxy (Tor). Names are resolved by the proxy
/// (`socks5h`), so an onion address never reaches our DNS.
pub fn client_via_socks(spec: &ClientSpec, proxy: std::net::SocketAddr) -> Result<OutboundClient, ClientBuildError> {
    let proxy = reqwest::Proxy::all(format!("socks5h://{proxy}")).map_err(|e| ClientBuildError(e.to_string()))?;
    build(&ClientSpec { tls: TlsPolicy::PublicRoots, ..spec.clone() }, |builder| builder.proxy(proxy))
}

/// A response body read up to a limit, so a hostile or broken peer cannot exhaust memory.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    #[error("the response was larger than {limit} bytes")]
    TooLarge { limit: usize },
    #[error("the response body could not be read: {0}")]
    Read(#[source] reqwest::Error),
}

/// Reads a body, refusing it as soon as it passes `limit` bytes (a lying `Content-Length` does not help).
pub async fn read_capped(mut response: reqwest::Response, limit: usize) -> Result<Vec<u8>, BodyError> {
    if response.content_length().is_some_and(|len| len > limit as u64) {
        return Err(BodyError::TooLarge { limit });
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Read)? {
        if body.len() + chunk.len() > limit {
            return Err(BodyError::TooLarge { limit });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// rustls needs one process-wide crypto provider. We use ring, because cdk does and one is enough; doing it here
/// means no caller can build a client before it is installed.
pub fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Another part of the process may have installed the same provider first; either way one is in place.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}
