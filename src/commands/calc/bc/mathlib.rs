//! The math library `bc -l` loads: `s` (sine), `c` (cosine), `a`
//! (arctangent), `l` (natural log), `e` (exponential) and `j` (Bessel),
//! computed natively with the same working scales and series GNU bc's
//! library uses, so results agree digit for digit.

use crate::commands::calc::num::Num;

fn n(text: &str) -> Num {
    Num::parse_decimal(text).unwrap_or_default()
}

fn int(value: i64) -> Num {
    Num::from_i64(value)
}

fn div(a: &Num, b: &Num, scale: usize) -> Num {
    a.div(b, scale).unwrap_or_default()
}

/// bc's `scale = expr` truncation of a scale-computing expression.
fn as_scale(value: &Num) -> usize {
    value.to_i64().unwrap_or(0).max(0) as usize
}

/// Calls library function `name` with `args` at scale `scale`; `None` for
/// an unknown name or a wrong argument count.
pub fn call(name: &str, args: &[Num], scale: i64) -> Option<Num> {
    let z = scale.max(0) as usize;
    match (name, args) {
        ("e", [x]) => Some(exp(x, z)),
        ("l", [x]) => Some(ln(x, z)),
        ("s", [x]) => Some(sin(x, z)),
        ("c", [x]) => Some(cos(x, z)),
        ("a", [x]) => Some(atan(x, z)),
        ("j", [order, x]) => Some(bessel(order, x, z)),
        _ => None,
    }
}

fn exp(x: &Num, z: usize) -> Num {
    let negative = x.is_neg();
    let mut x = x.abs();
    let n = int(6 + z as i64).add(&n(".44").mul(&x, z));
    let mut scale = x.scale() + 1;
    let mut halvings = 0u32;
    let one = int(1);
    while x.cmp_value(&one).is_gt() {
        halvings += 1;
        x = div(&x, &int(2), scale);
        scale += 1;
    }
    let scale = as_scale(&n);
    let mut v = one.add(&x);
    let mut a = x.clone();
    let mut d = int(1);
    let mut i = 2;
    loop {
        a = a.mul(&x, scale);
        d = d.mul(&int(i), scale);
        let e = div(&a, &d, scale);
        if e.is_zero() {
            for _ in 0..halvings {
                v = v.mul(&v, scale);
            }
            return if negative { div(&one, &v, z) } else { div(&v, &one, z) };
        }
        v = v.add(&e);
        i += 1;
    }
}

fn ln(x: &Num, z: usize) -> Num {
    let one = int(1);
    if !x.cmp_value(&Num::zero()).is_gt() {
        let power = int(10).pow(z as i64, z).unwrap_or_default();
        return div(&one.sub(&power), &one, z);
    }
    let scale = z + 6;
    let mut f = int(2);
    let mut x = x.clone();
    let two = int(2);
    while x.cmp_value(&two).is_ge() {
        f = f.mul(&two, scale);
        x = x.sqrt(scale).unwrap_or_default();
    }
    let half = n(".5");
    while x.cmp_value(&half).is_le() {
        f = f.mul(&two, scale);
        x = x.sqrt(scale).unwrap_or_default();
    }
    let mut term = div(&x.sub(&one), &x.add(&one), scale);
    let mut v = term.clone();
    let m = term.mul(&term, scale);
    let mut i = 3;
    loop {
        term = term.mul(&m, scale);
        let e = div(&term, &int(i), scale);
        if e.is_zero() {
            let v = f.mul(&v, scale);
            return div(&v, &one, z);
        }
        v = v.add(&e);
        i += 2;
    }
}

