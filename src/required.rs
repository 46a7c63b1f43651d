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

/// What is wrong with a request string or list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextProblem {
    /// A control character other than tab, line feed or carriage return.
    ControlCharacter,
    /// Longer than this many characters.
    TooLong(u32),
    /// More than this many items.
    TooMany(u32),
}

/// A request message whose strings and lists can be checked against the
/// limits declared in proto.
pub trait PlainText {
    /// The first field (dotted path, `transactions.3.description`) that
    /// breaks a rule, and how.
    fn text_problem(&self) -> Option<(String, TextProblem)>;
}

/// How one string breaks the rules, if it does.
pub fn text_problem(text: &str, max_chars: u32) -> Option<TextProblem> {
    if !is_plain_text(text) {
        Some(TextProblem::ControlCharacter)
    } else if text.chars().count() > max_chars as usize {
        Some(TextProblem::TooLong(max_chars))
    } else {
        None
    }
}

/// No control character but tab, line feed and carriage return: the rule the
/// OpenAPI document states for every request string. Control characters
/// are Unicode's: C0 (U+0000 to U+001F), DEL and C1 (U+0080 to U+009F).
pub fn is_plain_text(text: &str) -> bool {
    !text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

/// The same rule as an ECMA 262 pattern, for the OpenAPI document.
pub const PLAIN_TEXT_PATTERN: &str = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$";

include!(concat!(env!("OUT_DIR"), "/plain_text.rs"));

/// The longest `Request-Id` a caller may send.
pub const MAX_REQUEST_ID_BYTES: usize = 200;

/// Whether a caller's `Request-Id` (REST header or gRPC metadata) is used
/// as it is: at most 200 bytes of letters, digits and `- _ . : / + = @`
/// (UUIDs, ULIDs, base64 and prefixed ids fit). It is written into every
/// log line of its request, so nothing that could end a field or start
/// another (spaces, quotes, `=` pairs after a space, escapes) gets in.
pub fn is_usable_request_id(value: &[u8]) -> bool {
    !value.is_empty()
        && value.len() <= MAX_REQUEST_ID_BYTES
        && value.iter().all(|b| b.is_ascii_alphanumeric() || b"-_.:/+=@".contains(b))
}

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
    fn request_ids_are_ids_not_text() {
        use super::is_usable_request_id as usable;
        assert!(usable(b"req-partner-123"));
        assert!(usable(b"0193a5c2-7d1e-7cc2-9a51-3f1f0c2a9b10"));
        assert!(usable(b"trace:ab/cd+ef=="));
        for forged in [&b"a b"[..], b"id\" status=500", b"x\ny", b"\xc3\xa9", b"", &[b'a'; 201]] {
            assert!(!usable(forged), "{:?}", String::from_utf8_lossy(forged));
        }
    }

    #[test]
    fn control_characters_are_found_wherever_they_are() {
        use super::PlainText;
        let row = |description: &str| pb::PushedTransaction { description: description.into(), ..Default::default() };
        let push = pb::PushTransactionsRequest {
            transactions: vec![row("CVS\tPHARMACY"), row("CVS\u{0}PHARMACY")],
            ..Default::default()
        };
        let field = |problem: Option<(String, super::TextProblem)>| problem.map(|(f, _)| f);
        assert_eq!(field(push.text_problem()).as_deref(), Some("transactions.1.description"));
        let user = pb::CreateUserRequest {
            external_user_id: "u".into(),
            address: Some(pb::Address { city: Some("Austin\u{7f}".into()), ..Default::default() }),
            ..Default::default()
        };
        assert_eq!(field(user.text_problem()).as_deref(), Some("address.city"));
        let events = pb::CreateWebhookEndpointRequest { url: "https://x".into(), events: vec!["a\u{1b}".into()] };
        assert_eq!(field(events.text_problem()).as_deref(), Some("events.0"));
        assert_eq!(pb::ListUsersRequest::default().text_problem(), None);
        let long = pb::GetUserRequest { user_id: "u".repeat(256) };
        assert_eq!(long.text_problem(), Some(("user_id".into(), super::TextProblem::TooLong(255))));
        let many = pb::CreateWebhookEndpointRequest { url: "https://x".into(), events: vec!["a".into(); 17] };
        assert_eq!(many.text_problem(), Some(("events".into(), super::TextProblem::TooMany(16))));
        assert!(super::is_plain_text("line one\nline two\ttab\r"));
        // C1 controls are controls too (U+0085 is NEL, U+009B is CSI).
        for c1 in ['\u{80}', '\u{85}', '\u{9b}', '\u{9f}'] {
            assert!(!super::is_plain_text(&format!("CVS{c1}PHARMACY")), "{:?}", c1);
        }
        assert!(super::is_plain_text("CAFÉ ¢ \u{a0}"), "U+00A0 and above are text");
    }
}
