//! The SSRF guard: an address taken from untrusted data (a provider's announcement) may only be a public
//! http(s) endpoint, so a hostile event cannot point AIUI's paid requests at the owner's LAN or a cloud metadata
//! service.

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::pin::Pin;
use std::sync::Arc;

use url::Url;

/// Why an endpoint was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the scheme `{0}` is not http or https")]
    Scheme(String),
    #[error("the address has no host")]
    NoHost,
    #[error("{host} resolves to {ip}, a {class} address")]
    Private { host: String, ip: IpAddr, class: &'static str },
    #[error("{0} could not be resolved")]
    Unresolvable(String),
    #[error("onion endpoints are only used through the Tor proxy")]
    OnionWithoutTor,
}

/// Whether private addresses are allowed: only a test configuration says yes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressPolicy {
    PublicOnly,
    /// Loopback and LAN allowed, for the in-process test provider. Never set from user-facing config.
    AllowPrivateForTests,
}

/// The future a [`NameLookup`] returns.
pub type Lookup<'a> = Pin<Box<dyn Future<Output = std::io::Result<Vec<IpAddr>>> + Send + 'a>>;

/// Where the guard looks names up. It is the one place names are resolved for guarded clients, so a test can put
/// a resolver here that answers differently on a second lookup (DNS rebinding) and see that nothing trusts it.
pub trait NameLookup: Send + Sync + std::fmt::Debug {
    fn lookup<'a>(&'a self, host: &'a str) -> Lookup<'a>;
}

/// The operating system's resolver.
#[derive(Debug)]
pub struct SystemLookup;

impl NameLookup for SystemLookup {
    fn lookup<'a>(&'a self, host: &'a str) -> Lookup<'a> {
        Box::pin(async move { Ok(tokio::net::lookup_host((host, 0)).await?.map(|a| a.ip()).collect()) })
    }
}

/// The SSRF guard with its resolver. A guarded client ([`super::guarded_client`]) resolves each name once through
/// [`Guard::resolve`] and connects only to the addresses that were checked, so a name cannot pass the check and
/// then resolve somewhere else for the connection.
#[derive(Debug, Clone)]
pub struct Guard {
    policy: AddressPolicy,
    lookup: Arc<dyn NameLookup>,
}

impl Guard {
    pub fn new(policy: AddressPolicy) -> Self {
        Self::with_lookup(policy, Arc::new(SystemLookup))
    }

    pub fn with_lookup(policy: AddressPolicy, lookup: Arc<dyn NameLookup>) -> Self {
        Self { policy, lookup }
    }

    pub fn policy(&self) -> AddressPolicy {
        self.policy
    }

    /// Checks an untrusted endpoint before anything is sent to it, resolving its name to see where it goes. `tor`
    /// says onion endpoints can be reached (through the proxy, never our DNS).
    pub async fn check(&self, url: &Url, tor: bool) -> Result<(), Refused> {
        match self.check_without_lookup(url, tor)? {
            Some(host) => self.resolve(&host).await.map(drop),
            None => Ok(()),
        }
    }

