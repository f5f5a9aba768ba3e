//! Native forms of the array functions a state's code calls most, for the plain data of
//! states: `==` and `!=` between arrays and `index_of` a whole number. rhai's own (its
//! standard package's) compare element by element through a call of `==` each, a function
//! resolved and called through the interpreter per element (profiled: `s.index_of(0)` and
//! `s == [...]` on the 8-puzzle's nine tiles were a fifth of each state's expansion). Here
//! two whole numbers, booleans, characters, strings, units or arrays of them are compared
//! directly; every other pair (a float and a whole number, a string and a character, maps,
//! other types) is still compared by rhai's `==`, so the answers are rhai's.

use rhai::{
    Array, Dynamic, Engine, EvalAltResult, FuncRegistration, INT, ImmutableString,
    NativeCallContext,
};

/// Whether `a` equals `b` when both are the same kind of plain data (whole numbers,
/// booleans, characters, strings, units, arrays of them), as rhai's `==` says; `None` for
/// any other pair, which rhai's `==` decides.
fn plain_eq(a: &Dynamic, b: &Dynamic) -> Option<bool> {
    if let (Ok(x), Ok(y)) = (a.as_int(), b.as_int()) {
        return Some(x == y);
    }
    if let (Ok(x), Ok(y)) = (a.as_bool(), b.as_bool()) {
        return Some(x == y);
    }
    if let (Ok(x), Ok(y)) = (a.as_char(), b.as_char()) {
        return Some(x == y);
    }
    if a.is_unit() && b.is_unit() {
        return Some(true);
    }
    if a.is_string() && b.is_string() {
        let x = a.read_lock::<ImmutableString>()?;
        let y = b.read_lock::<ImmutableString>()?;
        return Some(x.as_str() == y.as_str());
    }
    if a.is_array() && b.is_array() {
        let x = a.read_lock::<Array>()?;
        let y = b.read_lock::<Array>()?;
        if x.len() != y.len() {
            return Some(false);
        }
        for (p, q) in x.iter().zip(y.iter()) {
            if !plain_eq(p, q)? {
                return Some(false);
            }
        }
        return Some(true);
    }
    None
}

/// `a == b` by rhai's `==` (as its standard package's array functions call it: a pair of
/// different types with no `==` between them is unequal).
fn rhai_eq(
    ctx: &NativeCallContext,
    a: &mut Dynamic,
    b: &mut Dynamic,
) -> Result<bool, Box<EvalAltResult>> {
    let same_type = a.type_id() == b.type_id();
    let result = ctx.call_native_fn_raw("==", true, &mut [a, b]);
    match result {
        Ok(v) => Ok(v.as_bool().unwrap_or(false)),
        Err(e) => match *e {
            EvalAltResult::ErrorFunctionNotFound(ref sig, ..)
                if sig.starts_with("==") && !same_type =>
            {
                Ok(false)
            }
            _ => Err(e),
        },
    }
}

/// `a == b`: plain data compared here, the rest by rhai's `==`.
fn element_eq(
    ctx: &NativeCallContext,
    a: &mut Dynamic,
    b: &mut Dynamic,
) -> Result<bool, Box<EvalAltResult>> {
    match plain_eq(a, b) {
        Some(same) => Ok(same),
        None => rhai_eq(ctx, a, b),
    }
}

/// Whether two arrays are equal, element by element.
fn arrays_equal(
    ctx: NativeCallContext,
    a: &mut Array,
    mut b: Array,
) -> Result<bool, Box<EvalAltResult>> {
    if a.len() != b.len() {
        return Ok(false);
    }
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        if !element_eq(&ctx, x, y)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The index of the first element of `array` equal to `value`, or -1.
fn index_of_int(
    ctx: NativeCallContext,
    array: &mut Array,
    value: INT,
) -> Result<INT, Box<EvalAltResult>> {
    for (i, item) in array.iter_mut().enumerate() {
        let same = match item.as_int() {
            Ok(x) => x == value,
            Err(_) => rhai_eq(&ctx, item, &mut Dynamic::from_int(value))?,
        };
        if same {
            return Ok(INT::try_from(i).unwrap_or(INT::MAX));
        }
    }
    Ok(-1)
}

/// Registers the native forms on `engine` (before its standard package's, which they
/// replace for these argument types). Each leaves its arguments as they were (pure), so
/// they may be called on constants as rhai's own.
pub(super) fn register(engine: &mut Engine) {
    FuncRegistration::new("==")
        .with_purity(true)
        .register_into_engine(engine, arrays_equal);
    FuncRegistration::new("!=")
        .with_purity(true)
        .register_into_engine(engine, |ctx: NativeCallContext, a: &mut Array, b: Array| {
            arrays_equal(ctx, a, b).map(|same| !same)
        });
    FuncRegistration::new("index_of")
        .with_purity(true)
        .register_into_engine(engine, index_of_int);
}

#[cfg(test)]
mod tests {
    use rhai::{Dynamic, Engine};

    /// The native forms answer as rhai's own on a mix of plain data and the pairs they leave
    /// to rhai's `==` (a float and a whole number, a string and a character, maps).
    #[test]
    fn the_native_forms_answer_as_rhais_own() {
        let cases = [
            "[1, 2, 3] == [1, 2, 3]",
            "[1, 2, 3] == [1, 2, 4]",
            "[1, 2] == [1, 2, 3]",
            "[] == []",
            "[1, [2, \"x\"], true, 'c', ()] == [1, [2, \"x\"], true, 'c', ()]",
            "[1, [2, \"x\"]] == [1, [2, \"y\"]]",
            "[1.0, 2] == [1, 2]",
            "[\"a\"] == ['a']",
            "[#{a: 1}] == [#{a: 1}]",
            "[#{a: 1}] == [#{a: 2}]",
            "[1, \"1\"] == [1, 1]",
            "[1, 2] != [1, 2]",
            "[1, 2] != [2, 1]",
            "[3, 0, 5].index_of(0)",
            "[3, 0, 5].index_of(7)",
            "[].index_of(7)",
            "[\"x\", 2.0, 2].index_of(2)",
            "[[1], 4].index_of(4)",
            "{ const A = [1, 2]; A.index_of(2) + if A == [1, 2] { 10 } else { 0 } }",
        ];
        let mut native = Engine::new();
        super::register(&mut native);
        let plain = Engine::new();
        for case in cases {
            let ours: Dynamic = native.eval(case).expect(case);
            let theirs: Dynamic = plain.eval(case).expect(case);
            assert_eq!(ours.to_string(), theirs.to_string(), "{case}");
        }
        // The native `index_of` is the one called (a whole number asked for), and rhai's
        // still answers the rest.
        let found: i64 = native
            .eval("[\"a\", \"b\"].index_of(\"b\")")
            .expect("a string");
        assert_eq!(found, 1);
    }
}
