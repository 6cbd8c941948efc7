//! Conditional expressions: `[[ ... ]]` and the operators it shares with
//! `test`/`[` (file tests, string and integer comparisons).

use super::vars::Value;
use super::{Outcome, Shell};
use crate::expand::pattern::{Pattern, PatternOptions};
use crate::expand::{arith, expand_pattern, expand_regex, expand_string, ExpandError, HostArith};
use crate::fs::{FileType, Metadata};
use crate::host::LocalFuture;
use crate::syntax::ast::CondExpr;
use std::collections::BTreeMap;

/// Why a conditional could not give true or false.
pub enum CondError {
    /// A usage error with bash's message; status 2.
    Usage(String),
    /// An expansion error (`set -u` and `-v a[k]` with `k` unset), which
    /// the caller handles as in any command.
    Expand(ExpandError),
}

/// Unary operators that test files.
pub const FILE_TESTS: &str = "abcdefghkprstuwxGLNOS";

impl Shell {
    /// Evaluates `[[ expr ]]`. `Err(Ok(2))` for a usage error (reported),
    /// `Err(Err(flow))` when an expansion error abandons the line or ends
    /// the shell, as the same error would in a simple command.
    pub(super) fn eval_cond<'a>(&'a mut self, expr: &'a CondExpr) -> LocalFuture<'a, Result<bool, Outcome>> {
        Box::pin(async move {
            match expr {
                CondExpr::Not(inner) => Ok(!self.eval_cond(inner).await?),
                CondExpr::Group(inner) => self.eval_cond(inner).await,
                CondExpr::And(a, b) => Ok(self.eval_cond(a).await? && self.eval_cond(b).await?),
                CondExpr::Or(a, b) => Ok(self.eval_cond(a).await? || self.eval_cond(b).await?),
                CondExpr::Word(word) => Ok(!self.cond_string(word).await?.is_empty()),
                CondExpr::Unary(op, word) => {
                    let operand = self.cond_string(word).await?;
                    match self.unary_test(op, &operand).await {
                        Ok(result) => Ok(result),
                        Err(error) => Err(self.cond_failure(error).await),
                    }
                }
                CondExpr::Binary(op, left, right) => {
                    let left_text = self.cond_string(left).await?;
                    match op.as_str() {
                        "==" | "=" | "!=" => {
                            let pattern = match expand_pattern(self, right).await {
                                Ok(p) => p,
                                Err(error) => return Err(self.cond_expansion_failed(error).await),
                            };
                            let nocase = self.options.nocasematch;
                            let matched = Pattern::new(&pattern, PatternOptions { extglob: true, nocase }).matches(&left_text, nocase);
                            Ok(matched == (op != "!="))
                        }
                        "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" => {
                            let right_text = self.cond_string(right).await?;
                            // The left side first: its error stops the right one.
                            let values = arith::eval_text(&left_text, &mut HostArith(self))
                                .and_then(|a| arith::eval_text(&right_text, &mut HostArith(self)).map(|b| (a, b)));
                            match values {
                                Ok((a, b)) => Ok(compare_integers(op, a, b)),
                                Err(e) if e.message == "unbound variable" => {
                                    Err(self.expansion_failed(ExpandError::Arith(e)).await)
                                }
                                Err(e) => {
                                    // Bash names `[[` in expression errors, not in variable ones.
                                    let prefix = if e.is_variable_error() { "" } else { "[[: " };
                                    self.report_error(&format!("{prefix}{e}")).await;
                                    // The comparison is then false (`!` makes it true).
                                    Ok(false)
                                }
                            }
                        }
                        _ => {
                            let right_text = self.cond_string(right).await?;
                            match self.binary_test(op, &left_text, &right_text, false).await {
                                Ok(result) => Ok(result),
                                Err(error) => Err(self.cond_failure(error).await),
                            }
                        }
                    }
                }
                CondExpr::Regex(left, right) => {
                    let subject = self.cond_string(left).await?;
                    let pattern = match expand_regex(self, right).await {
                        Ok(p) => p,
                        Err(error) => return Err(self.cond_expansion_failed(error).await),
                    };
                    self.regex_match(&subject, &pattern)
                }
            }
        })
    }

