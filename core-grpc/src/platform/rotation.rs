//! Re-sealing under a new encryption key (`sail keys rotate-encryption`,
//! docs/pii.md): every sealed value not under the keyring's current key is
//! opened with the key that sealed it and sealed again under the current one,
//! a batch of rows per transaction, with the external user id's blind index
//! recomputed beside it. Cores keep serving throughout, as long as they hold
//! the previous key for reading. Resumable: a run that stops part-way leaves
//! only rows it has not reached under the old key, and the next run picks up
//! exactly those. When nothing is left under another key, the previous keys
//! are retired and the database no longer needs them.
//!
//! Values sealed under a user's data key (docs/pii.md#per-user-data-keys)
//! are left as they are: only the data keys themselves, in the key store,
//! are re-sealed under the new service key.

use sea_orm::sea_query::{Alias, Condition, Expr, ExprTrait, Query};
use sea_orm::{ConnectionTrait, DatabaseConnection, TransactionTrait};

use crate::error::CoreError;
use crate::platform::crypto::{Keyring, SEALED_PREFIX, SealedColumn, USER_KEY_ID_PREFIX, columns, retire_previous};

/// One table's sealed columns.
struct SealedTable {
    name: &'static str,
    /// The column naming a row (bound into its sealed values).
    id: &'static str,
    columns: &'static [SealedColumn],
}

/// The key store's table: in the main database or a database of its own.
const KEY_STORE: SealedTable =
    SealedTable { name: "user_data_keys", id: "user_id", columns: &[columns::USER_DATA_KEY] };

const TABLES: &[SealedTable] = &[
    SealedTable {
        name: "users",
        id: "id",
        columns: &[
            columns::USER_EXTERNAL_ID,
            columns::USER_EMAIL,
            columns::USER_FIRST_NAME,
            columns::USER_LAST_NAME,
            columns::USER_PHONE,
            columns::USER_STREET,
            columns::USER_CITY,
            columns::USER_STATE,
            columns::USER_ZIP,
            columns::USER_COUNTRY,
        ],
    },
    SealedTable { name: "webhook_endpoints", id: "id", columns: &[columns::WEBHOOK_SECRET] },
    SealedTable { name: "idempotency_keys", id: "id", columns: &[columns::IDEMPOTENT_RESPONSE] },
    SealedTable { name: "identity_records", id: "id", columns: &[columns::IDENTITY_RECORD] },
    SealedTable { name: "accounts", id: "id", columns: &[columns::ACH_ACCOUNT, columns::ACH_ROUTING] },
    SealedTable { name: "receipts", id: "id", columns: &[columns::RECEIPT_CONTENT] },
];

/// What a rotation did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct RotationSummary {
    /// The key everything is now sealed under.
    pub key_id: String,
    /// Rows whose values were re-sealed, by table.
    pub rows_resealed: std::collections::BTreeMap<String, u64>,
    /// The keys retired at the end (the database no longer needs them).
    pub retired_keys: Vec<String>,
}

fn stale_condition(table: &SealedTable, keyring: &Keyring) -> Condition {
    let current = format!("{SEALED_PREFIX}{}:%", keyring.current_id());
    let under_user_key = format!("{SEALED_PREFIX}{USER_KEY_ID_PREFIX}%");
    // NULL is nothing to re-seal: `NULL NOT LIKE …` is not true.
    table.columns.iter().fold(Condition::any(), |any, column| {
        let value = || Expr::col(Alias::new(column.column()));
        any.add(Condition::all().add(value().not_like(current.clone())).add(value().not_like(under_user_key.clone())))
    })
}

/// The tables to re-seal, each with the database it is in.
fn tables<'d>(
    db: &'d DatabaseConnection,
    key_store: Option<&'d DatabaseConnection>,
) -> Vec<(&'d DatabaseConnection, &'static SealedTable)> {
    let mut all: Vec<_> = TABLES.iter().map(|table| (db, table)).collect();
    all.push((key_store.unwrap_or(db), &KEY_STORE));
    all
}

