//! A small module laid out the way wasm-ld writes ours with `--emit-relocs`, built byte by byte.

use super::*;

/// LEB128 padded to five bytes, as the linker leaves relocatable fields.
fn padded(v: u32) -> [u8; 5] {
    let mut out = [0u8; 5];
    for (i, b) in out.iter_mut().enumerate() {
        *b = ((v >> (7 * i)) & 0x7f) as u8 | if i < 4 { 0x80 } else { 0 };
    }
    out
}

fn name(s: &str, out: &mut Vec<u8>) {
    uleb(s.len() as u64, out);
    out.extend_from_slice(s.as_bytes());
}

fn section(id: u8, content: &[u8], out: &mut Vec<u8>) {
    out.push(id);
    uleb(content.len() as u64, out);
    out.extend_from_slice(content);
}

fn custom(title: &str, payload: &[u8], out: &mut Vec<u8>) {
    let mut c = Vec::new();
    name(title, &mut c);
    c.extend_from_slice(payload);
    section(0, &c, out);
}

const NAMES: [&str; 8] = [
    "__wasm_call_ctors",
    "main",
    "_RNv11live_callee",
    "autoreg_ctor",
    "other_ctor",
    "_RNvXs_Foo_RegisterForReflection8__register",
    "kept_by_other_ctor",
    "reflect_closure",
];
const DATA_BASE: u32 = 1024;

