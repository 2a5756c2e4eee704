// The model catalogue (models/registry.hpp): each entry's title and parameter declarations
// are the ones its factory's model carries, and a scenario file naming a model the catalogue
// does not hold is refused when it is loaded, naming the file and the key.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "models/registry.hpp"
#include "tests/unit/test_support.hpp"

namespace wb {
namespace {
namespace fs = std::filesystem;

const std::string kKnown = "damped-wave, advected-wave, swe-semi-lagrangian, swe-adi, fft-ocean";

TEST(Catalogue, EachEntryBuildsTheModelItDescribes) {
  for (const auto& entry : modelCatalogue()) {
    SCOPED_TRACE(entry.id);
    const auto model = entry.factory();
    EXPECT_EQ(model->id(), entry.id);
    EXPECT_EQ(model->title(), entry.title);
    const auto& built = model->params().specs();
    ASSERT_EQ(built.size(), entry.specs.size());
    for (std::size_t k = 0; k < built.size(); ++k) {
      EXPECT_EQ(built[k].name, entry.specs[k].name);
      EXPECT_EQ(built[k].kind, entry.specs[k].kind);
      EXPECT_EQ(built[k].defaultValue, entry.specs[k].defaultValue);
      EXPECT_EQ(built[k].min, entry.specs[k].min);
      EXPECT_EQ(built[k].max, entry.specs[k].max);
      EXPECT_EQ(built[k].unit, entry.specs[k].unit);
      EXPECT_EQ(built[k].choices, entry.specs[k].choices);
      EXPECT_EQ(built[k].autoDerived, entry.specs[k].autoDerived);
    }
  }
}

TEST(Catalogue, IdsAreUniqueTitledAndListedInCatalogueOrder) {
  std::set<std::string> seen;
  for (const auto& entry : modelCatalogue()) {
    EXPECT_FALSE(entry.title.empty()) << entry.id;
    EXPECT_FALSE(entry.specs.empty()) << entry.id;
    EXPECT_TRUE(seen.insert(entry.id).second) << entry.id << " is listed twice";
  }
  std::string listed;
  for (const auto& id : modelIds())
    listed += (listed.empty() ? "" : ", ") + id;
  EXPECT_EQ(listed, kKnown);
}

TEST(Catalogue, UnknownIdNamesWhereAndTheKnownModels) {
  EXPECT_EQ(errorOf([] { catalogueEntry("nope", "--models"); }),
            "--models: unknown model 'nope' (known: " + kKnown + ")");
  EXPECT_EQ(errorOf([] { createModel("nope", "--set nope.k=1"); }),
            "--set nope.k=1: unknown model 'nope' (known: " + kKnown + ")");
  EXPECT_EQ(catalogueEntry("advected-wave").title, createModel("advected-wave")->title());
}

// A scenario file in a fresh folder (CTest runs tests in parallel processes).
class CatalogueScenario : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wavebench_catalogue_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& models) {
    const fs::path file = dir_ / name;
    std::ofstream(file) << R"({"grid": {"nx": 8, "ny": 8, "dx": 0.1}, "models": )" << models << "}";
    return file.string();
  }
  fs::path dir_;
};

TEST_F(CatalogueScenario, UnknownModelInAFileIsRefusedWhenLoaded) {
  const std::string file = write("typo.json", R"({"damped-wave": {}, "dampedwave": {"k": 1}})");
  EXPECT_EQ(errorOf([&] { loadCheckedScenario(file); }),
            file + ": models.dampedwave: unknown model (known: " + kKnown + ")");
  // Parsed without the check, the models are still refused by the same message.
  const Scenario unchecked = loadScenario(file);
  EXPECT_EQ(errorOf([&] { createScenarioModels(unchecked, {}, {}, false); }),
            file + ": models.dampedwave: unknown model (known: " + kKnown + ")");
}

TEST_F(CatalogueScenario, KnownModelsLoadWithTheirParameters) {
  const std::string file = write("good.json", R"({"damped-wave": {"k": 0.5}})");
  const Scenario scenario = loadCheckedScenario(file);
  const auto models = createScenarioModels(scenario, {}, {}, false);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0]->id(), "damped-wave");
  EXPECT_DOUBLE_EQ(models[0]->params().get("k"), 0.5);
  for (const auto& name : builtinScenarioNames())
    EXPECT_EQ(errorOf([&] { loadCheckedScenario("builtin:" + name); }), "no error") << name;
}

// Through wavebench-cli: exit 2 and the one-line message, before any output is written.
TEST_F(CatalogueScenario, CliReportsTheFileAndKey) {
  const std::string file = write("typo.json", R"({"nope": {}})");
  const fs::path err = dir_ / "stderr.txt", out = dir_ / "out";
  const std::string command = std::string(WAVEBENCH_CLI) + " run --scenario " + file + " --out " +
                              out.string() + " 2>" + err.string();
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::ifstream in(err);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            "wavebench-cli: " + file + ": models.nope: unknown model (known: " + kKnown + ")");
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace wb
