//! The report's SVG plots (plotters, SVG backend): a rate claim's measured quantity, its bound
//! and its fitted slope on log–log axes; a tight instance's measured/bound against its parameter.

use crate::claims::{Series, SeriesKind};
use crate::error::{invalid, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

impl Series {
    /// [`Series::ratio`] with the y label "measured / bound", from parallel `x` and `y`.
    pub fn measured_over_bound(
        title: impl Into<String>,
        x_label: impl Into<String>,
        x: Vec<f64>,
        y: Vec<f64>,
        log_x: bool,
    ) -> Series {
        Series::ratio(
            title,
            x_label,
            "measured / bound",
            x.into_iter().zip(y).collect(),
            log_x,
        )
    }

    /// A [`SeriesKind::Ratio`] plot's data from (parameter, measured/bound) points: sorted by the
    /// parameter, non-finite points dropped (the plot has no place for them; the claim's verdict
    /// never reads a series). With `log_x`, points with a parameter ≤ 0 are dropped too.
    pub fn ratio(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
        mut points: Vec<(f64, f64)>,
        log_x: bool,
    ) -> Series {
        points.retain(|(x, y)| x.is_finite() && y.is_finite() && (!log_x || *x > 0.0));
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        Series {
            kind: SeriesKind::Ratio,
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            x: points.iter().map(|p| p.0).collect(),
            y: points.iter().map(|p| p.1).collect(),
            y_se: Vec::new(),
            bound: Vec::new(),
            fit: None,
            log_x,
        }
    }
}

const WIDTH: u32 = 760;
const HEIGHT: u32 = 480;

fn err(e: impl std::fmt::Display) -> crate::error::Error {
    invalid("plot", e)
}

/// Characters per title line: longer titles wrap at a space (the caption of plotters does not).
const TITLE_CHARS: usize = 100;

/// `title` broken into lines of at most [`TITLE_CHARS`] characters at spaces (a longer word
/// stays whole on its own line).
fn wrap(title: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in title.split(' ') {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > TITLE_CHARS {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    lines.push(cur);
    lines
}

/// Draw the (wrapped) title at the top of `root`; returns the area below it.
fn titled<'a>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    title: &str,
) -> Result<DrawingArea<SVGBackend<'a>, Shift>> {
    const LINE: i32 = 18;
    let lines = wrap(title);
    let (top, rest) = root.split_vertically(10 + LINE as u32 * lines.len() as u32);
    let style =
        TextStyle::from(("sans-serif", 16).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, l) in lines.iter().enumerate() {
        top.draw_text(l, &style, (WIDTH as i32 / 2, 6 + LINE * i as i32))
            .map_err(err)?;
    }
    Ok(rest)
}

/// The range of the finite positive values of `v`, widened by `pad` (a factor) on both sides.
fn log_range(v: impl Iterator<Item = f64>, pad: f64) -> Option<(f64, f64)> {
    let (lo, hi) = v
        .filter(|x| x.is_finite() && *x > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(l, h), x| (l.min(x), h.max(x)));
    (hi > 0.0).then(|| {
        let (lo, hi) = if hi / lo < 1.5 {
            (lo / 1.5, hi * 1.5)
        } else {
            (lo, hi)
        };
        (lo / pad, hi * pad)
    })
}

/// The fitted line's intercept: through the point (mean ln x, mean ln y) of the measured points,
/// i.e. the least-squares intercept for the given slope.
fn fit_intercept(x: &[f64], y: &[f64], slope: f64) -> f64 {
    let k = x.len() as f64;
    let mx = x.iter().map(|v| v.ln()).sum::<f64>() / k;
    let my = y.iter().map(|v| v.ln()).sum::<f64>() / k;
    my - slope * mx
}

/// An axis tick: up to three significant digits, trailing zeros dropped ("10", "0.01", "2500",
/// "1e-5").
fn tick(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let a = v.abs();
    if (1e-3..1e5).contains(&a) {
        let decimals = (2 - a.log10().floor() as i32).max(0) as usize;
        let t = format!("{v:.decimals$}");
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t
        }
    } else {
        let t = format!("{v:.2e}");
        let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
        let m = if m.contains('.') {
            m.trim_end_matches('0').trim_end_matches('.')
        } else {
            m
        };
        format!("{m}e{e}")
    }
}

/// A slope as the report prints it: −1/2 and −1 by name, else four significant digits.
fn slope_text(s: f64) -> String {
    if s == -0.5 {
        "−1/2".into()
    } else {
        super::fmt_num(s).replace('-', "−")
    }
}

/// The SVG text of one series' plot.
pub fn svg(s: &Series) -> Result<String> {
    if s.x.is_empty() || s.x.len() != s.y.len() {
        return Err(invalid(
            "series",
            format!("{}: x and y differ in length or are empty", s.title),
        ));
    }
    match s.kind {
        SeriesKind::Rate => rate_svg(s),
        SeriesKind::Ratio => ratio_svg(s),
    }
}

