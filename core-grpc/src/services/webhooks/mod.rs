//! Webhooks: partners' endpoints, signed deliveries of every event, retried
//! with backoff until they land (docs/contract.md#webhooks-and-events). Events reach endpoints
//! through a transactional outbox: `outbox::record` writes each delivery in
//! the transaction that made the change, and delivery workers claim them
//! through the same loop and lease as jobs.

/// The address classification lives in `egress`, shared with the client.
pub use crate::platform::egress::address;
pub mod signature;

pub use crate::config::WEBHOOK_ATTEMPT_TIMEOUT as ATTEMPT_TIMEOUT;

use std::net::IpAddr;

use entities::webhook_endpoint;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};

use sail_api::errors::excerpt;

use crate::config::MAX_WEBHOOK_ENDPOINTS;
use crate::domain::{IdKind, Page, new_id, parse_id, time};
use crate::error::CoreError;
use crate::platform::crypto::{Keyring, columns};
use crate::platform::db::begin_write;
use crate::services::events::EventType;
use crate::services::outbox::{self, EndpointStatus};

/// A new signing secret: `whsec_` + 32 base62 characters.
pub fn generate_secret() -> String {
    crate::domain::random_token("whsec_", 32)
}

/// A webhook URL's host name, as the `url` pattern in
/// proto/sail/v1/webhooks.proto states it.
pub const URL_HOST_NAME: &str = r"[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9-]*)*";
/// What may follow the host: port, path, query and fragment, in RFC 3986
/// characters.
pub const URL_TAIL: &str = r"(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(/([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})*)*(\?([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?(#([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$";

/// The whole URL grammar: the documented one, and a literal address as
/// host (which must then be public).
static URL_GRAMMAR: std::sync::LazyLock<Result<regex::Regex, regex::Error>> = std::sync::LazyLock::new(|| {
    regex::Regex::new(&format!(
        r"^[Hh][Tt][Tt][Pp][Ss]?://(?:{URL_HOST_NAME}|[0-9]{{1,3}}(?:\.[0-9]{{1,3}}){{3}}|\[[0-9A-Fa-f:.]+\]){URL_TAIL}"
    ))
});

/// When a webhook URL is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlCheck {
    /// At registration: a host name that does not resolve yet is accepted.
    Registration,
    /// Before an attempt: the host must resolve, to public addresses only.
    Delivery,
}

impl UrlCheck {
    /// How long a host name may take to resolve.
    fn dns_timeout(self) -> std::time::Duration {
        match self {
            UrlCheck::Registration => std::time::Duration::from_secs(2),
            UrlCheck::Delivery => std::time::Duration::from_secs(5),
        }
    }
}

/// Whether the path of `url` has a `.` or `..` segment (percent-encoded
/// dots included), which URL parsing resolves away.
fn has_dot_segment(url: &str) -> bool {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let Some(path_start) = after_scheme.find('/') else { return false };
    let path = &after_scheme[path_start..];
    let path = path.split(['?', '#']).next().unwrap_or("");
    path.split('/').any(|segment| {
        let dots = segment.to_ascii_lowercase().replace("%2e", ".");
        dots == "." || dots == ".."
    })
}