    /// [`Guard::check`] for an endpoint that must be http or https (a provider's, a refund endpoint).
    pub async fn check_http(&self, url: &Url, tor: bool) -> Result<(), Refused> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Refused::Scheme(url.scheme().to_owned()));
        }
        self.check(url, tor).await
    }

    /// Everything that can be checked without DNS: scheme, host, onion, and a literal address. Returns the name
    /// still to resolve, if any. A request through the SOCKS proxy stops here: the proxy resolves names
    /// (`socks5h`), and a lookup of ours would tell the local resolver where the request goes.
    pub fn check_without_lookup(&self, url: &Url, tor: bool) -> Result<Option<String>, Refused> {
        if !matches!(url.scheme(), "http" | "https" | "ws" | "wss") {
            return Err(Refused::Scheme(url.scheme().to_owned()));
        }
        let host = url.host_str().ok_or(Refused::NoHost)?.to_owned();
        if host.ends_with(".onion") {
            // Resolved by the Tor proxy, never by our DNS; what it reaches is not on our network.
            return if tor { Ok(None) } else { Err(Refused::OnionWithoutTor) };
        }
        if self.policy == AddressPolicy::AllowPrivateForTests {
            return Ok(None);
        }
        let literal = match url.host() {
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
            _ if is_localhost(&host) => {
                return Err(Refused::Private { host, ip: IpAddr::V4(Ipv4Addr::LOCALHOST), class: "loopback" });
            }
            _ => return Ok(Some(host)),
        };
        match non_public(literal) {
            Some(class) => Err(Refused::Private { host, ip: literal, class }),
            None => Ok(None),
        }
    }

    /// Resolves `host` once and checks every address; all of them must be public, or none is used.
    pub async fn resolve(&self, host: &str) -> Result<Vec<IpAddr>, Refused> {
        let ips = self.lookup.lookup(host).await.map_err(|_| Refused::Unresolvable(host.to_owned()))?;
        if ips.is_empty() {
            return Err(Refused::Unresolvable(host.to_owned()));
        }
        if self.policy == AddressPolicy::PublicOnly {
            for ip in &ips {
                if let Some(class) = non_public(*ip) {
                    return Err(Refused::Private { host: host.to_owned(), ip: *ip, class });
                }
            }
        }
        Ok(ips)
    }
}

/// `localhost` and its subdomains (RFC 6761), with or without the final dot: this machine, whatever DNS says.
fn is_localhost(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

/// Checks an untrusted http(s) endpoint with the system resolver (see [`Guard::check_http`]).
pub async fn check_endpoint(url: &Url, policy: AddressPolicy, tor: bool) -> Result<(), Refused> {
    Guard::new(policy).check_http(url, tor).await
}

/// The kind of non-public address `ip` is, if it is one.
pub fn non_public(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => non_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => non_public_v4(v4),
            None => non_public_v6(v6),
        },
    }
}

fn non_public_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_private() {
        Some("private")
    } else if ip.is_link_local() {
        // 169.254.169.254 is the cloud metadata service.
        Some("link-local or metadata")
    } else if ip.is_unspecified() || ip.is_broadcast() || ip.is_multicast() || a == 0 {
        Some("non-routable")
    } else if a == 100 && (64..128).contains(&b) {
        Some("carrier-grade NAT")
    } else if a == 198 && (18..20).contains(&b) {
        Some("benchmarking")
    } else if a >= 240 {
        Some("reserved")
    } else if matches!(ip.octets(), [192, 0, 0, _] | [192, 0, 2, _] | [198, 51, 100, _] | [203, 0, 113, _]) {
        Some("special-purpose or documentation")
    } else {
        None
    }
}

