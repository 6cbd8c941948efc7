//! Hash and encoding utilities: `md5sum` and the `sha*sum` family (with
//! check mode), `cksum`, and `base64`.

pub mod base64;
pub mod basenc;
pub mod check;
pub mod cksum;
pub mod digest;
pub mod source;
pub mod sum;

#[cfg(test)]
mod tests;
