//! One check of a ruleset as the editor has it: the pipeline run through the
//! overlay reader with the checker's side tables recorded, and what the
//! other features read from it (the files read, their syntax trees, parsed
//! only when a request needs them).

use super::documents::{normal, Documents};
use crate::ast;
use crate::check::Index;
use crate::diag::{Diagnostics, Sources};
use std::cell::OnceCell;
use std::path::{Path, PathBuf};

/// The result of checking the ruleset at `root`.
pub struct Analysis {
    pub root: PathBuf,
    pub sources: Sources,
    /// Errors, or the warnings of a ruleset that checks.
    pub diags: Diagnostics,
    pub index: Index,
    /// The syntax tree of each rules file read (by file id), parsed on the
    /// first request that needs one: diagnostics do not wait for it.
    trees: OnceCell<Vec<(u32, ast::File)>>,
    names: OnceCell<super::names::Names>,
}

impl Analysis {
    /// Checks the ruleset at `root`, reading through the editor's buffers.
    pub fn run(root: &Path, docs: &Documents) -> Analysis {
        let mut sources = Sources::default();
        let mut index = Index::default();
        let read = |p: &Path| docs.read(p);
        let diags = match crate::pipeline::compile_indexed(
            &mut sources,
            &read,
            root,
            // The rewrites report nothing: an editor does not wait for them.
            &crate::opt::Passes::none(),
            Some(&mut index),
        ) {
            Ok((_, warnings)) => warnings,
            Err(errors) => errors,
        };
        Analysis {
            root: root.to_path_buf(),
            sources,
            diags,
            index,
            trees: OnceCell::new(),
            names: OnceCell::new(),
        }
    }

    /// The id of the file at `path` among those read, if it was read.
    pub fn file_id(&self, path: &Path) -> Option<u32> {
        let want = normal(path);
        (0..self.sources.files.len() as u32).find(|&f| self.path(f) == want)
    }

    /// The normalised path of a file read.
    pub fn path(&self, file: u32) -> PathBuf {
        normal(Path::new(&self.sources.get(file).name))
    }

    pub fn text(&self, file: u32) -> &str {
        &self.sources.get(file).text
    }

    /// The syntax trees of the rules files read, in reading order (the
    /// outermost variant first, its base after it).
    pub fn trees(&self) -> &[(u32, ast::File)] {
        self.trees.get_or_init(|| {
            (0..self.sources.files.len() as u32)
                .filter(|&f| self.sources.get(f).name.ends_with(".rules"))
                .filter_map(|f| crate::syntax::parse(&self.sources, f).ok().map(|t| (f, t)))
                .collect()
        })
    }

    /// The declarations and names of the rules files read, found on first use.
    pub fn names(&self) -> &super::names::Names {
        self.names.get_or_init(|| super::names::Names::build(self))
    }
}