    async fn cond_failure(&mut self, error: CondError) -> Outcome {
        match error {
            CondError::Usage(_) => Ok(2),
            CondError::Expand(error) => self.expansion_failed(error).await,
        }
    }

    async fn cond_expansion_failed(&mut self, error: ExpandError) -> Outcome {
        self.expansion_failed(error).await
    }

    async fn cond_string(&mut self, word: &crate::syntax::ast::Word) -> Result<String, Outcome> {
        match expand_string(self, word).await {
            Ok(s) => Ok(s),
            Err(error) => Err(self.cond_expansion_failed(error).await),
        }
    }

    /// `subject =~ pattern` with glibc's extended syntax, as bash's
    /// `regcomp`; a pattern that does not compile is status 2.
    fn regex_match(&mut self, subject: &str, pattern: &str) -> Result<bool, Outcome> {
        let syntax = crate::regex::Syntax { extended: true, glibc: true, ..Default::default() };
        let compiled = crate::regex::Regex::new(pattern.as_bytes(), &syntax).map_err(|_| Ok(2))?;
        let captures = compiled.captures_at(subject.as_bytes(), 0).map_err(|_| Ok(2))?;
        let mut groups = BTreeMap::new();
        if let Some(spans) = &captures {
            for (index, span) in spans.iter().enumerate() {
                let text = span.and_then(|(start, end)| subject.get(start..end)).unwrap_or_default();
                groups.insert(index as i64, text.to_string());
            }
        }
        self.vars.insert("BASH_REMATCH", super::vars::Variable { value: Some(Value::Indexed(groups)), attributes: Default::default() });
        Ok(captures.is_some())
    }

    /// Whether the sandbox user may read (`r`), write (`w`) or execute (`x`) per `meta`.
    fn may_access(&self, meta: &Metadata, what: char) -> bool {
        let uid = crate::fs::layout::SANDBOX_UID;
        let gid = crate::fs::layout::SANDBOX_GID;
        let shift = if meta.uid == uid {
            6
        } else if meta.gid == gid {
            3
        } else {
            0
        };
        let bit = match what {
            'r' => 4,
            'w' => 2,
            _ => 1,
        };
        (meta.mode >> shift) & bit != 0
    }