fn sin(x: &Num, z: usize) -> Num {
    let one = int(1);
    let working = as_scale(&n("1.1").mul(&int(z as i64), z).add(&int(2)));
    let quarter = atan(&one, working);
    let negative = x.is_neg();
    let x = x.abs();
    let turns = div(&div(&x, &quarter, 0).add(&int(2)), &int(4), 0);
    let mut x = x.sub(&int(4).mul(&turns, 0).mul(&quarter, 0));
    if !turns.rem(&int(2), 0).unwrap_or_default().is_zero() {
        x = x.negate();
    }
    let scale = z + 2;
    let mut v = x.clone();
    let mut e = x.clone();
    let s = x.negate().mul(&x, scale);
    let mut i: i64 = 3;
    loop {
        let step = div(&s, &int(i * (i - 1)), scale);
        e = e.mul(&step, scale);
        if e.is_zero() {
            return if negative { div(&v.negate(), &one, z) } else { div(&v, &one, z) };
        }
        v = v.add(&e);
        i += 2;
    }
}

fn cos(x: &Num, z: usize) -> Num {
    let working = as_scale(&int(z as i64).mul(&n("1.2"), z));
    let shifted = x.add(&atan(&int(1), working).mul(&int(2), working));
    let v = sin(&shifted, working);
    div(&v, &int(1), z)
}

const ATAN_ONE: [&str; 3] = [
    ".7853981633974483096156608",
    ".7853981633974483096156608458198757210492",
    ".785398163397448309615660845819875721049292349843776455243736",
];
const ATAN_FIFTH: [&str; 3] = [
    ".1973955598498807583700497",
    ".1973955598498807583700497651947902934475",
    ".197395559849880758370049765194790293447585103787852101517688",
];

fn atan(x: &Num, z: usize) -> Num {
    let m = if x.is_neg() { int(-1) } else { int(1) };
    let mut x = x.abs();
    let fifth = n(".2");
    for (value, table) in [(int(1), &ATAN_ONE), (fifth.clone(), &ATAN_FIFTH)] {
        if x.cmp_value(&value).is_eq() {
            let pick = if z <= 25 {
                Some(table[0])
            } else if z <= 40 {
                Some(table[1])
            } else if z <= 60 {
                Some(table[2])
            } else {
                None
            };
            if let Some(text) = pick {
                return div(&n(text), &m, z);
            }
        }
    }
    let mut a = Num::zero();
    if x.cmp_value(&fifth).is_gt() {
        a = atan(&fifth, z + 5);
    }
    let scale = z + 3;
    let mut f = 0i64;
    let one = int(1);
    while x.cmp_value(&fifth).is_gt() {
        f += 1;
        x = div(&x.sub(&fifth), &one.add(&x.mul(&fifth, scale)), scale);
    }
    let mut v = x.clone();
    let mut term = x.clone();
    let s = x.mul(&x, scale).negate();
    let mut i = 3;
    loop {
        term = term.mul(&s, scale);
        let e = div(&term, &int(i), scale);
        if e.is_zero() {
            let total = int(f).mul(&a, z).add(&v);
            return div(&total, &m, z);
        }
        v = v.add(&e);
        i += 2;
    }
}

fn bessel(order: &Num, x: &Num, z: usize) -> Num {
    let one = int(1);
    let mut order = div(order, &one, 0);
    let mut negate = false;
    if order.is_neg() {
        order = order.negate();
        negate = order.rem(&int(2), 0).unwrap_or_default().cmp_value(&one).is_eq();
    }
    let count = order.to_i64().unwrap_or(0);
    let mut factorial = int(1);
    for i in 2..=count {
        factorial = factorial.mul(&int(i), 0);
    }
    let scale = as_scale(&n("1.5").mul(&int(z as i64), 0));
    let power = x.pow(count, scale).unwrap_or_default();
    let two_power = int(2).pow(count, scale).unwrap_or_default();
    let f = div(&div(&power, &two_power, scale), &factorial, scale);
    let mut v = int(1);
    let mut e = int(1);
    let s = div(&x.negate().mul(x, scale), &int(4), scale);
    let working = n("1.5").mul(&int(z as i64), scale).add(&int(f.length() as i64)).sub(&int(f.scale() as i64));
    let scale = as_scale(&working);
    let mut i = 1i64;
    loop {
        e = div(&div(&e.mul(&s, scale), &int(i), scale), &int(count + i), scale);
        if e.is_zero() {
            let f = if negate { f.negate() } else { f };
            return div(&f.mul(&v, z), &one, z);
        }
        v = v.add(&e);
        i += 1;
    }
}
