//! The one canonical encoding of a script's states: plain data (the unit `()`, booleans,
//! whole numbers, characters, strings, arrays and object maps) as bytes, so that two states
//! are equal exactly when their bytes are, and hash by them. Maps are written by sorted key
//! (rhai keeps them sorted); floats, functions and other values are refused with a message.

use rhai::{Array, Dynamic, Map};

/// A state in its canonical encoding.
pub type State = Box<[u8]>;

/// How deep arrays and maps may nest in a state.
const MAX_DEPTH: usize = 64;

const UNIT: u8 = b'u';
const FALSE: u8 = b'f';
const TRUE: u8 = b't';
const INT: u8 = b'i';
const CHAR: u8 = b'c';
const STRING: u8 = b's';
const ARRAY: u8 = b'a';
const MAP: u8 = b'm';

/// `value` in the canonical encoding.
///
/// # Errors
/// What is not plain data (a float, a function, a timestamp...) or nests too deep, said for
/// the user.
pub fn encode(value: &Dynamic) -> Result<State, String> {
    thread_local! {
        /// The bytes of the state being encoded, kept between states (up to [`KEPT`]
        /// bytes): one allocation a state, of its size, where a growing vector made three.
        static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    }
    const KEPT: usize = 4096;
    let mut out = SCRATCH.take();
    out.clear();
    let state = write(value, &mut out, 0).map(|()| State::from(out.as_slice()));
    if out.capacity() <= KEPT {
        SCRATCH.set(out);
    }
    state
}

fn write_len(mut n: u64, out: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn write_str(s: &str, out: &mut Vec<u8>) {
    write_len(s.len() as u64, out);
    out.extend_from_slice(s.as_bytes());
}

fn write(value: &Dynamic, out: &mut Vec<u8>, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("a state nests deeper than {MAX_DEPTH} levels"));
    }
    if value.is_unit() {
        out.push(UNIT);
    } else if let Ok(b) = value.as_bool() {
        out.push(if b { TRUE } else { FALSE });
    } else if let Ok(i) = value.as_int() {
        out.push(INT);
        // Zigzag, so small negative numbers stay short.
        write_len(((i << 1) ^ (i >> 63)) as u64, out);
    } else if let Ok(c) = value.as_char() {
        out.push(CHAR);
        write_len(u64::from(u32::from(c)), out);
    } else if value.is_string() {
        out.push(STRING);
        write_str(
            &value.clone().into_immutable_string().unwrap_or_default(),
            out,
        );
    } else if value.is_array() {
        let array = value
            .read_lock::<Array>()
            .ok_or("an array that cannot be read")?;
        out.push(ARRAY);
        write_len(array.len() as u64, out);
        for item in array.iter() {
            write(item, out, depth + 1)?;
        }
    } else if value.is_map() {
        let map = value
            .read_lock::<Map>()
            .ok_or("a map that cannot be read")?;
        out.push(MAP);
        write_len(map.len() as u64, out);
        // A `BTreeMap`: its keys come sorted.
        for (key, item) in map.iter() {
            write_str(key, out);
            write(item, out, depth + 1)?;
        }
    } else if value.is_float() {
        return Err(format!(
            "a float ({value}) in a state: states hold whole numbers, booleans, characters, \
             strings, arrays and maps (scale to whole numbers)"
        ));
    } else {
        let kind = value.type_name();
        return Err(format!(
            "a value of type {kind} in a state: states hold whole numbers, booleans, \
             characters, strings, arrays and maps only"
        ));
    }
    Ok(())
}

/// The value encoded in `bytes` (made by [`encode`]); `()` for bytes that are not an
/// encoding (which [`encode`] never makes).
pub fn decode(bytes: &[u8]) -> Dynamic {
    let mut at = 0;
    read(bytes, &mut at).unwrap_or(Dynamic::UNIT)
}

fn read_len(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut n = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        n |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(n);
        }
    }
    None
}

fn read_str<'a>(bytes: &'a [u8], at: &mut usize) -> Option<&'a str> {
    let len = usize::try_from(read_len(bytes, at)?).ok()?;
    let end = at.checked_add(len)?;
    let s = std::str::from_utf8(bytes.get(*at..end)?).ok()?;
    *at = end;
    Some(s)
}

