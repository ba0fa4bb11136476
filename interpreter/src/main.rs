//! The `regel` binary: a thin shell around [`regel::cli::run`].

use std::io::IsTerminal;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let stdin = std::io::stdin();
    let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let mut input = stdin.lock();
    let mut io = regel::cli::Io { out: &mut out, err: &mut err, input: &mut input, color, root: None };
    let code = regel::cli::run(&args, &mut io);
    std::process::exit(code);
}
