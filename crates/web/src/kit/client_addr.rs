//! The address a request comes from: the peer of its connection, which the server puts in
//! each request's extensions, or, when that peer is one of the site's trusted proxies, the
//! client its `X-Forwarded-For` names (the last address in it that is not a trusted proxy's).
//! A request made without a connection (the tests' router in memory) comes from the
//! unspecified address, so all of them share one client's limits.

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// The client's address (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The proxies whose `X-Forwarded-For` is believed, as the server puts them in each request's
/// extensions.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(pub Arc<Vec<IpAddr>>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddr, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let trusted = parts
            .extensions
            .get::<TrustedProxies>()
            .map(|t| t.0.clone())
            .unwrap_or_default();
        Ok(ClientAddr(client_of(peer, &parts.headers, &trusted)))
    }
}

/// The client of a request from `peer` with `headers`, behind `trusted` proxies.
fn client_of(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    // Each proxy appends the address it heard from: read from the end, past the proxies.
    let mut client = peer;
    for value in headers.get_all("x-forwarded-for").iter().rev() {
        let Ok(text) = value.to_str() else {
            return client;
        };
        for entry in text.rsplit(',') {
            match entry.trim().parse::<IpAddr>() {
                Ok(address) if trusted.contains(&address) => client = address,
                Ok(address) => return address,
                Err(_) => return client,
            }
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> axum::http::HeaderMap {
        let mut map = axum::http::HeaderMap::new();
        for v in values {
            map.append("x-forwarded-for", v.parse().unwrap());
        }
        map
    }

    #[test]
    fn a_trusted_proxy_names_the_client_and_no_one_else_does() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let client: IpAddr = "203.0.113.9".parse().unwrap();
        let trusted = [proxy];
        // From the proxy: the client it names, past a spoofed entry the client sent first.
        let named = headers(&["198.51.100.1, 203.0.113.9"]);
        assert_eq!(client_of(proxy, &named, &trusted), client);
        // Two proxies, both trusted: the address before them.
        let inner: IpAddr = "10.0.0.3".parse().unwrap();
        let chained = headers(&["203.0.113.9, 10.0.0.3"]);
        assert_eq!(client_of(proxy, &chained, &[proxy, inner]), client);
        // From anyone else the header is not believed.
        let stranger: IpAddr = "192.0.2.44".parse().unwrap();
        assert_eq!(client_of(stranger, &named, &trusted), stranger);
        // A proxy that names no one, or garbage: the proxy itself.
        assert_eq!(client_of(proxy, &headers(&[]), &trusted), proxy);
        assert_eq!(
            client_of(proxy, &headers(&["not an address"]), &trusted),
            proxy
        );
    }
}
