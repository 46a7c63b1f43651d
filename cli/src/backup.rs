//! `sail backup` and `sail restore` for the embedded database: a consistent
//! copy taken while the service runs (SQLite's `VACUUM INTO`, one read
//! transaction, so the copy is the database as of one commit), with the key
//! file beside it and a SHA-256 checksum file; and a restore that never
//! overwrites a database and checks that the key opens the copy before it
//! is used. PostgreSQL deployments back up with `pg_dump` or point-in-time
//! recovery instead (docs/api-decisions.md#backups).

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use sea_orm::ConnectionTrait;
use sha2::{Digest, Sha256};

use crate::database::{self, IfMissing, Target};
use crate::encryption::{self, EncryptionArgs, key_file};

/// What a backup wrote.
pub struct BackupFiles {
    pub database: PathBuf,
    /// The key file copied beside it, when the database has one.
    pub key: Option<PathBuf>,
    pub checksum: PathBuf,
    pub sha256: String,
}

/// The checksum file of a backup: `<file>.sha256`, in `sha256sum` format.
fn checksum_file(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".sha256");
    PathBuf::from(name)
}

fn sha256_of(file: &Path) -> anyhow::Result<String> {
    let mut reader = std::fs::File::open(file).with_context(|| format!("reading {}", file.display()))?;
    let mut digest = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = reader.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        digest.update(&buffer[..read]);
    }
    Ok(digest.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Copies a file that holds secrets, owner-only, never over an existing one.
fn copy_private(from: &Path, to: &Path) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut out = options.open(to).with_context(|| format!("creating {}", to.display()))?;
    let mut input = std::fs::File::open(from).with_context(|| format!("reading {}", from.display()))?;
    std::io::copy(&mut input, &mut out)?;
    out.sync_all()?;
    Ok(())
}

/// Takes an online copy of the embedded database at `database_url` into
/// `to` (which must not exist), with its key file and a checksum.
pub async fn backup(database_url: &str, to: &Path) -> anyhow::Result<BackupFiles> {
    let target = Target::parse(database_url)?;
    let Target::Sqlite { path } = &target else {
        bail!("sail backup copies the embedded database; back up PostgreSQL with pg_dump or point-in-time recovery")
    };
    let to = if to.is_absolute() { to.to_path_buf() } else { std::env::current_dir()?.join(to) };
    let key = key_file(&to);
    let checksum = checksum_file(&to);
    for file in [&to, &key, &checksum] {
        if file.exists() {
            bail!("{} already exists; a backup never overwrites a file", file.display());
        }
    }
    let db = database::open(database_url, IfMissing::Refuse).await?;
    // The copy holds what the database holds: owner-only from its first
    // byte (SQLite writes into an empty file and keeps its mode).
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(&to).with_context(|| format!("creating {}", to.display()))?;
    let quoted = to.to_str().context("the backup path is not UTF-8")?.replace('\'', "''");
    if let Err(err) = db.execute_unprepared(&format!("VACUUM INTO '{quoted}'")).await {
        let _ = std::fs::remove_file(&to);
        return Err(anyhow::Error::from(err).context("copying the database"));
    }
    db.close().await.ok();
    let source_key = key_file(path);
    let key = if source_key.exists() {
        copy_private(&source_key, &key)?;
        Some(key)
    } else {
        None
    };
    let sha256 = sha256_of(&to)?;
    let name = to.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    std::fs::write(&checksum, format!("{sha256}  {name}\n"))?;
    Ok(BackupFiles { database: to, key, checksum, sha256 })
}

/// Restores a backup into the embedded database at `database_url`, which
/// must not exist: the checksum is checked first, and the copy must open
/// under the key (its key file, or `SAIL_ENCRYPTION_KEY`) or nothing is
/// left behind.
pub async fn restore(from: &Path, database_url: &str, encryption: &EncryptionArgs) -> anyhow::Result<PathBuf> {
    let target = Target::parse(database_url)?;
    let Target::Sqlite { path } = &target else {
        bail!("sail restore restores the embedded database; restore PostgreSQL with pg_restore")
    };
    if path.exists() {
        bail!(
            "{} exists; restore never overwrites a database (a running service may be using it): move it away or restore to another path",
            path.display()
        );
    }
    if !from.exists() {
        bail!("no backup at {}", from.display());
    }
    let checksum = checksum_file(from);
    if checksum.exists() {
        let expected = std::fs::read_to_string(&checksum)?;
        let expected = expected.split_whitespace().next().unwrap_or("");
        if sha256_of(from)? != expected {
            bail!("{} does not match its checksum in {}: the copy is damaged", from.display(), checksum.display());
        }
    }
    let backup_key = key_file(from);
    let restored_key = key_file(path);
    if restored_key.exists() {
        bail!("{} exists; restore never overwrites a key file", restored_key.display());
    }
    copy_private(from, path)?;
    let undo = || {
        let _ = std::fs::remove_file(path);
        let _ = std::fs::remove_file(&restored_key);
    };
    if backup_key.exists()
        && let Err(err) = copy_private(&backup_key, &restored_key)
    {
        undo();
        return Err(err);
    }
    let opened = async {
        let db = database::open(database_url, IfMissing::Refuse).await?;
        let keyring = encryption::keyring(encryption, &target, &db).await?;
        core_grpc::platform::crypto::check_database(&db, &keyring).await?;
        db.close().await.ok();
        anyhow::Ok(())
    }
    .await;
    if let Err(err) = opened {
        undo();
        return Err(err.context("the restored copy does not open with this key; nothing was restored"));
    }
    Ok(path.clone())
}