fn read(bytes: &[u8], at: &mut usize) -> Option<Dynamic> {
    let tag = *bytes.get(*at)?;
    *at += 1;
    Some(match tag {
        UNIT => Dynamic::UNIT,
        FALSE => Dynamic::FALSE,
        TRUE => Dynamic::TRUE,
        INT => {
            let z = read_len(bytes, at)?;
            Dynamic::from_int(((z >> 1) as i64) ^ -((z & 1) as i64))
        }
        CHAR => Dynamic::from_char(char::from_u32(u32::try_from(read_len(bytes, at)?).ok()?)?),
        STRING => Dynamic::from(read_str(bytes, at)?.to_owned()),
        ARRAY => {
            let len = usize::try_from(read_len(bytes, at)?).ok()?;
            let mut array = Array::with_capacity(len.min(bytes.len()));
            for _ in 0..len {
                array.push(read(bytes, at)?);
            }
            Dynamic::from_array(array)
        }
        MAP => {
            let len = read_len(bytes, at)?;
            let mut map = Map::new();
            for _ in 0..len {
                let key = read_str(bytes, at)?;
                map.insert(key.into(), read(bytes, at)?);
            }
            Dynamic::from_map(map)
        }
        _ => return None,
    })
}

/// The state in `bytes` as text, as a script would write it (`#{a: [1, 2], b: true}`).
pub fn text(bytes: &[u8]) -> String {
    show(&decode(bytes))
}

/// `value` as text, a string as it is (no quotes).
pub fn show_plain(value: &Dynamic) -> String {
    if value.is_string() {
        return value
            .clone()
            .into_immutable_string()
            .unwrap_or_default()
            .to_string();
    }
    show(value)
}

/// `value` as text, maps with their keys sorted.
pub fn show(value: &Dynamic) -> String {
    if value.is_unit() {
        return "()".to_owned();
    }
    if value.is_string() {
        return format!(
            "{:?}",
            value
                .clone()
                .into_immutable_string()
                .unwrap_or_default()
                .as_str()
        );
    }
    if let Some(array) = value.read_lock::<Array>() {
        let items: Vec<String> = array.iter().map(show).collect();
        return format!("[{}]", items.join(", "));
    }
    if let Some(map) = value.read_lock::<Map>() {
        let items: Vec<String> = map
            .iter()
            .map(|(k, v)| format!("{k}: {}", show(v)))
            .collect();
        return format!("#{{{}}}", items.join(", "));
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_floats() {
        let engine = rhai::Engine::new();
        let value: Dynamic = engine
            .eval(r#"#{ b: [1, -2, "x", true, ()], a: 'c', c: #{} }"#)
            .expect("a value");
        let bytes = encode(&value).expect("plain data");
        assert_eq!(
            text(&bytes),
            r#"#{a: c, b: [1, -2, "x", true, ()], c: #{}}"#
        );
        assert_eq!(encode(&decode(&bytes)).expect("plain data"), bytes);
        let float: Dynamic = engine.eval("[1, 2.5]").expect("a value");
        assert!(encode(&float).unwrap_err().contains("float"));
        assert_eq!(show(&decode(&[ARRAY, 5])), "()");
    }

    /// The encoding through the kept scratch bytes is the plain one (a fresh vector each
    /// time), whatever came before: a longer state, a refused one, one past what is kept.
    #[test]
    fn the_kept_scratch_encodes_as_a_fresh_vector() {
        let plain = |v: &Dynamic| {
            let mut out = Vec::new();
            write(v, &mut out, 0).map(|()| out.into_boxed_slice())
        };
        let engine = rhai::Engine::new();
        let values = [
            "[1, 2, 3, 4, 5, 6, 7, 8, 0]",
            "#{ boat_left: true, c: 3, m: 3 }",
            "[1, 2.5]",
            "1",
            "\"a longer string than the states before it, to grow the scratch bytes\"",
            "let a = []; a.pad(3000, \"xy\"); a",
            "[[], #{}]",
            "()",
        ];
        for text in values {
            let value: Dynamic = engine.eval(text).expect(text);
            assert_eq!(encode(&value), plain(&value), "{text}");
        }
    }
}
