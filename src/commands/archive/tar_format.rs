//! The tar format as GNU tar writes it (the `gnu` format: `ustar  \0`
//! magic, `././@LongLink` records for names over 100 bytes) and a reader
//! that also understands POSIX ustar (name prefix) and pax headers, so
//! archives move between the sandbox and GNU tar both ways.

/// Size of a tar block.
pub const BLOCK: usize = 512;
/// GNU tar's default record: 20 blocks; archives are padded to a multiple.
pub const RECORD: usize = 20 * BLOCK;

/// What an archive member is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A regular file (type `0`).
    File,
    /// A hard link to an earlier member (type `1`).
    HardLink(String),
    /// A symbolic link (type `2`).
    Symlink(String),
    /// A character device (type `3`).
    CharDevice,
    /// A directory (type `5`).
    Directory,
    /// A FIFO (type `6`).
    Fifo,
    /// Any other type, by its flag byte.
    Other(u8),
}

/// One archive member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The member name (directories end in `/` as GNU writes them).
    pub name: String,
    /// The member's kind.
    pub kind: Kind,
    /// Permission bits.
    pub mode: u32,
    /// Owner id.
    pub uid: u32,
    /// Group id.
    pub gid: u32,
    /// Owner name.
    pub uname: String,
    /// Group name.
    pub gname: String,
    /// Modification time, seconds since the epoch.
    pub mtime: i64,
    /// The size of the data that follows the header (a file's contents).
    pub size: u64,
}

impl Entry {
    /// The type flag byte written for this member.
    fn type_flag(&self) -> u8 {
        match &self.kind {
            Kind::File => b'0',
            Kind::HardLink(_) => b'1',
            Kind::Symlink(_) => b'2',
            Kind::CharDevice => b'3',
            Kind::Directory => b'5',
            Kind::Fifo => b'6',
            Kind::Other(flag) => *flag,
        }
    }

    /// The link target, for links.
    pub fn link_target(&self) -> Option<&str> {
        match &self.kind {
            Kind::HardLink(target) | Kind::Symlink(target) => Some(target),
            _ => None,
        }
    }
}

/// Why an archive could not be read; `Display` is GNU tar's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TarError {
    /// The first header is not a tar header.
    NotTar,
    /// The archive ends inside a member.
    UnexpectedEof,
    /// A later header's checksum is wrong.
    BadHeader,
}

impl std::fmt::Display for TarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TarError::NotTar => "This does not look like a tar archive",
            TarError::UnexpectedEof => "Unexpected EOF in archive",
            TarError::BadHeader => "Skipping to next header",
        })
    }
}

/// Writes an octal field of `width` bytes: zero-padded digits and a NUL, or
/// GNU's base-256 form when the value does not fit.
fn put_number(field: &mut [u8], value: i64) {
    let width = field.len();
    let digits = format!("{:0w$o}", value.max(0), w = width - 1);
    if value >= 0 && digits.len() < width {
        for (slot, byte) in field.iter_mut().zip(digits.bytes()) {
            *slot = byte;
        }
        if let Some(last) = field.last_mut() {
            *last = 0;
        }
        return;
    }
    let bytes = value.to_be_bytes();
    let fill = if value < 0 { 0xff } else { 0 };
    for (index, slot) in field.iter_mut().enumerate() {
        let from_end = width - 1 - index;
        *slot = if from_end < 8 { bytes[7 - from_end] } else { fill };
    }
    if let Some(first) = field.first_mut() {
        *first = if value < 0 { 0xff } else { 0x80 };
    }
}

fn put_text(field: &mut [u8], text: &str) {
    for (slot, byte) in field.iter_mut().zip(text.bytes()) {
        *slot = byte;
    }
}

/// One 512-byte header block with its checksum.
fn header_block(name: &str, entry: &Entry, flag: u8, size: u64, link: &str) -> [u8; BLOCK] {
    let mut block = [0u8; BLOCK];
    put_text(&mut block[0..100], name);
    put_number(&mut block[100..108], i64::from(entry.mode & 0o7777));
    put_number(&mut block[108..116], i64::from(entry.uid));
    put_number(&mut block[116..124], i64::from(entry.gid));
    put_number(&mut block[124..136], size as i64);
    put_number(&mut block[136..148], entry.mtime);
    block[156] = flag;
    put_text(&mut block[157..257], link);
    block[257..265].copy_from_slice(b"ustar  \0");
    put_text(&mut block[265..297], &entry.uname);
    put_text(&mut block[297..329], &entry.gname);
    block[148..156].copy_from_slice(b"        ");
    let sum: u32 = block.iter().map(|&b| u32::from(b)).sum();
    let text = format!("{sum:06o}\0 ");
    block[148..156].copy_from_slice(text.as_bytes().get(..8).unwrap_or(b"000000\0 "));
    block
}

fn pad_to_block(out: &mut Vec<u8>) {
    let rest = out.len() % BLOCK;
    if rest != 0 {
        out.resize(out.len() + BLOCK - rest, 0);
    }
}