/// Functions 0-7 as named in `NAMES`; symbols 0-7 are those functions, 8 the inventory node,
/// 9 the registration static, 10 live data, 11 reflection data, 12 the list's head. Table
/// slots 1, 2, 3 hold functions 5, 6, 7. `extra_name` renames function 2 (to test refusals);
/// `linking` leaves the relocation sections out when false; `reads_list` makes `main` refer to
/// the list's head.
fn module(extra_name: Option<&str>, linking: bool, reads_list: bool) -> Vec<u8> {
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    // Types: 0 = () -> (), 1 = (i32) -> ().
    section(1, &[2, 0x60, 0, 0, 0x60, 1, 0x7f, 0], &mut m);
    section(3, &[8, 0, 0, 0, 0, 0, 1, 0, 1], &mut m);
    // A table and a memory.
    section(4, &[1, 0x70, 0, 4], &mut m);
    section(5, &[1, 0, 1], &mut m);
    let mut export = vec![1];
    name("main", &mut export);
    export.extend_from_slice(&[0, 1]);
    section(7, &export, &mut m);
    // Slots 1..=3: functions 5, 6, 7.
    section(9, &[1, 0, 0x41, 1, 0x0b, 3, 5, 6, 7], &mut m);

    // Code, with the offset (in the section's content) of every relocated field.
    let mut code = vec![8];
    let mut code_relocs: Vec<(u8, usize, u32, Option<i32>)> = Vec::new();
    let mut body = |instructions: &[(u8, Option<(u8, u32)>)], code: &mut Vec<u8>| {
        // Sizes stay below 128: one byte.
        let mut b = vec![0u8];
        let mut at = Vec::new();
        for &(op, reloc) in instructions {
            b.push(op);
            if let Some((kind, sym)) = reloc {
                at.push((kind, b.len(), sym));
                b.extend_from_slice(&padded(0));
            }
        }
        b.push(0x0b);
        code.push(b.len() as u8);
        let start = code.len();
        code.extend_from_slice(&b);
        for (kind, offset, sym) in at {
            let addend = matches!(kind, 4).then_some(0);
            code_relocs.push((kind, start + offset, sym, addend));
        }
    };
    // 0: __wasm_call_ctors: call 3; call 4 (written by the linker: no relocations).
    code.extend_from_slice(&[6, 0, 0x10, 3, 0x10, 4, 0x0b]);
    // 1: main: call 2; i32.const live data (or the list's head); drop; call 0.
    let main_data = if reads_list { 12 } else { 10 };
    body(
        &[
            (0x10, Some((0, 2))),
            (0x41, Some((4, main_data))),
            (0x1a, None),
            (0x10, Some((0, 0))),
        ],
        &mut code,
    );
    // 2: live_callee, compiled code without relocations: i32.const 16; loop end; drop. Its
    // bytes hold 0x10 0x03, "call 3", which is no call: it must not keep function 3 alive.
    code.extend_from_slice(&[8, 0, 0x41, 0x10, 0x03, 0x40, 0x0b, 0x1a, 0x0b]);
    // 3: autoreg_ctor: i32.const node; drop.
    body(&[(0x41, Some((4, 8))), (0x1a, None)], &mut code);
    // 4: other_ctor: i32.const table index of 6; drop.
    body(&[(0x41, Some((1, 6))), (0x1a, None)], &mut code);
    // 5: __register: i32.const reflection data; drop; i32.const table index of 7; drop.
    body(
        &[
            (0x41, Some((4, 11))),
            (0x1a, None),
            (0x41, Some((1, 7))),
            (0x1a, None),
        ],
        &mut code,
    );
    // 6, 7.
    body(&[], &mut code);
    body(&[], &mut code);
    let code_index = 6; // after type, function, table, memory, export and element
    section(10, &code, &mut m);

    // Data: node (8: pointers to the static and to the list's head, which inventory's submit
    // writes), static (4: table index of 5), "LIVE", "REFL", "HEAD".
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&(DATA_BASE + 8).to_le_bytes());
    bytes.extend_from_slice(&(DATA_BASE + 20).to_le_bytes());
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(b"LIVEREFLHEAD");
    let mut data = vec![1, 0, 0x41];
    data.extend_from_slice(&[0x80, 0x08, 0x0b]); // i32.const 1024
    uleb(bytes.len() as u64, &mut data);
    let bytes_at = data.len();
    data.extend_from_slice(&bytes);
    let data_index = 7;
    section(11, &data, &mut m);

    let mut names = Vec::new();
    uleb(NAMES.len() as u64, &mut names);
    for (i, n) in NAMES.iter().enumerate() {
        uleb(i as u64, &mut names);
        name(if i == 2 { extra_name.unwrap_or(n) } else { n }, &mut names);
    }
    let mut name_section = vec![1];
    uleb(names.len() as u64, &mut name_section);
    name_section.extend_from_slice(&names);
    custom("name", &name_section, &mut m);
    if !linking {
        return m;
    }

    let mut table = Vec::new();
    uleb(13, &mut table);
    for (i, n) in NAMES.iter().enumerate() {
        table.extend_from_slice(&[0, 0, i as u8]);
        name(n, &mut table);
    }
    let data_symbols = [(0u8, 8u8), (8, 4), (12, 4), (16, 4), (20, 4)];
    for (i, (offset, size)) in data_symbols.iter().enumerate() {
        table.extend_from_slice(&[1, 0]);
        let title = if i == 4 {
            "_RNvNvXAutomaticReflectRegistrationsCollect8registry8REGISTRY".to_owned()
        } else {
            format!("data{i}")
        };
        name(&title, &mut table);
        table.extend_from_slice(&[0, *offset, *size]);
    }
    let mut linking = vec![2, 8];
    uleb(table.len() as u64, &mut linking);
    linking.extend_from_slice(&table);
    // Constructors: symbols 3 and 4.
    linking.extend_from_slice(&[6, 9, 2, 0xff, 0xff, 0x03, 3, 0xff, 0xff, 0x03, 4]);
    custom("linking", &linking, &mut m);

    let mut reloc = Vec::new();
    uleb(code_index, &mut reloc);
    uleb(code_relocs.len() as u64, &mut reloc);
    for (kind, offset, sym, addend) in code_relocs {
        reloc.push(kind);
        uleb(offset as u64, &mut reloc);
        uleb(u64::from(sym), &mut reloc);
        if addend.is_some() {
            reloc.push(0);
        }
    }
    custom("reloc.CODE", &reloc, &mut m);
    // Node -> static and head (memory addresses, with addends), static -> function 5 (table
    // index).
    let mut reloc = Vec::new();
    uleb(data_index, &mut reloc);
    reloc.push(3);
    reloc.extend_from_slice(&[5, bytes_at as u8, 9, 0]);
    reloc.extend_from_slice(&[5, bytes_at as u8 + 4, 12, 0]);
    reloc.extend_from_slice(&[2, bytes_at as u8 + 8, 5]);
    custom("reloc.DATA", &reloc, &mut m);
    m
}

