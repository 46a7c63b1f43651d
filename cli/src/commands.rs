//! What each command does, over the library crates.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use anyhow::Context;
use core_grpc::domain::embed_origin::stored;
use core_grpc::domain::time;
use core_grpc::platform::db;
use core_grpc::services::admin;
use core_grpc::{Core, CoreError};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::watch;

use clap::CommandFactory;

use crate::database::{self, IfMissing};
use crate::logging::init_tracing;
use crate::output::{self, outln};
use crate::settings::{
    ActorArgs, AuditCommand, Cli, Command, CoreArgs, DatabaseArgs, DevCommand, GatewayArgs, KeysCommand, LogArgs,
    LogFormat, OperatorDatabaseArgs, PartnersCommand, RetentionCommand, WebhooksCommand,
};

pub async fn dispatch(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Serve { database, core, gateway, log, drain } => {
            let Some(_log) = server_logging(&log, "sail") else { return ExitCode::from(2) };
            // The embedded quickstart: sandbox providers unless turned off.
            let sandbox = core.sandbox.unwrap_or(true);
            serve(Some((&database, &core, sandbox)), Some(&gateway), None, drain.drain_s, log.metrics_addr).await
        }
        Command::Core { database, core, log, drain } => {
            let Some(_log) = server_logging(&log, "sail-core") else { return ExitCode::from(2) };
            if core.encryption.encryption_key.is_none() {
                eprintln!(
                    "sail core needs an explicit encryption key: set SAIL_ENCRYPTION_KEY (or --encryption-key); \
                     `sail keys generate-encryption-key` makes one."
                );
                return ExitCode::from(2);
            }
            let database = DatabaseArgs { database_url: database.database_url };
            // Production: sandbox providers only when asked for.
            let sandbox = core.sandbox.unwrap_or(false);
            serve(Some((&database, &core, sandbox)), None, None, drain.drain_s, log.metrics_addr).await
        }
        Command::Gateway { core_url, gateway, log, drain } => {
            let Some(_log) = server_logging(&log, "sail-gateway") else { return ExitCode::from(2) };
            serve(None, Some(&gateway), Some(core_url), drain.drain_s, log.metrics_addr).await
        }
        Command::Backup { to, database } => {
            let _log = init_tracing(LogFormat::Text);
            crate::backup::backup(&database.database_url, &to).await.map(|files| {
                crate::logging::say(&format!("backup: {} (sha256 {})", files.database.display(), files.sha256));
                crate::logging::say(&format!("checksum: {}", files.checksum.display()));
                match &files.key {
                    Some(key) => crate::logging::say(&format!("key file: {} (keep it as safe as the key)", key.display())),
                    None => crate::logging::say(
                        "key file: none (the database is sealed with SAIL_ENCRYPTION_KEY: keep that key with the backup)",
                    ),
                }
            })
        }
        Command::Restore { from, database, encryption } => {
            let _log = init_tracing(LogFormat::Text);
            crate::backup::restore(&from, &database.database_url, &encryption)
                .await
                .map(|path| crate::logging::say(&format!("restored: {}", path.display())))
        }
        Command::Migrate { database } => {
            let _log = init_tracing(LogFormat::Text);
            database::open(&database.database_url, IfMissing::Create).await.map(|_| ())
        }
        Command::Partners(command) => {
            let _log = init_tracing(LogFormat::Text);
            partners(command).await
        }
        Command::Keys(command) => {
            let _log = init_tracing(LogFormat::Text);
            keys(command).await
        }
        Command::Audit(command) => {
            let _log = init_tracing(LogFormat::Text);
            audit(command).await
        }
        Command::Retention(command) => {
            let _log = init_tracing(LogFormat::Text);
            retention(command).await
        }
        Command::Dev(DevCommand::Bootstrap { name, http_addr, grpc_addr, json, actor, database }) => {
            let _log = init_tracing(LogFormat::Text);
            bootstrap(&name, (http_addr, grpc_addr), json, &actor, &database).await
        }
        Command::Openapi => {
            output::write(sail_api::OPENAPI_JSON.as_bytes());
            return ExitCode::SUCCESS;
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "sail", &mut script);
            output::write(&script);
            return ExitCode::SUCCESS;
        }
        Command::Listen { forward_to, events, api_url, api_key, poll_ms } => {
            let _log = init_tracing(LogFormat::Text);
            let listen = crate::listen::Listen {
                api_url: api_url.trim_end_matches('/').to_string(),
                api_key,
                forward_to,
                events,
                poll: std::time::Duration::from_millis(poll_ms.max(100)),
            };
            crate::listen::run(listen, ShutdownSignal::listen().received()).await
        }
        Command::Webhooks(WebhooksCommand::Verify { secret, header, body_file, tolerance_s }) => {
            return verify_webhook(&secret, &header, &body_file, tolerance_s);
        }
        // `main` runs the reader before any runtime exists.
        Command::ReceiptReader { content_type } => {
            return sail_receipt_reader::run_child(&[content_type]);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => match err.downcast_ref::<CoreError>() {
            Some(core) => {
                let detail = core.detail();
                eprintln!(
                    "{}",
                    json!({"error": {"code": detail.code.as_str(), "message": detail.message, "param": detail.param}})
                );
                // Refused input (a key with an invalid configuration, unknown
                // scopes, an unknown partner) exits 2, as usage errors do.
                if matches!(core, CoreError::Database(_) | CoreError::Internal(_)) {
                    ExitCode::FAILURE
                } else {
                    ExitCode::from(2)
                }
            }
            // Printed once, with its causes, and nothing else.
            None => {
                eprintln!("error: {err:#}");
                ExitCode::FAILURE
            }
        },
    }
}

