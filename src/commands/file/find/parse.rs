//! Parsing `find`'s expression language into a tree: primaries, `!`/`-not`,
//! implicit and explicit `-a`/`-and`, `-o`/`-or`, `,` and `( )`, with GNU's
//! precedence and its error messages.

use super::regex::{FindRegex, RegexType};
use crate::commands::file::mode::ModeChange;
use crate::commands::users::Accounts;

/// How a numeric argument compares (`+N`, `-N`, `N`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Compare {
    /// `+N`: more than.
    Greater(f64),
    /// `-N`: less than.
    Less(f64),
    /// `N`: exactly.
    Equal(f64),
}

impl Compare {
    /// True when `value` satisfies the comparison.
    pub fn holds(self, value: f64) -> bool {
        match self {
            Compare::Greater(n) => value > n,
            Compare::Less(n) => value < n,
            Compare::Equal(n) => value == n,
        }
    }
}

/// Which timestamp a time test reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stamp {
    /// `-atime`, `-amin`, `-anewer`.
    Access,
    /// `-mtime`, `-mmin`, `-newer`.
    Modify,
    /// `-ctime`, `-cmin`, `-cnewer`.
    Change,
}

/// How `-perm` compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermMatch {
    /// `-perm MODE`: exactly these bits.
    Exact(u32),
    /// `-perm -MODE`: all of these bits.
    All(u32),
    /// `-perm /MODE`: any of these bits.
    Any(u32),
}

/// A test or action.
#[derive(Debug)]
pub enum Primary {
    /// `-true` / `-false`.
    Constant(bool),
    /// `-name`/`-iname` (case-folding flag), `-lname`/`-ilname` when `link`.
    Name { pattern: String, fold: bool, link: bool },
    /// `-path`/`-wholename`/`-ipath`.
    Path { pattern: String, fold: bool },
    /// `-regex`/`-iregex`.
    Regex(FindRegex),
    /// `-type` letters (`f`, `d`, `l`...), `-xtype` when `follow`.
    Type { letters: String, follow: bool },
    /// `-size` in units of `unit` bytes.
    Size { compare: Compare, unit: u64 },
    /// `-empty`.
    Empty,
    /// `-newer`/`-anewer`/`-cnewer` against a reference time.
    Newer { stamp: Stamp, reference: f64 },
    /// `-mtime`/`-atime`/`-ctime` (days) and `-mmin`/... (minutes).
    Age { stamp: Stamp, compare: Compare, minutes: bool },
    /// `-perm`.
    Perm(PermMatch),
    /// `-user`/`-uid`.
    Uid(u32),
    /// `-group`/`-gid`.
    Gid(u32),
    /// `-nouser` / `-nogroup`.
    NoOwner { group: bool },
    /// `-links`.
    Links(Compare),
    /// `-inum`.
    Inode(Compare),
    /// `-readable` / `-writable` / `-executable` as mode bits 4, 2, 1.
    Access(u32),
    /// `-prune`.
    Prune,
    /// `-quit`.
    Quit,
    /// `-print` (`\n`) / `-print0` (`\0`).
    Print(char),
    /// `-printf FORMAT`.
    Printf(String),
    /// `-ls`.
    List,
    /// `-delete`.
    Delete,
    /// `-exec`/`-execdir` with `;` (`batch` false) or `+`.
    Exec { argv: Vec<String>, batch: bool, in_dir: bool, id: usize },
}

/// An expression tree.
#[derive(Debug)]
pub enum Expr {
    /// A primary.
    Primary(Primary),
    /// `! EXPR`.
    Not(Box<Expr>),
    /// `EXPR -a EXPR`.
    And(Box<Expr>, Box<Expr>),
    /// `EXPR -o EXPR`.
    Or(Box<Expr>, Box<Expr>),
    /// `EXPR , EXPR`.
    Comma(Box<Expr>, Box<Expr>),
}

/// Options that look like primaries but set the walk (`-maxdepth`, `-depth`...).
#[derive(Debug, Default)]
pub struct WalkOptions {
    /// `-maxdepth N`.
    pub max_depth: Option<usize>,
    /// `-mindepth N`.
    pub min_depth: usize,
    /// `-depth`/`-d` (also implied by `-delete`).
    pub depth_first: bool,
    /// `-xdev`/`-mount`: stay on the starting point's filesystem.
    pub same_device: bool,
    /// True when the expression has an action (so no implicit `-print`).
    pub has_action: bool,
}

