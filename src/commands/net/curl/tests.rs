//! curl against the scripted network: options, output, `-w`, redirects and
//! exit statuses.

use crate::commands::test_support::{new_fs, run_utility_with_host, UtilityOutput};
use crate::fs::{Fs, MemoryFs};
use crate::host::fake_fetch::{ScriptedNet, ScriptedResponse};
use crate::host::{FetchError, FetchErrorKind, FixedHost, Host};
use std::rc::Rc;

fn curl(net: &Rc<ScriptedNet>, fs: &MemoryFs, args: &[&str]) -> UtilityOutput {
    let mut argv = vec!["curl"];
    argv.extend_from_slice(args);
    let host: Rc<dyn Host> = net.clone();
    run_utility_with_host(fs, host, &argv, b"")
}

fn net(routes: Vec<(&str, ScriptedResponse)>) -> Rc<ScriptedNet> {
    let mut net = ScriptedNet::new();
    for (url, response) in routes {
        net = net.route(url, response);
    }
    Rc::new(net)
}

fn read(fs: &MemoryFs, path: &str) -> Vec<u8> {
    crate::executor::block_on(fs.read_file(path)).unwrap_or_default()
}

#[test]
fn get_prints_the_body_and_sends_curls_default_headers() {
    let net = net(vec![("http://a.test/x", ScriptedResponse::new(200, b"hello\n"))]);
    let out = curl(&net, &new_fs(), &["a.test/x"]);
    assert_eq!((out.stdout.as_str(), out.stderr.as_str(), out.status), ("hello\n", "", 0));
    let request = &net.requests()[0];
    assert_eq!(request.method, "GET");
    assert_eq!(request.url, "http://a.test/x");
    assert!(request.headers.contains(&("User-Agent".into(), "curl/7.88.1".into())));
    assert!(request.headers.contains(&("Accept".into(), "*/*".into())));
}

#[test]
fn fail_reports_error_22_unless_silent() {
    let net = net(vec![("http://a/404", ScriptedResponse::new(404, b"nope"))]);
    let fs = new_fs();
    let out = curl(&net, &fs, &["-f", "http://a/404"]);
    assert_eq!((out.stdout.as_str(), out.stderr.as_str(), out.status), ("", "curl: (22) The requested URL returned error: 404\n", 22));
    let out = curl(&net, &fs, &["-sf", "http://a/404"]);
    assert_eq!((out.stderr.as_str(), out.status), ("", 22));
    let out = curl(&net, &fs, &["-sSf", "http://a/404"]);
    assert_eq!(out.stderr, "curl: (22) The requested URL returned error: 404\n");
    let out = curl(&net, &fs, &["http://a/404"]);
    assert_eq!((out.stdout.as_str(), out.status), ("nope", 0));
    let out = curl(&net, &fs, &["--fail-with-body", "-s", "http://a/404"]);
    assert_eq!((out.stdout.as_str(), out.status), ("nope", 22));
}

#[test]
fn network_errors_map_to_curls_statuses_and_words() {
    let fs = new_fs();
    let net = Rc::new(
        ScriptedNet::new()
            .fail("http://slow/", FetchError::new(FetchErrorKind::Timeout, ""))
            .fail("http://down:81/", FetchError::new(FetchErrorKind::Connect, ""))
            .route("http://big/", ScriptedResponse::new(200, b"xx").failing(FetchError::new(FetchErrorKind::TooLarge, "").with_limit(10)))
            .route("http://cut/", ScriptedResponse::new(200, b"xx").failing(FetchError::new(FetchErrorKind::Receive, "reset"))),
    );
    let cases: &[(&[&str], &str, i32)] = &[
        (&["nowhere.invalid"], "curl: (6) Could not resolve host: nowhere.invalid\n", 6),
        (&["http://slow/"], "curl: (28) Operation timed out after 0 milliseconds with 0 bytes received\n", 28),
        (&["http://down:81/"], "curl: (7) Failed to connect to down port 81 after 0 ms: Couldn't connect to server\n", 7),
        (&["-o", "/dev/null", "http://big/"], "curl: (63) Maximum file size exceeded (the sandbox's network policy allows 10 bytes)\n", 63),
        (&["-o", "/dev/null", "http://cut/"], "curl: (56) Failure when receiving data from the peer: reset\n", 56),
        (&["ftp://x/"], "curl: (1) Protocol \"ftp\" not supported or disabled in libcurl\n", 1),
        (&["http://:80/"], "curl: (3) URL using bad/illegal format or missing URL\n", 3),
        (&[], "curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information\n", 2),
        (&["--bogus", "x"], "curl: option --bogus: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n", 2),
        (&["-X"], "curl: option -X: requires parameter\ncurl: try 'curl --help' or 'curl --manual' for more information\n", 2),
    ];
    for (args, stderr, status) in cases {
        let out = curl(&net, &fs, args);
        assert_eq!((out.stderr.as_str(), out.status), (*stderr, *status), "curl {args:?}");
    }
}

