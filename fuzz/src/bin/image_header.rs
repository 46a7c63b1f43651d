//! AFL++ target: `sail_fuzz::image_header` on every input.
fn main() {
    afl::fuzz!(|data: &[u8]| sail_fuzz::image_header(data));
}
