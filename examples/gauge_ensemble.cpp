// Generates an ensemble of SU(3) gauge configurations with hybrid Monte
// Carlo for the Wilson or a rectangle-improved gauge action, or with the
// quenched heatbath (one Cabibbo-Marinari heatbath and --overrelaxation
// sweeps per update, Wilson action only), and measures its average plaquette.
//
//   gauge_ensemble --beta 6.0 --lattice 8 8 8 8 --trajectories 100 --thermalise 20 --save-every 10
//   gauge_ensemble --beta 2.6 --action iwasaki --integrator omelyan --steps 12 --out iwasaki
//   gauge_ensemble --beta 6.0 --algorithm heatbath --overrelaxation 4 --trajectories 200
//   gauge_ensemble ... --resume            (continues from <out>_checkpoint.*, the same bits)
//   gauge_ensemble --beta 5.6 --fermions clover --kappa 0.1345 --csw 1.0 --steps 6 --gauge-steps 4
//                                          (two flavours of dynamical quarks, antiperiodic in time)
//   gauge_ensemble --beta 5.6 --fermions clover --kappa 0.1345 --csw 1.0 --flavours 2+1 --strange-kappa 0.134
//                  --hasenbusch 0.2 --steps 4 --hasenbusch-steps 2 --gauge-steps 4
//                                          (2+1 flavours: the light pair by HMC with a Hasenbusch
//                                           ratio, the strange quark by RHMC)
//
// With --fermions wilson or clover the action adds two flavours of Wilson or
// Wilson-clover quarks of mass m (or hopping parameter kappa, m = 1/(2 kappa) - 4),
// as an even-odd preconditioned pseudofermion (solvers/qcd/update/pseudofermion_monomial.hpp)
// with (for clover) the log det of the odd sites' clover term on the outer
// time scale (--steps), and the gauge action on the inner one (--gauge-steps
// per outer step).
// The quark boundary is antiperiodic in time unless --boundary says otherwise.
//
// --flavours 2+1 adds a strange quark of --strange-mass (or --strange-kappa)
// by the rational HMC (solvers/qcd/update/rational_monomial.hpp) in
// --strange-pseudofermions pseudofermions; --flavours 3 makes all three
// flavours degenerate in --light-rational rational pseudofermions, and
// --light-rational N with --flavours 2 (or 2+1) the light pair too (N >= 2).
// --mu twists the light doublet (solvers/qcd/fermions/twisted_mass.hpp):
// one pseudofermion of M(mu)^+ M(mu), and for clover the log det of
// T^2 + mu^2.
// --hasenbusch m2,m3,... splits the light pair into ratios of masses
// m < m2 < m3 ... and a pair at the heaviest (solvers/qcd/update/hasenbusch_monomial.hpp):
// the lightest ratio on the outer time scale (--steps), the rest with the
// strange quark and the clover log dets on the middle one
// (--hasenbusch-steps per outer step), the gauge action inside.
// The rational approximations hold on --rational-interval (default: the
// spectrum of the strange quark's even-odd normal operator on the starting
// configuration, measured by Lanczos, widened by --rational-margin) to the
// relative error --rational-tolerance; they are cached in --rational-cache
// and the interval kept in <out>_checkpoint.rational, so --resume uses the
// same approximation. Every --spectrum-every trajectories the spectrum is
// measured again and a warning printed if it leaves the interval.
//
// Per trajectory it prints the plaquette, dH, exp(-dH), the decision, the
// running acceptance, the time and (with quarks) the CG iterations of each
// fermion monomial; at the end the time split by monomial, and writes <out>_history.csv (trajectory,
// plaquette, dH, accepted, exp_minus_dH: the same bytes on any number of
// ranks, so no timings) and <out>_history.png;
// every --save-every trajectories a NERSC file <out>_<trajectory>.nersc, and
// every --checkpoint-every a checkpoint. At the end: the average plaquette
// after thermalisation, its error from blocked data, the acceptance and
// <exp(-dH)>.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <type_traits>
#include <utility>
#include <memory>
#include <string>
#include <vector>

#include "examples/command_line.hpp"
#include "examples/plot_png.hpp"
#include "lattice/fields/report_file.hpp"
#include "lattice/fields/root_output.hpp"
#include "solvers/qcd/io/nersc_gauge_file.hpp"
#include "solvers/qcd/fermions/clover_action.hpp"
#include "solvers/qcd/fermions/twisted_mass.hpp"
#include "solvers/qcd/fermions/wilson_even_odd.hpp"
#include "solvers/qcd/update/clover_determinant_monomial.hpp"
#include "solvers/qcd/update/hasenbusch_monomial.hpp"
#include "solvers/qcd/update/hmc.hpp"
#include "solvers/qcd/update/pseudofermion_monomial.hpp"
#include "solvers/qcd/update/quenched_update.hpp"
#include "solvers/qcd/update/rational_monomial.hpp"
#include "solvers/qcd/update/timed_monomial.hpp"

using namespace latte;