#[test]
fn a_host_without_network_refuses_with_status_7() {
    let host: Rc<dyn Host> = Rc::new(FixedHost::default());
    let out = run_utility_with_host(&new_fs(), host, &["curl", "-sS", "https://example.com/"], b"");
    assert_eq!(
        (out.stderr.as_str(), out.status),
        ("curl: (7) Failed to connect to example.com port 443: refused by the sandbox's network policy: network access is not enabled (no URL is allowed)\n", 7)
    );
}

#[test]
fn redirects_are_followed_hop_by_hop_with_curls_limits() {
    let net = net(vec![
        ("http://a/1", ScriptedResponse::redirect(302, "/2")),
        ("http://a/2", ScriptedResponse::redirect(301, "http://b/3")),
        ("http://b/3", ScriptedResponse::new(200, b"end")),
    ]);
    let fs = new_fs();
    let out = curl(&net, &fs, &["-sL", "-u", "me:pw", "-w", " %{num_redirects} %{url_effective} %{http_code}", "http://a/1"]);
    assert_eq!((out.stdout.as_str(), out.status), ("end 2 http://b/3 200", 0));
    let requests = net.requests();
    assert_eq!(
        requests.iter().map(|r| (r.url.as_str(), r.redirect_hop)).collect::<Vec<_>>(),
        [("http://a/1", 0), ("http://a/2", 1), ("http://b/3", 2)]
    );
    assert!(requests[1].headers.iter().any(|(k, _)| k == "Authorization"), "kept on the same host");
    assert!(!requests[2].headers.iter().any(|(k, _)| k == "Authorization"), "dropped on another host");
    let out = curl(&net, &fs, &["-L", "--max-redirs", "1", "http://a/1"]);
    assert_eq!((out.stderr.as_str(), out.status), ("curl: (47) Maximum (1) redirects followed\n", 47));
    let out = curl(&net, &fs, &["-s", "-w", "%{http_code} %{redirect_url}", "http://a/1"]);
    assert_eq!(out.stdout, "302 http://a/2");
}

#[test]
fn a_post_redirected_by_303_becomes_a_get_without_body() {
    let net = net(vec![("http://a/form", ScriptedResponse::redirect(303, "/done")), ("http://a/done", ScriptedResponse::new(200, b"ok"))]);
    let out = curl(&net, &new_fs(), &["-sL", "-d", "x=1", "http://a/form"]);
    assert_eq!(out.stdout, "ok");
    let requests = net.requests();
    assert_eq!((requests[0].method.as_str(), requests[0].body.as_slice()), ("POST", b"x=1".as_slice()));
    assert_eq!((requests[1].method.as_str(), requests[1].body.len()), ("GET", 0));
}

#[test]
fn data_options_build_the_body_byte_for_byte() {
    let fs = new_fs();
    let binary: Vec<u8> = (0..=255u8).chain(b"\r\n\0end\n".iter().copied()).collect();
    crate::executor::block_on(fs.write_file("/home/user/bin.dat", &binary)).unwrap();
    crate::executor::block_on(fs.write_file("/home/user/form.txt", b"a=1\nb=2\r\n")).unwrap();
    let net = net(vec![("http://a/", ScriptedResponse::new(200, b""))]);
    curl(&net, &fs, &["--data-binary", "@bin.dat", "http://a/"]);
    curl(&net, &fs, &["-d", "@form.txt", "-d", "c=3", "http://a/"]);
    curl(&net, &fs, &["--data-urlencode", "q=a b&c", "--data-urlencode", "=x/y", "--data-raw", "@lit", "http://a/"]);
    curl(&net, &fs, &["-G", "-d", "k=v", "http://a/"]);
    curl(&net, &fs, &["-T", "bin.dat", "http://a/"]);
    curl(&net, &fs, &["--json", "{\"a\":1}", "http://a/"]);
    let requests = net.requests();
    assert_eq!(requests[0].body, binary);
    assert_eq!(requests[0].method, "POST");
    assert!(requests[0].headers.contains(&("Content-Type".into(), "application/x-www-form-urlencoded".into())));
    assert_eq!(requests[1].body, b"a=1b=2&c=3");
    assert_eq!(String::from_utf8_lossy(&requests[2].body), "q=a%20b%26c&x%2Fy&@lit");
    assert_eq!((requests[3].method.as_str(), requests[3].url.as_str(), requests[3].body.len()), ("GET", "http://a/?k=v", 0));
    assert_eq!((requests[4].method.as_str(), &requests[4].body), ("PUT", &binary));
    assert!(requests[5].headers.contains(&("Content-Type".into(), "application/json".into())));
}

