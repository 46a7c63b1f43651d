//! Files made to hurt a receipt reader, generated here rather than stored
//! (docs/receipts.md#reading-in-isolation): PDFs whose structure recurses,
//! nests, loops or decompresses without end, and images whose header claims
//! more pixels than any receipt has. Each is a few kilobytes to a few
//! hundred; what it costs a naive reader is recorded beside each.

use std::io::Write;

/// A PDF of `objects`, numbered from 1 (the first is the catalog), with a
/// correct cross-reference table, so a reader gets past the file's frame
/// and into the hostile part.
pub fn pdf_of(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (at, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        writeln!(out, "{} 0 obj", at + 1).unwrap();
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    write!(out, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).unwrap();
    for offset in offsets {
        writeln!(out, "{offset:010} 00000 n ").unwrap();
    }
    writeln!(out, "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF", objects.len() + 1).unwrap();
    out
}

/// A stream object's body: its dictionary entries (without `/Length`) and data.
pub fn stream(entries: &str, data: &[u8]) -> Vec<u8> {
    let mut out = format!("<< {entries} /Length {} >>\nstream\n", data.len()).into_bytes();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\nendstream");
    out
}

/// Catalog, page tree and one page whose content is object 4 and whose
/// resources are `resources`; the caller's objects follow from 4 on.
fn one_page(resources: &str, rest: Vec<Vec<u8>>) -> Vec<u8> {
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources {resources} /Contents 4 0 R >>")
            .into_bytes(),
    ];
    objects.extend(rest);
    pdf_of(&objects)
}

/// A page that draws a form, and a form that draws itself: a reader that
/// follows `Do` without a depth limit recurses until its stack is gone
/// (under 1 KB; the original report was 876 bytes).
pub fn self_referencing_form() -> Vec<u8> {
    one_page(
        "<< /XObject << /Fm0 5 0 R >> >>",
        vec![
            stream("", b"q /Fm0 Do Q"),
            stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Fm0 5 0 R >> >>",
                b"q /Fm0 Do Q",
            ),
        ],
    )
}

/// An object nested `depth` arrays deep (`[[[…]]]`), referenced from the
/// page: a recursive-descent parser recurses once per bracket.
pub fn nested_arrays(depth: usize) -> Vec<u8> {
    let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    one_page("<< /Deep 5 0 R >>", vec![stream("", b"BT ET"), format!("<< /Deep {nested} >>").into_bytes()])
}

/// An object nested `depth` dictionaries deep (`<< /A << /A … >> >>`).
pub fn nested_dictionaries(depth: usize) -> Vec<u8> {
    let nested = format!("{}{}", "<< /A ".repeat(depth), ">> ".repeat(depth));
    one_page("<< /Deep 5 0 R >>", vec![stream("", b"BT ET"), nested.into_bytes()])
}

/// A content stream of arrays nested `depth` deep, as page content: the
/// content parser, not the object parser, meets the recursion.
pub fn nested_content_arrays(depth: usize) -> Vec<u8> {
    let nested = format!("{}{} pop", "[".repeat(depth), "]".repeat(depth));
    one_page("<< >>", vec![stream("", nested.as_bytes())])
}

/// A page tree whose page is its own parent's parent: `Kids` leads back to
/// the tree's root, so a reader walking the tree without remembering where
/// it has been never finishes.
pub fn looping_page_tree() -> Vec<u8> {
    pdf_of(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>".to_vec(),
        b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 1 >>".to_vec(),
    ])
}

/// Forms that each draw the next form `fanout` times, `levels` deep: a
/// few kilobytes that ask a reader to run `fanout ^ levels` form
/// contents, with no recursion deeper than `levels`. A reader with no
/// budget for work spins on it for hours (ten levels of ten: ten billion).
pub fn exponential_forms(levels: usize, fanout: usize) -> Vec<u8> {
    let draw_next = |next: usize| "/Fm Do ".repeat(fanout).replace("/Fm", &format!("/Fm{next}"));
    let mut rest = vec![stream("", draw_next(0).as_bytes())];
    for level in 0..levels {
        let resources = format!("<< /XObject << /Fm{} {} 0 R >> >>", level + 1, 6 + level);
        let content = if level + 1 < levels { draw_next(level + 1) } else { "BT ET".to_string() };
        rest.push(stream(
            &format!("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources {resources}"),
            content.as_bytes(),
        ));
    }
    one_page("<< /XObject << /Fm0 5 0 R >> >>", rest)
}

/// A page whose content is `megabytes` MiB of spaces, deflated by hand into
/// about 6.3 bytes per KiB (fixed Huffman codes: one literal, then matches
/// of 258 bytes at distance 1), and drawn `pages` times: a reader that
/// inflates each use without a limit holds or burns through
/// `megabytes * pages` MiB.
pub fn compression_bomb(megabytes: usize, pages: usize) -> Vec<u8> {
    let data = deflate_spaces(megabytes * 1024 * 1024);
    let kids: Vec<String> = (0..pages).map(|p| format!("{} 0 R", 4 + p)).collect();
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [{}] /Count {pages} >>", kids.join(" ")).into_bytes(),
        stream("/Filter /FlateDecode", &data),
    ];
    for _ in 0..pages {
        objects
            .push(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 3 0 R >>".to_vec());
    }
    pdf_of(&objects)
}

/// A zlib stream that inflates to `len` spaces (at least 259), written
/// directly: a fixed-Huffman block of one literal and back-references.
fn deflate_spaces(len: usize) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        acc: u64,
        n: u32,
    }
    impl Bits {
        fn put(&mut self, value: u64, count: u32) {
            self.acc |= value << self.n;
            self.n += count;
            while self.n >= 8 {
                self.out.push(self.acc as u8);
                self.acc >>= 8;
                self.n -= 8;
            }
        }
        /// Huffman codes go most significant bit first.
        fn code(&mut self, code: u64, count: u32) {
            let reversed = (0..count).fold(0, |r, i| r | (((code >> i) & 1) << (count - 1 - i)));
            self.put(reversed, count);
        }
    }
    let mut bits = Bits { out: vec![0x78, 0x01], acc: 0, n: 0 };
    bits.put(1, 1); // the final block
    bits.put(1, 2); // fixed Huffman codes
    bits.code(0x30 + b' ' as u64, 8); // the literal ' '
    let matches = (len - 1) / 258;
    for _ in 0..matches {
        bits.code(0b1100_0101, 8); // length 258 (symbol 285)
        bits.code(0, 5); // distance 1
    }
    for _ in 0..(len - 1 - matches * 258) {
        bits.code(0x30 + b' ' as u64, 8);
    }
    bits.code(0, 7); // end of block (symbol 256)
    if bits.n > 0 {
        bits.put(0, 8 - bits.n);
    }
    // Adler-32 of `len` spaces.
    let (mut a, mut b) = (1u64, 0u64);
    for _ in 0..len {
        a = (a + 32) % 65521;
        b = (b + a) % 65521;
    }
    bits.out.extend_from_slice(&((b << 16 | a) as u32).to_be_bytes());
    bits.out
}

/// A PNG header claiming `width` x `height` pixels of 8-bit gray, with one
/// empty data chunk: a decoder would allocate the whole picture first.
pub fn pixel_flood_png(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &[0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend_from_slice(&(data.len() as u32).to_be_bytes());
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    let crc = crc32(kind.iter().chain(data));
    png.extend_from_slice(&crc.to_be_bytes());
}

fn crc32<'a>(bytes: impl Iterator<Item = &'a u8>) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}
