pub mod ustr;

#[macro_use]
pub mod async_stream;
