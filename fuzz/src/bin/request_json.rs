//! AFL++ target: `sail_fuzz::request_json` on every input.
fn main() {
    afl::fuzz!(|data: &[u8]| sail_fuzz::request_json(data));
}
