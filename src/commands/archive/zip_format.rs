//! The zip format (PKWARE APPNOTE) as Info-ZIP's `zip` 3.0 writes it:
//! stored or deflated members, a central directory, Unix modes in the
//! external attributes, and the `UT` (times) and `ux` (owner) extra fields.
//! The reader takes any single-disk archive without encryption or zip64.

use super::gzip_format::{deflate, inflate, GzipError};
use crate::calendar::civil;

const LOCAL_SIGNATURE: u32 = 0x0403_4b50;
const CENTRAL_SIGNATURE: u32 = 0x0201_4b50;
const END_SIGNATURE: u32 = 0x0605_4b50;
/// Info-ZIP 3.0 on Unix: "version made by".
const MADE_BY: u16 = 0x031e;

/// How a member's data is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Method 0: as is.
    Stored,
    /// Method 8: deflate.
    Deflated,
    /// Any other method, by number (cannot be extracted here).
    Other(u16),
}

/// One member of an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipEntry {
    /// The member name (directories end in `/`).
    pub name: String,
    /// The storage method.
    pub method: Method,
    /// The stored (possibly compressed) bytes.
    pub raw: Vec<u8>,
    /// Size of the data once expanded.
    pub size: u64,
    /// CRC-32 of the expanded data.
    pub crc: u32,
    /// Modification time, seconds since the epoch (UTC).
    pub mtime: i64,
    /// Unix mode including the file type bits (`0o100644`), when recorded.
    pub unix_mode: Option<u32>,
}

impl ZipEntry {
    /// Builds a member from its data, deflating at `level` (0 stores) and
    /// storing instead when deflate does not make it smaller, as `zip` does.
    pub fn new(name: String, data: &[u8], level: u32, mtime: i64, unix_mode: u32) -> ZipEntry {
        let crc = crc32fast::hash(data);
        let (method, raw) = if level == 0 || data.is_empty() {
            (Method::Stored, data.to_vec())
        } else {
            let packed = deflate(data, level);
            if packed.len() < data.len() {
                (Method::Deflated, packed)
            } else {
                (Method::Stored, data.to_vec())
            }
        };
        ZipEntry { name, method, raw, size: data.len() as u64, crc, mtime, unix_mode: Some(unix_mode) }
    }

    /// True for directory members.
    pub fn is_dir(&self) -> bool {
        self.name.ends_with('/')
    }

    /// True for symbolic-link members (Unix mode says so).
    pub fn is_symlink(&self) -> bool {
        self.unix_mode.is_some_and(|mode| mode & 0o170000 == 0o120000)
    }

    /// The expanded data (at most `limit` bytes), checked against the CRC.
    pub fn data(&self, limit: usize) -> Result<Vec<u8>, ZipError> {
        let data = match self.method {
            Method::Stored => self.raw.clone(),
            Method::Deflated => inflate(&self.raw, limit).map(|(data, _)| data).map_err(|error| match error {
                GzipError::TooLarge(limit) => ZipError::TooLarge(limit),
                _ => ZipError::Corrupt,
            })?,
            Method::Other(_) => return Err(ZipError::Unsupported),
        };
        if crc32fast::hash(&data) != self.crc {
            return Err(ZipError::BadCrc);
        }
        Ok(data)
    }

    /// The percentage saved, as `zip` and `unzip -v` print it.
    pub fn ratio(&self) -> i64 {
        percent_saved(self.size, self.raw.len() as u64)
    }
}

/// The share of `size` saved by storing `stored` bytes, rounded.
pub fn percent_saved(size: u64, stored: u64) -> i64 {
    if size == 0 {
        return 0;
    }
    ((size as f64 - stored as f64) * 100.0 / size as f64).round() as i64
}

/// Why an archive could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZipError {
    /// No end-of-central-directory record.
    NotZip,
    /// A record is cut short or inconsistent.
    Corrupt,
    /// A method other than stored or deflate.
    Unsupported,
    /// The data does not match its CRC.
    BadCrc,
    /// The expanded data would pass the sandbox's limit (in bytes).
    TooLarge(usize),
}

