//! Streaming gzip: an [`Encoder`] that compresses chunk by chunk and a
//! [`Decoder`] that expands chunk by chunk, so `gzip`, `zcat` and `tar z`
//! hold a window of their data (deflate's 32 KiB plus one chunk), never the
//! whole of it. The decoder gives GNU gzip's verdicts: the same errors, at
//! the same points, as [`super::gzip_format::decompress`] on the whole data.

use super::gzip_format::{parse_header, GzipError, Header};
use crate::io::{Fd, READ_CHUNK};
use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

/// Compresses one gzip member a chunk at a time.
pub struct Encoder {
    compressor: Compress,
    crc: crc32fast::Hasher,
    size: u32,
}

/// The member header `gzip` writes: method deflate, OS Unix, the extra
/// flags of `level`, and an optional stored name and modification time.
pub fn member_header(level: u32, name: Option<&str>, mtime: u32) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, if name.is_some() { 0x08 } else { 0 }];
    out.extend_from_slice(&mtime.to_le_bytes());
    out.push(match level {
        9 => 2,
        1 => 4,
        _ => 0,
    });
    out.push(3);
    if let Some(name) = name {
        out.extend(name.bytes().filter(|&b| b != 0));
        out.push(0);
    }
    out
}

impl Encoder {
    /// An encoder at `level` (1-9); the caller writes [`member_header`] first.
    pub fn new(level: u32) -> Encoder {
        Encoder { compressor: Compress::new(Compression::new(level.clamp(1, 9)), false), crc: crc32fast::Hasher::new(), size: 0 }
    }

    /// Compresses `input`, appending what is ready to `out`.
    pub fn write(&mut self, input: &[u8], out: &mut Vec<u8>) {
        self.crc.update(input);
        self.size = self.size.wrapping_add(input.len() as u32);
        self.run(input, out, FlushCompress::None);
    }

    /// Ends the member: the rest of the deflate stream and the trailer.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        self.run(&[], out, FlushCompress::Finish);
        out.extend_from_slice(&self.crc.clone().finalize().to_le_bytes());
        out.extend_from_slice(&self.size.to_le_bytes());
    }

    fn run(&mut self, input: &[u8], out: &mut Vec<u8>, flush: FlushCompress) {
        let start = self.compressor.total_in();
        loop {
            if out.capacity() - out.len() < 4096 {
                out.reserve(out.capacity().max(8192));
            }
            let consumed = (self.compressor.total_in() - start) as usize;
            let rest = input.get(consumed..).unwrap_or(&[]);
            match self.compressor.compress_vec(rest, out, flush) {
                Ok(Status::StreamEnd) | Err(_) => return,
                Ok(_) => {
                    let taken = (self.compressor.total_in() - start) as usize;
                    if flush == FlushCompress::None && taken >= input.len() {
                        return;
                    }
                }
            }
        }
    }
}

/// What [`Decoder::step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The output buffer is full: write it and call again.
    Output,
    /// More input is needed ([`Decoder::push`], or [`Decoder::end`] at end of file).
    NeedInput,
    /// Every member is read; true when non-gzip bytes followed the last.
    Done(bool),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Header { first: bool },
    Zeros,
    Body,
    Trailer,
}

/// Expands gzip members from input pushed in chunks.
pub struct Decoder {
    pending: Vec<u8>,
    start: usize,
    ended: bool,
    phase: Phase,
    inflater: Decompress,
    crc: crc32fast::Hasher,
    size: u32,
    header: Option<Header>,
    length_also_wrong: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder::new()
    }
}

impl Decoder {
    /// A decoder at the start of a gzip file.
    pub fn new() -> Decoder {
        Decoder {
            pending: Vec::new(),
            start: 0,
            ended: false,
            phase: Phase::Header { first: true },
            inflater: Decompress::new(false),
            crc: crc32fast::Hasher::new(),
            size: 0,
            header: None,
            length_also_wrong: false,
        }
    }

    /// Adds input.
    pub fn push(&mut self, input: &[u8]) {
        if self.start > 0 {
            self.pending.drain(..self.start);
            self.start = 0;
        }
        self.pending.extend_from_slice(input);
    }

    /// Marks the end of the input.
    pub fn end(&mut self) {
        self.ended = true;
    }

    /// The first member's header, once read.
    pub fn header(&self) -> Option<&Header> {
        self.header.as_ref()
    }

    /// After a CRC error: whether the length in the trailer was wrong too
    /// (GNU reports both).
    pub fn length_also_wrong(&self) -> bool {
        self.length_also_wrong
    }

