//! `tr`: translate, delete (`-d`) or squeeze (`-s`) bytes of standard
//! input, streaming. Sets may be complemented (`-c`, `-C`) and string1
//! truncated to string2's length (`-t`).

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::text::output::{status_of, Output};
use crate::commands::text::tr_sets::{expand, parse_set, Class, Element, SetError};
use crate::host::LocalFuture;
use crate::io::READ_CHUNK;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "cCdst",
    &[Long::flag("complement", "c"), Long::flag("delete", "d"), Long::flag("squeeze-repeats", "s"), Long::flag("truncate-set1", "t")],
)
.stopping();

/// What `tr` does to each byte.
struct Plan {
    /// The replacement of each byte (identity when not translating).
    map: [u8; 256],
    /// Bytes to delete.
    delete: [bool; 256],
    /// Bytes whose runs collapse to one.
    squeeze: [bool; 256],
}

/// A membership table for `bytes`, complemented when asked.
fn table(bytes: &[u8], complement: bool) -> [bool; 256] {
    let mut table = [complement; 256];
    for &b in bytes {
        table[usize::from(b)] = !complement;
    }
    table
}

/// The bytes of a complemented set, ascending.
fn complement_of(bytes: &[u8]) -> Vec<u8> {
    let members = table(bytes, false);
    (0..=255u8).filter(|b| !members[usize::from(*b)]).collect()
}

/// A byte as GNU shows it in messages: itself when printable, else `\ooo`.
fn printable(byte: u8) -> String {
    if (0x20..0x7f).contains(&byte) {
        char::from(byte).to_string()
    } else {
        format!("\\{byte:03o}")
    }
}

fn set_message(ctx: &Invocation<'_>, error: &SetError) -> String {
    match error {
        SetError::ReverseRange(low, high) => {
            format!("range-endpoints of '{}-{}' are in reverse collating sequence order", printable(*low), printable(*high))
        }
        SetError::BadClass(name) => format!("invalid character class {}", quote_locale(ctx, name)),
        SetError::BadRepeatCount(count) => format!("invalid repeat count {} in [c*n] construct", quote_locale(ctx, count)),
        SetError::BadEquivalence(name) => format!("{}: equivalence class operand must be a single character", name),
    }
}

/// Builds the plan from the operands; `Err(message)` for a refused set.
fn plan(flags: Flags, set1: &[Element], set2: Option<&[Element]>) -> Result<Plan, String> {
    let mut plan = Plan { map: std::array::from_fn(|i| i as u8), delete: [false; 256], squeeze: [false; 256] };
    if set1.iter().any(|e| matches!(e, Element::Repeat(_, None))) {
        return Err("the [c*] repeat construct may not appear in string1".into());
    }
    let mut bytes1 = expand(set1, 0);
    if flags.complement {
        bytes1 = complement_of(&bytes1);
    }
    let translating = !flags.delete && set2.is_some();
    if let Some(set2) = set2 {
        let indefinite = set2.iter().filter(|e| matches!(e, Element::Repeat(_, None))).count();
        if indefinite > 1 {
            return Err("only one [c*] repeat construct may appear in string2".into());
        }
        if indefinite > 0 && !translating {
            return Err("the [c*] construct may appear in string2 only when translating".into());
        }
    }
    if flags.delete {
        plan.delete = table(&bytes1, false);
        if let Some(set2) = set2 {
            plan.squeeze = table(&expand(set2, 0), false);
        }
        return Ok(plan);
    }
    let Some(set2) = set2.filter(|_| translating) else {
        plan.squeeze = table(&bytes1, false);
        return Ok(plan);
    };
    if set2.iter().any(|e| matches!(e, Element::Equivalence(_))) {
        return Err("[=c=] expressions may not appear in string2 when translating".into());
    }
    if set2.iter().any(|e| matches!(e, Element::Class(c) if !matches!(c, Class::Upper | Class::Lower))) {
        return Err("when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'".into());
    }
    if !flags.complement {
        check_case_classes(set1, set2)?;
    }
    let fixed = expand(set2, 0).len();
    let mut bytes2 = expand(set2, bytes1.len().saturating_sub(fixed));
    if flags.truncate {
        bytes1.truncate(bytes2.len());
    } else if bytes2.len() < bytes1.len() {
        if matches!(set2.last(), Some(Element::Class(_))) {
            return Err("when translating with string1 longer than string2,\nthe latter string must not end with a character class".into());
        }
        let Some(&last) = bytes2.last() else {
            return Err("when not truncating set1, string2 must be non-empty".into());
        };
        bytes2.resize(bytes1.len(), last);
    }
    let set1_has_class = set1.iter().any(|e| matches!(e, Element::Class(_)));
    let homogeneous = bytes2.windows(2).all(|pair| pair[0] == pair[1]);
    if flags.complement && set1_has_class && !(bytes2.len() == bytes1.len() && homogeneous) {
        return Err("when translating with complemented character classes,\nstring2 must map all characters in the domain to one".into());
    }
    for (from, to) in bytes1.iter().zip(bytes2.iter()) {
        plan.map[usize::from(*from)] = *to;
    }
    if flags.squeeze {
        plan.squeeze = table(&bytes2, false);
    }
    Ok(plan)
}