/// Checks that `url` may receive webhooks: absolute http(s), no credentials,
/// and every address it resolves to public unicast (`address`; private and
/// loopback ones too with `allow_private`).
/// Deliveries check again before each attempt, since DNS can change.
pub async fn check_url(url: &str, allow_private: bool, purpose: UrlCheck) -> Result<reqwest::Url, CoreError> {
    let invalid = |why: String| CoreError::invalid("url", why);
    if url.len() > 2048 {
        return Err(invalid("url must be at most 2048 characters.".into()));
    }
    // The grammar the OpenAPI document states (RFC 3986 characters, nothing
    // a URL parser would rewrite behind the partner's back).
    let grammar = URL_GRAMMAR.as_ref().map_err(|err| CoreError::Internal(format!("URL grammar: {err}")))?;
    if !grammar.is_match(url) {
        return Err(invalid(
            "url must be an absolute http(s) URL of RFC 3986 characters (percent-encode the rest), without credentials."
                .into(),
        ));
    }
    if has_dot_segment(url) {
        // The URL parser would remove them, delivering somewhere other than
        // the URL the partner registered and reads back.
        return Err(invalid("url must not contain '.' or '..' path segments.".into()));
    }
    let parsed =
        reqwest::Url::parse(url).map_err(|err| invalid(format!("url must be an absolute http(s) URL: {err}.")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(invalid(format!("url must use http or https, not {}.", parsed.scheme())));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(invalid("url must not carry credentials; verify requests with Sail-Signature instead.".into()));
    }
    let host = parsed.host_str().ok_or_else(|| invalid("url must name a host.".into()))?;
    let port = parsed.port_or_known_default().unwrap_or(443);
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addresses: Vec<IpAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![ip],
        // A resolver that does not answer must not hold the request (or the
        // delivery worker): the lookup is bounded.
        Err(_) => match tokio::time::timeout(purpose.dns_timeout(), tokio::net::lookup_host((host, port))).await {
            Ok(Ok(found)) => found.map(|addr| addr.ip()).collect(),
            // A name that does not resolve yet may be registered (its DNS may
            // come later); a delivery never goes anywhere this check has not
            // passed, because each attempt checks again.
            _ if purpose == UrlCheck::Registration => Vec::new(),
            Ok(Err(_)) => {
                return Err(invalid(format!("url's host {} does not resolve.", excerpt(host.to_string(), 100))));
            }
            Err(_) => {
                return Err(invalid(format!("url's host {} did not resolve in time.", excerpt(host.to_string(), 100))));
            }
        },
    };
    if addresses.is_empty() && purpose == UrlCheck::Delivery {
        return Err(invalid(format!("url's host {} does not resolve.", excerpt(host.to_string(), 100))));
    }
    // The refusal names the rule, never an address a name resolved to: a
    // caller must not learn what Sail's resolver sees for internal names.
    let literal = host.parse::<IpAddr>().is_ok();
    for ip in addresses {
        if let Some(why) = address::forbidden(ip, allow_private) {
            let subject = if literal { format!("url's host {ip} is") } else { "url's host resolves to".to_string() };
            return Err(invalid(format!(
                "{subject} {}; webhooks go to public addresses only{}.",
                why.describe(),
                if allow_private { "" } else { " (SAIL_WEBHOOK_ALLOW_PRIVATE=true also allows private ones)" }
            )));
        }
    }
    Ok(parsed)
}

/// Validates subscribed event types: known ones, no repeats.
pub fn parse_event_types(events: &[String]) -> Result<Vec<String>, CoreError> {
    let mut out: Vec<String> = Vec::new();
    for (index, event) in events.iter().enumerate() {
        if EventType::parse(event).is_none() {
            return Err(CoreError::invalid(
                format!("events.{index}"),
                format!("Unknown event type '{event}'; known types: {}.", crate::services::events::event_type_list()),
            ));
        }
        if !out.contains(event) {
            out.push(event.clone());
        }
    }
    Ok(out)
}

