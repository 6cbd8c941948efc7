//! Calculators: `bc` (GNU bc 1.07) and `dc`, on one decimal number type.

pub mod bc;
pub mod dc;
pub mod num;
