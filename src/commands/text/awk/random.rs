//! gawk's `rand()` and `srand()`, number for number.
//!
//! gawk draws from a BSD-style additive lagged-Fibonacci generator (63
//! words of 32 bits, lag 1, seeded by the Park-Miller "minimal standard"
//! recurrence and run 630 steps before use) whose outputs pass through a
//! 512-entry shuffle table: each draw returns the entry chosen by the
//! previous result and refills it. `rand()` combines two draws into one
//! double in [0, 1). The starting seed is 1. This model was worked out from
//! gawk 5.2.1's outputs and checked on its first 10,000 numbers for
//! several seeds (`tests/cases/text/awk-gawk.cases` keeps samples).

const DEGREE: usize = 63;
const SEPARATION: usize = 1;
const SHUFFLE: usize = 512;
const WARMUP: usize = 10 * DEGREE;

/// The generator state.
pub struct Random {
    state: [u32; DEGREE],
    front: usize,
    rear: usize,
    table: Vec<u32>,
    last: u32,
}

/// One step of the Park-Miller recurrence on a 32-bit signed word, as the
/// seeding does (Schrage's method; zero maps to a fixed nonzero value).
fn park_miller(word: u32) -> u32 {
    let mut x = i64::from(word as i32);
    if x == 0 {
        x = 123_459_876;
    }
    let hi = x / 127_773;
    let lo = x % 127_773;
    let mut next = 16_807 * lo - 2_836 * hi;
    if next < 0 {
        next += 0x7fff_ffff;
    }
    next as u32
}

/// The seed a number becomes, as gawk's conversion to a C `long` does on
/// 64-bit machines (out of range and NaN give the most negative value).
pub fn seed_of(number: f64) -> i64 {
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&number) {
        i64::MIN
    } else {
        number.trunc() as i64
    }
}

impl Random {
    /// A generator seeded with `seed`.
    pub fn new(seed: i64) -> Random {
        let mut random = Random { state: [0; DEGREE], front: SEPARATION, rear: 0, table: vec![0; SHUFFLE], last: 0 };
        random.seed(seed);
        random
    }

    /// Reseeds: the low 32 bits of `seed` start the state.
    pub fn seed(&mut self, seed: i64) {
        self.state[0] = seed as u32;
        for i in 1..DEGREE {
            self.state[i] = park_miller(self.state[i - 1]);
        }
        self.front = SEPARATION;
        self.rear = 0;
        for i in 0..SHUFFLE {
            self.table[i] = self.step();
        }
        self.last = self.step();
        for _ in 0..WARMUP {
            self.draw();
        }
    }

    /// The generator's next 31-bit output before shuffling.
    fn step(&mut self) -> u32 {
        let sum = self.state[self.front].wrapping_add(self.state[self.rear]);
        self.state[self.front] = sum;
        self.front += 1;
        self.rear += 1;
        if self.front >= DEGREE {
            self.front = 0;
        }
        if self.rear >= DEGREE {
            self.rear = 0;
        }
        (sum >> 1) & 0x7fff_ffff
    }

    /// The next shuffled 31-bit number.
    fn draw(&mut self) -> u32 {
        let slot = self.last as usize % SHUFFLE;
        let value = self.table[slot];
        self.table[slot] = self.step();
        self.last = value;
        value
    }

    /// A number in [0, 1) as gawk's `rand()` makes it.
    pub fn next_f64(&mut self) -> f64 {
        let divisor = 2_147_483_648.0f64;
        loop {
            let d1 = f64::from(self.draw());
            let d2 = f64::from(self.draw());
            let value = 0.5 + ((d1 / divisor + d2) / divisor) - 0.5;
            if value != 1.0 {
                return value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_gawk_first_numbers() {
        let mut random = Random::new(1);
        assert_eq!(format!("{:.17}", random.next_f64()), "0.92404581539912467");
        assert_eq!(format!("{:.17}", random.next_f64()), "0.59390861929587824");
    }

    #[test]
    fn seeds_convert_as_gawk() {
        assert_eq!(seed_of(2.7), 2);
        assert_eq!(seed_of(-2.5), -2);
        assert_eq!(seed_of(1e30), i64::MIN);
        assert_eq!(seed_of(f64::NAN), i64::MIN);
    }
}
