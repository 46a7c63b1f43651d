//! The run's figures as SVG charts (plotters): throughput against the
//! ceiling, latency percentiles, and RSS over the soak.

use std::path::Path;

use plotters::prelude::*;

use crate::server::Database;
use crate::{Line, Soak};

const SQLITE: RGBColor = RGBColor(0x1f, 0x77, 0xb4);
const POSTGRES: RGBColor = RGBColor(0xd6, 0x27, 0x28);
const PERCENTILES: [RGBColor; 3] = [RGBColor(0x2c, 0xa0, 0x2c), RGBColor(0xff, 0x7f, 0x0e), RGBColor(0x94, 0x67, 0xbd)];

fn color(database: &Database) -> RGBColor {
    match database {
        Database::Sqlite => SQLITE,
        Database::Postgres { .. } => POSTGRES,
    }
}

/// The request types in the order measured, each once.
fn labels(lines: &[Line]) -> Vec<&'static str> {
    let mut labels: Vec<&'static str> = Vec::new();
    for line in lines {
        if !labels.contains(&line.label) {
            labels.push(line.label);
        }
    }
    labels
}

fn databases(lines: &[Line]) -> Vec<Database> {
    let mut found: Vec<Database> = Vec::new();
    for line in lines {
        if !found.iter().any(|d| d.name() == line.database.name()) {
            found.push(line.database.clone());
        }
    }
    found
}

/// A request label short enough to sit under its bars.
fn short(label: &str) -> String {
    label.replace("?search=walgren", "?search=").replace(" (500 rows)", " ×500")
}

/// Writes `throughput.svg`, `latency.svg` and `soak-rss.svg` into `dir`.
pub fn draw(dir: &Path, lines: &[Line], soak: &Soak) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    throughput(&dir.join("throughput.svg"), lines)?;
    latency(&dir.join("latency.svg"), lines)?;
    rss(&dir.join("soak-rss.svg"), soak)?;
    Ok(())
}

fn category_axis(n: usize) -> std::ops::Range<f64> {
    -0.5..(n as f64 - 0.5)
}

fn category_label(labels: &[&str], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 {
        String::new()
    } else {
        labels.get(i as usize).map(|l| short(l)).unwrap_or_default()
    }
}

fn throughput(file: &Path, lines: &[Line]) -> anyhow::Result<()> {
    let labels = labels(lines);
    let databases = databases(lines);
    let top = lines.iter().map(Line::ratio).fold(0.5_f64, f64::max) * 1.15;
    let root = SVGBackend::new(file, (1100, 460)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Sail's requests per second as a share of the bare-axum ceiling (same run)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(category_axis(labels.len()), 0.0..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(labels.len() + 1)
        .x_label_formatter(&|x| category_label(&labels, *x))
        .y_desc("share of the ceiling (Sail req/s over bare req/s)")
        .draw()?;
    let width = 0.8 / databases.len() as f64;
    for (d, database) in databases.iter().enumerate() {
        let bars = labels.iter().enumerate().filter_map(|(i, label)| {
            let line = lines.iter().find(|l| l.label == *label && l.database.name() == database.name())?;
            let left = i as f64 - 0.4 + d as f64 * width;
            Some(Rectangle::new([(left, 0.0), (left + width * 0.95, line.ratio())], color(database).filled()))
        });
        chart
            .draw_series(bars)?
            .label(database.title())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color(database).filled()));
        let values = labels.iter().enumerate().filter_map(|(i, label)| {
            let line = lines.iter().find(|l| l.label == *label && l.database.name() == database.name())?;
            let x = i as f64 - 0.4 + d as f64 * width + width * 0.1;
            Some(Text::new(format!("{:.3}", line.ratio()), (x, line.ratio() + top * 0.03), ("sans-serif", 13)))
        });
        chart.draw_series(values)?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.9)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

fn latency(file: &Path, lines: &[Line]) -> anyhow::Result<()> {
    let labels = labels(lines);
    let databases = databases(lines);
    let root = SVGBackend::new(file, (1100, 360 * databases.len() as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let panels = root.split_evenly((databases.len(), 1));
    let top = lines.iter().map(|l| l.sail.p999_ms).fold(1.0_f64, f64::max) * 2.0;
    let bottom = lines.iter().map(|l| l.sail.p50_ms).fold(f64::MAX, f64::min).min(1.0) / 2.0;
    for (panel, database) in panels.iter().zip(&databases) {
        let mut chart = ChartBuilder::on(panel)
            .caption(format!("Sail's latency, {} (ms, log scale)", database.title()), ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(category_axis(labels.len()), (bottom..top).log_scale())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(labels.len() + 1)
            .x_label_formatter(&|x| category_label(&labels, *x))
            .y_desc("ms")
            .draw()?;
        let percentile = [("p50", 0usize), ("p99", 1), ("p99.9", 2)];
        for (name, k) in percentile {
            let bars = labels.iter().enumerate().filter_map(|(i, label)| {
                let line = lines.iter().find(|l| l.label == *label && l.database.name() == database.name())?;
                let value = [line.sail.p50_ms, line.sail.p99_ms, line.sail.p999_ms][k];
                let left = i as f64 - 0.375 + k as f64 * 0.25;
                Some(Rectangle::new([(left, bottom), (left + 0.23, value.max(bottom))], PERCENTILES[k].filled()))
            });
            chart
                .draw_series(bars)?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], PERCENTILES[k].filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

fn rss(file: &Path, soak: &Soak) -> anyhow::Result<()> {
    let mib: Vec<(f64, f64)> = soak.rss.iter().map(|(t, kib)| (*t, *kib as f64 / 1024.0)).collect();
    let end = mib.last().map_or(1.0, |(t, _)| *t).max(1.0);
    let high = mib.iter().map(|(_, m)| *m).fold(0.0_f64, f64::max) * 1.25;
    let root = SVGBackend::new(file, (1100, 360)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("RSS of sail serve over a {} s mixed-load soak ({})", soak.seconds, soak.database.title()),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..end, 0.0..high.max(1.0))?;
    chart.configure_mesh().x_desc("seconds into the soak").y_desc("MiB").draw()?;
    chart.draw_series(LineSeries::new(mib.iter().copied(), SQLITE.stroke_width(2)))?;
    chart.draw_series(mib.iter().map(|p| Circle::new(*p, 2, SQLITE.filled())))?;
    root.present()?;
    Ok(())
}
