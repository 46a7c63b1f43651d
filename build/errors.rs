//! `error_codes.rs`: the contract's error vocabulary, read from
//! `proto/sail/v1/error_codes.csv` (code, HTTP status, gRPC code, meaning).
//! `src/errors.rs` includes the generated enum and the OpenAPI document
//! lists the same codes under each status, so the one file is the only
//! place a code is declared.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// One row of the file.
pub struct ErrorCode {
    pub code: String,
    pub http_status: u16,
    grpc_code: String,
    meaning: String,
}

/// The rows in file order.
pub struct ErrorCodes(pub Vec<ErrorCode>);

/// The gRPC codes a row may name (`tonic::Code` variants).
const GRPC_CODES: &[&str] = &[
    "InvalidArgument",
    "Unauthenticated",
    "PermissionDenied",
    "NotFound",
    "FailedPrecondition",
    "AlreadyExists",
    "ResourceExhausted",
    "Internal",
    "Unavailable",
];

impl ErrorCodes {
    /// Parses the file; a malformed row fails the build with its line.
    pub fn read(text: &str) -> Result<ErrorCodes, String> {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let mut rows = Vec::new();
        for (at, record) in reader.records().enumerate() {
            let line = at + 2;
            let record = record.map_err(|err| format!("error_codes.csv line {line}: {err}"))?;
            let [code, status, grpc, meaning] = [0, 1, 2, 3].map(|i| record.get(i).unwrap_or("").trim().to_string());
            if code.is_empty() || !code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
                return Err(format!("error_codes.csv line {line}: code {code:?} is not snake_case"));
            }
            let http_status = status
                .parse::<u16>()
                .ok()
                .filter(|s| (400..600).contains(s))
                .ok_or_else(|| format!("error_codes.csv line {line}: {status:?} is not an error status"))?;
            if !GRPC_CODES.contains(&grpc.as_str()) {
                return Err(format!("error_codes.csv line {line}: {grpc:?} is not a gRPC code Sail uses"));
            }
            if meaning.is_empty() {
                return Err(format!("error_codes.csv line {line}: {code} has no meaning"));
            }
            if rows.iter().any(|r: &ErrorCode| r.code == code) {
                return Err(format!("error_codes.csv line {line}: {code} twice"));
            }
            rows.push(ErrorCode { code, http_status, grpc_code: grpc, meaning });
        }
        Ok(ErrorCodes(rows))
    }

    /// The codes sent with `status`, in file order.
    pub fn for_status(&self, status: u16) -> Vec<&str> {
        self.0.iter().filter(|row| row.http_status == status).map(|row| row.code.as_str()).collect()
    }

    /// The `ErrorCode` enum and its lookups.
    pub fn generate(&self) -> TokenStream {
        let variants: Vec<_> = self.0.iter().map(|row| format_ident!("{}", camel_case(&row.code))).collect();
        let meanings = self.0.iter().map(|row| &row.meaning);
        let wires = self.0.iter().map(|row| &row.code);
        let statuses = self.0.iter().map(|row| row.http_status);
        let grpc_codes = self.0.iter().map(|row| format_ident!("{}", row.grpc_code));
        quote! {
            /// A machine-readable error code that clients match on.
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            pub enum ErrorCode {
                #(#[doc = #meanings] #variants,)*
            }

            impl ErrorCode {
                /// Every code, for exhaustive tests.
                pub const ALL: &'static [ErrorCode] = &[#(ErrorCode::#variants),*];

                /// The wire form in the REST envelope, e.g. `insufficient_key_scope`.
                pub fn as_str(self) -> &'static str {
                    match self { #(ErrorCode::#variants => #wires,)* }
                }

                /// The HTTP status the contract assigns to this code.
                pub fn http_status(self) -> u16 {
                    match self { #(ErrorCode::#variants => #statuses,)* }
                }

                /// The gRPC code that follows the HTTP status.
                pub fn grpc_code(self) -> tonic::Code {
                    match self { #(ErrorCode::#variants => tonic::Code::#grpc_codes,)* }
                }
            }
        }
    }
}

/// `insufficient_key_scope` → `InsufficientKeyScope`.
fn camel_case(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|first| first.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}
