//! The x87 80-bit `long double` that GNU numfmt computes in on x86-64, in
//! software: a sign, a 64-bit mantissa and an exponent, each operation
//! rounded to nearest, ties to even, as the FPU does at its default
//! precision. Values stay far inside the format's exponent range here (at
//! most 27 digits times 1024^8), so there are no infinities or subnormals.
//!
//! `fixed` prints a value as glibc's `%.*Lf` does: its exact decimal
//! expansion rounded to the precision, ties to even.

use std::cmp::Ordering;

/// One `long double`: `mantissa * 2^exponent`, negative when `negative`;
/// the mantissa's top bit is set unless it is zero (the value zero).
#[derive(Debug, Clone, Copy)]
pub struct Extended {
    negative: bool,
    mantissa: u64,
    exponent: i32,
}

/// Rounds `wide * 2^exponent` (with `sticky`: plus a nonzero amount below
/// its last bit) to 64 bits.
fn pack(negative: bool, exponent: i32, wide: u128, sticky: bool) -> Extended {
    if wide == 0 {
        return Extended { negative, mantissa: 0, exponent: 0 };
    }
    let top = 127 - wide.leading_zeros() as i32;
    if top <= 63 {
        let shift = 63 - top;
        return Extended { negative, mantissa: (wide << shift) as u64, exponent: exponent - shift };
    }
    let shift = (top - 63) as u32;
    let mut mantissa = (wide >> shift) as u64;
    let rest = wide & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let mut exponent = exponent + shift as i32;
    if rest > half || (rest == half && (sticky || mantissa & 1 == 1)) {
        mantissa = mantissa.wrapping_add(1);
        if mantissa == 0 {
            mantissa = 1 << 63;
            exponent += 1;
        }
    }
    Extended { negative, mantissa, exponent }
}

impl Extended {
    /// Positive zero.
    pub const ZERO: Extended = Extended { negative: false, mantissa: 0, exponent: 0 };

    /// An unsigned integer, exactly.
    pub fn from_u64(value: u64) -> Extended {
        pack(false, 0, u128::from(value), false)
    }

    /// A signed integer, exactly.
    pub fn from_i64(value: i64) -> Extended {
        pack(value < 0, 0, u128::from(value.unsigned_abs()), false)
    }

    /// True for either zero.
    pub fn is_zero(self) -> bool {
        self.mantissa == 0
    }

    /// The value with its sign flipped.
    pub fn neg(self) -> Extended {
        Extended { negative: !self.negative, ..self }
    }

    /// The absolute value.
    pub fn abs(self) -> Extended {
        Extended { negative: false, ..self }
    }

    /// The sum, rounded.
    pub fn add(self, other: Extended) -> Extended {
        if self.is_zero() {
            if other.is_zero() {
                return Extended { negative: self.negative && other.negative, ..Extended::ZERO };
            }
            return other;
        }
        if other.is_zero() {
            return self;
        }
        let (big, small) =
            if (self.exponent, self.mantissa) >= (other.exponent, other.mantissa) { (self, other) } else { (other, self) };
        let distance = (big.exponent - small.exponent) as u32;
        let big_wide = u128::from(big.mantissa) << 62;
        let small_full = u128::from(small.mantissa) << 62;
        let small_wide = if distance >= 127 {
            1
        } else {
            let shifted = small_full >> distance;
            shifted | u128::from((shifted << distance) != small_full)
        };
        if big.negative == small.negative {
            pack(big.negative, big.exponent - 62, big_wide + small_wide, false)
        } else {
            match big_wide - small_wide {
                0 => Extended::ZERO,
                difference => pack(big.negative, big.exponent - 62, difference, false),
            }
        }
    }

    /// The difference, rounded.
    pub fn sub(self, other: Extended) -> Extended {
        self.add(other.neg())
    }

    /// The product, rounded.
    pub fn mul(self, other: Extended) -> Extended {
        let negative = self.negative != other.negative;
        let wide = u128::from(self.mantissa) * u128::from(other.mantissa);
        pack(negative, self.exponent + other.exponent, wide, false)
    }