struct Options {
  Coordinate lattice{8, 8, 8, 8};
  double beta = 6.0;
  std::string action = "wilson";
  std::string algorithm = "hmc";
  std::string integrator = "omelyan";
  int steps = 10;
  double trajectory_length = 1.0;
  int trajectories = 50;
  int thermalise = 10;
  std::string start = "hot";
  int no_metropolis_until = 0;
  int overrelaxation = 4;
  std::uint64_t seed = 1;
  int save_every = 0;
  int checkpoint_every = 10;
  bool resume = false;
  std::string out = "gauge_ensemble";
  // Dynamical quarks.
  std::string fermions = "none";
  double mass = std::nan("");
  double kappa = std::nan("");
  double c_sw = 1.0;
  std::string boundary = "antiperiodic";
  int gauge_steps = 4;
  double action_tolerance = 1e-10;
  double force_tolerance = 1e-8;
  // More flavours: the strange quark, Hasenbusch, the rational HMC.
  std::string flavours = "2";
  double strange_mass = std::nan("");
  double strange_kappa = std::nan("");
  int strange_pseudofermions = 1;
  double mu = 0;  // twisted mass of the light doublet
  int light_rational = 0;
  std::vector<std::string> hasenbusch;
  int hasenbusch_steps = 2;
  std::vector<std::string> rational_interval;
  double rational_margin = 0.5;
  double rational_tolerance = 1e-10;
  std::string rational_cache = "latte_rational_cache";
  int spectrum_every = 10;
};

// A mass from a mass or a kappa option (exactly one of them given).
double mass_or_kappa(double mass, double kappa, const std::string& what, const std::string& names) {
  const bool has_mass = !std::isnan(mass), has_kappa = !std::isnan(kappa);
  if (has_mass == has_kappa) throw std::invalid_argument(what + " needs exactly one of " + names);
  if (has_mass) return mass;
  if (!(kappa > 0)) throw std::invalid_argument(what + ": kappa must be positive, not " + std::to_string(kappa));
  return 1.0 / (2.0 * kappa) - 4.0;
}
// The light quarks' mass from --mass or --kappa.
double quark_mass(const Options& options) {
  return mass_or_kappa(options.mass, options.kappa, "--fermions " + options.fermions, "--mass and --kappa");
}
double strange_mass(const Options& options) {
  return mass_or_kappa(options.strange_mass, options.strange_kappa, "--flavours 2+1", "--strange-mass and --strange-kappa");
}
double kappa_of(double mass) { return 1.0 / (2.0 * (mass + 4.0)); }

double parse_number(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(value))
    throw std::invalid_argument(what + ": '" + text + "' is not a number");
  return value;
}

// One term of the action with its stopwatch, its solves (none for the
// gauge action and the clover log dets) and the time scale it sits on.
struct Term {
  std::string label;
  std::unique_ptr<Monomial<double>> monomial;
  std::unique_ptr<TimedMonomial<double>> timed;
  const SolveTally* solves = nullptr;
  int level = 0;  // 0: outer, 1: middle (with Hasenbusch), 2: the gauge action's
};

// The fermion monomials of the run, owned here; none without quarks.
struct DynamicalQuarks {
  std::vector<Term> terms;
  std::vector<std::string> lines;  // what they are, for the header
  bool has_middle_level = false;
  // The spectrum of every rational pseudofermion's operator, by name.
  std::vector<std::pair<std::string, std::function<SpectralBounds(const GaugeField<double>&)>>> spectra;
  bool empty() const { return terms.empty(); }
  SolveTally tally() const {
    SolveTally sum;
    for (const Term& t : terms)
      if (t.solves) {
        sum.solves += t.solves->solves;
        sum.iterations += t.solves->iterations;
        sum.seconds += t.solves->seconds;
      }
    return sum;
  }
};

// The interval of the rational approximations: given, kept with the
// checkpoint, or measured on the starting configuration.
struct RationalInterval {
  double lower = 0, upper = 0;
  std::string origin;
};

template <class Monomial> Term make_term(std::string label, std::unique_ptr<Monomial> monomial, int level) {
  Term t;
  t.label = std::move(label);
  if constexpr (requires { monomial->tally(); }) t.solves = &monomial->tally();
  t.timed = std::make_unique<TimedMonomial<double>>(*monomial);
  t.monomial = std::move(monomial);
  t.level = level;
  return t;
}

