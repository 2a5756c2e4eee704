// docs/architecture.md against the tree: the rooms it lists and the Model interface it
// describes exist, and nothing in a room or in the interface is missing from it. A file or a
// method added, moved or renamed without the page fails here, naming the page's row.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
const fs::path kSource = WAVEBENCH_SOURCE_DIR;

std::string readText(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The rows of the first table after the heading line `heading`, each split into its cells.
std::vector<std::vector<std::string>> tableAfter(const std::string& page,
                                                 const std::string& heading) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(page);
  std::string line;
  bool inSection = false, inTable = false;
  while (std::getline(lines, line)) {
    if (!inSection) {
      inSection = line == heading;
      continue;
    }
    if (line.rfind("|", 0) != 0) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    if (line.rfind("|---", 0) == 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t k = 1; k < line.size(); ++k) {
      if (line[k] == '|' && line[k - 1] != '\\') {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += line[k];
      }
    }
    rows.push_back(cells);
  }
  if (!rows.empty()) rows.erase(rows.begin());  // the header row
  return rows;
}

// The `quoted` words of a cell.
std::vector<std::string> quoted(const std::string& cell) {
  std::vector<std::string> words;
  const std::regex code("`([^`]+)`");
  for (auto it = std::sregex_iterator(cell.begin(), cell.end(), code); it != std::sregex_iterator();
       ++it)
    words.push_back((*it)[1]);
  return words;
}

// "gauges_dock" -> "GaugesDock".
std::string camelCase(const std::string& stem) {
  std::string name;
  bool upper = true;
  for (const char c : stem) {
    if (c == '_') {
      upper = true;
      continue;
    }
    name += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

std::set<std::string> headerStems(const fs::path& folder) {
  std::set<std::string> stems;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".hpp") stems.insert(entry.path().stem().string());
  return stems;
}

const std::string kPage = "docs/architecture.md";

// Every file a core/ room lists exists, and every header of a room is listed in its row.
TEST(ArchitectureDoc, CoreRoomsListTheirFilesAndOnlyThose) {
  const auto rows = tableAfter(readText(kSource / kPage), "### core/ rooms");
  ASSERT_GE(rows.size(), 8u) << kPage << ": the core/ rooms table was not found";
  std::set<std::string> roomsListed;
  for (const auto& row : rows) {
    ASSERT_GE(row.size(), 3u);
    const auto room = quoted(row[0]);
    const fs::path folder = kSource / "core" / (room.empty() ? "" : room.front());
    const std::string name = room.empty() ? "(top)" : room.front();
    roomsListed.insert(name);
    std::set<std::string> listed;
    for (const std::string& file : quoted(row[1])) {
      const fs::path stem = fs::path(file).stem();
      listed.insert(stem.string());
      const bool exists = fs::path(file).has_extension() ? fs::exists(folder / file)
                                                         : fs::exists(folder / (file + ".hpp")) ||
                                                               fs::exists(folder / (file + ".cpp"));
      EXPECT_TRUE(exists) << kPage << ": core room " << name << " lists `" << file
                          << "`, which is not in " << folder;
    }
    if (room.empty()) continue;  // the top level: only what the row names
    for (const std::string& stem : headerStems(folder))
      EXPECT_TRUE(listed.count(stem))
          << kPage << ": core/" << name << stem << ".hpp is not in the room's row";
  }
  for (const auto& entry : fs::directory_iterator(kSource / "core")) {
    if (!entry.is_directory()) continue;
    EXPECT_TRUE(roomsListed.count(entry.path().filename().string() + "/"))
        << kPage << ": core/" << entry.path().filename().string() << "/ has no row";
  }
}

// Every class an app/gui room names is declared in that room, and every header of a room is
// named in its row (by its file name or its class: gauges_dock.hpp as `GaugesDock`).
TEST(ArchitectureDoc, GuiRoomsNameTheirUnitsAndOnlyThose) {
  const auto rows = tableAfter(readText(kSource / kPage), "### app/gui rooms");
  ASSERT_GE(rows.size(), 5u) << kPage << ": the app/gui rooms table was not found";
  std::set<std::string> roomsListed;
  const std::regex identifier("^[A-Z][A-Za-z0-9]*$");
  for (const auto& row : rows) {
    ASSERT_GE(row.size(), 2u);
    const auto room = quoted(row[0]);
    ASSERT_FALSE(room.empty()) << kPage << ": an app/gui row names no room";
    const fs::path folder = kSource / "app" / "gui" / room.front();
    roomsListed.insert(room.front());
    ASSERT_TRUE(fs::is_directory(folder)) << kPage << ": app/gui/" << room.front() << " is gone";
    std::string sources;
    for (const auto& entry : fs::directory_iterator(folder))
      sources += readText(entry.path());
    std::set<std::string> named;
    for (const std::string& word : quoted(row[1])) {
      named.insert(word);
      if (!std::regex_match(word, identifier)) continue;
      EXPECT_TRUE(
          std::regex_search(sources, std::regex("(class|struct|enum class) " + word + "\\b")))
          << kPage << ": app/gui/" << room.front() << " names `" << word
          << "`, which no file there declares";
    }
    for (const std::string& stem : headerStems(folder))
      EXPECT_TRUE(named.count(camelCase(stem)) || named.count(stem) || named.count(stem + ".hpp"))
          << kPage << ": app/gui/" << room.front() << stem << ".hpp (`" << camelCase(stem)
          << "`) is not in the room's row";
  }
  for (const auto& entry : fs::directory_iterator(kSource / "app" / "gui")) {
    if (!entry.is_directory()) continue;
    EXPECT_TRUE(roomsListed.count(entry.path().filename().string() + "/"))
        << kPage << ": app/gui/" << entry.path().filename().string() << "/ has no row";
  }
}

// The Model table's members are the interface's virtual members, all of them.
TEST(ArchitectureDoc, TheModelTableIsTheInterface) {
  const auto rows = tableAfter(readText(kSource / kPage), "## The Model interface");
  ASSERT_GE(rows.size(), 10u) << kPage << ": the Model table was not found";
  std::set<std::string> listed;
  const std::regex call("^([A-Za-z]+)\\(");
  for (const auto& row : rows)
    for (const std::string& word : quoted(row.at(0))) {
      std::smatch m;
      if (std::regex_search(word, m, call)) listed.insert(m[1]);
    }
  const std::string header = readText(kSource / "core/model/model.hpp");
  std::set<std::string> declared;
  const std::regex member("virtual [^;{(]*?\\b([A-Za-z]+)\\(");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), member);
       it != std::sregex_iterator(); ++it)
    declared.insert((*it)[1]);
  ASSERT_GE(declared.size(), 10u) << "core/model/model.hpp: no virtual members found";
  for (const std::string& name : declared)
    EXPECT_TRUE(listed.count(name) || name == "Model")  // the destructor
        << kPage << ": Model::" << name << " is not in the Model table";
  for (const std::string& name : listed)
    EXPECT_TRUE(declared.count(name) || name == "params")
        << kPage << ": the Model table lists `" << name
        << "()`, which core/model/model.hpp does not declare virtual";
}

}  // namespace
