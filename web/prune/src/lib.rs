//! Prunes the browser build of what only Bevy's reflection auto-registration keeps alive.
//!
//! Every `#[derive(Reflect)]` type in Bevy 0.20 submits a registration function to an
//! `inventory` list from a static constructor. Only `TypeRegistry::register_derived_types` reads
//! that list, and only when `bevy_app`'s `reflect_auto_register` feature is on; ours is off (we
//! take Bevy without default features). The linker cannot know that: constructors are always
//! kept, so each one keeps its type's whole reflection (type info, `try_apply`, serde glue
//! through `erased_serde`, `ReflectComponent` closures, ...) in the module. That is about a
//! fifth of the wasm.
//!
//! This tool reads the module as linked with `--emit-relocs` (so every reference between
//! functions and data is known exactly, as the linker knew it) and does the linker's own
//! reachability again, with one difference: the auto-registration constructors are not roots.
//! Then it
//! - drops their calls from `__wasm_call_ctors`,
//! - points every function-table slot that no live code or data refers to at a stub that
//!   traps (`unreachable`), so `wasm-opt` can drop the functions behind them,
//! - zeroes data that nothing live refers to (so `wasm-opt` can drop it too),
//! - and removes the relocation, linking and debug sections, which no longer match.
//!
//! It refuses (an error, not a guess) when the module reads the list after all (the list's
//! head, inventory's `REGISTRY` static, is still reachable without the constructors, or
//! `register_types` is linked in), when the relocations are missing, or when it meets a
//! section form it does not know.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// Why a module could not be pruned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn err<T>(message: impl Into<String>) -> Result<T, Error> {
    Err(Error(message.into()))
}

/// What a prune did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Auto-registration constructors no longer called.
    pub constructors: usize,
    /// Defined functions nothing live reaches any more (wasm-opt removes them).
    pub dead_functions: usize,
    /// Their body bytes.
    pub dead_function_bytes: usize,
    /// Function-table slots pointed at a trapping stub.
    pub stubbed_slots: usize,
    /// Data bytes zeroed.
    pub zeroed_data_bytes: usize,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} auto-registration constructors dropped; {} functions ({} bytes) unreachable; \
             {} table slots stubbed; {} data bytes zeroed",
            self.constructors,
            self.dead_functions,
            self.dead_function_bytes,
            self.stubbed_slots,
            self.zeroed_data_bytes
        )
    }
}

/// A cursor over a byte slice with the wasm encodings.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8], pos: usize) -> Self {
        Reader { bytes, pos }
    }

    fn done(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn u8(&mut self) -> Result<u8, Error> {
        let Some(&b) = self.bytes.get(self.pos) else {
            return err(format!("unexpected end of input at byte {}", self.pos));
        };
        self.pos += 1;
        Ok(b)
    }

    /// LEB128's bits, how many it read, and its last byte (for the sign).
    fn leb(&mut self) -> Result<(u64, u32, u8), Error> {
        let mut result = 0u64;
        let mut shift = 0;
        loop {
            let b = self.u8()?;
            if shift < 64 {
                result |= u64::from(b & 0x7f) << shift;
            }
            shift += 7;
            if b & 0x80 == 0 {
                return Ok((result, shift, b));
            }
            if shift > 70 {
                return err(format!("LEB128 too long at byte {}", self.pos));
            }
        }
    }

    fn uleb(&mut self) -> Result<u64, Error> {
        Ok(self.leb()?.0)
    }

    fn u32(&mut self) -> Result<u32, Error> {
        let v = self.uleb()?;
        u32::try_from(v).or_else(|_| err(format!("{v} does not fit in 32 bits")))
    }

    fn usize(&mut self) -> Result<usize, Error> {
        Ok(self.u32()? as usize)
    }

    fn sleb(&mut self) -> Result<i64, Error> {
        let (bits, shift, last) = self.leb()?;
        let mut result = bits as i64;
        if shift < 64 && last & 0x40 != 0 {
            result |= -1i64 << shift;
        }
        Ok(result)
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return err(format!("{n} bytes past the end at byte {}", self.pos));
        };
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn name(&mut self) -> Result<&'a str, Error> {
        let n = self.usize()?;
        let bytes = self.bytes(n)?;
        std::str::from_utf8(bytes).or_else(|_| err("a name is not UTF-8"))
    }

    /// A constant expression of the form `i32.const N end` (segment offsets in a non-PIC module).
    fn i32_const_expr(&mut self) -> Result<i64, Error> {
        if self.u8()? != 0x41 {
            return err("an offset expression other than i32.const");
        }
        let v = self.sleb()?;
        if self.u8()? != 0x0b {
            return err("an offset expression longer than i32.const");
        }
        Ok(v)
    }

    fn limits(&mut self) -> Result<(), Error> {
        let flags = self.u8()?;
        self.uleb()?;
        if flags & 1 != 0 {
            self.uleb()?;
        }
        Ok(())
    }
}

