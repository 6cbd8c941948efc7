//! Network utilities: `curl` and `wget`. They never touch a socket: each
//! request goes to the host ([`crate::host::Host::fetch`]), which refuses
//! everything unless its embedder allowed the URL, and redirects are
//! followed here hop by hop so the host checks every one.

pub mod curl;
pub mod transfer;
pub mod url;
pub mod wget;