#[test]
fn form_parts_become_multipart() {
    let fs = new_fs();
    crate::executor::block_on(fs.write_file("/home/user/up.txt", b"file body")).unwrap();
    let net = net(vec![("http://a/", ScriptedResponse::new(200, b""))]);
    let out = curl(&net, &fs, &["-F", "name=value", "-F", "file=@up.txt;type=text/plain", "http://a/"]);
    assert_eq!(out.status, 0);
    let request = &net.requests()[0];
    let body = String::from_utf8_lossy(&request.body);
    assert!(body.contains("Content-Disposition: form-data; name=\"name\"\r\n\r\nvalue\r\n"), "{body}");
    assert!(body.contains("filename=\"up.txt\"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n"), "{body}");
    let content_type = request.headers.iter().find(|(k, _)| k == "Content-Type").map(|(_, v)| v.clone()).unwrap_or_default();
    assert!(content_type.starts_with("multipart/form-data; boundary="));
}

#[test]
fn output_files_keep_binary_bodies_exact() {
    let fs = new_fs();
    let binary: Vec<u8> = (0..=255u8).rev().collect();
    let net =
        net(vec![("http://a/dir/f.bin?x=1", ScriptedResponse::new(200, &binary)), ("http://a/dir/", ScriptedResponse::new(200, b""))]);
    assert_eq!(curl(&net, &fs, &["-s", "-o", "out.bin", "http://a/dir/f.bin?x=1"]).status, 0);
    assert_eq!(read(&fs, "/home/user/out.bin"), binary);
    assert_eq!(curl(&net, &fs, &["-sO", "http://a/dir/f.bin?x=1"]).status, 0);
    assert_eq!(read(&fs, "/home/user/f.bin"), binary);
    let out = curl(&net, &fs, &["-sSO", "http://a/dir/"]);
    assert_eq!((out.stderr.as_str(), out.status), ("curl: (23) Remote file name has no length!\n", 23));
    let out = curl(&net, &fs, &["-sS", "-o", "no/such/dir/x", "http://a/dir/"]);
    assert_eq!((out.stderr.as_str(), out.status), ("curl: (23) Failure writing output to destination\n", 23));
    assert_eq!(curl(&net, &fs, &["-s", "--create-dirs", "-o", "new/dir/x", "http://a/dir/f.bin?x=1"]).status, 0);
    assert_eq!(read(&fs, "/home/user/new/dir/x"), binary);
}

#[test]
fn a_body_in_many_chunks_lands_in_order() {
    let fs = new_fs();
    let mut response = ScriptedResponse::new(200, b"first,");
    response.chunks.push(Ok(b"second,".to_vec()));
    response.chunks.push(Ok(b"third".to_vec()));
    let net = net(vec![("http://a/", response)]);
    assert_eq!(curl(&net, &fs, &["-s", "-o", "parts", "http://a/"]).status, 0);
    assert_eq!(read(&fs, "/home/user/parts"), b"first,second,third");
    let host: Rc<dyn Host> = net.clone();
    assert_eq!(run_utility_with_host(&fs, host, &["wget", "-q", "-O", "wparts", "http://a/"], b"").status, 0);
    assert_eq!(read(&fs, "/home/user/wparts"), b"first,second,third");
}