/// Unsigned LEB128.
pub fn uleb(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

struct Section {
    id: u8,
    /// Content range in the module.
    start: usize,
    end: usize,
    /// For custom sections: the name and where the payload after it starts.
    custom: Option<(String, usize)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SymbolKind {
    Function(u32),
    /// Defined data: start offset in the data section's content, and size.
    Data {
        at: usize,
        size: usize,
    },
    Other,
}

struct Symbol {
    kind: SymbolKind,
    flags: u32,
    /// A data symbol named like the head of inventory's auto-registration list.
    list_head: bool,
}

/// The head of the auto-registration list: `<AutomaticReflectRegistrations as
/// inventory::Collect>::registry::REGISTRY`. Whatever reads the list refers to it.
fn is_list_head(name: &str) -> bool {
    name.contains("AutomaticReflectRegistrations") && name.contains("REGISTRY")
}

const SYM_UNDEFINED: u32 = 0x10;
const SYM_EXPORTED: u32 = 0x20;
const SYM_EXPLICIT_NAME: u32 = 0x40;
const SYM_NO_STRIP: u32 = 0x80;
const SYM_ABSOLUTE: u32 = 0x200;

/// Relocation types that carry an addend (tool-conventions, Linking.md).
fn has_addend(kind: u8) -> bool {
    matches!(
        kind,
        3 | 4 | 5 | 8 | 9 | 11 | 14 | 15 | 16 | 17 | 21 | 22 | 23 | 25
    )
}

/// What a relocation makes live.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Edge {
    /// A direct call or function index: the function.
    Call(u32),
    /// A table index (function pointer): the function and its slot.
    Address(u32),
    /// A memory address: the data symbol.
    Data(u32),
}

fn edge_kind(kind: u8) -> Option<EdgeKind> {
    match kind {
        0 | 26 => Some(EdgeKind::Call),
        1 | 2 | 12 | 18 | 19 | 24 => Some(EdgeKind::Address),
        3 | 4 | 5 | 11 | 14 | 15 | 16 | 17 | 21 | 23 | 25 => Some(EdgeKind::Data),
        // Type, global, tag and table numbers, and offsets into functions or sections (debug
        // information): nothing that this pruning removes.
        _ => None,
    }
}

#[derive(Clone, Copy)]
enum EdgeKind {
    Call,
    Address,
    Data,
}

struct Elements {
    /// Active segments' (table slot, function) pairs.
    slots: Vec<(u32, u32)>,
    /// Functions of passive and declared segments: roots.
    declared: Vec<u32>,
}

struct Module<'a> {
    bytes: &'a [u8],
    sections: Vec<Section>,
    imported_functions: u32,
    /// Type index of each defined function.
    function_types: Vec<u32>,
    /// Body range (start in the module, length) of each defined function.
    bodies: Vec<(usize, usize)>,
    code_section: usize,
    data_section: Option<usize>,
    /// Exported and start functions.
    roots: Vec<u32>,
    /// Function names from the name section.
    names: HashMap<u32, String>,
}

