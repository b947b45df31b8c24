// A static Shan–Chen droplet (D2Q9, or D3Q19 with --dim 3): liquid in its
// own vapour, relaxed to equilibrium, with the quantities of Laplace's law
// and the spurious currents of the model.
//
//   lbm_droplet --n 64 --radius 16                      a drop in a periodic box
//   lbm_droplet --eos carnahan-starling --temperature 0.8
//   lbm_droplet --wall-density 0.8                      a drop on a wetting wall
//   lbm_droplet --dim 3 --n 32 --radius 9               a 3-D drop
//
// Lattice units throughout (spacing, time step, c = 1). The model is
// solvers/lbm/multiphase/shan_chen.hpp: the original psi = 1 - exp(-rho) with the
// coupling --coupling G (phase separation below G = -4), or the
// Carnahan–Starling equation of state (a, b, R = 1, 4, 1) at
// --temperature T / T_c. The drop starts as a disc (sphere) of --radius with a tanh
// profile, its densities a guess from the spinodals of the equation of
// state (below the lower one for the vapour, above the upper one for the
// liquid); the model finds its own coexistence.
//
// With --wall-density rho_w > 0 the bottom and top rows are half-way
// bounce-back walls with that virtual density (solvers/lbm/multiphase/shan_chen_wetting.hpp:
// near the liquid density the wall wets, near the vapour density it does
// not), the drop starts as a half-disc (hemisphere) on the bottom wall, and the contact
// angle is measured from the mid-density contour (solvers/lbm/multiphase/droplet_shape.hpp).
//
// Reported at the end: the liquid density (at the drop's middle), the
// vapour density (far from it), their ratio, the radius (periodic box: from
// the liquid's area, pi R^2 = (M - rho_v N) / (rho_l - rho_v), or volume
// in 3-D, which assumes nothing of the equilibrium; on a wall: the circle
// fitted to the contour), the bulk pressures inside and outside (the
// model's equation of state, bulk_pressure), Delta p, Delta p R and the
// surface tension by Laplace's law (Delta p = sigma / R in 2-D, 2 sigma / R
// in 3-D), and the largest |u|, the spurious currents. Writes
// DIR/droplet.csv (the horizontal line through the drop's middle, on a
// wall half-way up it: x, density, pressure, u_x, u_y) and
// DIR/density.png (density with streamlines of the spurious currents); in
// 3-D both in the plane z = n/2.
// Exit status: 0; 3 if --max-spurious-velocity is exceeded, the contact
// angle lies outside [--min-contact-angle, --max-contact-angle] or the
// mass drifts by more than 1e-10 (relative); 4 if the flow diverges.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "examples/command_line.hpp"
#include "solvers/lbm/flow/simulation.hpp"
#include "solvers/lbm/io/field_export.hpp"
#include "solvers/lbm/io/png_output.hpp"
#include "solvers/lbm/multiphase/droplet_shape.hpp"
#include "solvers/lbm/multiphase/shan_chen.hpp"

