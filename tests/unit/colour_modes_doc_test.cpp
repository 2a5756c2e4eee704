// The views' colour modes (app/gui/views/view_settings.hpp, kColourModes) against
// docs/views.md: its "Colour by" table has one row for each declared mode, under the mode's menu
// name and with its colour bar title, and its command line lists every mode's --colour name.
// A mode added to the table without the page fails here. The table is a constexpr header with
// no Qt in it: read here without a display.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/gui/views/view_settings.hpp"

namespace wb::gui {
namespace {

std::string readPage(const std::string& name) {
  std::ifstream in(std::filesystem::path(WAVEBENCH_SOURCE_DIR) / "docs" / name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The body rows of the first table after `heading`, each its first and third cells.
std::vector<std::pair<std::string, std::string>> tableRows(const std::string& page,
                                                           const std::string& heading) {
  std::vector<std::pair<std::string, std::string>> rows;
  std::istringstream lines(page.substr(page.find("\n" + heading + "\n") + 1));
  std::string line;
  std::getline(lines, line);  // the heading
  bool inTable = false;
  while (std::getline(lines, line)) {
    if (!line.starts_with("|")) {
      if (inTable) break;
      continue;
    }
    if (!inTable || line.starts_with("|---")) {
      inTable = true;
      continue;  // the header row and the rule
    }
    std::vector<std::string> cells;
    std::istringstream cellText(line.substr(1));
    for (std::string cell; std::getline(cellText, cell, '|');)
      cells.push_back(cell);
    if (cells.size() >= 3) rows.emplace_back(cells[0], cells[2]);
  }
  return rows;
}

TEST(ColourModes, DocsListEveryDeclaredMode) {
  const std::string page = readPage("views.md");
  ASSERT_NE(page.find("\n## Colour by\n"), std::string::npos);
  const auto rows = tableRows(page, "## Colour by");
  EXPECT_EQ(rows.size(), kColourModes.size())
      << "docs/views.md, Colour by: one row for each mode of kColourModes";
  std::string names;
  for (const ColourModeSpec& spec : kColourModes) {
    int found = 0;
    for (const auto& [menu, title] : rows) {
      if (!menu.starts_with(std::string(" ") + spec.menu)) continue;
      ++found;
      // "%1" is the model subtracted: the page shows one.
      std::string pattern =
          std::regex_replace(std::string(spec.title), std::regex(R"([()\[\].*+?^$\\|])"), R"(\$&)");
      pattern = std::regex_replace(pattern, std::regex("%1"), "[a-z-]+");
      EXPECT_TRUE(std::regex_match(title, std::regex(" `" + pattern + "` ")))
          << "docs/views.md, Colour by, " << spec.menu << ": the title is " << spec.title;
    }
    EXPECT_EQ(found, 1) << "docs/views.md, Colour by: no row (or more than one) for " << spec.menu;
    names += std::string(names.empty() ? "" : "|") + spec.key + (spec.takesModel ? ":MODEL" : "");
  }
  EXPECT_NE(page.find("`wavebench --colour " + names + " "), std::string::npos)
      << "docs/views.md, From the command line: should list --colour " << names;
}

}  // namespace
}  // namespace wb::gui
