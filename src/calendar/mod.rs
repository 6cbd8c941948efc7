//! Calendar time without a clock: the one home of date arithmetic, time
//! zones from `TZ`, `strftime` formatting and GNU date-string parsing, used
//! by the utilities (`date`, `touch -d`, `ls -l`, `stat`, `find -newermt`,
//! archive listings) and by the shell (`printf %(fmt)T`). A leaf like `fs`
//! and `host`: the current time is always passed in by the caller.
//!
//! - [`civil`]: seconds since the epoch to a broken-down time and back.
//! - [`zone`]: fixed-offset zones from `TZ` values.
//! - [`format`]: `strftime` as GNU `date +FORMAT` implements it.
//! - [`parse`]: the date strings `date -d` and `touch -d` accept.

pub mod civil;
pub mod format;
pub mod parse;
pub mod zone;

pub use civil::DateTime;
pub use format::{format_time, strftime};
pub use parse::{parse_date, parse_date_millis, Instant};
pub use zone::{parse_tz, Zone};