/// A `././@LongLink` record carrying a name too long for its field.
fn long_link(out: &mut Vec<u8>, flag: u8, text: &str) {
    let holder = Entry {
        name: String::new(),
        kind: Kind::File,
        mode: 0o644,
        uid: 0,
        gid: 0,
        uname: "root".into(),
        gname: "root".into(),
        mtime: 0,
        size: 0,
    };
    out.extend_from_slice(&header_block("././@LongLink", &holder, flag, text.len() as u64 + 1, ""));
    out.extend_from_slice(text.as_bytes());
    out.push(0);
    pad_to_block(out);
}

/// Appends one member's headers to `out`; its data (for a file,
/// `entry.size` bytes) and then [`padding`] zeros follow.
pub fn write_header(out: &mut Vec<u8>, entry: &Entry) {
    let link = entry.link_target().unwrap_or("");
    if link.len() > 100 {
        long_link(out, b'K', link);
    }
    if entry.name.len() > 100 {
        long_link(out, b'L', &entry.name);
    }
    let name = truncate_field(&entry.name);
    let link = truncate_field(link);
    let size = if entry.kind == Kind::File { entry.size } else { 0 };
    out.extend_from_slice(&header_block(name, entry, entry.type_flag(), size, link));
}

/// Zeros after `size` bytes of data, to the end of their last block.
pub fn padding(size: u64) -> usize {
    let rest = (size % BLOCK as u64) as usize;
    if rest == 0 {
        0
    } else {
        BLOCK - rest
    }
}

fn truncate_field(text: &str) -> &str {
    let mut end = text.len().min(100);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or("")
}

/// The zeros that end an archive of `written` bytes: two zero blocks, then
/// zeros to a whole record.
pub fn ending(written: u64) -> Vec<u8> {
    let total = written + 2 * BLOCK as u64;
    let rest = (total % RECORD as u64) as usize;
    let pad = if rest == 0 { 0 } else { RECORD - rest };
    vec![0u8; 2 * BLOCK + pad]
}

/// Reads an octal (or base-256) number field.
fn get_number(field: &[u8]) -> Option<i64> {
    match field.first() {
        Some(&0x80) | Some(&0xff) => {
            let negative = field.first() == Some(&0xff);
            let mut value: i64 = if negative { -1 } else { 0 };
            for &byte in field.get(1..)? {
                value = value.checked_shl(8)? | i64::from(byte);
            }
            Some(value)
        }
        _ => {
            let text: String = field.iter().map(|&b| b as char).collect();
            let digits = text.trim_matches(|c: char| c == ' ' || c == '\0');
            if digits.is_empty() {
                return Some(0);
            }
            i64::from_str_radix(digits, 8).ok()
        }
    }
}

fn get_text(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(field.get(..end).unwrap_or(&[])).into_owned()
}

fn checksum_ok(block: &[u8]) -> bool {
    let Some(stored) = block.get(148..156).and_then(get_number) else {
        return false;
    };
    let sum: i64 = block.iter().enumerate().map(|(i, &b)| if (148..156).contains(&i) { 32 } else { i64::from(b) }).sum();
    let signed: i64 = block.iter().enumerate().map(|(i, &b)| if (148..156).contains(&i) { 32 } else { i64::from(b as i8) }).sum();
    stored == sum || stored == signed
}

/// Reads the pax `key=value` records of an extended header.
fn pax_records(data: &[u8]) -> Vec<(String, String)> {
    let mut records = Vec::new();
    let mut rest = data;
    while let Some(space) = rest.iter().position(|&b| b == b' ') {
        let Some(length) = std::str::from_utf8(rest.get(..space).unwrap_or(&[])).ok().and_then(|s| s.parse::<usize>().ok()) else {
            break;
        };
        let Some(record) = rest.get(space + 1..length) else {
            break;
        };
        let record = record.strip_suffix(b"\n").unwrap_or(record);
        if let Some(eq) = record.iter().position(|&b| b == b'=') {
            let key = String::from_utf8_lossy(record.get(..eq).unwrap_or(&[])).into_owned();
            let value = String::from_utf8_lossy(record.get(eq + 1..).unwrap_or(&[])).into_owned();
            records.push((key, value));
        }
        rest = rest.get(length..).unwrap_or(&[]);
    }
    records
}

/// Long names and pax records waiting for the member they describe.
#[derive(Debug, Default)]
pub struct Pending {
    long_name: Option<String>,
    long_link: Option<String>,
    pax: Vec<(String, String)>,
}

/// What one header block is.
#[derive(Debug)]
pub enum Header {
    /// A zero block: the end of the archive.
    End,
    /// The checksum is wrong.
    Bad,
    /// A record about the next member (`L`, `K`, `x`, `g`) whose `size`
    /// bytes of data must be passed to [`Pending::take`].
    Meta {
        /// The type flag.
        flag: u8,
        /// The size of its data.
        size: u64,
    },
    /// A member; `entry.size` bytes of data follow it.
    Member(Entry),
}

