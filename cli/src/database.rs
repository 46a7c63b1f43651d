//! Which database a command uses, said plainly, and getting it ready: the
//! embedded SQLite file as an absolute path, a PostgreSQL server as host and
//! database name (never the password). `serve`, `core` and `migrate` create
//! a missing database (a PostgreSQL one when the role may); operator
//! commands refuse to, unless given `--create`, so a command run from the
//! wrong directory does not quietly start an empty database.

use std::path::PathBuf;

use anyhow::{Context, bail};
use core_grpc::platform::db;
use sea_orm::ConnectionTrait;

/// A database URL, understood.
pub enum Target {
    /// The embedded SQLite file.
    Sqlite { path: PathBuf },
    /// A PostgreSQL database.
    Postgres { server: String, name: String, admin_url: String },
}

impl Target {
    pub fn parse(database_url: &str) -> anyhow::Result<Target> {
        if let Some(rest) = database_url.strip_prefix("sqlite:") {
            let path = rest.trim_start_matches("//");
            let path = path.split('?').next().unwrap_or(path);
            if path.is_empty() || path == ":memory:" {
                bail!("the database URL must name a SQLite file, e.g. sqlite://sail.db?mode=rwc");
            }
            let path = PathBuf::from(path);
            let path = if path.is_absolute() { path } else { std::env::current_dir()?.join(path) };
            return Ok(Target::Sqlite { path });
        }
        let url = url::Url::parse(database_url).context("the database URL does not parse")?;
        if !matches!(url.scheme(), "postgres" | "postgresql") {
            bail!("the database URL must start with sqlite:// or postgres://");
        }
        let host = url.host_str().unwrap_or("localhost");
        let port = url.port().unwrap_or(5432);
        let name = url.path().trim_start_matches('/').to_string();
        if name.is_empty() {
            bail!("the PostgreSQL URL must name a database, e.g. postgres://postgres@127.0.0.1:5432/sail");
        }
        let mut admin = url.clone();
        admin.set_path("/postgres");
        let user = if url.username().is_empty() { String::new() } else { format!(" as {}", url.username()) };
        Ok(Target::Postgres { server: format!("{host}:{port}{user}"), name, admin_url: admin.to_string() })
    }

    /// One line naming the database.
    pub fn describe(&self) -> String {
        match self {
            Target::Sqlite { path } => format!("sqlite {}", path.display()),
            Target::Postgres { server, name, .. } => format!("postgres database {name} on {server}"),
        }
    }

    /// Whether the database exists now.
    async fn exists(&self) -> anyhow::Result<bool> {
        match self {
            Target::Sqlite { path } => Ok(path.exists()),
            Target::Postgres { name, admin_url, .. } => {
                let admin = db::connect(admin_url).await.context("connecting to the PostgreSQL server")?;
                let found = admin
                    .query_one_raw(sea_orm::Statement::from_sql_and_values(
                        sea_orm::DatabaseBackend::Postgres,
                        "SELECT 1 FROM pg_database WHERE datname = $1",
                        [name.clone().into()],
                    ))
                    .await?;
                admin.close().await.ok();
                Ok(found.is_some())
            }
        }
    }

    /// Creates the database. A SQLite file is made empty and owner-only
    /// before SQLite opens it (its WAL and shared-memory files take the
    /// same mode): it holds partners' data and key hashes.
    async fn create(&self) -> anyhow::Result<()> {
        if let Target::Sqlite { path } = self {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            options.open(path).with_context(|| format!("creating the database file {}", path.display()))?;
        }
        if let Target::Postgres { name, admin_url, server } = self {
            let admin = db::connect(admin_url).await.context("connecting to the PostgreSQL server")?;
            let quoted = name.replace('"', "\"\"");
            let created = admin.execute_unprepared(&format!("CREATE DATABASE \"{quoted}\"")).await;
            admin.close().await.ok();
            if let Err(err) = created {
                bail!(
                    "database {name} does not exist on {server} and could not be created ({err}); create it with `createdb {name}` (or CREATE DATABASE \"{name}\") and run again"
                );
            }
        }
        Ok(())
    }
}

/// Whether a command may create a database that does not exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IfMissing {
    Create,
    Refuse,
}

/// Says which database is in use, creates it if it is missing and allowed,
/// applies migrations, and connects with an operator command's pool.
pub async fn open(database_url: &str, if_missing: IfMissing) -> anyhow::Result<db::DatabaseConnection> {
    open_with(database_url, if_missing, &db::PoolSettings::operator()).await
}

/// [`open`], with the pool `settings` (a serving core's).
pub async fn open_with(
    database_url: &str,
    if_missing: IfMissing,
    settings: &db::PoolSettings,
) -> anyhow::Result<db::DatabaseConnection> {
    let target = Target::parse(database_url)?;
    crate::logging::say(&format!("database: {}", target.describe()));
    if !target.exists().await? {
        match if_missing {
            IfMissing::Create => {
                target.create().await?;
                crate::logging::say("database: created");
            }
            IfMissing::Refuse => bail!(
                "no database at {}: start the service once (`sail serve`), run `sail migrate`, or pass --create",
                target.describe()
            ),
        }
    }
    // Migrations run on an operator's pool, with no statement limit: one
    // over a large table may rightly outlast a serving core's.
    let operator = db::PoolSettings::operator();
    let db = db::connect_with(database_url, &operator).await.context("connecting to the database")?;
    migration::apply(&db).await.context("applying migrations")?;
    if *settings == operator {
        return Ok(db);
    }
    db.close().await.context("closing the migration pool")?;
    db::connect_with(database_url, settings).await.context("connecting to the database")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_described_without_secrets() {
        let sqlite = Target::parse("sqlite://sail.db?mode=rwc").unwrap();
        assert!(sqlite.describe().starts_with("sqlite /") && sqlite.describe().ends_with("/sail.db"));
        let pg = Target::parse("postgres://app:hunter2@db.internal:6543/sail").unwrap();
        assert_eq!(pg.describe(), "postgres database sail on db.internal:6543 as app");
        assert!(!pg.describe().contains("hunter2"));
        assert!(Target::parse("postgres://h/").is_err());
        assert!(Target::parse("mysql://h/x").is_err());
    }
}
