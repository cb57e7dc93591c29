//! The one outbound door, tried from outside: the wallet's mint traffic through the owner's SOCKS5 proxy (and no
//! DNS of ours on the way), a mint's oversized answer, the SSRF guard for mints the owner did not list, and DNS
//! rebinding against the guarded clients that reach provider and refund endpoints.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::net::guard::{AddressPolicy, Guard, Lookup, NameLookup, Refused};
use aiui_core::net::{self, ClientSpec};
use aiui_core::pay::refund::{RefundAnswer, RefundClient};
use aiui_core::pay::{MAX_MINT_REPLY_BYTES, Wallet, WalletOptions};
use aiui_core::secrets::Secrets;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use url::Url;

use crate::support::mint::TestMint;
use crate::support::socks5::{PROXY_SOURCE, Socks5, Target};

const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
/// A public address (TEST-NET would be refused as documentation space). Never connected to: every test here
/// either refuses it before connecting or never hands it to a connection.
const PUBLIC: IpAddr = IpAddr::V4(Ipv4Addr::new(93, 184, 215, 14));

/// A resolver that answers `first` once and `then` ever after, counting lookups: the DNS-rebinding attacker.
#[derive(Debug)]
struct Rebinding {
    calls: AtomicUsize,
    first: Vec<IpAddr>,
    then: Vec<IpAddr>,
}

impl Rebinding {
    fn new(first: &[IpAddr], then: &[IpAddr]) -> Arc<Self> {
        Arc::new(Self { calls: AtomicUsize::new(0), first: first.to_vec(), then: then.to_vec() })
    }