impl<'a> Module<'a> {
    fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        if bytes.len() < 8 || &bytes[0..4] != b"\0asm" || bytes[4..8] != [1, 0, 0, 0] {
            return err("not a WebAssembly module (version 1)");
        }
        let mut r = Reader::new(bytes, 8);
        let mut sections = Vec::new();
        while !r.done() {
            let id = r.u8()?;
            let size = r.usize()?;
            let start = r.pos;
            r.bytes(size)?;
            let custom = if id == 0 {
                let mut c = Reader::new(&bytes[..start + size], start);
                let name = c.name()?.to_owned();
                Some((name, c.pos))
            } else {
                None
            };
            sections.push(Section {
                id,
                start,
                end: start + size,
                custom,
            });
        }
        let mut module = Module {
            bytes,
            sections,
            imported_functions: 0,
            function_types: Vec::new(),
            bodies: Vec::new(),
            code_section: usize::MAX,
            data_section: None,
            roots: Vec::new(),
            names: HashMap::new(),
        };
        for index in 0..module.sections.len() {
            let (id, start, end) = {
                let s = &module.sections[index];
                (s.id, s.start, s.end)
            };
            let mut r = Reader::new(&bytes[..end], start);
            match id {
                2 => {
                    for _ in 0..r.u32()? {
                        r.name()?;
                        r.name()?;
                        match r.u8()? {
                            0 => {
                                r.u32()?;
                                module.imported_functions += 1;
                            }
                            1 => {
                                r.u8()?;
                                r.limits()?;
                            }
                            2 => r.limits()?,
                            3 => {
                                r.u8()?;
                                r.u8()?;
                            }
                            4 => {
                                r.u8()?;
                                r.u32()?;
                            }
                            k => return err(format!("import of unknown kind {k}")),
                        }
                    }
                }
                3 => {
                    for _ in 0..r.u32()? {
                        module.function_types.push(r.u32()?);
                    }
                }
                7 => {
                    for _ in 0..r.u32()? {
                        r.name()?;
                        let kind = r.u8()?;
                        let index = r.u32()?;
                        if kind == 0 {
                            module.roots.push(index);
                        }
                    }
                }
                8 => module.roots.push(r.u32()?),
                10 => {
                    module.code_section = index;
                    for _ in 0..r.u32()? {
                        let size = r.usize()?;
                        module.bodies.push((r.pos, size));
                        r.bytes(size)?;
                    }
                }
                11 => module.data_section = Some(index),
                0 if module.sections[index].custom.as_ref().unwrap().0 == "name" => {
                    let payload = module.sections[index].custom.as_ref().unwrap().1;
                    let mut r = Reader::new(&bytes[..end], payload);
                    while !r.done() {
                        let sub = r.u8()?;
                        let size = r.usize()?;
                        let sub_end = r.pos + size;
                        if sub == 1 {
                            for _ in 0..r.u32()? {
                                let f = r.u32()?;
                                let name = r.name()?;
                                module.names.insert(f, name.to_owned());
                            }
                        }
                        r.pos = sub_end;
                    }
                }
                _ => {}
            }
        }
        if module.code_section == usize::MAX {
            return err("no code section");
        }
        if module.bodies.len() != module.function_types.len() {
            return err("the function and code sections disagree");
        }
        Ok(module)
    }

    fn function_count(&self) -> u32 {
        self.imported_functions + self.function_types.len() as u32
    }

    fn custom(&self, name: &str) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.custom.as_ref().is_some_and(|(n, _)| n == name))
    }

    fn function_named(&self, name: &str) -> Option<u32> {
        self.names.iter().find(|(_, n)| *n == name).map(|(&f, _)| f)
    }

    /// Body bytes (locals and instructions) of a defined function.
    fn body(&self, function: u32) -> &'a [u8] {
        let (at, size) = self.bodies[(function - self.imported_functions) as usize];
        &self.bytes[at..at + size]
    }

    /// The element section's function references.
    fn elements(&self) -> Result<Elements, Error> {
        let (mut slots, mut declared) = (Vec::new(), Vec::new());
        if let Some(section) = self.sections.iter().find(|s| s.id == 9) {
            map_elements(&self.bytes[section.start..section.end], |slot, f| {
                match slot {
                    Some(slot) => slots.push((slot, f)),
                    None => declared.push(f),
                }
                f
            })?;
        }
        Ok(Elements { slots, declared })
    }

    /// Data segments: (memory address, content range in the module).
    fn data_segments(&self) -> Result<Vec<(usize, usize)>, Error> {
        let mut out = Vec::new();
        let Some(index) = self.data_section else {
            return Ok(out);
        };
        let s = &self.sections[index];
        let mut r = Reader::new(&self.bytes[..s.end], s.start);
        for _ in 0..r.u32()? {
            match r.u32()? {
                0 => {
                    r.i32_const_expr()?;
                }
                1 => {}
                2 => {
                    r.u32()?;
                    r.i32_const_expr()?;
                }
                f => return err(format!("a data segment with flags {f}")),
            }
            let size = r.usize()?;
            out.push((r.pos, size));
            r.bytes(size)?;
        }
        Ok(out)
    }
}

