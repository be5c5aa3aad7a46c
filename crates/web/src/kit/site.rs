//! A server hosted for many people (`xiangqi serve`): the public address people open, which
//! the host check then answers to, and the reverse proxies in front of it, whose
//! `X-Forwarded-For` names the client.

use crate::kit::host_guard::authority;
use std::net::IpAddr;

/// Where a hosted server is reached, and through which proxies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The public address, as given: `https://xiangqi.example.org`.
    url: String,
    /// Its host and port as a `Host` header names them (`xiangqi.example.org:443`).
    authority: String,
    /// Whether people reach it over HTTPS (its cookies are then `Secure`).
    https: bool,
    /// The proxies whose forwarded headers are believed.
    trusted_proxies: Vec<IpAddr>,
}

impl Site {
    /// The site at `url` (`http://` or `https://`, a host name or address, an optional port,
    /// no path but `/`), behind `trusted_proxies`; what is wrong with `url` otherwise.
    pub fn new(url: &str, trusted_proxies: Vec<IpAddr>) -> Result<Site, String> {
        let (https, rest) = if let Some(rest) = url.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("http://") {
            (false, rest)
        } else {
            return Err(format!(
                "the public URL {url:?} must start with http:// or https://"
            ));
        };
        let host_port = rest.strip_suffix('/').unwrap_or(rest);
        if host_port.is_empty() {
            return Err(format!("the public URL {url:?} names no host"));
        }
        if host_port.contains(['/', '?', '#', '@', ' ']) {
            return Err(format!(
                "the public URL {url:?} must be a scheme and a host (and a port) only, with no \
                 path, query or user"
            ));
        }
        let default_port = if https { 443 } else { 80 };
        let authority = authority(host_port, default_port);
        let port = authority.rsplit_once(':').map_or("", |(_, port)| port);
        if port.parse::<u16>().map_or(true, |p| p == 0) {
            return Err(format!("the public URL {url:?} has no valid port"));
        }
        Ok(Site {
            url: format!("{}://{}/", if https { "https" } else { "http" }, host_port),
            authority,
            https,
            trusted_proxies,
        })
    }

    /// The public address, ending in `/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The public host and port, as the host check compares them.
    pub fn authority(&self) -> &str {
        &self.authority
    }

    /// Whether people reach it over HTTPS.
    pub fn https(&self) -> bool {
        self.https
    }

    /// The proxies whose forwarded headers are believed.
    pub fn trusted_proxies(&self) -> &[IpAddr] {
        &self.trusted_proxies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_url_gives_the_host_the_server_answers_to() {
        let site = Site::new("https://Xiangqi.Example.org", vec![]).unwrap();
        assert_eq!(site.authority(), "xiangqi.example.org:443");
        assert_eq!(site.url(), "https://Xiangqi.Example.org/");
        assert!(site.https());
        let site = Site::new("http://192.0.2.5:8080/", vec![]).unwrap();
        assert_eq!(site.authority(), "192.0.2.5:8080");
        assert!(!site.https());
        let site = Site::new("http://[2001:db8::1]", vec![]).unwrap();
        assert_eq!(site.authority(), "[2001:db8::1]:80");
    }

    #[test]
    fn a_bad_public_url_says_what_is_wrong() {
        for (url, said) in [
            ("club.example", "must start with http"),
            ("https://", "names no host"),
            ("https://club.example/xiangqi", "no path"),
            ("https://user@club.example", "no path, query or user"),
            ("https://club.example:0", "no valid port"),
            ("https://club.example:99999", "no valid port"),
        ] {
            let error = Site::new(url, vec![]).unwrap_err();
            assert!(error.contains(said), "{url}: {error}");
        }
    }
}
