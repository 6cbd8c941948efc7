//! System utilities: `date`, `sleep`, `timeout`, `env`, `printenv`,
//! `which`, the identity and machine queries (`whoami`, `id`, `hostname`,
//! `uname`, `uptime`, `nproc`, `tty`, `getconf`), `yes`, `seq`, `clear`.

pub mod civil;
pub mod tz;