fn rate_svg(s: &Series) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (x0, x1) = log_range(s.x.iter().copied(), 1.15).ok_or_else(|| err("no positive x"))?;
        let fit = s.fit.as_ref();
        let line = |slope: f64| {
            let c = fit_intercept(&s.x, &s.y, slope);
            move |x: f64| (c + slope * x.ln()).exp()
        };
        let lo_hi =
            s.y.iter()
                .zip(s.y_se.iter().chain(std::iter::repeat(&0.0)))
                .flat_map(|(y, e)| [y - e, y + e]);
        let fits = fit
            .into_iter()
            .flat_map(|f| [line(f.slope)(x0), line(f.slope)(x1)]);
        let (y0, y1) = log_range(lo_hi.chain(s.bound.iter().copied()).chain(fits), 1.3)
            .ok_or_else(|| err("no positive y"))?;
        let area = titled(&root, &s.title)?;
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(72)
            .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .max_light_lines(2)
            .x_desc(format!("{} (log scale)", s.x_label))
            .y_desc(format!("{} (log scale)", s.y_label))
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .draw()
            .map_err(err)?;
        let pts: Vec<(f64, f64)> = s.x.iter().copied().zip(s.y.iter().copied()).collect();
        let measured = if s.y_se.is_empty() {
            "measured".to_string()
        } else {
            "measured (mean ± 1 s.e.)".to_string()
        };
        chart
            .draw_series(LineSeries::new(pts.clone(), BLUE.stroke_width(2)))
            .map_err(err)?
            .label(measured)
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, BLUE.filled())))
            .map_err(err)?;
        if !s.y_se.is_empty() {
            chart
                .draw_series(s.x.iter().zip(&s.y).zip(&s.y_se).map(|((&x, &y), &e)| {
                    PathElement::new(vec![(x, (y - e).max(y0)), (x, y + e)], BLUE.stroke_width(1))
                }))
                .map_err(err)?;
        }
        if !s.bound.is_empty() {
            let b: Vec<(f64, f64)> = s.x.iter().copied().zip(s.bound.iter().copied()).collect();
            chart
                .draw_series(LineSeries::new(b.clone(), RED.stroke_width(2)))
                .map_err(err)?
                .label("bound")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
            chart
                .draw_series(b.iter().map(|&p| TriangleMarker::new(p, 5, RED.filled())))
                .map_err(err)?;
        }
        if let Some(f) = fit {
            let fitted = line(f.slope);
            let grey = RGBColor(90, 90, 90);
            chart
                .draw_series(DashedLineSeries::new(
                    [(x0, fitted(x0)), (x1, fitted(x1))],
                    8,
                    5,
                    grey.stroke_width(2),
                ))
                .map_err(err)?
                .label(format!(
                    "fitted slope {} ± {} (99.9%)",
                    slope_text(f.slope),
                    super::fmt_num(f.half_width)
                ))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], grey.stroke_width(2))
                });
            let target = line(f.target);
            let green = RGBColor(0, 140, 60);
            chart
                .draw_series(DashedLineSeries::new(
                    [(x0, target(x0)), (x1, target(x1))],
                    3,
                    4,
                    green.stroke_width(1),
                ))
                .map_err(err)?
                .label(format!("claimed slope {}", slope_text(f.target)))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], green.stroke_width(1))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::MiddleRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

fn ratio_svg(s: &Series) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let finite = || s.y.iter().copied().filter(|v| v.is_finite());
        let y1 = finite().fold(1.0f64, f64::max) * 1.08;
        let y0 = finite().fold(0.0f64, f64::min);
        let y0 = if y0 < 0.0 { y0 * 1.08 } else { 0.0 };
        let pts: Vec<(f64, f64)> = s.x.iter().copied().zip(s.y.iter().copied()).collect();
        macro_rules! body {
            ($chart:expr, $x0:expr, $x1:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .max_light_lines(2)
                    .x_desc(if s.log_x {
                        format!("{} (log scale)", s.x_label)
                    } else {
                        s.x_label.clone()
                    })
                    .y_desc(s.y_label.clone())
                    .x_label_formatter(&|v| tick(*v))
                    .y_label_formatter(&|v| tick(*v))
                    .draw()
                    .map_err(err)?;
                chart
                    .draw_series(LineSeries::new(
                        [($x0, 1.0), ($x1, 1.0)],
                        RED.stroke_width(2),
                    ))
                    .map_err(err)?
                    .label("bound (ratio 1)")
                    .legend(|(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2))
                    });
                chart
                    .draw_series(LineSeries::new(pts.clone(), BLUE.stroke_width(1)))
                    .map_err(err)?;
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 4, BLUE.filled())))
                    .map_err(err)?
                    .label("measured / bound")
                    .legend(|(x, y)| Circle::new((x + 10, y), 4, BLUE.filled()));
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::LowerRight)
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .draw()
                    .map_err(err)?;
            }};
        }
        let area = titled(&root, &s.title)?;
        let mut builder = ChartBuilder::on(&area);
        builder
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64);
        if s.log_x {
            let (x0, x1) =
                log_range(s.x.iter().copied(), 1.15).ok_or_else(|| err("no positive x"))?;
            let chart = builder
                .build_cartesian_2d((x0..x1).log_scale(), y0..y1)
                .map_err(err)?;
            body!(chart, x0, x1);
        } else {
            let lo = s.x.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = s.x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let pad = ((hi - lo) * 0.05).max(0.5);
            let (x0, x1) = (lo - pad, hi + pad);
            let chart = builder.build_cartesian_2d(x0..x1, y0..y1).map_err(err)?;
            body!(chart, x0, x1);
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_titles_wrap_at_spaces() {
        let t = "word ".repeat(50);
        let lines = super::wrap(t.trim());
        assert!(lines.len() > 1);
        assert!(lines
            .iter()
            .all(|l| l.chars().count() <= super::TITLE_CHARS));
        assert_eq!(lines.join(" "), t.trim());
        assert_eq!(super::wrap("short"), ["short"]);
    }

    #[test]
    fn ticks_are_short() {
        let t: Vec<String> = [10.0, 1.0, 0.1, 0.01, 2000.0, 0.25, 1e-5, 3.5e6, 123456.0]
            .iter()
            .map(|v| super::tick(*v))
            .collect();
        assert_eq!(
            t,
            ["10", "1", "0.1", "0.01", "2000", "0.25", "1e-5", "3.5e6", "1.23e5"]
        );
    }
}