/// How many rows hold a value under a key other than the current one, the
/// key store (`key_store`, or the main database) included.
pub async fn count_stale(
    db: &DatabaseConnection,
    key_store: Option<&DatabaseConnection>,
    keyring: &Keyring,
) -> Result<u64, CoreError> {
    let mut total = 0;
    for (db, table) in tables(db, key_store) {
        let query = Query::select()
            .expr_as(Expr::col(Alias::new(table.id)).count(), Alias::new("n"))
            .from(Alias::new(table.name))
            .cond_where(stale_condition(table, keyring))
            .to_owned();
        let row = db.query_one(&query).await?;
        let n: i64 = match row {
            Some(row) => row.try_get("", "n")?,
            None => 0,
        };
        total += n as u64;
    }
    Ok(total)
}

/// Re-seals one batch of one table; returns the rows done.
async fn reseal_batch(
    db: &DatabaseConnection,
    keyring: &Keyring,
    table: &SealedTable,
    batch: u64,
) -> Result<u64, CoreError> {
    let txn = crate::platform::db::begin_write(db).await?;
    let mut select = Query::select();
    select
        .expr_as(Expr::col(Alias::new(table.id)), Alias::new("id"))
        .from(Alias::new(table.name))
        .cond_where(stale_condition(table, keyring))
        .limit(batch);
    if table.name == "users" {
        select.column(Alias::new("partner_id"));
    }
    for column in table.columns {
        select.column(Alias::new(column.column()));
    }
    let rows = txn.query_all(&select).await?;
    for row in &rows {
        let id: String = row.try_get("", "id")?;
        let mut update = Query::update();
        update.table(Alias::new(table.name)).and_where(Expr::col(Alias::new(table.id)).eq(id.as_str()));
        for column in table.columns {
            let Some(sealed) = row.try_get::<Option<String>>("", column.column())? else { continue };
            let under_user_key = crate::platform::crypto::key_id_of(&sealed)
                .is_some_and(|key_id| key_id.starts_with(USER_KEY_ID_PREFIX));
            if keyring.is_current(&sealed) || under_user_key {
                continue;
            }
            let plain = keyring.open_bytes(*column, &id, &sealed)?;
            update.value(Alias::new(column.column()), keyring.seal_bytes(*column, &id, &plain));
            if *column == columns::USER_EXTERNAL_ID {
                let partner_id: String = row.try_get("", "partner_id")?;
                let index = keyring.blind_index(columns::USER_EXTERNAL_ID, &partner_id, &plain);
                update.value(Alias::new("external_user_id_hash"), index);
            }
        }
        txn.execute(&update).await?;
    }
    txn.commit().await?;
    Ok(rows.len() as u64)
}

/// Re-seals everything under the current key, the data keys in the key
/// store (`key_store`, or the main database) included, reporting each
/// batch's rows to `progress`, then retires the previous keys.
pub async fn rotate(
    db: &DatabaseConnection,
    key_store: Option<&DatabaseConnection>,
    keyring: &Keyring,
    batch: u64,
    mut progress: impl FnMut(u64),
) -> Result<RotationSummary, CoreError> {
    let mut summary = RotationSummary { key_id: keyring.current_id().to_string(), ..Default::default() };
    let batch = Ord::max(batch, 1);
    // Cores that still seal under a previous key (not yet restarted with
    // the new one) can add stale rows while this runs: pass again until a
    // whole pass finds none.
    loop {
        let mut pass = 0;
        for (db, table) in tables(db, key_store) {
            loop {
                let done = reseal_batch(db, keyring, table, batch).await?;
                if done == 0 {
                    break;
                }
                pass += done;
                *summary.rows_resealed.entry(table.name.to_string()).or_default() += done;
                progress(done);
            }
        }
        if pass == 0 {
            break;
        }
    }
    let txn = db.begin().await?;
    summary.retired_keys = retire_previous(&txn, keyring).await?;
    txn.commit().await?;
    Ok(summary)
}
