//! The encryption key of a command that opens sealed data (docs/pii.md):
//! `SAIL_ENCRYPTION_KEY` when set (PostgreSQL deployments must set it);
//! otherwise, on the embedded database, the key file beside it
//! (`sail.db.key`), made on first run with owner-only permissions. Keys
//! still accepted for reading during a rotation come from
//! `SAIL_ENCRYPTION_KEY_PREVIOUS`, or from the key file's later lines.
//! The keyring is checked against the database before anything is served.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use clap::Args;
use core_grpc::platform::crypto::{self, Keyring};
use core_grpc::platform::db::DatabaseConnection;

use crate::database::Target;

/// Where the encryption keys come from.
#[derive(Debug, Clone, Args)]
pub struct EncryptionArgs {
    /// The key personal data and secrets are sealed with: 32 random bytes in
    /// base64 (`sail keys generate-encryption-key` makes one). Required on
    /// PostgreSQL; on the embedded database the key file beside it
    /// (<database>.key) is used, and made on first run, when this is unset.
    #[arg(long, env = "SAIL_ENCRYPTION_KEY", hide_env_values = true)]
    pub encryption_key: Option<String>,
    /// Keys still accepted for reading while `sail keys rotate-encryption`
    /// re-seals what they sealed, comma-separated.
    #[arg(long, env = "SAIL_ENCRYPTION_KEY_PREVIOUS", hide_env_values = true, value_delimiter = ',')]
    pub encryption_key_previous: Vec<String>,
    /// Where each user's data key is kept (docs/pii.md#per-user-data-keys):
    /// a database apart from the main one (a `sqlite://` file or a
    /// `postgres://` URL), so that a deleted user's data no longer opens
    /// even in copies of the main database taken before the deletion.
    /// Unset: the main database keeps them.
    #[arg(long, env = "SAIL_KEY_STORE_URL")]
    pub key_store_url: Option<String>,
}

/// The key file of an embedded database: `<file>.key` beside it.
pub fn key_file(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(".key");
    PathBuf::from(name)
}

/// Writes a key file readable by its owner alone; never overwrites one.
pub fn write_key_file(path: &Path, keys: &[String]) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).with_context(|| format!("creating the key file {}", path.display()))?;
    file.write_all(format!("{}\n", keys.join("\n")).as_bytes())?;
    file.sync_all()?;
    Ok(())
}

/// The keys of a key file: the current one first. A file that its group
/// or others may read is refused: whoever can read it can open every
/// sealed value in the database.
pub fn read_key_file(path: &Path) -> anyhow::Result<Vec<String>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .with_context(|| format!("reading the key file {}", path.display()))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            bail!(
                "the key file {} may be read by other users (mode {:o}); make it owner-only with `chmod 600 {}` and start again",
                path.display(),
                mode & 0o777,
                path.display()
            );
        }
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("reading the key file {}", path.display()))?;
    let keys: Vec<String> =
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect();
    if keys.is_empty() {
        bail!("the key file {} holds no key", path.display());
    }
    Ok(keys)
}

fn parse(current: &str, previous: &[String], source: &str) -> anyhow::Result<Keyring> {
    let previous: Vec<&str> = previous.iter().map(String::as_str).filter(|k| !k.trim().is_empty()).collect();
    Keyring::parse(current, &previous).with_context(|| source.to_string())
}

/// The keyring of a command over `db`, checked against the keys the
/// database depends on (a wrong key stops here, with what to do).
pub async fn keyring(args: &EncryptionArgs, target: &Target, db: &DatabaseConnection) -> anyhow::Result<Arc<Keyring>> {
    let keyring = match (&args.encryption_key, target) {
        (Some(key), _) => parse(key, &args.encryption_key_previous, "SAIL_ENCRYPTION_KEY")?,
        (None, Target::Postgres { .. }) => bail!(
            "PostgreSQL deployments must set SAIL_ENCRYPTION_KEY (32 random bytes in base64; `sail keys generate-encryption-key` makes one, keep it in your secret store)"
        ),
        (None, Target::Sqlite { path }) => {
            let file = key_file(path);
            if file.exists() {
                let keys = read_key_file(&file)?;
                let mut previous = keys[1..].to_vec();
                previous.extend(args.encryption_key_previous.iter().cloned());
                parse(&keys[0], &previous, &format!("the key file {}", file.display()))?
            } else {
                let depends_on = crypto::registered_keys(db).await.context("reading the database's encryption keys")?;
                if let Some(id) = depends_on.first() {
                    bail!(
                        "this database's personal data is sealed under encryption key {id}, but the key file {} is missing and SAIL_ENCRYPTION_KEY is unset: restore the key file from your backup (a new key cannot open it)",
                        file.display()
                    );
                }
                let key = Keyring::generate_key();
                write_key_file(&file, std::slice::from_ref(&key))?;
                crate::logging::say(&format!(
                    "encryption: created the key file {} (owner-only); back it up with the database: without it the personal data in the database cannot be read",
                    file.display()
                ));
                parse(&key, &args.encryption_key_previous, "the new key file")?
            }
        }
    };
    crypto::check_database(db, &keyring).await.context("checking the encryption key")?;
    crate::logging::say(&format!("encryption: key {}", keyring.current_id()));
    Ok(Arc::new(keyring))
}
