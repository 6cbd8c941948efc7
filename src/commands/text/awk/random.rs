//! gawk's `rand()`: the BSD additive-feedback generator gawk carries
//! (a 63-word state seeded through the Park-Miller recurrence), so seeded
//! sequences match gawk's numbers.

const DEGREE: usize = 63;
const SEPARATION: usize = 1;

/// The generator state.
pub struct Random {
    state: [u32; DEGREE],
    front: usize,
    rear: usize,
}

fn good_rand(x: i64) -> i64 {
    let x = if x == 0 { 123_459_876 } else { x };
    let hi = x / 127_773;
    let lo = x % 127_773;
    let mut x = 16_807 * lo - 2_836 * hi;
    if x < 0 {
        x += 0x7fff_ffff;
    }
    x
}

impl Random {
    /// A generator seeded with `seed` (gawk starts with 1).
    pub fn new(seed: u32) -> Random {
        let mut random = Random { state: [0; DEGREE], front: SEPARATION, rear: 0 };
        random.seed(seed);
        random
    }

    /// Reseeds (`srandom`).
    pub fn seed(&mut self, seed: u32) {
        self.state[0] = seed;
        for i in 1..DEGREE {
            self.state[i] = good_rand(i64::from(self.state[i - 1])) as u32;
        }
        self.front = SEPARATION;
        self.rear = 0;
        for _ in 0..10 * DEGREE {
            self.next_raw();
        }
    }

    /// The next 31-bit number (`random()`).
    pub fn next_raw(&mut self) -> u32 {
        let sum = self.state[self.front].wrapping_add(self.state[self.rear]);
        self.state[self.front] = sum;
        let value = (sum >> 1) & 0x7fff_ffff;
        self.front += 1;
        if self.front >= DEGREE {
            self.front = 0;
            self.rear += 1;
        } else {
            self.rear += 1;
            if self.rear >= DEGREE {
                self.rear = 0;
            }
        }
        value
    }

    /// A number in [0, 1) as gawk's `rand()` makes it.
    pub fn next_f64(&mut self) -> f64 {
        let divisor = 2147483648.0f64;
        loop {
            let d1 = f64::from(self.next_raw());
            let d2 = f64::from(self.next_raw());
            let value = 0.5 + ((d1 / divisor + d2) / divisor) - 0.5;
            if value != 1.0 {
                return value;
            }
        }
    }
}
