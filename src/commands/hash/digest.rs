//! The message digests behind `md5sum`, `sha1sum` and the `sha2` family,
//! computed by the RustCrypto crates over a stream, chunk by chunk.

use crate::io::{Fd, IoError, READ_CHUNK};
use sha2::Digest;

/// A digest algorithm, named by the utility that computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    /// MD5 (`md5sum`).
    Md5,
    /// SHA-1 (`sha1sum`).
    Sha1,
    /// SHA-224 (`sha224sum`).
    Sha224,
    /// SHA-256 (`sha256sum`).
    Sha256,
    /// SHA-384 (`sha384sum`).
    Sha384,
    /// SHA-512 (`sha512sum`).
    Sha512,
}

impl Algorithm {
    /// The algorithm a utility name computes (`sha256sum` -> SHA-256).
    pub fn for_command(name: &str) -> Algorithm {
        match name {
            "sha1sum" => Algorithm::Sha1,
            "sha224sum" => Algorithm::Sha224,
            "sha256sum" => Algorithm::Sha256,
            "sha384sum" => Algorithm::Sha384,
            "sha512sum" => Algorithm::Sha512,
            _ => Algorithm::Md5,
        }
    }

    /// The name in BSD-style `--tag` lines and check-mode warnings (`SHA256`).
    pub fn tag(self) -> &'static str {
        match self {
            Algorithm::Md5 => "MD5",
            Algorithm::Sha1 => "SHA1",
            Algorithm::Sha224 => "SHA224",
            Algorithm::Sha256 => "SHA256",
            Algorithm::Sha384 => "SHA384",
            Algorithm::Sha512 => "SHA512",
        }
    }

    /// Length of the digest in hexadecimal digits.
    pub fn hex_len(self) -> usize {
        match self {
            Algorithm::Md5 => 32,
            Algorithm::Sha1 => 40,
            Algorithm::Sha224 => 56,
            Algorithm::Sha256 => 64,
            Algorithm::Sha384 => 96,
            Algorithm::Sha512 => 128,
        }
    }

    /// Digests everything `stream` yields, returning lowercase hex.
    pub async fn digest_stream(self, stream: &Fd) -> Result<String, IoError> {
        let mut hasher = Hasher::new(self);
        loop {
            let chunk = stream.read(READ_CHUNK).await?;
            if chunk.is_empty() {
                return Ok(hasher.finish_hex());
            }
            hasher.update(&chunk);
        }
    }

    /// Digests a byte slice, returning lowercase hex.
    #[cfg(test)]
    pub fn digest_bytes(self, data: &[u8]) -> String {
        let mut hasher = Hasher::new(self);
        hasher.update(data);
        hasher.finish_hex()
    }
}

/// A running digest of one algorithm.
enum Hasher {
    Md5(md5::Md5),
    Sha1(sha1::Sha1),
    Sha224(sha2::Sha224),
    Sha256(sha2::Sha256),
    Sha384(sha2::Sha384),
    Sha512(sha2::Sha512),
}

impl Hasher {
    fn new(algorithm: Algorithm) -> Hasher {
        match algorithm {
            Algorithm::Md5 => Hasher::Md5(md5::Md5::new()),
            Algorithm::Sha1 => Hasher::Sha1(sha1::Sha1::new()),
            Algorithm::Sha224 => Hasher::Sha224(sha2::Sha224::new()),
            Algorithm::Sha256 => Hasher::Sha256(sha2::Sha256::new()),
            Algorithm::Sha384 => Hasher::Sha384(sha2::Sha384::new()),
            Algorithm::Sha512 => Hasher::Sha512(sha2::Sha512::new()),
        }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Md5(h) => h.update(data),
            Hasher::Sha1(h) => h.update(data),
            Hasher::Sha224(h) => h.update(data),
            Hasher::Sha256(h) => h.update(data),
            Hasher::Sha384(h) => h.update(data),
            Hasher::Sha512(h) => h.update(data),
        }
    }

    fn finish_hex(self) -> String {
        let bytes: Vec<u8> = match self {
            Hasher::Md5(h) => h.finalize().to_vec(),
            Hasher::Sha1(h) => h.finalize().to_vec(),
            Hasher::Sha224(h) => h.finalize().to_vec(),
            Hasher::Sha256(h) => h.finalize().to_vec(),
            Hasher::Sha384(h) => h.finalize().to_vec(),
            Hasher::Sha512(h) => h.finalize().to_vec(),
        };
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digests() {
        assert_eq!(Algorithm::Md5.digest_bytes(b"hello"), "5d41402abc4b2a76b9719d911017c592");
        assert_eq!(Algorithm::Sha1.digest_bytes(b"hello\n"), "f572d396fae9206628714fb2ce00f72e94f2258f");
        assert_eq!(Algorithm::Sha256.digest_bytes(b"hello\n"), "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
        assert_eq!(Algorithm::Sha512.digest_bytes(b"").len(), 128);
    }
}
