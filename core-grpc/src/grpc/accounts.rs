//! `sail.v1.Accounts`.

use sail_api::pb::{self, accounts_server::Accounts};
use tonic::{Request, Response, Status};

use crate::domain::money::to_major;
use crate::domain::{Page, time};
use crate::grpc::PersonalDataReader;
use crate::grpc::accept;
use crate::services::accounts::{self, AccountFilter, AccountView, StoredHolding, parse_account_type};
use crate::services::pii;
use crate::state::Core;

pub struct AccountsService {
    pub core: Core,
}

fn balance(view: &AccountView) -> Option<pb::Balance> {
    let a = &view.account;
    view.show_balance
        .then(|| pb::Balance { cash: to_major(a.cash_minor.unwrap_or(0)), invested: a.invested_minor.map(to_major) })
}

pub fn account_to_pb(view: AccountView) -> pb::Account {
    let balance = balance(&view);
    let a = view.account;
    pb::Account {
        id: a.id,
        connection_id: a.connection_id,
        external_id: a.external_id,
        name: a.name,
        r#type: a.r#type.to_string(),
        start_date: a.start_date,
        end_date: a.end_date,
        balance,
        last_sync_at: a.last_sync_at.as_ref().map(time::rfc3339),
    }
}

pub fn account_detail_to_pb(view: AccountView) -> Result<pb::AccountDetail, crate::CoreError> {
    let balance = balance(&view);
    let a = view.account;
    let holdings: Vec<StoredHolding> = match &a.holdings_json {
        Some(json) => serde_json::from_str(json)
            .map_err(|err| crate::CoreError::Internal(format!("holdings of {}: {err}", a.id)))?,
        None => Vec::new(),
    };
    let investments = a.invested_minor.filter(|_| view.show_balance).map(|total| pb::Investments {
        total: to_major(total),
        holdings: holdings
            .into_iter()
            .map(|h| pb::Holding { name: h.name, symbol: h.symbol, value: to_major(h.value_minor) })
            .collect(),
    });
    let contributions = a.tax_year.map(|tax_year| pb::Contributions {
        tax_year,
        year_to_date: to_major(a.contributions_ytd_minor.unwrap_or(0)),
        annual_limit: a.contribution_limit_minor.map(to_major),
        coverage: a.coverage.clone(),
    });
    Ok(pb::AccountDetail {
        id: a.id,
        connection_id: a.connection_id,
        external_id: a.external_id,
        name: a.name,
        r#type: a.r#type.to_string(),
        start_date: a.start_date,
        end_date: a.end_date,
        balance,
        last_sync_at: a.last_sync_at.as_ref().map(time::rfc3339),
        contributions,
        investments,
    })
}

#[tonic::async_trait]
impl Accounts for AccountsService {
    async fn list_accounts(
        &self,
        request: Request<pb::ListAccountsRequest>,
    ) -> Result<Response<pb::ListAccountsResponse>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let filter = AccountFilter {
            connection_id: req.connection_id,
            account_type: req.r#type.as_deref().map(parse_account_type).transpose()?,
        };
        let page = Page::parse(req.limit, req.offset)?;
        let (found, total) =
            accounts::list_accounts(&self.core.db, &caller.partner_id, &req.user_id, filter, page).await?;
        Ok(Response::new(pb::ListAccountsResponse {
            data: found.into_iter().map(account_to_pb).collect(),
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn get_account(
        &self,
        request: Request<pb::GetAccountRequest>,
    ) -> Result<Response<pb::AccountDetail>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let found = accounts::get_account(&self.core.db, &caller.partner_id, &req.user_id, &req.account_id).await?;
        Ok(Response::new(account_detail_to_pb(found)?))
    }

    async fn get_account_numbers(
        &self,
        request: Request<pb::GetAccountNumbersRequest>,
    ) -> Result<Response<pb::AccountNumbers>, Status> {
        let reader = PersonalDataReader::accept(&request, &request.get_ref().user_id)?;
        let req = request.into_inner();
        let found =
            pii::read_account_numbers(&self.core.db, &self.core.vault, &reader.reader(), &req.user_id, &req.account_id)
                .await?;
        Ok(Response::new(pb::AccountNumbers {
            account_id: found.account.id,
            connection_id: found.account.connection_id,
            ach: Some(pb::AchNumbers { account_number: found.account_number, routing_number: found.routing_number }),
        }))
    }
}
