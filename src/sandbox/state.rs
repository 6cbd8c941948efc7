//! A sandbox's whole state as bytes, and back: the filesystem (as a
//! snapshot, or as deltas the host applies to its own copy) and the shell
//! session ([`crate::interp::state`]).
//!
//! The snapshot container, little-endian:
//!
//! ```text
//! magic "WABASHSN"  version u32 (1)
//! filesystem snapshot: length u64, bytes (crate::fs::memory's format)
//! shell state: length u64, bytes
//! checksum u64 (FNV-1a of everything before it)
//! ```

use super::Sandbox;
use crate::fs::memory::Delta;

const MAGIC: &[u8; 8] = b"WABASHSN";
const VERSION: u32 = 1;

/// Why a snapshot or a saved state could not be restored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RestoreError {
    /// The bytes are not a snapshot of a version this engine reads, or are
    /// damaged (checksum, truncation, inconsistent contents).
    Corrupt(String),
    /// The filesystem in it does not fit this sandbox's quotas.
    Quota(String),
}

impl std::fmt::Display for RestoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RestoreError::Corrupt(message) | RestoreError::Quota(message) => f.write_str(message),
        }
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3))
}

fn fs_restore_error(error: crate::fs::FsError) -> RestoreError {
    match error {
        crate::fs::FsError::NoSpace | crate::fs::FsError::FileTooLarge => {
            RestoreError::Quota(format!("the snapshot's files exceed this sandbox's quotas ({})", error.message()))
        }
        _ => RestoreError::Corrupt("the snapshot's filesystem is corrupt".to_string()),
    }
}

/// Splits off a length-prefixed part.
fn part<'a>(bytes: &mut &'a [u8]) -> Option<&'a [u8]> {
    let (len, rest) = bytes.split_first_chunk::<8>()?;
    let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
    if len > rest.len() {
        return None;
    }
    let (taken, rest) = rest.split_at(len);
    *bytes = rest;
    Some(taken)
}

impl Sandbox {
    /// The whole sandbox as bytes: files, variables, functions, options,
    /// the working directory. Taken between runs.
    pub fn snapshot(&self) -> Vec<u8> {
        let fs = self.fs.snapshot();
        let shell = self.shell.save_state();
        let mut out = Vec::with_capacity(fs.len() + shell.len() + 40);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for bytes in [&fs, &shell] {
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Replaces the whole sandbox with a snapshot. Nothing changes when the
    /// bytes are rejected.
    pub async fn restore_snapshot(&mut self, bytes: &[u8]) -> Result<Vec<String>, RestoreError> {
        let corrupt = || RestoreError::Corrupt("not a wabash snapshot, or a damaged one".to_string());
        let body_len = bytes.len().checked_sub(8).ok_or_else(corrupt)?;
        let (body, checksum) = bytes.split_at(body_len);
        if checksum != fnv1a(body).to_le_bytes() {
            return Err(corrupt());
        }
        let header = body.get(..12).ok_or_else(corrupt)?;
        if &header[..8] != MAGIC {
            return Err(corrupt());
        }
        if header[8..12] != VERSION.to_le_bytes() {
            return Err(RestoreError::Corrupt("the snapshot was made by a newer version of wabash".to_string()));
        }
        let mut rest = &body[12..];
        let fs = part(&mut rest).ok_or_else(corrupt)?;
        let shell = part(&mut rest).ok_or_else(corrupt)?;
        if !rest.is_empty() {
            return Err(corrupt());
        }
        self.restore_parts(|sandbox| sandbox.fs.restore(fs), shell).await
    }

    /// What changed in the filesystem since the last call (everything on
    /// the first), and the shell state now: what a host keeps to bring the
    /// sandbox back after a crash.
    pub fn take_delta(&self) -> (Delta, Vec<u8>) {
        (self.fs.take_delta(), self.shell.save_state())
    }

    /// Restores a host's copy kept from [`Sandbox::take_delta`]: node
    /// records laid end to end, and the shell state.
    pub async fn restore_saved(&mut self, records: &[u8], shell: &[u8]) -> Result<Vec<String>, RestoreError> {
        self.restore_parts(|sandbox| sandbox.fs.restore_records(records), shell).await
    }

    /// Restores the shell state into a scratch copy, then the filesystem,
    /// and only then swaps the shell in, so rejected bytes change nothing.
    /// The warnings name what could not come back (a function whose text no
    /// longer parses).
    async fn restore_parts(
        &mut self,
        restore_fs: impl FnOnce(&Sandbox) -> crate::fs::FsResult<()>,
        shell: &[u8],
    ) -> Result<Vec<String>, RestoreError> {
        let mut scratch = self.shell.clone();
        let warnings = scratch.restore_state(shell).await.map_err(|error| RestoreError::Corrupt(error.0))?;
        restore_fs(self).map_err(fs_restore_error)?;
        self.shell = scratch;
        Ok(warnings)
    }
}
