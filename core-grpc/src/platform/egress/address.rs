//! Which addresses may receive webhooks: public unicast only. Every range of
//! the IANA IPv4 and IPv6 special-purpose address registries that is not
//! globally reachable unicast is refused, and an IPv4 address carried inside
//! an IPv6 one (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) is
//! judged as the IPv4 address it reaches. Private and loopback receivers are
//! allowed only when the operator says so (`SAIL_WEBHOOK_ALLOW_PRIVATE`, for
//! development and tests); cloud metadata addresses never.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is not a public unicast one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotPublic {
    /// A cloud provider's instance metadata service: never a receiver.
    Metadata,
    /// Loopback, private, shared or link-local: reachable only from inside a
    /// network; allowed with `SAIL_WEBHOOK_ALLOW_PRIVATE`.
    Private,
    /// Unspecified, documentation, benchmarking, multicast, reserved or
    /// otherwise not a unicast destination: never a receiver.
    Special,
}

impl NotPublic {
    pub fn describe(self) -> &'static str {
        match self {
            NotPublic::Metadata => "a cloud metadata address",
            NotPublic::Private => "a loopback, private or link-local address",
            NotPublic::Special => "a special-purpose (non-routable, documentation or reserved) address",
        }
    }
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], bits: u32) -> bool {
    let mask = if bits == 0 { 0 } else { u32::MAX << (32 - bits) };
    (u32::from(ip) & mask) == (u32::from(Ipv4Addr::from(net)) & mask)
}

fn in_v6(ip: Ipv6Addr, net: [u16; 8], bits: u32) -> bool {
    let mask = if bits == 0 { 0 } else { u128::MAX << (128 - bits) };
    (u128::from(ip) & mask) == (u128::from(Ipv6Addr::from(net)) & mask)
}

/// How an IPv4 address falls short of public unicast, if it does.
fn classify_v4(ip: Ipv4Addr) -> Option<NotPublic> {
    if ip == Ipv4Addr::new(169, 254, 169, 254) || ip == Ipv4Addr::new(100, 100, 100, 200) {
        return Some(NotPublic::Metadata);
    }
    const PRIVATE: &[([u8; 4], u32)] = &[
        ([127, 0, 0, 0], 8),    // loopback
        ([10, 0, 0, 0], 8),     // private
        ([172, 16, 0, 0], 12),  // private
        ([192, 168, 0, 0], 16), // private
        ([100, 64, 0, 0], 10),  // shared address space (carrier-grade NAT)
        ([169, 254, 0, 0], 16), // link-local
    ];
    const SPECIAL: &[([u8; 4], u32)] = &[
        ([0, 0, 0, 0], 8),       // "this network"
        ([192, 0, 0, 0], 24),    // IETF protocol assignments
        ([192, 0, 2, 0], 24),    // documentation (TEST-NET-1)
        ([192, 31, 196, 0], 24), // AS112-v4
        ([192, 52, 193, 0], 24), // AMT
        ([192, 88, 99, 0], 24),  // deprecated 6to4 relay anycast
        ([192, 175, 48, 0], 24), // direct delegation AS112
        ([198, 18, 0, 0], 15),   // benchmarking
        ([198, 51, 100, 0], 24), // documentation (TEST-NET-2)
        ([203, 0, 113, 0], 24),  // documentation (TEST-NET-3)
        ([224, 0, 0, 0], 4),     // multicast
        ([240, 0, 0, 0], 4),     // reserved, and the limited broadcast address
    ];
    if PRIVATE.iter().any(|(net, bits)| in_v4(ip, *net, *bits)) {
        Some(NotPublic::Private)
    } else if SPECIAL.iter().any(|(net, bits)| in_v4(ip, *net, *bits)) {
        Some(NotPublic::Special)
    } else {
        None
    }
}

