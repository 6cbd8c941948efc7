//! Archive and compression utilities: `tar`, `gzip`/`gunzip`/`zcat`, and
//! `zip`/`unzip`, all writing and reading the real formats so archives move
//! between the sandbox and GNU tools both ways.

pub mod files;
pub mod gzip;
pub mod gzip_format;
pub mod gzip_stream;
pub mod pattern;
pub mod tar;
pub mod tar_common;
pub mod tar_create;
pub mod tar_extract;
pub mod tar_format;
pub mod tar_list;
pub mod tar_reader;
pub mod unzip;
pub mod zip;
pub mod zip_format;

#[cfg(test)]
mod gzip_tests;
#[cfg(test)]
mod tar_tests;
#[cfg(test)]
mod test_bytes;
#[cfg(test)]
mod zip_tests;
