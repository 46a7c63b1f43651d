//! An external transaction id of a push whose job has not finished: counted
//! as present by later pushes to the same connection.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "pending_pushes")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub connection_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub external_transaction_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub job_id: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
