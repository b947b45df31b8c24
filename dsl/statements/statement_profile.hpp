#pragma once
// The statement profile: for every distinct statement a program runs, how
// often, how long, and how that compares with the machine.
//
//   LATTE_PROFILE=1 (or table)  a table at exit, on standard error
//   LATTE_PROFILE=json          one JSON line per statement instead
//   LATTE_PROFILE=both          both
//   LATTE_PROFILE_FILE=path     write them to path instead of standard error
// or from the program: latte::profile::enable(). Off, a statement pays one
// test of an integer.
//
// A statement is identified by its expression's type and its region (a
// label the code around it sets: profile::Region region("WilsonDirac::apply")),
// and named by a short formula of its expression (dsl/expr/statement_model.hpp).
// Its flops and bytes per call come from the model derived from the
// expression, so GFLOPS and GB/s are those of the minimal-traffic model; the
// fraction of STREAM is against a triad the library measures once, at exit,
// where statements run (host loop, or a device kernel on cuda). Times are
// wall time around the whole statement, halo exchange included; on cuda,
// events on the stream statements run on (the profile waits for each).
// Under MPI each rank profiles its own part; rank 0 prints.
//
// profile::ModelCapture gathers the derived flops and bytes of every
// statement run while it lives, without timing: benchmarks take their
// models from it.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dsl/expr/statement_model.hpp"
#include "lattice/layout/environment.hpp"
#include "platform/comms/communicator.hpp"

namespace latte::profile {

struct Settings {
  bool table = false;
  bool json = false;
};

class ModelCapture;

struct Entry {
  std::string region, statement;
  std::int64_t calls = 0;
  double seconds = 0, flops = 0, bytes = 0;
  double flops_per_site = 0, bytes_per_site = 0, sites = 0;
};

struct State {
  Settings settings;
  std::vector<Entry> entries;
  std::map<std::pair<const void*, std::string>, std::size_t> index;
  const char* backend = "";
  double (*stream_triad)() = nullptr;
  int rank = 0, ranks = 1;
  bool reported = false, hooked = false;
  ModelCapture* capture = nullptr;
};
inline State& state() {
  static State s;
  return s;
}

inline void report();

namespace detail {
inline Settings settings_from_environment() {
  Settings s;
  const char* v = std::getenv("LATTE_PROFILE");
  if (!v) return s;
  const std::string value = v;
  s.table = value == "1" || value == "table" || value == "both";
  s.json = value == "json" || value == "both";
  if (!s.table && !s.json && value != "0" && !value.empty())
    std::fprintf(stderr, "Latte: LATTE_PROFILE=%s not understood (1, table, json, both or 0); no profile\n", v);
  return s;
}
// A JSON string literal (names hold only printable ASCII, but be safe).
inline std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}
inline int initial_listeners() {
  state().settings = settings_from_environment();
  return state().settings.table || state().settings.json ? 1 : 0;
}
}  // namespace detail

// How many want to hear of statements (the profile, captures): the one
// thing a statement tests when nobody does.
inline int listeners = detail::initial_listeners();

inline bool recording() { return state().settings.table || state().settings.json; }

// Turn the profile on from the program (as LATTE_PROFILE does), or off:
// enable(false) stops recording, and what was recorded is not printed.
inline void enable(bool table = true, bool json = false) {
  const bool on = table || json;
  if (on && !recording()) ++listeners;
  if (!on && recording()) --listeners;
  state().settings = Settings{table, json};
}

// The label of the statements run while it lives (innermost wins).
class Region {
 public:
  explicit Region(const char* name) : previous_(current()) { current() = name; }
  ~Region() { current() = previous_; }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  static const char*& current() {
    static thread_local const char* name = nullptr;
    return name;
  }

 private:
  const char* previous_;
};

// The summed derived models of the statements run while it lives.
class ModelCapture {
 public:
  ModelCapture() : previous_(state().capture) {
    state().capture = this;
    ++listeners;
  }
  ~ModelCapture() {
    state().capture = previous_;
    --listeners;
  }
  ModelCapture(const ModelCapture&) = delete;
  ModelCapture& operator=(const ModelCapture&) = delete;

  void add(const StatementModel& m) {
    flops += m.flops();
    bytes += m.bytes();
    ++statements;
    if (previous_) previous_->add(m);
  }
  double flops = 0, bytes = 0;  // this rank's
  int statements = 0;

 private:
  ModelCapture* previous_;
};

