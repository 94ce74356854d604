//! [`SmartCheck`]: the runner's explanation step. After the choice-sequence
//! shrinker, it reduces the counterexample structurally (alternating with
//! the shrinker, so the result is never worse than either alone), then —
//! in [`ExplainMode::Generalize`] — generalizes it and looks for further
//! failure classes, and reports each step as a section of the report.

use speccheck_core::human::duration as human;
use speccheck_core::runner::{CaseResult, ExplainContext, Explainer, Explanation, Section};
use speccheck_core::{ExplainMode, Term};

use crate::config::ReduceConfig;
use crate::display::{self, Hole};
use crate::generalize::{Generalization, generalize};
use crate::multi::{self, Class, Search};
use crate::oracle::{Oracle, Origin};
use crate::reduce::{Reduction, Stop, confirmed, reduce_and_shrink};
use crate::view::View;

/// The SmartCheck explanation step (reduction, generalization, multi-bug
/// search), configured by a [`ReduceConfig`]. The runner's
/// [`ExplainMode`] picks the phases: `Off`, `Reduce`, or `Generalize`
/// (reduce, generalize, look for more classes).
#[derive(Clone, Debug, Default)]
pub struct SmartCheck {
    /// Bounds and switches.
    pub config: ReduceConfig,
}

impl SmartCheck {
    /// SmartCheck with the given settings.
    pub fn new(config: ReduceConfig) -> Self {
        SmartCheck { config }
    }
}

impl Explainer for SmartCheck {
    fn explain(&self, ctx: &mut ExplainContext<'_>) -> Explanation {
        let mode = ctx.config.explain;
        let failing = ctx.failing.clone();
        let Some(origin) = Origin::of_case(&failing) else { return Explanation::default() };
        if mode == ExplainMode::Off {
            return Explanation::default();
        }
        let config = &self.config;
        let mut oracle = Oracle::new(ctx, config);
        // A flaky start is caught by the caller's final replay, when there
        // is one; otherwise here, before any work.
        if !oracle.final_replay() && !confirmed(&mut oracle, &failing, &origin) {
            return Explanation { reduced: None, sections: vec![flaky_section()] };
        }
        let red = reduce_and_shrink(&mut oracle, failing.clone(), &origin, config, true);
        if red.stop == Stop::Flaky {
            return Explanation { reduced: None, sections: vec![flaky_section()] };
        }
        // Only sections that tell the user something, unless asked for all.
        let verbose = ctx_verbose(&oracle);
        let mut sections: Vec<Section> = reduction_section(&red, verbose).into_iter().collect();
        let best = red.case.clone();
        if mode == ExplainMode::Generalize {
            let g = generalize(&mut oracle, &best, &origin, config);
            if verbose || !g.is_empty() {
                let text = generalization_text(&oracle, &best, &g, config);
                sections.push(Section::new("generalized (SmartCheck §5)", text));
            }
            if config.multi
                && let Some(first) = Class::new(best.clone(), g, red.from)
            {
                let search = multi::search(&mut oracle, std::slice::from_ref(&first), config);
                sections.extend(class_sections(&oracle, &search, config, verbose));
            }
        }
        let reduced = (best.choices != failing.choices).then(|| best.choices.clone());
        Explanation { reduced, sections }
    }
}

fn flaky_section() -> Section {
    Section::new(
        "flaky during reduction",
        "a failing input passed when it was run again: reduction stopped and the original counterexample is \
         kept.\nThe property depends on something besides its input.",
    )
}

/// True when the run asked for every detail.
fn ctx_verbose(oracle: &Oracle<'_, '_>) -> bool {
    oracle.run_config().verbosity >= speccheck_core::Verbosity::Verbose
}

/// The reduction section: only when reduction made the value smaller or
/// stopped on its budget (or everything is asked for): "nothing to reduce"
/// tells the user nothing.
fn reduction_section(red: &Reduction, verbose: bool) -> Option<Section> {
    let informative = red.to < red.from || red.stop == Stop::Budget;
    if !informative && !verbose {
        return None;
    }
    let budget = if red.stop == Stop::Budget { " (budget reached)" } else { "" };
    let body = match red.stop {
        Stop::NothingToReduce => format!(
            "nothing to reduce: the counterexample has no non-opaque sub-value ({} constructors); opaque values are \
             left to the shrinker",
            red.to
        ),
        _ if red.to >= red.from => format!(
            "no smaller failing value: {} constructors ({} tests, {}){budget}",
            red.to,
            red.tests,
            human(red.elapsed)
        ),
        _ => format!(
            "{} → {} constructors in {} replacements ({} tests, {}){budget}",
            red.from,
            red.to,
            red.improvements,
            red.tests,
            human(red.elapsed)
        ),
    };
    Some(Section::new("reduced (SmartCheck §4)", body))
}