namespace {

using namespace latte;
using namespace latte::lbm;

struct Options {
  int dim = 2;
  int n = 64;
  double radius = 16;
  std::string eos = "exponential";
  double coupling = -5.0;
  double temperature = 0.85;  // Carnahan–Starling: T / T_c
  double tau = 1.0;
  long steps = 6000;
  long report_every = 1000;
  double wall_density = 0;  // > 0: walls at the bottom and top with this virtual density
  std::string out = "droplet_out";
  double max_spurious_velocity = 0;  // > 0: exit 3 above it
  double min_contact_angle = 0, max_contact_angle = 180;  // on a wall: exit 3 outside, degrees
};

// Densities to start from: below the lower spinodal (vapour) and above the
// upper one (liquid) of p(rho), where dp/drho = 0; found on a fine grid.
template <class Model>
std::array<double, 2> starting_densities(const Model& model) {
  const auto slope = [&](double rho) { return (model.pressure(rho + 1e-6) - model.pressure(rho - 1e-6)) / 2e-6; };
  double lower = 0, upper = 0;
  for (double rho = 1e-3; rho < 5.0; rho += 1e-3) {
    const double s = slope(rho);
    if (!std::isfinite(s) || !std::isfinite(model.pseudopotential(rho))) break;  // the end of the Carnahan-Starling psi
    if (s < 0 && lower == 0) lower = rho;
    if (s < 0) upper = rho;
  }
  if (lower == 0)
    throw std::invalid_argument("no phase separation: the equation of state has no spinodal (raise |G| or lower T)");
  double liquid = 1.5 * upper;
  while (!std::isfinite(model.pressure(liquid)) || !std::isfinite(model.pseudopotential(liquid))) liquid *= 0.95;
  return {0.4 * lower, liquid};
}

template <class VS, class Model>
int run(const Options& opt, const Model& model) {
  constexpr int D = VS::d;
  const int n = opt.n;
  const Geometry g = D == 2 ? Geometry({n, n}) : Geometry({n, n, n});
  const bool walls = opt.wall_density > 0;
  const double wall_y = 0.5;  // the bottom wall plane: half-way between row 0 (solid) and row 1
  // The drop's centre: the box's, or on the bottom wall plane.
  const std::array<double, 3> centre{0.5 * n, walls ? wall_y : 0.5 * n, 0.5 * n};
  using Sim = Simulation<VS, double, Bgk>;
  Parameters p;
  p.tau = opt.tau;
  Sim sim(g, p);
  const auto [vapour0, liquid0] = starting_densities(model);
  {
    typename Sim::ScalarField rho(g);
    typename Sim::VectorField u(g);
    fill(rho, [&](const Coordinate& x) {
      double r2 = 0;
      for (int d = 0; d < D; ++d) r2 += (x[d] - centre[d]) * (x[d] - centre[d]);
      return 0.5 * (liquid0 + vapour0) - 0.5 * (liquid0 - vapour0) * std::tanh((std::sqrt(r2) - opt.radius) / 2.0);
    });
    u = zero;
    sim.initialise(rho, u);
  }
  typename Sim::Boundary boundary(g);
  if (walls) {
    mark_solid(boundary, [&](const Coordinate& x) { return x[1] == 0 || x[1] == n - 1; });
    sim.set_boundary(boundary);
  }
  ShanChenCoupling coupling = walls ? ShanChenCoupling(sim, model, Wetting{opt.wall_density})
                                    : ShanChenCoupling(sim, model);
  std::filesystem::create_directories(opt.out);
  std::printf("Shan-Chen droplet: %s BGK, %d^%d, tau = %g, psi %s", VS::name, n, D, opt.tau,
              std::remove_cvref_t<decltype(model.pseudopotential)>::name);
  if (opt.eos == "exponential") std::printf(", G = %g\n", opt.coupling);
  else std::printf(", T = %g T_c\n", opt.temperature);
  std::printf("start: radius %g, vapour %.4f, liquid %.4f (from the spinodals)", opt.radius, vapour0, liquid0);
  if (walls) std::printf(", on walls of virtual density %g (psi_wall %.4f)\n", opt.wall_density, coupling.wall_psi());
  else std::printf(", periodic box\n");

  // Whole fields gathered in lexicographic order (x fastest); in 3-D the
  // pictures, the line and the contour lie in the plane z = n/2 through
  // the drop's centre (a plane through a spherical cap's axis cuts it at
  // the contact angle).
  const auto site = [&](int x, int y) {
    const std::size_t z = D == 3 ? static_cast<std::size_t>(n / 2) : 0;
    return (z * n + static_cast<std::size_t>(y)) * n + static_cast<std::size_t>(x);
  };
  const auto plane = [&](const std::vector<double>& whole) {
    std::vector<double> cut(static_cast<std::size_t>(n) * n);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) cut[static_cast<std::size_t>(y) * n + x] = whole[site(x, y)];
    return cut;
  };
  const std::vector<double> solid = gather_component(boundary, 0);
  const auto fluid_sites = [&] {
    double count = 0;
    for (double s : solid) count += s == 0;
    return count;
  }();
  // Bulk densities during the run: the drop's centre (on a wall: a quarter
  // of the initial radius above it) and far from the drop (half the box
  // away sideways). The final report takes the liquid half-way up the
  // drop on a wall.
  const std::size_t inside_site = site(n / 2, walls ? static_cast<int>(0.25 * opt.radius) + 1 : n / 2);
  const std::size_t outside_site = site(0, walls ? n / 2 : 0);
  // The liquid's area (2-D) or volume (3-D) from the fluid's mass,
  // (M - rho_v N) / (rho_l - rho_v), and the radius of the disc or sphere
  // (on a wall: half of one, as at 90 degrees) that holds it. The sums run
  // in lexicographic order, the same on any number of ranks.
  const auto liquid_radius = [&](const std::vector<double>& rho) {
    double fluid_mass = 0;
    for (std::size_t k = 0; k < rho.size(); ++k)
      if (solid[k] == 0) fluid_mass += rho[k];
    const double liquid = rho[inside_site], vapour = rho[outside_site];
    const double amount = (walls ? 2.0 : 1.0) * (fluid_mass - vapour * fluid_sites) / (liquid - vapour);
    return D == 2 ? std::sqrt(amount / std::numbers::pi) : std::cbrt(3.0 * amount / (4.0 * std::numbers::pi));
  };
  const auto total = [](const std::vector<double>& values) {
    double s = 0;
    for (double v : values) s += v;
    return s;
  };