/// `[:upper:]`/`[:lower:]` in string2 must face the opposite class (or the
/// same one) at the same position of string1.
fn check_case_classes(set1: &[Element], set2: &[Element]) -> Result<(), String> {
    let mut position1 = 0;
    let mut starts1 = Vec::new();
    for element in set1 {
        starts1.push((position1, element));
        position1 += expand(std::slice::from_ref(element), 0).len();
    }
    let mut position2 = 0;
    for element in set2 {
        // Once string1 is used up, string2's classes face nothing.
        if position2 > position1 {
            break;
        }
        if let Element::Class(Class::Upper | Class::Lower) = element {
            let aligned = starts1.iter().any(|(start, e)| *start == position2 && matches!(e, Element::Class(Class::Upper | Class::Lower)));
            if !aligned {
                return Err("misaligned [:upper:] and/or [:lower:] construct".into());
            }
        }
        position2 += expand(std::slice::from_ref(element), 0).len();
    }
    Ok(())
}

#[derive(Clone, Copy)]
struct Flags {
    complement: bool,
    delete: bool,
    squeeze: bool,
    truncate: bool,
}

/// Checks the operand count for the mode, reporting as GNU does.
async fn check_operands(ctx: &Invocation<'_>, flags: Flags, operands: &[String]) -> Result<(), i32> {
    let q = |text: &str| quote_locale(ctx, text);
    let needs_two = (flags.delete && flags.squeeze) || (!flags.delete && !flags.squeeze);
    let max = if flags.delete && !flags.squeeze { 1 } else { 2 };
    let message = match operands {
        [] => "missing operand".to_string(),
        [only] if needs_two => {
            let why = if flags.delete { "both deleting and squeezing repeats" } else { "translating" };
            format!("missing operand after {}\nTwo strings must be given when {why}.", q(only))
        }
        _ if operands.len() > max => {
            let extra = operands.get(max).map(String::as_str).unwrap_or("");
            if flags.delete && !flags.squeeze {
                format!("extra operand {}\nOnly one string may be given when deleting without squeezing repeats.", q(extra))
            } else {
                format!("extra operand {}", q(extra))
            }
        }
        _ => return Ok(()),
    };
    report_usage(ctx, &message).await;
    Err(1)
}

/// Streams standard input through the plan.
async fn transform(ctx: &Invocation<'_>, plan: &Plan) -> Result<i32, i32> {
    let mut out = Output::new(ctx);
    let mut last: Option<u8> = None;
    let mut buffer = Vec::with_capacity(READ_CHUNK);
    let plain_translation = !plan.delete.contains(&true) && !plan.squeeze.contains(&true);
    loop {
        let chunk = match ctx.stdin.read(READ_CHUNK).await {
            Ok(chunk) => chunk,
            Err(error) => {
                ctx.report(&format!("read error: {error}")).await;
                return Ok(1);
            }
        };
        if chunk.is_empty() {
            break;
        }
        if plain_translation {
            // Nothing deleted or squeezed: map the chunk in place, no copy.
            let mut chunk = chunk;
            for byte in chunk.iter_mut() {
                *byte = plan.map[usize::from(*byte)];
            }
            out.flush().await?;
            match ctx.write_out(&chunk).await { Ok(value) => Ok(value), Err(error) => Err(ctx.write_failed(error).await) }?;
            continue;
        }
        buffer.clear();
        for byte in chunk {
            if plan.delete[usize::from(byte)] {
                continue;
            }
            let mapped = plan.map[usize::from(byte)];
            if plan.squeeze[usize::from(mapped)] && last == Some(mapped) {
                continue;
            }
            last = Some(mapped);
            buffer.push(mapped);
        }
        out.write(&buffer).await?;
        out.flush().await?;
    }
    out.flush().await?;
    Ok(0)
}

/// Runs `tr [OPTION]... STRING1 [STRING2]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let flags = Flags {
            complement: parsed.has("c") || parsed.has("C"),
            delete: parsed.has("d"),
            squeeze: parsed.has("s"),
            truncate: parsed.has("t"),
        };
        if let Err(status) = check_operands(ctx, flags, &parsed.operands).await {
            return status;
        }
        let mut sets = Vec::new();
        for operand in &parsed.operands {
            match parse_set(operand.as_bytes()) {
                Ok(set) => {
                    if set.trailing_backslash {
                        ctx.report("warning: an unescaped backslash at end of string is not portable").await;
                    }
                    sets.push(set.elements);
                }
                Err(error) => {
                    ctx.report(&set_message(ctx, &error)).await;
                    return 1;
                }
            }
        }
        let set1 = sets.first().map(Vec::as_slice).unwrap_or(&[]);
        let plan = match plan(flags, set1, sets.get(1).map(Vec::as_slice)) {
            Ok(plan) => plan,
            Err(message) => {
                ctx.report(&message).await;
                return 1;
            }
        };
        status_of(transform(ctx, &plan).await)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    #[test]
    fn translates_deletes_squeezes() {
        let fs = new_fs();
        let tr = |args: &[&str], input: &str| run_utility(&fs, &[&["tr"], args].concat(), input.as_bytes()).stdout;
        assert_eq!(tr(&["a-z", "A-Z"], "hello\n"), "HELLO\n");
        assert_eq!(tr(&["[:lower:]", "[:upper:]"], "abc\n"), "ABC\n");
        assert_eq!(tr(&["-d", "l"], "hello\n"), "heo\n");
        assert_eq!(tr(&["-s", " "], "a   b\n"), "a b\n");
        assert_eq!(tr(&["-cd", "a-z\\n"], "a1b2\n"), "ab\n");
        assert_eq!(tr(&["abcdef", "x[y*]z"], "abcdef"), "xyyyyz");
        assert_eq!(tr(&["-t", "abc", "xy"], "abc"), "xyc");
        assert_eq!(tr(&["abc", "x"], "abc"), "xxx");
        assert_eq!(run_utility(&fs, &["tr", "a-z", "[:upper:]"], b"").status, 1);
    }
}
