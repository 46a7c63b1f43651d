//! `sail.v1.UserTokens` and `sail.v1.Identity`, and the reads of personal
//! data they open.

use entities::user_token;
use sail_api::pb::{self, identity_server::Identity, user_tokens_server::UserTokens};
use tonic::{Request, Response, Status};

use crate::domain::time;
use crate::error::CoreError;
use crate::grpc::accounts::account_to_pb;
use crate::grpc::connections::connection_to_pb;
use crate::grpc::transactions::{expense_to_pb, receipt_to_pb};
use crate::grpc::{PersonalDataReader, accept};
use crate::services::pii;
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

#[tonic::async_trait]
impl UserTokens for UserTokensService {
    async fn create_user_token(
        &self,
        request: Request<pb::CreateUserTokenRequest>,
    ) -> Result<Response<pb::UserToken>, Status> {
        let caller = accept(&request)?;
        let new = NewUserToken::try_from(request.into_inner())?;
        let core = &self.core;
        let minted = user_tokens::mint(&core.db, &core.vault, (&caller.partner_id, &caller.key_id), new).await?;
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
        let user_id = &request.get_ref().user_id;
        let reader = PersonalDataReader::accept(&request, user_id)?;
        let found = pii::read_identity(&self.core.db, &self.core.vault, &reader.reader(), user_id).await?;
        let user_id = found.user.id.clone();
        Ok(Response::new(pb::UserIdentity { user_id, records: identity_records_to_pb(found) }))
    }

    async fn export_user(&self, request: Request<pb::ExportUserRequest>) -> Result<Response<pb::UserExport>, Status> {
        let user_id = &request.get_ref().user_id;
        let reader = PersonalDataReader::accept(&request, user_id)?;
        let found = pii::export_user(&self.core.db, &self.core.vault, &reader.reader(), user_id).await?;
        let mut receipts = found.receipts;
        let expenses = found
            .expenses
            .into_iter()
            .map(|t| {
                let of_this = receipts.remove(&t.expense_id).unwrap_or_default();
                expense_to_pb(t, of_this.into_iter().map(receipt_to_pb).collect::<Result<_, _>>()?)
            })
            .collect::<Result<Vec<_>, CoreError>>()?;
        let account_models: Vec<_> = found.accounts.iter().map(|view| view.account.clone()).collect();
        let connections = found.connections.into_iter().map(|c| connection_to_pb(c, &account_models)).collect();
        let user = &found.identity.user;
        let user_pb = pb::User {
            id: user.id.clone(),
            external_user_id: found.external_user_id,
            status: user.status.to_string(),
            created_at: time::rfc3339(&user.created_at),
        };
        Ok(Response::new(pb::UserExport {
            exported_at: time::rfc3339(&time::now()),
            user: Some(user_pb),
            identity: identity_records_to_pb(found.identity),
            connections,
            accounts: found.accounts.into_iter().map(account_to_pb).collect(),
            account_numbers: found
                .numbers
                .into_iter()
                .map(|n| pb::MaskedAccountNumbers {
                    account_id: n.account_id,
                    account_number_last4: n.account_last4,
                    routing_number_last4: n.routing_last4,
                })
                .collect(),
            expenses,
        }))
    }
}

/// A user's identity records in the wire form: the profile first, then one
/// per connection that reported one.
fn identity_records_to_pb(found: pii::UserIdentity) -> Vec<pb::IdentityRecord> {
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
    records
}