/// A server's logging and trace export, or `None` after saying why the
/// trace settings cannot be used.
fn server_logging(log: &LogArgs, service: &'static str) -> Option<crate::logging::Logging> {
    match crate::logging::init_with_traces(log.log_format, log.trace_export(service)) {
        Ok(logging) => Some(logging),
        Err(err) => {
            eprintln!("error: {err:#}");
            None
        }
    }
}

/// The database of an operator command: an existing one, or a new one with `--create`.
async fn operator_db(args: &OperatorDatabaseArgs) -> anyhow::Result<db::DatabaseConnection> {
    let if_missing = if args.create { IfMissing::Create } else { IfMissing::Refuse };
    database::open(&args.database.database_url, if_missing).await
}

/// SIGINT or SIGTERM, listened for from the moment this is made: a server
/// makes it before it says it is listening, so a signal sent as soon as the
/// banner appears drains the server instead of killing it.
struct ShutdownSignal {
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
}

impl ShutdownSignal {
    fn listen() -> ShutdownSignal {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            ShutdownSignal {
                interrupt: signal(SignalKind::interrupt()).ok(),
                terminate: signal(SignalKind::terminate()).ok(),
            }
        }
        #[cfg(not(unix))]
        ShutdownSignal {}
    }

    /// Resolves at the first SIGINT or SIGTERM.
    async fn received(mut self) {
        #[cfg(unix)]
        {
            async fn next(signal: &mut Option<tokio::signal::unix::Signal>) {
                match signal {
                    Some(signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            }
            tokio::select! {
                _ = next(&mut self.interrupt) => {},
                _ = next(&mut self.terminate) => {},
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        tracing::info!("shutting down: draining in-flight requests");
    }
}

/// Connectable form of a bound address (0.0.0.0 becomes loopback).
fn connectable(addr: SocketAddr) -> SocketAddr {
    if addr.ip().is_unspecified() { SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port()) } else { addr }
}

async fn serve(
    core_args: Option<(&DatabaseArgs, &CoreArgs, bool)>,
    gateway_args: Option<&GatewayArgs>,
    core_url: Option<String>,
    drain_s: u64,
    metrics_addr: Option<SocketAddr>,
) -> anyhow::Result<()> {
    let signal = ShutdownSignal::listen();
    // The core the operator listener reads its queue gauges from.
    let mut scraped_core = None;
    // What goes `draining` the moment a stop begins.
    let mut core_readiness = None;
    let gateway_draining = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (stop_tx, stop_rx) = watch::channel(false);
    let stopped = |mut rx: watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };

    let http_listener = match gateway_args {
        Some(gateway) => {
            Some(TcpListener::bind(gateway.http_addr).await.with_context(|| format!("binding {}", gateway.http_addr))?)
        }
        None => None,
    };
    let http_addr = http_listener.as_ref().map(|l| l.local_addr()).transpose()?;

    let mut banner = Banner::default();
    let mut tasks = tokio::task::JoinSet::new();
    let mut core_url = core_url;
    // `serve` runs core and gateway in one process: the gateway calls the
    // core's services in process, with no socket between them.
    let mut in_process = None;
    if let Some((database, core_args, sandbox)) = core_args {
        let pool = core_args.pool.settings(&database.database_url);
        let db = database::open_with(&database.database_url, IfMissing::Create, &pool).await?;
        let target = database::Target::parse(&database.database_url)?;
        let keyring = crate::encryption::keyring(&core_args.encryption, &target, &db).await?;
        banner.database = Some(target.describe());
        let listener =
            TcpListener::bind(core_args.grpc_addr).await.with_context(|| format!("binding {}", core_args.grpc_addr))?;
        let grpc_addr = listener.local_addr()?;
        let public_url = core_args.public_url.clone().unwrap_or_else(|| {
            format!("http://{}", connectable(http_addr.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080)))))
        });
        let config = core_args.core_config(public_url, keyring, sandbox);
        let core = Core::connect(db, config).await.context("building the core")?;
        core_readiness = Some(core.readiness.clone());
        scraped_core = Some(core.clone());
        core_grpc::platform::crypto::check_database(&core.db, &core.config.keyring).await?;
        if gateway_args.is_some() && core_url.is_none() {
            in_process = Some(core_grpc::server::in_process(&core));
        }
        tracing::info!("listening grpc={grpc_addr}");
        banner.grpc = Some(connectable(grpc_addr));
        banner.sandbox = Some(sandbox);
        core_url.get_or_insert_with(|| format!("http://{}", connectable(grpc_addr)));
        let shutdown = stopped(stop_rx.clone());
        tasks.spawn(async move { core_grpc::run(listener, core, shutdown).await.map_err(anyhow::Error::from) });
    }
    if let (Some(listener), Some(addr), Some(gateway)) = (http_listener, http_addr, gateway_args) {
        let url = core_url.clone().context("the gateway needs --core-url")?;
        let channel = match in_process.take() {
            Some(channel) => channel,
            None => rest_gateway::core_channel(&url).with_context(|| format!("core url {url}"))?,
        };
        tracing::info!("listening http={addr}");
        banner.rest = Some(connectable(addr));
        banner.core_url = core_args.is_none().then(|| url.clone());
        let shutdown = stopped(stop_rx.clone());
        let config = rest_gateway::GatewayConfig { draining: gateway_draining.clone(), ..gateway.gateway_config() };
        tasks.spawn(async move {
            rest_gateway::run(listener, channel, config, shutdown).await.map_err(anyhow::Error::from)
        });
    }
    if let Some(addr) = metrics_addr {
        let shutdown = stopped(stop_rx.clone());
        let (bound, served) = crate::operator_metrics::start(addr, scraped_core.take(), shutdown).await?;
        tracing::info!("listening metrics={bound}");
        tasks.spawn(served);
    }
    banner.print();

    tokio::select! {
        _ = signal.received() => {
            // Readiness goes first; the listeners close after the drain.
            if let Some(readiness) = &core_readiness {
                readiness.begin_drain();
            }
            gateway_draining.store(true, std::sync::atomic::Ordering::SeqCst);
            if drain_s > 0 {
                tracing::info!(drain_s, "draining: /readyz answers 503 until the listeners close");
                tokio::time::sleep(std::time::Duration::from_secs(drain_s)).await;
            }
            let _ = stop_tx.send(true);
        }
        Some(first) = tasks.join_next() => {
            let _ = stop_tx.send(true);
            first.context("server task")??;
        }
    }
    // In-flight requests and the job in hand finish first, but a client
    // that keeps an idle connection open must not hold the process forever.
    let drained = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while let Some(done) = tasks.join_next().await {
            done.context("server task")??;
        }
        anyhow::Ok(())
    })
    .await;
    match drained {
        Ok(result) => result,
        Err(_) => {
            tracing::warn!("connections still open after {} s; stopping anyway", SHUTDOWN_GRACE.as_secs());
            tasks.abort_all();
            Ok(())
        }
    }
}

