//! The pages a hosted session opens (docs/hosted-sessions.md), served at
//! `/hosted/<token>` on the gateway's public side: server-rendered HTML from
//! the minijinja templates in `templates/hosted/` (no scripts, no external
//! assets), each page a translation of a `sail.v1.HostedPages` call. The
//! core decides everything: whether the link may open, which browser it is
//! bound to (the `sail_hosted` cookie: Secure, HttpOnly, SameSite=Strict,
//! scoped to the session's path), the anti-forgery token of every form, and
//! what a login or an upload does.

use std::sync::LazyLock;

use axum::Router;
use axum::extract::{FromRequest, Multipart, Path, Query, Request, State};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use http::{HeaderMap, HeaderValue, StatusCode};
use minijinja::{Environment, context};
use sail_api::pb::{self, hosted_pages_client::HostedPagesClient};
use sail_api::rest::CoreChannel as Channel;

use crate::extract::MAX_UPLOAD_BODY_BYTES;

/// The cookie binding a session to the browser that opened it.
const COOKIE: &str = "sail_hosted";

static TEMPLATES: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    for (name, source) in [
        ("layout.html", include_str!("../templates/hosted/layout.html")),
        ("choose.html", include_str!("../templates/hosted/choose.html")),
        ("login.html", include_str!("../templates/hosted/login.html")),
        ("upload.html", include_str!("../templates/hosted/upload.html")),
        ("done.html", include_str!("../templates/hosted/done.html")),
        ("gone.html", include_str!("../templates/hosted/gone.html")),
    ] {
        // The templates are part of the binary; a broken one fails the
        // gateway's own tests, and renders as a plain error page here.
        let _ = env.add_template(name, source);
    }
    env
});

/// The hosted pages' routes.
pub fn router(core: Channel) -> Router {
    Router::new()
        .route("/hosted/{token}", get(show))
        .route("/hosted/{token}/login", post(login))
        .route(
            "/hosted/{token}/receipt",
            post(receipt).layer(axum::extract::DefaultBodyLimit::max(MAX_UPLOAD_BODY_BYTES)),
        )
        .with_state(core)
}

fn render(status: StatusCode, template: &str, values: minijinja::Value) -> Response {
    let page = TEMPLATES.get_template(template).and_then(|t| t.render(values));
    let mut response = match page {
        Ok(html) => (status, Html(html)).into_response(),
        Err(err) => {
            tracing::error!(error = %err, template, "a hosted page did not render");
            (StatusCode::INTERNAL_SERVER_ERROR, "This page could not be shown.").into_response()
        }
    };
    let headers = response.headers_mut();
    // Nothing loads from elsewhere, and no site may frame a page where a
    // user types an administrator's credentials (clickjacking): framing
    // waits for origins a partner registers (docs/hosted-sessions.md).
    headers.insert(
        "content-security-policy",
        HeaderValue::from_static(
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        ),
    );
    // The same rule for browsers that predate frame-ancestors.
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    response
}

fn gone(message: &str) -> Response {
    render(StatusCode::GONE, "gone.html", context! { title => "Link expired", message, modal => false })
}

fn browser_secret(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_string())
}

/// The address a page's request came from, forwarded to the core as API
/// calls forward theirs: page lookups are limited per client address, and
/// without it every visitor would share the gateway's own budget.
struct ClientOf(Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ClientOf {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut http::request::Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let found = parts.extensions.get::<axum::extract::ConnectInfo<crate::listener::ClientAddr>>();
        Ok(ClientOf(found.map(|axum::extract::ConnectInfo(crate::listener::ClientAddr(addr))| addr.ip())))
    }
}

impl ClientOf {
    /// `message` as a call to the core, with the client's address.
    fn call<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        if let Some(value) = self.0.and_then(|ip| tonic::metadata::MetadataValue::try_from(ip.to_string()).ok()) {
            request.metadata_mut().insert(crate::context::CLIENT_ADDR, value);
        }
        request
    }
}

