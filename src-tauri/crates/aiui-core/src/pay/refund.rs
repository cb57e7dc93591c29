//! The provider's refund endpoint (`POST /v1/wallet/refund` with the original token, routstr.md §2/§7): how a
//! payment whose outcome is unknown (a 500 without change, a timeout, a crash) gets its change back. Used by the
//! Routstr leg right after a failure and by `reconcile` later, across runs.

use std::time::Duration;

use reqwest::header::HeaderValue;
use serde_json::Value;
use url::Url;

use crate::Secret;
use crate::net::guard::{AddressPolicy, Guard};
use crate::net::{self, ClientSpec, OutboundClient, TlsPolicy};

const MAX_REFUND_BYTES: usize = 64 * 1024;

/// What the refund endpoint said.
#[derive(Debug)]
pub enum RefundAnswer {
    /// A token to receive. A 200 is not proof of value (§7): only what the paid mint credits counts.
    Token(Secret<String>),
    /// 425: the request is still in flight at the provider; ask again after the wait.
    Pending(Duration),
    /// 404, 410 or another 4xx: the provider itself says no refund is coming from this endpoint.
    Refused(u16),
    /// The endpoint could not be asked, or did not answer for itself: refused by the SSRF guard, unreachable, a body
    /// that does not parse, or a 5xx (a proxy in front of a provider that is down says 502/503/504; refunds are
    /// kept for months, so an outage must never use up the tries).
    Unreachable(String),
}

/// How to reach providers' refund endpoints: the one outbound door, the SSRF guard (which also resolves the
/// names the clearnet client connects to), and Tor for onions.
#[derive(Debug)]
pub struct RefundClient {
    clearnet: OutboundClient,
    tor: Option<OutboundClient>,
    guard: Guard,
}

impl RefundClient {
    pub fn new(policy: AddressPolicy, tor_socks: Option<std::net::SocketAddr>) -> Result<Self, net::ClientBuildError> {
        Self::with_guard(Guard::new(policy), tor_socks)
    }

    pub fn with_guard(guard: Guard, tor_socks: Option<std::net::SocketAddr>) -> Result<Self, net::ClientBuildError> {
        let spec = ClientSpec {
            tls: TlsPolicy::PublicRoots,
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
        };
        let clearnet = net::guarded_client(&spec, &guard)?;
        let tor = tor_socks.map(|proxy| net::client_via_socks(&spec, proxy)).transpose()?;
        Ok(Self { clearnet, tor, guard })
    }

    /// Asks `endpoint` (the provider's base URL, as recorded in the ledger) once for the refund of `token`.
    pub async fn ask(&self, endpoint: &str, token: &Secret<String>) -> RefundAnswer {
        let Ok(base) = Url::parse(endpoint) else {
            return RefundAnswer::Unreachable(format!("{endpoint:?} is not a URL"));
        };
        let onion = base.host_str().is_some_and(|h| h.ends_with(".onion"));
        if let Err(refused) = self.guard.check_http(&base, self.tor.is_some()).await {
            return RefundAnswer::Unreachable(format!("the endpoint is refused: {refused}"));
        }
        let client = match (onion, &self.tor) {
            (true, Some(tor)) => tor,
            (true, None) => return RefundAnswer::Unreachable("an onion endpoint without Tor".into()),
            (false, _) => &self.clearnet,
        };
        let mut base = base;
        if !base.path().ends_with('/') {
            let path = format!("{}/", base.path());
            base.set_path(&path);
        }
        let Ok(url) = base.join("v1/wallet/refund") else {
            return RefundAnswer::Unreachable("no refund URL".into());
        };
        let Ok(mut header) = HeaderValue::from_str(token.expose()) else {
            return RefundAnswer::Unreachable("the token cannot be sent in a header".into());
        };
        header.set_sensitive(true);
        let ask = || client.http.post(url.clone()).header(super::CASHU_HEADER, header.clone()).send();
        let response = match ask().await {
            Ok(response) => response,
            // A kept-alive connection the provider closed just as it was reused (uvicorn closes idle ones after
            // 5 s, the very wait between two asks): asking again, on a new connection, is safe, since the
            // endpoint answers the same token the same way.
            Err(e) if !e.is_timeout() && !e.is_connect() => {
                tracing::info!(error = %net::describe(&e), "refund: the connection closed under the request; asking again");
                match ask().await {
                    Ok(response) => response,
                    Err(e) => return RefundAnswer::Unreachable(net::describe(&e)),
                }
            }
            Err(e) => return RefundAnswer::Unreachable(net::describe(&e)),
        };
        let status = response.status().as_u16();
        match status {
            200 => {
                let body = net::read_capped(response, MAX_REFUND_BYTES).await.unwrap_or_default();
                match serde_json::from_slice::<Value>(&body).ok().and_then(|v| v["token"].as_str().map(str::to_owned)) {
                    Some(token) if !token.trim().is_empty() => RefundAnswer::Token(Secret::new(token)),
                    _ => RefundAnswer::Unreachable("a 200 without a token".into()),
                }
            }
            425 => {
                let wait = response
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs)
                    .unwrap_or(Duration::ZERO);
                RefundAnswer::Pending(wait)
            }
            server_error @ 500..=599 => {
                RefundAnswer::Unreachable(format!("the refund endpoint answered {server_error}, a server error"))
            }
            other => RefundAnswer::Refused(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// Reads one request head; `false` when the peer closed first.
    async fn read_head(socket: &mut tokio::net::TcpStream) -> bool {
        let mut seen = Vec::new();
        let mut byte = [0u8; 1];
        while !seen.ends_with(b"\r\n\r\n") {
            match socket.read(&mut byte).await {
                Ok(1) => seen.push(byte[0]),
                _ => return false,
            }
        }
        true
    }

    #[tokio::test]
    async fn a_kept_alive_connection_closed_by_the_provider_is_asked_again_on_a_new_one() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let endpoint = format!("http://{}/", listener.local_addr().unwrap());
        let server = tokio::spawn(async move {
            let body = r#"{"token":"cashuBrefund","sats":"5"}"#;
            let answer = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            );
            // The first connection answers once, then closes when the next request arrives on it, as a server
            // does whose keep-alive timer ran out at that moment.
            let (mut first, _) = listener.accept().await.unwrap();
            assert!(read_head(&mut first).await);
            first.write_all(answer.as_bytes()).await.unwrap();
            read_head(&mut first).await;
            drop(first);
            let (mut second, _) = listener.accept().await.unwrap();
            assert!(read_head(&mut second).await);
            second.write_all(answer.as_bytes()).await.unwrap();
            read_head(&mut second).await;
        });
        let client = RefundClient::new(AddressPolicy::AllowPrivateForTests, None).unwrap();
        let token = Secret::new("cashuBpaid".to_owned());
        assert!(matches!(client.ask(&endpoint, &token).await, RefundAnswer::Token(_)));
        let again = client.ask(&endpoint, &token).await;
        assert!(matches!(again, RefundAnswer::Token(_)), "{again:?}");
        server.abort();
    }
}