    /// Expands what it can into `out`, up to `max` bytes in it.
    pub fn step(&mut self, out: &mut Vec<u8>, max: usize) -> Result<Step, GzipError> {
        loop {
            let available = self.pending.get(self.start..).unwrap_or(&[]);
            match self.phase {
                Phase::Header { first } => {
                    if !first {
                        match available.first() {
                            None if self.ended => return Ok(Step::Done(false)),
                            None => return Ok(Step::NeedInput),
                            Some(0) => {
                                self.phase = Phase::Zeros;
                                continue;
                            }
                            Some(_) => {}
                        }
                    }
                    match parse_header(available) {
                        Ok(header) => {
                            self.start += header.len;
                            if first {
                                self.header = Some(header);
                            }
                            self.inflater.reset(false);
                            self.crc = crc32fast::Hasher::new();
                            self.size = 0;
                            self.phase = Phase::Body;
                        }
                        Err(GzipError::NotGzip) if !first => return Ok(Step::Done(true)),
                        Err(GzipError::UnexpectedEnd) if !self.ended => return Ok(Step::NeedInput),
                        Err(error) => return Err(error),
                    }
                }
                Phase::Zeros => {
                    if available.iter().any(|&b| b != 0) {
                        return Ok(Step::Done(true));
                    }
                    self.start = self.pending.len();
                    return Ok(if self.ended { Step::Done(false) } else { Step::NeedInput });
                }
                Phase::Body => {
                    let filled = out.len();
                    if filled >= max {
                        return Ok(Step::Output);
                    }
                    out.resize(max, 0);
                    let (before_in, before_out) = (self.inflater.total_in(), self.inflater.total_out());
                    let status = self.inflater.decompress(available, out.get_mut(filled..).unwrap_or(&mut []), FlushDecompress::None);
                    let consumed = (self.inflater.total_in() - before_in) as usize;
                    let produced = (self.inflater.total_out() - before_out) as usize;
                    out.truncate(filled + produced);
                    self.crc.update(out.get(filled..).unwrap_or(&[]));
                    self.size = self.size.wrapping_add(produced as u32);
                    self.start += consumed;
                    match status {
                        Ok(Status::StreamEnd) => self.phase = Phase::Trailer,
                        Ok(_) => {
                            if out.len() >= max {
                                return Ok(Step::Output);
                            }
                            if consumed == 0 && produced == 0 {
                                if self.ended {
                                    return Err(GzipError::UnexpectedEnd);
                                }
                                return Ok(Step::NeedInput);
                            }
                        }
                        Err(_) => return Err(GzipError::FormatViolated),
                    }
                }
                Phase::Trailer => {
                    let Some(trailer) = available.get(..8) else {
                        if self.ended {
                            return Err(GzipError::UnexpectedEnd);
                        }
                        return Ok(Step::NeedInput);
                    };
                    let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
                    let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
                    if crc != self.crc.clone().finalize() {
                        self.length_also_wrong = size != self.size;
                        return Err(GzipError::Crc);
                    }
                    if size != self.size {
                        return Err(GzipError::Length);
                    }
                    self.start += 8;
                    self.phase = Phase::Header { first: false };
                }
            }
        }
    }
}

/// Output chunk size of an [`Expander`].
pub const OUTPUT_CHUNK: usize = 64 * 1024;

/// Expands a gzip stream read from a descriptor, a chunk at a time.
pub struct Expander {
    input: Fd,
    decoder: Decoder,
    /// Set at the end: whether trailing garbage was seen, or the error.
    done: Option<Result<bool, GzipError>>,
    compressed: u64,
}

impl Expander {
    /// An expander of `input`, whose first bytes `prefix` were read already.
    pub fn new(input: Fd, prefix: &[u8]) -> Expander {
        let mut decoder = Decoder::new();
        decoder.push(prefix);
        Expander { input, decoder, done: None, compressed: prefix.len() as u64 }
    }

    /// The next chunk of expanded data, `Ok(None)` at the end. A read error
    /// counts as the end of the input.
    /// The output before an error comes first; the error, on the next call.
    pub async fn next(&mut self) -> Result<Option<Vec<u8>>, GzipError> {
        match self.done {
            Some(Ok(_)) => return Ok(None),
            Some(Err(error)) => return Err(error),
            None => {}
        }
        let mut out = Vec::new();
        loop {
            match self.decoder.step(&mut out, OUTPUT_CHUNK) {
                Ok(Step::Output) => return Ok(Some(out)),
                Ok(Step::NeedInput) => {
                    if !out.is_empty() {
                        return Ok(Some(out));
                    }
                    let chunk = self.input.read(READ_CHUNK).await.unwrap_or_default();
                    self.compressed += chunk.len() as u64;
                    if chunk.is_empty() {
                        self.decoder.end();
                    } else {
                        self.decoder.push(&chunk);
                    }
                }
                Ok(Step::Done(garbage)) => {
                    self.done = Some(Ok(garbage));
                    return Ok((!out.is_empty()).then_some(out));
                }
                Err(error) => {
                    self.done = Some(Err(error));
                    if out.is_empty() {
                        return Err(error);
                    }
                    return Ok(Some(out));
                }
            }
        }
    }

    /// True when the data ended in bytes that were not gzip (after [`Expander::next`] gave `None`).
    pub fn trailing_garbage(&self) -> bool {
        self.done == Some(Ok(true))
    }

