//! The native binary's [`Host`]: the system clock, a seed from the
//! standard library's per-process random hash keys, and real sleeping.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use wabash::host::{Host, LocalFuture};

/// The host of a native run.
pub struct SystemHost;

impl Host for SystemHost {
    fn now_millis(&self) -> f64 {
        SystemTime::now().duration_since(UNIX_EPOCH).map(|elapsed| elapsed.as_secs_f64() * 1000.0).unwrap_or(0.0)
    }

    fn random_seed(&self) -> u64 {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
        hasher.finish()
    }

    fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
        if millis.is_finite() && millis > 0.0 {
            std::thread::sleep(Duration::from_secs_f64(millis / 1000.0));
        }
        Box::pin(async {})
    }
}
