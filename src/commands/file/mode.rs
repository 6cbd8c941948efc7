//! Permission modes as `chmod`, `mkdir -m` and `install -m` take them: octal
//! (`755`, `4755`) or symbolic (`u+x,go-w`, `a=rX`, `g=u`), applied as GNU's
//! `mode_adjust` does (the umask limits clauses that name no users).

/// One parsed mode: a list of symbolic clauses, or an octal value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModeChange {
    /// An absolute octal mode.
    Octal(u32),
    /// Symbolic clauses applied in order.
    Symbolic(Vec<Clause>),
}

/// One `[ugoa]*[-+=]perms` action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// The affected bits mask from `ugoa` (0 when none was written).
    who: u32,
    /// `+`, `-` or `=`.
    op: char,
    /// The permission letters after the operator.
    perms: Perms,
}

/// What a clause grants: letters, or a copy of another class's bits.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Perms {
    Letters { bits: u32, conditional_exec: bool },
    Copy(char),
}

const USER: u32 = 0o4700;
const GROUP: u32 = 0o2070;
const OTHER: u32 = 0o1007;
const ALL: u32 = 0o7777;

impl ModeChange {
    /// Parses a mode argument; `None` when it is not a valid mode.
    pub fn parse(text: &str) -> Option<ModeChange> {
        if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
            let value = u32::from_str_radix(text, 8).ok()?;
            return (value <= 0o7777).then_some(ModeChange::Octal(value));
        }
        let mut clauses = Vec::new();
        for part in text.split(',') {
            let mut chars = part.chars().peekable();
            let mut who = 0;
            while let Some(&c) = chars.peek() {
                match c {
                    'u' => who |= USER,
                    'g' => who |= GROUP,
                    'o' => who |= OTHER,
                    'a' => who |= ALL,
                    _ => break,
                }
                chars.next();
            }
            let mut seen_op = false;
            while let Some(op) = chars.next() {
                if !matches!(op, '+' | '-' | '=') {
                    return None;
                }
                seen_op = true;
                let mut bits = 0;
                let mut conditional_exec = false;
                let mut copy = None;
                while let Some(&c) = chars.peek() {
                    match c {
                        'r' => bits |= 0o444,
                        'w' => bits |= 0o222,
                        'x' => bits |= 0o111,
                        'X' => conditional_exec = true,
                        's' => bits |= 0o6000,
                        't' => bits |= 0o1000,
                        'u' | 'g' | 'o' if bits == 0 && !conditional_exec && copy.is_none() => copy = Some(c),
                        _ => break,
                    }
                    chars.next();
                }
                let perms = match copy {
                    Some(class) => Perms::Copy(class),
                    None => Perms::Letters { bits, conditional_exec },
                };
                clauses.push(Clause { who, op, perms });
            }
            if !seen_op {
                return None;
            }
        }
        Some(ModeChange::Symbolic(clauses))
    }

    /// The new mode of a node with mode `old`: `is_dir` decides `X` and keeps
    /// a directory's set-id bits under octal modes, as GNU does.
    pub fn apply(&self, old: u32, is_dir: bool, umask: u32) -> u32 {
        match self {
            ModeChange::Octal(value) => {
                if is_dir && *value < 0o1000 {
                    (old & 0o6000) | value
                } else {
                    *value
                }
            }
            ModeChange::Symbolic(clauses) => {
                let mut mode = old & ALL;
                for clause in clauses {
                    let (mask, limit) = if clause.who == 0 { (ALL, !umask & ALL) } else { (clause.who, ALL) };
                    let value = match &clause.perms {
                        Perms::Letters { bits, conditional_exec } => {
                            let exec = if *conditional_exec && (is_dir || mode & 0o111 != 0) { 0o111 } else { 0 };
                            bits | exec
                        }
                        Perms::Copy(class) => {
                            let triple = match class {
                                'u' => (mode >> 6) & 7,
                                'g' => (mode >> 3) & 7,
                                _ => mode & 7,
                            };
                            triple * 0o111
                        }
                    };
                    let affected = value & mask & limit;
                    match clause.op {
                        '+' => mode |= affected,
                        '-' => mode &= !affected,
                        _ => {
                            // `=` clears the named classes' bits (keeping a
                            // directory's set-id bits unless named) then sets.
                            let mut clear = mask;
                            if is_dir {
                                clear &= !0o6000 | (value & 0o6000);
                            }
                            mode = (mode & !clear) | affected;
                        }
                    }
                }
                mode
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, old: u32, umask: u32) -> u32 {
        ModeChange::parse(text).unwrap().apply(old, false, umask)
    }

    #[test]
    fn octal_and_symbolic() {
        assert_eq!(apply("755", 0o644, 0o022), 0o755);
        assert_eq!(apply("u+x,g-r", 0o644, 0o022), 0o704);
        assert_eq!(apply("=r", 0o704, 0o022), 0o444);
        assert_eq!(apply("+w", 0o444, 0o077), 0o644);
        assert_eq!(apply("a+X", 0o644, 0o022), 0o644);
        assert_eq!(apply("a+X", 0o744, 0o022), 0o755);
        assert_eq!(apply("u=rwx,g=rx", 0o777, 0), 0o757);
        assert_eq!(apply("g=u", 0o640, 0), 0o660);
        assert_eq!(apply("u+s", 0o755, 0), 0o4755);
        assert_eq!(apply("+t", 0o755, 0), 0o1755);
        assert_eq!(ModeChange::parse("bad"), None);
        assert_eq!(ModeChange::parse("u"), None);
        assert_eq!(ModeChange::parse("8"), None);
        assert!(ModeChange::parse("a=").is_some());
    }
}