fn caller(token: &str, headers: &HeaderMap, csrf: Option<String>) -> pb::PageCaller {
    pb::PageCaller { token: token.to_string(), browser_secret: browser_secret(headers), csrf }
}

/// What a failed core call shows: the session's own reason as a `410`
/// page, anything else as an error page.
fn failed(status: tonic::Status) -> Response {
    match status.code() {
        tonic::Code::NotFound | tonic::Code::InvalidArgument => gone(status.message()),
        // Page lookups are limited per client address, as other requests
        // without an API key are.
        tonic::Code::ResourceExhausted => {
            let mut response = render(
                StatusCode::TOO_MANY_REQUESTS,
                "gone.html",
                context! { title => "Too many requests", message => "Too many requests came from your network. Wait a moment, then reload the page.", modal => false },
            );
            response.headers_mut().insert(http::header::RETRY_AFTER, http::HeaderValue::from_static("1"));
            response
        }
        _ => {
            tracing::error!(code = ?status.code(), "a hosted page's call failed");
            render(
                StatusCode::SERVICE_UNAVAILABLE,
                "gone.html",
                context! { title => "Try again", message => "Something went wrong on our side. Try again in a moment.", modal => false },
            )
        }
    }
}

fn title_for(state: &pb::PageState) -> &'static str {
    match (state.flow.as_str(), state.connection_type.as_deref()) {
        ("reconnect", _) => "Reconnect your account",
        ("upload_receipt", _) => "Upload a receipt",
        (_, Some("benefit_account")) => "Connect your HSA or FSA",
        (_, Some("store")) => "Connect a store account",
        _ => "Connect your card",
    }
}

fn expense_label(e: &pb::ExpenseChoice) -> minijinja::Value {
    context! { id => e.id.clone(), label => format!("{} · {} · ${:.2}", e.description, e.date, e.amount) }
}

/// What a receipt did: the expense's new decision, or, while the receipt
/// is still being read, a link to check again (a timed refresh would take
/// the page away from someone still reading it).
fn receipt_result(token: &str, state: &pb::PageState) -> Response {
    let modal = state.modal;
    let amount = state.expense.as_ref().map(|e| e.amount).unwrap_or_default();
    let (title, tone, message, refresh) = match (state.receipt_status.as_deref(), state.expense_status.as_deref()) {
        (Some("processing") | None, _) => (
            "Reading your receipt",
            "ok",
            "Your receipt was uploaded. We are still reading it; check again in a moment.".to_string(),
            true,
        ),
        (Some("unreadable"), _) => (
            "We couldn’t read that receipt",
            "error",
            format!(
                "{} Try a clearer photo or the PDF from the store.",
                state.receipt_reason.clone().unwrap_or_default()
            ),
            false,
        ),
        (_, Some("eligible")) => (
            "Receipt accepted",
            "ok",
            format!("This purchase is eligible: ${:.2} of ${amount:.2}.", state.eligible_amount.unwrap_or(amount)),
            false,
        ),
        (_, Some("ineligible")) => {
            ("Receipt read", "error", "No item on this receipt is eligible for your HSA or FSA.".to_string(), false)
        }
        _ => (
            "Receipt read",
            "ok",
            state
                .receipt_reason
                .clone()
                .unwrap_or_else(|| "Your benefits team will review this purchase with the receipt.".to_string()),
            false,
        ),
    };
    let again = refresh.then(|| format!("/hosted/{token}"));
    render(StatusCode::OK, "done.html", context! { title, tone, message, modal, again })
}

