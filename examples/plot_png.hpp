#pragma once
// Line plots written as PNG files with libpng, with nothing else to
// install: panels side by side, each with a frame, ticks, tick labels, axis
// titles, a title and a legend, drawn on the canvas of
// solvers/plot/canvas.hpp. Enough for a correlator or a convergence
// history; needs PNG::PNG at link time.
//
//   plot::Panel panel{"Pion correlator", "t", "C(t)", /*log_y=*/true};
//   panel.series.push_back({"C(t)", t_values, C_values, plot::blue});
//   plot::write_png("pion.png", {panel});
//
// Points whose x or y is not finite (or, on a log axis, not positive) are
// left out, and a series' line is broken there. Called on one process: under
// mpirun, write from rank 0 (latte::write_on_root).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/plot/canvas.hpp"

namespace latte::plot {

struct Series {
  std::string name;  // in the legend; empty: not listed
  std::vector<double> x, y;
  Colour colour = blue;
  std::vector<double> y_error = {};  // error bars y +- y_error where given and finite
  bool joined = true;           // a line between neighbouring points, or markers alone
  bool markers = true;          // a square at each point
};

struct Panel {
  std::string title, x_title, y_title;
  bool log_y = false;
  std::vector<Series> series;
  // The vertical range, where the data's own would be swamped (effective
  // masses at large t); points outside it are left out, error bars cut.
  double y_low = std::numeric_limits<double>::quiet_NaN(), y_high = std::numeric_limits<double>::quiet_NaN();
};

namespace detail {

// An axis: the data range in plotted units (log10 of the value on a log
// axis) and its ticks.
struct Axis {
  double low, high;
  std::vector<double> ticks;        // in plotted units
  std::vector<std::string> labels;  // the values they stand for
};

inline std::string tick_label(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// Ticks at multiples of a round step (1, 2 or 5 times a power of ten), about
// `wanted` of them over [low, high].
inline void linear_ticks(Axis& axis, int wanted) {
  const double raw = (axis.high - axis.low) / wanted;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  const double step = (fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10) * magnitude;
  for (double k = std::ceil(axis.low / step - 1e-9); k * step <= axis.high + 1e-9 * step; ++k) {
    const double value = std::abs(k) < 0.5 ? 0.0 : k * step;
    axis.ticks.push_back(value);
    axis.labels.push_back(tick_label(value));
  }
}

// On a log axis: decades, or 1-2-5 within them, or every digit, whichever
// first gives at least three ticks; failing that, round values as on a
// linear axis.
inline void log_ticks(Axis& axis) {
  const std::vector<std::vector<double>> mantissas = {{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  for (const auto& set : mantissas) {
    axis.ticks.clear();
    axis.labels.clear();
    for (int decade = static_cast<int>(std::floor(axis.low)); decade <= static_cast<int>(std::ceil(axis.high)); ++decade)
      for (double m : set) {
        const double value = m * std::pow(10.0, decade);
        const double position = std::log10(value);
        if (position < axis.low - 1e-9 || position > axis.high + 1e-9) continue;
        axis.ticks.push_back(position);
        axis.labels.push_back(tick_label(value));
      }
    if (axis.ticks.size() >= 3) return;
  }
  Axis values{std::pow(10.0, axis.low), std::pow(10.0, axis.high), {}, {}};
  linear_ticks(values, 4);
  axis.ticks.clear();
  axis.labels = values.labels;
  for (double v : values.ticks) axis.ticks.push_back(v > 0 ? std::log10(v) : -std::numeric_limits<double>::infinity());
}

inline bool plotted(double x, double y, bool log_y) { return std::isfinite(x) && std::isfinite(y) && (!log_y || y > 0); }
inline bool plotted(const Panel& panel, double x, double y) {
  return plotted(x, y, panel.log_y) && !(y < panel.y_low) && !(y > panel.y_high);  // NaN bounds: no limit
}

// The range of the data, widened by 5 % on each side (a single value: by
// one unit, or a tenth of itself).
inline Axis data_axis(const Panel& panel, bool vertical) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const Series& s : panel.series)
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!plotted(panel, s.x[i], s.y[i])) continue;
      const double v = vertical ? (panel.log_y ? std::log10(s.y[i]) : s.y[i]) : s.x[i];
      low = std::min(low, v);
      high = std::max(high, v);
      if (vertical && !panel.log_y && i < s.y_error.size() && std::isfinite(s.y_error[i])) {
        low = std::min(low, s.y[i] - std::abs(s.y_error[i]));
        high = std::max(high, s.y[i] + std::abs(s.y_error[i]));
      }
    }
  if (vertical && !panel.log_y && std::isfinite(panel.y_low) && std::isfinite(panel.y_high)) {
    Axis axis{panel.y_low, panel.y_high, {}, {}};
    linear_ticks(axis, 5);
    return axis;
  }
  if (!(low <= high)) low = 0, high = 1;  // nothing to plot
  if (high - low < 1e-12 * std::max(1.0, std::abs(high))) {
    const double widen = low == 0 || (vertical && panel.log_y) ? 1.0 : 0.1 * std::abs(low);
    low -= widen;
    high += widen;
  }
  const double pad = 0.05 * (high - low);
  Axis axis{low - pad, high + pad, {}, {}};
  if (vertical && panel.log_y) log_ticks(axis);
  else linear_ticks(axis, vertical ? 5 : 6);
  return axis;
}

}  // namespace detail