    /// The decoder, for its header and error details.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Compressed bytes read so far.
    pub fn compressed_bytes(&self) -> u64 {
        self.compressed
    }
}

/// Reads from `input` until at least `want` bytes are in hand or it ends.
pub async fn read_prefix(input: &Fd, want: usize) -> Result<Vec<u8>, crate::io::IoError> {
    let mut prefix = Vec::new();
    while prefix.len() < want {
        let chunk = input.read(READ_CHUNK).await?;
        if chunk.is_empty() {
            break;
        }
        prefix.extend_from_slice(&chunk);
    }
    Ok(prefix)
}

#[cfg(test)]
mod tests {
    use super::super::gzip_format::compress;
    use super::*;

    /// Expands `data` pushed in chunks of `size`: the output and whether
    /// garbage followed, or the output before the error and the error.
    fn expand(data: &[u8], size: usize) -> Result<(Vec<u8>, bool), (Vec<u8>, GzipError)> {
        let mut decoder = Decoder::new();
        let mut chunks = data.chunks(size.max(1));
        let (mut all, mut out) = (Vec::new(), Vec::new());
        loop {
            let step = decoder.step(&mut out, 1000);
            all.append(&mut out);
            match step {
                Ok(Step::Output) => {}
                Ok(Step::NeedInput) => match chunks.next() {
                    Some(chunk) => decoder.push(chunk),
                    None => decoder.end(),
                },
                Ok(Step::Done(garbage)) => return Ok((all, garbage)),
                Err(error) => return Err((all, error)),
            }
        }
    }

    #[test]
    fn chunked_compression_equals_whole() {
        let data: Vec<u8> = (0..200_000u32).flat_map(|n| format!("{n}\n").into_bytes()).collect();
        let whole = compress(&data, 6, None, 0);
        let mut chunked = member_header(6, None, 0);
        let mut encoder = Encoder::new(6);
        for piece in data.chunks(7_777) {
            encoder.write(piece, &mut chunked);
        }
        encoder.finish(&mut chunked);
        assert_eq!(chunked, whole);
        for size in [1, 3, 100, 65_536] {
            assert_eq!(expand(&whole, size).unwrap(), (data.clone(), false));
        }
    }

    #[test]
    fn reports_gnu_errors_at_any_chunking() {
        let packed = compress(b"hello\n", 6, None, 0);
        for size in [1, 2, 5, 1000] {
            assert_eq!(expand(b"junk", size).unwrap_err().1, GzipError::NotGzip);
            assert_eq!(expand(b"", size).unwrap_err().1, GzipError::UnexpectedEnd);
            assert_eq!(expand(&packed[..packed.len() - 3], size).unwrap_err().1, GzipError::UnexpectedEnd);
            assert_eq!(expand(&packed[..12], size).unwrap_err().1, GzipError::UnexpectedEnd);
            let mut bad = packed.clone();
            let crc_at = bad.len() - 8;
            bad[crc_at] ^= 1;
            assert_eq!(expand(&bad, size).unwrap_err(), (b"hello\n".to_vec(), GzipError::Crc));
            let mut length = packed.clone();
            let length_at = length.len() - 4;
            length[length_at] ^= 1;
            assert_eq!(expand(&length, size).unwrap_err().1, GzipError::Length);
            let mut two = packed.clone();
            two.extend_from_slice(&packed);
            assert_eq!(expand(&two, size).unwrap(), (b"hello\nhello\n".to_vec(), false));
            let mut garbage = packed.clone();
            garbage.extend_from_slice(b"garbage");
            assert_eq!(expand(&garbage, size).unwrap(), (b"hello\n".to_vec(), true));
            let mut zeros = packed.clone();
            zeros.extend_from_slice(&[0, 0, 0]);
            assert_eq!(expand(&zeros, size).unwrap(), (b"hello\n".to_vec(), false));
            let mut zeros_then_junk = zeros.clone();
            zeros_then_junk.push(7);
            assert!(expand(&zeros_then_junk, size).unwrap().1);
            let mut corrupt = packed.clone();
            corrupt[10] = 0xff;
            assert_eq!(expand(&corrupt, size).unwrap_err().1, GzipError::FormatViolated);
        }
    }

    #[test]
    fn output_stays_within_the_window() {
        let bomb = compress(&vec![0u8; 4 << 20], 9, None, 0);
        let mut decoder = Decoder::new();
        decoder.push(&bomb);
        decoder.end();
        let (mut out, mut total) = (Vec::new(), 0usize);
        loop {
            match decoder.step(&mut out, OUTPUT_CHUNK).unwrap() {
                Step::Done(_) => break,
                _ => {
                    assert!(out.len() <= OUTPUT_CHUNK);
                    total += out.len();
                    out.clear();
                }
            }
        }
        assert_eq!(total + out.len(), 4 << 20);
    }
}