// The quark content of the options, for one action (Wilson or clover).
// parameters(m): the action's parameters at bare mass m.
template <class Action, class MakeParameters>
void add_quarks(DynamicalQuarks& quarks, const Options& options, const Geometry& geometry,
                const MakeParameters& parameters, const RationalInterval& interval) {
  const PseudofermionSolves solves{{options.action_tolerance, 100000, false}, {options.force_tolerance, 100000, false}};
  const double light = quark_mass(options);
  auto rational = [&](int flavours, int pseudofermions, double mass, const std::string& label, int level) {
    RationalPseudofermionApproximations r = rational_pseudofermion_approximations(
        flavours, pseudofermions, interval.lower, interval.upper, options.rational_tolerance, options.rational_cache);
    auto monomial = std::make_unique<RationalMonomial<Action>>(geometry, parameters(mass), true, std::move(r),
                                                                 pseudofermions, solves);
    const RationalMonomial<Action>* m = monomial.get();
    quarks.spectra.emplace_back(label, [m](const GaugeField<double>& U) { return m->spectral_bounds(U); });
    quarks.lines.push_back(label + ": " + monomial->describe());
    quarks.terms.push_back(make_term(label, std::move(monomial), level));
  };
  const bool three = options.flavours == "3";
  std::vector<double> chain{light};
  for (const std::string& m : options.hasenbusch) chain.push_back(parse_number(m, "--hasenbusch"));
  for (std::size_t i = 1; i < chain.size(); ++i)
    if (!(chain[i] > chain[i - 1]))
      throw std::invalid_argument("--hasenbusch: the masses must rise from the light mass " + std::to_string(light) +
                                  ", not " + std::to_string(chain[i - 1]) + " then " + std::to_string(chain[i]));
  if (options.mu != 0 && (options.light_rational > 0 || three))
    throw std::invalid_argument("--mu twists the light doublet of HMC; --light-rational and --flavours 3 are untwisted");
  if (chain.size() > 1 && options.light_rational > 0)
    throw std::invalid_argument("--hasenbusch splits the light pair of HMC; --light-rational makes it rational");
  if (three) {
    if (options.light_rational < 2)
      throw std::invalid_argument("--flavours 3 puts the three flavours in --light-rational N >= 2 rational pseudofermions");
    rational(3, options.light_rational, light, "three flavours", 0);
  } else if (options.light_rational > 0) {
    if (options.light_rational < 2)
      throw std::invalid_argument("--light-rational N needs N >= 2 (one pseudofermion of two flavours is plain HMC)");
    rational(2, options.light_rational, light, "light pair", 0);
  } else if (options.mu != 0) {
    if (chain.size() > 1) throw std::invalid_argument("--mu (a twisted doublet) does not combine with --hasenbusch");
    using Twisted = TwistedMass<Action>;
    auto pair = std::make_unique<TwoFlavourMonomial<Twisted>>(
        geometry, typename Twisted::Parameters{parameters(light), options.mu}, true, solves);
    quarks.lines.push_back("light doublet: " + pair->describe());
    quarks.terms.push_back(make_term("light", std::move(pair), 0));
  } else if (chain.size() == 1) {
    auto pair = std::make_unique<TwoFlavourMonomial<Action>>(geometry, parameters(light), true, solves);
    quarks.lines.push_back("light pair: " + pair->describe());
    quarks.terms.push_back(make_term("light", std::move(pair), 0));
  } else {
    // Ratios (m_i, m_i+1), the lightest on the outer level, and the pair at
    // the heaviest mass on the middle one.
    quarks.has_middle_level = true;
    for (std::size_t i = 0; i + 1 < chain.size(); ++i) {
      auto ratio = std::make_unique<HasenbuschRatioMonomial<Action>>(geometry, parameters(chain[i]),
                                                                     parameters(chain[i + 1]), true, solves);
      quarks.lines.push_back("Hasenbusch ratio " + std::to_string(i + 1) + ": " + ratio->describe());
      quarks.terms.push_back(make_term("ratio " + std::to_string(i + 1), std::move(ratio), i == 0 ? 0 : 1));
    }
    auto pair = std::make_unique<TwoFlavourMonomial<Action>>(geometry, parameters(chain.back()), true, solves);
    quarks.lines.push_back("heavy pair: " + pair->describe());
    quarks.terms.push_back(make_term("heavy pair", std::move(pair), 1));
  }
  double strange = 0;
  if (options.flavours == "2+1") {
    strange = strange_mass(options);
    rational(1, options.strange_pseudofermions, strange, "strange", quarks.has_middle_level ? 1 : 0);
  }
  // The odd sites' clover log dets, left out by the even-odd pseudofermions:
  // the lightest mass's for the light pair (the chain's others cancel), the
  // strange mass's for one flavour.
  if constexpr (std::is_same_v<Action, CloverAction<double>>) {
    const int level = quarks.has_middle_level ? 1 : 0;
    auto light_det = std::make_unique<CloverDeterminantMonomial<double>>(parameters(light), three ? 3.0 : 2.0, options.mu);
    quarks.lines.push_back(std::string("clover log det: ") + light_det->describe());
    quarks.terms.push_back(make_term("clover det", std::move(light_det), level));
    if (options.flavours == "2+1") {
      auto strange_det = std::make_unique<CloverDeterminantMonomial<double>>(parameters(strange), 1.0);
      quarks.lines.push_back(std::string("clover log det: ") + strange_det->describe());
      quarks.terms.push_back(make_term("strange det", std::move(strange_det), level));
    }
  }
}

DynamicalQuarks make_quarks(const Options& options, const Geometry& geometry, const RationalInterval& interval) {
  DynamicalQuarks quarks;
  if (options.fermions == "none") {
    if (options.flavours != "2")
      throw std::invalid_argument("--flavours " + options.flavours + " needs dynamical quarks (--fermions wilson or clover)");
    return quarks;
  }
  if (options.fermions != "wilson" && options.fermions != "clover")
    throw std::invalid_argument("unknown --fermions '" + options.fermions + "' (none, wilson or clover)");
  if (options.flavours != "2" && options.flavours != "2+1" && options.flavours != "3")
    throw std::invalid_argument("unknown --flavours '" + options.flavours + "' (2, 2+1 or 3)");
  const FermionBoundary boundary = parse_fermion_boundary(options.boundary);
  if (options.fermions == "wilson") {
    add_quarks<WilsonAction<double>>(quarks, options, geometry,
                                     [&](double m) { return WilsonParameters{m, boundary}; }, interval);
  } else {
    if (!(options.c_sw >= 0)) throw std::invalid_argument("--csw must be >= 0, not " + std::to_string(options.c_sw));
    add_quarks<CloverAction<double>>(quarks, options, geometry,
                                     [&](double m) { return CloverParameters{m, options.c_sw, boundary}; }, interval);
  }
  return quarks;
}

