//! The file descriptor table of a shell or command: numbers mapped to shared
//! open streams, with save and restore around redirected commands.

use crate::io::Fd;

/// Lowest fd that `{var}>file` allocates, as bash.
pub const FIRST_ALLOCATED_FD: usize = 10;
/// Highest fd number accepted.
pub const MAX_FD: usize = 1023;

/// Maps fd numbers to open streams.
#[derive(Clone, Default)]
pub struct FdTable {
    slots: Vec<Option<Fd>>,
}

impl FdTable {
    /// A table with stdin, stdout and stderr.
    pub fn new(stdin: Fd, stdout: Fd, stderr: Fd) -> Self {
        FdTable { slots: vec![Some(stdin), Some(stdout), Some(stderr)] }
    }

    /// The stream at `fd`, if open.
    pub fn get(&self, fd: usize) -> Option<Fd> {
        self.slots.get(fd).cloned().flatten()
    }

    /// Opens `fd` onto `stream` (closing what it held).
    pub fn set(&mut self, fd: usize, stream: Fd) {
        if fd >= self.slots.len() {
            self.slots.resize(fd + 1, None);
        }
        self.slots[fd] = Some(stream);
    }

    /// Closes `fd`.
    pub fn close(&mut self, fd: usize) {
        if let Some(slot) = self.slots.get_mut(fd) {
            *slot = None;
        }
    }

    /// The lowest free fd at or above [`FIRST_ALLOCATED_FD`].
    pub fn allocate(&self) -> usize {
        self.allocate_from(FIRST_ALLOCATED_FD)
    }

    /// The lowest free fd at or above `start`.
    pub fn allocate_from(&self, start: usize) -> usize {
        (start..=MAX_FD).find(|&fd| self.get(fd).is_none()).unwrap_or(MAX_FD)
    }
}