/// The page for `state`: the outcome, or the form the flow is at.
fn page(token: &str, state: pb::PageState) -> Response {
    let base = format!("/hosted/{token}");
    let title = title_for(&state);
    let modal = state.modal;
    if state.status == "completed" && state.flow == "upload_receipt" {
        return receipt_result(token, &state);
    }
    if state.status == "completed" {
        let (tone, message) = match (state.flow.as_str(), state.connection_status.as_deref()) {
            ("reconnect", _) => ("ok", "Your account is reconnected."),
            (_, Some("error")) => (
                "error",
                "Your account is connected, but the provider needs you to sign in again. You can reconnect from the app.",
            ),
            _ => ("ok", "Your account is connected. Your benefits app will show it in a moment."),
        };
        return render(StatusCode::OK, "done.html", context! { title => "All set", tone, message, modal });
    }
    if state.flow == "upload_receipt" {
        let expenses: Vec<minijinja::Value> = state.expenses.iter().map(expense_label).collect();
        let expense = state.expense.as_ref().map(expense_label);
        return render(
            StatusCode::OK,
            "upload.html",
            context! { title, base, csrf => state.csrf, expenses, expense, error => state.error, modal },
        );
    }
    match state.provider {
        Some(provider) => render(
            StatusCode::OK,
            "login.html",
            context! {
                title, base, csrf => state.csrf, provider_id => provider.id, provider_name => provider.name,
                error => state.error, modal, sandbox_hint => state.sandbox,
            },
        ),
        None => render(
            StatusCode::OK,
            "choose.html",
            context! { title, base, query => "", choices => Vec::<minijinja::Value>::new(), modal },
        ),
    }
}

#[derive(serde::Deserialize)]
struct ShowQuery {
    q: Option<String>,
    provider: Option<String>,
}

async fn show(
    State(core): State<Channel>,
    Path(token): Path<String>,
    Query(query): Query<ShowQuery>,
    from: ClientOf,
    headers: HeaderMap,
) -> Response {
    let mut client = HostedPagesClient::new(core);
    let opened =
        client.open_page(from.call(pb::OpenPageRequest { caller: Some(caller(&token, &headers, None)) })).await;
    let mut state = match opened {
        Ok(reply) => reply.into_inner(),
        Err(status) => return failed(status),
    };
    let new_secret = state.new_browser_secret.clone();
    let choosing = state.status != "completed" && state.flow == "connect_account" && state.provider.is_none();
    if !choosing {
        return finish(page(&token, state), &token, new_secret);
    }
    let browser_secret = new_secret.clone().or_else(|| browser_secret(&headers));
    let search = pb::SearchProvidersRequest {
        caller: Some(pb::PageCaller { token: token.clone(), browser_secret, csrf: None }),
        search: if query.provider.is_some() { None } else { query.q.clone() },
    };
    let choices = match client.search_providers(from.call(search)).await {
        Ok(found) => found.into_inner().data,
        Err(status) => return failed(status),
    };
    // A chosen provider must be one of the list; its name comes from the
    // directory, never from the URL.
    if let Some(chosen) = query.provider.and_then(|id| choices.iter().find(|c| c.id == id).cloned()) {
        state.provider = Some(chosen);
        return finish(page(&token, state), &token, new_secret);
    }
    let choices: Vec<minijinja::Value> = choices.into_iter().map(|c| context! { id => c.id, name => c.name }).collect();
    let response = render(
        StatusCode::OK,
        "choose.html",
        context! {
            title => title_for(&state), base => format!("/hosted/{token}"),
            query => query.q.unwrap_or_default(), choices, modal => state.modal,
        },
    );
    finish(response, &token, new_secret)
}

/// Sets the binding cookie on the first open.
fn finish(mut response: Response, token: &str, new_secret: Option<String>) -> Response {
    if let Some(secret) = new_secret {
        let cookie = format!("{COOKIE}={secret}; Path=/hosted/{token}; HttpOnly; Secure; SameSite=Strict");
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(http::header::SET_COOKIE, value);
        }
    }
    response
}

/// The page after a form: the flow's next page, `422` when the core
/// refused what was submitted (the reason is on the page).
fn answer(token: &str, submitted: Result<tonic::Response<pb::PageState>, tonic::Status>) -> Response {
    match submitted {
        Ok(reply) => {
            let state = reply.into_inner();
            let refused = state.error.is_some();
            let mut response = page(token, state);
            if refused {
                *response.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
            }
            response
        }
        Err(status) => failed(status),
    }
}

