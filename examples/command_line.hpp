#pragma once
// The command line of the project's programs (examples/ and bench/): options,
// flags, checks and --help, parsed by CLI11.
//
// Why not CLI11 directly: CLI11 is header-only (Debian's 2.1.2 has no
// precompiled mode) and cost every program that included it 8-10 s of GCC
// -O3 and ~0.7 MB of object code, the same in all nine programs
// (lbm_cavity.cpp: 25-28 s before, 16-18 s with this header). This header
// includes only standard headers; the one file that includes CLI11,
// command_line.cpp, is compiled once (about 11 s) into the static library
// latte_command_line, which the programs link.
//
//   CommandLine cli{"What the program does"};
//   cli.option("--n", n, "lattice extent").range(4, 4096).show_default();
//   cli.flag("--restart", restart, "resume from the checkpoint");
//   if (auto status = cli.parse(argc, argv)) return *status;
//
// parse() behaves as CLI11_PARSE: --help prints the help on stdout and gives
// exit status 0; a bad command line prints CLI11's message on stderr and
// gives CLI11's exit code (non-zero); either way the program returns it.

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace latte::programs {

class CommandLine {
  struct Implementation;  // the CLI::App, in command_line.cpp

 public:
  // One option, to add checks and settings to; the CommandLine owns it.
  // Each call returns the same option, so that they chain.
  class Option {
   public:
    Option& range(int min, int max);        // CLI::Range(min, max): "INT in [min - max]"
    Option& range(double min, double max);  // "FLOAT in [min - max]"
    Option& positive();                     // CLI::PositiveNumber
    Option& non_negative();                 // CLI::NonNegativeNumber
    Option& one_of(std::initializer_list<int> values);          // CLI::IsMember
    Option& one_of(std::initializer_list<std::string> values);  // CLI::IsMember
    Option& expected(int count);  // a list option takes exactly this many values
    Option& show_default();       // the help shows the current value as the default
    Option& required();           // the command line must give it

   private:
    friend class CommandLine;
    Option(Implementation& implementation, std::size_t index) : implementation_(&implementation), index_(index) {}
    Implementation* implementation_;
    std::size_t index_;  // of the option in the Implementation
  };

  explicit CommandLine(const std::string& description);
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // An option with a value, read into `value` (which holds the default).
  // names: "--name" or "-n,--name". std::int64_t, std::uint64_t and
  // std::size_t are long and unsigned long on the project's platforms.
  Option option(const std::string& names, int& value, const std::string& help);
  Option option(const std::string& names, long& value, const std::string& help);
  Option option(const std::string& names, unsigned long& value, const std::string& help);
  Option option(const std::string& names, double& value, const std::string& help);
  Option option(const std::string& names, std::string& value, const std::string& help);
  // A list: values separated by spaces or commas ("8 8 8 16", "8,8,8,16").
  Option option(const std::string& names, std::vector<int>& values, const std::string& help);

  // A list of words ("point,wall" or "point wall"); names without dashes
  // make it positional ("configurations": the words that name no option).
  Option option(const std::string& names, std::vector<std::string>& values, const std::string& help);
  // A flag without a value: sets `value` to true, or to false for a name
  // written "!--no-name".
  void flag(const std::string& names, bool& value, const std::string& help);

  // Parses the command line. Empty: go on; else the program should return
  // this exit status (help printed, or the command line refused).
  [[nodiscard]] std::optional<int> parse(int argc, const char* const* argv);

  // How many times the option with this name was given.
  std::size_t count(const std::string& name) const;

 private:
  std::unique_ptr<Implementation> implementation_;
};

}  // namespace latte::programs