#[test]
fn include_head_and_dump_header() {
    let fs = new_fs();
    let net = net(vec![("http://a/", ScriptedResponse::new(200, b"body").header("Content-Type", "text/plain"))]);
    let out = curl(&net, &fs, &["-si", "http://a/"]);
    assert_eq!(out.stdout, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody");
    let out = curl(&net, &fs, &["-sI", "http://a/"]);
    assert_eq!(out.stdout, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n");
    assert_eq!(net.requests()[1].method, "HEAD");
    curl(&net, &fs, &["-s", "-D", "h.txt", "-o", "/dev/null", "http://a/"]);
    assert_eq!(read(&fs, "/home/user/h.txt"), b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n");
}

#[test]
fn write_out_variables() {
    let net = net(vec![("http://a/x", ScriptedResponse::new(201, b"12345").header("Content-Type", "application/json"))]);
    let out = curl(
        &net,
        &new_fs(),
        &[
            "-s",
            "-o",
            "/dev/null",
            "-X",
            "PUT",
            "-w",
            "%{http_code}|%{size_download}|%{content_type}|%{method}|%{exitcode}|%{scheme}|%{remote_port}\\n",
            "http://a/x",
        ],
    );
    assert_eq!(out.stdout, "201|5|application/json|PUT|0|HTTP|80\n");
    let out = curl(&net, &new_fs(), &["-s", "-w", "%{http_code} %{exitcode} %{errormsg}", "http://nope/"]);
    assert_eq!((out.stdout.as_str(), out.status), ("000 6 Could not resolve host: nope", 6));
}

#[test]
fn headers_from_the_command_line() {
    let net = net(vec![("http://a/", ScriptedResponse::new(200, b""))]);
    curl(
        &net,
        &new_fs(),
        &["-H", "X-One: 1", "-H", "Accept:", "-H", "X-Empty;", "-A", "agent/1", "-e", "http://ref/", "-u", "u:p", "http://a/"],
    );
    let headers = &net.requests()[0].headers;
    assert!(headers.contains(&("X-One".into(), "1".into())));
    assert!(headers.contains(&("X-Empty".into(), "".into())));
    assert!(!headers.iter().any(|(k, _)| k == "Accept"));
    assert!(headers.contains(&("User-Agent".into(), "agent/1".into())));
    assert!(headers.contains(&("Referer".into(), "http://ref/".into())));
    assert!(headers.contains(&("Authorization".into(), "Basic dTpw".into())));
}

#[test]
fn verbose_goes_to_stderr_and_redacts_injected_headers() {
    let net = net(vec![("https://api.test/v1", ScriptedResponse::new(200, b"ok").header("X-Reply", "1").injected("Authorization"))]);
    let out = curl(&net, &new_fs(), &["-sv", "https://api.test/v1"]);
    assert_eq!(out.stdout, "ok");
    assert!(
        out.stderr.starts_with(
            "*   Trying api.test:443...\n* Connected to api.test (api.test) port 443 (#0)\n> GET /v1 HTTP/1.1\n> Host: api.test\n"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("> Authorization: [REDACTED]\n"), "{}", out.stderr);
    assert!(out.stderr.contains("< HTTP/1.1 200 OK\n< X-Reply: 1\n<\n"), "{}", out.stderr);
}

#[test]
fn retry_repeats_transient_failures_then_gives_up() {
    let net = Rc::new(ScriptedNet::new().route("http://a/", ScriptedResponse::new(503, b"busy")));
    let out = curl(&net, &new_fs(), &["--retry", "2", "-o", "/dev/null", "-w", "%{http_code}", "http://a/"]);
    assert_eq!(net.requests().len(), 3);
    assert_eq!(out.stdout, "503");
    assert!(out.stderr.contains("Warning: Problem : HTTP error. Will retry in 1 seconds. 2 retries left.\n"), "{}", out.stderr);
    assert!(out.stderr.contains("Will retry in 2 seconds. 1 retry left.\n"), "{}", out.stderr);
}

#[test]
fn a_closed_pipe_stops_the_transfer() {
    let net = Rc::new(ScriptedNet::new().route("http://a/endless", ScriptedResponse::new(200, b"line 1\n").endless(&[b'x'; 65536])));
    let host: Rc<dyn Host> = net.clone();
    let result = crate::executor::block_on(async {
        let mut sandbox = crate::Sandbox::new(crate::SandboxOptions::default(), host).await;
        sandbox.exec("curl -s http://a/endless | head -1; echo \"${PIPESTATUS[*]}\"", crate::ExecOptions::default()).await
    });
    assert_eq!(String::from_utf8_lossy(&result.stdout), "line 1\n23 0\n");
    assert_eq!(net.cancelled(), 1);
    assert!(net.chunks_read() < 100, "read {} chunks", net.chunks_read());
}