// Whether the options ask for a rational pseudofermion, and the mass whose
// spectrum sets the default interval (the strange quark's, else the light
// one's: the lightest rational operator has the smallest eigenvalue).
bool uses_rational(const Options& options) {
  return options.fermions != "none" &&
         (options.flavours == "2+1" || options.flavours == "3" || options.light_rational > 0);
}
double interval_mass(const Options& options) {
  if (options.flavours == "3" || options.light_rational > 0) return quark_mass(options);
  return strange_mass(options);
}

// The spectrum of the even-odd normal operator of Action at mass m on U.
template <class Action, class MakeParameters>
SpectralBounds measured_spectrum(const GaugeField<double>& U, double mass, const MakeParameters& parameters) {
  using Schur = EvenOddOperator<typename Action::EvenOddAction>;
  const Action action(U, parameters(mass));
  const Schur schur{typename Action::EvenOddAction(action)};
  return spectral_bounds<Lattice<Spinor<double>>>(NormalOperator<Schur>(schur), schur.geometry());
}

// The interval kept beside the checkpoint (hexadecimal floats: exact).
void write_interval(const std::string& path, const RationalInterval& interval) {
  write_on_root([&] {
    const std::string temporary = path + ".tmp";
    {
      std::FILE* out = std::fopen(temporary.c_str(), "w");
      if (!out) throw std::runtime_error("cannot write '" + temporary + "'");
      std::fprintf(out, "latte-rational-interval 1\n%a %a\n", interval.lower, interval.upper);
      if (std::fclose(out) != 0) throw std::runtime_error("cannot write '" + temporary + "'");
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
      throw std::runtime_error("cannot rename '" + temporary + "' to '" + path + "'");
  });
}
RationalInterval read_interval(const std::string& path) {
  std::FILE* in = std::fopen(path.c_str(), "r");
  if (!in)
    throw std::runtime_error("--resume of a rational chain needs '" + path +
                             "' (the interval of its approximations), or --rational-interval as the chain began");
  RationalInterval interval;
  int version = 0;
  const int read = std::fscanf(in, "latte-rational-interval %d %la %la", &version, &interval.lower, &interval.upper);
  std::fclose(in);
  if (read != 3 || version != 1 || !(interval.lower > 0) || !(interval.upper > interval.lower))
    throw std::runtime_error("'" + path + "' is not a Latte rational interval (version 1, 0 < lower < upper)");
  interval.origin = "kept with the checkpoint in " + path;
  return interval;
}

// The mean of a series and its error from blocks: the largest standard
// error of block means over block lengths 1, 2, 4, ... that leave at least
// eight blocks (autocorrelated data: the error grows with the block length
// until blocks are independent).
struct Estimate {
  double mean = 0, error = 0;
  int block = 1;
};
Estimate blocked_mean(const std::vector<double>& x) {
  Estimate e;
  if (x.empty()) return e;
  for (double v : x) e.mean += v;
  e.mean /= static_cast<double>(x.size());
  for (std::size_t length = 1; x.size() / length >= 8; length *= 2) {
    const std::size_t blocks = x.size() / length;
    double square = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
      double m = 0;
      for (std::size_t i = 0; i < length; ++i) m += x[b * length + i];
      m /= static_cast<double>(length);
      square += (m - e.mean) * (m - e.mean);
    }
    const double error = std::sqrt(square / static_cast<double>(blocks * (blocks - 1)));
    if (error > e.error) {
      e.error = error;
      e.block = static_cast<int>(length);
    }
  }
  return e;
}

// The quenched chain: one heatbath and `overrelaxation` overrelaxation
// sweeps per update ("trajectory" in the output and files). Its state is the
// links and the update number, as for HMC; dH and the decision are those of
// a heatbath: 0 and always accepted.
struct HeatbathChain {
  GaugeField<double>& U;
  QuenchedUpdate update;
  std::uint64_t next = 0;
  TrajectoryRecord step() {
    const auto begin = std::chrono::steady_clock::now();
    TrajectoryRecord r;
    r.trajectory = next;
    update.sweep(U, next++);
    r.accepted = true;
    r.plaquette = average_plaquette(U);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return r;
  }
};

