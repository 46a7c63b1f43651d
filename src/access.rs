//! The access rule of every gRPC method, as declared in `proto/` with the
//! `(sail.v1.access)` and `(sail.v1.idempotent)` options and compiled into a
//! lookup by `build.rs`; and how an idempotent reply is kept for a replay.

/// What credentials a method needs. See `proto/sail/v1/access.proto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessRule {
    /// No API key is read.
    pub public: bool,
    /// The key needs one of these scopes; empty means any data key.
    pub any_key_scope: &'static [&'static str],
    /// Only a token_admin key may call.
    pub token_admin: bool,
    /// A user token with this scope must accompany the call.
    pub user_token_scope: Option<&'static str>,
    /// The write honours `Idempotency-Key`: a repeat answers the first
    /// success again (`(sail.v1.idempotent)`).
    pub idempotent: bool,
}

include!(concat!(env!("OUT_DIR"), "/access_rules.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_has_a_rule_and_unknown_paths_have_none() {
        assert!(METHOD_PATHS.contains(&"/sail.v1.Users/ListUsers"));
        for path in METHOD_PATHS {
            assert!(access_rule(path).is_some(), "{path}");
        }
        assert_eq!(access_rule("/sail.v1.Users/Nope"), None);
    }

    #[test]
    fn writes_replay_and_reads_do_not() {
        assert!(access_rule("/sail.v1.Receipts/CreateReceipt").unwrap().idempotent);
        assert!(access_rule("/sail.v1.Users/CreateUser").unwrap().idempotent);
        assert!(!access_rule("/sail.v1.Users/GetUser").unwrap().idempotent);
    }

    #[test]
    fn a_kept_reply_drops_its_shown_once_fields_and_nothing_else() {
        use prost::Message;
        let endpoint = crate::pb::WebhookEndpoint {
            id: "we_1".into(),
            url: "https://example.com/hook".into(),
            secret: Some("whsec_x".into()),
            ..Default::default()
        };
        let kept =
            without_shown_once("/sail.v1.WebhookEndpoints/CreateWebhookEndpoint", &endpoint.encode_to_vec()).unwrap();
        let kept = crate::pb::WebhookEndpoint::decode(kept.as_slice()).unwrap();
        assert_eq!(kept, crate::pb::WebhookEndpoint { secret: None, ..endpoint.clone() });
        let user = crate::pb::User { id: "usr_1".into(), ..Default::default() };
        let same = without_shown_once("/sail.v1.Users/CreateUser", &user.encode_to_vec()).unwrap();
        assert_eq!(same, user.encode_to_vec());
    }

    #[test]
    fn health_is_public_and_users_need_a_data_key() {
        assert!(access_rule("/sail.v1.ApiHealth/Check").unwrap().public);
        let users = access_rule("/sail.v1.Users/CreateUser").unwrap();
        assert!(!users.public && !users.token_admin && users.any_key_scope.is_empty());
    }
}