/// How long a stopping server waits for in-flight work and open connections.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(20);

/// What a starting server tells its operator: where it listens, which
/// database it uses, and what to do next.
#[derive(Default)]
struct Banner {
    rest: Option<SocketAddr>,
    grpc: Option<SocketAddr>,
    core_url: Option<String>,
    database: Option<String>,
    sandbox: Option<bool>,
}

impl Banner {
    fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!("Sail {}", env!("CARGO_PKG_VERSION"))];
        if let Some(rest) = self.rest {
            lines.push(format!("  REST       http://{rest}/api/v1   (reference: http://{rest}/api/v1/docs)"));
        }
        if let Some(grpc) = self.grpc {
            lines.push(format!("  gRPC       {grpc}   (grpcurl -plaintext {grpc} list)"));
        }
        if let Some(core_url) = &self.core_url {
            lines.push(format!("  core       {core_url}"));
        }
        if let Some(database) = &self.database {
            lines.push(format!("  database   {database}"));
        }
        if let Some(sandbox) = self.sandbox {
            let state = if sandbox {
                "on (sandbox providers and /sandbox endpoints; `sail core` runs with it off)"
            } else {
                "off"
            };
            lines.push(format!("  sandbox    {state}"));
        }
        if self.database.is_some() {
            lines.push(
                "  next       in another terminal: eval \"$(cargo run -q -p sail -- dev bootstrap)\" (a sandbox partner and keys)"
                    .to_string(),
            );
        }
        lines
    }

    fn print(&self) {
        for line in self.lines() {
            crate::logging::say(&line);
        }
    }
}