/// The linking section's symbol table and constructors.
fn symbols(module: &Module, segments: &[(usize, usize)]) -> Result<(Vec<Symbol>, Vec<u32>), Error> {
    let Some(section) = module.custom("linking") else {
        return err("no linking section: link with -C link-arg=--emit-relocs");
    };
    let data_start = module.data_section.map_or(0, |i| module.sections[i].start);
    let mut r = Reader::new(
        &module.bytes[..section.end],
        section.custom.as_ref().unwrap().1,
    );
    if r.u32()? != 2 {
        return err("a linking section of a version other than 2");
    }
    let mut symbols = Vec::new();
    let mut init = Vec::new();
    while !r.done() {
        let sub = r.u8()?;
        let size = r.usize()?;
        let end = r.pos + size;
        match sub {
            8 => {
                for _ in 0..r.u32()? {
                    let kind = r.u8()?;
                    let flags = r.u32()?;
                    let mut list_head = false;
                    let kind = match kind {
                        0 | 2 | 4 | 5 => {
                            let index = r.u32()?;
                            if flags & SYM_UNDEFINED == 0 || flags & SYM_EXPLICIT_NAME != 0 {
                                r.name()?;
                            }
                            if kind == 0 {
                                SymbolKind::Function(index)
                            } else {
                                SymbolKind::Other
                            }
                        }
                        1 => {
                            list_head = is_list_head(r.name()?);
                            if flags & SYM_UNDEFINED != 0 {
                                SymbolKind::Other
                            } else {
                                let segment = r.usize()?;
                                let offset = r.usize()?;
                                let size = r.usize()?;
                                if flags & SYM_ABSOLUTE != 0 {
                                    SymbolKind::Other
                                } else {
                                    let Some(&(at, len)) = segments.get(segment) else {
                                        return err("a data symbol in a segment that is not there");
                                    };
                                    if offset + size > len {
                                        return err("a data symbol past its segment's end");
                                    }
                                    SymbolKind::Data {
                                        at: at - data_start + offset,
                                        size,
                                    }
                                }
                            }
                        }
                        3 => {
                            r.u32()?;
                            SymbolKind::Other
                        }
                        k => return err(format!("a symbol of unknown kind {k}")),
                    };
                    symbols.push(Symbol {
                        kind,
                        flags,
                        list_head,
                    });
                }
            }
            6 => {
                for _ in 0..r.u32()? {
                    r.u32()?;
                    init.push(r.u32()?);
                }
            }
            _ => {}
        }
        r.pos = end;
    }
    Ok((symbols, init))
}

/// Defined data symbols sorted by start, with the running maximum of their ends, to find every
/// symbol that contains an offset.
struct DataIndex {
    spans: Vec<(usize, usize, u32)>,
    max_end: Vec<usize>,
}

