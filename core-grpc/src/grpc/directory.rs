//! `sail.v1.Merchants` and `sail.v1.Administrators`.

use entities::{administrator, merchant};
use sail_api::pb::{self, administrators_server::Administrators, merchants_server::Merchants};
use tonic::{Request, Response, Status};

use crate::domain::Page;
use crate::grpc::accept;
use crate::services::directory::{self, search_text};

pub struct DirectoryService {
    pub core: crate::state::Core,
}

pub fn merchant_to_pb(m: merchant::Model) -> pb::Merchant {
    pb::Merchant {
        id: m.id,
        name: m.name,
        capabilities: Some(pb::MerchantCapabilities { item_level_receipts: m.item_level_receipts }),
        urls: Some(pb::DirectoryUrls { main: m.main_url, logo: m.logo_url }),
    }
}

pub fn administrator_to_pb(a: administrator::Model) -> pb::Administrator {
    pb::Administrator {
        id: a.id,
        name: a.name,
        account_types: a.account_types.split('|').filter(|t| !t.is_empty()).map(str::to_string).collect(),
        urls: Some(pb::DirectoryUrls { main: a.main_url, logo: None }),
    }
}

#[tonic::async_trait]
impl Merchants for DirectoryService {
    async fn list_merchants(
        &self,
        request: Request<pb::ListMerchantsRequest>,
    ) -> Result<Response<pb::ListMerchantsResponse>, Status> {
        accept(&request)?;
        let req = request.into_inner();
        let page = Page::parse(req.limit, req.offset)?;
        let search = search_text(req.search)?;
        let index = self.core.directory.get(&self.core.db).await?;
        let (found, total) = directory::list_merchants(&index, search.as_deref(), page);
        Ok(Response::new(pb::ListMerchantsResponse {
            data: found.into_iter().map(merchant_to_pb).collect(),
            pagination: Some(page.pagination(total)),
        }))
    }
}

#[tonic::async_trait]
impl Administrators for DirectoryService {
    async fn list_administrators(
        &self,
        request: Request<pb::ListAdministratorsRequest>,
    ) -> Result<Response<pb::ListAdministratorsResponse>, Status> {
        accept(&request)?;
        let req = request.into_inner();
        let page = Page::parse(req.limit, req.offset)?;
        let search = search_text(req.search)?;
        let index = self.core.directory.get(&self.core.db).await?;
        let (found, total) = directory::list_administrators(&index, search.as_deref(), page);
        Ok(Response::new(pb::ListAdministratorsResponse {
            data: found.into_iter().map(administrator_to_pb).collect(),
            pagination: Some(page.pagination(total)),
        }))
    }
}
