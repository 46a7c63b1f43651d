//! The pages a hosted session opens (docs/hosted-sessions.md), served at
//! `/hosted/<token>` on the gateway's public side: server-rendered HTML from
//! the minijinja templates in `templates/hosted/` (no external assets; the
//! one script, Sail's own overlay script, only on pages a partner may
//! frame), each page a translation of a `sail.v1.HostedPages` call. The
//! core decides everything: whether the link may open, which browser it is
//! bound to, which origins may frame it, the anti-forgery token of every
//! form, and what a login or an upload does. This module only renders that:
//! the headers that enforce the framing rule, and the binding secret in a
//! cookie (and, on framable pages, in the forms and links too, for browsers
//! that refuse cookies in a cross-site frame).

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

/// The form field and query parameter that carry the same binding secret
/// on framable pages, where a browser may refuse every cookie.
const BINDING: &str = "binding";

/// The script of pages a partner may frame: the close control's message to
/// the partner's window, and focus kept inside the overlay.
const OVERLAY_JS: &str = include_str!("../templates/hosted/overlay.js");

/// Where the overlay script is served (same origin, so `script-src 'self'`).
const OVERLAY_PATH: &str = "/hosted-assets/overlay.js";

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
        .route(OVERLAY_PATH, get(overlay_script))
        .route("/hosted/{token}", get(show))
        .route("/hosted/{token}/login", post(login))
        .route(
            "/hosted/{token}/receipt",
            post(receipt).layer(axum::extract::DefaultBodyLimit::max(MAX_UPLOAD_BODY_BYTES)),
        )
        .with_state(core)
}

/// How one session's pages are rendered around their content: which
/// origins may frame them (none: `frame-ancestors 'none'`), and, on a
/// framable page, the binding secret its forms and links carry.
#[derive(Debug, Clone, Default)]
struct Shell {
    frame_ancestors: Vec<String>,
    binding: Option<String>,
}

/// An origin as the core sends it, checked again before it goes into a
/// header or a page: only the characters a serialised origin has.
fn is_origin(text: &str) -> bool {
    text.len() <= 300
        && (text.starts_with("https://") || text.starts_with("http://"))
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:/[]".contains(&b))
}

impl Shell {
    /// A page no site may frame, and whose forms carry no binding.
    fn unframable() -> Self {
        Shell::default()
    }

    /// The shell of a session's pages, as the core described them.
    fn of(state: &pb::PageState, binding: Option<String>) -> Self {
        Shell::framed_by(state.frame_ancestors.clone(), binding)
    }

    fn framed_by(origins: Vec<String>, binding: Option<String>) -> Self {
        let frame_ancestors: Vec<String> = origins.into_iter().filter(|o| is_origin(o)).collect();
        let binding = if frame_ancestors.is_empty() { None } else { binding };
        Shell { frame_ancestors, binding }
    }

    fn framable(&self) -> bool {
        !self.frame_ancestors.is_empty()
    }

    fn content_security_policy(&self) -> String {
        if self.framable() {
            format!(
                "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors {}",
                self.frame_ancestors.join(" ")
            )
        } else {
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'".to_string()
        }
    }
}

fn render(status: StatusCode, template: &str, values: minijinja::Value, shell: &Shell) -> Response {
    let values = context! {
        framable => shell.framable(),
        embed_origins => shell.frame_ancestors.join(" "),
        binding => shell.binding.clone(),
        overlay_js => OVERLAY_PATH,
        ..values
    };
    let page = TEMPLATES.get_template(template).and_then(|t| t.render(values));
    let mut response = match page {
        Ok(html) => (status, Html(html)).into_response(),
        Err(err) => {
            tracing::error!(error = %err, template, "a hosted page did not render");
            (StatusCode::INTERNAL_SERVER_ERROR, "This page could not be shown.").into_response()
        }
    };
    let headers = response.headers_mut();
    // Nothing loads from elsewhere, and only the origins the partner
    // registered may frame a page where a user types an administrator's
    // credentials (clickjacking); a page of any other session, and any
    // page of an unknown session, none (docs/hosted-sessions.md).
    match HeaderValue::from_str(&shell.content_security_policy()) {
        Ok(policy) => {
            headers.insert("content-security-policy", policy);
        }
        Err(_) => {
            headers.insert(
                "content-security-policy",
                HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"),
            );
        }
    }
    if !shell.framable() {
        // The same rule for browsers that predate frame-ancestors. A
        // framable page sends none: the header cannot name origins, and a
        // browser that honours frame-ancestors ignores it anyway.
        headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    }
    headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    response
}