#[derive(serde::Deserialize)]
struct LoginForm {
    csrf: String,
    provider_id: Option<String>,
    username: String,
    password: String,
}

async fn login(
    State(core): State<Channel>,
    Path(token): Path<String>,
    from: ClientOf,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let form = match axum::extract::Form::<LoginForm>::from_request(request, &()).await {
        Ok(axum::extract::Form(form)) => form,
        Err(_) => return gone("This form could not be read. Reload the page and try again."),
    };
    let mut client = HostedPagesClient::new(core);
    let submitted = client
        .submit_login(from.call(pb::SubmitLoginRequest {
            caller: Some(caller(&token, &headers, Some(form.csrf))),
            provider_id: form.provider_id.filter(|p| !p.is_empty()),
            username: form.username,
            password: form.password,
        }))
        .await;
    answer(&token, submitted)
}

async fn receipt(
    State(core): State<Channel>,
    Path(token): Path<String>,
    from: ClientOf,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    let (mut csrf, mut expense_id, mut file, mut file_name) = (None, None, Vec::new(), None);
    loop {
        let part = match form.next_field().await {
            Ok(Some(part)) => part,
            Ok(None) => break,
            Err(err) if err.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                return gone("The file is larger than 10 MB. Choose a smaller photo or PDF.");
            }
            Err(_) => return gone("This form could not be read. Reload the page and try again."),
        };
        match part.name().unwrap_or_default() {
            "csrf" => csrf = part.text().await.ok(),
            "expense_id" => expense_id = part.text().await.ok().filter(|e| !e.is_empty()),
            "file" => {
                file_name = part.file_name().map(str::to_string);
                match part.bytes().await {
                    Ok(bytes) => file = bytes.to_vec(),
                    Err(_) => return gone("The file is larger than 10 MB. Choose a smaller photo or PDF."),
                }
            }
            _ => {}
        }
    }
    let mut client = HostedPagesClient::new(core);
    let submitted = client
        .submit_receipt(from.call(pb::SubmitReceiptRequest {
            caller: Some(caller(&token, &headers, csrf)),
            expense_id,
            file,
            file_name,
        }))
        .await;
    answer(&token, submitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(flow: &str, status: &str) -> pb::PageState {
        pb::PageState {
            flow: flow.into(),
            status: status.into(),
            csrf: "c".repeat(64),
            connection_type: Some("benefit_account".into()),
            ..Default::default()
        }
    }

    #[test]
    fn every_page_renders() {
        for template in ["layout.html", "choose.html", "login.html", "upload.html", "done.html", "gone.html"] {
            assert!(TEMPLATES.get_template(template).is_ok(), "{template}");
        }
        let mut login = state("connect_account", "opened");
        login.provider = Some(pb::ProviderChoice { id: "adm_1".into(), name: "HealthEquity".into() });
        login.error = Some("<script>x</script>".into());
        let pages = [
            page("hst_t", login),
            page("hst_t", state("connect_account", "opened")),
            page("hst_t", state("upload_receipt", "opened")),
            page("hst_t", state("connect_account", "completed")),
            gone("Used."),
        ];
        for response in pages {
            assert_ne!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
            assert!(response.headers()["content-security-policy"].to_str().unwrap().contains("default-src 'none'"));
        }
    }

    #[tokio::test]
    async fn text_is_escaped() {
        let mut login = state("connect_account", "opened");
        login.provider = Some(pb::ProviderChoice { id: "adm_1".into(), name: "HealthEquity".into() });
        login.error = Some("<script>x</script>".into());
        let body = axum::body::to_bytes(page("hst_t", login).into_body(), 1 << 20).await.unwrap();
        let html = String::from_utf8(body.to_vec()).unwrap();
        assert!(html.contains("&lt;script&gt;") && !html.contains("<script>x"), "{html}");
        assert!(html.contains("<label for=\"username\">"));
    }
}
