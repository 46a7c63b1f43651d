//! The access rule of every gRPC method, as declared in `proto/` with the
//! `(sail.v1.access)` option and compiled into a lookup by `build.rs`.

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
    fn health_is_public_and_users_need_a_data_key() {
        assert!(access_rule("/sail.v1.ApiHealth/Check").unwrap().public);
        let users = access_rule("/sail.v1.Users/CreateUser").unwrap();
        assert!(!users.public && !users.token_admin && users.any_key_scope.is_empty());
    }
}
