//! wget against the scripted network.

use crate::commands::test_support::{new_fs, run_utility_with_host, UtilityOutput};
use crate::fs::{Fs, MemoryFs};
use crate::host::fake_fetch::{ScriptedNet, ScriptedResponse};
use crate::host::{FetchError, FetchErrorKind, Host};
use std::rc::Rc;

fn wget(net: &Rc<ScriptedNet>, fs: &MemoryFs, args: &[&str]) -> UtilityOutput {
    let mut argv = vec!["wget"];
    argv.extend_from_slice(args);
    let host: Rc<dyn Host> = net.clone();
    run_utility_with_host(fs, host, &argv, b"")
}

fn site() -> Rc<ScriptedNet> {
    Rc::new(
        ScriptedNet::new()
            .route(
                "http://a/f.txt",
                ScriptedResponse::new(200, b"hello\n").header("Content-Type", "text/plain").header("Content-Length", "6"),
            )
            .route("http://a/", ScriptedResponse::new(200, b"<html>"))
            .route("http://a/404", ScriptedResponse::new(404, b"no"))
            .route("http://a/old", ScriptedResponse::redirect(301, "/f.txt"))
            .fail("http://slow/", FetchError::new(FetchErrorKind::Timeout, "")),
    )
}

#[test]
fn quiet_to_stdout() {
    let out = wget(&site(), &new_fs(), &["-q", "-O", "-", "http://a/f.txt"]);
    assert_eq!((out.stdout.as_str(), out.stderr.as_str(), out.status), ("hello\n", "", 0));
}

#[test]
fn saves_under_the_url_name_then_name_1() {
    let fs = new_fs();
    let net = site();
    let out = wget(&net, &fs, &["http://a/f.txt"]);
    assert_eq!(out.status, 0);
    assert!(
        out.stderr.contains("HTTP request sent, awaiting response... 200 OK\nLength: 6 [text/plain]\nSaving to: \u{2018}f.txt\u{2019}\n"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("\u{2018}f.txt\u{2019} saved [6/6]"), "{}", out.stderr);
    assert_eq!(wget(&net, &fs, &["-q", "http://a/f.txt"]).status, 0);
    assert_eq!(wget(&net, &fs, &["-q", "http://a/"]).status, 0);
    for (path, body) in [("/home/user/f.txt", &b"hello\n"[..]), ("/home/user/f.txt.1", b"hello\n"), ("/home/user/index.html", b"<html>")] {
        assert_eq!(crate::executor::block_on(fs.read_file(path)).unwrap(), body, "{path}");
    }
}

#[test]
fn errors_use_wgets_statuses() {
    let fs = new_fs();
    let net = site();
    let out = wget(&net, &fs, &["-q", "http://a/404"]);
    assert_eq!((out.stderr.as_str(), out.status), ("", 8));
    let out = wget(&net, &fs, &["-q", "http://nowhere/"]);
    assert_eq!((out.stderr.as_str(), out.status), ("wget: unable to resolve host address \u{2018}nowhere\u{2019}\n", 4));
    assert_eq!(wget(&net, &fs, &["-q", "-O", "-", "http://slow/"]).status, 4);
    assert_eq!(wget(&net, &fs, &["--bogus"]).status, 2);
    assert_eq!(wget(&net, &fs, &[]).status, 1);
}

#[test]
fn post_headers_redirects_and_server_response() {
    let fs = new_fs();
    let net = site();
    let out = wget(&net, &fs, &["-q", "-S", "-O", "-", "--header", "X-A: 1", "--post-data", "k=v", "http://a/old"]);
    assert_eq!(out.stdout, "hello\n");
    assert!(out.stderr.contains("  HTTP/1.1 301 Moved Permanently\n  Location: /f.txt\n  HTTP/1.1 200 OK\n"), "{}", out.stderr);
    let requests = net.requests();
    assert_eq!((requests[0].method.as_str(), requests[0].body.as_slice()), ("POST", b"k=v".as_slice()));
    assert!(requests[0].headers.contains(&("X-A".into(), "1".into())));
    assert_eq!(requests[1].method, "GET");
}
