//! Comparing two directories: their entries merged in byte order, `-x`
//! patterns left out, `Only in DIR: NAME` for an entry on one side (or a
//! comparison with an empty file or directory under `-N`), and each common
//! entry compared in turn, subdirectories depth first.

use super::files::{compare_pair, join, stat, Kind, Operand};
use super::Session;
use crate::fs::FsError;
use crate::host::LocalFuture;

/// How deep directory comparisons may nest.
const MAX_DEPTH: usize = 256;

/// Compares directories `old` and `new` (either may be absent under `-N`).
pub fn compare_directories<'a, 'c, 'i>(
    session: &'a mut Session<'c, 'i>,
    old: &'a Operand,
    new: &'a Operand,
) -> LocalFuture<'a, Result<i32, i32>> {
    Box::pin(async move {
        let depth = old.name.matches('/').count().max(new.name.matches('/').count());
        if depth > MAX_DEPTH {
            session.report(&format!("{}: recursive directory loop", old.name)).await?;
            return Ok(2);
        }
        let mut status = 0;
        let mut lists = [Vec::new(), Vec::new()];
        for (side, operand) in [old, new].into_iter().enumerate() {
            if operand.kind.is_none() {
                continue;
            }
            match list(session, &operand.name).await {
                Ok(names) => lists[side] = names,
                Err(error) => {
                    session.report(&format!("{}: {error}", operand.name)).await?;
                    return Ok(2);
                }
            }
        }
        let [names0, names1] = lists;
        let (mut i, mut j) = (0, 0);
        while i < names0.len() || j < names1.len() {
            if session.ctx.host.interrupted() {
                return Err(130);
            }
            let (left, right) = (names0.get(i), names1.get(j));
            let order = match (left, right) {
                (Some(a), Some(b)) => a.as_bytes().cmp(b.as_bytes()),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            let name = match order {
                std::cmp::Ordering::Less => left,
                _ => right,
            }
            .cloned()
            .unwrap_or_default();
            let present = [order != std::cmp::Ordering::Greater, order != std::cmp::Ordering::Less];
            if present[0] {
                i += 1;
            }
            if present[1] {
                j += 1;
            }
            let result = compare_entry(session, old, new, &name, present).await?;
            status = status.max(result);
            session.flush(false).await?;
        }
        Ok(status)
    })
}

/// Compares entry `name` of the two directories, present on the sides
/// `present` says.
async fn compare_entry(session: &mut Session<'_, '_>, old: &Operand, new: &Operand, name: &str, present: [bool; 2]) -> Result<i32, i32> {
    let names = [join(&old.name, name), join(&new.name, name)];
    if present != [true, true] && !session.settings.new_file {
        let dir = if present[0] { &old.name } else { &new.name };
        session.out.extend_from_slice(format!("Only in {dir}: {name}\n").as_bytes());
        return Ok(1);
    }
    let mut sides = Vec::with_capacity(2);
    let mut trouble = false;
    for side in 0..2 {
        if !present[side] {
            sides.push(Operand { name: names[side].clone(), kind: None });
            continue;
        }
        match stat(session, &names[side]).await {
            Ok(meta) => sides.push(Operand { name: names[side].clone(), kind: Some(Kind::Node(meta)) }),
            Err(error) => {
                session.report(&format!("{}: {error}", names[side])).await?;
                trouble = true;
            }
        }
    }
    if trouble {
        return Ok(2);
    }
    let new_side = sides.pop().unwrap_or(Operand { name: names[1].clone(), kind: None });
    let old_side = sides.pop().unwrap_or(Operand { name: names[0].clone(), kind: None });
    compare_pair(session, old_side, new_side, false).await
}

/// The entries of directory `name`, without those `-x` excludes, sorted.
async fn list(session: &Session<'_, '_>, name: &str) -> Result<Vec<String>, FsError> {
    let entries = session.ctx.fs.read_dir(&session.ctx.resolve(name)).await?;
    let mut names: Vec<String> = entries
        .into_iter()
        .map(|entry| entry.name)
        .filter(|entry| !session.settings.excludes.iter().any(|pattern| pattern.matches(entry, false)))
        .collect();
    names.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    Ok(names)
}
