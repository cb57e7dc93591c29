//! G-B2 placeholders: onion hostnames and LAN addresses become `[onion-1]`, `[lan-ip-1]`, `[lan-host-1]`.

use std::collections::HashMap;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// What a placeholder stands for; its name is the placeholder's prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    Onion,
    LanIp,
    LanHost,
}

impl Class {
    const ALL: [Class; 3] = [Class::Onion, Class::LanIp, Class::LanHost];

    fn name(self) -> &'static str {
        match self {
            Class::Onion => "onion",
            Class::LanIp => "lan-ip",
            Class::LanHost => "lan-host",
        }
    }
}

// Every pattern here is ASCII-only (`-u`): a Unicode `\b` makes the regex engine leave its fast DFA on any
// non-ASCII text, and a non-ASCII letter next to an address then counts as a word boundary, which replaces more,
// never less.
static ONION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i-u)\b(?:[a-z2-7]{56}|[a-z2-7]{16})\.onion\b").unwrap());
static IPV4: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?-u)\b[0-9]{1,3}(?:\.[0-9]{1,3}){3}\b").unwrap());
/// Any colon-separated hex run with a possible zone; `Ipv6Addr` parsing decides what is an address, which
/// keeps times (`12:30:45`) and MAC addresses out.
static IPV6: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i-u)\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}(?:%[0-9a-z_.\-]+)?").unwrap());
static LAN_HOST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)\b[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.(?:local|home\.arpa)\b")
        .unwrap()
});

/// The placeholder table of one conversation, so a value keeps its placeholder from hop to hop.
#[derive(Default)]
pub(super) struct Placeholders {
    numbers: HashMap<(Class, String), usize>,
    /// The original text of each placeholder, by class, in numbering order.
    originals: HashMap<Class, Vec<String>>,
}

impl Placeholders {
    pub fn len(&self) -> usize {
        self.numbers.len()
    }

    /// `text` with every onion hostname and LAN address replaced, and how many were replaced.
    pub fn apply(&mut self, text: &str) -> (String, usize) {
        let mut found = find(text);
        if found.is_empty() {
            return (text.to_owned(), 0);
        }
        found.sort_by_key(|(range, ..)| (range.start, std::cmp::Reverse(range.end)));
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        let mut count = 0;
        for (range, class, key) in found {
            if range.start < at {
                continue;
            }
            let next = self.originals.get(&class).map_or(0, Vec::len) + 1;
            let number = *self.numbers.entry((class, key)).or_insert_with(|| {
                self.originals.entry(class).or_default().push(text[range.clone()].to_owned());
                next
            });
            out.push_str(&text[at..range.start]);
            out.push_str(&format!("[{}-{number}]", class.name()));
            at = range.end;
            count += 1;
        }
        out.push_str(&text[at..]);
        (out, count)
    }

    /// `text` with every placeholder this table issued put back to the value it stands for.
    pub fn reveal(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for class in Class::ALL {
            let Some(originals) = self.originals.get(&class) else { continue };
            for (i, original) in originals.iter().enumerate() {
                out = out.replace(&format!("[{}-{}]", class.name(), i + 1), original);
            }
        }
        out
    }
}

/// Every identifying value in `text`: its range, class and the key that makes equal values share a number.
fn find(text: &str) -> Vec<(Range<usize>, Class, String)> {
    let mut found = Vec::new();
    for m in ONION.find_iter(text) {
        found.push((m.range(), Class::Onion, m.as_str().to_ascii_lowercase()));
    }
    for m in IPV4.find_iter(text) {
        // A dotted quad inside a longer dotted number (an OID, a version) is not an address.
        let before = text[..m.start()].strip_suffix('.').is_some_and(|t| t.ends_with(|c: char| c.is_ascii_digit()));
        let after = text[m.end()..].strip_prefix('.').is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()));
        if before || after {
            continue;
        }
        if let Ok(ip) = m.as_str().parse::<Ipv4Addr>()
            && is_lan_v4(ip)
        {
            found.push((m.range(), Class::LanIp, ip.to_string()));
        }
    }
    for m in IPV6.find_iter(text) {
        // A trailing colon belongs to the sentence ("fe80::1: link up"), not to the address.
        let mut candidate = m.as_str();
        loop {
            let addr = candidate.split('%').next().unwrap_or(candidate);
            if let Ok(ip) = addr.parse::<Ipv6Addr>() {
                if is_lan_v6(ip) {
                    found.push((m.start()..m.start() + candidate.len(), Class::LanIp, ip.to_string()));
                }
                break;
            }
            match candidate.strip_suffix(':') {
                Some(shorter) if !candidate.contains('%') => candidate = shorter,
                _ => break,
            }
        }
    }
    for m in LAN_HOST.find_iter(text) {
        // `.env.local` and `app.local.yml` are file names, not mDNS hosts.
        let before = text[..m.start()].ends_with(['.', '-', '_']);
        let rest = &text[m.end()..];
        let after = rest.starts_with(['-', '_'])
            || rest.strip_prefix('.').is_some_and(|t| t.starts_with(|c: char| c.is_ascii_alphanumeric()));
        if !before && !after {
            found.push((m.range(), Class::LanHost, m.as_str().to_ascii_lowercase()));
        }
    }
    found
}

/// RFC 1918, link-local, and the shared CGNAT space that overlay networks such as Tailscale hand out: none of
/// them is reachable from the internet, and each says something about the owner's network.
fn is_lan_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_private() || ip.is_link_local() || (a == 100 && (64..128).contains(&b))
}

/// Link-local `fe80::/10` and unique-local `fc00::/7`.
fn is_lan_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    first & 0xffc0 == 0xfe80 || first & 0xfe00 == 0xfc00
}