/// Registers an endpoint for the partner; returns it with its signing
/// secret, which is stored sealed and shown to the partner this once.
pub async fn create_endpoint(
    db: &impl ConnectionTrait,
    keyring: &Keyring,
    partner_id: &str,
    url: &str,
    events: &[String],
    allow_private: bool,
) -> Result<(webhook_endpoint::Model, String), CoreError> {
    let url = check_url(url, allow_private, UrlCheck::Registration).await?;
    let events = parse_event_types(events)?;
    let enabled = webhook_endpoint::Entity::find()
        .filter(webhook_endpoint::Column::PartnerId.eq(partner_id))
        .filter(webhook_endpoint::Column::Status.eq(EndpointStatus::Enabled))
        .count(db)
        .await?;
    if enabled >= MAX_WEBHOOK_ENDPOINTS {
        return Err(CoreError::invalid(
            "url",
            format!(
                "A partner account has at most {MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one to add another."
            ),
        ));
    }
    let id = new_id(IdKind::WebhookEndpoint);
    let secret = generate_secret();
    let model = webhook_endpoint::ActiveModel {
        secret: Set(keyring.seal(columns::WEBHOOK_SECRET, &id, &secret)),
        id: Set(id),
        partner_id: Set(partner_id.to_string()),
        url: Set(url.to_string()),
        events: Set(events.join(",")),
        status: Set(EndpointStatus::Enabled),
        created_at: Set(time::now()),
        deleted_at: Set(None),
    };
    Ok((model.insert(db).await?, secret))
}

/// The partner's enabled endpoints, oldest first, paged, and the total.
pub async fn list_endpoints(
    db: &impl ConnectionTrait,
    partner_id: &str,
    page: Page,
) -> Result<(Vec<webhook_endpoint::Model>, u64), CoreError> {
    let query = webhook_endpoint::Entity::find()
        .filter(webhook_endpoint::Column::PartnerId.eq(partner_id))
        .filter(webhook_endpoint::Column::Status.eq(EndpointStatus::Enabled));
    let total = query.clone().count(db).await?;
    let found = query.order_by_asc(webhook_endpoint::Column::Id).limit(page.limit).offset(page.offset).all(db).await?;
    Ok((found, total))
}

/// Deletes an endpoint: no further deliveries to it, pending ones included.
pub async fn delete_endpoint(
    db: &DatabaseConnection,
    partner_id: &str,
    endpoint_id: &str,
) -> Result<webhook_endpoint::Model, CoreError> {
    let txn = begin_write(db).await?;
    let not_found = || CoreError::not_found("webhook endpoint", "webhook_endpoint_id", endpoint_id);
    let id = parse_id(IdKind::WebhookEndpoint, endpoint_id).ok_or_else(not_found)?;
    let found = webhook_endpoint::Entity::find_by_id(id)
        .filter(webhook_endpoint::Column::PartnerId.eq(partner_id))
        .filter(webhook_endpoint::Column::Status.eq(EndpointStatus::Enabled))
        .one(&*txn)
        .await?
        .ok_or_else(not_found)?;
    let mut deleted: webhook_endpoint::ActiveModel = found.into();
    deleted.status = Set(EndpointStatus::Deleted);
    deleted.deleted_at = Set(Some(time::now()));
    let deleted = deleted.update(&*txn).await?;
    outbox::cancel_for_endpoint(&*txn, &deleted.id).await?;
    txn.commit().await?;
    Ok(deleted)
}

#[cfg(test)]
mod url_tests {
    use super::*;

    #[test]
    fn the_core_checks_the_documented_url_grammar() {
        let document: serde_json::Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
        let documented = &document["components"]["schemas"]["CreateWebhookEndpointRequest"]["properties"]["url"];
        assert_eq!(documented["pattern"], format!("^[Hh][Tt][Tt][Pp][Ss]?://{URL_HOST_NAME}{URL_TAIL}"));
        let grammar = URL_GRAMMAR.as_ref().unwrap();
        for ok in [
            "https://a.example.com/hook?x=1#top",
            "HTTP://h:8080/a%20b",
            "https://93.184.216.34/hook",
            "http://127.0.0.1:65535/",
        ] {
            assert!(grammar.is_match(ok), "{ok}");
        }
        for bad in [
            "https://h/#a#b",
            "https://h/%zz",
            "https://u:p@h/",
            "ftp://h/",
            "https://h/a b",
            "https://h/{x}",
            "http://h:65536/",
        ] {
            assert!(!grammar.is_match(bad), "{bad}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_and_distinct() {
        let a = generate_secret();
        assert!(a.starts_with("whsec_") && a.len() == 38);
        assert_ne!(a, generate_secret());
    }
}
