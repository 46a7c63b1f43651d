//! Which fields of each request message must be given, as declared with
//! `google.api.field_behavior = REQUIRED` in `proto/`, and which hold text
//! that must be plain (no control characters), both compiled by `build.rs`.
//! The core checks every request against these before anything else reads
//! it, so REST and gRPC callers get the same `invalid_request`.

/// A request message whose required fields can be checked.
pub trait Required {
    /// The first required field left empty, if any, and what to tell the
    /// caller about it.
    fn missing_field(&self) -> Option<(&'static str, &'static str)>;
}

include!(concat!(env!("OUT_DIR"), "/required_fields.rs"));

/// A request message whose strings can be checked for control characters.
pub trait PlainText {
    /// The first field (dotted path, `transactions.3.description`) holding a
    /// control character other than tab, line feed or carriage return.
    fn control_character_field(&self) -> Option<String>;
}

/// No control character but tab, line feed and carriage return: the rule the
/// OpenAPI document states for every request string.
pub fn is_plain_text(text: &str) -> bool {
    !text.chars().any(|c| c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r'))
}

/// The same rule as an ECMA 262 pattern, for the OpenAPI document.
pub const PLAIN_TEXT_PATTERN: &str = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$";

include!(concat!(env!("OUT_DIR"), "/plain_text.rs"));

#[cfg(test)]
mod tests {
    use super::Required;
    use crate::pb;

    #[test]
    fn absent_required_fields_are_named() {
        let empty = pb::CreateSandboxConnectionRequest::default();
        assert_eq!(empty.missing_field(), Some(("user_id", "user_id is required.")));
        let typed = pb::CreateSandboxConnectionRequest { user_id: "usr_1".into(), ..Default::default() };
        assert_eq!(typed.missing_field().map(|m| m.0), Some("type"));
        let whole = pb::CreateSandboxConnectionRequest { user_id: "u".into(), r#type: "card".into(), ..typed };
        assert_eq!(whole.missing_field(), None);
        assert_eq!(pb::ListUsersRequest::default().missing_field(), None);
    }

    #[test]
    fn control_characters_are_found_wherever_they_are() {
        use super::PlainText;
        let row = |description: &str| pb::PushedTransaction { description: description.into(), ..Default::default() };
        let push = pb::PushTransactionsRequest {
            transactions: vec![row("CVS\tPHARMACY"), row("CVS\u{0}PHARMACY")],
            ..Default::default()
        };
        assert_eq!(push.control_character_field().as_deref(), Some("transactions.1.description"));
        let user = pb::CreateUserRequest {
            external_user_id: "u".into(),
            address: Some(pb::Address { city: Some("Austin\u{7f}".into()), ..Default::default() }),
            ..Default::default()
        };
        assert_eq!(user.control_character_field().as_deref(), Some("address.city"));
        let events = pb::CreateWebhookEndpointRequest { url: "https://x".into(), events: vec!["a\u{1b}".into()] };
        assert_eq!(events.control_character_field().as_deref(), Some("events.0"));
        assert_eq!(pb::ListUsersRequest::default().control_character_field(), None);
        assert!(super::is_plain_text("line one\nline two\ttab\r"));
    }
}
