// A static Shan–Chen droplet (D2Q9): liquid in its own vapour, relaxed to
// equilibrium, with the quantities of Laplace's law and the spurious
// currents of the model.
//
//   lbm_droplet --n 64 --radius 16                      a drop in a periodic box
//   lbm_droplet --eos carnahan-starling --temperature 0.8
//   lbm_droplet --wall-density 0.8                      a drop on a wetting wall
//
// Lattice units throughout (spacing, time step, c = 1). The model is
// solvers/lbm/shan_chen.hpp: the original psi = 1 - exp(-rho) with the
// coupling --coupling G (phase separation below G = -4), or the
// Carnahan–Starling equation of state (a, b, R = 1, 4, 1) at
// --temperature T / T_c. The drop starts as a disc of --radius with a tanh
// profile, its densities a guess from the spinodals of the equation of
// state (below the lower one for the vapour, above the upper one for the
// liquid); the model finds its own coexistence.
//
// With --wall-density rho_w > 0 the bottom and top rows are half-way
// bounce-back walls with that virtual density (solvers/lbm/shan_chen_wetting.hpp:
// near the liquid density the wall wets, near the vapour density it does
// not), the drop starts as a half-disc on the bottom wall, and the contact
// angle is measured from the mid-density contour (solvers/lbm/droplet_shape.hpp).
//
// Reported at the end: the liquid density (at the drop's centre), the
// vapour density (far from it), their ratio, the radius (periodic box: from
// the liquid's area, pi R^2 = (M - rho_v N) / (rho_l - rho_v), which assumes
// nothing of the equilibrium; on a wall: the circle fitted to the
// contour), the bulk pressures inside and outside (the model's equation of
// state, bulk_pressure), Delta p and Delta p R (the surface tension in two
// dimensions, by Laplace's law) and the largest |u|, the spurious currents.
// Writes DIR/droplet.csv (the horizontal line through the drop's centre:
// x, density, pressure, u_x, u_y) and DIR/density.png (density with
// streamlines of the spurious currents). Exit status: 0; 3 if
// --max-spurious-velocity is exceeded, the contact angle lies outside
// [--min-contact-angle, --max-contact-angle] or the mass drifts by more
// than 1e-10 (relative); 4 if the flow diverges.

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
#include "solvers/lbm/droplet_shape.hpp"
#include "solvers/lbm/field_export.hpp"
#include "solvers/lbm/png_output.hpp"
#include "solvers/lbm/shan_chen.hpp"
#include "solvers/lbm/simulation.hpp"