    /// The same answer every time.
    fn fixed(answer: &[IpAddr]) -> Arc<Self> {
        Self::new(answer, answer)
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl NameLookup for Rebinding {
    fn lookup<'a>(&'a self, _host: &'a str) -> Lookup<'a> {
        let answer = if self.calls.fetch_add(1, Ordering::SeqCst) == 0 { &self.first } else { &self.then };
        let answer = answer.clone();
        Box::pin(async move { Ok(answer) })
    }
}

/// A loopback HTTP server that counts the connections it accepts and answers each request `{}`.
struct CountingServer {
    addr: SocketAddr,
    connections: Arc<AtomicUsize>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for CountingServer {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl CountingServer {
    async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let server = tokio::spawn({
            let connections = connections.clone();
            async move {
                while let Ok((mut stream, _)) = listener.accept().await {
                    connections.fetch_add(1, Ordering::SeqCst);
                    tokio::spawn(async move {
                        let mut request = Vec::new();
                        let mut buf = [0u8; 1024];
                        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                            match stream.read(&mut buf).await {
                                Ok(0) | Err(_) => return,
                                Ok(n) => request.extend_from_slice(&buf[..n]),
                            }
                        }
                        let reply = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\
                                     connection: close\r\n\r\n{}";
                        let _ = stream.write_all(reply.as_bytes()).await;
                    });
                }
            }
        });
        Self { addr, connections, server }
    }

    fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// This server under a name only the test's resolver knows.
    fn named_url(&self, name: &str) -> Url {
        Url::parse(&format!("http://{name}:{}/v1/info", self.addr.port())).unwrap()
    }
}

async fn open_wallet(options: WalletOptions) -> (tempfile::TempDir, Secrets, Wallet) {
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let wallet = reopen_wallet(dir.path(), &secrets, options).await;
    (dir, secrets, wallet)
}

async fn reopen_wallet(dir: &std::path::Path, secrets: &Secrets, options: WalletOptions) -> Wallet {
    Wallet::open_with(dir, secrets, WalletOptions { pace_requests: false, ..options }).await.expect("the wallet opens")
}

/// Funds `wallet` at `mint`: an invoice (the fake Lightning backend pays it at once), then the minting.
async fn fund(wallet: &Wallet, mint: &str, sats: u64) -> Result<u64, aiui_core::pay::PayError> {
    let invoice = wallet.mint_invoice(mint, sats).await?;
    wallet.wait_minted(mint, &invoice.quote_id, Duration::from_secs(20)).await
}

#[tokio::test]
async fn mint_traffic_goes_through_the_owners_socks_proxy_and_only_then() {
    let mint = TestMint::start().await;
    let socks = Socks5::start(&[]).await;

    // With the proxy set: every request reaches the mint from the proxy, none directly.
    let tor = WalletOptions { tor_socks: Some(socks.addr()), owner_mints: vec![mint.url()], ..Default::default() };
    let (_dir, _secrets, wallet) = open_wallet(tor.clone()).await;
    assert_eq!(fund(&wallet, &mint.url(), 21).await.expect("funding through the proxy"), 21);
    let through_proxy = mint.requests_from(PROXY_SOURCE);
    assert!(socks.connections() >= 1, "the proxy relayed no connection");
    assert!(through_proxy >= 2, "the mint saw {through_proxy} requests from the proxy");
    assert_eq!(mint.requests_from(LOOPBACK), 0, "a mint request went around the proxy");
    eprintln!("through the proxy: {} SOCKS5 connections, {through_proxy} mint requests, 0 direct", socks.connections());

    // Without it: direct, and the proxy sees nothing.
    let proxied = socks.connections();
    let direct = WalletOptions { owner_mints: vec![mint.url()], ..Default::default() };
    let (direct_dir, direct_secrets, wallet) = open_wallet(direct).await;
    fund(&wallet, &mint.url(), 21).await.expect("funding directly");
    assert_eq!(socks.connections(), proxied, "a direct wallet used the proxy");
    assert!(mint.requests_from(LOOPBACK) >= 2);
    drop(wallet);

    // A wallet reopened with the proxy: the mint's wallet cdk loads from its store uses the door too.
    let direct_before = mint.requests_from(LOOPBACK);
    let wallet = reopen_wallet(direct_dir.path(), &direct_secrets, tor).await;
    assert_eq!(wallet.total_balance().await.unwrap(), 21, "the reopened wallet holds its ecash");
    wallet.mint_invoice(&mint.url(), 5).await.expect("an invoice through the proxy");
    assert_eq!(mint.requests_from(LOOPBACK), direct_before, "the reopened wallet went around the proxy");
    assert!(socks.connections() > proxied);
}

#[tokio::test]
async fn through_the_proxy_no_mint_name_is_resolved_here() {
    let mint = TestMint::start().await;
    let port = Url::parse(&mint.url()).unwrap().port().unwrap();
    // Only the proxy knows this name, as only a Tor exit resolves a clearnet name for a Tor user.
    let socks = Socks5::start(&[("mint.aiui-test", LOOPBACK)]).await;
    let lookup = Rebinding::fixed(&[PUBLIC]);
    let options = WalletOptions {
        tor_socks: Some(socks.addr()),
        guard: Guard::with_lookup(AddressPolicy::PublicOnly, lookup.clone()),
        ..Default::default()
    };
    let (_dir, _secrets, wallet) = open_wallet(options).await;
    let url = format!("http://mint.aiui-test:{port}");
    fund(&wallet, &url, 13).await.expect("a mint reached by name through the proxy");
    assert_eq!(lookup.calls(), 0, "the guard looked the mint's name up locally");
    let targets = socks.targets();
    assert!(!targets.is_empty());
    assert!(
        targets.iter().all(|t| *t == Target::Name("mint.aiui-test".into(), port)),
        "the proxy was not left to resolve the name: {targets:?}"
    );
    assert_eq!(mint.requests_from(LOOPBACK), 0);
}

#[tokio::test]
async fn a_mint_the_owner_did_not_list_must_be_public() {
    let mint = TestMint::start().await;
    let port = Url::parse(&mint.url()).unwrap().port().unwrap();
    let lookup = Rebinding::fixed(&[LOOPBACK]);
    let options =
        WalletOptions { guard: Guard::with_lookup(AddressPolicy::PublicOnly, lookup.clone()), ..Default::default() };
    let (_dir, _secrets, wallet) = open_wallet(options).await;

    let literal = wallet.mint_invoice(&mint.url(), 21).await.expect_err("a loopback mint nobody listed").to_string();
    assert!(literal.contains("is refused") && literal.contains("loopback"), "{literal}");
    let named = format!("http://lan-mint.aiui-test:{port}");
    let by_name = wallet.mint_invoice(&named, 21).await.expect_err("a name resolving to loopback").to_string();
    assert!(by_name.contains("is refused") && by_name.contains("127.0.0.1"), "{by_name}");
    assert!(lookup.calls() >= 1);
    assert_eq!(mint.requests(), 0, "a refused mint was contacted");

    // Once the owner lists it, it is theirs to use, on loopback or the LAN.
    wallet.trust_owner_mints(&[mint.url()]);
    assert_eq!(fund(&wallet, &mint.url(), 21).await.expect("a listed mint"), 21);
}

#[tokio::test]
async fn a_mint_answer_over_the_cap_is_refused_with_a_clear_error() {
    let huge = axum::Router::new().fallback(|| async { vec![b' '; MAX_MINT_REPLY_BYTES + 1] });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let _ = axum::serve(listener, huge).await;
    });
    let (_dir, _secrets, wallet) =
        open_wallet(WalletOptions { owner_mints: vec![url.clone()], ..Default::default() }).await;
    let error = wallet.mint_invoice(&url, 21).await.expect_err("an oversized answer").to_string();
    server.abort();
    assert!(error.contains(&format!("larger than {MAX_MINT_REPLY_BYTES} bytes")), "{error}");
    assert_eq!(wallet.total_balance().await.unwrap(), 0);
}