int run(const Options& options) {
  if (options.no_metropolis_until > options.thermalise)
    throw std::invalid_argument("--no-metropolis-until " + std::to_string(options.no_metropolis_until) +
                                " exceeds --thermalise " + std::to_string(options.thermalise) +
                                ": measured trajectories must pass the Metropolis test");
  const bool heatbath = options.algorithm == "heatbath";
  if (!heatbath && options.algorithm != "hmc")
    throw std::invalid_argument("unknown --algorithm '" + options.algorithm + "' (hmc or heatbath)");
  if (heatbath && options.action != "wilson")
    throw std::invalid_argument("--algorithm heatbath updates the Wilson action only (its checkerboards), not '" +
                                options.action + "'");
  if (heatbath && options.fermions != "none")
    throw std::invalid_argument("--algorithm heatbath is quenched; dynamical quarks (--fermions) need hmc");
  if (heatbath && options.resume)
    throw std::invalid_argument("--resume continues HMC chains; a heatbath chain restarts from a saved NERSC file");
  Geometry geometry(options.lattice);
  GaugeField<double> U(geometry);
  const GaugeAction action = GaugeAction::named(options.action, options.beta);
  GaugeMonomial<double> gauge(action);
  TimedMonomial<double> timed_gauge(gauge);
  const std::string checkpoint = options.out + "_checkpoint";
  // The starting links first: the rational approximations' interval may be
  // measured on them. On --resume the checkpoint's links (read again, with
  // the chain's state, by restore_checkpoint below).
  if (options.resume) {
    if (!heatbath) read_nersc(U, checkpoint + ".nersc");
  } else if (options.start == "cold") {
    U.set_unit();
  } else if (options.start == "hot") {
    ParallelRng rng(options.seed);
    U.set_random(rng);
  } else {
    throw std::invalid_argument("unknown --start '" + options.start + "' (cold or hot)");
  }
  RationalInterval interval;
  const bool rational = uses_rational(options);
  if (rational) {
    if (!options.rational_interval.empty()) {
      if (options.rational_interval.size() != 2)
        throw std::invalid_argument("--rational-interval takes two numbers, lower and upper");
      interval = {parse_number(options.rational_interval[0], "--rational-interval"),
                  parse_number(options.rational_interval[1], "--rational-interval"), "given"};
      if (!(interval.lower > 0) || !(interval.upper > interval.lower))
        throw std::invalid_argument("--rational-interval needs 0 < lower < upper");
    } else if (options.resume) {
      interval = read_interval(checkpoint + ".rational");
    } else {
      if (!(options.rational_margin >= 0 && options.rational_margin < 1))
        throw std::invalid_argument("--rational-margin must be in [0, 1)");
      const double m = interval_mass(options);
      const FermionBoundary boundary = parse_fermion_boundary(options.boundary);
      const SpectralBounds b =
          options.fermions == "wilson"
              ? measured_spectrum<WilsonAction<double>>(U, m, [&](double mass) { return WilsonParameters{mass, boundary}; })
              : measured_spectrum<CloverAction<double>>(
                    U, m, [&](double mass) { return CloverParameters{mass, options.c_sw, boundary}; });
      interval = {(b.smallest - b.smallest_error) * (1 - options.rational_margin),
                  (b.largest + b.largest_error) * (1 + options.rational_margin), ""};
      char text[200];
      std::snprintf(text, sizeof text, "the spectrum [%.4g, %.4g] of the even-odd normal operator at m = %g on the starting links (%d Lanczos steps), widened by %g",
                    b.smallest, b.largest, m, b.steps, options.rational_margin);
      interval.origin = text;
    }
  }
  const DynamicalQuarks quarks = make_quarks(options, geometry, interval);
  const IntegratorScheme scheme = parse_integrator_scheme(options.integrator);
  std::vector<IntegratorLevel<double>> levels;
  std::vector<Monomial<double>*> monomials{&timed_gauge};
  if (!quarks.empty()) {
    if (options.gauge_steps < 1) throw std::invalid_argument("--gauge-steps must be at least 1");
    if (options.hasenbusch_steps < 1) throw std::invalid_argument("--hasenbusch-steps must be at least 1");
    // Outer: the light pair (or the lightest ratio) and, without Hasenbusch,
    // everything else of the quarks; the clover log dets there too: their
    // force (the clover term, its inverse and twelve insertion statements)
    // costs several gauge forces, and it is as smooth as the pseudofermions'.
    IntegratorLevel<double> outer{scheme, options.steps, {}}, middle{scheme, options.hasenbusch_steps, {}};
    for (const Term& t : quarks.terms) (t.level == 0 ? outer : middle).monomials.push_back(t.timed.get());
    levels = {outer};
    if (quarks.has_middle_level) levels.push_back(middle);
    levels.push_back({scheme, options.gauge_steps, {&timed_gauge}});
    monomials.clear();
    for (const Term& t : quarks.terms) monomials.push_back(t.timed.get());
    monomials.push_back(&timed_gauge);
  } else {
    levels = {{scheme, options.steps, {&timed_gauge}}};
  }
  MolecularDynamics<double> md(levels);
  HybridMonteCarlo<double> hmc(U, md, monomials, {options.trajectory_length, options.seed, true, static_cast<std::uint64_t>(options.no_metropolis_until)});
  HeatbathChain quenched{U, QuenchedUpdate{options.beta, options.overrelaxation, options.seed}};
  if (options.resume) hmc.restore_checkpoint(checkpoint);

  if (heatbath)
    std::printf("Gauge ensemble: lattice %s, wilson action (beta = %g), heatbath with %d overrelaxation sweeps per update\n",
                to_string(geometry.dims()).c_str(), action.beta, options.overrelaxation);
  else
    std::printf("Gauge ensemble: lattice %s, %s action (beta = %g, c1 = %g), HMC %s with %d steps of %g\n",
                to_string(geometry.dims()).c_str(), options.action.c_str(), action.beta, action.c1,
                options.integrator.c_str(), options.steps, options.trajectory_length / options.steps);
  if (!quarks.empty()) {
    std::printf("dynamical quarks, %s flavours (light kappa = %.6f):\n", options.flavours.c_str(),
                kappa_of(quark_mass(options)));
    for (const std::string& line : quarks.lines) std::printf("  %s\n", line.c_str());
    if (rational)
      std::printf("rational approximations on [%.6g, %.6g] to %g: %s (cached in %s)\n", interval.lower, interval.upper,
                  options.rational_tolerance, interval.origin.c_str(), options.rational_cache.c_str());
    if (quarks.has_middle_level)
      std::printf("time scales: %d outer steps; %d middle steps within each; the gauge action on %d steps within those\n",
                  options.steps, options.hasenbusch_steps, options.gauge_steps);
    else
      std::printf("time scales: the quarks on %d steps; the gauge action on %d steps within each\n", options.steps,
                  options.gauge_steps);
    std::printf("CG tolerances: %g (action), %g (force)\n", options.action_tolerance, options.force_tolerance);
  }
  std::printf("%s at trajectory %llu, plaquette %.12f; %d trajectories, the first %d for thermalisation, seed %llu\n",
              options.resume ? "resumed" : options.start == "cold" ? "cold start" : "hot start",
              static_cast<unsigned long long>(hmc.next_trajectory()), average_plaquette(U), options.trajectories,
              options.thermalise, static_cast<unsigned long long>(options.seed));
  if (options.no_metropolis_until > 0)
    std::printf("trajectories below %d are accepted without the Metropolis test\n", options.no_metropolis_until);
  const bool dynamical = !quarks.empty();
  std::printf("%6s %16s %14s %12s %4s %8s %8s", "traj", "plaquette", "dH", "exp(-dH)", "acc", "rate", "seconds");
  for (const Term& t : quarks.terms)
    if (t.solves) std::printf(" %12s", t.label.substr(0, 12).c_str());
  std::printf("%s\n", dynamical ? "   (CG iterations per fermion monomial)" : "");
  // The spectrum of each rational operator against the interval.
  int spectrum_warnings = 0;
  auto check_spectra = [&](const char* when) {
    for (const auto& [label, spectrum] : quarks.spectra) {
      const SpectralBounds b = spectrum(U);
      const bool inside = b.smallest - b.smallest_error >= interval.lower && b.largest + b.largest_error <= interval.upper;
      std::printf("spectrum %-14s [%.5g, %.5g] %s, %s the interval [%.5g, %.5g]\n", label.c_str(), b.smallest,
                  b.largest, when, inside ? "inside" : "OUTSIDE", interval.lower, interval.upper);
      if (!inside) {
        ++spectrum_warnings;
        std::fprintf(stderr, "warning: the spectrum of the %s operator [%g, %g] leaves the rational approximations' "
                             "interval [%g, %g]: the chain is not exact; rerun with a wider --rational-interval\n",
                     label.c_str(), b.smallest, b.largest, interval.lower, interval.upper);
      }
    }
  };
  if (rational) check_spectra("at the start");

  // The history file grows as the chain runs (and on --resume continues).
  const std::string history = options.out + "_history.csv";
  const bool append = options.resume && std::filesystem::exists(history);
  ReportFile csv(history, append);
  if (!append) csv << (dynamical ? "trajectory,plaquette,dH,accepted,exp_minus_dH,cg_iterations\n"
                                  : "trajectory,plaquette,dH,accepted,exp_minus_dH\n");
  std::vector<double> t_values, plaquettes, measured_t, measured_delta_h, measured_plaquette, measured_exp;
  int accepted = 0, done = 0;
  double seconds = 0, cg_seconds = 0;
  long cg_iterations = 0;
  const std::uint64_t first = hmc.next_trajectory();
  std::vector<long> term_iterations(quarks.terms.size(), 0);
  for (int i = 0; i < options.trajectories; ++i) {
    std::vector<long> before(quarks.terms.size(), 0);
    for (std::size_t k = 0; k < quarks.terms.size(); ++k)
      if (quarks.terms[k].solves) before[k] = quarks.terms[k].solves->iterations;
    const SolveTally tally_before = quarks.tally();
    const TrajectoryRecord r = heatbath ? quenched.step() : hmc.trajectory();
    const SolveTally after = quarks.tally();
    const long iterations = after.iterations - tally_before.iterations;
    cg_iterations += iterations;
    cg_seconds += after.seconds - tally_before.seconds;
    accepted += r.accepted;
    ++done;
    seconds += r.seconds;
    std::printf("%6llu %16.12f %14.6e %12.6f %4s %8.3f %8.2f", static_cast<unsigned long long>(r.trajectory),
                r.plaquette, r.delta_h, r.exp_minus_delta_h, r.accepted ? "yes" : "no",
                static_cast<double>(accepted) / done, r.seconds);
    for (std::size_t k = 0; k < quarks.terms.size(); ++k)
      if (quarks.terms[k].solves) {
        const long its = quarks.terms[k].solves->iterations - before[k];
        term_iterations[k] += its;
        std::printf(" %12ld", its);
      }
    std::printf("\n");
    char line[192];
    if (dynamical)
      std::snprintf(line, sizeof line, "%llu,%.15e,%.15e,%d,%.15e,%ld\n", static_cast<unsigned long long>(r.trajectory),
                    r.plaquette, r.delta_h, r.accepted ? 1 : 0, r.exp_minus_delta_h, iterations);
    else
      std::snprintf(line, sizeof line, "%llu,%.15e,%.15e,%d,%.15e\n", static_cast<unsigned long long>(r.trajectory),
                    r.plaquette, r.delta_h, r.accepted ? 1 : 0, r.exp_minus_delta_h);
    csv << line;
    csv.flush();
    t_values.push_back(static_cast<double>(r.trajectory));
    plaquettes.push_back(r.plaquette);
    if (r.trajectory >= first + static_cast<std::uint64_t>(options.thermalise)) {
      measured_t.push_back(static_cast<double>(r.trajectory));
      measured_delta_h.push_back(r.delta_h);
      measured_plaquette.push_back(r.plaquette);
      measured_exp.push_back(r.exp_minus_delta_h);
    }
    const std::uint64_t number = r.trajectory + 1;
    if (options.save_every > 0 && number % options.save_every == 0) {
      NerscWriteOptions write;
      write.ensemble_label = options.out;
      write.sequence_number = static_cast<int>(number);
      const std::string path = options.out + "_" + std::to_string(number) + ".nersc";
      write_nersc(U, path, write);
      std::printf("saved %s\n", path.c_str());
    }
    if (!heatbath && options.checkpoint_every > 0 && number % options.checkpoint_every == 0) {
      hmc.save_checkpoint(checkpoint);
      if (rational) write_interval(checkpoint + ".rational", interval);
    }
    if (rational && options.spectrum_every > 0 && number % options.spectrum_every == 0)
      check_spectra(("after trajectory " + std::to_string(r.trajectory)).c_str());
  }
  if (!heatbath) {
    hmc.save_checkpoint(checkpoint);
    if (rational) write_interval(checkpoint + ".rational", interval);
  }

  const Estimate plaquette = blocked_mean(measured_plaquette), exp_dh = blocked_mean(measured_exp);
  std::printf("time              %.3f s per trajectory\n", seconds / std::max(done, 1));
  if (dynamical) {
    std::printf("CG                %.1f iterations and %.3f s per trajectory (%.0f %% of the time)\n",
                static_cast<double>(cg_iterations) / std::max(done, 1), cg_seconds / std::max(done, 1),
                seconds > 0 ? 100.0 * cg_seconds / seconds : 0.0);
    // Where a trajectory's time goes (since the start of this run): each
    // monomial's forces, actions and heatbath; the rest is the links' motion
    // and the momenta.
    const double per = 1.0 / std::max(done, 1);
    std::printf("time by monomial, per trajectory:\n  %-14s %9s %9s %9s %7s %9s %s\n", "monomial", "force s",
                "action s", "heatb. s", "share", "CG its", "kicks");
    double accounted = 0;
    auto row = [&](const std::string& label, const MonomialTimes& t, double its) {
      accounted += t.total();
      std::printf("  %-14s %9.3f %9.3f %9.3f %6.1f%% %9.1f %ld\n", label.c_str(), t.force * per, t.action * per,
                  t.refresh * per, seconds > 0 ? 100.0 * t.total() / seconds : 0.0, its, t.kicks / std::max(done, 1));
    };
    for (std::size_t k = 0; k < quarks.terms.size(); ++k)
      row(quarks.terms[k].label, quarks.terms[k].timed->times(), quarks.terms[k].solves ? term_iterations[k] * per : 0.0);
    row("gauge", timed_gauge.times(), 0.0);
    std::printf("  %-14s %9.3f %29s %6.1f%%\n", "links, momenta", (seconds - accounted) * per, "",
                seconds > 0 ? 100.0 * (seconds - accounted) / seconds : 0.0);
    if (rational) {
      check_spectra("at the end");
      if (spectrum_warnings > 0)
        std::printf("the spectrum left the rational interval %d times: see the warnings\n", spectrum_warnings);
    }
  }
  std::printf("acceptance        %.3f (%d of %d)\n", static_cast<double>(accepted) / std::max(done, 1), accepted, done);
  if (measured_plaquette.empty()) {
    std::printf("average plaquette: none measured (all %d trajectories were thermalisation)\n", done);
  } else {
    std::printf("average plaquette %.6f +- %.6f over %zu trajectories after thermalisation (blocks of %d)\n",
                plaquette.mean, plaquette.error, measured_plaquette.size(), plaquette.block);
    if (!heatbath) std::printf("<exp(-dH)>        %.4f +- %.4f\n", exp_dh.mean, exp_dh.error);
  }

  plot::Panel p{"Average plaquette", "trajectory", "plaquette", false, {}};
  p.series.push_back({"", t_values, plaquettes, plot::blue});
  plot::Panel h{"Energy violation after thermalisation", "trajectory", "dH", false, {}};
  h.series.push_back({"", measured_t, measured_delta_h, plot::orange});
  write_on_root([&] { plot::write_png(options.out + "_history.png", {p, h}); });
  std::printf("wrote             %s, %s_history.png%s\n", history.c_str(), options.out.c_str(),
              heatbath ? "" : (", " + checkpoint + ".{nersc,hmc}").c_str());
  return 0;
}

