//! The SSRF guard: an address taken from untrusted data (a provider's announcement) may only be a public
//! http(s) endpoint, so a hostile event cannot point AIUI's paid requests at the owner's LAN or a cloud metadata
//! service.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

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

/// Checks an untrusted endpoint before anything is sent to it, resolving its name to see where it really goes.
pub async fn check_endpoint(url: &Url, policy: AddressPolicy, tor: bool) -> Result<(), Refused> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Refused::Scheme(url.scheme().to_owned()));
    }
    let host = url.host_str().ok_or(Refused::NoHost)?.to_owned();
    if host.ends_with(".onion") {
        // Resolved by the Tor proxy, never by our DNS; what it reaches is not on our network.
        return if tor { Ok(()) } else { Err(Refused::OnionWithoutTor) };
    }
    if policy == AddressPolicy::AllowPrivateForTests {
        return Ok(());
    }
    let port = url.port_or_known_default().unwrap_or(443);
    let ips: Vec<IpAddr> = match url.host() {
        Some(url::Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
        Some(url::Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
        _ => tokio::net::lookup_host((host.as_str(), port))
            .await
            .map_err(|_| Refused::Unresolvable(host.clone()))?
            .map(|a| a.ip())
            .collect(),
    };
    if ips.is_empty() {
        return Err(Refused::Unresolvable(host));
    }
    for ip in ips {
        if let Some(class) = non_public(ip) {
            return Err(Refused::Private { host, ip, class });
        }
    }
    Ok(())
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
}
