//! What each command does, over the library crates.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use anyhow::Context;
use core_grpc::{Core, CoreError, admin, db};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::settings::{Cli, Command, KeysCommand, PartnersCommand, Settings, WebhooksCommand};

pub async fn dispatch(cli: Cli) -> ExitCode {
    let settings = cli.settings;
    let result = match cli.command {
        Command::Serve => serve(&settings, true, true, None).await,
        Command::Core => serve(&settings, true, false, None).await,
        Command::Gateway { core_url } => serve(&settings, false, true, Some(core_url)).await,
        Command::Migrate => migrate(&settings).await.map(|_| ()),
        Command::Partners(command) => partners(&settings, command).await,
        Command::Keys(command) => keys(&settings, command).await,
        Command::Openapi => {
            print!("{}", sail_api::OPENAPI_JSON);
            return ExitCode::SUCCESS;
        }
        Command::Webhooks(WebhooksCommand::Verify { secret, header, body_file, tolerance_s }) => {
            return verify_webhook(&secret, &header, &body_file, tolerance_s);
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
            None => {
                tracing::error!("{err:#}");
                ExitCode::FAILURE
            }
        },
    }
}

async fn migrate(settings: &Settings) -> anyhow::Result<db::DatabaseConnection> {
    let db = db::connect(&settings.database_url).await.context("connecting to the database")?;
    migration::apply(&db).await.context("applying migrations")?;
    Ok(db)
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down: draining in-flight requests");
}

/// Connectable form of a bound address (0.0.0.0 becomes loopback).
fn connectable(addr: SocketAddr) -> SocketAddr {
    if addr.ip().is_unspecified() { SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port()) } else { addr }
}

async fn serve(
    settings: &Settings,
    with_core: bool,
    with_gateway: bool,
    core_url: Option<String>,
) -> anyhow::Result<()> {
    let (stop_tx, stop_rx) = watch::channel(false);
    let stopped = |mut rx: watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };

    let http_listener = if with_gateway {
        let listener =
            TcpListener::bind(settings.http_addr).await.with_context(|| format!("binding {}", settings.http_addr))?;
        Some(listener)
    } else {
        None
    };
    let http_addr = http_listener.as_ref().map(|l| l.local_addr()).transpose()?;

    let mut tasks = tokio::task::JoinSet::new();
    let mut core_url = core_url;
    if with_core {
        let db = migrate(settings).await?;
        let listener =
            TcpListener::bind(settings.grpc_addr).await.with_context(|| format!("binding {}", settings.grpc_addr))?;
        let grpc_addr = listener.local_addr()?;
        let public_url = settings
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", connectable(http_addr.unwrap_or(settings.http_addr))));
        let core = Core::new(db, settings.core_config(public_url)).context("building the core")?;
        tracing::info!("listening grpc={grpc_addr}");
        core_url.get_or_insert_with(|| format!("http://{}", connectable(grpc_addr)));
        let shutdown = stopped(stop_rx.clone());
        tasks.spawn(async move { core_grpc::run(listener, core, shutdown).await.map_err(anyhow::Error::from) });
    }
    if let (Some(listener), Some(addr)) = (http_listener, http_addr) {
        let url = core_url.clone().context("the gateway needs --core-url")?;
        let channel = rest_gateway::core_channel(&url).with_context(|| format!("core url {url}"))?;
        tracing::info!("listening http={addr}");
        let shutdown = stopped(stop_rx.clone());
        let config = settings.gateway_config();
        tasks.spawn(async move {
            rest_gateway::run(listener, channel, config, shutdown).await.map_err(anyhow::Error::from)
        });
    }

    tokio::select! {
        _ = shutdown_signal() => {
            let _ = stop_tx.send(true);
        }
        Some(first) = tasks.join_next() => {
            let _ = stop_tx.send(true);
            first.context("server task")??;
        }
    }
    while let Some(done) = tasks.join_next().await {
        done.context("server task")??;
    }
    Ok(())
}

async fn partners(settings: &Settings, command: PartnersCommand) -> anyhow::Result<()> {
    let db = migrate(settings).await?;
    match command {
        PartnersCommand::Create { name, json } => {
            let partner = admin::create_partner(&db, &name).await?;
            if json {
                println!("{}", json!({"id": partner.id, "name": partner.name}));
            } else {
                println!("{}", partner.id);
            }
        }
    }
    Ok(())
}

async fn keys(settings: &Settings, command: KeysCommand) -> anyhow::Result<()> {
    let db = migrate(settings).await?;
    match command {
        KeysCommand::Create { partner, scopes, name, json } => {
            let issued = admin::create_key(&db, &partner, &scopes, name.as_deref()).await?;
            if json {
                println!("{}", serde_json::to_string(&issued)?);
            } else {
                println!(
                    "id:      {}\nkey:     {}\npartner: {}\nscopes:  {}",
                    issued.id,
                    issued.key,
                    issued.partner_id,
                    issued.scopes.join(",")
                );
                eprintln!("The key is shown only this once: store it now.");
            }
        }
        KeysCommand::List { partner, json } => {
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
                println!("{}", serde_json::Value::Array(rows));
            } else {
                for k in &keys {
                    let state = if k.revoked_at.is_some() { "revoked" } else { "active" };
                    println!(
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
        KeysCommand::Revoke { key_id, json } => {
            let key = admin::revoke_key(&db, &key_id).await?;
            let revoked_at = key.revoked_at.as_ref().map(core_grpc::domain::time::rfc3339);
            if json {
                println!("{}", json!({"id": key.id, "revoked_at": revoked_at}));
            } else {
                println!("revoked {} at {}", key.id, revoked_at.unwrap_or_default());
            }
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
    match core_grpc::webhooks::signature::verify(secret, header, &body, now, tolerance_s) {
        Ok(()) => {
            println!("valid: the signature matches the body and the secret");
            ExitCode::SUCCESS
        }
        Err(err) => {
            println!("invalid: {err}");
            ExitCode::FAILURE
        }
    }
}
