//! Comparing one pair of inputs: finding what each operand is (standard
//! input, a file, a directory, a symbolic link, or absent under `-N`),
//! the messages GNU diff prints for pairs it does not compare line by line,
//! binary files, and the line-by-line comparison with its headers.

use super::compare::{compare, CompareOptions};
use super::directory::compare_directories;
use super::formats::{context_hunk, normal_hunk, unified_hunk};
use super::hunks::{group, mark_ignorable};
use super::settings::{name_quote, Style};
use super::side::{side_by_side, Layout};
use super::text::Text;
use super::Session;
use crate::calendar::format::strftime;
use crate::calendar::zone::parse_tz;
use crate::fs::{FileType, FsError, Metadata};

/// How many leading bytes are checked for a NUL to call a file binary.
const BINARY_PROBE: usize = 4096;

/// One side of a comparison.
pub struct Operand {
    /// The name messages show (`d1/sub/f`).
    pub name: String,
    /// What it is; `None` when it does not exist (under `-N`).
    pub kind: Option<Kind>,
}

/// What an operand is.
#[derive(Clone)]
pub enum Kind {
    /// Standard input (`-`).
    Stdin,
    /// A node of the filesystem and its metadata.
    Node(Metadata),
}

impl Operand {
    fn is_dir(&self) -> bool {
        matches!(&self.kind, Some(Kind::Node(meta)) if meta.is_dir())
    }
}

/// The path `name` stands for (absolute).
fn path_of(session: &Session<'_, '_>, name: &str) -> String {
    session.ctx.resolve(name)
}

/// Looks `name` up (without following a final symbolic link under
/// `--no-dereference`).
pub async fn stat(session: &Session<'_, '_>, name: &str) -> Result<Metadata, FsError> {
    let path = path_of(session, name);
    if session.settings.no_dereference {
        session.ctx.fs.symlink_metadata(&path).await
    } else {
        session.ctx.fs.metadata(&path).await
    }
}

/// `dir/name`, as GNU joins them (one slash, whatever `dir` ends with).
pub fn join(dir: &str, name: &str) -> String {
    let trimmed = dir.trim_end_matches('/');
    if trimmed.is_empty() && dir.starts_with('/') {
        return format!("/{name}");
    }
    format!("{trimmed}/{name}")
}

/// The last component of `name`.
fn base_name(name: &str) -> &str {
    let trimmed = name.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// Compares the two operands of the command line; `Err` when writing failed.
pub async fn compare_operands(session: &mut Session<'_, '_>) -> Result<i32, i32> {
    let mut names = [session.settings.operands[0].clone(), session.settings.operands[1].clone()];
    let mut sides: [Option<Operand>; 2] = [None, None];
    let mut status = 0;
    for side in 0..2 {
        match top_operand(session, &names[side]).await {
            Ok(operand) => sides[side] = Some(operand),
            Err(error) => {
                session.report(&format!("{}: {error}", names[side])).await?;
                status = 2;
            }
        }
    }
    let [Some(mut old), Some(mut new)] = sides else {
        return Ok(status);
    };
    if old.kind.is_none() && new.kind.is_none() {
        for name in &names {
            session.report(&format!("{name}: {}", FsError::NotFound)).await?;
        }
        return Ok(2);
    }
    // A directory against a file compares the file of the same name in it.
    let stdin_against_dir =
        (matches!(old.kind, Some(Kind::Stdin)) && new.is_dir()) || (matches!(new.kind, Some(Kind::Stdin)) && old.is_dir());
    if stdin_against_dir {
        session.report("cannot compare '-' to a directory").await?;
        return Ok(2);
    }
    if old.is_dir() != new.is_dir() && old.kind.is_some() && new.kind.is_some() {
        let side = usize::from(new.is_dir());
        let other = 1 - side;
        names[side] = join(&names[side], base_name(&names[other]));
        match top_operand(session, &names[side]).await {
            Ok(operand) if operand.kind.is_some() => {
                if side == 0 {
                    old = operand;
                } else {
                    new = operand;
                }
            }
            Ok(_) | Err(_) => {
                session.report(&format!("{}: {}", names[side], FsError::NotFound)).await?;
                return Ok(2);
            }
        }
    }
    compare_pair(session, old, new, true).await
}

/// Looks up an operand of the command line: `-` is standard input, and a
/// missing file is absent under `-N`.
async fn top_operand(session: &Session<'_, '_>, name: &str) -> Result<Operand, FsError> {
    if name == "-" {
        return Ok(Operand { name: name.to_string(), kind: Some(Kind::Stdin) });
    }
    match stat(session, name).await {
        Ok(meta) => Ok(Operand { name: name.to_string(), kind: Some(Kind::Node(meta)) }),
        Err(FsError::NotFound) if session.settings.new_file => Ok(Operand { name: name.to_string(), kind: None }),
        Err(error) => Err(error),
    }
}

/// GNU's name for a kind of file, as in `File a is a directory while ...`.
fn type_name(meta: &Metadata) -> &'static str {
    match meta.file_type {
        FileType::File if meta.size == 0 => "regular empty file",
        FileType::File => "regular file",
        FileType::Directory => "directory",
        FileType::Symlink => "symbolic link",
        FileType::CharDevice => "character special file",
        FileType::Fifo => "fifo",
    }
}

