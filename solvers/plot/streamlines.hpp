#pragma once
// Evenly spaced streamlines of a 2-D velocity field, for drawing over a
// colour map (solvers/lbm/io/png_output.hpp).
//
// The field is sampled at cell centres of an nx x ny grid (x fastest);
// positions are in cell units, cell (i, j) covering [i, i + 1) x [j, j + 1)
// with its centre at (i + 1/2, j + 1/2). Between centres the velocity is
// interpolated bilinearly. Lines are traced in both directions from seeds
// on a regular grid of spacing `separation`, with second-order Runge-Kutta
// steps of a fixed length along the normalised velocity (so slow regions
// get lines as well as fast ones), in the manner of Jobard & Lefer (1997):
// a seed closer than `separation` to an existing line is skipped, and a
// line stops when it comes within separation / 2 of another line, leaves
// the grid, meets a solid cell or a stagnation point, or closes on itself.

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace latte::plot {

struct Point2 {
  double x, y;
};

using Streamline = std::vector<Point2>;  // in the direction of the flow

namespace detail {

class SampledVelocity {
 public:
  SampledVelocity(const std::vector<double>& ux, const std::vector<double>& uy, const std::vector<double>* solid,
                  int nx, int ny)
      : ux_(ux), uy_(uy), solid_(solid), nx_(nx), ny_(ny) {
    for (std::size_t k = 0; k < ux.size(); ++k)
      if (!is_solid(k)) largest_ = std::max(largest_, std::hypot(ux[k], uy[k]));
  }
  double largest_speed() const { return largest_; }

  // The velocity at p, or nothing outside the grid, next to a solid cell or
  // where the flow stands still (below 1e-6 of the largest speed).
  std::optional<Point2> at(Point2 p) const {
    if (!(p.x >= 0 && p.y >= 0 && p.x <= nx_ && p.y <= ny_)) return std::nullopt;
    // The four centres around p, clamped at the edges of the grid.
    const double gx = std::clamp(p.x - 0.5, 0.0, nx_ - 1.0), gy = std::clamp(p.y - 0.5, 0.0, ny_ - 1.0);
    const int x0 = std::min(static_cast<int>(gx), nx_ - 1), y0 = std::min(static_cast<int>(gy), ny_ - 1);
    const int x1 = std::min(x0 + 1, nx_ - 1), y1 = std::min(y0 + 1, ny_ - 1);
    const double sx = gx - x0, sy = gy - y0;
    const std::size_t corner[4] = {index(x0, y0), index(x1, y0), index(x0, y1), index(x1, y1)};
    const double weight[4] = {(1 - sx) * (1 - sy), sx * (1 - sy), (1 - sx) * sy, sx * sy};
    Point2 u{0, 0};
    for (int k = 0; k < 4; ++k) {
      if (is_solid(corner[k])) return std::nullopt;
      u.x += weight[k] * ux_[corner[k]];
      u.y += weight[k] * uy_[corner[k]];
    }
    if (!(std::hypot(u.x, u.y) > 1e-6 * largest_)) return std::nullopt;
    return u;
  }

 private:
  std::size_t index(int x, int y) const { return static_cast<std::size_t>(y) * nx_ + x; }
  bool is_solid(std::size_t k) const { return solid_ && (*solid_)[k] != 0; }

  const std::vector<double>& ux_;
  const std::vector<double>& uy_;
  const std::vector<double>* solid_;
  int nx_, ny_;
  double largest_ = 0;
};

// Points of the lines drawn so far, bucketed on a grid of the test distance.
class LineDensity {
 public:
  LineDensity(int nx, int ny, double spacing)
      : spacing_(spacing),
        bx_(static_cast<int>(nx / spacing) + 1),
        by_(static_cast<int>(ny / spacing) + 1),
        buckets_(static_cast<std::size_t>(bx_) * by_) {}
  void add(const Streamline& line) {
    for (const Point2& p : line) buckets_[bucket(p)].push_back(p);
  }
  // Whether a point of an earlier line lies within `distance` of p.
  bool near(Point2 p, double distance) const {
    const int cx = static_cast<int>(p.x / spacing_), cy = static_cast<int>(p.y / spacing_);
    const int reach = static_cast<int>(std::ceil(distance / spacing_));
    for (int y = std::max(0, cy - reach); y <= std::min(by_ - 1, cy + reach); ++y)
      for (int x = std::max(0, cx - reach); x <= std::min(bx_ - 1, cx + reach); ++x)
        for (const Point2& q : buckets_[static_cast<std::size_t>(y) * bx_ + x])
          if (std::hypot(q.x - p.x, q.y - p.y) < distance) return true;
    return false;
  }

 private:
  std::size_t bucket(Point2 p) const {
    const int x = std::clamp(static_cast<int>(p.x / spacing_), 0, bx_ - 1);
    const int y = std::clamp(static_cast<int>(p.y / spacing_), 0, by_ - 1);
    return static_cast<std::size_t>(y) * bx_ + x;
  }
  double spacing_;
  int bx_, by_;
  std::vector<std::vector<Point2>> buckets_;
};

// Traces from `seed` along (direction = +1) or against (-1) the flow.
inline Streamline trace(const SampledVelocity& u, const LineDensity& others, Point2 seed, double direction,
                        double step, double test_distance, int max_steps) {
  Streamline line;
  Point2 p = seed;
  double length = 0;
  auto unit = [&](Point2 at) -> std::optional<Point2> {
    const auto v = u.at(at);
    if (!v) return std::nullopt;
    const double norm = std::hypot(v->x, v->y);
    return Point2{direction * v->x / norm, direction * v->y / norm};
  };
  for (int k = 0; k < max_steps; ++k) {
    const auto v1 = unit(p);
    if (!v1) break;
    const auto v2 = unit({p.x + 0.5 * step * v1->x, p.y + 0.5 * step * v1->y});
    if (!v2) break;
    const Point2 next{p.x + step * v2->x, p.y + step * v2->y};
    if (!u.at(next) || others.near(next, test_distance)) break;
    length += step;
    // Closed orbit: back at the seed after going round.
    if (length > 4 * test_distance && std::hypot(next.x - seed.x, next.y - seed.y) < step) break;
    line.push_back(next);
    p = next;
  }
  return line;
}

}  // namespace detail

// Streamlines about `separation` cells apart (at least 1). `solid`, if not
// null, marks solid cells (non-zero), which lines do not enter.
inline std::vector<Streamline> streamlines(const std::vector<double>& ux, const std::vector<double>& uy,
                                           const std::vector<double>* solid, int nx, int ny, double separation) {
  separation = std::max(separation, 1.0);
  const detail::SampledVelocity u(ux, uy, solid, nx, ny);
  std::vector<Streamline> lines;
  if (!(u.largest_speed() > 0)) return lines;
  const double test_distance = 0.5 * separation, step = std::min(0.25 * separation, 0.5);
  const int max_steps = static_cast<int>(8 * (nx + ny) / step);
  detail::LineDensity density(nx, ny, test_distance);
  for (double y = 0.5 * separation; y < ny; y += separation)
    for (double x = 0.5 * separation; x < nx; x += separation) {
      const Point2 seed{x, y};
      if (!u.at(seed) || density.near(seed, separation)) continue;
      Streamline backward = detail::trace(u, density, seed, -1.0, step, test_distance, max_steps);
      const Streamline forward = detail::trace(u, density, seed, +1.0, step, test_distance, max_steps);
      Streamline line(backward.rbegin(), backward.rend());
      line.push_back(seed);
      line.insert(line.end(), forward.begin(), forward.end());
      if (static_cast<double>(line.size() - 1) * step < separation) continue;  // too short to show a direction
      density.add(line);
      lines.push_back(std::move(line));
    }
  return lines;
}

}  // namespace latte::plot
