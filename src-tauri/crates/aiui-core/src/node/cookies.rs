//! The node session's two cookies, parsed from `Set-Cookie` and kept as secrets.

use reqwest::header::{HeaderMap, SET_COOKIE};

use super::adapter::{CSRF_COOKIE, SESSION_COOKIE};
use crate::Secret;

/// One cookie the node set. `secure` cookies must only travel over HTTPS, as a browser's jar would insist.
#[derive(Debug, Clone)]
pub(crate) struct Cookie {
    pub value: Secret<String>,
    pub secure: bool,
}

/// The session as the node left it after the last `Set-Cookie` headers.
#[derive(Debug, Clone, Default)]
pub(crate) struct SessionCookies {
    pub session: Option<Cookie>,
    pub csrf: Option<Cookie>,
}

impl SessionCookies {
    /// Takes the node's cookies from a response, keeping earlier ones the response did not replace.
    /// An empty value or `Max-Age=0` clears a cookie, as the node does on logout.
    pub fn absorb(&mut self, headers: &HeaderMap) {
        for raw in headers.get_all(SET_COOKIE) {
            let Ok(raw) = raw.to_str() else { continue };
            let mut parts = raw.split(';').map(str::trim);
            let Some((name, value)) = parts.next().and_then(|p| p.split_once('=')) else { continue };
            let mut secure = false;
            let mut expired = value.is_empty();
            for attr in parts {
                let lower = attr.to_ascii_lowercase();
                if lower == "secure" {
                    secure = true;
                } else if lower.strip_prefix("max-age=").is_some_and(|v| v.trim().starts_with(['0', '-'])) {
                    expired = true;
                }
            }
            let slot = match name.trim() {
                SESSION_COOKIE => &mut self.session,
                CSRF_COOKIE => &mut self.csrf,
                _ => continue,
            };
            *slot = (!expired).then(|| Cookie { value: Secret::from(value.trim()), secure });
        }
    }

    /// The `Cookie` header value to send. Over plain HTTP, `Secure` cookies are withheld.
    pub fn header(&self, over_https: bool) -> Option<Secret<String>> {
        let pairs: Vec<String> = [(SESSION_COOKIE, &self.session), (CSRF_COOKIE, &self.csrf)]
            .into_iter()
            .filter_map(|(name, c)| c.as_ref().map(|c| (name, c)))
            .filter(|(_, c)| over_https || !c.secure)
            .map(|(name, c)| format!("{name}={}", c.value.expose()))
            .collect();
        (!pairs.is_empty()).then(|| Secret::new(pairs.join("; ")))
    }

    pub fn any_secure(&self) -> bool {
        [&self.session, &self.csrf].into_iter().flatten().any(|c| c.secure)
    }
}

#[cfg(test)]
mod tests {
    use reqwest::header::{HeaderMap, HeaderValue, SET_COOKIE};

    use super::SessionCookies;

    fn headers(lines: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for l in lines {
            h.append(SET_COOKIE, HeaderValue::from_str(l).unwrap());
        }
        h
    }

    #[test]
    fn reads_both_cookies_and_withholds_secure_ones_over_http() {
        let mut jar = SessionCookies::default();
        jar.absorb(&headers(&[
            "archipelago_session=abc; Path=/; HttpOnly; Secure; SameSite=Strict",
            "csrf_token=xyz; Path=/; SameSite=Strict",
            "unrelated=1",
        ]));
        assert_eq!(jar.header(true).unwrap().expose(), "archipelago_session=abc; csrf_token=xyz");
        assert_eq!(jar.header(false).unwrap().expose(), "csrf_token=xyz");
        assert!(jar.any_secure());
        jar.absorb(&headers(&["archipelago_session=; Max-Age=0", "csrf_token=gone; Max-Age=0"]));
        assert!(jar.header(true).is_none());
    }
}
