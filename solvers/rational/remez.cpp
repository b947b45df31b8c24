// The Remez exchange algorithm for x^(p/q) in the relative error; see remez.hpp.
#include "solvers/rational/remez.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "solvers/rational/extended_precision.hpp"
#include "solvers/rational/zolotarev.hpp"

namespace latte {
namespace {

using rational_detail::Real;
using rational_detail::Polynomial;
using rational_detail::evaluate;

// The problem on y in [eps, 1], searched in t = log y: g(y) = y^alpha.
struct Problem {
  int n;
  Real alpha;
  Real t_lower;  // log eps
  std::string name;

  // The relative error N / (D g) - 1 at t = log y.
  Real error(const Polynomial& N, const Polynomial& D, const Real& t) const {
    const Real y = exp(t);
    return evaluate(N, y) / (evaluate(D, y) * exp(alpha * t)) - 1;
  }
};

// Solve J dz = -F for the reference points in t: z = (a_0..a_n, b_0..b_{n-1}, E),
// D monic. Newton's method from z, in place; returns false without convergence.
bool solve_reference_equations(const Problem& problem, const std::vector<Real>& t, std::vector<Real>& z) {
  const int n = problem.n;
  const int m = 2 * n + 2;
  std::vector<Real> y(m), g(m);
  for (int i = 0; i < m; ++i) {
    y[i] = exp(t[i]);
    g[i] = exp(problem.alpha * t[i]);
  }
  std::vector<Real> matrix(static_cast<std::size_t>(m) * m), rhs(m);
  Real previous_change = 1;
  for (int step = 0; step < 60; ++step) {
    const Real E = z[2 * n + 1];
    const Polynomial N(z.begin(), z.begin() + n + 1);
    Polynomial D(z.begin() + n + 1, z.begin() + 2 * n + 1);
    D.push_back(1);  // monic
    for (int i = 0; i < m; ++i) {
      const Real sign = (i % 2 == 0) ? 1 : -1;
      const Real weight = g[i] * (1 + sign * E);
      Real* row = &matrix[static_cast<std::size_t>(i) * m];
      Real power = 1;
      for (int j = 0; j <= n; ++j) {  // d/da_j and d/db_j of N(y_i) - weight D(y_i)
        row[j] = power;
        if (j < n) row[n + 1 + j] = -weight * power;
        power *= y[i];
      }
      const Real D_value = evaluate(D, y[i]);
      row[2 * n + 1] = -g[i] * sign * D_value;  // d/dE
      rhs[i] = -(evaluate(N, y[i]) - weight * D_value);
    }
    // Gaussian elimination with partial pivoting.
    std::vector<Real> a = matrix, b = rhs;
    for (int col = 0; col < m; ++col) {
      int pivot = col;
      for (int r = col + 1; r < m; ++r)
        if (abs(a[static_cast<std::size_t>(r) * m + col]) > abs(a[static_cast<std::size_t>(pivot) * m + col])) pivot = r;
      if (a[static_cast<std::size_t>(pivot) * m + col] == 0) return false;
      if (pivot != col) {
        for (int c = 0; c < m; ++c) std::swap(a[static_cast<std::size_t>(pivot) * m + c], a[static_cast<std::size_t>(col) * m + c]);
        std::swap(b[pivot], b[col]);
      }
      for (int r = col + 1; r < m; ++r) {
        const Real factor = a[static_cast<std::size_t>(r) * m + col] / a[static_cast<std::size_t>(col) * m + col];
        if (factor == 0) continue;
        for (int c = col; c < m; ++c) a[static_cast<std::size_t>(r) * m + c] -= factor * a[static_cast<std::size_t>(col) * m + c];
        b[r] -= factor * b[col];
      }
    }
    std::vector<Real> dz(m);
    for (int r = m - 1; r >= 0; --r) {
      Real sum = b[r];
      for (int c = r + 1; c < m; ++c) sum -= a[static_cast<std::size_t>(r) * m + c] * dz[c];
      dz[r] = sum / a[static_cast<std::size_t>(r) * m + r];
    }
    Real largest_change = 0;
    for (int j = 0; j < m; ++j) {
      z[j] += dz[j];
      const Real scale = abs(z[j]) + Real("1e-60");
      largest_change = std::max(largest_change, Real(abs(dz[j]) / scale));
    }
    if (largest_change < Real("1e-70")) return true;
    // Converged to what the precision allows (high degrees over many
    // decades: the monomial basis is ill conditioned): the change has stopped
    // falling and is far below what double precision resolves.
    if (step >= 4 && largest_change < Real("1e-35") && largest_change >= previous_change / 2) return true;
    previous_change = largest_change;
  }
  return false;
}

// The point of [lo, hi] (in t) where sign * error is largest: golden-section
// search (the error is smooth and has one extremum between two zeros), the
// ends compared too.
Real extremum(const Problem& problem, const Polynomial& N, const Polynomial& D, Real lo, Real hi, int sign) {
  const Real ratio = (sqrt(Real(5)) - 1) / 2;
  auto value = [&](const Real& t) { return sign * problem.error(N, D, t); };
  const Real lo0 = lo, hi0 = hi;
  Real x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
  Real f1 = value(x1), f2 = value(x2);
  const Real width = (hi - lo) * Real("1e-14");
  while (hi - lo > width) {
    if (f1 < f2) {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + ratio * (hi - lo);
      f2 = value(x2);
    } else {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - ratio * (hi - lo);
      f1 = value(x1);
    }
  }
  Real best = (lo + hi) / 2, best_value = value(best);
  for (const Real& end : {lo0, hi0}) {
    const Real v = value(end);
    if (v > best_value) {
      best = end;
      best_value = v;
    }
  }
  return best;
}

// A zero of the error between t_a and t_b, where it changes sign.
Real zero_between(const Problem& problem, const Polynomial& N, const Polynomial& D, Real a, Real b) {
  Real fa = problem.error(N, D, a);
  for (int i = 0; i < 200 && b - a > Real("1e-40"); ++i) {
    const Real mid = (a + b) / 2;
    const Real fm = problem.error(N, D, mid);
    if ((fm < 0) == (fa < 0)) {
      a = mid;
      fa = fm;
    } else {
      b = mid;
    }
  }
  return (a + b) / 2;
}

// Where a Remez iteration is: the reference points (in t), the unknowns
// (N's coefficients, D's but its leading 1, E), and the levelled error.
struct RemezState {
  std::vector<Real> t, z;
  Real levelled = 0;
};

// Remez exchanges from `state` until the error's extrema agree to 1e-10
// relative, at most max_exchanges. Returns why it failed, or an empty string.
// (A step of the continuation in the power starts next to its answer and
// levels in a few exchanges; one that does not is cut short and halved.)
std::string exchange(const Problem& problem, RemezState& state, int max_exchanges = 200) {
  const int n = problem.n, m = 2 * n + 2;
  std::vector<Real>& t = state.t;
  Real best_spread = 2;
  int stalled = 0;
  for (int iteration = 0; iteration < max_exchanges; ++iteration) {
    if (!solve_reference_equations(problem, t, state.z)) return "Newton's method on the reference equations did not converge";
    Polynomial N(state.z.begin(), state.z.begin() + n + 1), D(state.z.begin() + n + 1, state.z.begin() + 2 * n + 1);
    D.push_back(1);
    // Zeros of the error between the reference points, then its extrema between the zeros.
    std::vector<Real> bounds{problem.t_lower};
    for (int i = 0; i + 1 < m; ++i) bounds.push_back(zero_between(problem, N, D, t[i], t[i + 1]));
    bounds.push_back(0);
    std::vector<Real> next(m);
    Real largest = 0, smallest = -1;
    for (int i = 0; i < m; ++i) {
      const int sign = (problem.error(N, D, t[i]) < 0) ? -1 : 1;
      next[i] = extremum(problem, N, D, bounds[i], bounds[i + 1], sign);
      const Real value = problem.error(N, D, next[i]);
      if (i > 0 && ((value < 0) == (problem.error(N, D, next[i - 1]) < 0)))
        return "the error's extrema do not alternate in sign (a pole inside the interval?)";
      largest = std::max(largest, Real(abs(value)));
      smallest = (smallest < 0) ? Real(abs(value)) : std::min(smallest, Real(abs(value)));
    }
    const Real spread = (largest - smallest) / largest;
    state.levelled = largest;
    t = next;
    if (spread <= Real("1e-10")) return "";
    // An exchange that no longer levels the error: near the precision's
    // limit (errors of 1e-13 over many decades at high degree) a pole-zero
    // pair can settle beside a reference point.
    if (spread < best_spread) {
      best_spread = spread;
      stalled = 0;
    } else if (++stalled == std::min(10, max_exchanges / 4)) {
      return "the Remez exchange stalled with extrema differing by " + spread.str(3) +
             " (relative); ask for a lower degree or a larger tolerance";
    }
  }
  return "the Remez iteration did not level the error in " + std::to_string(max_exchanges) + " exchanges";
}

void check_arguments(int numerator, int denominator, double lower, double upper) {
  std::ostringstream why;
  if (denominator == 0) why << "the power's denominator is 0";
  else if (numerator == 0 || std::abs(static_cast<double>(numerator) / denominator) >= 1)
    why << "the power " << numerator << "/" << denominator << " is not in (-1, 0) or (0, 1)";
  else if (!(lower > 0) || !(upper > lower) || !std::isfinite(upper))
    why << "the interval [" << lower << ", " << upper << "] is not one of 0 < lower < upper";
  if (!why.str().empty()) throw std::invalid_argument("Latte rational approximation: " + why.str());
}

}  // namespace

RationalApproximation remez_approximation(int numerator, int denominator, double lower, double upper, int degree) {
  check_arguments(numerator, denominator, lower, upper);
  if (degree < 1 || degree > 64)
    throw std::invalid_argument("Latte rational approximation: degree " + std::to_string(degree) + " is not in 1..64");
  RationalApproximation result;
  result.numerator = numerator;
  result.denominator = denominator;
  result.lower = lower;
  result.upper = upper;
  result.degree = degree;
  const int n = degree, m = 2 * n + 2;
  Problem problem{n, Real(numerator) / Real(denominator), log(Real(lower) / Real(upper)), result.description()};
  auto failure = [&](const std::string& why) {
    return std::runtime_error("Latte rational approximation of " + problem.name + ": " + why);
  };

  // The start: Zolotarev's approximation of y^-1/2 on [eps, 1] (its
  // product form expanded, the reference points the 2n + 2 extrema of its
  // error): the minimax approximation for alpha = -1/2 itself. From there
  // the power is moved to -|alpha| in steps (continuation: the minimax
  // approximation moves smoothly with the power, so each step's Remez
  // iteration starts next to its answer; a step that fails is halved), and
  // for a rising power the result is inverted (1 / r for y^-alpha is close
  // to the minimax r for y^alpha: the same extrema, the error's sign
  // turned) before a last Remez iteration. Starting each power from a guess
  // of its own (zeros moved from Zolotarev's, poles and zeros evenly spaced
  // in log y, or zero) left Newton's method at spurious solutions of the
  // reference equations, with poles inside the interval, for some powers
  // and degrees (x^-1/8 at degree 10, x^1/8 at 14, x^-3/8 at 12).
  const Real eps = exp(problem.t_lower);
  RemezState state;
  state.t.resize(m);
  state.z.assign(m, Real(0));
  {
    const std::vector<Real> c = rational_detail::zolotarev_coefficients(1 / eps, n);
    // Zolotarev's extrema in double precision are enough for a start.
    const RationalApproximation zolotarev = zolotarev_inverse_square_root(static_cast<double>(eps), 1.0, n);
    const std::vector<std::pair<double, double>> extrema = error_extrema(zolotarev);
    if (static_cast<int>(extrema.size()) != m) throw failure("Zolotarev's start has " + std::to_string(extrema.size()) + " extrema");
    for (int i = 0; i < m; ++i) state.t[i] = log(Real(extrema[i].first));
    state.t.front() = problem.t_lower;
    state.t.back() = 0;
    Polynomial numerator_product{Real(1)}, denominator_product{Real(1)};
    auto multiply = [](Polynomial& poly, const Real& root) {  // poly *= (y + root)
      Polynomial next(poly.size() + 1, Real(0));
      for (std::size_t j = 0; j < poly.size(); ++j) {
        next[j] += poly[j] * root;
        next[j + 1] += poly[j];
      }
      poly = next;
    };
    for (int l = 1; l <= n; ++l) {  // in y = eps u
      multiply(denominator_product, eps * c[2 * l - 1]);
      multiply(numerator_product, eps * c[2 * l]);
    }
    auto ratio = [&](const Real& tt) {  // R / y^-1/2 before the constant
      const Real y = exp(tt);
      return evaluate(numerator_product, y) / (evaluate(denominator_product, y) * exp(-tt / 2));
    };
    const Real C = 2 / (ratio(state.t.front()) + ratio(state.t.back()));  // levels the ends
    for (int j = 0; j <= n; ++j) state.z[j] = C * numerator_product[j];
    for (int j = 0; j < n; ++j) state.z[n + 1 + j] = denominator_product[j];
    state.z[2 * n + 1] = C * ratio(state.t.front()) - 1;
  }
  const Real target = -abs(problem.alpha);
  Real power = Real(-1) / 2, step = Real(1) / 8;
  std::string why = exchange(Problem{n, power, problem.t_lower, problem.name}, state);
  if (!why.empty()) throw failure("at the start (x^-1/2): " + why);
  while (power != target) {
    const Real next = (target > power) ? std::min(Real(power + step), target) : std::max(Real(power - step), target);
    RemezState trial = state;
    why = exchange(Problem{n, next, problem.t_lower, problem.name}, trial, 20);
    if (why.empty()) {
      power = next;
      state = trial;
    } else if ((step /= 2) < Real(1) / 1024) {
      throw failure("continuing from x^-1/2, at the power " + next.str(6) + ": " + why);
    }
  }
  if (problem.alpha > 0) {  // 1 / r: the numerator becomes the denominator, both made monic again
    const Real lead = state.z[n];
    std::vector<Real> inverted(m);
    for (int j = 0; j < n; ++j) inverted[j] = state.z[n + 1 + j] / lead;
    inverted[n] = 1 / lead;
    for (int j = 0; j < n; ++j) inverted[n + 1 + j] = state.z[j] / lead;
    inverted[2 * n + 1] = -state.z[2 * n + 1];
    state.z = inverted;
    why = exchange(problem, state);
    if (!why.empty()) throw failure("from the inverse of x^" + target.str(6) + "'s approximation: " + why);
  }
  const std::vector<Real>& z = state.z;
  Polynomial N(z.begin(), z.begin() + n + 1), D(z.begin() + n + 1, z.begin() + 2 * n + 1);
  D.push_back(1);
  const Real levelled = state.levelled;

  // Poles: the roots of D on the negative axis, y = -w, w from eps 1e-12 to 1e12.
  const Real w_low = log(Real(lower) / Real(upper)) - log(Real(1e12)), w_high = log(Real(1e12));
  const int samples = static_cast<int>(std::ceil(static_cast<double>(w_high - w_low) / std::log(10.0) * 200));
  auto D_at = [&](const Real& log_w) { return evaluate(D, -exp(log_w)); };
  std::vector<Real> roots;
  Real previous_point = w_low, previous_value = D_at(w_low);
  for (int i = 1; i <= samples; ++i) {
    const Real point = w_low + (w_high - w_low) * i / samples;
    const Real value = D_at(point);
    if ((value < 0) != (previous_value < 0)) {
      Real a = previous_point, b = point, fa = previous_value;
      for (int k = 0; k < 120; ++k) {
        const Real mid = (a + b) / 2, fm = D_at(mid);
        if ((fm < 0) == (fa < 0)) {
          a = mid;
          fa = fm;
        } else {
          b = mid;
        }
      }
      Real root = -exp((a + b) / 2);
      Polynomial derivative;
      for (int j = 1; j <= n; ++j) derivative.push_back(D[j] * j);
      for (int k = 0; k < 4; ++k) root -= evaluate(D, root) / evaluate(derivative, root);  // Newton polish
      roots.push_back(root);
    }
    previous_point = point;
    previous_value = value;
  }
  if (static_cast<int>(roots.size()) != n)
    throw failure("its denominator has " + std::to_string(roots.size()) + " roots on the negative axis, not " +
                  std::to_string(n) + " (complex or positive poles)");

  // Back to x = upper y: r(x) = upper^alpha R(x / upper).
  const Real scale = pow(Real(upper), problem.alpha);
  Polynomial derivative;
  for (int j = 1; j <= n; ++j) derivative.push_back(D[j] * j);
  result.constant = static_cast<double>(scale * N[n]);
  for (const Real& root : roots) {
    const Real residue = evaluate(N, root) / evaluate(derivative, root);
    result.poles.push_back(static_cast<double>(-root * Real(upper)));
    result.residues.push_back(static_cast<double>(residue * scale * Real(upper)));
  }
  // The error of what is returned: the levelled error, or where rounding
  // the coefficients to double moved it (the partial fractions of a rising
  // power cancel), the error the rounded coefficients have at their extrema.
  result.error = static_cast<double>(levelled);
  for (const auto& [x, e] : error_extrema(result)) result.error = std::max(result.error, std::abs(e));
  return result;
}

RationalApproximation remez_approximation_to_tolerance(int numerator, int denominator, double lower, double upper,
                                                       double tolerance, int max_degree) {
  check_arguments(numerator, denominator, lower, upper);
  if (!(tolerance > 0) || tolerance >= 1)
    throw std::invalid_argument("Latte rational approximation: tolerance " + std::to_string(tolerance) + " is not in (0, 1)");
  max_degree = std::min(max_degree, 64);
  // The error falls about geometrically with the degree: two probes give the rate.
  RationalApproximation low = remez_approximation(numerator, denominator, lower, upper, std::min(4, max_degree));
  if (low.error <= tolerance) {
    while (low.degree > 1) {
      RationalApproximation smaller = remez_approximation(numerator, denominator, lower, upper, low.degree - 1);
      if (smaller.error > tolerance) break;
      low = smaller;
    }
    return low;
  }
  int guess = std::min(max_degree, 8);
  RationalApproximation high = remez_approximation(numerator, denominator, lower, upper, guess);
  if (high.error > tolerance && guess < max_degree) {
    const double rate = std::log(high.error / low.error) / (high.degree - low.degree);  // negative
    const int next = high.degree + static_cast<int>(std::ceil(std::log(tolerance / high.error) / rate));
    high = remez_approximation(numerator, denominator, lower, upper, std::clamp(next, high.degree + 1, max_degree));
  }
  while (high.error > tolerance) {
    if (high.degree >= max_degree) {
      std::ostringstream why;
      why << "Latte rational approximation: x^(" << numerator << "/" << denominator << ") on [" << lower << ", " << upper
          << "] needs a degree above " << max_degree << " for a relative error of " << tolerance << " (degree "
          << high.degree << " reaches " << high.error << ")";
      throw std::runtime_error(why.str());
    }
    high = remez_approximation(numerator, denominator, lower, upper, high.degree + 1);
  }
  while (high.degree > 1) {  // the smallest degree that meets the tolerance
    RationalApproximation smaller = remez_approximation(numerator, denominator, lower, upper, high.degree - 1);
    if (smaller.error > tolerance) break;
    high = smaller;
  }
  return high;
}

}  // namespace latte
