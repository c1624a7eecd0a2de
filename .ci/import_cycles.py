#!/usr/bin/env python3
"""Import circles between the source files of one Rust crate.

Usage: .ci/import_cycles.py [--no-tests] [--edges] CRATE_DIR...

For each crate (a directory with `src/lib.rs` or `src/main.rs`), every `.rs` file under `src/` is
mapped to its module path (`lib.rs` is `crate`, `a.rs` and `a/mod.rs` are `crate::a`, inline `mod b
{ .. }` blocks belong to the file that holds them). Then every reference from one module to
another of the same crate is resolved to the file that defines the item it names:

* `use` declarations (`use crate::a::b`, `use super::x`, `use self::y`, grouped
  `use crate::{a, b::{c, d as e}}`, globs), wherever they appear;
* paths in code (`crate::a::b::item`, `super::x::y`, `self::z`, `child::item` where `child` is a
  submodule of the current module, and `alias::item` where `alias` was imported as a module).

A path is followed through re-exports (`pub use`, and the private imports a descendant module can
see) to the file whose module defines the item, so `use crate::Machine` is an edge to the file
that defines `Machine`, not to `lib.rs`. A module declaration (`mod x;`) and a re-export (`pub use
x::Y`, `pub(crate) use ..`, `pub use x::*`) are not references by themselves: a parent that only
declares and re-exports its children does not use them; a parent whose own code also names a
re-exported item (`Y`) does. A glob import counts for each name of the glob's module that the
importing module names, or for the glob's module when it names none of them. Paths to other
crates (`std::..`, `serde::..`) are ignored.

An edge A -> B means that A names an item that B defines. A file that refers to its submodule's
items is an edge parent -> child; a child that names its parent's items (`super::Item`) is
child -> parent. A cycle is a strongly connected component of more than one file; for each, the
script prints the edges inside it with the line of the first reference that makes each edge.

`--no-tests` leaves out `#[cfg(test)]` modules. `--edges` prints the whole file graph as well.
Exit status: 0 without cycles, 1 with at least one, 2 on a usage error.

Standard library only. The scanner is lexical (comments, strings and char literals are stripped,
then identifiers and `::` are tokenised); macro-generated items are attributed to the module that
invokes the macro.
"""

import os
import re
import sys
from collections import defaultdict

ITEM_KEYWORDS = {"fn", "struct", "enum", "trait", "type", "const", "static", "union"}
PATH_ROOTS = {"crate", "self", "super"}


# ---------------------------------------------------------------------------------------------
# Lexing


