//! Reading an untrusted receipt file into text: a PDF's text, or an image
//! through Tesseract after its pixel count is checked. Everything here
//! treats the file as written by an attacker, and the core never calls it in
//! its own process: it runs the `sail-receipt-reader` binary (or `sail
//! receipt-reader`) as a child under a wall-clock timeout, CPU and
//! address-space limits, in a temporary directory of its own and, where the
//! kernel allows, without a network (docs/receipts.md#reading-in-isolation).
//! A file that sends a parser into endless recursion, a loop or a
//! decompression bomb kills or stalls that child alone.
//!
//! The protocol is one call per process: the content type as the only
//! argument, the file's bytes on standard input, one [`Outcome`] as JSON on
//! standard output. A photo may come back as several readings; whether a
//! reading is whole (its lines add up and the product lexicon names each)
//! is judged by the engine's receipt parser and lexicon
//! (`sail_engine::receipts::parse`, `ParsedReceipt::reads_whole`), which
//! hold no other state.

use std::io::{Read, Write};

use sail_engine::receipts::parse;
use std::process::{Command, ExitCode, Stdio};

/// The most pixels an image may have (width times height) before Sail
/// decodes it: about a 48-megapixel phone photo. A receipt needs far fewer;
/// a 20,000 x 20,000 image (400 megapixels) would take OCR to gigabytes.
pub const MAX_IMAGE_PIXELS: u64 = 50_000_000;

/// The most bytes of the file the reader takes from standard input: the
/// upload limit, so a longer input is not a receipt Sail accepted.
pub const MAX_INPUT_BYTES: u64 = 10 * 1024 * 1024;

/// The most characters of text a reading hands back; a receipt is a few
/// thousand at most.
pub const MAX_TEXT_CHARS: usize = 200_000;

/// What reading one file came to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The file's text.
    Text(String),
    /// Several readings of a small image (a phone photo) whose first
    /// reading did not add up, each prepared with a different enlargement,
    /// the usual one first: OCR misreads different words of each, and the
    /// core keeps the one its purchase confirms (docs/receipts.md#photos).
    Readings(Vec<String>),
    /// Why no text could be had.
    Unreadable(Unreadable),
}

/// Why a file gave no text: a code from docs/receipts.md and a sentence for
/// the partner. Neither quotes the file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Unreadable {
    pub code: String,
    pub message: String,
}

impl Outcome {
    /// The texts read, first choice first, or why there are none.
    pub fn into_readings(self) -> Result<Vec<String>, Unreadable> {
        match self {
            Outcome::Text(text) => Ok(vec![text]),
            Outcome::Readings(readings) => Ok(readings),
            Outcome::Unreadable(why) => Err(why),
        }
    }

    fn unreadable(code: &str, message: impl Into<String>) -> Outcome {
        Outcome::Unreadable(Unreadable { code: code.to_string(), message: message.into() })
    }
}

/// Reads `bytes` of `content_type` (as the core sniffed it from the bytes).
pub fn read(content_type: &str, bytes: &[u8]) -> Outcome {
    match content_type {
        "text/plain" => Outcome::Text(bounded(String::from_utf8_lossy(bytes).into_owned())),
        "application/pdf" => read_pdf(bytes),
        "image/png" | "image/jpeg" | "image/webp" => read_image(bytes),
        _ => Outcome::unreadable("unsupported_type", "Sail does not read files of this type."),
    }
}

/// A PDF's text, by the `pdf-extract` crate. A malformed file is an error
/// or, where the parser panics, caught here; recursion and loops are bounded
/// by the child's limits, not here.
fn read_pdf(bytes: &[u8]) -> Outcome {
    let extracted = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem(bytes));
    match extracted {
        Ok(Ok(text)) => Outcome::Text(bounded(text)),
        _ => Outcome::unreadable("pdf_unreadable", "The PDF could not be read."),
    }
}

/// Checks an image's size from its header, prepares it as receipt readers
/// do (`straighten`), then runs Tesseract on it.
fn read_image(bytes: &[u8]) -> Outcome {
    if let Err(why) = image_size(bytes) {
        return Outcome::Unreadable(why);
    }
    let Some(straight) = straighten(bytes) else {
        return Outcome::unreadable("ocr_failed", "The image could not be decoded.");
    };
    let small = straight.height() < SMALL_IMAGE_HEIGHT;
    let first = match enlarged_png(&straight, ENLARGEMENTS[0]) {
        Some(usual) => ocr(&usual),
        None => return Outcome::unreadable("ocr_failed", "The image could not be prepared."),
    };
    let Outcome::Text(first) = first else { return first };
    if !small || parse(&first).reads_whole() {
        return Outcome::Text(first);
    }
    // A small image whose reading does not add up, or leaves a line no term
    // names, is read again at the other enlargements, until one reads
    // whole; a reading that fails or says the same adds nothing. The core
    // decides each reading and merges them line by line.
    let mut readings = vec![first];
    for &enlargement in &ENLARGEMENTS[1..] {
        let Some(Outcome::Text(text)) = enlarged_png(&straight, enlargement).map(|other| ocr(&other)) else { continue };
        if readings.contains(&text) {
            continue;
        }
        let whole = parse(&text).reads_whole();
        readings.push(text);
        if whole {
            break;
        }
    }
    match readings.len() {
        1 => Outcome::Text(readings.remove(0)),
        _ => Outcome::Readings(readings),
    }
}

