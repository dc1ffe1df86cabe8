//! Which network addresses a fetch may connect to: one policy for every
//! request gleaner makes (pages, `robots.txt`, redirects, the pages site
//! training follows, and any later front end such as an HTTP server).
//!
//! A crawler that fetches what pages point at is a way into the machine
//! it runs on and its network: a link or a redirect to
//! `http://169.254.169.254/latest/meta-data/` reads a cloud instance's
//! credentials, `http://[::1]:6379/` talks to a local Redis,
//! `http://10.0.0.1/admin` reaches an intranet (server-side request
//! forgery, OWASP SSRF Prevention Cheat Sheet). [`AddressPolicy`] refuses
//! such targets:
//!
//! 1. the URL must be `http` or `https` with a host;
//! 2. a host written as an address (`127.0.0.1`, `[::ffff:10.0.0.1]`) is
//!    classified before anything is sent;
//! 3. a host name is resolved by [`GuardedResolver`], which classifies
//!    every address DNS gives and hands the HTTP client only those that
//!    pass. The client connects to an address that was checked and to no
//!    other: there is no second lookup a DNS answer could change between
//!    the check and the connection (DNS rebinding).
//!
//! Every hop of a redirect chain is a new request and goes through the
//! same three steps.
//!
//! Classes ([`AddressClass`]) follow the IANA special-purpose address
//! registries (RFC 6890 and its updates). Loopback, private (RFC 1918,
//! RFC 4193 unique local, RFC 6598 shared) and link-local addresses are
//! refused unless private addresses are allowed, for every URL
//! ([`AddressPolicy::allow_private`]) or for named origins only
//! ([`AddressPolicy::allow_private_origin`]: a test allows its own server,
//! an intranet crawl its one site). Cloud metadata endpoints, the
//! unspecified address, multicast, broadcast and reserved ranges are
//! always refused.
//!
//! Deviation from issue 31's wording ("refused unless
//! `--allow-private-addresses`"): metadata endpoints stay refused with
//! the allowance too, because no crawl has a reason to read them and an
//! allowance given for an intranet would otherwise hand out the
//! instance's credentials; `0.0.0.0` and `::` (which reach the local
//! machine on Linux), multicast and reserved ranges are never a web
//! server's address.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use url::{Host, Origin, Url};

/// What kind of address an IP address is, for [`AddressPolicy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AddressClass {
    /// A globally routable address: always allowed.
    Public,
    /// `127.0.0.0/8`, `::1` (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3).
    Loopback,
    /// `10/8`, `172.16/12`, `192.168/16` (RFC 1918), `100.64/10` (RFC
    /// 6598 shared), `198.18/15` (RFC 2544 benchmarking), `fc00::/7`
    /// (RFC 4193), `fec0::/10` (deprecated site-local), `64:ff9b:1::/48`
    /// (RFC 8215 local-use NAT64).
    Private,
    /// `169.254/16`, `fe80::/10` (RFC 3927, RFC 4291 §2.5.6).
    LinkLocal,
    /// A cloud provider's instance metadata endpoint: `169.254.169.254`
    /// (AWS, GCP, Azure, OpenStack, …), `169.254.170.2` (AWS ECS),
    /// `100.100.100.200` (Alibaba), `168.63.129.16` (Azure wire server),
    /// `192.0.0.192` (Oracle), `fd00:ec2::254` (AWS IPv6).
    Metadata,
    /// `0.0.0.0/8`, `::` (RFC 1122 "this network"; reaches the local
    /// machine on Linux).
    Unspecified,
    /// `224/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`, `240/4`, `192.0.0/24`, the documentation
    /// ranges (`192.0.2/24`, `198.51.100/24`, `203.0.113/24`,
    /// `2001:db8::/32`), `100::/64` (discard), Teredo `2001::/32`, and
    /// IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291 §2.5.5.1).
    Reserved,
}

