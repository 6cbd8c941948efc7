//! Text utilities: counting and slicing lines and bytes (`wc`, `head`,
//! `tail`), dumping (`od`), reversing (`tac`), translating (`tr`),
//! sorting (`sort`) and evaluating (`expr`).

pub mod bre;
pub mod count;
pub mod cut;
pub mod expr;
pub mod head;
pub mod input;
pub mod od;
pub mod od_format;
pub mod output;
pub mod sort;
pub mod sort_compare;
pub mod sort_key;
pub mod tac;
pub mod tail;
pub mod tr;
pub mod tr_sets;
pub mod uniq;
pub mod wc;