impl Pending {
    /// Takes the data of a [`Header::Meta`] record.
    pub fn take(&mut self, flag: u8, body: &[u8]) {
        match flag {
            b'L' => self.long_name = Some(get_text(body)),
            b'K' => self.long_link = Some(get_text(body)),
            b'x' => self.pax = pax_records(body),
            _ => {}
        }
    }
}

/// Decodes one 512-byte header block, using (and clearing) what `pending`
/// holds for it.
pub fn decode_header(block: &[u8], pending: &mut Pending) -> Header {
    if block.iter().all(|&b| b == 0) {
        return Header::End;
    }
    if block.len() < BLOCK || !checksum_ok(block) {
        return Header::Bad;
    }
    let flag = block[156];
    let size = get_number(&block[124..136]).unwrap_or(0).max(0) as u64;
    if matches!(flag, b'L' | b'K' | b'x' | b'g') {
        return Header::Meta { flag, size };
    }
    let mut name = get_text(&block[0..100]);
    if &block[257..263] == b"ustar\0" {
        let prefix = get_text(&block[345..500]);
        if !prefix.is_empty() {
            name = format!("{prefix}/{name}");
        }
    }
    let mut link = get_text(&block[157..257]);
    let mut mtime = get_number(&block[136..148]).unwrap_or(0);
    if let Some(long) = pending.long_name.take() {
        name = long;
    }
    if let Some(long) = pending.long_link.take() {
        link = long;
    }
    for (key, value) in std::mem::take(&mut pending.pax) {
        match key.as_str() {
            "path" => name = value,
            "linkpath" => link = value,
            "mtime" => mtime = value.split('.').next().and_then(|s| s.parse().ok()).unwrap_or(mtime),
            _ => {}
        }
    }
    let kind = match flag {
        b'0' | 0 | b'7' if name.ends_with('/') && flag == 0 => Kind::Directory,
        b'0' | 0 | b'7' => Kind::File,
        b'1' => Kind::HardLink(link),
        b'2' => Kind::Symlink(link),
        b'3' => Kind::CharDevice,
        b'5' => Kind::Directory,
        b'6' => Kind::Fifo,
        other => Kind::Other(other),
    };
    Header::Member(Entry {
        name,
        kind,
        mode: get_number(&block[100..108]).unwrap_or(0) as u32 & 0o7777,
        uid: get_number(&block[108..116]).unwrap_or(0) as u32,
        gid: get_number(&block[116..124]).unwrap_or(0) as u32,
        uname: get_text(&block[265..297]),
        gname: get_text(&block[297..329]),
        mtime,
        size,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tar_reader::{read_all, ReadError};
    use super::*;

    fn file(name: &str, size: u64) -> Entry {
        Entry {
            name: name.into(),
            kind: Kind::File,
            mode: 0o644,
            uid: 0,
            gid: 0,
            uname: "root".into(),
            gname: "root".into(),
            mtime: 1_704_067_200,
            size,
        }
    }

    /// A member with its data and padding.
    fn member(out: &mut Vec<u8>, entry: &Entry, data: &[u8]) {
        write_header(out, entry);
        out.extend_from_slice(data);
        out.resize(out.len() + padding(data.len() as u64), 0);
    }

    #[test]
    fn header_matches_gnu_bytes() {
        let mut out = Vec::new();
        member(&mut out, &file("d/f.txt", 6), b"hello\n");
        assert_eq!(&out[100..108], b"0000644\0");
        assert_eq!(&out[124..136], b"00000000006\0");
        assert_eq!(&out[136..148], b"14544400200\0");
        assert_eq!(&out[148..156], b"010752\0 ");
        assert_eq!(&out[257..265], b"ustar  \0");
        assert_eq!(out.len(), 1024);
        let end = ending(out.len() as u64);
        assert_eq!(out.len() + end.len(), RECORD);
        assert_eq!(ending(RECORD as u64 - 2 * BLOCK as u64).len(), 2 * BLOCK);
    }

    #[test]
    fn round_trips_long_names_and_links() {
        let long = format!("{}/file", "x".repeat(120));
        let mut out = Vec::new();
        member(&mut out, &file(&long, 4), b"data");
        let mut link = file("l", 0);
        link.kind = Kind::Symlink("y".repeat(150));
        member(&mut out, &link, b"");
        out.extend(ending(out.len() as u64));
        let members = read_all(&out).unwrap();
        assert_eq!(members[0].0.name, long);
        assert_eq!(members[0].1, b"data");
        assert_eq!(members[1].0.kind, Kind::Symlink("y".repeat(150)));
    }

    #[test]
    fn rejects_non_tar_and_truncation() {
        assert_eq!(read_all(&[7u8; 600]).unwrap_err(), ReadError::Tar(TarError::NotTar));
        let mut out = Vec::new();
        member(&mut out, &file("big", 2000), &[1u8; 2000]);
        assert_eq!(read_all(&out[..1024]).unwrap_err(), ReadError::Tar(TarError::UnexpectedEof));
        let mut base = [0u8; 2];
        put_number(&mut base, 0);
        assert_eq!(&base, b"0\0");
        let mut big = [0u8; 12];
        put_number(&mut big, 1 << 40);
        assert_eq!(get_number(&big), Some(1 << 40));
    }
}
