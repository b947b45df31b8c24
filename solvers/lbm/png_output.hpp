#pragma once
// A colour-mapped PNG of a 2-D scalar field (speed, vorticity), written with
// libpng. Row 0 of the image is the top of the lattice (largest y), so the
// picture has y pointing up as in the physics. Needs PNG::PNG at link time.
// Under mpirun, rank 0 writes the picture (write_png is collective: every
// rank passes the same gathered values, field_export.hpp).

#include <png.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "lattice/root_output.hpp"

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

// values: nx * ny in lexicographic order (x fastest). Each site becomes a
// scale x scale block. Diverging maps are symmetric about zero.
namespace detail {
inline void write_png_here(const std::string& path, const std::vector<double>& values, int nx, int ny,
                           bool diverging, int scale) {
  // The colour range ends at the 99th percentile of |value|, so a few
  // singular sites (the corners of a lid) do not wash out the picture.
  std::vector<double> magnitudes(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) magnitudes[i] = std::abs(values[i]);
  const std::size_t k = magnitudes.size() * 99 / 100;
  std::nth_element(magnitudes.begin(), magnitudes.begin() + static_cast<std::ptrdiff_t>(k), magnitudes.end());
  double hi = magnitudes[k], lo = diverging ? -hi : *std::min_element(values.begin(), values.end());
  const double range = hi > lo ? hi - lo : 1.0;

  FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw std::runtime_error("lbm: cannot write " + path);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
    throw std::runtime_error("lbm: libpng failed writing " + path);
  }
  png_init_io(png, file);
  const int width = nx * scale, height = ny * scale;
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<unsigned char> row(3 * static_cast<std::size_t>(width));
  for (int py = 0; py < height; ++py) {
    const int y = ny - 1 - py / scale;
    for (int px = 0; px < width; ++px) {
      const auto c = colour_map((values[static_cast<std::size_t>(y) * nx + px / scale] - lo) / range, diverging);
      for (int k = 0; k < 3; ++k) row[3 * static_cast<std::size_t>(px) + k] = c[k];
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(file);
}
}  // namespace detail

inline void write_png(const std::string& path, const std::vector<double>& values, int nx, int ny, bool diverging,
                      int scale = 1) {
  if (static_cast<long>(values.size()) != static_cast<long>(nx) * ny)
    throw std::invalid_argument("lbm: PNG data size does not match its extents");
  write_on_root([&] { detail::write_png_here(path, values, nx, ny, diverging, scale); });
}

}  // namespace latte::lbm