async fn partners(command: PartnersCommand) -> anyhow::Result<()> {
    match command {
        PartnersCommand::Create { name, json, actor, database } => {
            let by = actor.operator()?;
            let db = operator_db(&database).await?;
            let partner = admin::create_partner(&db, &by, &name).await?;
            if json {
                outln!("{}", json!({"id": partner.id, "name": partner.name}));
            } else {
                outln!("{}", partner.id);
            }
        }
        PartnersCommand::List { json, database } => {
            let db = operator_db(&database).await?;
            let partners = admin::list_partners(&db).await?;
            if json {
                let rows: Vec<_> = partners.iter().map(partner_json).collect();
                outln!("{}", serde_json::Value::Array(rows));
            } else {
                for p in &partners {
                    let origins: Vec<String> = stored(&p.embed_origins).iter().map(|o| o.to_string()).collect();
                    outln!("{}\t{}\t{}", p.id, p.name, if origins.is_empty() { "-".into() } else { origins.join(",") });
                }
            }
        }
        PartnersCommand::Update { partner, embed_origins, clear_embed_origins, json, actor, database } => {
            if embed_origins.is_empty() && !clear_embed_origins {
                anyhow::bail!("nothing to change: give --embed-origin ORIGIN or --clear-embed-origins");
            }
            let by = actor.operator()?;
            let db = operator_db(&database).await?;
            let updated = admin::update_embed_origins(&db, &by, &partner, clear_embed_origins, &embed_origins).await?;
            if json {
                outln!("{}", partner_json(&updated));
            } else {
                let origins: Vec<String> = stored(&updated.embed_origins).iter().map(|o| o.to_string()).collect();
                outln!(
                    "{}\tembed origins: {}",
                    updated.id,
                    if origins.is_empty() { "none".into() } else { origins.join(", ") }
                );
            }
        }
    }
    Ok(())
}

/// A partner as `partners list --json` and `partners update --json` print it.
fn partner_json(p: &entities::partner::Model) -> serde_json::Value {
    let origins: Vec<String> = stored(&p.embed_origins).iter().map(|o| o.to_string()).collect();
    json!({"id": p.id, "name": p.name, "embed_origins": origins, "created_at": time::rfc3339(&p.created_at)})
}

/// The scopes of a developer's data key: every scope but `token_admin`.
const DATA_SCOPES: &str = "expenses,benefit_account,account_numbers,identity,ingest,connections";