/// Compares a pair of operands of any kind; `top` for the command line's.
pub async fn compare_pair(session: &mut Session<'_, '_>, old: Operand, new: Operand, top: bool) -> Result<i32, i32> {
    let labels = session.settings.labels.clone();
    let shown = [labels[0].clone().unwrap_or_else(|| old.name.clone()), labels[1].clone().unwrap_or_else(|| new.name.clone())];
    let dirs = [old.is_dir() || (old.kind.is_none() && new.is_dir()), new.is_dir() || (new.kind.is_none() && old.is_dir())];
    if dirs[0] && dirs[1] {
        if top || session.settings.recursive {
            return compare_directories(session, &old, &new).await;
        }
        session.out.extend_from_slice(format!("Common subdirectories: {} and {}\n", shown[0], shown[1]).as_bytes());
        return Ok(0);
    }
    if let (Some(Kind::Node(meta0)), Some(Kind::Node(meta1))) = (&old.kind, &new.kind) {
        if meta0.is_dir() != meta1.is_dir() || meta0.is_symlink() != meta1.is_symlink() {
            session.out.extend_from_slice(
                format!("File {} is a {} while file {} is a {}\n", shown[0], type_name(meta0), shown[1], type_name(meta1)).as_bytes(),
            );
            return Ok(1);
        }
        if meta0.is_symlink() {
            let target0 = session.ctx.fs.read_link(&path_of(session, &old.name)).await.unwrap_or_default();
            let target1 = session.ctx.fs.read_link(&path_of(session, &new.name)).await.unwrap_or_default();
            if target0 == target1 {
                return Ok(0);
            }
            session.out.extend_from_slice(format!("Symbolic links {} and {} differ\n", shown[0], shown[1]).as_bytes());
            return Ok(1);
        }
        if meta0.dev == meta1.dev && meta0.ino == meta1.ino && !shows_common_lines(session) {
            return identical(session, &shown).await;
        }
    }
    let both_stdin = matches!(old.kind, Some(Kind::Stdin)) && matches!(new.kind, Some(Kind::Stdin));
    let old_bytes = match read(session, &old).await {
        Ok(bytes) => bytes,
        Err(error) => {
            session.report(&format!("{}: {error}", old.name)).await?;
            return Ok(2);
        }
    };
    let new_bytes = if both_stdin {
        old_bytes.clone()
    } else {
        match read(session, &new).await {
            Ok(bytes) => bytes,
            Err(error) => {
                session.report(&format!("{}: {error}", new.name)).await?;
                return Ok(2);
            }
        }
    };
    let binary = !session.settings.text && (is_binary(&old_bytes) || is_binary(&new_bytes));
    if binary {
        if old_bytes == new_bytes {
            return identical(session, &shown).await;
        }
        let message = if session.settings.brief { "Files" } else { "Binary files" };
        session.out.extend_from_slice(format!("{message} {} and {} differ\n", shown[0], shown[1]).as_bytes());
        return Ok(1);
    }
    let loosened = session.settings.equality.ignore_case
        || session.settings.equality.white_space != super::equivalence::WhiteSpace::Exact
        || session.settings.ignore_blank_lines
        || session.settings.strip_trailing_cr;
    if (old_bytes == new_bytes && !shows_common_lines(session)) || (session.settings.brief && !loosened) {
        if old_bytes == new_bytes {
            return identical(session, &shown).await;
        }
        session.out.extend_from_slice(format!("Files {} and {} differ\n", shown[0], shown[1]).as_bytes());
        return Ok(1);
    }
    let texts = [Text::new(old_bytes, session.settings.strip_trailing_cr), Text::new(new_bytes, session.settings.strip_trailing_cr)];
    let options =
        CompareOptions { equality: session.settings.equality, horizon: session.settings.horizon, minimal: session.settings.minimal };
    let mut changes = compare(&texts[0], &texts[1], options);
    if session.settings.ignore_blank_lines {
        mark_ignorable(&mut changes, [&texts[0], &texts[1]], session.settings.equality.white_space);
    }
    let differ = changes.iter().any(|change| !change.ignorable);
    if !differ && !shows_common_lines(session) {
        return identical(session, &shown).await;
    }
    if session.settings.brief {
        session.out.extend_from_slice(format!("Files {} and {} differ\n", shown[0], shown[1]).as_bytes());
        return Ok(1);
    }
    if !top {
        let names = [name_quote(&shown[0]), name_quote(&shown[1])];
        session.out.extend_from_slice(format!("diff{} {} {}\n", session.settings.switches, names[0], names[1]).as_bytes());
    }
    let pair = [&texts[0], &texts[1]];
    let context = session.settings.context;
    match session.settings.style {
        Style::Normal => {
            for hunk in group(&changes, None) {
                normal_hunk(&mut session.out, pair, hunk);
                session.flush(false).await?;
            }
        }
        Style::Unified | Style::Context => {
            let unified = session.settings.style == Style::Unified;
            let marks: [&str; 2] = if unified { ["---", "+++"] } else { ["***", "---"] };
            for side in 0..2 {
                let operand = if side == 0 { &old } else { &new };
                let header = header_line(session, marks[side], operand, labels[side].as_deref());
                session.out.extend_from_slice(header.as_bytes());
            }
            for hunk in group(&changes, Some(context)) {
                if unified {
                    unified_hunk(&mut session.out, pair, hunk, context);
                } else {
                    context_hunk(&mut session.out, pair, hunk, context);
                }
                session.flush(false).await?;
            }
        }
        Style::SideBySide => {
            let layout = Layout::new(session.settings.width, session.settings.left_column, session.settings.suppress_common);
            side_by_side(&mut session.out, pair, &changes, layout);
        }
    }
    session.flush(false).await?;
    if differ {
        Ok(1)
    } else {
        identical(session, &shown).await
    }
}

