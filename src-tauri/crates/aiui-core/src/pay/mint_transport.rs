//! The wallet's way to mints: a cdk HTTP transport built on `aiui_core::net`, so cdk's mint requests get the same
//! door as everything else (timeouts, no redirects, capped bodies, the owner's Tor proxy, and the SSRF guard for
//! any mint the owner did not list).
//!
//! cdk's `HttpClient<T>` speaks the mint protocol over any `Transport`; this is that transport. Websockets (NUT-17)
//! are declined, so cdk watches quotes and proofs by polling over the same HTTP door.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use cdk::nuts::AuthToken;
use cdk_http_client::ws::{WsError, WsReceiver, WsSender};
use cdk_http_client::{HttpError, RawResponse};
use serde::Serialize;
use serde::de::DeserializeOwned;
use url::Url;

use crate::net::guard::Guard;
use crate::net::{self, ClientSpec, OutboundClient, TlsPolicy};

/// The most a mint's answer may hold. A keyset with all its keys is a few kB and a wallet asks for a few
/// hundred proofs' states at most; 4 MiB is far above any honest answer.
pub const MAX_MINT_REPLY_BYTES: usize = 4 * 1024 * 1024;

/// How mints are reached. Shared by every mint's transport, so the owner's list updates them all.
#[derive(Debug)]
pub(crate) struct MintDoor {
    /// The owner's own mints, which may be on the LAN or loopback (an Archipelago node can run one).
    owner: OutboundClient,
    /// Every other mint (a token's mint, a provider's change): names resolved once by the guard, public only.
    guarded: OutboundClient,
    /// The owner's Tor proxy: when set, every mint request goes through it, and no name is resolved here.
    tor: Option<OutboundClient>,
    guard: Guard,
    /// Origins (`scheme://host:port`) of the mints the owner listed.
    owner_mints: RwLock<HashSet<String>>,
    limit: usize,
}

impl MintDoor {
    pub(crate) fn new(
        guard: Guard,
        tor_socks: Option<SocketAddr>,
        limit: usize,
    ) -> Result<Self, net::ClientBuildError> {
        let spec = ClientSpec {
            tls: TlsPolicy::PublicRoots,
            // A Tor circuit takes a few seconds to build.
            connect_timeout: Duration::from_secs(15),
            request_timeout: Duration::from_secs(60),
        };
        Ok(Self {
            owner: net::client(&spec)?,
            guarded: net::guarded_client(&spec, &guard)?,
            tor: tor_socks.map(|proxy| net::client_via_socks(&spec, proxy)).transpose()?,
            guard,
            owner_mints: RwLock::new(HashSet::new()),
            limit,
        })
    }

    /// Marks these mints as the owner's: their addresses are not checked by the guard.
    pub(crate) fn trust(&self, mints: &[String]) {
        let origins: Vec<String> = mints.iter().filter_map(|m| origin_of(m)).collect();
        self.owner_mints.write().unwrap_or_else(|p| p.into_inner()).extend(origins);
    }

    fn is_owners(&self, url: &Url) -> bool {
        self.owner_mints.read().unwrap_or_else(|p| p.into_inner()).contains(&url.origin().ascii_serialization())
    }

    /// The client for this request, after the guard's checks that need no DNS (the guarded client does the rest
    /// when it resolves the name).
    fn route(&self, url: &Url) -> Result<&reqwest::Client, HttpError> {
        let owners = self.is_owners(url);
        if let Some(tor) = &self.tor {
            if !owners {
                self.guard.check_without_lookup(url, true).map_err(|refused| refused_error(url, &refused))?;
            }
            return Ok(&tor.http);
        }
        if owners {
            return Ok(&self.owner.http);
        }
        self.guard.check_without_lookup(url, false).map_err(|refused| refused_error(url, &refused))?;
        Ok(&self.guarded.http)
    }