impl DataIndex {
    fn new(symbols: &[Symbol]) -> Self {
        let mut spans: Vec<(usize, usize, u32)> = symbols
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s.kind {
                SymbolKind::Data { at, size } if size > 0 => Some((at, at + size, i as u32)),
                _ => None,
            })
            .collect();
        spans.sort_unstable();
        let mut max_end = Vec::with_capacity(spans.len());
        let mut m = 0;
        for &(_, end, _) in &spans {
            m = m.max(end);
            max_end.push(m);
        }
        DataIndex { spans, max_end }
    }

    fn containing(&self, offset: usize, out: &mut Vec<u32>) {
        out.clear();
        let mut i = self.spans.partition_point(|&(start, _, _)| start <= offset);
        while i > 0 && self.max_end[i - 1] > offset {
            i -= 1;
            let (_, end, sym) = self.spans[i];
            if end > offset {
                out.push(sym);
            }
        }
    }
}

/// The outgoing references of every defined function and data symbol, from the relocations.
struct Graph {
    /// Per defined function (index minus imports).
    functions: Vec<Vec<Edge>>,
    /// Per symbol (only data symbols have any).
    data: HashMap<u32, Vec<Edge>>,
    /// References from data that no symbol covers: live whatever happens.
    loose: Vec<Edge>,
    /// Defined functions that have relocations at all.
    has_relocations: Vec<bool>,
}

fn graph(module: &Module, symbols: &[Symbol], data: &DataIndex) -> Result<Graph, Error> {
    let defined = module.function_types.len();
    let mut g = Graph {
        functions: vec![Vec::new(); defined],
        data: HashMap::new(),
        loose: Vec::new(),
        has_relocations: vec![false; defined],
    };
    let code = &module.sections[module.code_section];
    let body_starts: Vec<usize> = module
        .bodies
        .iter()
        .map(|&(at, _)| at - code.start)
        .collect();
    let mut containing = Vec::new();
    for section in &module.sections {
        let Some((name, payload)) = &section.custom else {
            continue;
        };
        if !name.starts_with("reloc.") {
            continue;
        }
        let mut r = Reader::new(&module.bytes[..section.end], *payload);
        let target = r.usize()?;
        let in_code = target == module.code_section;
        let in_data = Some(target) == module.data_section;
        match module.sections.get(target) {
            // Debug information: not part of the running program.
            Some(s) if s.id == 0 => {}
            Some(_) if in_code || in_data => {}
            _ => {
                return err(format!(
                    "{name} relocates section {target}: not code, data or custom"
                ));
            }
        }
        for _ in 0..r.u32()? {
            let kind = r.u8()?;
            let offset = r.usize()?;
            let index = r.u32()?;
            if has_addend(kind) {
                r.sleb()?;
            }
            if !in_code && !in_data {
                continue;
            }
            let Some(kind) = edge_kind(kind) else {
                continue;
            };
            let Some(symbol) = symbols.get(index as usize) else {
                return err(format!(
                    "a relocation to symbol {index}, which is not there"
                ));
            };
            let e = match (kind, symbol.kind) {
                (EdgeKind::Call, SymbolKind::Function(f)) => Edge::Call(f),
                (EdgeKind::Address, SymbolKind::Function(f)) => Edge::Address(f),
                (EdgeKind::Data, SymbolKind::Data { .. }) => Edge::Data(index),
                // Undefined or absolute data (linker-made addresses such as __heap_base).
                (EdgeKind::Data, _) => continue,
                _ => return err(format!("relocation type and symbol {index} disagree")),
            };
            if in_code {
                let i = body_starts.partition_point(|&s| s <= offset);
                if i == 0 {
                    return err("a code relocation before the first function body");
                }
                g.functions[i - 1].push(e);
                g.has_relocations[i - 1] = true;
            } else {
                data.containing(offset, &mut containing);
                if containing.is_empty() {
                    g.loose.push(e);
                }
                for &sym in &containing {
                    g.data.entry(sym).or_default().push(e);
                }
            }
        }
    }
    Ok(g)
}

/// Direct calls and `ref.func` in a function the linker wrote (no relocations: the export
/// wrappers, for one), read conservatively: any byte that could start such an instruction
/// counts, which can only keep more alive.
fn raw_callees(body: &[u8], functions: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for i in 0..body.len() {
        if matches!(body[i], 0x10 | 0x12 | 0xd2) {
            let mut r = Reader::new(body, i + 1);
            if let Ok(f) = r.u32()
                && f < functions
            {
                out.push(f);
            }
        }
    }
    out
}