/// The enlargements a small image is read at, the usual one first: half
/// again, a quarter, none. Measured on 56 generated phone photos
/// (docs/receipts.md, "Photos"): each alone reads every amount of about 20
/// receipts right, and one of them does for 30 or more.
const ENLARGEMENTS: [f32; 3] = [1.5, 1.25, 1.0];

/// An image shorter than this is enlarged before OCR (and may be read at
/// each of [`ENLARGEMENTS`]): its text is small (a receipt across a phone photo's
/// width is 1,500 pixels or more).
const SMALL_IMAGE_HEIGHT: u32 = 1600;
/// The skew searched for and corrected, either way, in degrees.
const MAX_SKEW_DEGREES: f32 = 5.0;

/// A photo made ready for OCR, once however often it is read: grayscale;
/// straightened by the angle whose rows of dark pixels are most distinct (a
/// projection profile, the classic deskew); and a 3x3 median filter against
/// sensor noise and JPEG speckle. Each reading then enlarges it when small
/// (`enlarged_png`). None when the image does not decode (its size was
/// checked before).
///
/// Chosen by measurement on 26 generated phone photos (docs/receipts.md,
/// "Photos"): every amount of a receipt read right for 6 of 26 receipts as
/// they came, 13 of 26 prepared this way; binarising before Tesseract (a
/// global or an adaptive threshold) and doubling the size both made it
/// worse, so Tesseract keeps its own thresholding.
pub fn straighten(bytes: &[u8]) -> Option<image::GrayImage> {
    use image::Luma;
    use imageproc::geometric_transformations::{Border, Interpolation, rotate_about_center};

    let mut gray = image::load_from_memory(bytes).ok()?.to_luma8();
    let angle = skew_degrees(&gray);
    if angle != 0.0 {
        let background = Luma([imageproc::contrast::otsu_level(&gray).max(200)]);
        gray = rotate_about_center(&gray, -angle.to_radians(), Interpolation::Bilinear, Border::Constant(background));
    }
    Some(imageproc::filter::median_filter(&gray, 1, 1))
}

/// A straightened image as the PNG Tesseract reads: enlarged by
/// `enlargement` (Lanczos) when it is small, as it is otherwise.
fn enlarged_png(straight: &image::GrayImage, enlargement: f32) -> Option<Vec<u8>> {
    use image::{ImageEncoder, imageops};

    let enlarged;
    let image = if straight.height() < SMALL_IMAGE_HEIGHT {
        let width = (straight.width() as f32 * enlargement) as u32;
        let height = (straight.height() as f32 * enlargement) as u32;
        enlarged = imageops::resize(straight, width, height, imageops::FilterType::Lanczos3);
        &enlarged
    } else {
        straight
    };
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(image.as_raw(), image.width(), image.height(), image::ExtendedColorType::L8)
        .ok()?;
    Some(out)
}

/// The skew of a page of text, in degrees (positive: counter-clockwise),
/// found on a reduced copy: the angle, in half-degree steps, at which the
/// rows' counts of dark pixels vary most.
fn skew_degrees(gray: &image::GrayImage) -> f32 {
    use image::{Luma, imageops};
    use imageproc::geometric_transformations::{Border, Interpolation, rotate_about_center};

    let scale = (500.0 / gray.width().max(1) as f32).min(1.0);
    let small = imageops::resize(
        gray,
        ((gray.width() as f32 * scale) as u32).max(1),
        ((gray.height() as f32 * scale) as u32).max(1),
        imageops::FilterType::Triangle,
    );
    let level = imageproc::contrast::otsu_level(&small);
    let mut best = (0.0f32, f64::MIN);
    let steps = (MAX_SKEW_DEGREES * 2.0) as i32;
    for step in -steps..=steps {
        let degrees = step as f32 / 2.0;
        let turned =
            rotate_about_center(&small, degrees.to_radians(), Interpolation::Nearest, Border::Constant(Luma([255])));
        let rows: Vec<f64> = turned.rows().map(|row| row.filter(|p| p.0[0] < level).count() as f64).collect();
        let mean = rows.iter().sum::<f64>() / rows.len().max(1) as f64;
        let spread = rows.iter().map(|r| (r - mean) * (r - mean)).sum::<f64>();
        if spread > best.1 {
            best = (degrees, spread);
        }
    }
    // The rotation that levels the text undoes the skew.
    -best.0
}