impl AddressClass {
    /// The class of `ip`. IPv6 forms that carry an IPv4 address
    /// (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4
    /// `2002:AABB:CCDD::/48`) are classified by that address, so
    /// `[::ffff:127.0.0.1]` is loopback.
    pub fn of(ip: IpAddr) -> AddressClass {
        match ip {
            IpAddr::V4(v4) => AddressClass::of_v4(v4),
            IpAddr::V6(v6) => AddressClass::of_v6(v6),
        }
    }

    fn of_v4(ip: Ipv4Addr) -> AddressClass {
        const METADATA: [[u8; 4]; 5] = [
            [169, 254, 169, 254],
            [169, 254, 170, 2],
            [100, 100, 100, 200],
            [168, 63, 129, 16],
            [192, 0, 0, 192],
        ];
        let o = ip.octets();
        if METADATA.contains(&o) {
            return AddressClass::Metadata;
        }
        match o {
            [0, ..] => AddressClass::Unspecified,
            [127, ..] => AddressClass::Loopback,
            [10, ..] | [192, 168, ..] => AddressClass::Private,
            [172, b, ..] if (16..32).contains(&b) => AddressClass::Private,
            [100, b, ..] if (64..128).contains(&b) => AddressClass::Private,
            [198, 18 | 19, ..] => AddressClass::Private,
            [169, 254, ..] => AddressClass::LinkLocal,
            [a, ..] if (224..240).contains(&a) => AddressClass::Multicast,
            [a, ..] if a >= 240 => AddressClass::Reserved,
            [192, 0, 0 | 2, _] | [198, 51, 100, _] | [203, 0, 113, _] => AddressClass::Reserved,
            _ => AddressClass::Public,
        }
    }

    fn of_v6(ip: Ipv6Addr) -> AddressClass {
        const AWS_METADATA: Ipv6Addr = Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254);
        if ip == AWS_METADATA {
            return AddressClass::Metadata;
        }
        if ip.is_unspecified() {
            return AddressClass::Unspecified;
        }
        if ip.is_loopback() {
            return AddressClass::Loopback;
        }
        // An IPv4 address in disguise is what it carries (RFC 4291
        // §2.5.5.2 mapped, RFC 6052 §2.1 NAT64, RFC 3056 §2 6to4).
        if let Some(v4) = ip.to_ipv4_mapped() {
            return AddressClass::of_v4(v4);
        }
        let s = ip.segments();
        let embedded = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
        match s {
            [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => AddressClass::of_v4(embedded(hi, lo)),
            [0x2002, hi, lo, ..] => match AddressClass::of_v4(embedded(hi, lo)) {
                AddressClass::Public => AddressClass::Public,
                // 6to4 relays to a private IPv4 address: never a web site.
                _ => AddressClass::Reserved,
            },
            // RFC 4291 §2.5.5.1: deprecated IPv4-compatible addresses.
            [0, 0, 0, 0, 0, 0, _, _] => AddressClass::Reserved,
            [0x64, 0xff9b, 1, ..] => AddressClass::Private,
            [a, ..] if a & 0xff00 == 0xff00 => AddressClass::Multicast,
            [a, ..] if a & 0xffc0 == 0xfe80 => AddressClass::LinkLocal,
            [a, ..] if a & 0xffc0 == 0xfec0 => AddressClass::Private,
            [a, ..] if a & 0xfe00 == 0xfc00 => AddressClass::Private,
            [0x2001, 0x0db8, ..] | [0x2001, 0, ..] | [0x0100, 0, 0, 0, ..] => {
                AddressClass::Reserved
            }
            _ => AddressClass::Public,
        }
    }

    /// Whether allowing private addresses lifts the refusal of this class
    /// (loopback, private, link-local); the others stay refused.
    pub fn is_private(self) -> bool {
        matches!(self, AddressClass::Loopback | AddressClass::Private | AddressClass::LinkLocal)
    }
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AddressClass::Public => "public",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::LinkLocal => "link-local",
            AddressClass::Metadata => "cloud metadata",
            AddressClass::Unspecified => "unspecified",
            AddressClass::Multicast => "multicast",
            AddressClass::Reserved => "reserved",
        })
    }
}