fn non_public_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_unspecified() || ip.is_multicast() {
        Some("non-routable")
    } else if first & 0xffc0 == 0xfe80 {
        Some("link-local")
    } else if first & 0xfe00 == 0xfc00 {
        // Unique local, which includes AWS's fd00:ec2::254 metadata address.
        Some("private or metadata")
    } else if ip.segments()[..6] == [0x64, 0xff9b, 0, 0, 0, 0] || ip.segments()[..3] == [0x64, 0xff9b, 1] {
        // NAT64 embeds an IPv4 address the gateway will reach, private ones included.
        Some("NAT64")
    } else if first == 0x2002 {
        // 6to4 embeds an IPv4 address too.
        Some("6to4")
    } else if ip.segments()[..2] == [0x2001, 0] || ip.segments()[..2] == [0x2001, 0xdb8] {
        Some("Teredo or documentation")
    } else if ip.segments()[..6] == [0, 0, 0, 0, 0, 0] {
        // IPv4-compatible (deprecated) addresses reach the embedded IPv4 address.
        Some("IPv4-compatible")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(url: &str, expect_ok: bool) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let result = rt.block_on(check_endpoint(&Url::parse(url).unwrap(), AddressPolicy::PublicOnly, false));
        assert_eq!(result.is_ok(), expect_ok, "{url}: {result:?}");
    }

    #[test]
    fn only_public_http_endpoints_pass() {
        check("http://127.0.0.1:8000/", false);
        check("http://localhost:8000/", false);
        check("http://10.0.0.5/", false);
        check("http://192.168.1.10/", false);
        check("http://172.20.0.1/", false);
        check("http://169.254.169.254/latest/meta-data", false);
        check("http://[::1]/", false);
        check("http://[fe80::1]/", false);
        check("http://[fd00:ec2::254]/", false);
        check("http://[::ffff:127.0.0.1]/", false);
        check("http://100.64.0.1/", false);
        check("http://0.0.0.0/", false);
        check("http://198.18.0.1/", false);
        check("http://198.19.255.1/", false);
        check("http://240.0.0.1/", false);
        check("http://255.255.255.254/", false);
        check("http://192.0.2.10/", false);
        check("http://[64:ff9b::7f00:1]/", false);
        check("http://[64:ff9b::a00:5]/", false);
        check("http://[64:ff9b:1::1]/", false);
        check("http://[2002:7f00:1::1]/", false);
        check("http://[2001:0:4136:e378::1]/", false);
        check("http://[::7f00:1]/", false);
        check("https://198.20.0.1/", true);
        check("file:///etc/passwd", false);
        check("ftp://8.8.8.8/", false);
        check("http://abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcd.onion/", false);
        check("https://8.8.8.8/", true);
        check("http://[2606:4700::1111]/", true);
    }

    #[test]
    fn the_special_ranges_are_refused_at_their_edges() {
        // 198.18.0.0/15 (benchmarking) and 240.0.0.0/4 (reserved), with the public neighbours on either side.
        check("http://198.17.255.255/", true);
        check("http://198.18.0.0/", false);
        check("http://198.19.255.255/", false);
        check("http://239.255.255.250/", false);
        check("http://240.0.0.0/", false);
        check("http://247.1.2.3/", false);
        // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) and 6to4 (2002::/16) carry an IPv4 address a
        // gateway will reach: refused whatever it embeds, a public one included.
        check("http://[64:ff9b::]/", false);
        check("http://[64:ff9b::808:808]/", false);
        check("http://[64:ff9b::c0a8:101]/", false);
        check("http://[64:ff9b:1:ffff::1]/", false);
        check("http://[2002::1]/", false);
        check("http://[2002:808:808::1]/", false);
        check("http://[2002:c0a8:101::1]/", false);
        check("http://[2003::1]/", true);
        // Names that mean this machine are refused without asking any resolver.
        check("http://localhost./", false);
        check("http://api.localhost/", false);
    }

    /// A resolver answering the same addresses for every name (pure logic: what the guard does with an answer).
    #[derive(Debug)]
    struct Answer(Vec<IpAddr>);

    impl NameLookup for Answer {
        fn lookup<'a>(&'a self, _host: &'a str) -> Lookup<'a> {
            let ips = self.0.clone();
            Box::pin(async move { Ok(ips) })
        }
    }

    #[test]
    fn every_address_of_a_name_must_be_public() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let url = Url::parse("https://provider.example/").unwrap();
        let verdict = |ips: &[&str]| {
            let answer = Answer(ips.iter().map(|ip| ip.parse().unwrap()).collect());
            rt.block_on(Guard::with_lookup(AddressPolicy::PublicOnly, Arc::new(answer)).check(&url, false))
        };
        assert_eq!(verdict(&["8.8.8.8", "2606:4700::1111"]), Ok(()));
        assert!(matches!(verdict(&["8.8.8.8", "10.0.0.7"]), Err(Refused::Private { class: "private", .. })));
        assert!(matches!(
            verdict(&["2606:4700::1111", "64:ff9b::a00:1"]),
            Err(Refused::Private { class: "NAT64", .. })
        ));
        assert!(matches!(verdict(&[]), Err(Refused::Unresolvable(_))));
    }
}