/// Metadata the parser needs: reference files' times, user names, now.
pub struct ParseContext<'a> {
    /// Modification times of `-newer` reference files, looked up in advance, by name.
    pub reference_times: &'a dyn Fn(&str) -> Option<f64>,
    /// User and group names.
    pub accounts: &'a Accounts,
    /// A reference file's atime (`a`), mtime (`m`) or ctime (`c`), for `-newerXY`.
    pub reference_stamp: &'a dyn Fn(&str, char) -> Option<f64>,
    /// Parses a date string for `-newermt` and friends.
    pub parse_date: &'a dyn Fn(&str) -> Option<f64>,
    /// Quotes text in messages as GNU's `quote()` does in this locale.
    pub quote: &'a dyn Fn(&str) -> String,
}

/// A parse failure: the message after `find: `.
pub type ParseError = String;

struct Parser<'a> {
    words: &'a [String],
    position: usize,
    context: &'a ParseContext<'a>,
    walk: WalkOptions,
    exec_count: usize,
    regex_type: RegexType,
}

/// The start of GNU's second line for a misplaced path that exists.
pub const UNQUOTED_HINT: &str = "find: possible unquoted pattern after predicate ";

/// Parses the expression words; `None` for an empty expression.
pub fn parse(words: &[String], context: &ParseContext<'_>) -> Result<(Option<Expr>, WalkOptions), ParseError> {
    let mut parser = Parser { words, position: 0, context, walk: WalkOptions::default(), exec_count: 0, regex_type: RegexType::Emacs };
    if words.is_empty() {
        return Ok((None, parser.walk));
    }
    let expr = parser.comma()?;
    if let Some(word) = parser.peek() {
        if word == ")" {
            return Err("you have too many ')'".to_string());
        }
        return Err(parser.misplaced_path(word, parser.position));
    }
    Ok((expr, parser.walk))
}