  typename Sim::ScalarField rho(g);
  const double mass0 = sim.mass();
  std::printf("%10s %14s %12s %14s\n", "step", "max|u|", "radius", "mass");
  while (sim.time() < opt.steps) {
    coupling.run(std::min(opt.report_every, opt.steps - sim.time()));
    rho = sim.density();
    const std::vector<double> whole = gather_component(rho);
    const double max_u = sim.max_speed();
    const double mass = total(whole);
    std::printf("%10ld %14.6e %12.4f %14.6f\n", sim.time(), max_u, liquid_radius(whole), mass);
    std::fflush(stdout);
    if (!std::isfinite(max_u) || !std::isfinite(mass)) {
      std::printf("diverged: the velocity is not finite after %ld steps\n", sim.time());
      return 4;
    }
  }

  rho = sim.density();
  typename Sim::ScalarField pressure(g);
  pressure = bulk_pressure(model, rho);
  typename Sim::VectorField u(g);
  u = sim.velocity();
  const std::vector<double> whole_density = gather_component(rho), whole_pressure = gather_component(pressure);
  const std::vector<double> density = plane(whole_density), bulk = plane(whole_pressure), solid_plane = plane(solid);
  std::vector<double> ux = plane(gather_component(u, 0)), uy = plane(gather_component(u, 1));
  for (std::size_t k = 0; k < solid_plane.size(); ++k)
    if (solid_plane[k] != 0) ux[k] = uy[k] = 0;
  const double vapour = whole_density[outside_site];
  double radius = liquid_radius(whole_density);
  double angle = 90;
  int middle_row = n / 2;  // the row through the drop's middle: the liquid's values and the CSV's line
  if (walls) {
    // The contour at the mean of the progress's liquid value and the vapour.
    const auto points =
        contour_points(density, n, n, 0.5 * (whole_density[inside_site] + vapour), wall_y + 2.0, centre[0]);
    const Circle circle = fit_circle(points);
    radius = circle.radius;
    angle = contact_angle_degrees(circle, wall_y);
    std::printf("contact angle %.1f degrees (circle through the mid-density contour: radius %.3f, centre %.3f "
                "above the wall)\n",
                angle, circle.radius, circle.y - wall_y);
    // A circle that does not cut the wall plane is no cap: the liquid has
    // spread into a film along the wall (or left it), and there is no angle.
    if (std::abs(circle.y - wall_y) >= circle.radius)
      std::printf("warning: the contour's circle does not meet the wall: no drop sits on it (a film?)\n");
    // Half-way up the cap, where the wall's density layer has faded.
    const double cap_height = circle.y + circle.radius - wall_y;
    middle_row = std::clamp(static_cast<int>(std::lround(wall_y + 0.5 * cap_height)), 1, n - 2);
  } else {
    std::printf("radius %.4f (from the liquid's %s)\n", radius, D == 2 ? "area" : "volume");
  }
  const std::size_t middle = site(n / 2, middle_row);
  const double liquid = whole_density[middle];
  const double p_in = whole_pressure[middle], p_out = whole_pressure[outside_site], delta_p = p_in - p_out;
  std::printf("liquid density %.5f (at the drop's middle, row %d), vapour density %.5f, ratio %.2f\n", liquid,
              middle_row, vapour, liquid / vapour);
  // Laplace: Delta p = sigma / R in 2-D, 2 sigma / R in 3-D.
  std::printf("bulk pressure inside %.6f, outside %.6f, Delta p %.5e, Delta p R %.5f, surface tension %.5f\n", p_in,
              p_out, delta_p, delta_p * radius, delta_p * radius / (D - 1));
  const double max_u = sim.max_speed();
  std::printf("spurious currents: max |u| %.4e\n", max_u);

