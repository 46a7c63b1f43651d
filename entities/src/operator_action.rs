//! The operator audit trail: one row per change an operator made through
//! the `sail` binary (a partner created, a key issued or revoked, an
//! encryption rotation), naming who ran it. Never holds a secret.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "operator_actions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// Who ran the command: `--actor` / `SAIL_ACTOR`, else the OS user and host.
    pub actor: String,
    pub action: crate::enums::OperatorActionKind,
    /// The partner acted on, if any.
    pub partner_id: Option<String>,
    /// The thing acted on besides the partner: a key id.
    pub subject: Option<String>,
    /// What changed, as a JSON object (scopes, origins, counts).
    pub detail: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