/// The formula of a generalized counterexample, with a line per hole.
pub fn generalization_text(
    oracle: &Oracle<'_, '_>,
    case: &CaseResult,
    g: &Generalization,
    config: &ReduceConfig,
) -> String {
    let view = View::new(&case.spans);
    let inputs = oracle.describe(&case.choices);
    if g.is_empty() {
        let value = display::value(&inputs, config, false).trim_start().to_string();
        // Nothing tested (no position to generalize) says nothing.
        if g.tests == 0 {
            return value;
        }
        return format!("no position generalizes: every sub-value matters ({} tests)\n{value}", g.tests);
    }
    let mut holes = Vec::new();
    for (k, f) in g.forall.iter().enumerate() {
        let rejected =
            if f.rejected > 0 { format!(" ({} more rejected by the precondition)", f.rejected) } else { String::new() };
        holes.push(Hole {
            ordinal: f.ordinal,
            name: format!("x{k}"),
            universal: true,
            note: format!("{} random values tested{rejected}, all failed", f.failed),
        });
    }
    for (k, e) in g.exists.iter().enumerate() {
        let witnesses: Vec<String> = e
            .witnesses
            .iter()
            .map(|(ctor, w)| {
                let w_inputs = oracle.describe(&w.choices);
                let shown = display::subterm(&View::new(&w.spans), &w_inputs, e.ordinal)
                    .map(Term::to_line)
                    .unwrap_or_else(|| (*ctor).to_string());
                short(&shown, 40)
            })
            .collect();
        holes.push(Hole {
            ordinal: e.ordinal,
            name: format!("c{k}"),
            universal: false,
            note: format!("every constructor fails, e.g. {}", witnesses.join(" | ")),
        });
    }
    format!("{}\n({} tests)", display::formula(&view, &inputs, &holes, config), g.tests)
}

fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { format!("{}…", s.chars().take(n).collect::<String>()) }
}

fn class_sections(oracle: &Oracle<'_, '_>, search: &Search, config: &ReduceConfig, verbose: bool) -> Vec<Section> {
    let total = search.classes.len() + 1;
    let mut out = Vec::new();
    for (k, class) in search.classes.iter().enumerate() {
        let failure = &class.failure;
        let at = failure.location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default();
        let first_line = failure.message.lines().next().unwrap_or("");
        let replay = match &oracle.run_config().rerun_command {
            Some(cmd) => format!("SPECCHECK_REPLAY={} {cmd}", class.replay(oracle.replay_tag())),
            None => format!("SPECCHECK_REPLAY={}", class.replay(oracle.replay_tag())),
        };
        let size = crate::view::inputs_size(&class.case.spans);
        let reduced = if class.found_size > size {
            format!("reduced from {} to {size} constructors\n", class.found_size)
        } else {
            String::new()
        };
        let body = format!(
            "{}{at}: {first_line}\n{reduced}{}\nreplay: {replay}",
            failure.kind,
            generalization_text(oracle, &class.case, &class.generalization, config)
        );
        let title = format!("failure class {} of {total} (matches no shape above)", k + 2);
        out.push(Section::new(title, body).with_counterexample(class.case.choices.clone()));
    }
    let variants = match search.variants {
        0 => String::new(),
        1 => ", 1 the same bug in another context (once reduced, it holds a known class)".to_string(),
        n => format!(", {n} the same bug in another context (once reduced, they hold a known class)"),
    };
    let summary = format!(
        "{} more inputs tested with \"matches no known shape\" as a precondition: {} failed, {} of them with a known \
         shape{variants}{}; {} failure class{} in all",
        search.generated,
        search.failed,
        search.matched,
        if search.flaky > 0 { format!(", {} flaky", search.flaky) } else { String::new() },
        total,
        if total == 1 { "" } else { "es" }
    );
    // A search that found nothing new is only worth a line when asked.
    if verbose || !search.classes.is_empty() || search.variants > 0 || search.flaky > 0 {
        out.push(Section::new("other failure classes (SmartCheck §5.3)", summary));
    }
    out
}
