//! System utilities: `date`, `sleep`, `timeout`, `env`, `printenv`,
//! `which`, the identity and machine queries (`whoami`, `id`, `hostname`,
//! `uname`, `uptime`, `nproc`, `tty`, `getconf`), `ps`, `yes`, `seq`, `clear`.

pub mod date;
pub mod deadline;
pub mod env;
pub mod float_format;
pub mod identity;
pub mod machine;
pub mod ps;
pub mod seq;
pub mod sleep;
pub mod terminal;
pub mod timeout;
pub mod which;
pub mod yes;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod yes_tests;
