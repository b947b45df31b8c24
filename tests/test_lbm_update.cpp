// The update as three parts (solvers/lbm/update/lattice_update.hpp): a collision
// model written here, outside the library, runs with every streaming pattern
// and wall rule and agrees with the library's BGK; and the body force is an
// operand: a force field equal everywhere to a uniform force gives that
// force's bits, and a force that varies from site to site adds exactly its
// sum to the momentum in each step.

#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/update/lattice_update.hpp"
#include "test_support.hpp"

namespace latte::testing {
namespace {

using namespace latte::lbm;

// BGK written the textbook way, f' = f - omega (f - f^eq) + (1 - omega/2) S,
// with none of lbm::Bgk's pairing: a model a user would add.
struct TextbookBgk {
  static constexpr const char* name = "textbook BGK";
  double omega = 1.0;

  template <class VS, bool Forced, class V>
  LATTE_INLINE Populations<V, VS::q> relax(const Populations<V, VS::q>& f, const CollisionState<V, VS::d>& s,
                                           const V* force) const {
    const Populations<V, VS::q> feq = equilibrium<VS>(s.rho, s.u);
    Populations<V, VS::q> out;
    static_for<VS::q>([&](auto i) LATTE_LAMBDA {
      out.v[i] = f.v[i] - V(omega) * (f.v[i] - feq.v[i]);
      if constexpr (Forced)
        out.v[i] = out.v[i] + (V(1.0) - V(0.5) * V(omega)) * lbm::detail::guo_source<VS, i>(s.u, force, s.uF);
    });
    return out;
  }
};

using VS = D2Q9;
using Field = Lattice<Populations<double, VS::q>, VectorWidth>;
using Boundary = Lattice<RealVector<double, VS::d + 1>, VectorWidth>;
using Force = RealVector<double, VS::d>;

void randomise(Field& f) {
  Lattice<double, VectorWidth> rho(f.geometry());
  Lattice<RealVector<double, VS::d>, VectorWidth> u(f.geometry());
  Field noise(f.geometry());
  ParallelRng rng(7);
  rng.uniform(rho, 0.95, 1.05);
  rng.uniform(u, -0.03, 0.03);
  rng.uniform(noise, -0.002, 0.002);
  f = equilibrium_of<VS>(rho, u) + noise;
}

// Steps of one pattern pair with a model: two lattices, or in place
// (alternating push and local steps from the swapped state).
template <bool InPlace, class Model, class Walls>
void run_steps(Field& f, const Model& model, const Force& force, const Walls& walls, int steps) {
  Field next(f.geometry());
  if constexpr (InPlace) f = swap_opposite<VS>(f);
  for (int s = 0; s < steps; ++s) {
    if constexpr (InPlace) {
      if (s % 2 == 0) update<VS, AaPushStep, backend::Default>(f, &next, FlowCollision<Model, true>{model}, force, walls);
      else update<VS, AaLocalStep, backend::Default>(f, &next, FlowCollision<Model, true>{model}, force, walls);
    } else {
      update<VS, PullStreaming, backend::Default>(f, &next, FlowCollision<Model, true>{model}, force, walls);
      f.swap(next);
    }
  }
  if constexpr (InPlace) f = swap_opposite<VS>(f);  // an even count ends swapped
}

template <bool InPlace, class Walls>
void expect_textbook_model_agrees(const Geometry& g, const Walls& walls, const char* what) {
  const Force force{{2e-4, -1e-4}};
  Field a(g), b(g);
  randomise(a);
  b = a;
  run_steps<InPlace>(a, Bgk::from_tau(0.7), force, walls, 6);
  run_steps<InPlace>(b, TextbookBgk{1.0 / 0.7}, force, walls, 6);
  EXPECT_LT(std::sqrt(norm2(a - b) / norm2(a)), 1e-14) << what;
}

TEST(LbmUpdate, AModelWrittenOutsideTheLibraryRunsWithEveryPatternAndWallRule) {
  const Geometry g({16, 12});
  Boundary boundary(g);
  boundary = zero;
  mark_solid(boundary, [](const Coordinate& x) { return x[1] == 0 || x[1] == 11 || (x[0] == 6 && x[1] == 5); },
             [](const Coordinate& x) { return std::array<double, 2>{x[1] == 11 ? 0.04 : 0.0, 0.0}; });
  expect_textbook_model_agrees<false>(g, NoWalls{}, "two lattices, periodic");
  expect_textbook_model_agrees<false>(g, HalfWayWalls<Boundary>{boundary}, "two lattices, walls");
  expect_textbook_model_agrees<true>(g, HalfWayWalls<Boundary>{boundary}, "in place, walls");
}

TEST(LbmUpdate, TheBodyForceIsAnOperandUniformOrPerSite) {
  const Geometry g({12, 10});
  using Model = Trt;
  const Model model = Trt::from_tau(0.8);
  const Force uniform{{3e-4, -2e-4}};
  Lattice<Force, VectorWidth> force_field(g);
  force_field = uniform;
  Field a(g), b(g), next(g);
  randomise(a);
  b = a;
  update<VS, PullStreaming, backend::Default>(a, &next, FlowCollision<Model, true>{model}, uniform, NoWalls{});
  a.swap(next);
  update<VS, PullStreaming, backend::Default>(b, &next, FlowCollision<Model, true>{model}, force_field, NoWalls{});
  b.swap(next);
  EXPECT_EQ(norm2(a - b), 0.0) << "a field equal to the uniform force gives its bits";

  // A force that varies from site to site: Guo's scheme adds F(x) to the
  // momentum at x, so the total momentum grows by sum_x F(x) per step.
  for (int x = 0; x < 12; ++x)
    for (int y = 0; y < 10; ++y)
      poke(force_field, {x, y}, Force{{1e-4 * std::sin(0.5 * x), 2e-4 * std::cos(0.3 * y + 0.1 * x)}});
  const auto before = sum(momentum<VS>(b));
  const auto added = sum(force_field);
  update<VS, PullStreaming, backend::Default>(b, &next, FlowCollision<Model, true>{model}, force_field, NoWalls{});
  b.swap(next);
  const auto after = sum(momentum<VS>(b));
  for (int d = 0; d < VS::d; ++d) EXPECT_NEAR(after.v[d] - before.v[d], added.v[d], 1e-15) << "component " << d;
}

}  // namespace
}  // namespace latte::testing