/// The IPv4 address an IPv6 one carries, where it carries one.
pub fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let low32 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if let Some(mapped) = ip.to_ipv4_mapped() {
        return Some(mapped); // ::ffff:a.b.c.d
    }
    if s[..6] == [0, 0, 0, 0, 0, 0] && u32::from(low32) > 1 {
        return Some(low32); // IPv4-compatible ::a.b.c.d (deprecated)
    }
    if in_v6(ip, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96) {
        return Some(low32); // NAT64 well-known prefix
    }
    if in_v6(ip, [0x2002, 0, 0, 0, 0, 0, 0, 0], 16) {
        return Some(Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8)); // 6to4
    }
    if in_v6(ip, [0x2001, 0, 0, 0, 0, 0, 0, 0], 32) {
        return Some(Ipv4Addr::from(!u32::from(low32))); // Teredo: the client's address, inverted
    }
    None
}

/// How an IPv6 address falls short of public unicast, if it does.
fn classify_v6(ip: Ipv6Addr) -> Option<NotPublic> {
    if ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
        return Some(NotPublic::Metadata);
    }
    if ip == Ipv6Addr::LOCALHOST {
        return Some(NotPublic::Private);
    }
    if ip.is_unspecified() {
        return Some(NotPublic::Special);
    }
    if let Some(v4) = embedded_v4(ip) {
        // Judged as what it reaches; an embedded public address is still a
        // tunnel or translator, so it is accepted only as that address is.
        return classify_v4(v4);
    }
    const PRIVATE: &[([u16; 8], u32)] = &[
        ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7),  // unique local
        ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10), // link-local
        ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10), // site-local (deprecated)
    ];
    const SPECIAL: &[([u16; 8], u32)] = &[
        ([0, 0, 0, 0, 0, 0, 0, 0], 96), // IPv4-compatible remainder (::, ::1 handled above)
        ([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48), // local-use IPv4/IPv6 translation
        ([0x100, 0, 0, 0, 0, 0, 0, 0], 64), // discard-only
        ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23), // IETF protocol assignments
        ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32), // documentation
        ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20), // documentation
        ([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16), // segment routing SIDs
        ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8), // multicast
    ];
    if PRIVATE.iter().any(|(net, bits)| in_v6(ip, *net, *bits)) {
        Some(NotPublic::Private)
    } else if SPECIAL.iter().any(|(net, bits)| in_v6(ip, *net, *bits)) {
        Some(NotPublic::Special)
    } else {
        None
    }
}

/// How an address falls short of public unicast, if it does.
pub fn classify(ip: IpAddr) -> Option<NotPublic> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

