//! Which files Regel reads, and how. A ruleset names other files (its
//! board, the base of a variant); a stranger's ruleset must not use that to
//! read what it has no business reading, or to hang or exhaust the host.
//!
//! - Only regular files are read: a device (`/dev/zero`), a FIFO or a folder
//!   is refused before it is opened, so nothing blocks or reads forever.
//! - Reads are capped at [`MAX_FILE_BYTES`].
//! - Files a ruleset names must lie under the *root*: the folder given with
//!   `--root`; else the project's root, the nearest folder above the file
//!   named on the command line that holds a [`PROJECT_MARKER`] file or is a
//!   git repository; else the current folder when that file lies inside it;
//!   else that file's own folder. Absolute paths and `..` that leave the root
//!   are refused. The refusal names the path, never the content.
//! - A file read because of another never decides the root. A scenario's
//!   root is found from the scenario. A record is data someone may have sent:
//!   the ruleset it names is read only under `--root`, else under the
//!   project the current folder lies in (where the user works), else under
//!   the record's own root ([`record_root`]); so a record that names
//!   `/etc/passwd` is refused.

use crate::limits::MAX_FILE_BYTES;
use std::io::{Error, ErrorKind, Read};
use std::path::{Path, PathBuf};

/// Opens one regular file for a reader that streams it (and caps what it
/// reads at once itself), as `regel merge` reads shards' partial results.
pub fn open_file(p: &Path) -> std::io::Result<std::fs::File> {
    regular(p)?;
    std::fs::File::open(p)
}

/// The metadata of `p` if it is a regular file.
fn regular(p: &Path) -> std::io::Result<std::fs::Metadata> {
    let meta = std::fs::metadata(p)?;
    if !meta.is_file() {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            "not a regular file (a folder, a device or a pipe); Regel reads only plain files",
        ));
    }
    Ok(meta)
}

/// Reads one regular file of at most [`MAX_FILE_BYTES`] bytes as UTF-8.
pub fn read_file(p: &Path) -> std::io::Result<String> {
    let meta = regular(p)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut text = String::new();
    // The cap holds even if the file grows after the size was read.
    std::fs::File::open(p)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(text.len() as u64));
    }
    Ok(text)
}

fn too_large(len: u64) -> Error {
    Error::new(
        ErrorKind::InvalidData,
        format!("the file has {len} bytes, more than the limit of {MAX_FILE_BYTES}"),
    )
}

/// The file that marks a project's root folder (its content is not read).
pub const PROJECT_MARKER: &str = "regel.toml";

/// The root for a run that starts from `file` (see the module comment).
pub fn root_for(file: &Path, given: Option<&Path>) -> PathBuf {
    if let Some(r) = given {
        return r.canonicalize().unwrap_or_else(|_| r.to_path_buf());
    }
    let folder = file
        .canonicalize()
        .ok()
        .and_then(|c| c.parent().map(Path::to_path_buf));
    if let Some(project) = folder.as_deref().and_then(project_root) {
        return project;
    }
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|d| d.canonicalize().ok());
    match (folder, cwd) {
        (Some(dir), Some(cwd)) if dir.starts_with(&cwd) => cwd,
        (Some(dir), _) => dir,
        (None, Some(cwd)) => cwd,
        (None, None) => PathBuf::from("."),
    }
}

/// The root for a run that reads a record (see the module comment).
pub fn record_root(record: &Path, given: Option<&Path>) -> PathBuf {
    if given.is_some() {
        return root_for(record, given);
    }
    std::env::current_dir()
        .ok()
        .and_then(|d| d.canonicalize().ok())
        .and_then(|cwd| project_root(&cwd))
        .unwrap_or_else(|| root_for(record, None))
}

/// The nearest folder at or above `dir` that holds a [`PROJECT_MARKER`] or is
/// the top of a git repository.
fn project_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(PROJECT_MARKER).is_file() || d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// A reader for the checker that reads only regular files under `root`.
pub fn confined(root: PathBuf) -> impl Fn(&Path) -> std::io::Result<String> {
    move |p: &Path| {
        // A path that does not exist fails here with the usual "not found".
        let real = p.canonicalize()?;
        if !real.starts_with(&root) {
            return Err(Error::new(
                ErrorKind::PermissionDenied,
                "it lies outside the folder this run may read (the project's root, found by a `regel.toml` or `.git` above the file named on the command line); name a wider one with `--root` if you trust the files",
            ));
        }
        read_file(&real)
    }
}