/// `__wasm_call_ctors`'s calls, in order; its body must be nothing else.
fn constructor_calls(body: &[u8]) -> Result<Vec<u32>, Error> {
    let mut r = Reader::new(body, 0);
    if r.u32()? != 0 {
        return err("__wasm_call_ctors has locals");
    }
    let mut calls = Vec::new();
    loop {
        match r.u8()? {
            0x10 => calls.push(r.u32()?),
            0x0b if r.done() => return Ok(calls),
            op => {
                return err(format!(
                    "__wasm_call_ctors holds an instruction other than call (0x{op:02x})"
                ));
            }
        }
    }
}

/// A Rust symbol (v0 or legacy mangling): code from an object file, not written by the linker.
fn is_compiled(name: &str) -> bool {
    name.starts_with("_R") || name.starts_with("_ZN")
}

fn is_registration_function(name: &str) -> bool {
    name.contains("RegisterForReflection") && name.contains("__register")
}

/// Prunes a module (see the crate documentation). Returns the new module and what was done.
pub fn prune(bytes: &[u8]) -> Result<(Vec<u8>, Report), Error> {
    let module = Module::parse(bytes)?;
    if module.names.is_empty() {
        return err("no function names (the name section) to find the constructors by");
    }
    if let Some(name) = module
        .names
        .values()
        .find(|n| n.contains("auto_register") && n.contains("register_types"))
    {
        return err(format!(
            "the auto-registration list is read ({name} is linked in): nothing to prune safely"
        ));
    }
    let Elements { slots, declared } = module.elements()?;
    let segments = module.data_segments()?;
    let (symbols, init) = symbols(&module, &segments)?;
    let data = DataIndex::new(&symbols);
    let g = graph(&module, &symbols, &data)?;
    let imported = module.imported_functions;
    let functions = module.function_count();
    let defined = |f: u32| f >= imported && f < functions;

    // Auto-registration constructors: they call nothing directly and refer only to data that
    // leads (through inventory's node and the registration static) to a registration function.
    let registration: BTreeSet<u32> = module
        .names
        .iter()
        .filter(|(_, n)| is_registration_function(n))
        .map(|(&f, _)| f)
        .collect();
    let leads_to_registration = |start: u32| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![(start, 0)];
        while let Some((sym, depth)) = stack.pop() {
            if !seen.insert(sym) {
                continue;
            }
            for e in g.data.get(&sym).into_iter().flatten() {
                match *e {
                    Edge::Address(f) | Edge::Call(f) if registration.contains(&f) => return true,
                    Edge::Data(next) if depth < 3 => stack.push((next, depth + 1)),
                    _ => {}
                }
            }
        }
        false
    };
    let constructors = init
        .iter()
        .map(|&sym| match symbols.get(sym as usize) {
            Some(Symbol {
                kind: SymbolKind::Function(f),
                ..
            }) => Ok(*f),
            _ => err("a constructor that is not a function symbol"),
        })
        .collect::<Result<Vec<u32>, Error>>()?;
    let mut autoreg = BTreeSet::new();
    for &f in constructors.iter().filter(|&&f| defined(f)) {
        let edges = &g.functions[(f - imported) as usize];
        let only_data = !edges.is_empty() && edges.iter().all(|e| matches!(e, Edge::Data(_)));
        if only_data
            && edges
                .iter()
                .all(|e| matches!(*e, Edge::Data(d) if leads_to_registration(d)))
        {
            autoreg.insert(f);
        }
    }
    // `__wasm_call_ctors` and the calls it keeps (read once, for the walk and the rewrite).
    let call_ctors = module.function_named("__wasm_call_ctors");
    if !autoreg.is_empty() && call_ctors.is_none() {
        return err("constructors but no __wasm_call_ctors");
    }
    let kept_ctor_calls: Vec<u32> = match call_ctors {
        Some(f) if defined(f) => constructor_calls(module.body(f))?
            .into_iter()
            .filter(|c| !autoreg.contains(c))
            .collect(),
        _ => Vec::new(),
    };

    // Reachability, as the linker does it, without those constructors.
    let mut live = vec![false; functions as usize];
    let mut address_taken = vec![false; functions as usize];
    let mut live_data = vec![false; symbols.len()];
    let mut work: Vec<Edge> = (module.roots.iter().chain(&declared))
        .chain(constructors.iter().filter(|f| !autoreg.contains(f)))
        .map(|&f| Edge::Call(f))
        .collect();
    for (i, s) in symbols.iter().enumerate() {
        if s.flags & (SYM_EXPORTED | SYM_NO_STRIP) != 0 && s.flags & SYM_UNDEFINED == 0 {
            match s.kind {
                SymbolKind::Function(f) => work.push(Edge::Call(f)),
                SymbolKind::Data { .. } => work.push(Edge::Data(i as u32)),
                SymbolKind::Other => {}
            }
        }
    }
    work.extend(g.loose.iter().copied());
    while let Some(e) = work.pop() {
        match e {
            Edge::Call(f) | Edge::Address(f) => {
                if f >= functions {
                    return err(format!("a reference to function {f}, which is not there"));
                }
                if matches!(e, Edge::Address(_)) {
                    address_taken[f as usize] = true;
                }
                if live[f as usize] {
                    continue;
                }
                live[f as usize] = true;
                if !defined(f) {
                    continue;
                }
                let i = (f - imported) as usize;
                if g.has_relocations[i] {
                    work.extend(g.functions[i].iter().copied());
                } else if module.names.get(&f).is_some_and(|n| is_compiled(n)) {
                    // Compiled code names every function it refers to in a relocation: with
                    // none, it refers to none. (A raw read of such a body finds "calls" in
                    // its constants: one kept a constructor alive.)
                } else if Some(f) == call_ctors {
                    work.extend(kept_ctor_calls.iter().map(|&c| Edge::Call(c)));
                } else {
                    for c in raw_callees(module.body(f), functions) {
                        // A raw read cannot tell a call from a pointer: count both.
                        work.push(Edge::Address(c));
                    }
                }
            }
            Edge::Data(sym) => {
                if live_data[sym as usize] {
                    continue;
                }
                live_data[sym as usize] = true;
                if let Some(edges) = g.data.get(&sym) {
                    work.extend(edges.iter().copied());
                }
            }
        }
    }

    // The proof that the list is never read: without the constructors (its only writers),
    // nothing live refers to its head. (Checked even if `register_types` was inlined away.)
    if !autoreg.is_empty() {
        let heads: Vec<usize> = (0..symbols.len())
            .filter(|&i| symbols[i].list_head)
            .collect();
        if heads.is_empty() {
            return err("auto-registration constructors, but no REGISTRY static for their list");
        }
        if heads.iter().any(|&i| live_data[i]) {
            return err("the auto-registration list is still reachable: something reads it");
        }
    }

    let mut report = Report {
        constructors: autoreg.len(),
        ..Report::default()
    };
    for f in imported..functions {
        if !live[f as usize] {
            report.dead_functions += 1;
            report.dead_function_bytes += module.body(f).len();
        }
    }

    // Stubs: one trapping function per signature of a stubbed slot, appended after the others.
    let mut stub_types: Vec<u32> = Vec::new();
    let mut slot_map: HashMap<u32, u32> = HashMap::new();
    for &(slot, f) in &slots {
        if defined(f) && !address_taken[f as usize] {
            let ty = module.function_types[(f - imported) as usize];
            let stub = match stub_types.iter().position(|&t| t == ty) {
                Some(i) => functions + i as u32,
                None => {
                    stub_types.push(ty);
                    functions + stub_types.len() as u32 - 1
                }
            };
            slot_map.insert(slot, stub);
            report.stubbed_slots += 1;
        }
    }

    // Data nothing live refers to, except bytes a live symbol also covers.
    let mut data_bytes: Option<Vec<u8>> = None;
    if let Some(index) = module.data_section {
        let s = &module.sections[index];
        let mut bytes = module.bytes[s.start..s.end].to_vec();
        let mut keep = vec![false; bytes.len()];
        for (i, sym) in symbols.iter().enumerate() {
            if let SymbolKind::Data { at, size } = sym.kind
                && live_data[i]
            {
                keep[at..at + size].fill(true);
            }
        }
        for (i, sym) in symbols.iter().enumerate() {
            if let SymbolKind::Data { at, size } = sym.kind
                && !live_data[i]
            {
                for j in at..at + size {
                    if !keep[j] && bytes[j] != 0 {
                        bytes[j] = 0;
                        report.zeroed_data_bytes += 1;
                    }
                }
                // Zeroed once is enough for overlapping dead symbols.
                keep[at..at + size].fill(true);
            }
        }
        data_bytes = Some(bytes);
    }

    // Write the module again.
    let mut out = bytes[..8].to_vec();
    for (index, s) in module.sections.iter().enumerate() {
        if let Some((name, _)) = &s.custom
            && (name == "linking" || name.starts_with("reloc.") || name.starts_with(".debug"))
        {
            continue;
        }
        let content: Vec<u8> = match s.id {
            3 => {
                let mut c = Vec::new();
                uleb(
                    (module.function_types.len() + stub_types.len()) as u64,
                    &mut c,
                );
                for &t in module.function_types.iter().chain(&stub_types) {
                    uleb(u64::from(t), &mut c);
                }
                c
            }
            9 => map_elements(&bytes[s.start..s.end], |slot, f| {
                slot.and_then(|slot| slot_map.get(&slot).copied())
                    .unwrap_or(f)
            })?,
            10 => {
                let mut c = Vec::new();
                uleb((module.bodies.len() + stub_types.len()) as u64, &mut c);
                for f in imported..functions {
                    let body = module.body(f);
                    if Some(f) == call_ctors {
                        let mut b = vec![0];
                        for &callee in &kept_ctor_calls {
                            b.push(0x10);
                            uleb(u64::from(callee), &mut b);
                        }
                        b.push(0x0b);
                        uleb(b.len() as u64, &mut c);
                        c.extend_from_slice(&b);
                    } else {
                        uleb(body.len() as u64, &mut c);
                        c.extend_from_slice(body);
                    }
                }
                for _ in &stub_types {
                    // No locals; unreachable; end.
                    c.extend_from_slice(&[3, 0, 0x00, 0x0b]);
                }
                c
            }
            11 if Some(index) == module.data_section => data_bytes.take().unwrap(),
            _ => bytes[s.start..s.end].to_vec(),
        };
        out.push(s.id);
        uleb(content.len() as u64, &mut out);
        out.extend_from_slice(&content);
    }
    Ok((out, report))
}