fn gone(message: &str, shell: &Shell) -> Response {
    render(StatusCode::GONE, "gone.html", context! { title => "Link expired", message, modal => false }, shell)
}

/// The overlay script: Sail's own, the only script a page runs.
async fn overlay_script() -> Response {
    let mut response = OVERLAY_JS.into_response();
    let headers = response.headers_mut();
    headers.insert(http::header::CONTENT_TYPE, HeaderValue::from_static("text/javascript; charset=utf-8"));
    headers.insert(http::header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300"));
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    response
}

/// A binding secret as the core makes them (43 base62 characters); any
/// other text is ignored, never sent on.
fn well_formed(secret: &str) -> bool {
    secret.len() == 43 && secret.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The browser's binding secret: its cookie, or, where the browser refused
/// the cookie (a cross-site frame), the one the page's form or link carried.
fn browser_secret(headers: &HeaderMap, carried: Option<&str>) -> Option<String> {
    headers
        .get_all(http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == COOKIE && well_formed(value))
        .map(|(_, value)| value.to_string())
        .or_else(|| carried.filter(|c| well_formed(c)).map(str::to_string))
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

fn caller(token: &str, browser_secret: Option<String>, csrf: Option<String>) -> pb::PageCaller {
    pb::PageCaller { token: token.to_string(), browser_secret, csrf }
}

/// What a failed core call shows: the session's own reason as a `410`
/// page (framable as the session's pages are), anything else as an error
/// page no site may frame.
fn failed(status: tonic::Status) -> Response {
    match status.code() {
        tonic::Code::NotFound | tonic::Code::InvalidArgument => {
            let detail = sail_api::ErrorDetail::from_status(&status);
            let origins = detail
                .metadata
                .get("frame_ancestors")
                .map(|o| o.split(' ').map(str::to_string).collect())
                .unwrap_or_default();
            gone(status.message(), &Shell::framed_by(origins, None))
        }
        // Page lookups are limited per client address, as other requests
        // without an API key are.
        tonic::Code::ResourceExhausted => {
            let mut response = render(
                StatusCode::TOO_MANY_REQUESTS,
                "gone.html",
                context! { title => "Too many requests", message => "Too many requests came from your network. Wait a moment, then reload the page.", modal => false },
                &Shell::unframable(),
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
                &Shell::unframable(),
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

/// What a completed flow tells the partner's window when the user closes
/// the overlay: `{type: "sail.hosted", status: "completed", …}`.
fn outcome(state: &pb::PageState) -> minijinja::Value {
    context! {
        status => if state.status == "completed" { "completed" } else { "exited" },
        connection_id => state.connection_id.clone().filter(|_| state.status == "completed"),
        receipt_id => state.receipt_id.clone(),
    }
}

/// What a receipt did: the expense's new decision, or, while the receipt
/// is still being read, a link to check again (a timed refresh would take
/// the page away from someone still reading it).
fn receipt_result(token: &str, state: &pb::PageState, shell: &Shell) -> Response {
    let modal = state.modal || shell.framable();
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
    render(
        StatusCode::OK,
        "done.html",
        context! { title, tone, message, modal, again, outcome => outcome(state) },
        shell,
    )
}

/// The page for `state`: the outcome, or the form the flow is at.
fn page(token: &str, state: pb::PageState, binding: Option<String>) -> Response {
    let shell = Shell::of(&state, binding);
    let base = format!("/hosted/{token}");
    let title = title_for(&state);
    // A framable page is shaped for an overlay, whether or not the session
    // asked for `modal` (an upload_receipt session cannot).
    let modal = state.modal || shell.framable();
    let outcome = outcome(&state);
    if state.status == "completed" && state.flow == "upload_receipt" {
        return receipt_result(token, &state, &shell);
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
        return render(
            StatusCode::OK,
            "done.html",
            context! { title => "All set", tone, message, modal, outcome },
            &shell,
        );
    }
    if state.flow == "upload_receipt" {
        let expenses: Vec<minijinja::Value> = state.expenses.iter().map(expense_label).collect();
        let expense = state.expense.as_ref().map(expense_label);
        return render(
            StatusCode::OK,
            "upload.html",
            context! { title, base, csrf => state.csrf, expenses, expense, error => state.error, modal, outcome },
            &shell,
        );
    }
    match state.provider {
        Some(provider) => render(
            StatusCode::OK,
            "login.html",
            context! {
                title, base, csrf => state.csrf, provider_id => provider.id, provider_name => provider.name,
                error => state.error, modal, sandbox_hint => state.sandbox, outcome,
            },
            &shell,
        ),
        None => render(
            StatusCode::OK,
            "choose.html",
            context! { title, base, query => "", choices => Vec::<minijinja::Value>::new(), modal, outcome },
            &shell,
        ),
    }
}

#[derive(serde::Deserialize)]
struct ShowQuery {
    q: Option<String>,
    provider: Option<String>,
    binding: Option<String>,
}

async fn show(
    State(core): State<Channel>,
    Path(token): Path<String>,
    Query(query): Query<ShowQuery>,
    from: ClientOf,
    headers: HeaderMap,
) -> Response {
    let mut client = HostedPagesClient::new(core);
    let presented = browser_secret(&headers, query.binding.as_deref());
    let opened = client
        .open_page(from.call(pb::OpenPageRequest { caller: Some(caller(&token, presented.clone(), None)) }))
        .await;
    let mut state = match opened {
        Ok(reply) => reply.into_inner(),
        Err(status) => return failed(status),
    };
    let new_secret = state.new_browser_secret.clone();
    let binding = new_secret.clone().or(presented);
    let framable = !state.frame_ancestors.is_empty();
    let choosing = state.status != "completed" && state.flow == "connect_account" && state.provider.is_none();
    if !choosing {
        return finish(page(&token, state, binding), &token, new_secret, framable);
    }
    let search = pb::SearchProvidersRequest {
        caller: Some(caller(&token, binding.clone(), None)),
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
        return finish(page(&token, state, binding), &token, new_secret, framable);
    }
    let choices: Vec<minijinja::Value> = choices.into_iter().map(|c| context! { id => c.id, name => c.name }).collect();
    let shell = Shell::of(&state, binding);
    let response = render(
        StatusCode::OK,
        "choose.html",
        context! {
            title => title_for(&state), base => format!("/hosted/{token}"),
            query => query.q.unwrap_or_default(), choices, modal => state.modal || shell.framable(),
            outcome => outcome(&state),
        },
        &shell,
    );
    finish(response, &token, new_secret, framable)
}

/// Sets the binding cookie on the first open. A page no site may frame
/// keeps it `SameSite=Strict`; a framable page's cookie must reach Sail
/// from inside a partner's cross-site frame, so it is `SameSite=None` and
/// `Partitioned` (kept apart per top-level site: a cookie set inside one
/// partner's frame exists only there).
fn finish(mut response: Response, token: &str, new_secret: Option<String>, framable: bool) -> Response {
    if let Some(secret) = new_secret {
        let cookie = if framable {
            format!("{COOKIE}={secret}; Path=/hosted/{token}; HttpOnly; Secure; SameSite=None; Partitioned")
        } else {
            format!("{COOKIE}={secret}; Path=/hosted/{token}; HttpOnly; Secure; SameSite=Strict")
        };
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(http::header::SET_COOKIE, value);
        }
    }
    response
}

/// The page after a form: the flow's next page, `422` when the core
/// refused what was submitted (the reason is on the page).
fn answer(
    token: &str,
    submitted: Result<tonic::Response<pb::PageState>, tonic::Status>,
    binding: Option<String>,
) -> Response {
    match submitted {
        Ok(reply) => {
            let state = reply.into_inner();
            let refused = state.error.is_some();
            let mut response = page(token, state, binding);
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
    binding: Option<String>,
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
        Err(_) => return gone("This form could not be read. Reload the page and try again.", &Shell::unframable()),
    };
    let presented = browser_secret(&headers, form.binding.as_deref());
    let mut client = HostedPagesClient::new(core);
    let submitted = client
        .submit_login(from.call(pb::SubmitLoginRequest {
            caller: Some(caller(&token, presented.clone(), Some(form.csrf))),
            provider_id: form.provider_id.filter(|p| !p.is_empty()),
            username: form.username,
            password: form.password,
        }))
        .await;
    answer(&token, submitted, presented)
}

async fn receipt(
    State(core): State<Channel>,
    Path(token): Path<String>,
    from: ClientOf,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    let (mut csrf, mut expense_id, mut file, mut file_name, mut binding) = (None, None, Vec::new(), None, None);
    let unreadable = || gone("This form could not be read. Reload the page and try again.", &Shell::unframable());
    let too_large = || gone("The file is larger than 10 MB. Choose a smaller photo or PDF.", &Shell::unframable());
    loop {
        let part = match form.next_field().await {
            Ok(Some(part)) => part,
            Ok(None) => break,
            Err(err) if err.status() == StatusCode::PAYLOAD_TOO_LARGE => return too_large(),
            Err(_) => return unreadable(),
        };
        match part.name().unwrap_or_default() {
            "csrf" => csrf = part.text().await.ok(),
            BINDING => binding = part.text().await.ok(),
            "expense_id" => expense_id = part.text().await.ok().filter(|e| !e.is_empty()),
            "file" => {
                file_name = part.file_name().map(str::to_string);
                match part.bytes().await {
                    Ok(bytes) => file = bytes.to_vec(),
                    Err(_) => return too_large(),
                }
            }
            _ => {}
        }
    }
    let presented = browser_secret(&headers, binding.as_deref());
    let mut client = HostedPagesClient::new(core);
    let submitted = client
        .submit_receipt(from.call(pb::SubmitReceiptRequest {
            caller: Some(caller(&token, presented.clone(), csrf)),
            expense_id,
            file,
            file_name,
        }))
        .await;
    answer(&token, submitted, presented)
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

    async fn html(response: Response) -> String {
        let body = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
        // minijinja writes "/" in values as "&#x2f;"; a browser reads both alike.
        String::from_utf8(body.to_vec()).unwrap().replace("&#x2f;", "/")
    }

    fn login_state() -> pb::PageState {
        let mut login = state("connect_account", "opened");
        login.provider = Some(pb::ProviderChoice { id: "adm_1".into(), name: "HealthEquity".into() });
        login
    }

    const SECRET: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";

    #[test]
    fn every_page_renders() {
        for template in ["layout.html", "choose.html", "login.html", "upload.html", "done.html", "gone.html"] {
            assert!(TEMPLATES.get_template(template).is_ok(), "{template}");
        }
        let mut login = login_state();
        login.error = Some("<script>x</script>".into());
        let mut framed = login_state();
        framed.frame_ancestors = vec!["https://app.example.com".into()];
        let pages = [
            page("hst_t", login, None),
            page("hst_t", framed, Some(SECRET.into())),
            page("hst_t", state("connect_account", "opened"), None),
            page("hst_t", state("upload_receipt", "opened"), None),
            page("hst_t", state("connect_account", "completed"), None),
            gone("Used.", &Shell::unframable()),
        ];
        for response in pages {
            assert_ne!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
            assert!(response.headers()["content-security-policy"].to_str().unwrap().contains("default-src 'none'"));
        }
    }

    #[tokio::test]
    async fn text_is_escaped() {
        let mut login = login_state();
        login.error = Some("<script>x</script>".into());
        let html = html(page("hst_t", login, None)).await;
        assert!(html.contains("&lt;script&gt;") && !html.contains("<script>x"), "{html}");
        assert!(html.contains("<label for=\"username\">"));
    }

    #[tokio::test]
    async fn a_page_without_registered_origins_cannot_be_framed_and_carries_no_binding() {
        let mut modal = login_state();
        modal.modal = true;
        let response = page("hst_t", modal, Some(SECRET.into()));
        let policy = response.headers()["content-security-policy"].to_str().unwrap().to_string();
        assert!(policy.ends_with("frame-ancestors 'none'"), "{policy}");
        assert!(!policy.contains("script-src"), "{policy}");
        assert_eq!(response.headers()["x-frame-options"], "DENY");
        let html = html(response).await;
        assert!(!html.contains(SECRET) && !html.contains("<script"), "{html}");
    }

    #[tokio::test]
    async fn a_framable_page_names_exactly_its_origins_and_carries_the_binding() {
        let mut framed = login_state();
        framed.frame_ancestors = vec!["https://app.example.com".into(), "http://localhost:3000".into()];
        let response = page("hst_t", framed, Some(SECRET.into()));
        let policy = response.headers()["content-security-policy"].to_str().unwrap().to_string();
        assert!(policy.ends_with("frame-ancestors https://app.example.com http://localhost:3000"), "{policy}");
        assert!(policy.contains("script-src 'self'"), "{policy}");
        assert!(response.headers().get("x-frame-options").is_none());
        let html = html(response).await;
        assert!(html.contains(&format!("name=\"binding\" value=\"{SECRET}\"")), "{html}");
        assert!(html.contains("data-sail-origins=\"https://app.example.com http://localhost:3000\""), "{html}");
        assert!(html.contains(&format!("<script src=\"{OVERLAY_PATH}\"")), "{html}");
        assert!(html.contains("data-sail-close"), "{html}");
    }

    #[tokio::test]
    async fn an_origin_that_could_break_the_header_is_dropped() {
        let mut framed = login_state();
        framed.frame_ancestors = vec!["https://a.example; script-src *".into(), "https://b.example".into()];
        let response = page("hst_t", framed, None);
        let policy = response.headers()["content-security-policy"].to_str().unwrap().to_string();
        assert!(policy.ends_with("frame-ancestors https://b.example"), "{policy}");
        let mut only_bad = login_state();
        only_bad.frame_ancestors = vec!["javascript:alert(1)".into()];
        let response = page("hst_t", only_bad, Some(SECRET.into()));
        assert_eq!(response.headers()["x-frame-options"], "DENY");
    }

    #[tokio::test]
    async fn a_completed_flow_tells_its_outcome_to_the_overlay_script() {
        let mut done = state("connect_account", "completed");
        done.frame_ancestors = vec!["https://app.example.com".into()];
        done.connection_id = Some("conn_1".into());
        let html = html(page("hst_t", done, Some(SECRET.into()))).await;
        assert!(html.contains("data-sail-status=\"completed\""), "{html}");
        assert!(html.contains("data-sail-connection-id=\"conn_1\""), "{html}");
        assert!(html.contains(">Done</button>"), "{html}");
    }

    #[test]
    fn the_binding_comes_from_the_cookie_first_and_only_when_well_formed() {
        let mut headers = HeaderMap::new();
        assert_eq!(browser_secret(&headers, Some(SECRET)), Some(SECRET.to_string()));
        assert_eq!(browser_secret(&headers, Some("short")), None);
        assert_eq!(browser_secret(&headers, Some(&"x".repeat(10_000))), None);
        let cookie = "B".repeat(43);
        headers.insert(http::header::COOKIE, HeaderValue::from_str(&format!("other=1; {COOKIE}={cookie}")).unwrap());
        assert_eq!(browser_secret(&headers, Some(SECRET)), Some(cookie));
    }
}
