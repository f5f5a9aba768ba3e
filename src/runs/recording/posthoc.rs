//! Writing a recording as a Posthoc search trace (see the module above).

use super::*;

impl TraceRecorder {
    /// Writes the recording as a Posthoc trace (JSON) of the run that `report` describes:
    /// a `source` event for each start, a `destination` for the goal reached, the recorded
    /// events in order (each expansion `expanding`, its successors `generating`, or
    /// `updating` for a state already on the frontier reached again more cheaply, then the
    /// expansion `closing` before the next begins) and an `end` at the goal. Returns the
    /// number of events written (what the front ends report).
    ///
    /// A `generating` or `updating` event carries the `g` and `f = g + h` its state was put on
    /// the frontier with through that parent, as the search reported them
    /// ([`Watcher::scored_generated`]); a recording made without them falls back on the ones
    /// its expansion from the same parent recorded, if any.
    ///
    /// # Errors
    /// What writing to `out` returns; an error of kind `InvalidInput` for a recording of
    /// boards (which have no places to draw).
    pub fn write_posthoc(&self, report: &Report, mut out: impl Write) -> io::Result<usize> {
        if self.boards.is_some() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a board puzzle's states have no places to draw as a trace",
            ));
        }
        let views = serde_json::json!({
            "main": [{
                "$": "rect",
                "fill": "${{ color[$.type] }}",
                "width": 1,
                "height": 1,
                "x": "${{ $.x }}",
                "y": "${{ $.y }}",
            }]
        });
        write!(
            out,
            "{{\"version\":\"1.4.0\",\"views\":{views},\"events\":["
        )?;
        let mut written = 0usize;
        let mut emit = |out: &mut dyn Write, event: &TraceEvent| -> io::Result<()> {
            if written > 0 {
                out.write_all(b",\n")?;
            }
            written += 1;
            serde_json::to_writer(&mut *out, event).map_err(io::Error::other)
        };
        // The scores of each state's expansions by parent: (place, parent) -> (g, f).
        let mut scored: rustc_hash::FxHashMap<(u32, u32), (f32, f32)> = Default::default();
        for e in &self.expansions {
            if !e.g.is_nan() && e.parent != NONE {
                let f = e.g + if e.h.is_nan() { 0.0 } else { e.h };
                scored
                    .entry((e.place & PLACE_MASK, e.parent))
                    .or_insert((e.g, f));
            }
        }
        let at = |packed: u32, kind: &'static str| {
            let packed = packed & PLACE_MASK;
            let (y, x) = unpack(packed);
            TraceEvent {
                kind,
                id: packed,
                p_id: None,
                g: None,
                f: None,
                x,
                y,
            }
        };
        let is_first = |g: u32| g & FIRST != 0 || self.index.is_none();
        for &g in &self.generated[self.successors(None)] {
            if is_first(g) {
                emit(&mut out, &at(g, "source"))?;
            }
        }
        let goal = report
            .path
            .last()
            .filter(|_| report.solved)
            .and_then(|&p| pack(p));
        if let Some(goal) = goal {
            emit(&mut out, &at(goal, "destination"))?;
        }
        for (j, e) in self.expansions.iter().enumerate() {
            let mut event = at(e.place, "expanding");
            event.p_id = (e.parent != NONE).then_some(e.parent);
            if !e.g.is_nan() {
                event.g = Some(e.g);
                event.f = Some(e.g + if e.h.is_nan() { 0.0 } else { e.h });
            }
            emit(&mut out, &event)?;
            let range = self.successors(Some(j));
            let scores = self.generated_scores.get(range.clone()).unwrap_or_default();
            for (k, &g) in self.generated[range].iter().enumerate() {
                let kind = if is_first(g) {
                    "generating"
                } else {
                    "updating"
                };
                let mut generated = at(g, kind);
                generated.p_id = Some(e.place & PLACE_MASK);
                // The score it was put on the frontier with; else (a recording without
                // scores) the one its expansion from this parent recorded.
                let given = scores
                    .get(k)
                    .filter(|(g, _)| !g.is_nan())
                    .map(|&(g, h)| (g, g + if h.is_nan() { 0.0 } else { h }));
                if let Some((g, f)) =
                    given.or_else(|| scored.get(&(generated.id, e.place & PLACE_MASK)).copied())
                {
                    (generated.g, generated.f) = (Some(g), Some(f));
                }
                emit(&mut out, &generated)?;
            }
            emit(
                &mut out,
                &TraceEvent {
                    kind: "closing",
                    ..event
                },
            )?;
        }
        if let Some(goal) = goal {
            let mut end = at(goal, "end");
            let parent = report.path.iter().rev().nth(1).and_then(|&p| pack(p));
            end.p_id = parent;
            end.g = Some(report.cost as f32);
            end.f = end.g;
            emit(&mut out, &end)?;
        }
        out.write_all(b"]}\n")?;
        Ok(written)
    }
}

/// One event as Posthoc reads it.
#[derive(Clone, Copy, Serialize)]
struct TraceEvent {
    #[serde(rename = "type")]
    kind: &'static str,
    id: u32,
    #[serde(rename = "pId")]
    p_id: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    g: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<f32>,
    x: u32,
    y: u32,
}