/// The element section's content again, each function index passed through `map` with its
/// table slot (`None` in passive and declared segments). Reading and rewriting the section
/// are both this one walk.
fn map_elements(
    content: &[u8],
    mut map: impl FnMut(Option<u32>, u32) -> u32,
) -> Result<Vec<u8>, Error> {
    let mut r = Reader::new(content, 0);
    let mut out = Vec::new();
    let count = r.u32()?;
    uleb(u64::from(count), &mut out);
    for _ in 0..count {
        let start = r.pos;
        let flags = r.u32()?;
        let offset = match flags {
            0 | 2 => {
                if flags == 2 && r.u32()? != 0 {
                    return err("an element segment for a table other than the first");
                }
                let offset = r.i32_const_expr()?;
                if flags == 2 && r.u8()? != 0 {
                    return err("an element segment of other than functions");
                }
                Some(offset)
            }
            1 | 3 => {
                if r.u8()? != 0 {
                    return err("an element segment of other than functions");
                }
                None
            }
            f => return err(format!("element segments with expressions (flags {f})")),
        };
        out.extend_from_slice(&content[start..r.pos]);
        let n = r.u32()?;
        uleb(u64::from(n), &mut out);
        for i in 0..n {
            let f = r.u32()?;
            let slot = match offset {
                Some(offset) => Some(
                    u32::try_from(offset + i64::from(i))
                        .or_else(|_| err("a negative table offset"))?,
                ),
                None => None,
            };
            uleb(u64::from(map(slot, f)), &mut out);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
