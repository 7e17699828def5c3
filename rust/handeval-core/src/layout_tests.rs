//! The workspace's layout, read from the sources of the core, the wire and the binding:
//! in each crate no circle of imports between its modules, no shipped source file over
//! 800 lines (tests aside), and no public item of the core that the next layer does not
//! use. The crates' own order (core → wire → binding) is kept by
//! their Cargo dependencies.
//!
//! A module depends on the module a path it names leads to (`use` items and paths in code
//! starting `crate::`, `$crate::`, `super::`, `self::` or a child module's name); a parent
//! re-exporting its children depends on them, so a child may not import from its parent:
//! it names the sibling that defines the item. Items under `#[cfg(test)]` are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut m: Module = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if m.last().is_some_and(|l| l == "mod" || l == "lib") {
        m.pop();
    }
    m
}

/// The code without comments, string and char literals' contents, and `#[cfg(test)]` items.
fn code(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if b[i] == '\'' && b.get(i + 2) == Some(&'\'') {
            i += 3; // a char literal ('"', '{')
        } else if b[i] == '\'' && b.get(i + 1) == Some(&'\\') {
            i += 2;
            while i < b.len() && b[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if b[i] == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    // Drop each `#[cfg(test)]` item: up to its `;` or its balanced braces.
    let mut kept = String::new();
    let mut rest = out.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let (semi, brace) = (item.find(';'), item.find('{'));
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => s + 1,
            (_, Some(b)) => {
                let mut depth = 0;
                let mut end = item.len();
                for (k, ch) in item[b..].char_indices() {
                    depth += match ch {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    if depth == 0 {
                        end = b + k + 1;
                        break;
                    }
                }
                end
            }
            (Some(s), None) => s + 1,
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    kept.push_str(rest);
    kept
}

/// The paths of a `use` tree (`a::{b, c::{d, e}}`).
fn use_paths(tree: &str) -> Vec<String> {
    // Renames (`x as y`) dropped: the path is what names the module.
    let words: Vec<&str> = tree.split_whitespace().collect();
    let mut kept = String::new();
    let mut k = 0;
    while k < words.len() {
        if words[k] == "as" && k + 1 < words.len() {
            // `y,` or `y}` keeps its punctuation.
            kept.extend(words[k + 1].chars().skip_while(|&c| is_path_char(c)));
            k += 2;
        } else {
            kept.push_str(words[k]);
            k += 1;
        }
    }
    let tree = kept;
    fn walk(prefix: &str, s: &str, out: &mut Vec<String>) {
        let (mut depth, mut start) = (0, 0);
        let mut parts = Vec::new();
        for (k, ch) in s.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&s[start..k]);
                    start = k + 1;
                }
                _ => {}
            }
        }
        parts.push(&s[start..]);
        for p in parts.into_iter().filter(|p| !p.is_empty()) {
            match p.find('{') {
                Some(b) => walk(&format!("{prefix}{}", &p[..b]), &p[b + 1..p.rfind('}').unwrap()], out),
                None => out.push(format!("{prefix}{p}")),
            }
        }
    }
    let mut out = Vec::new();
    walk("", &tree, &mut out);
    out
}

/// The module a path names from `from`, or None for a path outside the crate.
fn resolve(from: &Module, path: &str, modules: &BTreeSet<Module>) -> Option<Module> {
    let segs: Vec<&str> = path.split("::").map(|s| s.split(" as ").next().unwrap()).filter(|s| !s.is_empty() && *s != "*").collect();
    let (mut m, rest): (Module, &[&str]) = match segs.first()? {
        &"crate" | &"$crate" => (Vec::new(), &segs[1..]),
        &"super" | &"self" => {
            let mut m = from.clone();
            let mut k = 0;
            while k < segs.len() && (segs[k] == "super" || segs[k] == "self") {
                if segs[k] == "super" {
                    m.pop();
                }
                k += 1;
            }
            (m, &segs[k..])
        }
        first => {
            let mut child = from.clone();
            child.push(first.to_string());
            if !modules.contains(&child) {
                return None;
            }
            (from.clone(), &segs[..])
        }
    };
    for s in rest {
        m.push(s.to_string());
        if !modules.contains(&m) {
            m.pop();
            break;
        }
    }
    Some(m)
}

fn is_path_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == ':'
}

/// The `src` folders of the workspace's crates, this one's siblings: the core, the wire
/// and the Python binding (the tests run in the workspace, where all three are).
fn crate_sources() -> [PathBuf; 3] {
    let rust = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    ["handeval-core", "handeval-wire", "handeval-py"].map(|c| rust.join(c).join("src"))
}

fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let texts: Vec<(Module, String)> = files.iter().map(|f| (module_of(src, f), code(&std::fs::read_to_string(f).unwrap()))).collect();
    let modules: BTreeSet<Module> = texts.iter().map(|(m, _)| m.clone()).collect();
    // `#[macro_export]` puts a macro at the crate root (`crate::name`), but it belongs to
    // the module that defines it.
    let mut exported: BTreeMap<String, Module> = BTreeMap::new();
    for (m, text) in &texts {
        for (at, _) in text.match_indices("#[macro_export]") {
            let after = &text[at..];
            if let Some(k) = after.find("macro_rules!") {
                let name: String = after[k + 12..].trim_start().chars().take_while(|&c| is_path_char(c) && c != ':').collect();
                exported.insert(name, m.clone());
            }
        }
    }
    let mut g = BTreeMap::new();
    for (m, text) in &texts {
        let mut deps = BTreeSet::new();
        let mut paths = Vec::new();
        let mut rest = text.as_str();
        // `use` items.
        let mut plain = String::new();
        while let Some(at) = rest.find("use ") {
            let boundary = at == 0 || !is_path_char(rest[..at].chars().last().unwrap());
            if !boundary {
                plain.push_str(&rest[..at + 4]);
                rest = &rest[at + 4..];
                continue;
            }
            plain.push_str(&rest[..at]);
            let end = rest[at..].find(';').map_or(rest.len(), |e| at + e);
            paths.extend(use_paths(&rest[at + 4..end]));
            rest = &rest[end..];
        }
        plain.push_str(rest);
        // Paths in code: runs of path characters holding `::`.
        for word in plain.split(|c: char| !is_path_char(c)) {
            if word.contains("::") {
                paths.push(word.to_string());
            }
        }
        for p in paths {
            let mut segs = p.split("::");
            let root = matches!(segs.next(), Some("crate" | "$crate"));
            let macro_home = segs.next().filter(|_| root).and_then(|name| exported.get(name)).cloned();
            if let Some(d) = macro_home.or_else(|| resolve(m, &p, &modules)) {
                if &d != m {
                    deps.insert(d);
                }
            }
        }
        g.insert(m.clone(), deps);
    }
    g
}

/// The circles of the graph: its strongly connected components of more than one module.
fn circles(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    let reach = |from: &Module| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for d in g.get(&m).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    todo.push(d.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&Module, BTreeSet<Module>> = g.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<Vec<Module>> = Vec::new();
    for m in g.keys() {
        let comp: Vec<Module> = g.keys().filter(|o| *o == m || (reached[m].contains(*o) && reached[*o].contains(m))).cloned().collect();
        if comp.len() > 1 && !out.contains(&comp) {
            out.push(comp);
        }
    }
    out
}

#[test]
fn no_circle_of_imports_between_modules() {
    let mut found = Vec::new();
    for (k, src) in crate_sources().into_iter().enumerate() {
        let g = graph(&src);
        if k == 0 {
            assert!(g.len() > 40 && g[&vec!["shisanshui".to_string(), "arrange".to_string()]].len() > 5, "the graph was read");
        }
        assert!(g.len() > 10, "the graph of {} was read", src.display());
        for c in circles(&g) {
            found.push(format!("{}: {}", src.display(), c.iter().map(|p| p.join("::")).collect::<Vec<_>>().join(" <-> ")));
        }
    }
    assert!(found.is_empty(), "import circles: {found:#?}");
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let m = |s: &str| -> Module { s.split("::").filter(|x| !x.is_empty()).map(String::from).collect() };
    let mut g = BTreeMap::new();
    g.insert(m("a"), BTreeSet::from([m("a::b")]));
    g.insert(m("a::b"), BTreeSet::from([m("a")]));
    g.insert(m("c"), BTreeSet::from([m("a")]));
    assert_eq!(circles(&g), vec![vec![m("a"), m("a::b")]]);
    // A child naming its parent's item, with the parent re-exporting the child: a circle.
    let modules = BTreeSet::from([m(""), m("x"), m("x::y")]);
    assert_eq!(resolve(&m("x::y"), "super::Rules", &modules), Some(m("x")));
    assert_eq!(resolve(&m("x"), "y::Thing", &modules), Some(m("x::y")));
    assert_eq!(use_paths("super::{a::B, c::{D, E}}"), vec!["super::a::B", "super::c::D", "super::c::E"]);
    assert_eq!(use_paths("crate::{dachu as dc, tienlen as tl}"), vec!["crate::dachu", "crate::tienlen"]);
}

#[test]
fn no_shipped_source_file_over_800_lines() {
    let mut files = Vec::new();
    for src in crate_sources() {
        sources(&src, &mut files);
    }
    let long: Vec<String> = files
        .iter()
        .filter(|f| !f.file_stem().unwrap().to_string_lossy().contains("tests"))
        .map(|f| (f, code(&std::fs::read_to_string(f).unwrap()).lines().count()))
        .filter(|(_, n)| *n > 800)
        .map(|(f, n)| format!("{} ({n} lines)", f.display()))
        .collect();
    assert!(long.is_empty(), "{long:?}");
}

/// The identifiers of `text`.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).map(str::to_string).collect()
}