namespace {

using namespace latte;
using namespace latte::lbm;

struct Options {
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

template <class Model>
int run(const Options& opt, const Model& model) {
  const int n = opt.n;
  const Geometry g({n, n});
  const bool walls = opt.wall_density > 0;
  const double wall_y = 0.5;  // the bottom wall plane: half-way between row 0 (solid) and row 1
  const double centre_x = 0.5 * n, centre_y = walls ? wall_y : 0.5 * n;
  using Sim = Simulation<D2Q9, double, Bgk>;
  Parameters p;
  p.tau = opt.tau;
  Sim sim(g, p);
  const auto [vapour0, liquid0] = starting_densities(model);
  {
    Sim::ScalarField rho(g);
    Sim::VectorField u(g);
    fill(rho, [&](const Coordinate& x) {
      const double r = std::hypot(x[0] - centre_x, x[1] - centre_y);
      return 0.5 * (liquid0 + vapour0) - 0.5 * (liquid0 - vapour0) * std::tanh((r - opt.radius) / 2.0);
    });
    u = zero;
    sim.initialise(rho, u);
  }
  Sim::Boundary boundary(g);
  if (walls) {
    mark_solid(boundary, [&](const Coordinate& x) { return x[1] == 0 || x[1] == n - 1; });
    sim.set_boundary(boundary);
  }
  ShanChenCoupling coupling = walls ? ShanChenCoupling(sim, model, Wetting{opt.wall_density})
                                    : ShanChenCoupling(sim, model);
  std::filesystem::create_directories(opt.out);
  std::printf("Shan-Chen droplet: D2Q9 BGK, %d x %d, tau = %g, psi %s", n, n, opt.tau, std::remove_cvref_t<decltype(model.pseudopotential)>::name);
  if (opt.eos == "exponential") std::printf(", G = %g\n", opt.coupling);
  else std::printf(", T = %g T_c\n", opt.temperature);
  std::printf("start: radius %g, vapour %.4f, liquid %.4f (from the spinodals)", opt.radius, vapour0, liquid0);
  if (walls) std::printf(", on walls of virtual density %g (psi_wall %.4f)\n", opt.wall_density, coupling.wall_psi());
  else std::printf(", periodic box\n");

  const std::vector<double> solid = gather_component(boundary, 0);
  const auto fluid_sites = [&] {
    double count = 0;
    for (double s : solid) count += s == 0;
    return count;
  }();
  // Bulk densities: the drop's centre (on a wall: a quarter of the initial
  // radius above it) and far from the drop (half the box away sideways).
  const std::size_t inside_site =
      static_cast<std::size_t>(walls ? static_cast<int>(0.25 * opt.radius) + 1 : n / 2) * n + n / 2;
  const std::size_t outside_site = static_cast<std::size_t>(walls ? n / 2 : 0) * n;
  // The liquid's area from the fluid's mass, pi R^2 = (M - rho_v N) / (rho_l - rho_v);
  // the sums in lexicographic order, the same on any number of ranks.
  const auto area_of_liquid = [&](const std::vector<double>& rho) {
    double fluid_mass = 0;
    for (std::size_t k = 0; k < rho.size(); ++k)
      if (solid[k] == 0) fluid_mass += rho[k];
    const double liquid = rho[inside_site], vapour = rho[outside_site];
    return (fluid_mass - vapour * fluid_sites) / (liquid - vapour);
  };

  Sim::ScalarField rho(g);
  const double mass0 = sim.mass();
  std::printf("%10s %14s %12s %14s\n", "step", "max|u|", "radius", "mass");
  while (sim.time() < opt.steps) {
    coupling.run(std::min(opt.report_every, opt.steps - sim.time()));
    rho = sim.density();
    const std::vector<double> picture = gather_component(rho);
    const double max_u = sim.max_speed();
    const double area = area_of_liquid(picture);
    // A disc in the box, half a disc's worth of area on a wall at 90 degrees.
    const double radius = std::sqrt((walls ? 2.0 : 1.0) * area / std::numbers::pi);
    const double mass = sim.mass();
    std::printf("%10ld %14.6e %12.4f %14.6f\n", sim.time(), max_u, radius, mass);
    std::fflush(stdout);
    if (!std::isfinite(max_u) || !std::isfinite(mass)) {
      std::printf("diverged: the velocity is not finite after %ld steps\n", sim.time());
      return 4;
    }
  }

  rho = sim.density();
  Sim::ScalarField pressure(g);
  pressure = bulk_pressure(model, rho);
  Sim::VectorField u(g);
  u = sim.velocity();
  const std::vector<double> density = gather_component(rho), bulk = gather_component(pressure);
  std::vector<double> ux = gather_component(u, 0), uy = gather_component(u, 1);
  for (std::size_t k = 0; k < solid.size(); ++k)
    if (solid[k] != 0) ux[k] = uy[k] = 0;
  const double liquid = density[inside_site], vapour = density[outside_site];
  const double p_in = bulk[inside_site], p_out = bulk[outside_site], delta_p = p_in - p_out;
  double radius = std::sqrt(area_of_liquid(density) / std::numbers::pi);
  double angle = 90;
  std::printf("liquid density %.5f, vapour density %.5f, ratio %.2f\n", liquid, vapour, liquid / vapour);
  if (walls) {
    const auto points = contour_points(density, n, n, 0.5 * (liquid + vapour), wall_y + 2.0, centre_x);
    const Circle circle = fit_circle(points);
    radius = circle.radius;
    angle = contact_angle_degrees(circle, wall_y);
    std::printf("contact angle %.1f degrees (circle through the mid-density contour: radius %.3f, centre %.3f "
                "above the wall)\n",
                angle, circle.radius, circle.y - wall_y);
  } else {
    std::printf("radius %.4f (from the liquid's area)\n", radius);
  }
  std::printf("bulk pressure inside %.6f, outside %.6f, Delta p %.5e, Delta p R %.5f (surface tension)\n", p_in,
              p_out, delta_p, delta_p * radius);
  const double max_u = sim.max_speed();
  std::printf("spurious currents: max |u| %.4e\n", max_u);

  {
    ReportFile csv(opt.out + "/droplet.csv");
    csv << "x,density,pressure,ux,uy\n";
    csv.precision(10);
    const int row = walls ? static_cast<int>(inside_site / n) : n / 2;
    for (int x = 0; x < n; ++x) {
      const std::size_t k = static_cast<std::size_t>(row) * n + x;
      csv << x << ',' << density[k] << ',' << bulk[k] << ',' << ux[k] << ',' << uy[k] << '\n';
    }
  }
  FieldPicture picture("density");
  picture.scaled(std::max(1, 512 / n)).with_streamlines(ux, uy);
  if (walls) picture.with_solid(solid);
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
  programs::CommandLine cli{"A static Shan-Chen droplet (D2Q9): densities, Laplace pressure jump, spurious currents"};
  cli.option("--n", opt.n, "lattice extent (n x n)").range(16, 4096).show_default();
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
    if (opt.eos == "exponential") return run(opt, shan_chen_exponential(opt.coupling));
    CarnahanStarling eos;
    eos.temperature = opt.temperature * eos.critical_temperature();
    return run(opt, shan_chen_carnahan_starling(eos));
  } catch (const std::exception& e) {
    std::cerr << "lbm_droplet: " << e.what() << '\n';
    return 1;
  }
}
