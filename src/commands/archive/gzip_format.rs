//! The gzip file format (RFC 1952) over flate2's pure-Rust deflate: the
//! member header, GNU gzip's error messages (`not in gzip format`,
//! `unexpected end of file`, CRC and length errors), and whole-buffer raw
//! deflate for zip. Streaming gzip itself is in [`super::gzip_stream`].

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

const MAGIC: [u8; 2] = [0x1f, 0x8b];
const FLAG_HCRC: u8 = 0x02;
const FLAG_EXTRA: u8 = 0x04;
const FLAG_NAME: u8 = 0x08;
const FLAG_COMMENT: u8 = 0x10;

/// Why gzip data could not be read; `Display` is gzip's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GzipError {
    /// The data does not start with the gzip magic and method.
    NotGzip,
    /// The data ends inside a member.
    UnexpectedEnd,
    /// The deflate stream is corrupt.
    FormatViolated,
    /// The CRC-32 in the trailer does not match the data.
    Crc,
    /// The length in the trailer does not match the data.
    Length,
    /// The expanded data would pass the sandbox's limit (in bytes): a
    /// decompression bomb is stopped before it fills memory.
    TooLarge(usize),
}

impl std::fmt::Display for GzipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let GzipError::TooLarge(limit) = self {
            return write!(f, "decompressed data exceeds the sandbox limit ({limit} bytes)");
        }
        f.write_str(match self {
            GzipError::NotGzip => "not in gzip format",
            GzipError::UnexpectedEnd => "unexpected end of file",
            GzipError::FormatViolated => "invalid compressed data--format violated",
            GzipError::Crc => "invalid compressed data--crc error",
            GzipError::Length | GzipError::TooLarge(_) => "invalid compressed data--length error",
        })
    }
}

/// The header fields of a gzip member that `gzip -l` and `-N` use.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// The original file name, when stored.
    pub name: Option<String>,
    /// Modification time in seconds since the epoch (0 when not stored).
    pub mtime: u32,
    /// Length of the header in bytes.
    pub len: usize,
}

/// Compresses `data` into one gzip member at `level` (1-9) with an optional
/// stored name and modification time, as `gzip` writes it (OS = Unix).
#[cfg(test)]
pub fn compress(data: &[u8], level: u32, name: Option<&str>, mtime: u32) -> Vec<u8> {
    let mut out = super::gzip_stream::member_header(level, name, mtime);
    let mut encoder = super::gzip_stream::Encoder::new(level);
    encoder.write(data, &mut out);
    encoder.finish(&mut out);
    out
}

/// Raw deflate of `data` at `level`.
pub fn deflate(data: &[u8], level: u32) -> Vec<u8> {
    let mut compressor = Compress::new(Compression::new(level.clamp(1, 9)), false);
    let mut out = Vec::with_capacity(data.len() / 2 + 64);
    loop {
        if out.capacity() - out.len() < 1024 {
            out.reserve(out.capacity().max(4096));
        }
        let consumed = compressor.total_in() as usize;
        let input = data.get(consumed..).unwrap_or(&[]);
        match compressor.compress_vec(input, &mut out, FlushCompress::Finish) {
            Ok(Status::StreamEnd) => return out,
            Ok(_) => {}
            Err(_) => return out,
        }
    }
}

/// The most bytes one decompression may produce by default (the in-memory
/// filesystem's default byte quota: nothing larger could be stored).
pub const MAX_DECOMPRESSED_BYTES: usize = 512 << 20;

/// The decompressed-size limit for a sandbox: its filesystem's byte quota
/// when it has one, never more than [`MAX_DECOMPRESSED_BYTES`].
pub fn decompressed_limit(fs: &dyn crate::fs::Fs) -> usize {
    fs.space().map_or(MAX_DECOMPRESSED_BYTES, |space| usize::try_from(space.total_bytes).unwrap_or(usize::MAX).min(MAX_DECOMPRESSED_BYTES))
}