/// `sail dev bootstrap`: a sandbox partner, a key of every data scope and a
/// token_admin key, as export lines for a shell.
async fn bootstrap(
    name: &str,
    (http_addr, grpc_addr): (SocketAddr, SocketAddr),
    json: bool,
    actor: &ActorArgs,
    database: &OperatorDatabaseArgs,
) -> anyhow::Result<()> {
    let by = actor.operator()?;
    let db = operator_db(database).await?;
    let partner = admin::create_partner(&db, &by, name).await?;
    let data = admin::create_key(&db, &by, &partner.id, DATA_SCOPES, Some("dev bootstrap: data")).await?;
    let tokens = admin::create_key(&db, &by, &partner.id, "token_admin", Some("dev bootstrap: token_admin")).await?;
    let url = format!("http://{}/api/v1", connectable(http_addr));
    let grpc = connectable(grpc_addr).to_string();
    if json {
        outln!(
            "{}",
            json!({"partner_id": partner.id, "key": data.key, "key_id": data.id, "scopes": data.scopes,
                   "token_admin_key": tokens.key, "url": url, "grpc": grpc})
        );
    } else {
        outln!("export SAIL_URL={url}");
        outln!("export SAIL_GRPC={grpc}");
        outln!("export SAIL_PARTNER={}", partner.id);
        outln!("export SAIL_KEY={}", data.key);
        outln!("export SAIL_TOKEN_ADMIN_KEY={}", tokens.key);
        eprintln!(
            "Partner {} with a key of every data scope ({DATA_SCOPES}) and a token_admin key; the secrets are shown only this once.",
            partner.id
        );
    }
    Ok(())
}

async fn keys(command: KeysCommand) -> anyhow::Result<()> {
    match command {
        KeysCommand::Create { partner, scopes, name, json, actor, database } => {
            let by = actor.operator()?;
            let db = operator_db(&database).await?;
            let issued = admin::create_key(&db, &by, &partner, &scopes, name.as_deref()).await?;
            if json {
                outln!("{}", serde_json::to_string(&issued)?);
            } else {
                outln!(
                    "id:      {}\nkey:     {}\npartner: {}\nscopes:  {}",
                    issued.id,
                    issued.key,
                    issued.partner_id,
                    issued.scopes.join(",")
                );
                eprintln!("The key is shown only this once: store it now.");
            }
        }
        KeysCommand::List { partner, json, database } => {
            let db = operator_db(&database).await?;
            let keys = admin::list_keys(&db, &partner).await?;
            let rows: Vec<_> = keys
                .iter()
                .map(|k| {
                    json!({
                        "id": k.id, "partner_id": k.partner_id, "name": k.name,
                        "scopes": k.scopes.split(',').collect::<Vec<_>>(),
                        "last4": k.secret_last4,
                        "created_at": core_grpc::domain::time::rfc3339(&k.created_at),
                        "revoked_at": k.revoked_at.as_ref().map(core_grpc::domain::time::rfc3339),
                    })
                })
                .collect();
            if json {
                outln!("{}", serde_json::Value::Array(rows));
            } else {
                for k in &keys {
                    let state = if k.revoked_at.is_some() { "revoked" } else { "active" };
                    outln!(
                        "{}\t{}\t…{}\t{}\t{}",
                        k.id,
                        state,
                        k.secret_last4,
                        k.scopes,
                        k.name.as_deref().unwrap_or("")
                    );
                }
            }
        }
        KeysCommand::GenerateEncryptionKey => {
            outln!("{}", core_grpc::platform::crypto::Keyring::generate_key());
        }
        KeysCommand::RotateEncryption { new_key, batch, json, actor, database, encryption } => {
            rotate_encryption(new_key, batch, json, &actor, &database, encryption).await?;
        }
        KeysCommand::Revoke { key_id, json, actor, database } => {
            let by = actor.operator()?;
            let db = operator_db(&database).await?;
            let key = admin::revoke_key(&db, &by, &key_id).await?;
            let revoked_at = key.revoked_at.as_ref().map(core_grpc::domain::time::rfc3339);
            if json {
                outln!("{}", json!({"id": key.id, "revoked_at": revoked_at}));
            } else {
                outln!("revoked {} at {}", key.id, revoked_at.unwrap_or_default());
            }
        }
    }
    Ok(())
}

