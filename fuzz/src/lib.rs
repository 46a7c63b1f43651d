//! The fuzz targets as a library, so each `src/bin/` program is one line.
include!("targets.rs");