#[test]
fn the_registration_behind_a_constructor_goes_and_the_rest_stays() {
    let (out, report) = prune(&module(None, true, false)).unwrap();
    assert_eq!(report.constructors, 1);
    // The constructor, the registration function and the closure only it refers to.
    assert_eq!(report.dead_functions, 3);
    // Slots 1 (registration) and 3 (closure); slot 2 stays: the other constructor takes it.
    assert_eq!(report.stubbed_slots, 2);
    // Node (two pointers, 2 non-zero bytes each), static (1), "REFL" (4), "HEAD" (4).
    assert_eq!(report.zeroed_data_bytes, 2 + 2 + 1 + 4 + 4);

    let pruned = Module::parse(&out).unwrap();
    assert_eq!(
        pruned.function_count(),
        9,
        "one stub for the one stubbed signature"
    );
    assert!(pruned.custom("linking").is_none());
    assert!(pruned.sections.iter().all(|s| {
        !s.custom
            .as_ref()
            .is_some_and(|(n, _)| n.starts_with("reloc."))
    }));
    assert_eq!(constructor_calls(pruned.body(0)).unwrap(), vec![4]);
    assert_eq!(pruned.body(8), &[0, 0x00, 0x0b], "the stub traps");
    assert_eq!(
        pruned.elements().unwrap().slots,
        vec![(1, 8), (2, 6), (3, 8)]
    );
    let data = &out[pruned.sections[pruned.data_section.unwrap()].start..];
    let at = data
        .windows(4)
        .position(|w| w == b"LIVE")
        .expect("live data kept");
    assert_eq!(&data[at - 12..at], &[0; 12], "node and static zeroed");
    assert_eq!(&data[at + 4..at + 8], &[0; 4], "reflection data zeroed");
}

#[test]
fn without_the_constructor_nothing_is_lost() {
    // The same module, but the "registration" function is not recognised as one: then no
    // constructor is dropped and everything stays reachable.
    let m = module(None, true, false);
    let renamed: Vec<u8> = {
        let needle = b"RegisterForReflection";
        let mut m = m.clone();
        let at = m.windows(needle.len()).position(|w| w == needle).unwrap();
        m[at] = b'X';
        m
    };
    let (_, report) = prune(&renamed).unwrap();
    assert_eq!(report, Report::default());
}

#[test]
fn it_refuses_a_module_that_reads_the_registrations() {
    let m = module(
        Some("bevy_reflect::auto_register::register_types"),
        true,
        false,
    );
    let e = prune(&m).unwrap_err();
    assert!(e.0.contains("register_types"), "{e}");
}

#[test]
fn it_refuses_a_module_in_which_live_code_refers_to_the_list() {
    // As if `register_types` had been inlined into a live function: no name to see, but the
    // list's head stays reachable.
    let e = prune(&module(None, true, true)).unwrap_err();
    assert!(e.0.contains("still reachable"), "{e}");
}

#[test]
fn it_refuses_a_module_without_relocations() {
    let e = prune(&module(None, false, false)).unwrap_err();
    assert!(e.0.contains("--emit-relocs"), "{e}");
}

#[test]
fn it_refuses_what_is_not_wasm() {
    assert!(prune(b"not wasm").is_err());
    let mut truncated = module(None, true, false);
    truncated.truncate(40);
    assert!(prune(&truncated).is_err());
}

#[test]
fn leb128_round_trips() {
    for v in [0u64, 1, 63, 64, 127, 128, 300, 1 << 20, u32::MAX as u64] {
        let mut b = Vec::new();
        uleb(v, &mut b);
        assert_eq!(Reader::new(&b, 0).uleb().unwrap(), v);
    }
    assert_eq!(Reader::new(&[0x7f], 0).sleb().unwrap(), -1);
    assert_eq!(Reader::new(&[0x80, 0x08], 0).sleb().unwrap(), 1024);
    assert_eq!(Reader::new(&padded(1024), 0).u32().unwrap(), 1024);
}
