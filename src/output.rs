//! Output plumbing shared by the command line, the report and the fixtures: a closed stdout pipe
//! ends the process quietly, and a directory of outputs is committed only once every file of it
//! has been produced.
//!
//! * [`quiet_on_closed_pipe`]: Rust ignores SIGPIPE, so `print!` to a pipe whose reader has gone
//!   (`dpsaddle claims | head -1`) panics with "failed printing to stdout: Broken pipe". The hook
//!   installed here turns exactly that panic (stdout or stderr, broken pipe) into a quiet exit
//!   with status [`CLOSED_PIPE_STATUS`] = 128 + SIGPIPE, the status a shell reports for any
//!   filter killed by a closed pipe; every other panic keeps the default report.
//! * [`stage_and_commit`]: the files are written into a fresh temporary sibling directory; only
//!   when the producer has succeeded are they renamed into place (one rename per file, on the
//!   same file system), so a failure while producing leaves the previous output untouched and no
//!   temporary file behind. Files in the target that the producer does not write are kept (the
//!   target may be `.` or hold hand-written files, e.g. `fixtures/configs/`).

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The exit status after a closed stdout/stderr pipe: 128 + SIGPIPE (13), as a shell reports it.
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Install the panic hook that ends the process quietly with [`CLOSED_PIPE_STATUS`] when a
/// `print!`/`eprint!` hits a closed pipe (see the module notes); other panics are reported as
/// before. Call once, first thing in `main`.
pub fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_closed_pipe_message(msg) {
            std::process::exit(CLOSED_PIPE_STATUS);
        }
        default(info);
    }));
}

/// Is this the standard library's panic message for printing to a closed pipe?
pub fn is_closed_pipe_message(msg: &str) -> bool {
    (msg.starts_with("failed printing to stdout") || msg.starts_with("failed printing to stderr"))
        && (msg.contains("Broken pipe") || msg.contains("os error 32"))
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Io {
        path: path.display().to_string(),
        source: e,
    }
}

/// Produce a set of files for `target` atomically with respect to failure: `produce` receives a
/// fresh temporary directory (a sibling of `target`) and writes its files there, returning
/// `Ok(v)`; every file it wrote is then renamed to the same relative path under `target`
/// (directories created as needed), and the temporary directory is removed. If `produce` fails,
/// the temporary directory is removed and `target` is left exactly as it was.
pub fn stage_and_commit<T>(target: &Path, produce: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io_err(&parent))?;
    let name = target
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let stage = parent.join(format!(".{name}.staging-{}", std::process::id()));
    if stage.exists() {
        std::fs::remove_dir_all(&stage).map_err(io_err(&stage))?;
    }
    std::fs::create_dir_all(&stage).map_err(io_err(&stage))?;
    let result = produce(&stage).and_then(|v| {
        let mut files = Vec::new();
        list_files(&stage, &stage, &mut files)?;
        // Refuse before moving anything if a destination cannot take a file (a directory in the
        // way), so the commit does not stop half-way for a reason known in advance.
        for rel in &files {
            let to = target.join(rel);
            if to.is_dir() {
                return Err(Error::Io {
                    path: to.display().to_string(),
                    source: std::io::Error::other("a directory is in the way of this output file"),
                });
            }
        }
        for rel in &files {
            let to = target.join(rel);
            if let Some(dir) = to.parent() {
                std::fs::create_dir_all(dir).map_err(io_err(dir))?;
            }
            std::fs::rename(stage.join(rel), &to).map_err(io_err(&to))?;
        }
        Ok(v)
    });
    let _ = std::fs::remove_dir_all(&stage);
    result
}

/// Every regular file under `dir`, as paths relative to `root`, sorted.
fn list_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(io_err(dir))?
        .collect::<std::io::Result<Vec<_>>>()
        .map_err(io_err(dir))?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            list_files(root, &p, out)?;
        } else {
            out.push(p.strip_prefix(root).expect("under root").to_path_buf());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_pipe_messages_are_recognised() {
        assert!(is_closed_pipe_message(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(!is_closed_pipe_message("index out of bounds"));
    }

    #[test]
    fn a_failed_producer_leaves_the_target_untouched() {
        let root = std::env::temp_dir().join(format!("dpsaddle-stage-{}", std::process::id()));
        let target = root.join("out");
        std::fs::create_dir_all(&target).unwrap();
        std::fs::write(target.join("a.txt"), "old a").unwrap();
        std::fs::write(target.join("keep.txt"), "kept").unwrap();
        let r: Result<()> = stage_and_commit(&target, |d| {
            std::fs::write(d.join("a.txt"), "new a").unwrap();
            Err(crate::error::invalid(
                "planted",
                "failure after the first file",
            ))
        });
        assert!(r.is_err());
        assert_eq!(
            std::fs::read_to_string(target.join("a.txt")).unwrap(),
            "old a"
        );
        stage_and_commit(&target, |d| {
            std::fs::create_dir_all(d.join("sub")).unwrap();
            std::fs::write(d.join("a.txt"), "new a").unwrap();
            std::fs::write(d.join("sub/b.txt"), "new b").unwrap();
            Ok(())
        })
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(target.join("a.txt")).unwrap(),
            "new a"
        );
        assert_eq!(
            std::fs::read_to_string(target.join("sub/b.txt")).unwrap(),
            "new b"
        );
        assert_eq!(
            std::fs::read_to_string(target.join("keep.txt")).unwrap(),
            "kept"
        );
        let leftovers: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            leftovers.len(),
            1,
            "no staging directory left: {leftovers:?}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