/// True when even identical inputs produce output (`-y` shows every line).
fn shows_common_lines(session: &Session<'_, '_>) -> bool {
    session.settings.style == Style::SideBySide && !session.settings.brief
}

/// The result of two inputs found the same (`-s` says so).
async fn identical(session: &mut Session<'_, '_>, shown: &[String; 2]) -> Result<i32, i32> {
    if session.settings.report_identical {
        session.out.extend_from_slice(format!("Files {} and {} are identical\n", shown[0], shown[1]).as_bytes());
    }
    Ok(0)
}

/// True when the first bytes hold a NUL.
fn is_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(BINARY_PROBE).any(|&b| b == 0)
}

/// The contents of an operand (empty when absent).
async fn read(session: &Session<'_, '_>, operand: &Operand) -> Result<Vec<u8>, FsError> {
    match &operand.kind {
        None => Ok(Vec::new()),
        Some(Kind::Stdin) => session.ctx.stdin.read_to_end().await.map_err(|_| FsError::Io),
        Some(Kind::Node(_)) => {
            let input = crate::commands::common::Input::File(operand.name.clone());
            let stream = crate::commands::common::open_input(session.ctx, &input).await?;
            stream.read_to_end().await.map_err(|_| FsError::Io)
        }
    }
}

/// The `--- name<TAB>time` line (or `--- label`) of a unified or context diff.
fn header_line(session: &Session<'_, '_>, mark: &str, operand: &Operand, label: Option<&str>) -> String {
    if let Some(label) = label {
        return format!("{mark} {label}\n");
    }
    let millis = match &operand.kind {
        None => 0.0,
        Some(Kind::Stdin) => session.ctx.host.now_millis(),
        Some(Kind::Node(meta)) => meta.mtime,
    };
    let zone = parse_tz(session.ctx.env_var("TZ"));
    format!("{mark} {}\t{}\n", operand.name, strftime(millis, "%Y-%m-%d %H:%M:%S.%N %z", &zone))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_join_as_gnu() {
        assert_eq!(join("d1/", "f"), "d1/f");
        assert_eq!(join("d1//", "f"), "d1/f");
        assert_eq!(join("/", "f"), "/f");
        assert_eq!(base_name("a/b/"), "b");
    }
}
