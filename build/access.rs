//! `access_rules.rs`: what the core's layers enforce per method, from each
//! method's `(sail.v1.access)` and `(sail.v1.idempotent)` options and the
//! `shown_once` fields of the replies (proto/sail/v1/access.proto,
//! proto/sail/v1/rest.proto). A method without an access rule, a POST that
//! does not say it is idempotent, or a shown-once field a replay could not
//! drop fails the build with the reason.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::descriptor::{Api, Method, field_type, short_name};

/// Checks the declarations and returns the generated module body.
pub fn generate(api: &Api) -> Result<TokenStream, String> {
    let missing: Vec<String> =
        api.methods.iter().filter(|m| m.options.access.is_none()).map(Method::grpc_path).collect();
    if !missing.is_empty() {
        return Err(format!("methods without a (sail.v1.access) option: {}", missing.join(", ")));
    }
    for method in &api.methods {
        match (method.verb(), method.options.idempotent) {
            (Some("POST"), false) => {
                return Err(format!(
                    "{}: a POST must honour Idempotency-Key; add option (sail.v1.idempotent) = true",
                    method.grpc_path()
                ));
            }
            (Some("GET"), true) => {
                return Err(format!(
                    "{}: a read cannot be (sail.v1.idempotent); it has nothing to replay",
                    method.grpc_path()
                ));
            }
            _ => {}
        }
    }

    let rules = api.methods.iter().map(|method| {
        let path = method.grpc_path();
        let rule = method.options.access.clone().unwrap_or_default();
        let public = rule.public;
        let scopes = &rule.any_key_scope;
        let token_admin = rule.token_admin;
        let token_scope = if rule.user_token_scope.is_empty() {
            quote!(None)
        } else {
            let scope = &rule.user_token_scope;
            quote!(Some(#scope))
        };
        let idempotent = method.options.idempotent;
        quote! {
            #path => Some(&AccessRule {
                public: #public,
                any_key_scope: &[#(#scopes),*],
                token_admin: #token_admin,
                user_token_scope: #token_scope,
                idempotent: #idempotent,
            }),
        }
    });
    let paths = api.methods.iter().map(Method::grpc_path);
    let strips = shown_once_strips(api)?;
    let canonical = api.methods.iter().filter(|m| m.options.idempotent).map(|method| {
        let path = method.grpc_path();
        let input = format_ident!("{}", short_name(&method.input));
        quote! {
            #path => Some(
                <crate::pb::#input as prost::Message>::decode(request).map(|message| prost::Message::encode_to_vec(&message)),
            ),
        }
    });

    Ok(quote! {
        /// The access rule of a method path, from its `(sail.v1.access)` and
        /// `(sail.v1.idempotent)` options.
        pub fn access_rule(path: &str) -> Option<&'static AccessRule> {
            match path {
                #(#rules)*
                _ => None,
            }
        }

        /// Every sail.v1 method path that declares an access rule.
        pub const METHOD_PATHS: &[&str] = &[#(#paths),*];

        /// The encoded request of an idempotent method, decoded and encoded
        /// again, so that two encodings of one request (field order, unknown
        /// fields) are the same request to `Idempotency-Key`; `None` for a
        /// method that is not idempotent.
        pub fn canonical_request(path: &str, request: &[u8]) -> Option<Result<Vec<u8>, prost::DecodeError>> {
            match path {
                #(#canonical)*
                _ => None,
            }
        }

        /// The encoded reply of an idempotent method as it is kept for a
        /// replay: without its `shown_once` fields, so a secret is shown once.
        pub fn without_shown_once(path: &str, reply: &[u8]) -> Result<Vec<u8>, prost::DecodeError> {
            match path {
                #(#strips)*
                _ => Ok(reply.to_vec()),
            }
        }
    })
}

/// One match arm per idempotent method whose reply has `shown_once` fields.
fn shown_once_strips(api: &Api) -> Result<Vec<TokenStream>, String> {
    let mut arms = Vec::new();
    for (name, message) in &api.messages {
        for (field, _) in &message.fields {
            if field.rule().shown_once && !(field.is_optional() && field.kind() == field_type::STRING) {
                return Err(format!("{name}.{}: a shown_once field must be an optional string", field.name()));
            }
        }
    }
    for method in api.methods.iter().filter(|m| m.options.idempotent) {
        let output = api.message(&method.output)?;
        let secrets: Vec<_> = output
            .fields
            .iter()
            .filter(|(field, _)| field.rule().shown_once)
            .map(|(field, _)| format_ident!("{}", field.name()))
            .collect();
        if secrets.is_empty() {
            continue;
        }
        let path = method.grpc_path();
        let reply = format_ident!("{}", short_name(&method.output));
        arms.push(quote! {
            #path => {
                let mut kept = <crate::pb::#reply as prost::Message>::decode(reply)?;
                #(kept.#secrets = None;)*
                Ok(prost::Message::encode_to_vec(&kept))
            }
        });
    }
    Ok(arms)
}