/// `sail keys rotate-encryption`: re-seal under the current key.
async fn rotate_encryption(
    new_key: bool,
    batch: u64,
    json: bool,
    actor: &ActorArgs,
    database: &OperatorDatabaseArgs,
    mut encryption: crate::encryption::EncryptionArgs,
) -> anyhow::Result<()> {
    let by = actor.operator()?;
    let db = operator_db(database).await?;
    let target = database::Target::parse(&database.database.database_url)?;
    if new_key {
        let database::Target::Sqlite { path } = &target else {
            anyhow::bail!(
                "--new-key rotates the embedded database's key file; elsewhere set SAIL_ENCRYPTION_KEY to the new key and SAIL_ENCRYPTION_KEY_PREVIOUS to the old one, then run this again"
            );
        };
        if encryption.encryption_key.is_some() {
            anyhow::bail!(
                "--new-key rotates the key file; with SAIL_ENCRYPTION_KEY set, set it to the new key (and the old one in SAIL_ENCRYPTION_KEY_PREVIOUS) instead"
            );
        }
        let file = crate::encryption::key_file(path);
        let mut keys = crate::encryption::read_key_file(&file)?;
        keys.insert(0, core_grpc::platform::crypto::Keyring::generate_key());
        // Written beside, then renamed over: the key file is never half written.
        let fresh = file.with_extension("key.new");
        let _ = std::fs::remove_file(&fresh);
        crate::encryption::write_key_file(&fresh, &keys)?;
        std::fs::rename(&fresh, &file).with_context(|| format!("replacing {}", file.display()))?;
        encryption.encryption_key_previous.clear();
        crate::logging::say(&format!(
            "encryption: a new key is first in {}; the old one stays there for reading",
            file.display()
        ));
    }
    let keyring = crate::encryption::keyring(&encryption, &target, &db).await?;
    let key_store = match &encryption.key_store_url {
        Some(url) => Some(
            core_grpc::platform::vault::Vault::connect(keyring.clone(), url)
                .await
                .context("connecting to the key store")?,
        ),
        None => None,
    };
    let key_store = key_store.as_ref().and_then(|keys| keys.separate_store());
    let total = core_grpc::platform::rotation::count_stale(&db, key_store, &keyring).await?;
    let bar = if json {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template("re-sealing {bar:40} {pos}/{len} rows ({eta} left)")
        {
            bar.set_style(style);
        }
        bar
    };
    let summary = core_grpc::platform::rotation::rotate(&db, key_store, &keyring, batch, |done| bar.inc(done)).await?;
    admin::record_rotation(&db, &by, &summary).await?;
    bar.finish_and_clear();
    if json {
        outln!("{}", serde_json::to_string(&summary)?);
    } else {
        let rows: u64 = summary.rows_resealed.values().sum();
        outln!("re-sealed {rows} rows under key {}", summary.key_id);
        for (table, n) in &summary.rows_resealed {
            outln!("  {table}: {n}");
        }
        if summary.retired_keys.is_empty() {
            outln!("no previous key to retire");
        } else {
            outln!(
                "retired {}: the database no longer needs them (keep them until every core runs with the new key)",
                summary.retired_keys.join(", ")
            );
        }
    }
    Ok(())
}

/// `sail audit list`: who read personal data.
/// `sail retention status` and `sail retention run`.
async fn retention(command: RetentionCommand) -> anyhow::Result<()> {
    use core_grpc::services::retention as kept;
    match command {
        RetentionCommand::Status { json, retention, database } => {
            let db = operator_db(&database).await?;
            let due = kept::status(&db, &retention.policy(), time::now()).await?;
            if json {
                outln!("{}", serde_json::to_string(&due)?);
            } else {
                for row in &due {
                    outln!("{}	kept {}	{} due", row.kind, describe_period(row.kept_for_s), row.due);
                }
            }
        }
        RetentionCommand::Run { json, retention, database } => {
            let db = operator_db(&database).await?;
            let swept = kept::sweep(&db, &retention.policy(), time::now()).await?;
            if json {
                outln!("{}", serde_json::to_string(&swept)?);
            } else {
                let total: u64 = swept.removed.values().sum();
                outln!(
                    "removed {total} in {} batches (the longest held the write lock {} ms)",
                    swept.batches,
                    swept.longest_batch_ms
                );
                for (kind, n) in &swept.removed {
                    outln!("  {kind}: {n}");
                }
            }
        }
    }
    Ok(())
}