/// Why the policy refused a URL or an address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AddressError {
    /// The URL's scheme is neither http nor https.
    #[error("unsupported URL scheme {0:?} (only http and https are fetched)")]
    Scheme(String),
    /// The URL has no host.
    #[error("URL without a host")]
    NoHost,
    /// The host is, or resolves to, an address of a refused class.
    #[error("refused by the address policy: {host} is {} {class} address{}", article(*class), hint(*class))]
    Refused {
        /// The host as written in the URL.
        host: String,
        /// The refused address.
        addr: IpAddr,
        /// Its class.
        class: AddressClass,
    },
    /// The host name could not be resolved.
    #[error("DNS: cannot resolve {host}: {message}")]
    Dns {
        /// The host name.
        host: String,
        /// The resolver's message.
        message: String,
    },
}

fn article(class: AddressClass) -> &'static str {
    match class {
        AddressClass::Unspecified => "an",
        _ => "a",
    }
}

fn hint(class: AddressClass) -> &'static str {
    if class.is_private() {
        " (--allow-private-addresses lifts this)"
    } else {
        ", never fetched"
    }
}

/// The address policy: which hosts and addresses a request may reach.
/// The default refuses every non-public address; see the module docs.
///
/// ```
/// use gleaner_crawl::{AddressPolicy, Url};
/// let strict = AddressPolicy::default();
/// let local = Url::parse("http://127.0.0.1:8080/").unwrap();
/// assert!(strict.check_url(&local).is_err());
/// let own = AddressPolicy::default().allow_private_origin(&local);
/// assert!(own.check_url(&local).is_ok());
/// let other_port = Url::parse("http://127.0.0.1:6379/").unwrap();
/// assert!(own.check_url(&other_port).is_err());
/// let metadata = Url::parse("http://169.254.169.254/latest/").unwrap();
/// assert!(AddressPolicy::default().allow_private(true).check_url(&metadata).is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    allow_private: bool,
    private_origins: Vec<Origin>,
}

/// A URL the policy admits, and how its host name must be resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admission {
    /// Whether the host may resolve to loopback, private and link-local
    /// addresses: pick the resolver ([`GuardedResolver::new`]) by it.
    pub private_ok: bool,
}

impl AddressPolicy {
    /// Allows loopback, private and link-local addresses for every URL
    /// (`--allow-private-addresses`): for crawling an intranet. Metadata,
    /// unspecified, multicast and reserved addresses stay refused.
    pub fn allow_private(mut self, yes: bool) -> AddressPolicy {
        self.allow_private = yes;
        self
    }

    /// Allows loopback, private and link-local addresses for `url`'s
    /// origin only (scheme, host and port, RFC 6454): a test's own server
    /// on 127.0.0.1, or one intranet site, while a redirect or link to
    /// another port or host on the same network stays refused.
    pub fn allow_private_origin(mut self, url: &Url) -> AddressPolicy {
        let origin = url.origin();
        if origin.is_tuple() && !self.private_origins.contains(&origin) {
            self.private_origins.push(origin);
        }
        self
    }

    /// Whether private addresses are allowed for every URL.
    pub fn allows_private(&self) -> bool {
        self.allow_private
    }

    /// Checks a URL before anything is sent: its scheme, and its host
    /// when the host is an address. A host name is checked after DNS, by
    /// the resolver the admission names.
    ///
    /// # Errors
    /// [`AddressError::Scheme`], [`AddressError::NoHost`], or
    /// [`AddressError::Refused`] for an address host of a refused class.
    pub fn check_url(&self, url: &Url) -> Result<Admission, AddressError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(AddressError::Scheme(url.scheme().to_string()));
        }
        let private_ok = self.allow_private || self.private_origins.contains(&url.origin());
        let ip = match url.host() {
            None => return Err(AddressError::NoHost),
            Some(Host::Domain(_)) => None,
            Some(Host::Ipv4(v4)) => Some(IpAddr::V4(v4)),
            Some(Host::Ipv6(v6)) => Some(IpAddr::V6(v6)),
        };
        if let Some(ip) = ip {
            check_ip(url.host_str().unwrap_or_default(), ip, private_ok)?;
        }
        Ok(Admission { private_ok })
    }
}

