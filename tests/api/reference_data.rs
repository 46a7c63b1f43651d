//! The checked-in `data/` must stay a verbatim copy of the team's reference
//! data, the team's shared copy beside the checkout, whenever it is present.

use std::path::Path;

#[test]
fn data_matches_the_shared_reference_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data");
    if !shared.is_dir() {
        eprintln!("../shared/data is not beside the checkout: nothing to compare");
        return;
    }
    for entry in std::fs::read_dir(&shared).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        let ours = std::fs::read(root.join("data").join(name)).unwrap_or_default();
        assert_eq!(ours, std::fs::read(&path).unwrap(), "data/{} differs from ../shared/data", name.to_string_lossy());
    }
}
