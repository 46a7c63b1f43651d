//! Property tests of the domain parsers: whatever a client sends, parsing
//! never panics, and what parses prints back to the same value. Ids, money,
//! dates, pagination, webhook URLs and addresses (IPv4 carried in IPv6 judged as the
//! IPv4 address), sealed values, and the receipt and descriptor readers of
//! the engine.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use core_grpc::domain::money::{from_major, to_major};
use core_grpc::domain::{IdKind, Page, new_id, parse_id};
use core_grpc::platform::crypto::{Keyring, columns};
use core_grpc::platform::egress::address::{classify, embedded_v4};
use core_grpc::services::expenses::parse_date;
use proptest::prelude::*;

const KINDS: [IdKind; 6] =
    [IdKind::User, IdKind::Connection, IdKind::Account, IdKind::Expense, IdKind::UserToken, IdKind::Receipt];

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn ids_never_panic_and_fresh_ids_round_trip(raw in ".{0,80}", kind in 0usize..KINDS.len()) {
        let kind = KINDS[kind];
        if let Some(parsed) = parse_id(kind, &raw) {
            prop_assert_eq!(parsed, raw.as_str());
            prop_assert!(raw.starts_with(kind.prefix()));
        }
        let fresh = new_id(kind);
        prop_assert_eq!(parse_id(kind, &fresh), Some(fresh.as_str()));
    }

    #[test]
    fn money_round_trips_through_the_wire_number(minor in 1i64..1_000_000_000_000) {
        prop_assert_eq!(from_major(to_major(minor)), Some(minor));
    }

    #[test]
    fn any_number_parses_or_is_refused_without_panic(amount in any::<f64>()) {
        if let Some(minor) = from_major(amount) {
            prop_assert!(minor > 0);
            prop_assert!((to_major(minor) - amount).abs() < 0.005);
        }
    }

    #[test]
    fn dates_never_panic_and_print_back(raw in ".{0,20}", y in 1900i32..2200, m in 1u32..13, d in 1u32..29) {
        let _ = parse_date("date", &raw);
        let text = format!("{y:04}-{m:02}-{d:02}");
        let parsed = parse_date("date", &text).unwrap();
        prop_assert_eq!(parsed.format("%Y-%m-%d").to_string(), text);
    }

    #[test]
    fn pagination_is_checked_and_echoed(limit in proptest::option::of(any::<i64>()), offset in proptest::option::of(any::<i64>())) {
        match Page::parse(limit, offset) {
            Ok(page) => {
                prop_assert!((1..=100).contains(&page.limit));
                let shown = page.pagination(1000);
                prop_assert_eq!(shown.limit, page.limit as i64);
                prop_assert_eq!(shown.offset, page.offset as i64);
                prop_assert_eq!(shown.has_more, page.offset + page.limit < 1000);
            }
            Err(err) => {
                let param = err.detail().param.unwrap_or_default();
                prop_assert!(param == "limit" || param == "offset");
            }
        }
    }

    #[test]
    fn ipv4_in_ipv6_is_judged_as_the_ipv4_address(octets in any::<[u8; 4]>()) {
        let v4 = Ipv4Addr::from(octets);
        let mapped = v4.to_ipv6_mapped();
        prop_assert_eq!(embedded_v4(mapped), Some(v4));
        prop_assert_eq!(classify(IpAddr::V6(mapped)), classify(IpAddr::V4(v4)));
        let nat64 = Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, u16::from_be_bytes([octets[0], octets[1]]), u16::from_be_bytes([octets[2], octets[3]]));
        prop_assert_eq!(embedded_v4(nat64), Some(v4));
    }

    #[test]
    fn any_address_is_classified_without_panic(bits in any::<u128>()) {
        let _ = classify(IpAddr::V6(Ipv6Addr::from(bits)));
    }

    #[test]
    fn sealed_values_open_to_what_was_sealed(plain in ".{0,200}", row in "[a-z_0-9]{1,40}") {
        let keyring = Keyring::parse(&Keyring::generate_key(), &[]).unwrap();
        let sealed = keyring.seal(columns::USER_EMAIL, &row, &plain);
        prop_assert_eq!(keyring.open(columns::USER_EMAIL, &row, &sealed).unwrap(), plain);
    }

    #[test]
    fn receipts_and_descriptors_never_panic(text in "(?s).{0,400}") {
        let engine = engine();
        let parsed = sail_engine::receipts::parse(&text);
        for line in &parsed.lines {
            prop_assert!(!line.description.is_empty());
        }
        let _ = engine.adjudicate(&sail_engine::Purchase {
            description: &text, merchant_name: None, mcc: None, amount_minor: 100, items: None,
        });
    }
}

fn engine() -> &'static sail_engine::Engine {
    static ENGINE: std::sync::OnceLock<sail_engine::Engine> = std::sync::OnceLock::new();
    ENGINE.get_or_init(|| sail_engine::Engine::seeded().unwrap())
}

/// Webhook URLs: whatever is sent, checking never panics; a URL naming a
/// literal IPv4 address is accepted exactly when the address is public, and
/// what is accepted prints back as sent.
#[test]
fn webhook_urls_never_panic_and_accepted_ones_print_back() {
    use core_grpc::services::webhooks::{UrlCheck, check_url};
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    proptest!(ProptestConfig { cases: 512, ..ProptestConfig::default() }, |(
        octets in any::<[u8; 4]>(),
        port in 1u16..,
        path in "(/[a-z0-9_~-]{0,12}){1,3}",
        scheme in prop_oneof![Just("http"), Just("https")],
    )| {
        let ip = Ipv4Addr::from(octets);
        let url = format!("{scheme}://{ip}:{port}{path}");
        let checked = runtime.block_on(check_url(&url, false, UrlCheck::Registration));
        prop_assert_eq!(checked.is_ok(), classify(IpAddr::V4(ip)).is_none(), "{}", url);
        if let Ok(parsed) = checked {
            // The URL crate leaves out a scheme's default port.
            let default = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
            let expected = if default { format!("{scheme}://{ip}{path}") } else { url.clone() };
            prop_assert_eq!(parsed.as_str(), expected);
        }
    });
    // Dot segments, which URL parsing would resolve away (a delivery to a
    // URL other than the one registered), are refused.
    for dotted in ["http://8.8.8.8/.", "http://8.8.8.8/a/../b", "https://8.8.8.8/%2E%2e/x", "http://8.8.8.8/./?q=1"] {
        assert!(runtime.block_on(check_url(dotted, false, UrlCheck::Registration)).is_err(), "{dotted}");
    }
    assert!(runtime.block_on(check_url("http://8.8.8.8/a.b/..c?x=/..", false, UrlCheck::Registration)).is_ok());
    proptest!(ProptestConfig { cases: 512, ..ProptestConfig::default() }, |(raw in "(?s).{0,300}")| {
        // Random text: refused or accepted, never a panic, never a DNS wait
        // (text that is not a URL fails the grammar first).
        let _ = runtime.block_on(check_url(&raw, false, UrlCheck::Registration));
    });
}
