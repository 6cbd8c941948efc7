//! Arbitrary-precision decimal numbers with bc's scale rules: a sign, a
//! decimal mantissa and a scale (digits after the point). Every operation
//! truncates toward zero as GNU bc's number library does; results equal
//! the exact value cut at the scale each operation defines.

use std::cmp::Ordering;

/// A decimal number: `digits` (most significant first, no leading zeros,
/// empty for zero) divided by `10^scale`, negative when `neg`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Num {
    neg: bool,
    digits: Vec<u8>,
    scale: usize,
}

/// Why an operation has no result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumError {
    /// Division or remainder by zero.
    DivideByZero,
    /// Square root of a negative number.
    NegativeSqrt,
}

fn trim(mut digits: Vec<u8>) -> Vec<u8> {
    let zeros = digits.iter().take_while(|d| **d == 0).count();
    digits.drain(..zeros);
    digits
}

fn cmp_mag(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn add_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let (mut i, mut j, mut carry) = (a.len(), b.len(), 0u8);
    while i > 0 || j > 0 || carry > 0 {
        let mut sum = carry;
        if i > 0 {
            i -= 1;
            sum += a[i];
        }
        if j > 0 {
            j -= 1;
            sum += b[j];
        }
        out.push(sum % 10);
        carry = sum / 10;
    }
    out.reverse();
    trim(out)
}

/// `a - b` for `a >= b`.
fn sub_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len());
    let (mut i, mut j, mut borrow) = (a.len(), b.len(), 0i8);
    while i > 0 {
        i -= 1;
        let mut d = a[i] as i8 - borrow;
        if j > 0 {
            j -= 1;
            d -= b[j] as i8;
        }
        borrow = 0;
        if d < 0 {
            d += 10;
            borrow = 1;
        }
        out.push(d as u8);
    }
    out.reverse();
    trim(out)
}

fn mul_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut acc = vec![0u64; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate().rev() {
        if x == 0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate().rev() {
            acc[i + j + 1] += u64::from(x) * u64::from(y);
        }
        // Keep the accumulators small.
        if i % 64 == 0 {
            carry_all(&mut acc);
        }
    }
    carry_all(&mut acc);
    trim(acc.into_iter().map(|d| d as u8).collect())
}

fn carry_all(acc: &mut [u64]) {
    let mut carry = 0u64;
    for slot in acc.iter_mut().rev() {
        let v = *slot + carry;
        *slot = v % 10;
        carry = v / 10;
    }
}

/// `a / b` (truncated) for nonzero `b`.
fn div_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    if cmp_mag(a, b) == Ordering::Less {
        return Vec::new();
    }
    // Multiples 1..9 of b, for quotient digit selection.
    let multiples: Vec<Vec<u8>> = (1..10u8).map(|k| mul_small(b, u32::from(k))).collect();
    let mut quotient = Vec::with_capacity(a.len());
    let mut rem: Vec<u8> = Vec::with_capacity(b.len() + 1);
    for &d in a {
        rem.push(d);
        if rem.first() == Some(&0) {
            rem = trim(std::mem::take(&mut rem));
        }
        let mut q = 0;
        while q < 9 && cmp_mag(&rem, &multiples[q]) != Ordering::Less {
            q += 1;
        }
        if q > 0 {
            rem = sub_mag(&rem, &multiples[q - 1]);
        }
        quotient.push(q as u8);
    }
    trim(quotient)
}

fn mul_small(a: &[u8], k: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len() + 10);
    let mut carry = 0u64;
    for &d in a.iter().rev() {
        let v = u64::from(d) * u64::from(k) + carry;
        out.push((v % 10) as u8);
        carry = v / 10;
    }
    while carry > 0 {
        out.push((carry % 10) as u8);
        carry /= 10;
    }
    out.reverse();
    trim(out)
}

/// `(a / k, a % k)` for a small nonzero `k`.
fn divmod_small(a: &[u8], k: u64) -> (Vec<u8>, u64) {
    let mut out = Vec::with_capacity(a.len());
    let mut rem = 0u64;
    for &d in a {
        let v = rem * 10 + u64::from(d);
        out.push((v / k) as u8);
        rem = v % k;
    }
    (trim(out), rem)
}