    /// The quotient, rounded; dividing by zero gives zero (never asked for).
    pub fn div(self, other: Extended) -> Extended {
        let negative = self.negative != other.negative;
        if self.is_zero() || other.is_zero() {
            return Extended { negative, ..Extended::ZERO };
        }
        let divisor = u128::from(other.mantissa);
        let numerator = u128::from(self.mantissa) << 64;
        let (quotient, remainder) = (numerator / divisor, numerator % divisor);
        let extra = remainder << 2;
        let wide = (quotient << 2) | (extra / divisor);
        pack(negative, self.exponent - 66 - other.exponent, wide, extra % divisor != 0)
    }

    /// Converts to an integer towards zero, as x87's `fistp` with
    /// truncation does: out of range gives `i64::MIN`.
    pub fn trunc_i64(self) -> i64 {
        if self.is_zero() || self.exponent <= -64 {
            return 0;
        }
        if self.exponent >= 0 {
            return i64::MIN;
        }
        let magnitude = (self.mantissa >> (-self.exponent) as u32) as i64;
        if self.negative {
            -magnitude
        } else {
            magnitude
        }
    }

    /// Numeric comparison (the two zeros are equal).
    pub fn compare(self, other: Extended) -> Ordering {
        let magnitude = |x: Extended| if x.is_zero() { None } else { Some((x.exponent, x.mantissa)) };
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (false, true) => return if self.negative { Ordering::Less } else { Ordering::Greater },
            (true, false) => return if other.negative { Ordering::Greater } else { Ordering::Less },
            (false, false) => {}
        }
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => magnitude(self).cmp(&magnitude(other)),
            (true, true) => magnitude(other).cmp(&magnitude(self)),
        }
    }

    /// True when below `other`.
    pub fn less(self, other: Extended) -> bool {
        self.compare(other) == Ordering::Less
    }

    /// The nearest `f64` (for messages printed with `%Lg`).
    pub fn to_f64(self) -> f64 {
        let magnitude = self.mantissa as f64 * 2f64.powi(self.exponent);
        if self.negative {
            -magnitude
        } else {
            magnitude
        }
    }

    /// `base` to the power `exponent` by repeated multiplication, as GNU's
    /// `powerld`.
    pub fn power(base: u64, exponent: u32) -> Extended {
        let factor = Extended::from_u64(base);
        (0..exponent).fold(Extended::from_u64(1), |acc, _| acc.mul(factor))
    }

    /// The text of `%.{precision}Lf` (without padding): the exact decimal
    /// value rounded to `precision` digits after the point, ties to even.
    pub fn fixed(self, precision: usize) -> String {
        let mut number = Big::from_u64(self.mantissa);
        let digits = if self.exponent >= 0 {
            number.shift_left(self.exponent as usize);
            let mut text = number.decimal();
            text.push_str(&"0".repeat(precision));
            text
        } else {
            for _ in 0..precision {
                number.mul_small(10);
            }
            number.shift_right_even((-self.exponent) as usize);
            let text = number.decimal();
            let pad = (precision + 1).saturating_sub(text.len());
            "0".repeat(pad) + &text
        };
        let (whole, fraction) = digits.split_at(digits.len() - precision);
        let sign = if self.negative { "-" } else { "" };
        if precision == 0 {
            format!("{sign}{whole}")
        } else {
            format!("{sign}{whole}.{fraction}")
        }
    }
}

/// A nonnegative integer of any size, little-endian 32-bit limbs, with what
/// `fixed` needs.
struct Big(Vec<u32>);

impl Big {
    fn from_u64(value: u64) -> Big {
        Big(vec![value as u32, (value >> 32) as u32])
    }

