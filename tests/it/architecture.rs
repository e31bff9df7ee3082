//! The crate's structure, asserted by reading its files: the dependency order of the modules,
//! citations a reader of the published papers can follow, and the links between the claims
//! registry, `proofs-notes/` and `proofs-notes/errata.md`.
//!
//! Each rule is a pure function over text, so the unit tests at the bottom plant a violation of
//! each rule and watch it being reported; the tree-wide tests then apply the rules to every file.

use dpsaddle::claims::{self, Kind};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

// -------------------------------------------------------------------------------------------------
// Reading files
// -------------------------------------------------------------------------------------------------

/// Every file below `dir` (recursively) whose name ends in one of `exts`, sorted.
fn files(dir: &str, exts: &[&str]) -> Vec<PathBuf> {
    fn walk(p: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
        let Ok(rd) = fs::read_dir(p) else { return };
        for e in rd.flatten() {
            let q = e.path();
            if q.is_dir() {
                walk(&q, exts, out);
            } else if exts.iter().any(|x| q.to_string_lossy().ends_with(x)) {
                out.push(q);
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new(dir), exts, &mut out);
    out.sort();
    out
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Rust source with comments removed (line, doc and block comments); string literals kept.
/// Doc links such as a paper front page's links to its claims are documentation, not
/// dependencies, so they must not count.
fn strip_comments(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let (mut i, mut in_str, mut block) = (0, false, 0usize);
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if block > 0 {
            if c == '*' && next == Some('/') {
                block -= 1;
                i += 2;
            } else if c == '/' && next == Some('*') {
                block += 1;
                i += 2;
            } else {
                if c == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            continue;
        }
        if in_str {
            out.push(c);
            if c == '\\' {
                if let Some(n) = next {
                    out.push(n);
                }
                i += 2;
                continue;
            }
            if c == '"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        match (c, next) {
            ('/', Some('/')) => {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                block = 1;
                i += 2;
            }
            ('\'', _) if b.get(i + 2) == Some(&'\'') => {
                // A char literal such as '"': copy it whole so it does not open a string.
                out.extend(&b[i..i + 3]);
                i += 3;
            }
            ('"', _) => {
                in_str = true;
                out.push(c);
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

// -------------------------------------------------------------------------------------------------
// Rule 1: the dependency order
// -------------------------------------------------------------------------------------------------

/// The tier of a top-level module: core → papers → algorithms (and `stability`, which measures
/// them) → claims → fixtures / report / config / main. `None` for a module the rule does not know (a test fails on it, so a new
/// module must be placed).
fn tier(module: &str) -> Option<u8> {
    match module {
        "linalg" | "geometry" | "rng" | "exact" | "problem" | "instances" | "oracle" | "gap"
        | "solve" | "privacy" | "error" | "output" | "sampling" => Some(0),
        "papers" => Some(1),
        // `stability` measures algorithms through the `Algorithm` interface, so it sits with them.
        "algorithms" | "stability" => Some(2),
        "claims" => Some(3),
        "fixtures" | "report" | "config" | "main" => Some(4),
        _ => None,
    }
}

/// The top-level modules that `code` reaches through `prefix` (`crate::` inside the library,
/// `dpsaddle::` from the binary, tests and benches), including grouped imports
/// `prefix{a::x, b}`.
fn referenced_modules(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(pos) = rest.find(prefix) {
        let before = rest[..pos].chars().next_back();
        rest = &rest[pos + prefix.len()..];
        if before.is_some_and(is_ident) {
            continue; // e.g. `my_crate::` when looking for `crate::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of a grouped import, up to the matching brace.
            let (mut depth, mut item) = (0usize, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        push_head(&item, &mut out);
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 || c != '{' {
                    item.push(c);
                }
            }
            push_head(&item, &mut out);
        } else {
            push_head(rest, &mut out);
        }
    }
    out
}

fn push_head(path: &str, out: &mut BTreeSet<String>) {
    let head: String = path
        .trim_start()
        .chars()
        .take_while(|&c| is_ident(c))
        .collect();
    if !head.is_empty() && head != "self" {
        out.insert(head);
    }
}

/// Dependency-order violations of one source file of the library (`module` is its top-level
/// module, e.g. `privacy` for `src/privacy/audit.rs`).
fn order_violations(module: &str, code: &str) -> Vec<String> {
    let Some(t) = tier(module) else {
        return vec![format!(
            "module `{module}` has no place in the dependency order"
        )];
    };
    let prefix = if module == "main" {
        "dpsaddle::"
    } else {
        "crate::"
    };
    let mut v = Vec::new();
    for m in referenced_modules(&strip_comments(code), prefix) {
        match tier(&m) {
            Some(u) if u > t => v.push(format!("`{module}` (tier {t}) uses `{m}` (tier {u})")),
            Some(_)
                if m == "claims"
                    && !matches!(module, "claims" | "fixtures" | "report" | "main") =>
            {
                v.push(format!(
                    "`{module}` uses `claims` (only fixtures, report, main, tests may)"
                ))
            }
            _ => {}
        }
    }
    v
}

/// The top-level module of a library file: `src/privacy/audit.rs` → `privacy`.
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix("src").expect("a file under src/");
    let first = rel
        .components()
        .next()
        .expect("non-empty")
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

#[test]
fn modules_respect_the_dependency_order() {
    let mut v = Vec::new();
    for p in files("src", &[".rs"]) {
        let module = module_of(&p);
        if module == "lib" {
            continue;
        }
        for e in order_violations(&module, &read(&p)) {
            v.push(format!("{}: {e}", p.display()));
        }
    }
    for p in files("benches", &[".rs"]) {
        if referenced_modules(&strip_comments(&read(&p)), "dpsaddle::").contains("claims") {
            v.push(format!("{}: a bench uses `claims`", p.display()));
        }
    }
    assert!(
        v.is_empty(),
        "dependency-order violations:\n{}",
        v.join("\n")
    );
}

// -------------------------------------------------------------------------------------------------
// Rule 2: citations a reader can follow
// -------------------------------------------------------------------------------------------------

/// Tokens `L` followed by 2–4 digits (a line of a text conversion, which no reader has).
fn line_citations(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for i in 0..c.len() {
        if c[i] != 'L' || (i > 0 && is_ident(c[i - 1])) {
            continue;
        }
        let digits = c[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
        let end = i + 1 + digits;
        if (2..=4).contains(&digits) && !c.get(end).is_some_and(|&d| is_ident(d)) {
            out.push(c[i..end].iter().collect());
        }
    }
    out
}

/// Errata-style IDs in `text`: `E-KEY-n` (resolved against errata.md) and the inventory-style
/// `X-n` with a single capital X (an inventory item, a privacy-review item or an algorithm
/// note: IDs of notes that are not in the repository). Returned as (id, is_errata_id).
fn ids(text: &str) -> Vec<(String, bool)> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let word_start = |i: usize| i == 0 || !(is_ident(c[i - 1]) || c[i - 1] == '-');
    for i in 0..c.len() {
        if !c[i].is_ascii_uppercase() || !word_start(i) || c.get(i + 1) != Some(&'-') {
            continue;
        }
        if c[i] == 'E' {
            // E-KEY-n, n possibly with a letter prefix (E-BG23-P3 for the privacy review's items).
            let key: String = c[i + 2..]
                .iter()
                .take_while(|d| d.is_ascii_uppercase() || d.is_ascii_digit())
                .collect();
            let j = i + 2 + key.len();
            if key.is_empty() || c.get(j) != Some(&'-') {
                continue;
            }
            let num: String = c[j + 1..].iter().take_while(|d| is_ident(**d)).collect();
            if num.chars().last().is_some_and(|d| d.is_ascii_digit()) {
                out.push((format!("E-{key}-{num}"), true));
            }
        } else {
            let digits = c[i + 2..].iter().take_while(|d| d.is_ascii_digit()).count();
            let end = i + 2 + digits;
            if digits > 0 && !c.get(end).is_some_and(|&d| is_ident(d)) {
                out.push((c[i..end].iter().collect(), false));
            }
        }
    }
    out
}

/// The IDs errata.md defines: the comma-separated entries of the first cell of each table row.
fn defined_errata_ids(errata: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in errata.lines() {
        let Some(row) = line.trim().strip_prefix('|') else {
            continue;
        };
        let cell = row.split('|').next().unwrap_or("");
        for (id, is_e) in ids(cell) {
            if is_e {
                out.insert(id);
            }
        }
    }
    out
}

/// Citation violations of one file: line citations, inventory-style IDs, and E- IDs that
/// errata.md does not define.
fn citation_violations(text: &str, defined: &BTreeSet<String>) -> Vec<String> {
    let mut v: Vec<String> = line_citations(text)
        .into_iter()
        .map(|l| format!("line citation `{l}`"))
        .collect();
    for (id, is_e) in ids(text) {
        if !is_e {
            v.push(format!("inventory-style ID `{id}` (not in the repository)"));
        } else if !defined.contains(&id) {
            v.push(format!("`{id}` is not defined in proofs-notes/errata.md"));
        }
    }
    v
}

/// Every text a reader meets: code, tests, benches, notes, fixtures and the READMEs.
fn cited_files() -> Vec<PathBuf> {
    let mut all = files("src", &[".rs"]);
    all.extend(files("tests", &[".rs"]));
    all.extend(files("benches", &[".rs", ".md"]));
    all.extend(files("proofs-notes", &[".md"]));
    all.extend(files("fixtures", &[".json", ".md", ".py"]));
    all.push(PathBuf::from("README.md"));
    all
}

#[test]
fn citations_name_published_items_and_every_id_resolves() {
    let defined = defined_errata_ids(&read(Path::new("proofs-notes/errata.md")));
    assert!(!defined.is_empty(), "errata.md defines no E- ID");
    let mut v = Vec::new();
    for p in cited_files() {
        for (n, line) in read(&p).lines().enumerate() {
            for e in citation_violations(line, &defined) {
                v.push(format!("{}:{}: {e}", p.display(), n + 1));
            }
        }
    }
    assert!(
        v.is_empty(),
        "{} citation problems:\n{}",
        v.len(),
        v.join("\n")
    );
}

// -------------------------------------------------------------------------------------------------
// Rule 3: registry ↔ code ↔ notes ↔ errata
// -------------------------------------------------------------------------------------------------

/// The paths of a claim's `code` field: `a::b::{C, D}, e::f` → `a::b::C`, `a::b::D`, `e::f`.
fn code_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0usize, String::new());
    let mut parts = Vec::new();
    for c in code.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    for p in parts {
        let p = p.trim();
        if let Some((head, group)) = p.split_once("::{") {
            for item in group.trim_end_matches('}').split(',') {
                out.push(format!("{head}::{}", item.trim()));
            }
        } else if !p.is_empty() {
            out.push(p.to_string());
        }
    }
    out
}

/// Whether `src` defines or re-exports `name` (fn, struct, enum, trait, const, static, type,
/// mod, macro, enum variant or field: a declaration of the word).
fn declares(src: &str, name: &str) -> bool {
    let kw = [
        "fn",
        "struct",
        "enum",
        "trait",
        "const",
        "static",
        "type",
        "mod",
        "macro_rules!",
    ];
    let code = strip_comments(src);
    let words: Vec<&str> = code.split(|c: char| !is_ident(c) && c != '!').collect();
    let declared = words.windows(2).any(|w| kw.contains(&w[0]) && w[1] == name);
    let reexported = code.lines().any(|l| {
        l.trim_start().starts_with("pub use") && l.split(|c: char| !is_ident(c)).any(|w| w == name)
    });
    // Enum variants and fields: the word followed by `(`, `{`, `,` or `:` at the start of a line.
    let member = code.lines().any(|l| {
        let t = l.trim_start();
        t.strip_prefix(name)
            .is_some_and(|r| r.trim_start().starts_with(['(', '{', ',', ':']))
    });
    declared || reexported || member
}

/// The file of module path `segs` under src/, if any (`a/b.rs` or `a/b/mod.rs`).
fn module_file(segs: &[&str]) -> Option<PathBuf> {
    let base: PathBuf = std::iter::once("src").chain(segs.iter().copied()).collect();
    let file = base.with_extension("rs");
    if file.is_file() {
        return Some(file);
    }
    let m = base.join("mod.rs");
    m.is_file().then_some(m)
}

/// Why a `code` path does not resolve, or None.
fn unresolved_path(path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split("::").map(str::trim).collect();
    // The longest prefix that is a module file; the rest are items declared in it.
    let Some(k) = (1..=segs.len())
        .rev()
        .find(|&k| module_file(&segs[..k]).is_some())
    else {
        return Some(format!("`{path}`: no module `{}`", segs[0]));
    };
    let file = module_file(&segs[..k])?;
    let src = read(&file);
    segs[k..]
        .iter()
        .find(|item| !declares(&src, item))
        .map(|item| format!("`{path}`: `{item}` is not declared in {}", file.display()))
}

/// Backticked claim-like ids in a notes text (`bgm23.lemma2`).
fn claim_ids_mentioned(text: &str) -> BTreeSet<String> {
    let prefixes = [
        "core.", "privacy.", "bgm23.", "kllw22.", "bg23.", "bgm24.", "ztoh22.",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            prefixes.iter().any(|p| t.starts_with(p))
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                && !t.ends_with(".md")
                && !t.ends_with(".json")
                && !t.ends_with(".rs")
                && t.matches('.').count() == 1
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn registry_code_notes_and_errata_agree() {
    let notes: Vec<(PathBuf, String)> = files("proofs-notes", &[".md"])
        .into_iter()
        .map(|p| {
            let t = read(&p);
            (p, t)
        })
        .collect();
    let errata = read(Path::new("proofs-notes/errata.md"));
    let registry = claims::registry();
    let ids: BTreeSet<String> = registry.iter().map(|c| c.id.to_string()).collect();
    let mut v = Vec::new();
    for c in &registry {
        for p in code_paths(c.code) {
            if let Some(e) = unresolved_path(&p) {
                v.push(format!("{}: code {e}", c.id));
            }
        }
        let quoted = format!("`{}`", c.id);
        if !notes.iter().any(|(_, t)| t.contains(&quoted)) {
            v.push(format!(
                "{}: not walked through in any proofs-notes file",
                c.id
            ));
        }
        if c.kind == Kind::Erratum && !errata.contains(&quoted) {
            v.push(format!(
                "{}: an Erratum claim without a row in errata.md",
                c.id
            ));
        }
    }
    for (p, t) in &notes {
        for id in claim_ids_mentioned(t) {
            if !ids.contains(&id) {
                v.push(format!(
                    "{}: names `{id}`, which is not a registered claim",
                    p.display()
                ));
            }
        }
    }
    assert!(
        v.is_empty(),
        "registry/notes/errata mismatches:\n{}",
        v.join("\n")
    );
}

// -------------------------------------------------------------------------------------------------
// Planted violations: each rule reports what it exists to catch
// -------------------------------------------------------------------------------------------------

#[test]
fn planted_dependency_violations_are_reported() {
    // privacy using an algorithm, a paper module using a claim, config using claims.
    let v = order_violations("privacy", "use crate::algorithms::{Algorithm, Output};\n");
    assert_eq!(v.len(), 1, "{v:?}");
    let v = order_violations("papers", "use crate::{linalg, claims::BoundCheck};");
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(!order_violations("config", "let c = crate::claims::registry();").is_empty());
    assert_eq!(order_violations("fresh_module", "").len(), 1);
    // Allowed: the same references from a later tier, and references in comments or doc links.
    assert!(order_violations("claims", "use crate::algorithms::Algorithm;").is_empty());
    assert!(order_violations(
        "papers",
        "//! [`crate::claims::registry`]\nuse crate::linalg;"
    )
    .is_empty());
    assert!(order_violations("main", "use dpsaddle::claims;").is_empty());
    assert!(!order_violations(
        "algorithms",
        "fn f() { dpsaddle_like::x(); crate::claims::find(\"x\"); }"
    )
    .is_empty());
}

#[test]
fn planted_citation_violations_are_reported() {
    let defined: BTreeSet<String> = ["E-BGM23-9".to_string()].into();
    let line = format!("see L{} and (L{}–L{})", 224, 569, 574);
    assert_eq!(citation_violations(&line, &defined).len(), 3);
    let inventory = format!("inventory {}-{}, {}-{}", 'I', 23, 'P', 3);
    assert_eq!(citation_violations(&inventory, &defined).len(), 2);
    let unknown = format!("E-{}-{}", "KLLW22", 99);
    assert_eq!(citation_violations(&unknown, &defined).len(), 1);
    // Allowed: published items, defined E- IDs, and look-alikes that are not citations.
    let ok =
        "BGM23 Thm 12, eq. (12), E-BGM23-9, an L2 norm, FNV-1a, UTF-8, IEEE-754, L-smooth, CL100";
    assert!(
        citation_violations(ok, &defined).is_empty(),
        "{:?}",
        citation_violations(ok, &defined)
    );
    let table = "| id | paper |\n|---|---|\n| E-BGM23-9, E-BG23-P3 | BGM23 |\n";
    let d = defined_errata_ids(table);
    assert!(
        d.contains("E-BGM23-9") && d.contains("E-BG23-P3") && d.len() == 2,
        "{d:?}"
    );
}

#[test]
fn planted_registry_mismatches_are_reported() {
    assert_eq!(
        code_paths("gap::{strong_gap, weak_gap}, solve::saddle_point"),
        vec!["gap::strong_gap", "gap::weak_gap", "solve::saddle_point"]
    );
    assert!(unresolved_path("gap::strong_gap").is_none());
    assert!(unresolved_path("gap::no_such_function").is_some());
    assert!(unresolved_path("no_such_module::f").is_some());
    assert!(unresolved_path("exact::no_such_module::f").is_some());
    let ids = claim_ids_mentioned("`bgm23.lemma2` and `kllw22.md` and `bgm23/x.json` and `core.x`");
    assert_eq!(
        ids,
        ["bgm23.lemma2".to_string(), "core.x".to_string()].into()
    );
}