#[tokio::test]
async fn a_name_that_rebinds_after_the_check_never_reaches_the_second_address() {
    let server = CountingServer::start().await;
    let lookup = Rebinding::new(&[PUBLIC], &[LOOPBACK]);
    let guard = Guard::with_lookup(AddressPolicy::PublicOnly, lookup.clone());
    let url = server.named_url("rebind.aiui-test");

    guard.check_http(&url, false).await.expect("the first answer is public, so the check passes");
    let client = net::guarded_client(&ClientSpec::default(), &guard).unwrap();
    let error = client.http.get(url.clone()).send().await.expect_err("the second answer is refused");
    match net::refusal(&error) {
        Some(Refused::Private { ip, .. }) => assert_eq!(*ip, LOOPBACK),
        other => panic!("not refused by the guard: {other:?} ({error})"),
    }
    assert_eq!(lookup.calls(), 2, "the connection did not use the guard's own lookup");
    assert_eq!(server.connections(), 0, "the request reached the rebound address");

    // The refund endpoint's client is such a client: same answer.
    let lookup = Rebinding::new(&[PUBLIC], &[LOOPBACK]);
    let refunds =
        RefundClient::with_guard(Guard::with_lookup(AddressPolicy::PublicOnly, lookup.clone()), None).unwrap();
    let endpoint = format!("http://rebind.aiui-test:{}", server.addr.port());
    match refunds.ask(&endpoint, &Secret::new("cashuBnotarealtoken".into())).await {
        RefundAnswer::Unreachable(why) => assert!(why.contains("refused") && why.contains("127.0.0.1"), "{why}"),
        other => panic!("the refund endpoint was asked: {other:?}"),
    }
    assert_eq!(lookup.calls(), 2);
    assert_eq!(server.connections(), 0, "the refund request reached the rebound address");
}

#[tokio::test]
async fn a_name_with_public_and_private_addresses_is_refused() {
    let server = CountingServer::start().await;
    let lookup = Rebinding::fixed(&[PUBLIC, LOOPBACK]);
    let guard = Guard::with_lookup(AddressPolicy::PublicOnly, lookup);
    let url = server.named_url("mixed.aiui-test");
    let refused = guard.check_http(&url, false).await.expect_err("one private address is enough to refuse");
    assert!(matches!(refused, Refused::Private { ip, .. } if ip == LOOPBACK), "{refused}");
    let client = net::guarded_client(&ClientSpec::default(), &guard).unwrap();
    let error = client.http.get(url).send().await.expect_err("refused at connect time too");
    assert!(net::refusal(&error).is_some(), "{error}");
    assert_eq!(server.connections(), 0);
}

#[tokio::test]
async fn a_guarded_client_connects_to_exactly_what_its_lookup_answered() {
    // The control for the two tests above: the name exists only in the test's resolver, so reaching the server
    // shows the connection used the guard's answer and nothing else.
    let server = CountingServer::start().await;
    let lookup = Rebinding::fixed(&[LOOPBACK]);
    let guard = Guard::with_lookup(AddressPolicy::AllowPrivateForTests, lookup.clone());
    let client = net::guarded_client(&ClientSpec::default(), &guard).unwrap();
    let response = client.http.get(server.named_url("only-in-test-dns.aiui-test")).send().await.expect("reached");
    assert_eq!(response.status(), 200);
    assert_eq!((lookup.calls(), server.connections()), (1, 1));
}