def strip(text):
    """Replaces comments, string, byte-string, raw-string and char literals by spaces (newlines
    kept, so that line numbers survive)."""
    out = []
    i, n = 0, len(text)

    def blank(s):
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif (m := re.compile(r'b?r(#*)"').match(text, i)) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + m.group(1)
            j = text.find(end, m.end())
            j = n if j < 0 else j + len(end)
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(blank(text[i : j + 1]))
            i = j + 1
        elif c == "'" or (c == "b" and text.startswith("b'", i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            # A char literal ('x', '\n', '\u{1F600}', b'x'), or a lifetime / label ('a).
            k = i + (2 if c == "b" else 1)
            m = re.compile(r"(\\u\{[0-9a-fA-F_]*\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'").match(text, k)
            if m:
                out.append(blank(text[i : m.end()]))
                i = m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TOKEN = re.compile(r"r#[A-Za-z_][A-Za-z0-9_]*|\$?[A-Za-z_][A-Za-z0-9_]*|::|[0-9][0-9A-Za-z_.]*|\S")


def tokens(text):
    """(token, line) pairs of stripped source."""
    out = []
    line = 1
    pos = 0
    for m in TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        t = m.group(0)
        if t.startswith("r#"):
            t = t[2:]
        out.append((t, line))
    return out


# ---------------------------------------------------------------------------------------------
# The crate's modules


class Module:
    def __init__(self, path, file, is_test):
        self.path = path  # tuple: ("crate", "a", "b")
        self.file = file  # the file that holds its body
        self.is_test = is_test
        self.children = {}  # name -> module path
        self.items = set()  # names defined here
        self.imports = {}  # alias -> (absolute path tuple, is_reexport)
        self.globs = []  # (absolute path tuple, is_reexport)
        self.refs = []  # (kind, path tuple as written, line): paths in code
        self.idents = {}  # identifier -> first line it appears on outside `use` declarations


def rel(crate_dir, path):
    return os.path.relpath(path, crate_dir)


def parse_use_tree(toks, i):
    """Parses a use tree at toks[i]; returns (list of (segments, alias), index after it).
    alias is the imported name, "*" for a glob, or None for `self` handled by the caller."""
    prefix = []
    while i < len(toks):
        t = toks[i][0]
        if t == "{":
            i += 1
            result = []
            while i < len(toks) and toks[i][0] != "}":
                sub, i = parse_use_tree(toks, i)
                result.extend((prefix + s, a) for s, a in sub)
                if i < len(toks) and toks[i][0] == ",":
                    i += 1
            return result, i + 1
        if t == "*":
            return [(prefix, "*")], i + 1
        if t == "::":
            i += 1
            continue
        if re.match(r"\$?[A-Za-z_]", t):
            prefix.append(t)
            i += 1
            if i < len(toks) and toks[i][0] == "::":
                continue
            alias = prefix[-1]
            if i + 1 < len(toks) and toks[i][0] == "as":
                alias = toks[i + 1][0]
                i += 2
            if prefix[-1] == "self":
                prefix = prefix[:-1]
                if alias == "self":
                    alias = prefix[-1] if prefix else None
            return [(prefix, alias)], i
        return [(prefix, prefix[-1] if prefix else None)], i
    return [(prefix, prefix[-1] if prefix else None)], i


def scan_file(crate, file, modpath, is_test, modules):
    """Registers the module at `modpath` held by `file`, its inline submodules, its items, imports
    and references; recurses into the files of `mod x;` declarations."""
    src = open(file, encoding="utf-8").read()
    toks = tokens(strip(src))
    modules[modpath] = Module(modpath, file, is_test)
    stack = [(modpath, 0)]  # (module path, brace depth at which its body starts)
    depth = 0
    pending_test = False  # a #[cfg(test)] attribute was seen before the next item
    file_dir = os.path.dirname(file)
    base = os.path.basename(file)
    # Where `mod x;` declared in this file looks for x: next to lib.rs/main.rs/mod.rs, else in a
    # directory named after the file.
    if base in ("lib.rs", "main.rs", "mod.rs"):
        child_dir = file_dir
    else:
        child_dir = os.path.join(file_dir, base[:-3])
    i = 0
    n = len(toks)
    while i < n:
        t, line = toks[i]
        cur = stack[-1][0]
        mod = modules[cur]
        if t == "#" and i + 1 < n and toks[i + 1][0] in ("[", "!"):
            # Attribute: #[cfg(test)] marks the next module as test code.
            j = i + (2 if toks[i + 1][0] == "[" else 3)
            attr_depth = 1
            k = j
            while k < n and attr_depth:
                if toks[k][0] == "[":
                    attr_depth += 1
                elif toks[k][0] == "]":
                    attr_depth -= 1
                k += 1
            words = [x[0] for x in toks[j : k - 1]]
            if words[:1] == ["cfg"] and "test" in words and "not" not in words:
                pending_test = True
            i = k
            continue
        if t == "{":
            depth += 1
            i += 1
            continue
        if t == "}":
            depth -= 1
            if len(stack) > 1 and depth < stack[-1][1]:
                stack.pop()
            i += 1
            continue
        if t == "mod" and i + 2 < n and re.match(r"[A-Za-z_]", toks[i + 1][0]):
            name = toks[i + 1][0]
            child = cur + (name,)
            mod.children[name] = child
            test = mod.is_test or pending_test
            pending_test = False
            if toks[i + 2][0] == ";":
                # The file of an inline module's child is in a directory named after the chain of
                # inline modules.
                inline = cur[len(modpath) :]
                d = os.path.join(child_dir, *inline)
                for cand in (os.path.join(d, name + ".rs"), os.path.join(d, name, "mod.rs")):
                    if os.path.exists(cand):
                        scan_file(crate, cand, child, test, modules)
                        break
                else:
                    print(f"warning: no file for module {'::'.join(child)}", file=sys.stderr)
                i += 3
                continue
            if toks[i + 2][0] == "{":
                depth += 1
                modules[child] = Module(child, file, test)
                stack.append((child, depth))
                i += 3
                continue
        if t == "use" and (i == 0 or toks[i - 1][0] != "::"):
            # Re-export: `pub use`, `pub(crate) use`, `pub(super) use`, `pub(in ..) use`.
            reexport = False
            if i >= 1 and toks[i - 1][0] == "pub":
                reexport = True
            elif i >= 2 and toks[i - 1][0] == ")":
                k = i - 2
                while k > 0 and toks[k][0] != "(":
                    k -= 1
                reexport = k > 0 and toks[k - 1][0] == "pub"
            trees, j = parse_use_tree(toks, i + 1)
            for segs, alias in trees:
                if not segs:
                    continue
                if alias == "*":
                    mod.globs.append((tuple(segs), reexport, line))
                elif alias is not None:
                    mod.imports[alias] = (tuple(segs), reexport, line)
            i = j
            continue
        if t in ITEM_KEYWORDS and i + 1 < n and re.match(r"[A-Za-z_]", toks[i + 1][0]):
            if depth == stack[-1][1] and toks[i + 1][0] not in ("fn", "mut", "unsafe", "extern"):
                mod.items.add(toks[i + 1][0])
            pending_test = False
        if t == "macro_rules" and i + 2 < n and toks[i + 1][0] == "!":
            mod.items.add(toks[i + 2][0])
        if re.match(r"[A-Za-z_]", t) and not (i and toks[i - 1][0] in ITEM_KEYWORDS | {"mod", "!"}):
            mod.idents.setdefault(t, line)
        # A path in code: IDENT :: IDENT ...
        if re.match(r"\$?[A-Za-z_]", t) and i + 1 < n and toks[i + 1][0] == "::" and (i == 0 or toks[i - 1][0] != "::"):
            segs = [t]
            j = i + 1
            while j + 1 < n and toks[j][0] == "::" and re.match(r"[A-Za-z_]", toks[j + 1][0]):
                segs.append(toks[j + 1][0])
                j += 2
            prev = toks[i - 1][0] if i else ""
            if prev not in (".",) and not (prev == "in" and i >= 2 and toks[i - 2][0] == "("):
                mod.refs.append(("code", tuple(segs), line))
            i = j
            continue
        i += 1


class Crate:
    def __init__(self, crate_dir, with_tests):
        self.dir = crate_dir
        root = None
        for cand in ("src/lib.rs", "src/main.rs"):
            if os.path.exists(os.path.join(crate_dir, cand)):
                root = os.path.join(crate_dir, cand)
                break
        if root is None:
            raise SystemExit(f"{crate_dir}: no src/lib.rs or src/main.rs")
        self.modules = {}
        scan_file(self, root, ("crate",), False, self.modules)
        if not with_tests:
            self.modules = {p: m for p, m in self.modules.items() if not m.is_test}
            for m in self.modules.values():
                m.children = {k: v for k, v in m.children.items() if v in self.modules}

    # -- resolution -------------------------------------------------------------------------

    def absolute(self, mod, segs, seen=()):
        """The absolute path (from `crate`) that `segs`, written in module `mod`, names; None
        for a path into another crate."""
        first = segs[0]
        if first in ("crate", "$crate"):
            return ("crate",) + tuple(segs[1:])
        if first == "self":
            return mod.path + tuple(segs[1:])
        if first == "super":
            p = mod.path
            k = 0
            while k < len(segs) and segs[k] == "super":
                p = p[:-1] if len(p) > 1 else p
                k += 1
            return p + tuple(segs[k:])
        if first in mod.children:
            return mod.path + tuple(segs)
        if first in mod.imports and (mod.path, first) not in seen:
            target, _, _ = mod.imports[first]
            base = self.absolute(mod, target, seen + ((mod.path, first),))
            if base is None:
                return None
            return base + tuple(segs[1:])
        if first in mod.items:
            return mod.path + tuple(segs)
        # A name from an enclosing module is not in scope in Rust 2018; a name imported by a
        # glob might be: try each glob.
        for g, _, _ in mod.globs:
            if (mod.path, g) in seen:
                continue
            base = self.absolute(mod, g, seen + ((mod.path, g),))
            if base is None:
                continue
            gm = self.modules.get(base)
            if gm and (first in gm.items or first in gm.children or first in gm.imports):
                return base + tuple(segs)
        return None

    def resolve(self, path, seen=()):
        """(file, module path, is_module) that defines what absolute `path` names."""
        if path in seen:
            return None
        seen = seen + (path,)
        k = 1
        while k < len(path) and path[:k + 1] in self.modules:
            k += 1
        mpath = path[:k]
        m = self.modules.get(mpath)
        if m is None:
            return None
        if k == len(path):
            return (m.file, mpath, True)
        name = path[k]
        rest = path[k + 1 :]
        if name in m.items:
            return (m.file, mpath, False)
        if name in m.imports:
            target, _, _ = m.imports[name]
            base = self.absolute(m, target)
            if base is None:
                return None  # a re-export of another crate's item
            return self.resolve(base + rest, seen)
        for g, _, _ in m.globs:
            base = self.absolute(m, g)
            if base is None:
                continue
            r = self.resolve(base + (name,) + rest, seen)
            if r is not None:
                gm = self.modules.get(r[1])
                if gm and (name in gm.items or name in gm.children):
                    return r
        # Unknown (macro-generated, or an associated item): the module's own file.
        return (m.file, mpath, False)

    def edges(self):
        """{(from file, to file): (line, what)} for the first reference that makes each edge."""
        out = {}

        def add(mod, line, path, what):
            r = self.resolve(path)
            if r is None:
                return
            file, _, is_module = r
            if is_module or file == mod.file:
                return
            key = (mod.file, file)
            if key not in out or line < out[key][0]:
                out[key] = (line, what)

        for mod in self.modules.values():
            for alias, (segs, reexport, line) in mod.imports.items():
                path = self.absolute(mod, segs)
                if path is None:
                    continue
                if not reexport:
                    add(mod, line, path, "use " + "::".join(segs))
                elif alias in mod.idents:
                    # Re-exported, and also used by the module's own code.
                    add(mod, mod.idents[alias], path, f"{alias} (pub use " + "::".join(segs) + ")")
            for segs, reexport, line in mod.globs:
                path = self.absolute(mod, segs)
                if path is None:
                    continue
                gm = self.modules.get(path)
                names = set()
                if gm is not None:
                    names = (gm.items | set(gm.children) | set(gm.imports)) & set(mod.idents)
                for name in sorted(names):
                    how = "pub use " if reexport else "use "
                    add(mod, mod.idents[name], path + (name,), f"{name} ({how}" + "::".join(segs) + "::*)")
                if not reexport and not names:
                    r = self.resolve(path)
                    if r and r[0] != mod.file:
                        key = (mod.file, r[0])
                        if key not in out or line < out[key][0]:
                            out[key] = (line, "use " + "::".join(segs) + "::*")
            for kind, segs, line in mod.refs:
                if segs[0] not in PATH_ROOTS and segs[0] != "$crate" and segs[0] not in mod.children:
                    # Only aliases that name a module of this crate start a module path.
                    if segs[0] not in mod.imports:
                        continue
                    p = self.absolute(mod, segs[:1])
                    if p is None or p not in self.modules:
                        continue
                path = self.absolute(mod, segs)
                if path is not None:
                    add(mod, line, path, "::".join(segs))
        return out


# ---------------------------------------------------------------------------------------------
# Cycles


def sccs(nodes, succ):
    """Tarjan's strongly connected components."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def simple_cycles(comp, succ, limit=50):
    """Up to `limit` elementary cycles inside one component, shortest first."""
    comp = set(comp)
    found = []
    order = sorted(comp)
    for s_idx, start in enumerate(order):
        allowed = set(order[s_idx:])
        stack = [(start, [start])]
        while stack:
            v, path = stack.pop()
            for w in sorted(succ.get(v, ()), reverse=True):
                if w not in allowed:
                    continue
                if w == start:
                    found.append(path[:])
                elif w not in path:
                    stack.append((w, path + [w]))
        if len(found) > 10 * limit:
            break
    found.sort(key=lambda c: (len(c), c))
    return found[:limit], len(found)


def main(argv):
    with_tests = "--no-tests" not in argv
    show_edges = "--edges" in argv
    dirs = [a for a in argv if not a.startswith("--")]
    if not dirs:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    status = 0
    for d in dirs:
        crate = Crate(d, with_tests)
        edges = crate.edges()
        succ = defaultdict(set)
        for a, b in edges:
            succ[a].add(b)
        files = {m.file for m in crate.modules.values()}
        comps = [c for c in sccs(files, succ) if len(c) > 1]
        name = os.path.normpath(d)
        print(f"== {name}: {len(files)} files, {len(edges)} edges, {len(comps)} cycle(s)")
        if show_edges:
            for (a, b), (line, what) in sorted(edges.items()):
                print(f"   {rel(d, a)} -> {rel(d, b)}   ({rel(d, a)}:{line}: {what})")
        for comp in comps:
            status = 1
            print(f"cycle: {', '.join(rel(d, f) for f in comp)}")
            inside = set(comp)
            for (a, b), (line, what) in sorted(edges.items()):
                if a in inside and b in inside:
                    print(f"   {rel(d, a)} -> {rel(d, b)}   ({rel(d, a)}:{line}: {what})")
            cycles, total = simple_cycles(comp, succ)
            for c in cycles:
                print("   circle: " + " -> ".join(rel(d, f) for f in c + [c[0]]))
            if total > len(cycles):
                print(f"   ... and {total - len(cycles)} more elementary circles")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