    /// A unary test (`-f file`, `-z s`, `-v name`...).
    pub(super) async fn unary_test(&mut self, op: &str, operand: &str) -> Result<bool, CondError> {
        let letter = op.strip_prefix('-').and_then(|l| if l.len() == 1 { l.chars().next() } else { None });
        let Some(letter) = letter else {
            return Err(CondError::Usage(format!("{op}: unary operator expected")));
        };
        match letter {
            'z' => return Ok(operand.is_empty()),
            'n' => return Ok(!operand.is_empty()),
            'v' => {
                let (name, index) = match operand.find('[') {
                    Some(open) if operand.ends_with(']') => (&operand[..open], Some(&operand[open + 1..operand.len() - 1])),
                    _ => (operand, None),
                };
                let name = self.resolve_nameref(name);
                return Ok(match index {
                    // An array stands for its element 0 (`a=(); [[ -v a ]]` is false).
                    None => match self.vars.get(&name).and_then(|v| v.value.as_ref()) {
                        Some(Value::Indexed(items)) => items.contains_key(&0),
                        Some(Value::Assoc(_)) => {
                            self.element_value(&name, &crate::expand::ElementKey::Key("0".into())).is_some()
                        }
                        Some(Value::Scalar(_)) => true,
                        None => self.dynamic_scalar(&name).is_some(),
                    },
                    Some("@") | Some("*") => !self.array_values(&name).is_empty(),
                    Some(index) => match crate::expand::subscript_key(self, &name, index).await {
                        Ok(key) => self.element_value(&name, &key).is_some(),
                        Err(error) if error.to_string().ends_with(": unbound variable") => return Err(CondError::Expand(error)),
                        Err(_) => false,
                    },
                });
            }
            'o' => return Ok(self.options.get_set_option(operand).unwrap_or(false)),
            'R' => return Ok(self.vars.get(operand).is_some_and(|v| v.attributes.nameref)),
            't' => return Ok(false),
            _ => {}
        }
        if !FILE_TESTS.contains(letter) {
            return Err(CondError::Usage(format!("{op}: unary operator expected")));
        }
        if operand.is_empty() {
            return Ok(false);
        }
        let path = crate::fs::path::join(&self.cwd, operand);
        if letter == 'L' || letter == 'h' {
            return Ok(self.fs.symlink_metadata(&path).await.map(|m| m.is_symlink()).unwrap_or(false));
        }
        let meta = match operand {
            "/dev/stdin" | "/dev/stdout" | "/dev/stderr" => None,
            _ => self.fs.metadata(&path).await.ok(),
        };
        let Some(meta) = meta else {
            return Ok(matches!(operand, "/dev/stdin" | "/dev/stdout" | "/dev/stderr") && matches!(letter, 'e' | 'a' | 'r' | 'w' | 'c'));
        };
        Ok(match letter {
            'e' | 'a' => true,
            'f' => meta.file_type == FileType::File,
            'd' => meta.file_type == FileType::Directory,
            'c' => meta.file_type == FileType::CharDevice,
            'b' | 'S' => false,
            'p' => meta.file_type == FileType::Fifo,
            's' => meta.size > 0,
            'r' => self.may_access(&meta, 'r'),
            'w' => self.may_access(&meta, 'w'),
            'x' => self.may_access(&meta, 'x'),
            'u' => meta.mode & 0o4000 != 0,
            'g' => meta.mode & 0o2000 != 0,
            'k' => meta.mode & 0o1000 != 0,
            'O' => meta.uid == crate::fs::layout::SANDBOX_UID,
            'G' => meta.gid == crate::fs::layout::SANDBOX_GID,
            'N' => meta.mtime > meta.atime,
            _ => false,
        })
    }

    /// A binary test other than pattern matching: string order, integer
    /// comparison (`test`'s integer rules when `strict_integers`), file dates.
    pub(super) async fn binary_test(&mut self, op: &str, left: &str, right: &str, strict_integers: bool) -> Result<bool, CondError> {
        match op {
            "=" | "==" => Ok(left == right),
            "!=" => Ok(left != right),
            "<" => Ok(left < right),
            ">" => Ok(left > right),
            "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" => {
                let parse = |s: &str| -> Result<i64, CondError> {
                    let trimmed = s.trim();
                    trimmed.parse::<i64>().map_err(|_| CondError::Usage(format!("{s}: integer expression expected")))
                };
                let _ = strict_integers;
                Ok(compare_integers(op, parse(left)?, parse(right)?))
            }
            "-nt" | "-ot" | "-ef" => {
                let a = self.fs.metadata(&crate::fs::path::join(&self.cwd, left)).await.ok();
                let b = self.fs.metadata(&crate::fs::path::join(&self.cwd, right)).await.ok();
                Ok(match op {
                    "-nt" => match (a, b) {
                        (Some(a), Some(b)) => a.mtime > b.mtime,
                        (Some(_), None) => true,
                        _ => false,
                    },
                    "-ot" => match (a, b) {
                        (Some(a), Some(b)) => a.mtime < b.mtime,
                        (None, Some(_)) => true,
                        _ => false,
                    },
                    _ => matches!((a, b), (Some(a), Some(b)) if a.ino == b.ino && a.dev == b.dev),
                })
            }
            _ => Err(CondError::Usage(format!("{op}: binary operator expected"))),
        }
    }
}

fn compare_integers(op: &str, a: i64, b: i64) -> bool {
    match op {
        "-eq" => a == b,
        "-ne" => a != b,
        "-lt" => a < b,
        "-le" => a <= b,
        "-gt" => a > b,
        _ => a >= b,
    }
}
