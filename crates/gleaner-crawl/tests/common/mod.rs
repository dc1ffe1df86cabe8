//! What the HTTP tests share (`misbehaving.rs`, `hostile.rs`): quick
//! options, and the address policy that lets a test fetch from its own
//! servers on 127.0.0.1 and nowhere else (issue 31).
#![allow(dead_code)]

use std::time::Duration;

use gleaner_crawl::{AddressPolicy, HttpOptions, Url};

use crate::server::Server;

pub fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

/// No delay, a 1 s timeout, 1 MiB bodies, five redirects.
pub fn quick() -> HttpOptions {
    HttpOptions::default()
        .delay(Duration::ZERO)
        .timeout(Duration::from_secs(1))
        .max_bytes(1 << 20)
        .max_redirects(5)
}

/// Private addresses allowed for these servers' origins only.
pub fn own(servers: &[&Server]) -> AddressPolicy {
    servers.iter().fold(AddressPolicy::default(), |p, s| p.allow_private_origin(&url(&s.origin())))
}

/// [`quick`], allowed to fetch from these servers only.
pub fn quick_for(servers: &[&Server]) -> HttpOptions {
    quick().address_policy(own(servers))
}