/// Why `ip` may not receive webhooks, if it may not: anything but public
/// unicast, except private and loopback addresses when `allow_private`.
pub fn forbidden(ip: IpAddr, allow_private: bool) -> Option<NotPublic> {
    match classify(ip) {
        Some(NotPublic::Private) if allow_private => None,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    /// One address from every range of the IANA IPv4 and IPv6
    /// special-purpose address registries, with what Sail makes of it.
    const REGISTRY: &[(&str, Option<NotPublic>)] = &[
        ("0.0.0.1", Some(NotPublic::Special)),                              // 0.0.0.0/8
        ("10.1.2.3", Some(NotPublic::Private)),                             // 10.0.0.0/8
        ("100.64.0.1", Some(NotPublic::Private)),                           // 100.64.0.0/10
        ("127.0.0.1", Some(NotPublic::Private)),                            // 127.0.0.0/8
        ("169.254.1.1", Some(NotPublic::Private)),                          // 169.254.0.0/16
        ("169.254.169.254", Some(NotPublic::Metadata)),                     // instance metadata
        ("172.16.0.1", Some(NotPublic::Private)),                           // 172.16.0.0/12
        ("192.0.0.192", Some(NotPublic::Special)),                          // 192.0.0.0/24
        ("192.0.2.1", Some(NotPublic::Special)),                            // 192.0.2.0/24
        ("192.31.196.1", Some(NotPublic::Special)),                         // 192.31.196.0/24
        ("192.52.193.1", Some(NotPublic::Special)),                         // 192.52.193.0/24
        ("192.88.99.1", Some(NotPublic::Special)),                          // 192.88.99.0/24
        ("192.168.1.1", Some(NotPublic::Private)),                          // 192.168.0.0/16
        ("192.175.48.1", Some(NotPublic::Special)),                         // 192.175.48.0/24
        ("198.18.0.1", Some(NotPublic::Special)),                           // 198.18.0.0/15
        ("198.51.100.1", Some(NotPublic::Special)),                         // 198.51.100.0/24
        ("203.0.113.1", Some(NotPublic::Special)),                          // 203.0.113.0/24
        ("224.0.0.1", Some(NotPublic::Special)),                            // multicast
        ("240.0.0.1", Some(NotPublic::Special)),                            // 240.0.0.0/4
        ("255.255.255.255", Some(NotPublic::Special)),                      // limited broadcast
        ("::", Some(NotPublic::Special)),                                   // ::/128
        ("::1", Some(NotPublic::Private)),                                  // ::1/128
        ("::ffff:10.0.0.1", Some(NotPublic::Private)),                      // ::ffff:0:0/96, decoded
        ("::127.0.0.1", Some(NotPublic::Private)),                          // IPv4-compatible, decoded
        ("64:ff9b::a9fe:a9fe", Some(NotPublic::Metadata)),                  // 64:ff9b::/96 NAT64, decoded
        ("64:ff9b:1::1", Some(NotPublic::Special)),                         // 64:ff9b:1::/48
        ("100::1", Some(NotPublic::Special)),                               // 100::/64
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", Some(NotPublic::Special)), // Teredo, client 192.0.2.45 decoded
        ("2001:2::1", Some(NotPublic::Special)),                            // 2001:2::/48 inside 2001::/23
        ("2001:db8::1", Some(NotPublic::Special)),                          // 2001:db8::/32
        ("2002:a9fe:a9fe::", Some(NotPublic::Metadata)),                    // 2002::/16 6to4, decoded
        ("2002:0a00:0001::1", Some(NotPublic::Private)),                    // 6to4 of 10.0.0.1
        ("3fff::1", Some(NotPublic::Special)),                              // 3fff::/20
        ("5f00::1", Some(NotPublic::Special)),                              // 5f00::/16
        ("fc00::1", Some(NotPublic::Private)),                              // fc00::/7
        ("fd00:ec2::254", Some(NotPublic::Metadata)),                       // instance metadata
        ("fe80::1", Some(NotPublic::Private)),                              // fe80::/10
        ("fec0::1", Some(NotPublic::Private)),                              // fec0::/10
        ("ff02::1", Some(NotPublic::Special)),                              // ff00::/8
        ("93.184.216.34", None),
        ("8.8.8.8", None),
        ("2606:4700::1111", None),
        ("::ffff:8.8.8.8", None),
        ("64:ff9b::808:808", None),
    ];

    #[test]
    fn every_special_purpose_range_is_classified() {
        for (text, expected) in REGISTRY {
            assert_eq!(classify(ip(text)), *expected, "{text}");
        }
    }

    #[test]
    fn teredo_carries_the_inverted_client_address() {
        // 2001:0:4136:e378:8000:63bf:3fff:fdd2 reaches 192.0.2.45 inverted:
        // !0x3ffffdd2 = 0xc000022d = 192.0.2.45.
        let teredo: Ipv6Addr = "2001:0:4136:e378:8000:63bf:3fff:fdd2".parse().unwrap();
        assert_eq!(embedded_v4(teredo), Some(Ipv4Addr::new(192, 0, 2, 45)));
        let to_private: Ipv6Addr = "2001:0:4136:e378:8000:63bf:f5ff:fffe".parse().unwrap();
        assert_eq!(embedded_v4(to_private), Some(Ipv4Addr::new(10, 0, 0, 1)));
        assert_eq!(classify(IpAddr::V6(to_private)), Some(NotPublic::Private));
    }

    #[test]
    fn private_receivers_need_the_explicit_setting_and_metadata_never() {
        assert_eq!(forbidden(ip("127.0.0.1"), true), None);
        assert_eq!(forbidden(ip("10.0.0.1"), true), None);
        assert_eq!(forbidden(ip("127.0.0.1"), false), Some(NotPublic::Private));
        assert_eq!(forbidden(ip("169.254.169.254"), true), Some(NotPublic::Metadata));
        assert_eq!(forbidden(ip("192.0.2.1"), true), Some(NotPublic::Special));
    }
}
