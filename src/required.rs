//! Which fields of each request message must be given, as declared with
//! `google.api.field_behavior = REQUIRED` in `proto/` and compiled by
//! `build.rs`. The core checks every request against this before anything
//! else reads it, so REST and gRPC callers get the same `invalid_request`.

/// A request message whose required fields can be checked.
pub trait Required {
    /// The first required field left empty, if any, and what to tell the
    /// caller about it.
    fn missing_field(&self) -> Option<(&'static str, &'static str)>;
}

include!(concat!(env!("OUT_DIR"), "/required_fields.rs"));

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
}
