#pragma once
// A colour-mapped PNG of a 2-D scalar field (speed, vorticity) with a colour
// bar that names the quantity and labels its range, and optionally
// streamlines of a velocity field drawn over it, with an arrowhead each
// showing the direction of the flow (solvers/plot/streamlines.hpp). Solid
// cells, if given, are drawn grey. Row 0 of the picture is the top of the
// lattice (largest y), so y points up as in the physics. Needs PNG::PNG at
// link time. Under mpirun, rank 0 writes the picture (write_png is
// collective: every rank passes the same gathered values,
// field_export.hpp).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lattice/fields/root_output.hpp"
#include "solvers/plot/canvas.hpp"
#include "solvers/plot/streamlines.hpp"

namespace latte::lbm {

// A diverging blue-white-red map for signed data (vorticity) and a
// black-blue-yellow-white ramp for magnitudes (speed); t in [0, 1].
inline std::array<unsigned char, 3> colour_map(double t, bool diverging) {
  t = std::clamp(t, 0.0, 1.0);
  auto lerp = [](double a, double b, double s) { return a + (b - a) * s; };
  double r, g, b;
  if (diverging) {
    if (t < 0.5) { const double s = t / 0.5; r = lerp(0.1, 1, s); g = lerp(0.2, 1, s); b = lerp(0.8, 1, s); }
    else { const double s = (t - 0.5) / 0.5; r = lerp(1, 0.8, s); g = lerp(1, 0.1, s); b = lerp(1, 0.1, s); }
  } else {
    const double stops[4][3] = {{0, 0, 0.1}, {0.1, 0.3, 0.9}, {1.0, 0.85, 0.1}, {1, 1, 1}};
    const double x = t * 3;
    const int k = std::min(2, static_cast<int>(x));
    const double s = x - k;
    r = lerp(stops[k][0], stops[k + 1][0], s);
    g = lerp(stops[k][1], stops[k + 1][1], s);
    b = lerp(stops[k][2], stops[k + 1][2], s);
  }
  return {static_cast<unsigned char>(255 * r), static_cast<unsigned char>(255 * g),
          static_cast<unsigned char>(255 * b)};
}

// What to draw besides the colour map, e.g.
//   FieldPicture("speed |u|/U").scaled(4).with_streamlines(ux, uy).with_solid(mask)
// Vectors are nx * ny values in lexicographic order (x fastest), like the
// field itself; empty: not drawn.
struct FieldPicture {
  std::string quantity;        // the colour bar's title
  bool diverging = false;      // signed data: a map symmetric about zero
  int scale = 1;               // pixels per lattice cell along each axis
  std::vector<double> ux, uy;  // a velocity field: streamlines over the map
  std::vector<double> solid;   // non-zero on solid cells: grey, no streamlines
  double streamline_separation = 0;  // in cells; 0: a thirtieth of the larger extent