/// An image's width and height from its header alone, if Sail reads images
/// that large: at most [`MAX_IMAGE_PIXELS`], neither side zero. Nothing is
/// decoded.
pub fn image_size(bytes: &[u8]) -> Result<(u32, u32), Unreadable> {
    let size = imagesize::blob_size(bytes).map_err(|_| Unreadable {
        code: "ocr_failed".to_string(),
        message: "The image could not be decoded.".to_string(),
    })?;
    let (width, height) = (size.width as u64, size.height as u64);
    if width.saturating_mul(height) > MAX_IMAGE_PIXELS || width == 0 || height == 0 {
        return Err(Unreadable {
            code: "file_too_complex".to_string(),
            message: format!(
                "The image is {width} x {height} pixels; Sail reads images of at most {} megapixels.",
                MAX_IMAGE_PIXELS / 1_000_000
            ),
        });
    }
    Ok((width as u32, height as u32))
}

/// OCR through the `tesseract` command (Debian's `tesseract-ocr`), page
/// segmentation mode 6, the image on its standard input. It inherits this
/// process's limits and process group, so the core's timeout ends it too.
fn ocr(bytes: &[u8]) -> Outcome {
    let spawned = Command::new("tesseract")
        .args(["stdin", "stdout", "--psm", "6"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Outcome::unreadable(
                "ocr_unavailable",
                "Images are read with OCR, which is not installed on this Sail server (tesseract-ocr).",
            );
        }
        Err(_) => return Outcome::unreadable("ocr_failed", "OCR could not start."),
    };
    // Tesseract reads all of its input before it writes, so writing first
    // cannot deadlock on a full output pipe.
    if let Some(mut stdin) = child.stdin.take() {
        // A write error shows up as a failed run below.
        let _ = stdin.write_all(bytes);
    }
    match child.wait_with_output() {
        Ok(output) if output.status.success() => {
            Outcome::Text(bounded(String::from_utf8_lossy(&output.stdout).into_owned()))
        }
        _ => Outcome::unreadable("ocr_failed", "OCR could not read the image."),
    }
}

/// At most [`MAX_TEXT_CHARS`] characters of `text`.
fn bounded(text: String) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((end, _)) => text[..end].to_string(),
        None => text,
    }
}

/// The child's whole life: `args` (after the program and any subcommand)
/// name the content type; the file comes on standard input and the
/// [`Outcome`] goes to standard output. Exits 2 on a misuse, which the core
/// counts as a failed reading.
pub fn run_child(args: &[String]) -> ExitCode {
    let [content_type] = args else {
        eprintln!("usage: sail-receipt-reader CONTENT_TYPE < FILE");
        return ExitCode::from(2);
    };
    let mut bytes = Vec::new();
    if std::io::stdin().lock().take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes).is_err()
        || bytes.len() as u64 > MAX_INPUT_BYTES
    {
        eprintln!("sail-receipt-reader: the input could not be read or is over the limit");
        return ExitCode::from(2);
    }
    let outcome = read(content_type, &bytes);
    let mut stdout = std::io::stdout().lock();
    match serde_json::to_writer(&mut stdout, &outcome).and_then(|()| stdout.flush().map_err(serde_json::Error::io)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_over_the_pixel_limit_is_refused_from_its_header_alone() {
        // A PNG signature and an IHDR claiming 20,000 x 20,000 pixels, no data.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&20_000u32.to_be_bytes());
        png.extend_from_slice(&20_000u32.to_be_bytes());
        png.extend_from_slice(&[8, 0, 0, 0, 0, 0, 0, 0, 0]);
        match read("image/png", &png) {
            Outcome::Unreadable(why) => {
                assert_eq!(why.code, "file_too_complex");
                assert!(why.message.contains("20000 x 20000"), "{}", why.message);
            }
            other => panic!("read a pixel flood: {other:?}"),
        }
    }

    #[test]
    fn text_is_bounded() {
        let long = "a".repeat(MAX_TEXT_CHARS + 10);
        assert_eq!(read("text/plain", long.as_bytes()), Outcome::Text("a".repeat(MAX_TEXT_CHARS)));
    }

    #[test]
    fn garbage_claiming_to_be_a_pdf_is_unreadable_not_a_panic() {
        let outcome = read("application/pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\n%%EOF");
        assert!(matches!(outcome, Outcome::Unreadable(ref why) if why.code == "pdf_unreadable"), "{outcome:?}");
    }
}
