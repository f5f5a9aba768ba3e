//! Counts and sentences in the app's messages: "1 move", "2 moves", a note as a sentence.

/// `n` moves in `metric` (a plural such as "steps" or "cell moves"): "1 step", "93 steps".
/// A plural in "-es" after a hiss ("pushes", "boxes") loses the "es": "1 push".
pub fn count_in(n: impl Into<u64>, metric: &str) -> String {
    let n = n.into();
    if n != 1 {
        return format!("{n} {metric}");
    }
    let hissing = ["shes", "ches", "sses", "xes", "zes"];
    let one = if hissing.iter().any(|e| metric.ends_with(e)) {
        metric.strip_suffix("es")
    } else {
        metric.strip_suffix('s')
    };
    format!("1 {}", one.unwrap_or(metric))
}

/// `text` as a sentence of its own: the first letter a capital and a full stop at the end
/// ("the Manhattan distance overestimates…" becomes "The Manhattan distance
/// overestimates…."), for a report's notes, which are written as the command line's
/// "note: …" lines.
pub fn sentence(text: &str) -> String {
    let text = text.trim();
    let mut chars = text.chars();
    let mut out: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if !out.is_empty() && !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// `n` and a noun, in the singular for one: "1 move", "2 moves", "0 expansions".
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_of_a_metric_is_its_singular() {
        assert_eq!(count_in(1u64, "pushes"), "1 push");
        assert_eq!(count_in(2u64, "pushes"), "2 pushes");
        assert_eq!(count_in(1u64, "cell moves"), "1 cell move");
        assert_eq!(count_in(1u64, "steps"), "1 step");
        assert_eq!(count_in(0u64, "steps"), "0 steps");
    }
}
