#pragma once
// The shape of a 2-D droplet from a density picture alone, with no
// knowledge of the model that made it: the interface is the contour
// rho = level (the mean of the liquid and vapour densities), found on the
// lattice's edges by linear interpolation; a circle fitted to it by least
// squares gives the radius, and for a drop sitting on a flat wall the
// angle where the circle meets the wall plane is the contact angle.
//
// Arrays are whole 2-D fields in lexicographic order (x fastest), as
// gather_component (solvers/lbm/io/field_export.hpp) returns them; x is periodic, y is
// not (a drop on a wall).

#include <cmath>
#include <cstddef>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace latte::lbm {

struct ContourPoint {
  double x, y;
};

// The points where rho crosses `level` on the edges between neighbouring
// sites (x periodic), keeping only those with y >= lowest_y: near a wall
// the density has a layer of its own that is not the drop's surface.
// Crossings that wrap around the periodic x boundary are unwrapped towards
// x_centre (the drop's centre), so a drop across the seam stays whole.
inline std::vector<ContourPoint> contour_points(const std::vector<double>& rho, int nx, int ny, double level,
                                          double lowest_y, double x_centre) {
  std::vector<ContourPoint> points;
  const auto at = [&](int x, int y) { return rho[static_cast<std::size_t>(y) * nx + x]; };
  const auto unwrap = [&](double x) {
    while (x - x_centre > 0.5 * nx) x -= nx;
    while (x_centre - x > 0.5 * nx) x += nx;
    return x;
  };
  const auto crossing = [&](double a, double b) { return (level - a) / (b - a); };  // fraction from a towards b
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const double here = at(x, y);
      const double right = at((x + 1) % nx, y);
      if ((here - level) * (right - level) < 0 && y >= lowest_y)
        points.push_back({unwrap(x + crossing(here, right)), static_cast<double>(y)});
      if (y + 1 < ny) {
        const double up = at(x, y + 1);
        const double t = crossing(here, up);
        if ((here - level) * (up - level) < 0 && y + t >= lowest_y) points.push_back({unwrap(x), y + t});
      }
    }
  return points;
}

struct Circle {
  double x, y, radius;
};

// The least-squares circle through points (Kasa's algebraic fit: minimise
// sum (x^2 + y^2 + a x + b y + c)^2, a linear problem in a, b, c).
inline Circle fit_circle(const std::vector<ContourPoint>& points) {
  if (points.size() < 3) throw std::runtime_error("lbm: fit_circle: fewer than three points");
  // Normal equations M (a, b, c) = r, solved by Cramer's rule.
  double m[3][3] = {}, r[3] = {};
  for (const ContourPoint& p : points) {
    const double row[3] = {p.x, p.y, 1.0}, rhs = -(p.x * p.x + p.y * p.y);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) m[i][j] += row[i] * row[j];
      r[i] += row[i] * rhs;
    }
  }
  const auto det = [](const double a[3][3]) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  };
  const double d = det(m);
  double solution[3];
  for (int k = 0; k < 3; ++k) {
    double mk[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) mk[i][j] = j == k ? r[i] : m[i][j];
    solution[k] = det(mk) / d;
  }
  const double cx = -0.5 * solution[0], cy = -0.5 * solution[1];
  return {cx, cy, std::sqrt(cx * cx + cy * cy - solution[2])};
}

// The contact angle in degrees, measured through the liquid, of a circular
// drop cut by the wall plane y = wall_y, the drop above it: the centre at
// height d above the plane gives cos(theta) = -d / R (centre on the plane:
// 90 degrees; above it: a drop larger than a half-disc, theta > 90).
inline double contact_angle_degrees(const Circle& c, double wall_y) {
  const double cosine = -(c.y - wall_y) / c.radius;
  return std::acos(std::fmax(-1.0, std::fmin(1.0, cosine))) * 180.0 / std::numbers::pi;
}

}  // namespace latte::lbm
