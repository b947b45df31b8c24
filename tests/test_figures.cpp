// Streamlines for the field pictures (solvers/plot/streamlines.hpp): they
// follow the flow (straight and in the flow's direction in a uniform
// stream, circles in a rigid rotation), keep their distance from each
// other, stay out of solid cells; and the PNG writer rejects mismatched
// sizes.

#include <cmath>
#include <vector>

#include "solvers/lbm/io/png_output.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using plot::Point2;

struct Grid {
  int nx, ny;
  std::vector<double> ux, uy;
  Grid(int x, int y) : nx(x), ny(y), ux(static_cast<std::size_t>(x) * y), uy(static_cast<std::size_t>(x) * y) {}
  template <class F>
  void set(F velocity) {  // velocity(centre x, centre y) -> Point2
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const Point2 u = velocity(x + 0.5, y + 0.5);
        ux[static_cast<std::size_t>(y) * nx + x] = u.x;
        uy[static_cast<std::size_t>(y) * nx + x] = u.y;
      }
  }
};

TEST(Streamlines, UniformFlowGivesStraightLinesAlongTheFlow) {
  Grid grid(30, 20);
  grid.set([](double, double) { return Point2{0.3, 0.0}; });
  const auto lines = plot::streamlines(grid.ux, grid.uy, nullptr, grid.nx, grid.ny, 4.0);
  ASSERT_EQ(lines.size(), 5u);  // one per seed row: y = 2, 6, 10, 14, 18
  for (const auto& line : lines) {
    for (std::size_t k = 1; k < line.size(); ++k) {
      EXPECT_EQ(line[k].y, line[0].y);
      EXPECT_GT(line[k].x, line[k - 1].x);  // downstream
    }
    EXPECT_LT(line.front().x, 0.5);
    EXPECT_GT(line.back().x, 29.5);
  }
}

TEST(Streamlines, RigidRotationGivesCircles) {
  Grid grid(40, 40);
  grid.set([](double x, double y) { return Point2{-(y - 20.0), x - 20.0}; });
  const auto lines = plot::streamlines(grid.ux, grid.uy, nullptr, grid.nx, grid.ny, 3.0);
  ASSERT_GE(lines.size(), 4u);
  for (const auto& line : lines) {
    double low = 1e9, high = 0;
    for (const Point2& p : line) {
      const double r = std::hypot(p.x - 20.0, p.y - 20.0);
      low = std::min(low, r);
      high = std::max(high, r);
    }
    // The bilinear rotation is exact; only the Runge-Kutta steps (half a
    // cell) drift, which matters on the smallest circles only.
    if (low < 2.0) continue;
    EXPECT_LT(high - low, 0.02 * high + 0.05) << "a streamline between radii " << low << " and " << high;
    // Anticlockwise: the cross product of position and step is positive.
    const Point2 a = line[line.size() / 2 - 1], b = line[line.size() / 2];
    EXPECT_GT((a.x - 20.0) * (b.y - a.y) - (a.y - 20.0) * (b.x - a.x), 0.0);
  }
}

TEST(Streamlines, KeepApartAndStayOutOfSolidCells) {
  Grid grid(32, 32);
  grid.set([](double x, double y) { return Point2{std::sin(0.2 * y) + 0.5, std::cos(0.2 * x)}; });
  std::vector<double> solid(grid.ux.size(), 0.0);
  for (int y = 0; y < grid.ny; ++y)
    for (int x = 20; x < grid.nx; ++x) solid[static_cast<std::size_t>(y) * grid.nx + x] = 1.0;
  const double separation = 4.0;
  const auto lines = plot::streamlines(grid.ux, grid.uy, &solid, grid.nx, grid.ny, separation);
  ASSERT_GE(lines.size(), 3u);
  for (std::size_t a = 0; a < lines.size(); ++a) {
    for (const Point2& p : lines[a]) EXPECT_LE(p.x, 20.0) << "a streamline point inside the solid";
    for (std::size_t b = 0; b < a; ++b)
      for (const Point2& p : lines[a])
        for (const Point2& q : lines[b])
          // Lines stop within one step (at most 1/2 cell) of the test distance.
          EXPECT_GE(std::hypot(p.x - q.x, p.y - q.y), 0.5 * separation - 0.5);
  }
}

TEST(FieldPicture, MismatchedSizesAreNamed) {
  const std::vector<double> values(12, 1.0);
  EXPECT_THROW(lbm::write_png("unused.png", values, 4, 4, lbm::FieldPicture("q")), std::invalid_argument);
  EXPECT_THROW(lbm::write_png("unused.png", values, 4, 3,
                              lbm::FieldPicture("q").with_streamlines(std::vector<double>(12), std::vector<double>(11))),
               std::invalid_argument);
  EXPECT_THROW(lbm::write_png("unused.png", values, 4, 3, lbm::FieldPicture("q").with_solid(std::vector<double>(3))),
               std::invalid_argument);
}

}  // namespace
}  // namespace latte::testing
