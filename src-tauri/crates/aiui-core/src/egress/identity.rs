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

    /// `text` with every onion hostname and LAN address replaced, and how many were replaced; `None` when it holds
    /// none.
    pub fn apply(&mut self, text: &str) -> Option<(String, usize)> {
        let mut found = find(text);
        if found.is_empty() {
            return None;
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
        Some((out, count))
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

/// Which of the patterns can find a value in `text`, from the bytes around its dots and colons: an onion name and
/// a LAN host end in `.onion`, `.local` or `.home.arpa` (any case), a LAN IPv4 address opens with 10, 100, 169,
/// 172 or 192 and a dot, a LAN IPv6 one with `fc`, `fd` or `fe` and two more hex digits before a colon. Most
/// texts have none of them, and the four searches cost more than the rest of the screen.
#[derive(Default)]
struct Candidates {
    onion: bool,
    ipv4: bool,
    ipv6: bool,
    lan_host: bool,
}

fn candidates(text: &str) -> Candidates {
    let bytes = text.as_bytes();
    let mut found = Candidates::default();
    for dot in memchr::memchr_iter(b'.', bytes) {
        let after = &bytes[dot + 1..];
        let starts = |word: &[u8]| after.get(..word.len()).is_some_and(|a| a.eq_ignore_ascii_case(word));
        found.onion |= starts(b"onion");
        found.lan_host |= starts(b"local") || starts(b"home.arpa");
        found.ipv4 |= after.first().is_some_and(u8::is_ascii_digit) && lan_v4_first_octet(&bytes[..dot]);
    }
    // The first group of an IPv6 match is its first segment: only `fc00` to `febf` make it a LAN address.
    found.ipv6 = memchr::memchr_iter(b':', bytes).any(|colon| {
        colon >= 4
            && bytes[colon - 4..colon].iter().all(u8::is_ascii_hexdigit)
            && bytes[colon - 4].eq_ignore_ascii_case(&b'f')
            && matches!(bytes[colon - 3].to_ascii_lowercase(), b'c' | b'd' | b'e')
    });
    found
}

/// Whether the digits that end `before` (a dot follows them) can open a LAN IPv4 address: the pattern's first
/// octet is one to three digits after a word boundary.
fn lan_v4_first_octet(before: &[u8]) -> bool {
    let digits = before.iter().rev().take(4).take_while(|b| b.is_ascii_digit()).count();
    if !(1..=3).contains(&digits) {
        return false;
    }
    let octet = before[before.len() - digits..].iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    matches!(octet, 10 | 100 | 169 | 172 | 192)
}

/// Every identifying value in `text`: its range, class and the key that makes equal values share a number.
fn find(text: &str) -> Vec<(Range<usize>, Class, String)> {
    find_among(text, &candidates(text))
}

fn find_among(text: &str, candidates: &Candidates) -> Vec<(Range<usize>, Class, String)> {
    let search = |yes: bool, pattern: &'static Regex| yes.then(|| pattern.find_iter(text)).into_iter().flatten();
    let mut found = Vec::new();
    for m in search(candidates.onion, &ONION) {
        found.push((m.range(), Class::Onion, m.as_str().to_ascii_lowercase()));
    }
    for m in search(candidates.ipv4, &IPV4) {
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
    for m in search(candidates.ipv6, &IPV6) {
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
    for m in search(candidates.lan_host, &LAN_HOST) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of a corpus file of `fixtures/egress/`, each as written and with its escapes undone, alone, inside
    /// a JSON string and glued to its neighbours.
    fn texts(name: &str) -> Vec<String> {
        let path = format!("{}/../../../fixtures/egress/{name}", env!("CARGO_MANIFEST_DIR"));
        let file = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("corpus {path} is missing: {e}"));
        let lines: Vec<&str> = file.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
        let unescaped: Vec<String> = lines.iter().map(|l| l.replace("\\n", "\n").replace("\\t", "\t")).collect();
        let mut texts: Vec<String> = lines.iter().map(|l| (*l).to_owned()).chain(unescaped.iter().cloned()).collect();
        texts.extend(unescaped.iter().map(|l| serde_json::Value::String(l.clone()).to_string()));
        texts.extend(unescaped.windows(2).map(|w| w.concat()));
        texts
    }

    /// The dot-and-colon check never hides an address: every corpus line, also escaped and glued, gives the same
    /// values as running all four patterns.
    #[test]
    fn candidates_never_change_what_is_found() {
        let all = Candidates { onion: true, ipv4: true, ipv6: true, lan_host: true };
        let mut compared = 0;
        for text in texts("benign.txt").into_iter().chain(texts("secrets.txt")) {
            assert_eq!(find(&text), find_among(&text, &all), "text: {text}");
            compared += 1;
        }
        // No corpus line holds a LAN address of every family: each is here, alone and in words.
        let lan = [
            "10.0.0.5",
            "node at 100.64.1.1 now",
            "169.254.10.20",
            "172.16.4.2:8080",
            "see http://192.168.1.20/",
            "fd12:3456::1",
            "peer [fe80::1]:9735",
            "lnd.local",
        ];
        for text in ["fe80::1", "A.ONION", "x.Home.Arpa", "1.2.3.4", "a:b:c", "ab12:cd34:ef56"].into_iter().chain(lan) {
            assert_eq!(find(text), find_among(text, &all), "text: {text}");
        }
        assert!(compared > 1000, "{compared} texts");
    }
}
