//! Text utilities: counting and slicing lines and bytes (`wc`, `head`,
//! `tail`).

pub mod count;
pub mod grep;
pub mod head;
pub mod input;
pub mod regex;
pub mod sed;
pub mod tail;
pub mod wc;