/// Combines two optional expressions with `make`.
fn combine(left: Option<Expr>, right: Option<Expr>, make: fn(Box<Expr>, Box<Expr>) -> Expr) -> Option<Expr> {
    match (left, right) {
        (Some(l), Some(r)) => Some(make(Box::new(l), Box::new(r))),
        (l, None) => l,
        (None, r) => r,
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.words.get(self.position).map(String::as_str)
    }

    fn next_word(&mut self) -> Option<String> {
        let word = self.words.get(self.position).cloned();
        self.position += 1;
        word
    }

    fn comma(&mut self) -> Result<Option<Expr>, ParseError> {
        let mut left = self.or()?;
        while self.peek() == Some(",") {
            self.position += 1;
            let right = self.or()?;
            left = combine(left, right, Expr::Comma);
        }
        Ok(left)
    }

    fn or(&mut self) -> Result<Option<Expr>, ParseError> {
        let mut left = self.and()?;
        while matches!(self.peek(), Some("-o") | Some("-or")) {
            let operator = self.next_word().unwrap_or_default();
            if left.is_none() {
                return Err(format!("invalid expression; you have used a binary operator '{operator}' with nothing before it."));
            }
            let right = self.and()?;
            if right.is_none() {
                return Err(format!("invalid expression; you have used a binary operator '{operator}' with nothing after it."));
            }
            left = combine(left, right, Expr::Or);
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Option<Expr>, ParseError> {
        let mut left = self.unary()?;
        loop {
            match self.peek() {
                Some("-a") | Some("-and") => {
                    self.position += 1;
                    let right = self.unary()?;
                    left = combine(left, right, Expr::And);
                }
                Some("-o") | Some("-or") | Some(",") | Some(")") | None => return Ok(left),
                Some(_) => {
                    let right = self.unary()?;
                    left = combine(left, right, Expr::And);
                }
            }
        }
    }

    fn unary(&mut self) -> Result<Option<Expr>, ParseError> {
        match self.peek() {
            Some("!") | Some("-not") => {
                self.position += 1;
                let inner = self.unary()?;
                match inner {
                    Some(inner) => Ok(Some(Expr::Not(Box::new(inner)))),
                    None => Err("invalid expression; you have used a unary operator '!' with nothing after it.".into()),
                }
            }
            Some("(") => {
                self.position += 1;
                let inner = self.comma()?;
                if self.next_word().as_deref() != Some(")") {
                    return Err("invalid expression; I was expecting to find a ')' somewhere but did not see one.".into());
                }
                match inner {
                    Some(inner) => Ok(Some(inner)),
                    None => Err("invalid expression; empty parentheses are not allowed.".into()),
                }
            }
            Some(")") | None => Ok(None),
            Some(_) => self.primary(),
        }
    }

    fn argument(&mut self, name: &str) -> Result<String, ParseError> {
        self.next_word().ok_or_else(|| format!("missing argument to `{name}'"))
    }

    /// The error for a path (`word`, at `index`) after the expression began,
    /// with GNU's guess at an unquoted pattern the shell expanded, naming the
    /// last predicate; the caller keeps that line only when `word` exists.
    fn misplaced_path(&self, word: &str, index: usize) -> String {
        let mut message = format!("paths must precede expression: `{word}'");
        let before = self.words.get(..index).unwrap_or(&[]);
        if let Some(predicate) = before.iter().rev().find(|w| w.starts_with('-') && w.len() > 1) {
            message.push_str(&format!("\n{UNQUOTED_HINT}`{predicate}'?"));
        }
        message
    }

    fn primary(&mut self) -> Result<Option<Expr>, ParseError> {
        let word = self.next_word().unwrap_or_default();
        let name = word.as_str();
        let primary = match name {
            "-true" => Primary::Constant(true),
            "-false" => Primary::Constant(false),
            "-name" | "-iname" | "-lname" | "-ilname" => {
                let pattern = self.argument(name)?;
                Primary::Name { pattern, fold: name.starts_with("-i"), link: name.ends_with("lname") }
            }
            "-path" | "-wholename" | "-ipath" | "-iwholename" => {
                Primary::Path { pattern: self.argument(name)?, fold: name.starts_with("-i") }
            }
            "-regex" | "-iregex" => {
                let pattern = self.argument(name)?;
                Primary::Regex(FindRegex::new(&pattern, self.regex_type, name == "-iregex")?)
            }
            "-regextype" => {
                let kind = self.argument(name)?;
                self.regex_type = RegexType::from_name(&kind).ok_or_else(|| {
                    let q = self.context.quote;
                    let names = [
                        "findutils-default",
                        "ed",
                        "emacs",
                        "gnu-awk",
                        "grep",
                        "posix-awk",
                        "awk",
                        "posix-basic",
                        "posix-egrep",
                        "egrep",
                        "posix-extended",
                        "posix-minimal-basic",
                        "sed",
                    ];
                    let list: Vec<String> = names.iter().map(|n| q(n)).collect();
                    format!("Unknown regular expression type {}; valid types are {}.", q(&kind), list.join(", "))
                })?;
                return Ok(Some(Expr::Primary(Primary::Constant(true))));
            }
            "-type" | "-xtype" => {
                let letters = self.argument(name)?;
                let valid = letters.split(',').all(|l| l.len() == 1 && "fdlcpbsD".contains(l));
                if !valid || letters.is_empty() {
                    return Err(format!("Unknown argument to {name}: {letters}"));
                }
                Primary::Type { letters: letters.replace(',', ""), follow: name == "-xtype" }
            }
            "-size" => {
                let text = self.argument(name)?;
                let (body, unit) = match text.chars().last() {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let unit = match c {
                            'c' => 1,
                            'w' => 2,
                            'b' => 512,
                            'k' => 1024,
                            'M' => 1 << 20,
                            'G' => 1 << 30,
                            other => return Err(format!("invalid -size type `{other}'")),
                        };
                        (&text[..text.len() - 1], unit)
                    }
                    _ => (text.as_str(), 512),
                };
                let compare = numeric(body).ok_or_else(|| format!("invalid argument `{text}' to `-size'"))?;
                Primary::Size { compare, unit }
            }
            "-empty" => Primary::Empty,
            "-newer" | "-anewer" | "-cnewer" => {
                let file = self.argument(name)?;
                let Some(reference) = (self.context.reference_times)(&file) else {
                    return Err(format!("{}: No such file or directory", (self.context.quote)(&file)));
                };
                Primary::Newer { stamp: stamp_of(name), reference }
            }
            newer if newer.len() == 8 && newer.starts_with("-newer") && newer != "-newerXY" => {
                let mut letters = newer.chars().skip(6);
                let (Some(own), Some(other)) = (letters.next(), letters.next()) else {
                    return Err(format!("invalid predicate `{newer}'"));
                };
                let stamp = match own {
                    'a' => Stamp::Access,
                    'm' => Stamp::Modify,
                    'c' => Stamp::Change,
                    _ => return Err(format!("invalid predicate `{newer}'")),
                };
                let argument = self.argument(name)?;
                let reference = match other {
                    't' => (self.context.parse_date)(&argument).ok_or_else(|| {
                        format!("I cannot figure out how to interpret {} as a date or time", (self.context.quote)(&argument))
                    })?,
                    'a' | 'm' | 'c' => (self.context.reference_stamp)(&argument, other)
                        .ok_or_else(|| format!("{}: No such file or directory", (self.context.quote)(&argument)))?,
                    _ => return Err(format!("invalid predicate `{newer}'")),
                };
                Primary::Newer { stamp, reference }
            }
            "-mtime" | "-atime" | "-ctime" | "-mmin" | "-amin" | "-cmin" => {
                let text = self.argument(name)?;
                let compare = numeric(&text).ok_or_else(|| format!("invalid argument `{text}' to `{name}'"))?;
                Primary::Age { stamp: stamp_of(name), compare, minutes: name.ends_with("min") }
            }
            "-perm" => {
                let text = self.argument(name)?;
                let (kind, body) = match text.chars().next() {
                    Some('-') => ('-', &text[1..]),
                    Some('/') | Some('+') => ('/', &text[1..]),
                    _ => ('=', text.as_str()),
                };
                let mode = ModeChange::parse(body)
                    .map(|m| m.apply(0, false, 0))
                    .ok_or_else(|| format!("invalid mode {}", (self.context.quote)(&text)))?;
                Primary::Perm(match kind {
                    '-' => PermMatch::All(mode),
                    '/' => PermMatch::Any(mode),
                    _ => PermMatch::Exact(mode),
                })
            }
            "-user" | "-uid" => {
                let text = self.argument(name)?;
                let id = if name == "-uid" { text.parse().ok() } else { self.context.accounts.users.id(&text) };
                Primary::Uid(id.ok_or_else(|| format!("{} is not the name of a known user", (self.context.quote)(&text)))?)
            }
            "-group" | "-gid" => {
                let text = self.argument(name)?;
                let id = if name == "-gid" { text.parse().ok() } else { self.context.accounts.groups.id(&text) };
                Primary::Gid(id.ok_or_else(|| format!("{} is not the name of an existing group", (self.context.quote)(&text)))?)
            }
            "-nouser" => Primary::NoOwner { group: false },
            "-nogroup" => Primary::NoOwner { group: true },
            "-links" | "-inum" => {
                let text = self.argument(name)?;
                let compare = numeric(&text).ok_or_else(|| format!("invalid argument `{text}' to `{name}'"))?;
                if name == "-links" {
                    Primary::Links(compare)
                } else {
                    Primary::Inode(compare)
                }
            }
            "-readable" => Primary::Access(4),
            "-writable" => Primary::Access(2),
            "-executable" => Primary::Access(1),
            "-maxdepth" | "-mindepth" => {
                let text = self.argument(name)?;
                let value: usize = text.parse().map_err(|_| {
                    format!("Expected a positive decimal integer argument to {name}, but got {}", (self.context.quote)(&text))
                })?;
                if name == "-maxdepth" {
                    self.walk.max_depth = Some(value);
                } else {
                    self.walk.min_depth = value;
                }
                return Ok(Some(Expr::Primary(Primary::Constant(true))));
            }
            "-depth" | "-d" => {
                self.walk.depth_first = true;
                Primary::Constant(true)
            }
            "-xdev" | "-mount" => {
                self.walk.same_device = true;
                Primary::Constant(true)
            }
            "-noleaf" | "-ignore_readdir_race" | "-noignore_readdir_race" | "-follow" => Primary::Constant(true),
            "-prune" => Primary::Prune,
            "-quit" => Primary::Quit,
            "-print" => {
                self.walk.has_action = true;
                Primary::Print('\n')
            }
            "-print0" => {
                self.walk.has_action = true;
                Primary::Print('\0')
            }
            "-printf" => {
                self.walk.has_action = true;
                Primary::Printf(self.argument(name)?)
            }
            "-ls" => {
                self.walk.has_action = true;
                Primary::List
            }
            "-delete" => {
                self.walk.has_action = true;
                self.walk.depth_first = true;
                Primary::Delete
            }
            "-exec" | "-execdir" => {
                self.walk.has_action = true;
                let mut argv = Vec::new();
                let batch = loop {
                    let Some(word) = self.next_word() else {
                        return Err(format!("missing argument to `{name}'"));
                    };
                    if word == ";" {
                        break false;
                    }
                    if word == "+" && argv.last().is_some_and(|last: &String| last == "{}") {
                        argv.pop();
                        break true;
                    }
                    argv.push(word);
                };
                if argv.is_empty() {
                    return Err(format!("missing argument to `{name}'"));
                }
                self.exec_count += 1;
                Primary::Exec { argv, batch, in_dir: name == "-execdir", id: self.exec_count }
            }
            "-ok" | "-okdir" => {
                return Err(format!("{name} is not supported: there is no terminal to ask; use -exec"));
            }
            other if other.starts_with('-') && other.len() > 1 => return Err(format!("unknown predicate `{other}'")),
            other => return Err(self.misplaced_path(other, self.position.saturating_sub(1))),
        };
        Ok(Some(Expr::Primary(primary)))
    }
}

fn stamp_of(name: &str) -> Stamp {
    match name.trim_start_matches('-').chars().next() {
        Some('a') => Stamp::Access,
        Some('c') => Stamp::Change,
        _ => Stamp::Modify,
    }
}

/// `+N`, `-N` or `N` as a comparison.
fn numeric(text: &str) -> Option<Compare> {
    let (make, body): (fn(f64) -> Compare, &str) = match text.chars().next() {
        Some('+') => (Compare::Greater, &text[1..]),
        Some('-') => (Compare::Less, &text[1..]),
        _ => (Compare::Equal, text),
    };
    if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    body.parse().ok().map(make)
}
