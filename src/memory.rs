//! The engine's memory: how much is allocated, the cap a host sets, and the
//! check commands make before they hold more data.
//!
//! Every allocation goes through a counting allocator (the `cap` crate over
//! the system allocator). In WebAssembly each sandbox has its own instance,
//! so the count is that sandbox's memory, and the cap (the `memoryLimit`
//! option) makes an allocation past it fail; the wrapper reports such a
//! crash as `WABASH_MEMORY_LIMIT` and brings the sandbox back. Before that
//! last line, a command that must hold its data (`sort`, `tac`) asks
//! [`reserve`] as it grows and stops with its own error ("memory
//! exhausted") while the engine still has room to report it.

use std::alloc::System;

#[global_allocator]
static ALLOCATOR: cap::Cap<System> = cap::Cap::new(System, usize::MAX);

/// Bytes kept free for the engine itself (error messages, the result, the
/// next command) when a command asks to grow.
pub const RESERVE: usize = 32 << 20;

/// Bytes allocated now (the whole process natively, one sandbox in wasm).
pub fn allocated() -> usize {
    ALLOCATOR.allocated()
}

/// The cap on allocated bytes (`usize::MAX`: none).
pub fn limit() -> usize {
    ALLOCATOR.limit()
}

/// Sets the cap; when more is allocated already, the cap becomes what is
/// allocated (nothing more can be allocated) and the call says so.
pub fn set_limit(bytes: usize) -> Result<(), usize> {
    ALLOCATOR.set_limit(bytes).map_err(|()| {
        let now = ALLOCATOR.allocated();
        let _ = ALLOCATOR.set_limit(now);
        now
    })
}

/// Why [`reserve`] refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryExhausted {
    /// The cap in force.
    pub limit: usize,
}

impl std::fmt::Display for MemoryExhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "memory exhausted (the sandbox's memory limit is {} bytes)", self.limit)
    }
}

/// Checks that `more` bytes can still be allocated while keeping
/// [`RESERVE`] free under the cap. Commands call it before growing what
/// they hold by a large step; it allocates nothing.
pub fn reserve(more: usize) -> Result<(), MemoryExhausted> {
    let limit = limit();
    if limit == usize::MAX {
        return Ok(());
    }
    let wanted = allocated().saturating_add(more).saturating_add(RESERVE);
    if wanted > limit {
        Err(MemoryExhausted { limit })
    } else {
        Ok(())
    }
}
