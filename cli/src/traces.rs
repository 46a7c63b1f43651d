//! Trace export (docs/operations.md#traces): with `SAIL_OTLP_ENDPOINT` set,
//! the spans a server makes (a REST request, a core call, a job, a webhook
//! attempt) become OpenTelemetry spans, batched and sent over OTLP/gRPC to
//! a collector, and W3C trace context is read from callers and carried on
//! between gateway, core and background work (`sail_api::trace_context`).
//! The standard `OTEL_*` variables tune the exporter and its batching
//! (`OTEL_BSP_SCHEDULE_DELAY`, `OTEL_TRACES_SAMPLER`, …).

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};
use tracing_opentelemetry::OpenTelemetryLayer;

/// The layer that makes `tracing` spans exported spans, over subscriber `S`.
pub type SpanLayer<S> = OpenTelemetryLayer<S, SdkTracer>;

/// Where traces go, and as which service.
pub struct TraceExport<'a> {
    /// The collector's OTLP/gRPC address, e.g. `http://127.0.0.1:4317`.
    pub endpoint: &'a str,
    /// `service.name` of every span: `sail`, `sail-core` or `sail-gateway`.
    pub service: &'static str,
}

/// The exporting side, kept until exit: shutting it down sends what is
/// still batched.
pub struct Exporter(SdkTracerProvider);

impl Drop for Exporter {
    fn drop(&mut self) {
        if let Err(err) = self.0.shutdown() {
            eprintln!("traces: the last batch was not sent: {err}");
        }
    }
}

/// The layer that turns `tracing` spans into exported spans, and the
/// exporter to keep. Sets the W3C propagator, so trace context is read and
/// carried from here on. Must run inside the async runtime: the gRPC
/// channel to the collector is driven by it (and connects lazily, so a
/// collector that is down delays no start).
pub fn start<S>(export: &TraceExport<'_>) -> anyhow::Result<(SpanLayer<S>, Exporter)>
where
    S: tracing::Subscriber + for<'span> tracing_subscriber::registry::LookupSpan<'span>,
{
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_tonic()
        .with_endpoint(export.endpoint)
        .build()
        .map_err(|err| anyhow::anyhow!("SAIL_OTLP_ENDPOINT: {err}"))?;
    let resource = opentelemetry_sdk::Resource::builder().with_service_name(export.service).build();
    let provider = SdkTracerProvider::builder().with_resource(resource).with_batch_exporter(exporter).build();
    let tracer = provider.tracer("sail");
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    sail_api::trace_context::enable();
    Ok((tracing_opentelemetry::layer().with_tracer(tracer), Exporter(provider)))
}
