//! Text utilities: counting, slicing, dumping, reversing, translating,
//! sorting, comparing, joining, numbering, folding and evaluating (`wc`,
//! `head`, `tail`, `od`, `tac`, `tr`, `sort`, `expr`, `uniq`, `cut`, `paste`,
//! `rev`, `nl`, `comm`, `tee`, `fold`, `join`, `xargs`, `column`, `expand`,
//! `unexpand`, `shuf`).

pub mod awk;
pub mod cmp;
pub mod column;
pub mod comm;
pub mod count;
pub mod csplit;
pub mod cut;
pub mod diff;
pub mod expand;
pub mod expr;
pub mod fmt;
pub mod fold;
pub mod grep;
pub mod head;
pub mod hexdump;
pub mod iconv;
pub mod input;
pub mod jq;
pub mod join;
pub mod nl;
pub mod numfmt;
pub mod od;
pub mod od_format;
pub mod output;
pub mod paste;
pub mod patch;
pub mod pr;
pub mod rev;
pub mod rg;
pub mod sed;
pub mod shuf;
pub mod sort;
pub mod strings;
pub mod sort_compare;
pub mod sort_key;
pub mod sort_plain;
pub mod tac;
pub mod tail;
pub mod tee;
pub mod tr;
pub mod tr_sets;
pub mod uniq;
pub mod wc;
pub mod envsubst;
pub mod look;
pub mod pager;
pub mod tsort;
pub mod xxd;
pub mod xargs;
pub mod xargs_input;