/// A period in whole days, or hours below a day.
fn describe_period(seconds: u64) -> String {
    if seconds >= 2 * 86_400 && seconds.is_multiple_of(86_400) {
        format!("{} days", seconds / 86_400)
    } else {
        format!("{} hours", seconds / 3_600)
    }
}

async fn audit(command: AuditCommand) -> anyhow::Result<()> {
    let (partner, user, limit, json, database) = match command {
        AuditCommand::List { partner, user, limit, json, database } => (partner, user, limit, json, database),
        AuditCommand::Operator { partner, actor, limit, json, database } => {
            return operator_audit(partner.as_deref(), actor.as_deref(), limit, json, &database).await;
        }
    };
    let db = operator_db(&database).await?;
    let reads = core_grpc::services::audit::list_reads(&db, partner.as_deref(), user.as_deref(), limit).await?;
    if json {
        let rows: Vec<_> = reads
            .iter()
            .map(|r| {
                json!({
                    "id": r.id, "partner_id": r.partner_id, "key_id": r.key_id,
                    "user_token_id": r.user_token_id, "user_id": r.user_id, "endpoint": r.endpoint,
                    "account_id": r.account_id, "request_id": r.request_id,
                    "created_at": time::rfc3339(&r.created_at),
                })
            })
            .collect();
        outln!("{}", serde_json::Value::Array(rows));
    } else {
        for r in &reads {
            outln!(
                "{}\t{}\t{}\t{}\t{}\t{}{}\t{}",
                time::rfc3339(&r.created_at),
                r.partner_id,
                r.key_id,
                r.user_token_id,
                r.user_id,
                r.endpoint,
                r.account_id.as_deref().map(|a| format!(" ({a})")).unwrap_or_default(),
                r.request_id.as_deref().unwrap_or("-"),
            );
        }
    }
    Ok(())
}

/// `sail audit operator`: who changed what, newest first.
async fn operator_audit(
    partner: Option<&str>,
    actor: Option<&str>,
    limit: u64,
    json: bool,
    database: &OperatorDatabaseArgs,
) -> anyhow::Result<()> {
    let db = operator_db(database).await?;
    let actions = core_grpc::services::operator_audit::list(&db, partner, actor, limit).await?;
    if json {
        let rows: Vec<_> = actions
            .iter()
            .map(|a| {
                let detail = a.detail.as_deref().and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok());
                json!({
                    "id": a.id, "created_at": time::rfc3339(&a.created_at), "actor": a.actor,
                    "action": a.action.as_str(), "partner_id": a.partner_id, "subject": a.subject, "detail": detail,
                })
            })
            .collect();
        outln!("{}", serde_json::Value::Array(rows));
    } else {
        for a in &actions {
            outln!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                time::rfc3339(&a.created_at),
                a.actor,
                a.action,
                a.partner_id.as_deref().unwrap_or("-"),
                a.subject.as_deref().unwrap_or("-"),
                a.detail.as_deref().unwrap_or("-"),
            );
        }
    }
    Ok(())
}

/// `sail webhooks verify`: the receiver's check, by hand.
fn verify_webhook(secret: &str, header: &str, body_file: &std::path::Path, tolerance_s: i64) -> ExitCode {
    let body = match std::fs::read(body_file) {
        Ok(body) => body,
        Err(err) => {
            eprintln!("cannot read {}: {err}", body_file.display());
            return ExitCode::from(2);
        }
    };
    let now = core_grpc::domain::time::now().timestamp();
    match core_grpc::services::webhooks::signature::verify(secret, header, &body, now, tolerance_s) {
        Ok(()) => {
            outln!("valid: the signature matches the body and the secret");
            ExitCode::SUCCESS
        }
        Err(err) => {
            outln!("invalid: {err}");
            ExitCode::FAILURE
        }
    }
}