  {
    ReportFile csv(opt.out + "/droplet.csv");
    csv << "x,density,pressure,ux,uy\n";
    csv.precision(10);
    for (int x = 0; x < n; ++x) {
      const std::size_t k = static_cast<std::size_t>(middle_row) * n + x;
      csv << x << ',' << density[k] << ',' << bulk[k] << ',' << ux[k] << ',' << uy[k] << '\n';
    }
  }
  FieldPicture picture("density");
  picture.scaled(std::max(1, 512 / n)).with_streamlines(ux, uy);
  if (walls) picture.with_solid(solid_plane);
  write_png(opt.out + "/density.png", density, n, n, picture);
  std::printf("wrote %s/droplet.csv, density.png\n", opt.out.c_str());

  const double drift = std::abs(sim.mass() / mass0 - 1);
  int status = 0;
  if (drift > 1e-10) {
    std::printf("error: the mass drifted by more than 1e-10 (relative)\n");
    status = 3;
  }
  if (opt.max_spurious_velocity > 0 && max_u > opt.max_spurious_velocity) {
    std::printf("error: spurious currents exceed --max-spurious-velocity %g\n", opt.max_spurious_velocity);
    status = 3;
  }
  if (walls && (angle < opt.min_contact_angle || angle > opt.max_contact_angle)) {
    std::printf("error: the contact angle lies outside [%g, %g] degrees\n", opt.min_contact_angle,
                opt.max_contact_angle);
    status = 3;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  Options opt;
  programs::CommandLine cli{"A static Shan-Chen droplet: densities, Laplace pressure jump, spurious currents, contact "
                            "angle"};
  cli.option("--dim", opt.dim, "2 (D2Q9) or 3 (D3Q19)").range(2, 3).show_default();
  cli.option("--n", opt.n, "lattice extent along every axis").range(16, 4096).show_default();
  cli.option("--radius", opt.radius, "initial radius of the drop").range(2.0, 2048.0).show_default();
  cli.option("--eos", opt.eos, "equation of state: exponential psi or Carnahan-Starling")
      .one_of({"exponential", "carnahan-starling"})
      .show_default();
  cli.option("--coupling", opt.coupling, "exponential psi: the coupling G (phase separation below -4)")
      .range(-20.0, 0.0)
      .show_default();
  cli.option("--temperature", opt.temperature, "Carnahan-Starling: T / T_c").range(0.5, 0.99).show_default();
  cli.option("--tau", opt.tau, "BGK relaxation time").range(0.51, 5.0).show_default();
  cli.option("--steps", opt.steps, "time steps").positive().show_default();
  cli.option("--report-every", opt.report_every, "steps between progress lines").positive().show_default();
  cli.option("--wall-density", opt.wall_density,
             "> 0: a drop on a wall of this virtual density (near the liquid's: wetting; the vapour's: not)")
      .show_default();
  cli.option("--out", opt.out, "output directory").show_default();
  cli.option("--max-spurious-velocity", opt.max_spurious_velocity,
             "exit with status 3 if the largest |u| at the end exceeds this (0: no check)");
  cli.option("--min-contact-angle", opt.min_contact_angle, "on a wall: exit with status 3 below this angle (degrees)")
      .range(0.0, 180.0);
  cli.option("--max-contact-angle", opt.max_contact_angle, "on a wall: exit with status 3 above this angle (degrees)")
      .range(0.0, 180.0);
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    const auto with_model = [&](const auto& model) {
      return opt.dim == 2 ? run<D2Q9>(opt, model) : run<D3Q19>(opt, model);
    };
    if (opt.eos == "exponential") return with_model(shan_chen_exponential(opt.coupling));
    CarnahanStarling eos;
    eos.temperature = opt.temperature * eos.critical_temperature();
    return with_model(shan_chen_carnahan_starling(eos));
  } catch (const std::exception& e) {
    std::cerr << "lbm_droplet: " << e.what() << '\n';
    return 1;
  }
}
