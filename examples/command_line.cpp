// CommandLine on CLI11: the only file of the project that includes CLI11
// (command_line.hpp says why).

#include "examples/command_line.hpp"

#include <CLI/CLI.hpp>

namespace latte::programs {

struct CommandLine::Implementation {
  explicit Implementation(const std::string& description) : app(description) {}

  template <typename T>
  std::size_t add(const std::string& names, T& value, const std::string& help) {
    options.push_back(app.add_option(names, value, help));
    return options.size() - 1;
  }

  CLI::App app;
  std::vector<CLI::Option*> options;  // owned by app
};

CommandLine::Option& CommandLine::Option::range(int min, int max) {
  implementation_->options[index_]->check(CLI::Range(min, max));
  return *this;
}

CommandLine::Option& CommandLine::Option::range(double min, double max) {
  implementation_->options[index_]->check(CLI::Range(min, max));
  return *this;
}

CommandLine::Option& CommandLine::Option::positive() {
  implementation_->options[index_]->check(CLI::PositiveNumber);
  return *this;
}

CommandLine::Option& CommandLine::Option::non_negative() {
  implementation_->options[index_]->check(CLI::NonNegativeNumber);
  return *this;
}

CommandLine::Option& CommandLine::Option::one_of(std::initializer_list<int> values) {
  implementation_->options[index_]->check(CLI::IsMember(std::vector<int>(values)));
  return *this;
}

CommandLine::Option& CommandLine::Option::one_of(std::initializer_list<std::string> values) {
  implementation_->options[index_]->check(CLI::IsMember(std::vector<std::string>(values)));
  return *this;
}

CommandLine::Option& CommandLine::Option::expected(int count) {
  implementation_->options[index_]->expected(count);
  return *this;
}

CommandLine::Option& CommandLine::Option::show_default() {
  implementation_->options[index_]->capture_default_str();
  return *this;
}

CommandLine::Option& CommandLine::Option::required() {
  implementation_->options[index_]->required();
  return *this;
}

CommandLine::CommandLine(const std::string& description)
    : implementation_(std::make_unique<Implementation>(description)) {}

CommandLine::~CommandLine() = default;

CommandLine::Option CommandLine::option(const std::string& names, int& value, const std::string& help) {
  return Option(*implementation_, implementation_->add(names, value, help));
}

CommandLine::Option CommandLine::option(const std::string& names, long& value, const std::string& help) {
  return Option(*implementation_, implementation_->add(names, value, help));
}

CommandLine::Option CommandLine::option(const std::string& names, unsigned long& value, const std::string& help) {
  return Option(*implementation_, implementation_->add(names, value, help));
}

CommandLine::Option CommandLine::option(const std::string& names, double& value, const std::string& help) {
  return Option(*implementation_, implementation_->add(names, value, help));
}

CommandLine::Option CommandLine::option(const std::string& names, std::string& value, const std::string& help) {
  return Option(*implementation_, implementation_->add(names, value, help));
}

CommandLine::Option CommandLine::option(const std::string& names, std::vector<int>& values, const std::string& help) {
  const std::size_t index = implementation_->add(names, values, help);
  implementation_->options[index]->delimiter(',');  // "8 8 8 16" and "8,8,8,16" alike
  return Option(*implementation_, index);
}

CommandLine::Option CommandLine::option(const std::string& names, std::vector<std::string>& values,
                                        const std::string& help) {
  const std::size_t index = implementation_->add(names, values, help);
  implementation_->options[index]->delimiter(',');
  return Option(*implementation_, index);
}

void CommandLine::flag(const std::string& names, bool& value, const std::string& help) {
  implementation_->app.add_flag(names, value, help);
}

std::optional<int> CommandLine::parse(int argc, const char* const* argv) {
  try {
    implementation_->app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return implementation_->app.exit(error);  // as CLI11_PARSE
  }
  return std::nullopt;
}

std::size_t CommandLine::count(const std::string& name) const { return implementation_->app.count(name); }

}  // namespace latte::programs