    async fn send(&self, request: reqwest::RequestBuilder, url: &Url) -> Result<RawResponse, HttpError> {
        let response = request.send().await.map_err(|e| request_error(url, &e))?;
        let status = response.status().as_u16();
        let body = net::read_capped(response, self.limit).await.map_err(|e| match e {
            net::BodyError::TooLarge { limit } => HttpError::Other(format!(
                "the mint at {} sent an answer larger than {limit} bytes; it was not read",
                display_origin(url)
            )),
            net::BodyError::Read(e) => request_error(url, &e),
        })?;
        Ok(RawResponse::new(status, body))
    }
}

/// cdk's transport over [`MintDoor`].
#[derive(Debug, Clone)]
pub(crate) struct MintTransport(pub(crate) Arc<MintDoor>);

fn with_auth(request: reqwest::RequestBuilder, auth: Option<AuthToken>) -> reqwest::RequestBuilder {
    match auth {
        Some(auth) => request.header(auth.header_key(), auth.to_string()),
        None => request,
    }
}

#[async_trait::async_trait]
impl cdk::wallet::HttpTransport for MintTransport {
    async fn ws_connect(&self, url: &str, _headers: &[(&str, &str)]) -> Result<(WsSender, WsReceiver), WsError> {
        // A websocket would leave the door (cdk opens it with its own connector); polling goes through it.
        Err(WsError::NotSupported(format!("{url}: AIUI polls mints over HTTP instead of a websocket")))
    }

    fn with_proxy(&mut self, _proxy: Url, _matcher: Option<&str>, _invalid_certs: bool) -> Result<(), HttpError> {
        Err(HttpError::Proxy("the mint proxy is AIUI's own Tor setting".into()))
    }

    async fn http_get<R>(&self, url: Url, auth: Option<AuthToken>) -> Result<R, HttpError>
    where
        R: DeserializeOwned,
    {
        self.http_get_raw(url, auth).await?.json_or_status_error()
    }

    async fn http_get_raw(&self, url: Url, auth: Option<AuthToken>) -> Result<RawResponse, HttpError> {
        let client = self.0.route(&url)?;
        self.0.send(with_auth(client.get(url.clone()), auth), &url).await
    }

    async fn http_post<P, R>(&self, url: Url, auth: Option<AuthToken>, payload: &P) -> Result<R, HttpError>
    where
        P: Serialize + Send + Sync,
        R: DeserializeOwned,
    {
        let client = self.0.route(&url)?;
        let body = serde_json::to_vec(payload).map_err(|e| HttpError::Serialization(e.to_string()))?;
        let request = client.post(url.clone()).header(reqwest::header::CONTENT_TYPE, "application/json").body(body);
        self.0.send(with_auth(request, auth), &url).await?.json_or_status_error()
    }

    async fn http_post_form_raw<P>(
        &self,
        url: Url,
        auth: Option<AuthToken>,
        payload: &P,
    ) -> Result<RawResponse, HttpError>
    where
        P: Serialize + Send + Sync,
    {
        let client = self.0.route(&url)?;
        let request = client.post(url.clone()).form(payload);
        self.0.send(with_auth(request, auth), &url).await
    }
}

/// `scheme://host:port` of a mint URL as the owner wrote it.
fn origin_of(mint: &str) -> Option<String> {
    let url = Url::parse(&crate::budget::normalize_mint_url(mint)?).ok()?;
    Some(url.origin().ascii_serialization())
}

fn display_origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

fn refused_error(url: &Url, refused: &net::guard::Refused) -> HttpError {
    // `Other`, not `Connection`: cdk retries connection errors, and a refusal does not change on a retry.
    HttpError::Other(format!(
        "the mint at {} is refused: {refused}; only a mint you list yourself may be on your own network",
        display_origin(url)
    ))
}

fn request_error(url: &Url, error: &reqwest::Error) -> HttpError {
    if let Some(refused) = net::refusal(error) {
        return refused_error(url, refused);
    }
    if error.is_timeout() {
        return HttpError::Timeout;
    }
    let what = net::describe(error);
    if error.is_connect() { HttpError::Connection(what) } else { HttpError::Other(what) }
}
