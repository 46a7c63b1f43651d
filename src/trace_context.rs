//! W3C trace context across Sail's hops: from a partner's `traceparent`
//! into the gateway's span, from the gateway to the core in gRPC metadata,
//! and from a request into the job or event row it writes, so that one
//! trace shows a push, its ingestion job and the webhook it causes
//! (docs/operations.md#traces).
//!
//! Every function goes through OpenTelemetry's global propagator, which the
//! `sail` binary sets to W3C trace context, then calls [`enable`], only when
//! traces are exported (`SAIL_OTLP_ENDPOINT`). Until then every function
//! returns at once, so the calls on each request's path cost one atomic
//! load when traces are off; and a caller's header is never copied
//! anywhere: only a context parsed by the propagator (a fixed-size
//! `traceparent`) goes on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use opentelemetry::propagation::{Extractor, Injector};
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The W3C header (and metadata key, and stored field) that carries a trace.
pub const TRACEPARENT: &str = "traceparent";

/// Whether this process exports traces.
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Turns the carrying on: called once the global propagator is set.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Makes the trace context in `headers` (an HTTP request's, or a gRPC
/// call's metadata as HTTP/2 headers) the parent of `span`. A request
/// without one, or with one that does not parse, keeps `span` a root.
pub fn adopt_from_headers(span: &tracing::Span, headers: &http::HeaderMap) {
    if !enabled() {
        return;
    }
    let parent = opentelemetry::global::get_text_map_propagator(|p| p.extract(&HeaderCarrier(headers)));
    // Fails only when no OpenTelemetry layer is installed: nothing to do.
    let _ = span.set_parent(parent);
}

/// Makes a stored `traceparent` (see [`current`]) the parent of `span`.
pub fn adopt_stored(span: &tracing::Span, traceparent: Option<&str>) {
    if !enabled() {
        return;
    }
    if let Some(parent) = traceparent.map(stored) {
        let _ = span.set_parent(parent);
    }
}

/// Links `span` to the trace of a stored `traceparent`: for work done for
/// several requests at once, which can have only one parent.
pub fn link_stored(span: &tracing::Span, traceparent: Option<&str>) {
    use opentelemetry::trace::TraceContextExt;
    if !enabled() {
        return;
    }
    let Some(linked) = traceparent.map(stored) else { return };
    let linked = linked.span().span_context().clone();
    if linked.is_valid() {
        span.add_link(linked);
    }
}

/// The context a stored `traceparent` names.
fn stored(traceparent: &str) -> opentelemetry::Context {
    let carrier = HashMap::from([(TRACEPARENT.to_string(), traceparent.to_string())]);
    opentelemetry::global::get_text_map_propagator(|p| p.extract(&carrier))
}

/// The current span's context as a `traceparent` value, for a row that work
/// started later will pick up; `None` when traces are off.
pub fn current() -> Option<String> {
    if !enabled() {
        return None;
    }
    let context = tracing::Span::current().context();
    let mut carrier = HashMap::new();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&context, &mut carrier));
    carrier.remove(TRACEPARENT)
}

/// Puts the current span's context into a gRPC call's metadata.
pub fn inject_current(metadata: &mut tonic::metadata::MetadataMap) {
    if !enabled() {
        return;
    }
    let context = tracing::Span::current().context();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&context, &mut MetadataCarrier(metadata)));
}

/// HTTP headers as the propagator reads them.
struct HeaderCarrier<'a>(&'a http::HeaderMap);

impl Extractor for HeaderCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}

/// gRPC metadata as the propagator writes it. A value that is not visible
/// ASCII cannot come from the W3C propagator; it is skipped, never sent.
struct MetadataCarrier<'a>(&'a mut tonic::metadata::MetadataMap);

impl Injector for MetadataCarrier<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(key), Ok(value)) =
            (tonic::metadata::MetadataKey::from_bytes(key.as_bytes()), tonic::metadata::MetadataValue::try_from(value))
        {
            self.0.insert(key, value);
        }
    }
}