  explicit FieldPicture(std::string quantity_name, bool signed_data = false)
      : quantity(std::move(quantity_name)), diverging(signed_data) {}
  FieldPicture& scaled(int pixels_per_cell) {
    scale = pixels_per_cell;
    return *this;
  }
  FieldPicture& with_streamlines(std::vector<double> x_velocity, std::vector<double> y_velocity,
                                 double separation_in_cells = 0) {
    ux = std::move(x_velocity);
    uy = std::move(y_velocity);
    streamline_separation = separation_in_cells;
    return *this;
  }
  FieldPicture& with_solid(std::vector<double> mask) {
    solid = std::move(mask);
    return *this;
  }
};

namespace detail {

// The colour range: up to the 99th percentile of |value| over the fluid, so
// a few singular sites (the corners of a lid) do not wash out the picture;
// diverging maps are symmetric about zero. `clipped` says whether values
// lie beyond it.
struct ColourRange {
  double low, high;
  bool clipped;
};
inline ColourRange colour_range(const std::vector<double>& values, const std::vector<double>& solid, bool diverging) {
  std::vector<double> fluid, magnitudes;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (solid.empty() || solid[i] == 0) fluid.push_back(values[i]);
  if (fluid.empty()) fluid.push_back(0.0);
  for (double v : fluid) magnitudes.push_back(std::abs(v));
  const std::size_t k = magnitudes.size() * 99 / 100;
  std::nth_element(magnitudes.begin(), magnitudes.begin() + static_cast<std::ptrdiff_t>(k), magnitudes.end());
  const double high = magnitudes[k];
  const double low = diverging ? -high : *std::min_element(fluid.begin(), fluid.end());
  const double largest = *std::max_element(fluid.begin(), fluid.end());
  const double smallest = *std::min_element(fluid.begin(), fluid.end());
  return {low, high > low ? high : low + 1.0, largest > high || (diverging && smallest < low)};
}

inline std::string bar_label(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// The streamlines in pixels with an arrowhead half-way along each: dark on
// the light diverging map; on the ramp, which runs from dark to white, a
// light line inside a dark edge, so that they show on every colour.
inline void draw_streamlines(plot::Canvas& canvas, const std::vector<plot::Streamline>& lines, int ny, int scale,
                             bool diverging) {
  auto pixel = [&](plot::Point2 p) {
    return std::array<int, 2>{static_cast<int>(std::lround(p.x * scale)),
                              static_cast<int>(std::lround((ny - p.y) * scale))};
  };
  const int thickness = scale >= 4 ? 2 : 1;
  auto draw = [&](plot::Colour ink, int width) {
    for (const auto& line : lines) {
      for (std::size_t k = 1; k < line.size(); ++k) {
        const auto a = pixel(line[k - 1]), b = pixel(line[k]);
        canvas.line(a[0], a[1], b[0], b[1], ink, width);
      }
      if (line.size() < 3) continue;
      const std::size_t middle = line.size() / 2;
      const double dx = line[middle + 1].x - line[middle - 1].x, dy = line[middle + 1].y - line[middle - 1].y;
      const double norm = std::hypot(dx, dy);
      if (!(norm > 0)) continue;
      // Picture coordinates have y downwards; the barbs point 150 degrees back.
      // At most 10 pixels long: at 16 pixels a cell the arrowheads of
      // neighbouring streamlines otherwise overlap into a zigzag.
      const double ex = dx / norm, ey = -dy / norm, size = std::clamp(2.5 * scale, 4.0, 10.0);
      const auto tip = pixel(line[middle]);
      for (double side : {-1.0, 1.0}) {
        const double bx = -ex * 0.866 - side * ey * 0.5, by = -ey * 0.866 + side * ex * 0.5;
        canvas.line(tip[0], tip[1], tip[0] + static_cast<int>(std::lround(size * bx)),
                    tip[1] + static_cast<int>(std::lround(size * by)), ink, width);
      }
    }
  };
  if (diverging) {
    draw(plot::Colour{20, 20, 20}, thickness);
  } else {
    draw(plot::Colour{20, 20, 20}, thickness + 2);
    draw(plot::Colour{240, 240, 240}, thickness);
  }
}

// The colour bar right of the map: the ramp, five labelled ticks and the
// quantity read upwards beside it; a clipped range says so on its ends.
inline void draw_colour_bar(plot::Canvas& canvas, int left, int top, int height, const ColourRange& range,
                            bool diverging, const std::string& quantity, int text_scale) {
  const int bar_width = 8 * text_scale + 4;
  for (int py = 0; py < height; ++py) {
    const auto c = colour_map(1.0 - static_cast<double>(py) / std::max(1, height - 1), diverging);
    canvas.fill(left, top + py, left + bar_width - 1, top + py, plot::Colour{c[0], c[1], c[2]});
  }
  canvas.line(left, top, left + bar_width - 1, top, plot::black);
  canvas.line(left, top + height - 1, left + bar_width - 1, top + height - 1, plot::black);
  canvas.line(left, top, left, top + height - 1, plot::black);
  canvas.line(left + bar_width - 1, top, left + bar_width - 1, top + height - 1, plot::black);
  int widest = 0;
  for (int k = 0; k <= 4; ++k) {
    const double value = range.low + (range.high - range.low) * k / 4.0;
    std::string label = bar_label(value);
    if (range.clipped && k == 4) label += "+";
    if (range.clipped && diverging && k == 0) label += "-";
    const int y = top + height - 1 - (height - 1) * k / 4;
    canvas.line(left + bar_width, y, left + bar_width + 3, y, plot::black);
    canvas.text(left + bar_width + 6, y - 3 * text_scale, label, plot::black, text_scale);
    widest = std::max(widest, plot::Canvas::text_width(label, text_scale));
  }
  const int title_x = left + bar_width + 6 + widest + 4 * text_scale;
  const int title_length = plot::Canvas::text_width(quantity, text_scale);
  canvas.text(title_x, top + (height + title_length) / 2, quantity, plot::black, text_scale, true);
}

inline void write_png_here(const std::string& path, const std::vector<double>& values, int nx, int ny,
                           const FieldPicture& picture) {
  const int scale = std::max(1, picture.scale);
  const ColourRange range = colour_range(values, picture.solid, picture.diverging);
  const int map_width = nx * scale, map_height = ny * scale;
  const int text_scale = map_height >= 240 ? 2 : 1;
  const int margin = 6 * text_scale;
  // The bar's width: ramp, tick labels (at most 10 characters) and title.
  const int bar_block = 8 * text_scale + 4 + 6 + plot::Canvas::text_width("-0.000e-00+", text_scale) +
                        4 * text_scale + plot::glyph_height * text_scale + margin;
  // The map on a canvas of its own, so that streamlines are clipped to it.
  plot::Canvas map(map_width, map_height);
  for (int py = 0; py < map_height; ++py) {
    const int y = ny - 1 - py / scale;
    for (int px = 0; px < map_width; ++px) {
      const std::size_t i = static_cast<std::size_t>(y) * nx + px / scale;
      if (!picture.solid.empty() && picture.solid[i] != 0) {
        map.pixel(px, py, plot::Colour{150, 150, 150});
        continue;
      }
      const auto c = colour_map((values[i] - range.low) / (range.high - range.low), picture.diverging);
      map.pixel(px, py, plot::Colour{c[0], c[1], c[2]});
    }
  }
  if (!picture.ux.empty()) {
    const double separation =
        picture.streamline_separation > 0 ? picture.streamline_separation : std::max(nx, ny) / 30.0;
    const auto lines = plot::streamlines(picture.ux, picture.uy, picture.solid.empty() ? nullptr : &picture.solid, nx,
                                         ny, separation);
    draw_streamlines(map, lines, ny, scale, picture.diverging);
  }
  plot::Canvas canvas(margin + map_width + 2 * margin + bar_block, map_height + 2 * margin);
  canvas.paste(map, margin, margin);
  draw_colour_bar(canvas, margin + map_width + 2 * margin, margin, map_height, range, picture.diverging,
                  picture.quantity, text_scale);
  canvas.write_png(path);
}

inline void check_size(const std::vector<double>& v, int nx, int ny, const char* what) {
  if (!v.empty() && static_cast<long>(v.size()) != static_cast<long>(nx) * ny)
    throw std::invalid_argument(std::string("lbm: PNG ") + what + " has " + std::to_string(v.size()) +
                                " values, the picture " + std::to_string(nx) + " x " + std::to_string(ny));
}

}  // namespace detail

inline void write_png(const std::string& path, const std::vector<double>& values, int nx, int ny,
                      const FieldPicture& picture) {
  if (nx <= 0 || ny <= 0 || static_cast<long>(values.size()) != static_cast<long>(nx) * ny)
    throw std::invalid_argument("lbm: PNG data has " + std::to_string(values.size()) + " values, the picture " +
                                std::to_string(nx) + " x " + std::to_string(ny));
  detail::check_size(picture.ux, nx, ny, "x velocity");
  detail::check_size(picture.uy, nx, ny, "y velocity");
  detail::check_size(picture.solid, nx, ny, "solid mask");
  if (picture.ux.size() != picture.uy.size())
    throw std::invalid_argument("lbm: PNG streamlines need both velocity components");
  write_on_root([&] { detail::write_png_here(path, values, nx, ny, picture); });
}

}  // namespace latte::lbm
