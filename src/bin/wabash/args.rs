//! The native binary's command line.

/// The help text of `wabash --help`.
pub const USAGE: &str = "usage: wabash [--cwd DIR] [--env K=V]... [--mount HOSTDIR:SANDBOXDIR]...
              [-c SCRIPT [NAME [ARG...]] | FILE [ARG...]]
Runs a bash script in a sandbox over an in-memory filesystem; nothing
outside the sandbox is touched. Without -c or FILE the script is read from
standard input. The exit status is the script's.
";

/// Where the script comes from.
#[derive(Debug, PartialEq, Eq)]
pub enum Source {
    /// `-c SCRIPT`.
    Command(String),
    /// A host file holding the script.
    File(String),
    /// Standard input.
    Stdin,
}

/// A parsed command line.
#[derive(Debug)]
pub struct Invocation {
    /// `--help` was given.
    pub help: bool,
    /// `--cwd DIR`.
    pub cwd: Option<String>,
    /// `--env K=V`, in order.
    pub env: Vec<(String, String)>,
    /// `--mount HOSTDIR:SANDBOXDIR`, unparsed.
    pub mounts: Vec<String>,
    /// The script's source.
    pub source: Source,
    /// Positional parameters (`$1`...).
    pub args: Vec<String>,
}

/// Parses the arguments after the program name.
pub fn parse(mut arguments: impl Iterator<Item = String>) -> Result<Invocation, String> {
    let mut invocation =
        Invocation { help: false, cwd: None, env: Vec::new(), mounts: Vec::new(), source: Source::Stdin, args: Vec::new() };
    while let Some(argument) = arguments.next() {
        let mut value = |name: &str| arguments.next().ok_or_else(|| format!("{name}: option requires an argument"));
        match argument.as_str() {
            "-h" | "--help" => invocation.help = true,
            "--cwd" => invocation.cwd = Some(value("--cwd")?),
            "--env" => {
                let pair = value("--env")?;
                let (name, text) = pair.split_once('=').ok_or_else(|| format!("--env {pair}: expected NAME=VALUE"))?;
                invocation.env.push((name.to_string(), text.to_string()));
            }
            "--mount" => invocation.mounts.push(value("--mount")?),
            "-c" => {
                invocation.source = Source::Command(value("-c")?);
                // Like bash: the word after the script is $0, the rest are $1...
                let _name = arguments.next();
                invocation.args = arguments.collect();
                return Ok(invocation);
            }
            "--" => break,
            option if option.starts_with('-') && option.len() > 1 => return Err(format!("{option}: invalid option")),
            _ => {
                invocation.source = Source::File(argument);
                invocation.args = arguments.collect();
                return Ok(invocation);
            }
        }
    }
    if let Some(file) = arguments.next() {
        invocation.source = Source::File(file);
        invocation.args = arguments.collect();
    }
    Ok(invocation)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(words: &[&str]) -> Invocation {
        match parse(words.iter().map(|w| w.to_string())) {
            Ok(invocation) => invocation,
            Err(message) => panic!("{message}"),
        }
    }

    #[test]
    fn reads_options_then_command() {
        let invocation = parse_all(&["--cwd", "/tmp", "--env", "A=1=2", "-c", "echo $1", "name", "x", "y"]);
        assert_eq!(invocation.cwd.as_deref(), Some("/tmp"));
        assert_eq!(invocation.env, vec![("A".to_string(), "1=2".to_string())]);
        assert_eq!(invocation.source, Source::Command("echo $1".into()));
        assert_eq!(invocation.args, vec!["x".to_string(), "y".to_string()]);
    }

    #[test]
    fn reads_file_with_arguments_and_defaults_to_stdin() {
        let invocation = parse_all(&["script.sh", "-c", "a"]);
        assert_eq!(invocation.source, Source::File("script.sh".into()));
        assert_eq!(invocation.args, vec!["-c".to_string(), "a".to_string()]);
        assert_eq!(parse_all(&[]).source, Source::Stdin);
    }

    #[test]
    fn rejects_bad_options() {
        assert!(parse(["--env".to_string(), "novalue".to_string()].into_iter()).is_err());
        assert!(parse(["--bogus".to_string()].into_iter()).is_err());
        assert!(parse(["-c".to_string()].into_iter()).is_err());
    }
}