    fn mul_small(&mut self, factor: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn shift_left(&mut self, bits: usize) {
        let mut limbs = vec![0u32; bits / 32];
        let offset = bits % 32;
        let mut carry = 0u32;
        for limb in &self.0 {
            if offset == 0 {
                limbs.push(*limb);
            } else {
                limbs.push((limb << offset) | carry);
                carry = limb >> (32 - offset);
            }
        }
        limbs.push(carry);
        self.0 = limbs;
    }

    fn bit(&self, index: usize) -> bool {
        self.0.get(index / 32).is_some_and(|limb| (limb >> (index % 32)) & 1 == 1)
    }

    fn any_below(&self, index: usize) -> bool {
        let whole = index / 32;
        let partial = index % 32;
        self.0.iter().take(whole).any(|limb| *limb != 0)
            || (partial > 0 && self.0.get(whole).is_some_and(|limb| limb & ((1u32 << partial) - 1) != 0))
    }

    /// Divides by `2^bits`, rounding to nearest, ties to even.
    fn shift_right_even(&mut self, bits: usize) {
        let half = bits > 0 && self.bit(bits - 1);
        let sticky = bits > 1 && self.any_below(bits - 1);
        let whole = bits / 32;
        let offset = bits % 32;
        let limbs: Vec<u32> = (whole..self.0.len())
            .map(|at| {
                let low = self.0.get(at).copied().unwrap_or(0);
                let high = self.0.get(at + 1).copied().unwrap_or(0);
                if offset == 0 {
                    low
                } else {
                    (low >> offset) | (high << (32 - offset))
                }
            })
            .collect();
        self.0 = limbs;
        let odd = self.0.first().is_some_and(|limb| limb & 1 == 1);
        if half && (sticky || odd) {
            self.add_one();
        }
    }

    fn add_one(&mut self) {
        for limb in &mut self.0 {
            let (sum, overflow) = limb.overflowing_add(1);
            *limb = sum;
            if !overflow {
                return;
            }
        }
        self.0.push(1);
    }

    /// The decimal digits, at least one.
    fn decimal(&self) -> String {
        let mut limbs = self.0.clone();
        let mut chunks = Vec::new();
        while limbs.iter().any(|limb| *limb != 0) {
            let mut remainder = 0u64;
            for limb in limbs.iter_mut().rev() {
                let current = (remainder << 32) | u64::from(*limb);
                *limb = (current / 1_000_000_000) as u32;
                remainder = current % 1_000_000_000;
            }
            chunks.push(remainder as u32);
        }
        let Some((last, rest)) = chunks.split_last() else { return "0".to_string() };
        let mut text = last.to_string();
        for chunk in rest.iter().rev() {
            text.push_str(&format!("{chunk:09}"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(a: u64, b: u64) -> Extended {
        Extended::from_u64(a).div(Extended::from_u64(b))
    }

    #[test]
    fn rounds_like_the_x87() {
        // 1.023 is not exact; times 1000 it lands just above 1023 in 64 bits.
        let scaled = ratio(1023, 1000).mul(Extended::from_u64(1000));
        assert!(Extended::from_u64(1023).less(scaled));
        assert_eq!(scaled.trunc_i64(), 1023);
        assert_eq!(ratio(1, 3).fixed(20), "0.33333333333333333334");
        assert_eq!(ratio(5, 2).fixed(0), "2");
        assert_eq!(ratio(7, 2).fixed(0), "4");
        assert_eq!(ratio(1, 8).fixed(2), "0.12");
        assert_eq!(Extended::from_i64(-1500).fixed(1), "-1500.0");
        assert_eq!(Extended::power(10, 27).fixed(0), "1000000000000000000000000000");
        assert_eq!(Extended::from_i64(-7).add(Extended::from_u64(7)).fixed(0), "0");
        assert_eq!(Extended::from_u64(u64::MAX).add(Extended::from_u64(1)).fixed(0), "18446744073709551616");
        assert_eq!(Extended::from_u64(10).sub(ratio(1, 4)).fixed(2), "9.75");
        assert_eq!(Extended::from_i64(-3).trunc_i64(), -3);
        assert_eq!(Extended::power(10, 20).trunc_i64(), i64::MIN);
        assert_eq!(ratio(3, 2).to_f64(), 1.5);
    }
}