fn shift(mut a: Vec<u8>, zeros: usize) -> Vec<u8> {
    if !a.is_empty() {
        a.resize(a.len() + zeros, 0);
    }
    a
}

fn isqrt(n: &[u8]) -> Vec<u8> {
    if n.is_empty() {
        return Vec::new();
    }
    // Newton's iteration from an over-estimate.
    let mut x = shift(vec![1], n.len().div_ceil(2));
    loop {
        let y = divmod_small(&add_mag(&x, &div_mag(n, &x)), 2).0;
        if cmp_mag(&y, &x) != Ordering::Less {
            return x;
        }
        x = y;
    }
}

impl Num {
    /// Zero.
    pub fn zero() -> Num {
        Num::default()
    }

    /// A small integer.
    pub fn from_i64(value: i64) -> Num {
        let digits = trim(value.unsigned_abs().to_string().bytes().map(|b| b - b'0').collect());
        Num { neg: value < 0 && !digits.is_empty(), digits, scale: 0 }
    }

    fn make(neg: bool, digits: Vec<u8>, scale: usize) -> Num {
        let digits = trim(digits);
        Num { neg: neg && !digits.is_empty(), digits, scale }
    }

    /// Parses a decimal constant (`12.50`, `.5`); `None` if malformed.
    pub fn parse_decimal(text: &str) -> Option<Num> {
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
        Some(Num::make(false, digits, frac.len()))
    }