// One panel in the rectangle [left, left + width) x [top, top + height).
inline void draw_panel(Canvas& canvas, const Panel& panel, int left, int top, int width, int height) {
  constexpr int scale = 2;  // font pixels per glyph pixel
  const int line_height = glyph_height * scale;
  const detail::Axis x_axis = detail::data_axis(panel, false), y_axis = detail::data_axis(panel, true);
  int widest_label = 0;
  for (const std::string& label : y_axis.labels) widest_label = std::max(widest_label, Canvas::text_width(label, scale));
  // The frame: room on the left for the y title and tick labels, below for
  // the x tick labels and title, above for the panel's title.
  const int frame_left = left + 12 + line_height + 10 + widest_label + 8;
  const int frame_right = left + width - 16;
  const int frame_top = top + 12 + line_height + 12;
  const int frame_bottom = top + height - (12 + line_height + 10 + line_height + 8);
  const auto px = [&](double x) {
    return frame_left + static_cast<int>(std::lround((x - x_axis.low) / (x_axis.high - x_axis.low) * (frame_right - frame_left)));
  };
  const auto py = [&](double y) {
    return frame_bottom - static_cast<int>(std::lround((y - y_axis.low) / (y_axis.high - y_axis.low) * (frame_bottom - frame_top)));
  };

  // Grid lines and ticks with their labels.
  for (std::size_t i = 0; i < x_axis.ticks.size(); ++i) {
    const int x = px(x_axis.ticks[i]);
    canvas.line(x, frame_top + 1, x, frame_bottom - 1, grid_grey);
    canvas.line(x, frame_bottom, x, frame_bottom + 6, black);
    canvas.text(x - Canvas::text_width(x_axis.labels[i], scale) / 2, frame_bottom + 10, x_axis.labels[i], black, scale);
  }
  for (std::size_t i = 0; i < y_axis.ticks.size(); ++i) {
    if (!std::isfinite(y_axis.ticks[i])) continue;
    const int y = py(y_axis.ticks[i]);
    canvas.line(frame_left + 1, y, frame_right - 1, y, grid_grey);
    canvas.line(frame_left - 6, y, frame_left, y, black);
    canvas.text(frame_left - 8 - Canvas::text_width(y_axis.labels[i], scale), y - 7 * scale / 2, y_axis.labels[i], black,
                scale);
  }
  canvas.line(frame_left, frame_top, frame_right, frame_top, black);
  canvas.line(frame_left, frame_bottom, frame_right, frame_bottom, black);
  canvas.line(frame_left, frame_top, frame_left, frame_bottom, black);
  canvas.line(frame_right, frame_top, frame_right, frame_bottom, black);

  // Titles: the panel's above, the x axis' below, the y axis' turned upward.
  const int middle_x = (frame_left + frame_right) / 2, middle_y = (frame_top + frame_bottom) / 2;
  canvas.text(middle_x - Canvas::text_width(panel.title, scale) / 2, top + 12, panel.title, black, scale);
  canvas.text(middle_x - Canvas::text_width(panel.x_title, scale) / 2, frame_bottom + 10 + line_height + 10,
              panel.x_title, black, scale);
  canvas.text(left + 12, middle_y + Canvas::text_width(panel.y_title, scale) / 2, panel.y_title, black, scale, true);

  // The data: lines between neighbouring plotted points, then error bars
  // (on a linear axis) and markers.
  for (const Series& s : panel.series) {
    bool previous = false;
    int last_x = 0, last_y = 0;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!detail::plotted(panel, s.x[i], s.y[i])) {
        previous = false;
        continue;
      }
      const int x = px(s.x[i]), y = py(panel.log_y ? std::log10(s.y[i]) : s.y[i]);
      if (previous && s.joined) canvas.line(last_x, last_y, x, y, s.colour, 2);
      previous = true;
      last_x = x;
      last_y = y;
    }
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (s.markers && detail::plotted(panel, s.x[i], s.y[i])) {
        const int x = px(s.x[i]), y = py(panel.log_y ? std::log10(s.y[i]) : s.y[i]);
        if (!panel.log_y && i < s.y_error.size() && std::isfinite(s.y_error[i])) {
          const int top_y = std::max(frame_top, py(s.y[i] + std::abs(s.y_error[i])));
          const int bottom_y = std::min(frame_bottom, py(s.y[i] - std::abs(s.y_error[i])));
          canvas.line(x, top_y, x, bottom_y, s.colour, 2);
          canvas.line(x - 5, top_y, x + 5, top_y, s.colour, 2);
          canvas.line(x - 5, bottom_y, x + 5, bottom_y, s.colour, 2);
        }
        canvas.fill(x - 4, y - 4, x + 4, y + 4, s.colour);
      }
  }

  // The legend, top right inside the frame, on white.
  int entry = 0;
  for (const Series& s : panel.series) {
    if (s.name.empty()) continue;
    const int y = frame_top + 10 + entry++ * (line_height + 6);
    const int x = frame_right - 10 - Canvas::text_width(s.name, scale) - 26;
    canvas.fill(x - 6, y - 4, frame_right - 4, y + line_height + 2, white);
    canvas.line(x, y + 6, x + 18, y + 6, s.colour, 2);
    canvas.fill(x + 5, y + 2, x + 13, y + 10, s.colour);
    canvas.text(x + 26, y, s.name, black, scale);
  }
}

// The panels side by side in one picture, each panel_width x panel_height.
inline void write_png(const std::string& path, const std::vector<Panel>& panels, int panel_width = 520,
                      int panel_height = 400) {
  Canvas canvas(panel_width * static_cast<int>(panels.size()), panel_height);
  for (std::size_t k = 0; k < panels.size(); ++k)
    draw_panel(canvas, panels[k], static_cast<int>(k) * panel_width, 0, panel_width, panel_height);
  canvas.write_png(path);
}

}  // namespace latte::plot