namespace detail {
// The part of a profiled run that does not depend on the statement's type,
// compiled once rather than once per statement.
inline void record(const void* key, const StatementModel& m, double seconds, const char* backend,
                   double (*stream_triad)(), std::string (*name)(const void*), const void* name_context) {
  State& s = state();
  if (s.capture) s.capture->add(m);
  if (!recording()) return;
  if (!s.hooked) {
    s.hooked = true;
    s.backend = backend;
    s.stream_triad = stream_triad;
    s.rank = world_communicator().rank();
    s.ranks = world_communicator().size();
    report_before_finalize() = &report;
    std::atexit(&report);
  }
  const char* region = Region::current();
  auto [it, added] = s.index.try_emplace(std::pair<const void*, std::string>(key, region ? region : ""), s.entries.size());
  if (added) {
    Entry e;
    e.region = region ? region : "";
    e.statement = name(name_context);
    s.entries.push_back(std::move(e));
  }
  Entry& e = s.entries[it->second];
  ++e.calls;
  e.seconds += seconds;
  e.flops += m.flops();
  e.bytes += m.bytes();
  e.flops_per_site = m.flops_per_site;
  e.bytes_per_site = m.bytes_per_site;
  e.sites = m.sites;
}
}  // namespace detail

// One run of a statement: `run` executes it, `model()` and `name()` describe
// it (called only when someone listens; name() once per statement).
template <class Backend, class Run, class Model, class Name>
void run_profiled(Run&& run, Model&& model, Name&& name) {
  static const char key = 0;  // one per statement type (each has its own lambdas)
  const auto named = [](const void* context) -> std::string { return (*static_cast<const std::remove_reference_t<Name>*>(context))(); };
  if (!recording()) {
    run();
    detail::record(&key, model(), 0, Backend::name, &Backend::stream_triad_gbytes_per_s, named, &name);
    return;
  }
  const typename Backend::StatementTimer timer;
  run();
  const double seconds = timer.seconds();
  detail::record(&key, model(), seconds, Backend::name, &Backend::stream_triad_gbytes_per_s, named, &name);
}

// The table and JSON lines, once (at the end of latte::Environment, or at exit).
inline void report() {
  State& s = state();
  if (s.reported || s.entries.empty() || !recording()) return;
  s.reported = true;
  const double triad = s.stream_triad ? s.stream_triad() : 0;
  if (s.rank != 0) return;
  std::FILE* out = stderr;
  const char* path = std::getenv("LATTE_PROFILE_FILE");
  if (path && *path) {
    out = std::fopen(path, "w");
    if (!out) {
      std::fprintf(stderr, "Latte: cannot write the profile to LATTE_PROFILE_FILE=%s; writing it here\n", path);
      out = stderr;
    }
  }
  std::vector<const Entry*> order;
  double total = 0;
  for (const Entry& e : s.entries) {
    order.push_back(&e);
    total += e.seconds;
  }
  std::sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) { return a->seconds > b->seconds; });
  if (s.settings.table) {
    std::fprintf(out,
                 "\nLatte statement profile: rank 0 of %d, backend %s, %zu statements, %.3f s in them; STREAM "
                 "triad %.1f GB/s (measured now)\n",
                 s.ranks, s.backend, order.size(), total, triad);
    std::fprintf(out, "%8s %9s %6s %8s %8s %7s %8s %8s  %s\n", "calls", "seconds", "time", "GFLOPS", "GB/s", "STREAM",
                 "flop/st", "byte/st", "statement (region: formula; fields a, b, ... in order, a the destination)");
    for (const Entry* e : order) {
      const double gbytes = e->bytes / e->seconds * 1e-9;
      const std::string label = e->region.empty() ? e->statement : e->region + ": " + e->statement;
      std::fprintf(out, "%8lld %9.4f %5.1f%% %8.2f %8.2f %7.3f %8.0f %8.0f  %s\n", static_cast<long long>(e->calls),
                   e->seconds, 100 * e->seconds / total, e->flops / e->seconds * 1e-9, gbytes,
                   triad > 0 ? gbytes / triad : 0.0, e->flops_per_site, e->bytes_per_site, label.c_str());
    }
    std::fprintf(out, "(flop/st, byte/st: per site, from the model derived from the expression; "
                      "GB/s and STREAM under that minimal-traffic model)\n");
  }
  if (s.settings.json)
    for (const Entry* e : order) {
      const double gbytes = e->bytes / e->seconds * 1e-9;
      std::fprintf(out,
                   "{\"profile\":\"statement\",\"region\":%s,\"statement\":%s,\"backend\":\"%s\",\"calls\":%lld,"
                   "\"seconds\":%.9g,\"gflops\":%.9g,\"gbytes_per_s\":%.9g,\"stream_triad_gbytes_per_s\":%.9g,"
                   "\"fraction_of_stream\":%.9g,\"flops_per_site\":%.9g,\"bytes_per_site_model\":%.9g,\"sites\":%.9g,"
                   "\"ranks\":%d}\n",
                   detail::json_string(e->region).c_str(), detail::json_string(e->statement).c_str(), s.backend,
                   static_cast<long long>(e->calls), e->seconds, e->flops / e->seconds * 1e-9, gbytes, triad,
                   triad > 0 ? gbytes / triad : 0.0, e->flops_per_site, e->bytes_per_site, e->sites, s.ranks);
    }
  std::fflush(out);
  if (out != stderr) std::fclose(out);
}

}  // namespace latte::profile