/// Checks one address: `Ok` when its class is public, or private and
/// `private_ok`.
///
/// # Errors
/// [`AddressError::Refused`] naming `host`, the address and its class.
pub fn check_ip(host: &str, ip: IpAddr, private_ok: bool) -> Result<(), AddressError> {
    let class = AddressClass::of(ip);
    if class == AddressClass::Public || (private_ok && class.is_private()) {
        Ok(())
    } else {
        Err(AddressError::Refused { host: host.to_string(), addr: ip, class })
    }
}

/// A DNS resolver for reqwest that answers only with addresses the policy
/// allows: the system resolver's answer (`getaddrinfo`, through tokio),
/// every address classified, the refused ones dropped. When none is left
/// the lookup fails with the [`AddressError`] of the first refused one,
/// which the HTTP source finds in the error's chain and reports as such.
#[derive(Debug, Clone, Copy)]
pub struct GuardedResolver {
    private_ok: bool,
}

impl GuardedResolver {
    /// A resolver that lets loopback, private and link-local addresses
    /// through when `private_ok` (an [`Admission`] says which one a URL
    /// needs).
    pub fn new(private_ok: bool) -> GuardedResolver {
        GuardedResolver { private_ok }
    }

    /// As an `Arc`, for `reqwest::ClientBuilder::dns_resolver`.
    pub fn shared(self) -> Arc<GuardedResolver> {
        Arc::new(self)
    }
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let private_ok = self.private_ok;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let lookup = tokio::net::lookup_host((host.clone(), 0)).await.map(Iterator::collect);
            let addrs = guarded(&host, lookup, private_ok)?;
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// The addresses of a lookup that pass the policy.
fn guarded(
    host: &str,
    lookup: std::io::Result<Vec<SocketAddr>>,
    private_ok: bool,
) -> Result<Vec<SocketAddr>, AddressError> {
    let found =
        lookup.map_err(|e| AddressError::Dns { host: host.to_string(), message: e.to_string() })?;
    let mut refused = None;
    let mut kept = Vec::with_capacity(found.len());
    for addr in found {
        match check_ip(host, addr.ip(), private_ok) {
            Ok(()) => kept.push(addr),
            Err(e) => {
                refused.get_or_insert(e);
            }
        }
    }
    match (kept.is_empty(), refused) {
        (false, _) => Ok(kept),
        (true, Some(e)) => Err(e),
        (true, None) => {
            Err(AddressError::Dns { host: host.to_string(), message: "no address".to_string() })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(s: &str) -> AddressClass {
        AddressClass::of(s.parse().unwrap())
    }

    #[test]
    fn issue_31_address_classes() {
        use AddressClass::*;
        let cases = [
            ("93.184.215.14", Public),
            ("8.8.8.8", Public),
            ("2606:4700::6810:84e5", Public),
            ("127.0.0.1", Loopback),
            ("127.255.0.9", Loopback),
            ("::1", Loopback),
            ("::ffff:127.0.0.1", Loopback),
            ("64:ff9b::7f00:1", Loopback),
            ("10.1.2.3", Private),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("172.32.0.1", Public),
            ("192.168.1.1", Private),
            ("100.64.0.1", Private),
            ("198.18.0.1", Private),
            ("fd12:3456::1", Private),
            ("fc00::1", Private),
            ("fec0::1", Private),
            ("::ffff:10.0.0.1", Private),
            ("169.254.1.1", LinkLocal),
            ("fe80::1", LinkLocal),
            ("169.254.169.254", Metadata),
            ("::ffff:169.254.169.254", Metadata),
            ("64:ff9b::a9fe:a9fe", Metadata),
            ("169.254.170.2", Metadata),
            ("100.100.100.200", Metadata),
            ("168.63.129.16", Metadata),
            ("fd00:ec2::254", Metadata),
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", Unspecified),
            ("::", Unspecified),
            ("::ffff:0.0.0.0", Unspecified),
            ("224.0.0.1", Multicast),
            ("ff02::1", Multicast),
            ("255.255.255.255", Reserved),
            ("240.0.0.1", Reserved),
            ("192.0.2.1", Reserved),
            ("2001:db8::1", Reserved),
            ("::127.0.0.1", Reserved),
            ("2002:7f00:1::1", Reserved),
            ("2002:5db8:d70e::1", Public),
        ];
        for (ip, want) in cases {
            assert_eq!(class(ip), want, "{ip}");
        }
    }

    #[test]
    fn issue_31_urls_are_checked_by_scheme_and_address_host() {
        let strict = AddressPolicy::default();
        let u = |s: &str| Url::parse(s).unwrap();
        assert!(strict.check_url(&u("http://example.com/")).is_ok());
        assert!(matches!(strict.check_url(&u("ftp://example.com/")), Err(AddressError::Scheme(_))));
        assert!(matches!(strict.check_url(&u("file:///etc/passwd")), Err(AddressError::Scheme(_))));
        for refused in [
            "http://127.0.0.1:8080/",
            "http://[::1]:6379/",
            "http://[::ffff:7f00:1]/",
            "http://169.254.169.254/latest/meta-data/",
            "http://[fd00:ec2::254]/",
            "http://0.0.0.0:80/",
            "http://2130706433/",
            "http://0x7f.1/",
        ] {
            let e = strict.check_url(&u(refused)).unwrap_err();
            assert!(matches!(e, AddressError::Refused { .. }), "{refused}: {e}");
        }
        let message = strict.check_url(&u("http://127.0.0.1:1/")).unwrap_err().to_string();
        assert_eq!(
            message,
            "refused by the address policy: 127.0.0.1 is a loopback address \
             (--allow-private-addresses lifts this)"
        );
        // Allowed for one origin: that origin only.
        let own = AddressPolicy::default().allow_private_origin(&u("http://127.0.0.1:8080/x"));
        assert_eq!(
            own.check_url(&u("http://127.0.0.1:8080/y")),
            Ok(Admission { private_ok: true })
        );
        assert!(own.check_url(&u("http://127.0.0.1:8081/")).is_err());
        assert!(own.check_url(&u("https://127.0.0.1:8080/")).is_err());
        assert_eq!(
            own.check_url(&u("http://localhost:8081/")),
            Ok(Admission { private_ok: false })
        );
        // Allowed everywhere: metadata and the like stay refused.
        let all = AddressPolicy::default().allow_private(true);
        assert!(all.check_url(&u("http://10.0.0.1/")).is_ok());
        assert!(all.check_url(&u("http://[fe80::1]/")).is_ok());
        assert!(all.check_url(&u("http://169.254.169.254/")).is_err());
        assert!(all.check_url(&u("http://[::ffff:169.254.169.254]/")).is_err());
        assert!(all.check_url(&u("http://0.0.0.0/")).is_err());
    }

    #[test]
    fn issue_31_resolved_addresses_are_filtered_and_failures_named() {
        let sa = |s: &str| -> SocketAddr { s.parse().unwrap() };
        // Only checked addresses are handed on.
        let mixed = Ok(vec![sa("127.0.0.1:0"), sa("93.184.215.14:0"), sa("[::1]:0")]);
        assert_eq!(guarded("h", mixed, false).unwrap(), [sa("93.184.215.14:0")]);
        let local = vec![sa("127.0.0.1:0"), sa("[::1]:0")];
        assert_eq!(guarded("h", Ok(local.clone()), true).unwrap().len(), 2);
        let e = guarded("localhost", Ok(local), false).unwrap_err();
        assert!(e.to_string().contains("localhost is a loopback address"), "{e}");
        let meta = Ok(vec![sa("169.254.169.254:0")]);
        assert!(matches!(
            guarded("h", meta, true),
            Err(AddressError::Refused { class: AddressClass::Metadata, .. })
        ));
        let failed = Err(std::io::Error::other("failed to lookup address information"));
        let e = guarded("no.such.host.invalid", failed, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "DNS: cannot resolve no.such.host.invalid: failed to lookup address information"
        );
        assert!(matches!(guarded("h", Ok(Vec::new()), false), Err(AddressError::Dns { .. })));
    }
}