    /// The number's scale.
    pub fn scale(&self) -> usize {
        self.scale
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// True when negative.
    pub fn is_neg(&self) -> bool {
        self.neg
    }

    /// The number with its sign flipped.
    pub fn negate(&self) -> Num {
        Num { neg: !self.neg && !self.is_zero(), ..self.clone() }
    }

    /// The absolute value.
    pub fn abs(&self) -> Num {
        Num { neg: false, ..self.clone() }
    }

    /// The integer digits (most significant first, empty for zero).
    fn int_digits(&self) -> &[u8] {
        &self.digits[..self.digits.len().saturating_sub(self.scale)]
    }

    /// The fraction digits, padded to the scale.
    fn frac_digits(&self) -> Vec<u8> {
        let have = self.digits.len().min(self.scale);
        let mut out = vec![0; self.scale - have];
        out.extend_from_slice(&self.digits[self.digits.len() - have..]);
        out
    }

    /// The mantissa at scale `scale` (which must be >= the number's).
    fn mantissa_at(&self, scale: usize) -> Vec<u8> {
        shift(self.digits.clone(), scale.saturating_sub(self.scale))
    }

    /// The number cut (toward zero) or extended to `scale` digits.
    pub fn rescale(&self, scale: usize) -> Num {
        if scale >= self.scale {
            return Num::make(self.neg, self.mantissa_at(scale), scale);
        }
        let drop = self.scale - scale;
        let keep = self.digits.len().saturating_sub(drop);
        Num::make(self.neg, self.digits[..keep].to_vec(), scale)
    }

    /// Compares values.
    pub fn cmp_value(&self, other: &Num) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => return Ordering::Greater,
            (true, false) => return Ordering::Less,
            _ => {}
        }
        let scale = self.scale.max(other.scale);
        let mag = cmp_mag(&self.mantissa_at(scale), &other.mantissa_at(scale));
        if self.neg {
            mag.reverse()
        } else {
            mag
        }
    }

    /// `self + other` at the larger scale.
    pub fn add(&self, other: &Num) -> Num {
        let scale = self.scale.max(other.scale);
        let (a, b) = (self.mantissa_at(scale), other.mantissa_at(scale));
        if self.neg == other.neg {
            return Num::make(self.neg, add_mag(&a, &b), scale);
        }
        match cmp_mag(&a, &b) {
            Ordering::Less => Num::make(other.neg, sub_mag(&b, &a), scale),
            _ => Num::make(self.neg, sub_mag(&a, &b), scale),
        }
    }

    /// `self - other` at the larger scale.
    pub fn sub(&self, other: &Num) -> Num {
        self.add(&other.negate())
    }

    /// `self * other` at bc's product scale for the current `scale`.
    pub fn mul(&self, other: &Num, scale: usize) -> Num {
        let full = self.scale + other.scale;
        let result = full.min(scale.max(self.scale).max(other.scale));
        Num::make(self.neg != other.neg, mul_mag(&self.digits, &other.digits), full).rescale(result)
    }

    /// `self / other` with `scale` digits after the point.
    pub fn div(&self, other: &Num, scale: usize) -> Result<Num, NumError> {
        if other.is_zero() {
            return Err(NumError::DivideByZero);
        }
        let num = shift(self.digits.clone(), scale + other.scale);
        let den = shift(other.digits.clone(), self.scale);
        Ok(Num::make(self.neg != other.neg, div_mag(&num, &den), scale))
    }

    /// `self % other` as bc computes it: `self - (self / other) * other`
    /// with the quotient at `scale`.
    pub fn rem(&self, other: &Num, scale: usize) -> Result<Num, NumError> {
        let rscale = self.scale.max(other.scale + scale);
        let quotient = self.div(other, scale)?;
        let product = quotient.mul(other, rscale);
        Ok(self.sub(&product).rescale_at_least(rscale))
    }

    fn rescale_at_least(&self, scale: usize) -> Num {
        if self.scale >= scale {
            self.clone()
        } else {
            self.rescale(scale)
        }
    }

    /// `self ^ exponent` for an integer exponent at the current `scale`.
    pub fn pow(&self, exponent: i64, scale: usize) -> Result<Num, NumError> {
        if exponent == 0 {
            return Ok(Num::from_i64(1));
        }
        let magnitude = exponent.unsigned_abs();
        let mut result = Num::from_i64(1);
        let mut base = self.clone();
        let mut e = magnitude;
        while e > 0 {
            if e & 1 == 1 {
                result = result.mul(&base, usize::MAX / 4);
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(&base, usize::MAX / 4);
            }
        }
        if exponent < 0 {
            return Num::from_i64(1).div(&result, scale);
        }
        let full = (self.scale as u64).saturating_mul(magnitude);
        let rscale = full.min(scale.max(self.scale) as u64) as usize;
        Ok(result.rescale(rscale))
    }

    /// The number of digits `self ^ exponent` would have, for limits.
    pub fn pow_digits(&self, exponent: u64) -> u64 {
        (self.digits.len() as u64).saturating_mul(exponent)
    }

    /// The square root with `max(scale, self.scale)` digits.
    pub fn sqrt(&self, scale: usize) -> Result<Num, NumError> {
        if self.neg {
            return Err(NumError::NegativeSqrt);
        }
        if self.is_zero() {
            return Ok(Num::zero());
        }
        if self.cmp_value(&Num::from_i64(1)) == Ordering::Equal {
            return Ok(Num::from_i64(1));
        }
        let rscale = scale.max(self.scale);
        let radicand = self.mantissa_at(2 * rscale);
        let radicand = if self.scale > 2 * rscale { self.rescale(2 * rscale).digits } else { radicand };
        Ok(Num::make(false, isqrt(&radicand), rscale))
    }

    /// bc's `length`: significant digits.
    pub fn length(&self) -> usize {
        if self.is_zero() {
            return if self.scale == 0 { 1 } else { self.scale };
        }
        let int = self.int_digits().len();
        if int == 0 {
            self.scale
        } else {
            int + self.scale
        }
    }

    /// The integer part as an `i64`, `None` when it does not fit.
    pub fn to_i64(&self) -> Option<i64> {
        let mut value: i64 = 0;
        for &d in self.int_digits() {
            value = value.checked_mul(10)?.checked_add(i64::from(d))?;
        }
        Some(if self.neg { -value } else { value })
    }

    /// The integer part saturated to `i64` (bc's `num2long` clamps to 0 on overflow).
    pub fn to_long_or_zero(&self) -> i64 {
        self.to_i64().unwrap_or(0)
    }

    /// The number truncated to an integer.
    pub fn trunc(&self) -> Num {
        self.rescale(0)
    }

    /// Builds a number from digit values in `base` (`int` and `frac`),
    /// bc's way: the fraction is `frac / base^len` at scale `len`.
    pub fn from_base(int: &[u32], frac: &[u32], base: u32) -> Num {
        let mut value: Vec<u8> = Vec::new();
        for &d in int {
            value = add_mag(&mul_small(&value, base), &Num::from_i64(i64::from(d)).digits);
        }
        let int_num = Num::make(false, value, 0);
        if frac.is_empty() {
            return int_num;
        }
        let mut top: Vec<u8> = Vec::new();
        let mut power: Vec<u8> = vec![1];
        for &d in frac {
            top = add_mag(&mul_small(&top, base), &Num::from_i64(i64::from(d)).digits);
            power = mul_small(&power, base);
        }
        let top = Num::make(false, top, 0);
        let power = Num::make(false, power, 0);
        let fraction = top.div(&power, frac.len()).unwrap_or_default();
        int_num.add(&fraction)
    }

    /// Writes the number in base `base` the way bc prints it (without line
    /// breaking): `-`, integer digits (none for `0.x`), `.` and as many
    /// fraction digits as the base needs for the scale.
    pub fn format(&self, base: u64) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        if base == 10 {
            for &d in self.int_digits() {
                out.push(char::from(b'0' + d));
            }
            if self.scale > 0 {
                out.push('.');
                for d in self.frac_digits() {
                    out.push(char::from(b'0' + d));
                }
            }
            return out;
        }
        let width = (base - 1).to_string().len();
        let digit = |out: &mut String, value: u64, space: bool| {
            if base <= 16 {
                out.push(char::from(b"0123456789ABCDEF"[value as usize % 16]));
            } else {
                if space {
                    out.push(' ');
                }
                out.push_str(&format!("{value:0width$}"));
            }
        };
        let mut int = self.int_digits().to_vec();
        let mut stack = Vec::new();
        while !int.is_empty() {
            let (q, r) = divmod_small(&int, base);
            stack.push(r);
            int = q;
        }
        for &value in stack.iter().rev() {
            digit(&mut out, value, true);
        }
        if self.scale > 0 {
            out.push('.');
            let mut frac = Num::make(false, self.frac_digits(), self.scale);
            let base_num = Num::make(false, Num::from_i64(base as i64).digits, 0);
            let mut t: Vec<u8> = vec![1];
            let mut first = true;
            while t.len() <= self.scale {
                frac = frac.mul(&base_num, self.scale);
                let whole = frac.trunc();
                let value = whole.to_i64().unwrap_or(0) as u64;
                frac = frac.sub(&whole);
                digit(&mut out, value, !first);
                first = false;
                t = mul_small(&t, base as u32);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Num {
        match text.strip_prefix('-') {
            Some(rest) => Num::parse_decimal(rest).unwrap().negate(),
            None => Num::parse_decimal(text).unwrap(),
        }
    }

    #[test]
    fn arithmetic_follows_bc_scales() {
        assert_eq!(n("1").div(&n("3"), 5).unwrap().format(10), ".33333");
        assert_eq!(n("-1").div(&n("3"), 5).unwrap().format(10), "-.33333");
        assert_eq!(n("4").div(&n("2"), 5).unwrap().format(10), "2.00000");
        assert_eq!(n("5").rem(&n("-3"), 2).unwrap().format(10), ".02");
        assert_eq!(n("1.5").pow(3, 0).unwrap().format(10), "3.3");
        assert_eq!(n("2").pow(-2, 3).unwrap().format(10), ".250");
        assert_eq!(n("2").sqrt(10).unwrap().format(10), "1.4142135623");
        assert_eq!(n("0.000").format(10), "0");
        assert_eq!(n("00012.3400").format(10), "12.3400");
        assert_eq!(n("1.1").mul(&n("20"), 0).format(10), "22.0");
    }

    #[test]
    fn other_bases() {
        assert_eq!(n("255").format(16), "FF");
        assert_eq!(n("-255.5").format(16), "-FF.8");
        assert_eq!(n("123456.789").format(100), " 12 34 56.78 90");
        assert_eq!(n(".1").format(2), ".0001");
        assert_eq!(Num::from_base(&[1, 15], &[8], 16).format(10), "31.5");
    }
}
