//! `sail.v1.UserTokens` and `sail.v1.Identity`, and the reads of personal
//! data they open.

use entities::user_token;
use sail_api::pb::{self, identity_server::Identity, user_tokens_server::UserTokens};
use tonic::{Request, Response, Status};

use crate::domain::time;
use crate::grpc::accept;
use crate::layers::auth::token_grant_for;
use crate::services::pii::{self, Reader};
use crate::services::user_tokens::{self, NewUserToken};
use crate::state::Core;

pub struct UserTokensService {
    pub core: Core,
}

fn token_to_pb(token: user_token::Model, secret: Option<String>, user_created: bool) -> pb::UserToken {
    pb::UserToken {
        status: user_tokens::status_at(&token, time::now()).to_string(),
        scopes: user_tokens::scopes_of(&token),
        id: token.id,
        token: secret,
        user_id: token.user_id,
        user_created,
        expires_at: time::rfc3339(&token.expires_at),
        created_at: time::rfc3339(&token.created_at),
        revoked_at: token.revoked_at.as_ref().map(time::rfc3339),
    }
}

/// The request id the core's request-id layer set, for the audit trail.
pub fn request_id<T>(request: &Request<T>) -> Option<String> {
    request.metadata().get("request-id").and_then(|v| v.to_str().ok()).map(str::to_string)
}

#[tonic::async_trait]
impl UserTokens for UserTokensService {
    async fn create_user_token(
        &self,
        request: Request<pb::CreateUserTokenRequest>,
    ) -> Result<Response<pb::UserToken>, Status> {
        let caller = accept(&request)?;
        let new = NewUserToken::try_from(request.into_inner())?;
        let core = &self.core;
        let minted =
            user_tokens::mint(&core.db, &core.config.keyring, (&caller.partner_id, &caller.key_id), new).await?;
        // The token is shown in this reply only (`shown_once` in proto).
        Ok(Response::new(token_to_pb(minted.token, Some(minted.secret), minted.user_created)))
    }

    async fn delete_user_token(
        &self,
        request: Request<pb::DeleteUserTokenRequest>,
    ) -> Result<Response<pb::UserToken>, Status> {
        let caller = accept(&request)?;
        let revoked = user_tokens::revoke(&self.core.db, &caller.partner_id, &request.get_ref().user_token_id).await?;
        Ok(Response::new(token_to_pb(revoked, None, false)))
    }
}

#[tonic::async_trait]
impl Identity for UserTokensService {
    async fn get_identity(
        &self,
        request: Request<pb::GetIdentityRequest>,
    ) -> Result<Response<pb::UserIdentity>, Status> {
        let caller = accept(&request)?;
        let user_id = request.get_ref().user_id.clone();
        let grant = token_grant_for(&request, &user_id)?;
        let request_id = request_id(&request);
        let reader = Reader {
            partner_id: &caller.partner_id,
            key_id: &caller.key_id,
            user_token_id: &grant.token_id,
            request_id: request_id.as_deref(),
        };
        let found = pii::read_identity(&self.core.db, &self.core.config.keyring, &reader, &user_id).await?;
        let p = found.profile;
        let profile_address = [&p.street, &p.city, &p.state, &p.zip, &p.country].iter().any(|part| part.is_some());
        let full_name = match (&p.first_name, &p.last_name) {
            (Some(first), Some(last)) => Some(format!("{first} {last}")),
            (Some(one), None) | (None, Some(one)) => Some(one.clone()),
            (None, None) => None,
        };
        let mut records = vec![pb::IdentityRecord {
            source: "profile".to_string(),
            connection_id: None,
            provider_name: None,
            names: full_name.into_iter().collect(),
            emails: p.email.into_iter().collect(),
            phone_numbers: p.phone.into_iter().collect(),
            addresses: profile_address
                .then_some(pb::PostalAddress {
                    street: p.street,
                    city: p.city,
                    state: p.state,
                    zip: p.zip,
                    country: p.country,
                })
                .into_iter()
                .collect(),
        }];
        for (connection, identity) in found.connections {
            records.push(pb::IdentityRecord {
                source: "connection".to_string(),
                connection_id: Some(connection.id),
                provider_name: Some(connection.provider_name),
                names: identity.names,
                emails: identity.emails,
                phone_numbers: identity.phone_numbers,
                addresses: identity
                    .addresses
                    .into_iter()
                    .map(|a| pb::PostalAddress {
                        street: Some(a.street),
                        city: Some(a.city),
                        state: Some(a.state),
                        zip: Some(a.zip),
                        country: Some(a.country),
                    })
                    .collect(),
            });
        }
        Ok(Response::new(pb::UserIdentity { user_id: found.user.id, records }))
    }
}
