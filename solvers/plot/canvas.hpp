#pragma once
// An RGB picture with the few drawing operations figures need (points,
// rectangles, thick lines, text in the bitmap font of bitmap_font.hpp),
// written as a PNG file with libpng; needs PNG::PNG at link time. Line plots
// (examples/plot_png.hpp) and the lattice-Boltzmann field pictures
// (solvers/lbm/io/png_output.hpp) draw on it. Called on one process: under
// mpirun, write from rank 0 (latte::write_on_root).

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/plot/bitmap_font.hpp"

namespace latte::plot {

struct Colour {
  unsigned char r, g, b;
};
inline constexpr Colour black{0, 0, 0}, white{255, 255, 255}, grid_grey{225, 225, 225};
inline constexpr Colour blue{31, 90, 180}, orange{230, 120, 20}, green{40, 150, 60}, red{200, 40, 40};

// An RGB picture with the few drawing operations plots need. (0, 0) is the
// top left corner; drawing outside the picture is clipped.
class Canvas {
 public:
  Canvas(int width, int height)
      : width_(width), height_(height), pixels_(3 * static_cast<std::size_t>(width) * height, 255) {}
  int width() const { return width_; }
  int height() const { return height_; }

  void pixel(int x, int y, Colour c) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    unsigned char* p = &pixels_[3 * (static_cast<std::size_t>(y) * width_ + x)];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }
  // Another picture with its top left corner at (left, top), clipped.
  void paste(const Canvas& other, int left, int top) {
    for (int y = 0; y < other.height_; ++y)
      for (int x = 0; x < other.width_; ++x) {
        const unsigned char* p = &other.pixels_[3 * (static_cast<std::size_t>(y) * other.width_ + x)];
        pixel(left + x, top + y, Colour{p[0], p[1], p[2]});
      }
  }
  void fill(int x0, int y0, int x1, int y1, Colour c) {  // inclusive corners
    for (int y = std::min(y0, y1); y <= std::max(y0, y1); ++y)
      for (int x = std::min(x0, x1); x <= std::max(x0, x1); ++x) pixel(x, y, c);
  }
  // A line `thickness` pixels wide (Bresenham, each point a small square).
  void line(int x0, int y0, int x1, int y1, Colour c, int thickness = 1) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    const int low = -(thickness - 1) / 2, high = thickness / 2;
    for (int error = dx + dy;;) {
      fill(x0 + low, y0 + low, x0 + high, y0 + high, c);
      if (x0 == x1 && y0 == y1) break;
      const int twice = 2 * error;
      if (twice >= dy) { error += dy; x0 += sx; }
      if (twice <= dx) { error += dx; y0 += sy; }
    }
  }

  // Text whose top left corner is (x, y), each font pixel a scale x scale
  // square; `upward` turns it a quarter turn anticlockwise (a y-axis title,
  // read from bottom to top, starting at (x, y) and going up).
  void text(int x, int y, const std::string& s, Colour c, int scale = 2, bool upward = false) {
    for (std::size_t k = 0; k < s.size(); ++k) {
      const Glyph* glyph = find_glyph(s[k]);
      for (int row = 0; row < glyph_height; ++row)
        for (int column = 0; column < glyph_width; ++column) {
          const bool ink = glyph ? glyph->rows[row][column] == '#'
                                 : row < 7 && (row == 0 || row == 6 || column == 0 || column == glyph_width - 1);
          if (!ink) continue;
          const int along = static_cast<int>(k) * glyph_advance + column, across = row;
          const int px = upward ? x + across * scale : x + along * scale;
          const int py = upward ? y - (along + 1) * scale + 1 : y + across * scale;
          fill(px, py, px + scale - 1, py + scale - 1, c);
        }
    }
  }
  static int text_width(const std::string& s, int scale = 2) {
    return s.empty() ? 0 : (static_cast<int>(s.size()) * glyph_advance - 1) * scale;
  }

  void write_png(const std::string& path) const {
    FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) throw std::runtime_error("plot: cannot write " + path);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
      png_destroy_write_struct(&png, &info);
      std::fclose(file);
      throw std::runtime_error("plot: libpng failed writing " + path);
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, width_, height_, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height_; ++y)
      png_write_row(png, const_cast<png_bytep>(&pixels_[3 * static_cast<std::size_t>(y) * width_]));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    if (std::fclose(file) != 0) throw std::runtime_error("plot: cannot finish writing " + path);
  }

 private:
  int width_, height_;
  std::vector<unsigned char> pixels_;
};

}  // namespace latte::plot
