//! A debugging aid: `PARSE_SRC='echo hi' cargo test --test parse_dump -- --nocapture`
//! prints the tree (and the printed form) of the given source.

use wabash::syntax::{parse, print, ParseOptions};

#[test]
fn dump_source_from_environment() {
    let Ok(source) = std::env::var("PARSE_SRC") else { return };
    match parse(&source, &ParseOptions::default()) {
        Ok(list) => {
            println!("{list:#?}");
            println!("printed: {}", print(&list));
        }
        Err(error) => print!("{}", error.render("bash: -c")),
    }
}
