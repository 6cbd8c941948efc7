//! Reading a tar archive as it streams in, plain or through gzip: headers
//! one at a time, each member's data in chunks, so `tar x` and `tar t` hold
//! a block and a chunk of the archive, never the whole of it.

use super::gzip_format::GzipError;
use super::gzip_stream::Expander;
use super::tar_format::{decode_header, padding, Entry, Header, Pending, TarError, BLOCK};
use crate::io::{Fd, READ_CHUNK};

/// Where the archive's bytes come from.
pub enum Source {
    /// An uncompressed archive.
    Plain(Fd),
    /// A gzip-compressed archive, expanded as it is read.
    Gzip(Expander),
}

/// Why reading stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// The archive itself is bad.
    Tar(TarError),
    /// The gzip data around it is bad (a cut stream is not an error here:
    /// the archive just ends).
    Gzip(GzipError),
}

/// Reads members from a [`Source`].
pub struct TarReader {
    source: Source,
    buffer: Vec<u8>,
    start: usize,
    ended: bool,
    consumed: u64,
    remaining: u64,
    pad: usize,
    pending: Pending,
    cut: bool,
}

impl TarReader {
    /// A reader of `source`, whose first bytes `prefix` were read already
    /// (for a plain source; a gzip source holds its own).
    pub fn new(source: Source, prefix: Vec<u8>) -> TarReader {
        TarReader { source, buffer: prefix, start: 0, ended: false, consumed: 0, remaining: 0, pad: 0, pending: Pending::default(), cut: false }
    }

    fn available(&self) -> &[u8] {
        self.buffer.get(self.start..).unwrap_or(&[])
    }

    fn consume(&mut self, count: usize) {
        let count = count.min(self.available().len());
        self.start += count;
        self.consumed += count as u64;
    }

    /// Reads until `want` bytes are buffered or the data ends.
    async fn fill(&mut self, want: usize) -> Result<(), ReadError> {
        while self.available().len() < want && !self.ended {
            let chunk = match &mut self.source {
                Source::Plain(input) => input.read(READ_CHUNK).await.unwrap_or_default(),
                Source::Gzip(expander) => match expander.next().await {
                    Ok(chunk) => chunk.unwrap_or_default(),
                    Err(GzipError::UnexpectedEnd) => {
                        self.cut = true;
                        Vec::new()
                    }
                    Err(error) => return Err(ReadError::Gzip(error)),
                },
            };
            if chunk.is_empty() {
                self.ended = true;
            }
            if self.start > 0 {
                self.buffer.drain(..self.start);
                self.start = 0;
            }
            self.buffer.extend_from_slice(&chunk);
        }
        Ok(())
    }

    /// True when the gzip data around the archive was cut short (GNU's
    /// gzip child reports it, and tar goes on with what came).
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// The next member, `Ok(None)` at the end of the archive. The data of
    /// the member before, if not read, is skipped.
    pub async fn next_entry(&mut self) -> Result<Option<Entry>, ReadError> {
        self.skip_body().await?;
        loop {
            let at_start = self.consumed == 0;
            self.fill(BLOCK).await?;
            let Some(block) = self.available().get(..BLOCK).map(<[u8]>::to_vec) else {
                // A short final block ends the archive, as GNU tar treats it.
                return if at_start { Err(ReadError::Tar(TarError::NotTar)) } else { Ok(None) };
            };
            self.consume(BLOCK);
            match decode_header(&block, &mut self.pending) {
                Header::End => return Ok(None),
                Header::Bad => return Err(ReadError::Tar(if at_start { TarError::NotTar } else { TarError::BadHeader })),
                Header::Meta { flag, size } => {
                    let length = usize::try_from(size).unwrap_or(usize::MAX);
                    if crate::memory::reserve(length).is_err() {
                        return Err(ReadError::Tar(TarError::BadHeader));
                    }
                    self.fill(length).await?;
                    let Some(body) = self.available().get(..length).map(<[u8]>::to_vec) else {
                        return Err(ReadError::Tar(TarError::UnexpectedEof));
                    };
                    self.consume(length);
                    self.skip_padding(padding(size)).await?;
                    self.pending.take(flag, &body);
                }
                Header::Member(entry) => {
                    self.remaining = entry.size;
                    self.pad = padding(entry.size);
                    return Ok(Some(entry));
                }
            }
        }
    }

    /// The next chunk of the current member's data (at most `max` bytes);
    /// empty when it is all read.
    pub async fn read_body(&mut self, max: usize) -> Result<Vec<u8>, ReadError> {
        if self.remaining == 0 {
            let pad = std::mem::take(&mut self.pad);
            self.skip_padding(pad).await?;
            return Ok(Vec::new());
        }
        if self.available().is_empty() {
            self.fill(1).await?;
        }
        let take = self.available().len().min(max).min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
        if take == 0 {
            return Err(ReadError::Tar(TarError::UnexpectedEof));
        }
        let chunk = self.available().get(..take).map(<[u8]>::to_vec).unwrap_or_default();
        self.consume(take);
        self.remaining -= take as u64;
        Ok(chunk)
    }

    /// Skips what is left of the current member's data.
    async fn skip_body(&mut self) -> Result<(), ReadError> {
        while !self.read_body(READ_CHUNK).await?.is_empty() {}
        Ok(())
    }

    /// Skips padding; data that ends inside it ends the archive quietly.
    async fn skip_padding(&mut self, count: usize) -> Result<(), ReadError> {
        self.fill(count).await?;
        self.consume(count);
        Ok(())
    }
}

/// Every member of an in-memory archive with its data (tests).
#[cfg(test)]
pub fn read_all(data: &[u8]) -> Result<Vec<(Entry, Vec<u8>)>, ReadError> {
    crate::executor::block_on(async {
        let mut reader = TarReader::new(Source::Plain(crate::io::Stream::input(data.to_vec())), Vec::new());
        let mut members = Vec::new();
        while let Some(entry) = reader.next_entry().await? {
            let mut body = Vec::new();
            loop {
                let chunk = reader.read_body(READ_CHUNK).await?;
                if chunk.is_empty() {
                    break;
                }
                body.extend_from_slice(&chunk);
            }
            members.push((entry, body));
        }
        Ok(members)
    })
}