/// Inflates raw deflate data from the start of `data`, producing at most
/// `limit` bytes; returns the bytes and how many input bytes the stream used.
pub fn inflate(data: &[u8], limit: usize) -> Result<(Vec<u8>, usize), GzipError> {
    let mut decompressor = Decompress::new(false);
    // Never more room than the limit plus one byte: a stream that fills it is too large.
    let ceiling = limit.saturating_add(1);
    let mut out = Vec::with_capacity(data.len().saturating_mul(3).min(1 << 24).min(ceiling));
    loop {
        if out.capacity() - out.len() < 4096 {
            let room = ceiling.saturating_sub(out.len()).min(out.capacity().max(8192));
            out.reserve_exact(room);
        }
        let consumed = decompressor.total_in() as usize;
        let input = data.get(consumed..).unwrap_or(&[]);
        let before = (decompressor.total_in(), decompressor.total_out());
        let status = decompressor.decompress_vec(input, &mut out, FlushDecompress::None);
        if out.len() > limit {
            return Err(GzipError::TooLarge(limit));
        }
        match status {
            Ok(Status::StreamEnd) => return Ok((out, decompressor.total_in() as usize)),
            Ok(_) => {
                if (decompressor.total_in(), decompressor.total_out()) == before && out.capacity() > out.len() {
                    return Err(GzipError::UnexpectedEnd);
                }
            }
            Err(_) => return Err(GzipError::FormatViolated),
        }
    }
}

/// Parses a member header at the start of `data`.
pub fn parse_header(data: &[u8]) -> Result<Header, GzipError> {
    if MAGIC.starts_with(data) {
        return Err(GzipError::UnexpectedEnd);
    }
    if data.len() < 2 || data.get(..2) != Some(&MAGIC[..]) || data.get(2).is_some_and(|&m| m != 8) {
        return Err(GzipError::NotGzip);
    }
    let fixed = data.get(..10).ok_or(GzipError::UnexpectedEnd)?;
    let flags = fixed.get(3).copied().unwrap_or(0);
    let mtime = u32::from_le_bytes([fixed[4], fixed[5], fixed[6], fixed[7]]);
    let mut position = 10;
    if flags & FLAG_EXTRA != 0 {
        let length = data.get(position..position + 2).ok_or(GzipError::UnexpectedEnd)?;
        position += 2 + u16::from_le_bytes([length[0], length[1]]) as usize;
    }
    let mut name = None;
    if flags & FLAG_NAME != 0 {
        let rest = data.get(position..).ok_or(GzipError::UnexpectedEnd)?;
        let end = rest.iter().position(|&b| b == 0).ok_or(GzipError::UnexpectedEnd)?;
        name = Some(String::from_utf8_lossy(&rest[..end]).into_owned());
        position += end + 1;
    }
    if flags & FLAG_COMMENT != 0 {
        let rest = data.get(position..).ok_or(GzipError::UnexpectedEnd)?;
        position += rest.iter().position(|&b| b == 0).ok_or(GzipError::UnexpectedEnd)? + 1;
    }
    if flags & FLAG_HCRC != 0 {
        position += 2;
    }
    if position > data.len() {
        return Err(GzipError::UnexpectedEnd);
    }
    Ok(Header { name, mtime, len: position })
}

/// True when `data` starts like a gzip member.
pub fn is_gzip(data: &[u8]) -> bool {
    data.get(..2) == Some(&MAGIC[..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_gnu_layout() {
        let packed = compress(b"hello\n", 6, Some("g.txt"), 0);
        assert_eq!(&packed[..4], &[0x1f, 0x8b, 8, 8]);
        assert_eq!(packed.len(), 32);
        let header = parse_header(&packed).unwrap();
        assert_eq!(header.name.as_deref(), Some("g.txt"));
        assert_eq!(header.len, 16);
        let nameless = compress(b"hello\n", 9, None, 0);
        assert_eq!(&nameless[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
        assert_eq!(parse_header(b"junk"), Err(GzipError::NotGzip));
        assert_eq!(parse_header(&packed[..12]), Err(GzipError::UnexpectedEnd));
    }

    #[test]
    fn raw_inflate_stops_a_bomb_at_the_limit() {
        let zeros = vec![0u8; 1 << 20];
        let raw = deflate(&zeros, 9);
        assert!(raw.len() < 2048);
        assert_eq!(inflate(&raw, 100_000).unwrap_err(), GzipError::TooLarge(100_000));
        assert_eq!(inflate(&raw, 1 << 20).unwrap().0.len(), 1 << 20);
    }
}
