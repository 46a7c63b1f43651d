//! AFL++ target: `sail_fuzz::descriptor` on every input.
fn main() {
    afl::fuzz!(|data: &[u8]| sail_fuzz::descriptor(data));
}