/// The module-level public items of a file's code (`pub fn`, `pub const`, …, at the start
/// of a line, not `pub(crate)`): (kind, name).
fn public_items(code: &str) -> Vec<(&str, &str)> {
    const KINDS: [&str; 7] = ["fn", "const", "static", "struct", "enum", "trait", "type"];
    let mut out = Vec::new();
    for line in code.lines() {
        let Some(rest) = line.strip_prefix("pub ") else { continue };
        let rest = rest.strip_prefix("const fn ").map_or(rest, |r| r);
        let (kind, rest) = match KINDS.iter().find_map(|k| rest.strip_prefix(k).and_then(|r| r.strip_prefix(' ')).map(|r| (*k, r))) {
            Some(x) => x,
            None if line.starts_with("pub const fn ") => ("fn", &line["pub const fn ".len()..]),
            None => continue,
        };
        let name = rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
        out.push((kind, name));
    }
    out
}

/// The core's public items are what the next layer uses: every module-level public item
/// is named by the wire, the binding, the fuzzers or the crate's examples and benches; a
/// type may also be public because a public item of the core names it (its field, its
/// argument or its result). Anything else is `pub(crate)` (or deleted, when the compiler
/// then finds it unused).
#[test]
fn every_public_item_of_the_core_is_used_by_the_next_layer() {
    let rust = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut outside = Vec::new();
    let users = ["handeval-wire/src", "handeval-wire/tests", "handeval-py/src", "../fuzz/src", "../fuzz/fuzz_targets"];
    for dir in users.map(|d| rust.join(d)).into_iter().chain([core.join("examples"), core.join("benches")]) {
        sources(&dir, &mut outside);
    }
    let mut used: BTreeSet<String> = outside.iter().flat_map(|f| words(&std::fs::read_to_string(f).unwrap())).collect();
    let src = core.join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let codes: Vec<(String, String)> = files
        .iter()
        .map(|f| (f.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/"), code(&std::fs::read_to_string(f).unwrap())))
        .filter(|(rel, _)| !rel.ends_with("tests.rs"))
        .collect();
    // An item re-exported under another name (`pub use … X as Y`) is used when Y is.
    for (_, c) in &codes {
        for l in c.lines().filter(|l| l.trim_start().starts_with("pub use ")) {
            let w: Vec<&str> = l.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
            for k in 1..w.len().saturating_sub(1) {
                if w[k] == "as" && used.contains(w[k + 1]) {
                    used.insert(w[k - 1].to_string());
                }
            }
        }
    }
    // Names in public signatures: the words of every line that declares something public.
    let in_public: Vec<BTreeSet<String>> =
        codes.iter().flat_map(|(_, c)| c.lines().filter(|l| l.trim_start().starts_with("pub ")).map(words).collect::<Vec<_>>()).collect();
    let mut unused = Vec::new();
    for (rel, code) in &codes {
        for (kind, name) in public_items(code) {
            let is_type = matches!(kind, "struct" | "enum" | "trait" | "type");
            let named_publicly = is_type && in_public.iter().filter(|w| w.contains(name)).count() > 1;
            if !used.contains(name) && !named_publicly {
                unused.push(format!("{rel}: pub {kind} {name}"));
            }
        }
    }
    assert!(unused.is_empty(), "public items of the core that nothing outside it uses (make them pub(crate)):\n{}", unused.join("\n"));
}

#[test]
fn public_items_are_read_from_the_code() {
    let code = "pub fn a() {}\npub(crate) fn b() {}\n    pub fn method() {}\npub const C: u8 = 1;\npub const fn d() {}\npub struct E;\npub use x::F;\n";
    assert_eq!(public_items(code), vec![("fn", "a"), ("const", "C"), ("fn", "d"), ("struct", "E")]);
}
