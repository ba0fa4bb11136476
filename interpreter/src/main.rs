//! The `regel` binary: a thin shell around [`regel::cli::run`].

#![forbid(unsafe_code)]

use std::io::IsTerminal;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // The language server reads stdin on a thread of its own, so it must
    // start before stdin is locked for the other commands below.
    if args.get(1).map(String::as_str) == Some("lsp") && args.len() == 2 {
        std::process::exit(regel::lsp::run_stdio());
    }
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // stdout and stderr are passed unlocked: `simulate` draws its progress bar
    // on stderr from worker threads, and a lock held here for the whole run
    // would make them wait for ever whenever stderr is a terminal.
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut io = regel::cli::Io {
        out: &mut out,
        err: &mut err,
        input: &mut input,
        color,
        root: None,
        term: std::io::stdout().is_terminal(),
    };
    let code = regel::cli::run(&args, &mut io);
    std::process::exit(code);
}