fn dos_time(mtime: i64, offset: i64) -> (u16, u16) {
    let when = civil::from_timestamp(mtime.max(315_532_800), 0, offset);
    let time = ((when.hour << 11) | (when.minute << 5) | (when.second / 2)) as u16;
    let date = ((((when.year - 1980).clamp(0, 127) as u32) << 9) | (when.month << 5) | when.day) as u16;
    (time, date)
}

fn from_dos_time(time: u16, date: u16, offset: i64) -> i64 {
    let year = 1980 + i64::from(date >> 9);
    let month = u32::from((date >> 5) & 15).clamp(1, 12);
    let day = u32::from(date & 31).max(1);
    let (hour, minute, second) = (u32::from(time >> 11), u32::from((time >> 5) & 63), u32::from(time & 31) * 2);
    civil::to_timestamp(year, month, day, hour, minute, second, offset)
}

fn push16(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn push32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// Writes a whole archive; times go into DOS fields at `offset` from UTC.
pub fn write_archive(entries: &[ZipEntry], offset: i64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for entry in entries {
        let local_at = out.len() as u32;
        let (time, date) = dos_time(entry.mtime, offset);
        let method = match entry.method {
            Method::Stored => 0,
            Method::Deflated => 8,
            Method::Other(n) => n,
        };
        // Info-ZIP asks for 2.0 for deflate and 1.0 for stored files and directories.
        let needed: u16 = if method == 8 { 20 } else { 10 };
        let mtime = entry.mtime.clamp(0, u32::MAX as i64) as u32;
        let mut local_extra = vec![0x55, 0x54, 9, 0, 3];
        local_extra.extend_from_slice(&mtime.to_le_bytes());
        local_extra.extend_from_slice(&mtime.to_le_bytes());
        let owner = [0x75, 0x78, 11, 0, 1, 4, 0xe8, 3, 0, 0, 4, 0xe8, 3, 0, 0];
        local_extra.extend_from_slice(&owner);
        let mut central_extra = vec![0x55, 0x54, 5, 0, 3];
        central_extra.extend_from_slice(&mtime.to_le_bytes());
        central_extra.extend_from_slice(&[0x75, 0x78, 11, 0, 1, 4, 0xe8, 3, 0, 0, 4, 0xe8, 3, 0, 0]);
        let header = |sig: u32, extra_len: usize, buf: &mut Vec<u8>| {
            push32(buf, sig);
            if sig == CENTRAL_SIGNATURE {
                push16(buf, MADE_BY);
            }
            push16(buf, needed);
            push16(buf, 0);
            push16(buf, method);
            push16(buf, time);
            push16(buf, date);
            push32(buf, entry.crc);
            push32(buf, entry.raw.len() as u32);
            push32(buf, entry.size as u32);
            push16(buf, entry.name.len() as u16);
            push16(buf, extra_len as u16);
        };
        header(LOCAL_SIGNATURE, local_extra.len(), &mut out);
        out.extend_from_slice(entry.name.as_bytes());
        out.extend_from_slice(&local_extra);
        out.extend_from_slice(&entry.raw);
        header(CENTRAL_SIGNATURE, central_extra.len(), &mut central);
        push16(&mut central, 0);
        push16(&mut central, 0);
        push16(&mut central, 0);
        let mode = entry.unix_mode.unwrap_or(if entry.is_dir() { 0o40755 } else { 0o100644 });
        push32(&mut central, (mode << 16) | u32::from(entry.is_dir()) << 4);
        push32(&mut central, local_at);
        central.extend_from_slice(entry.name.as_bytes());
        central.extend_from_slice(&central_extra);
    }
    let central_at = out.len() as u32;
    let central_len = central.len() as u32;
    out.extend_from_slice(&central);
    push32(&mut out, END_SIGNATURE);
    push16(&mut out, 0);
    push16(&mut out, 0);
    push16(&mut out, entries.len() as u16);
    push16(&mut out, entries.len() as u16);
    push32(&mut out, central_len);
    push32(&mut out, central_at);
    push16(&mut out, 0);
    out
}

fn u16_at(data: &[u8], at: usize) -> Result<u16, ZipError> {
    let bytes = data.get(at..at + 2).ok_or(ZipError::Corrupt)?;
    Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
}

fn u32_at(data: &[u8], at: usize) -> Result<u32, ZipError> {
    let bytes = data.get(at..at + 4).ok_or(ZipError::Corrupt)?;
    Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// The modification time in an `UT` extra field, when present.
fn extended_time(extra: &[u8]) -> Option<i64> {
    let mut at = 0;
    while at + 4 <= extra.len() {
        let id = u16_at(extra, at).ok()?;
        let len = u16_at(extra, at + 2).ok()? as usize;
        if id == 0x5455 && len >= 5 && extra.get(at + 4).is_some_and(|flags| flags & 1 != 0) {
            return u32_at(extra, at + 5).ok().map(i64::from);
        }
        at += 4 + len;
    }
    None
}

/// Reads every member of an archive; DOS times are read at `offset`.
pub fn read_archive(data: &[u8], offset: i64) -> Result<Vec<ZipEntry>, ZipError> {
    let search_from = data.len().saturating_sub(22 + 65_535);
    let end = (search_from..=data.len().saturating_sub(22))
        .rev()
        .find(|&at| u32_at(data, at).ok() == Some(END_SIGNATURE))
        .ok_or(ZipError::NotZip)?;
    let count = u16_at(data, end + 10)? as usize;
    let mut at = u32_at(data, end + 16)? as usize;
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(data, at)? != CENTRAL_SIGNATURE {
            return Err(ZipError::Corrupt);
        }
        let made_by = u16_at(data, at + 4)?;
        let flags = u16_at(data, at + 8)?;
        let method = match u16_at(data, at + 10)? {
            0 => Method::Stored,
            8 => Method::Deflated,
            other => Method::Other(other),
        };
        let method = if flags & 1 != 0 { Method::Other(99) } else { method };
        let (time, date) = (u16_at(data, at + 12)?, u16_at(data, at + 14)?);
        let crc = u32_at(data, at + 16)?;
        let stored = u32_at(data, at + 20)? as usize;
        let size = u64::from(u32_at(data, at + 24)?);
        let name_len = u16_at(data, at + 28)? as usize;
        let extra_len = u16_at(data, at + 30)? as usize;
        let comment_len = u16_at(data, at + 32)? as usize;
        let external = u32_at(data, at + 38)?;
        let local = u32_at(data, at + 42)? as usize;
        let name_bytes = data.get(at + 46..at + 46 + name_len).ok_or(ZipError::Corrupt)?;
        let extra = data.get(at + 46 + name_len..at + 46 + name_len + extra_len).ok_or(ZipError::Corrupt)?;
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        if u32_at(data, local)? != LOCAL_SIGNATURE {
            return Err(ZipError::Corrupt);
        }
        let data_at = local + 30 + u16_at(data, local + 26)? as usize + u16_at(data, local + 28)? as usize;
        let raw = data.get(data_at..data_at + stored).ok_or(ZipError::Corrupt)?.to_vec();
        let unix_mode = (made_by >> 8 == 3 && external >> 16 != 0).then_some(external >> 16);
        let mtime = extended_time(extra).unwrap_or_else(|| from_dos_time(time, date, offset));
        entries.push(ZipEntry { name, method, raw, size, crc, mtime, unix_mode });
        at += 46 + name_len + extra_len + comment_len;
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let text: Vec<u8> = (0..2000).flat_map(|i: i32| format!("{i}\n").into_bytes()).collect();
        let entries = vec![
            ZipEntry::new("d/".into(), b"", 6, 1_704_067_200, 0o40755),
            ZipEntry::new("d/f.txt".into(), b"hello\n", 6, 1_704_067_200, 0o100644),
            ZipEntry::new("d/nums".into(), &text, 6, 1_704_067_200, 0o100644),
        ];
        assert_eq!(entries[1].method, Method::Stored);
        assert_eq!(entries[2].method, Method::Deflated);
        let archive = write_archive(&entries, 0);
        assert_eq!(&archive[..4], b"PK\x03\x04");
        assert_eq!(&archive[10..14], &[0, 0, 0x21, 0x58]);
        let read = read_archive(&archive, 0).unwrap();
        assert_eq!(read, entries);
        assert_eq!(read[2].data(usize::MAX).unwrap(), text);
        assert_eq!(read_archive(b"junk", 0), Err(ZipError::NotZip));
    }
}
