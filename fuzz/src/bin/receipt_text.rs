//! AFL++ target: `sail_fuzz::receipt_text` on every input.
fn main() {
    afl::fuzz!(|data: &[u8]| sail_fuzz::receipt_text(data));
}