int main(int argc, char** argv) {
  Environment environment(argc, argv);  // under mpirun: the lattice spread over the ranks, rank 0 prints
  programs::CommandLine cli{"SU(3) gauge ensembles by hybrid Monte Carlo, written in Latte"};
  Options options;
  cli.option("--lattice", options.lattice, "extents x y z t").expected(4);
  cli.option("--beta", options.beta, "gauge coupling beta = 6/g0^2").positive();
  cli.option("--action", options.action, "gauge action: wilson, symanzik (tree-level), iwasaki or dbw2");
  cli.option("--algorithm", options.algorithm, "hmc or heatbath (Cabibbo-Marinari heatbath with overrelaxation; Wilson action)");
  cli.option("--overrelaxation", options.overrelaxation, "overrelaxation sweeps per heatbath sweep");
  cli.option("--integrator", options.integrator, "leapfrog or omelyan (second-order minimum norm)");
  cli.option("--steps", options.steps, "integrator steps per trajectory").positive();
  cli.option("--trajectory-length", options.trajectory_length, "molecular-dynamics time of a trajectory").positive();
  cli.option("--trajectories", options.trajectories, "trajectories to run").positive();
  cli.option("--thermalise", options.thermalise, "trajectories left out of the averages");
  cli.option("--start", options.start, "hot (random links) or cold (unit links; with --no-metropolis-until)");
  cli.option("--no-metropolis-until", options.no_metropolis_until,
             "accept trajectories numbered below this without the Metropolis test (thermalisation from a cold start)");
  cli.option("--seed", options.seed, "random seed: momenta and decisions are a function of (seed, trajectory)");
  cli.option("--save-every", options.save_every, "write <out>_<trajectory>.nersc every k trajectories (0: never)");
  cli.option("--checkpoint-every", options.checkpoint_every, "write <out>_checkpoint.{nersc,hmc} every k trajectories");
  cli.flag("--resume", options.resume, "continue the chain from <out>_checkpoint.{nersc,hmc}");
  cli.option("--out", options.out, "output prefix");
  cli.option("--fermions", options.fermions, "dynamical quarks: none, wilson or clover (two flavours, even-odd)");
  cli.option("--mass", options.mass, "the quarks' bare mass m (or --kappa)");
  cli.option("--kappa", options.kappa, "the quarks' hopping parameter kappa = 1/(2 (m + 4)) (or --mass)");
  cli.option("--csw", options.c_sw, "clover coefficient c_sw (--fermions clover)");
  cli.option("--boundary", options.boundary,
             "quark boundary: antiperiodic (in time), periodic or twisted:a,b,c,d (theta_mu in units of pi)");
  cli.option("--gauge-steps", options.gauge_steps, "inner gauge steps per pseudofermion step (with --fermions)");
  cli.option("--action-tolerance", options.action_tolerance, "CG tolerance of the pseudofermion action").positive();
  cli.option("--force-tolerance", options.force_tolerance, "CG tolerance of the pseudofermion force").positive();
  cli.option("--flavours", options.flavours, "2 (a light pair), 2+1 (and a strange quark by RHMC) or 3 (degenerate, RHMC)");
  cli.option("--mu", options.mu,
             "twisted mass of the light doublet: M = 4 + m + i mu gamma_5 tau_3 - 1/2 Dslash (tmLQCD's 2KappaMu = 2 kappa mu)");
  cli.option("--strange-mass", options.strange_mass, "the strange quark's bare mass (--flavours 2+1; or --strange-kappa)");
  cli.option("--strange-kappa", options.strange_kappa, "the strange quark's hopping parameter (or --strange-mass)");
  cli.option("--strange-pseudofermions", options.strange_pseudofermions,
             "rational pseudofermions of the strange quark (n-th root: x^(-1/(2n)) each)").positive();
  cli.option("--light-rational", options.light_rational,
             "N >= 2: the light flavours in N rational pseudofermions instead of HMC (--flavours 3 needs it)");
  cli.option("--hasenbusch", options.hasenbusch,
             "heavier masses m2,m3,... of a Hasenbusch chain for the light pair (ratios and a pair at the heaviest)");
  cli.option("--hasenbusch-steps", options.hasenbusch_steps,
             "middle-level steps per outer step (with --hasenbusch: all but the lightest ratio)");
  cli.option("--rational-interval", options.rational_interval,
             "lower upper: the interval of the rational approximations (default: measured on the starting links)");
  cli.option("--rational-margin", options.rational_margin,
             "measured interval widened by this factor: [lambda_min (1 - f), lambda_max (1 + f)]");
  cli.option("--rational-tolerance", options.rational_tolerance, "relative error of the rational approximations").positive();
  cli.option("--rational-cache", options.rational_cache, "directory of cached rational approximations (\"\": none)");
  cli.option("--spectrum-every", options.spectrum_every,
             "measure the rational operators' spectrum every k trajectories (0: at the start and end only)");
  if (auto status = cli.parse(argc, argv)) return *status;
  try {
    return run(options);
  } catch (const HmcError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
